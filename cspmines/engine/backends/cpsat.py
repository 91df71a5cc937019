"""The ``"cpsat"`` backend on OR-Tools CP-SAT: enumerate box-level solutions.

Model, variables, constraints, solve, statistics: one integer variable per
box (its number of mines), one linear equality per rule, every solution
enumerated by one worker (several workers may report a solution twice), and
a count trusted only when the status is OPTIMAL (the enumeration finished).

Examples
--------
>>> from cspmines import Position
>>> from cspmines.engine.chains import chains_of
>>> (chain,) = chains_of(Position.from_string("3x1\\n.1."))
>>> CpSatBackend().count(chain).models
(0, 2)
"""

from __future__ import annotations

from math import comb

from ...errors import BackendUnavailableError, BudgetExceededError
from ..budget import Budget, Stopwatch, out_of_time
from ..chains import Chain
from .base import ChainCount, dense_coefficients

__all__ = ["CpSatBackend", "front_mine_range"]


#: What the memory allowance is charged: a sparse tally entry, and a variable or constraint term in
#: CP-SAT's model, its presolved copy and its search (1.3 to 2.4 KB a term measured on lattices of 40,000
#: and 110,000 terms, OR-Tools' own start-up included).
_TALLY_BYTES = 16
_CPSAT_BYTES_PER_TERM = 2048


def _terms(chain: Chain) -> int:
    """The variables and constraint terms of a chain's model: one a box, one a box in a rule."""
    return chain.n_boxes + sum(len(rule.boxes) for rule in chain.rules)


def _cp_model():
    try:
        from ortools.sat.python import cp_model
    except ImportError as error:  # pragma: no cover - ortools is a runtime dependency
        raise BackendUnavailableError("the 'cpsat' backend needs OR-Tools: pip install ortools") from error
    return cp_model


def _tally_callback(cp_model, variables, sizes, n_cells, budget):
    class Tally(cp_model.CpSolverSolutionCallback):
        """Adds each solution's binomial weight to the counts by mine number."""

        def __init__(self):
            super().__init__()
            self.models: dict[int, int] = {}  # sparse by mine number, as the "sat" backend keeps them
            self.tallies: list[dict[int, int]] = [{} for _ in variables]
            self.solutions = 0
            self.entries = 0  # tally entries made: what the tallies hold (by mine number, not by solution)
            self.stopped_by_budget = None

        def on_solution_callback(self):
            mines = [self.value(v) for v in variables]
            weight = 1
            for size, m in zip(sizes, mines, strict=True):
                weight *= comb(size, m)
            k = sum(mines)
            self.models[k] = self.models.get(k, 0) + weight
            for b, m in enumerate(mines):
                if m:
                    row = self.tallies[b]
                    self.entries += k not in row
                    row[k] = row.get(k, 0) + weight * m
            self.solutions += 1
            if budget is not None:
                try:
                    budget.reserve(_TALLY_BYTES * self.entries, "the CP-SAT enumeration's tallies")
                    budget.spend(1)
                except BudgetExceededError as error:
                    self.stopped_by_budget = error
                    self.stop_search()

    return Tally()


class CpSatBackend:
    """Exact counting by CP-SAT solution enumeration (``"cpsat"``); one node per solution.

    Every backend counts to the same answer: see the example in :mod:`cspmines.engine.backends`.
    """

    name = "cpsat"

    def count(self, chain: Chain, *, budget: Budget | None = None) -> ChainCount:
        cp_model = _cp_model()
        watch = Stopwatch()
        # model, variables, constraints
        if budget is not None:  # CP-SAT's own copy of the model, sized before it is made
            budget.reserve(_CPSAT_BYTES_PER_TERM * _terms(chain), "the CP-SAT model")
        model = cp_model.CpModel()
        sizes = [len(box.cells) for box in chain.boxes]
        variables = [model.new_int_var(0, size, f"box{b}") for b, size in enumerate(sizes)]
        for rule in chain.rules:
            model.add(sum(variables[b] for b in rule.boxes) == rule.mines)
        # solve
        solver = cp_model.CpSolver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        remaining = None if budget is None else budget.left()
        if remaining is not None:
            if remaining <= 0:
                raise out_of_time(budget)
            solver.parameters.max_time_in_seconds = remaining
        tally = _tally_callback(cp_model, variables, sizes, sum(sizes), budget)
        status = solver.solve(model, tally)
        # statistics
        if tally.stopped_by_budget is not None:
            raise tally.stopped_by_budget
        if status == cp_model.INFEASIBLE:
            tally.models, tally.tallies = {}, [{} for _ in variables]
        elif status != cp_model.OPTIMAL:
            raise BudgetExceededError(f"CP-SAT stopped before enumerating every solution ({solver.status_name(status)})")
        return ChainCount(
            models=dense_coefficients(tally.models),
            tallies=tuple(dense_coefficients(t) for t in tally.tallies),
            stats={
                "backend": self.name,
                "solutions": tally.solutions,
                "branches": solver.num_branches,
                "seconds": watch.seconds,
            },
        )



def front_mine_range(chains, *, budget: Budget | None = None) -> tuple[int, int] | None:
    """The fewest and most mines the chains can hold together, by CP-SAT optimisation.

    Returns ``None`` when some chain has no layout at all.

    Raises
    ------
    BudgetExceededError
        The deadline passed before both bounds were proved optimal.

    >>> from cspmines import Position
    >>> from cspmines.engine.chains import chains_of
    >>> front_mine_range(chains_of(Position.from_string("5x1\\n.1.1.")))
    (1, 2)
    """
    if budget is not None:
        budget.reserve(_CPSAT_BYTES_PER_TERM * sum(_terms(chain) for chain in chains), "the CP-SAT model")
    cp_model = _cp_model()
    model = cp_model.CpModel()
    total = []
    for c, chain in enumerate(chains):
        variables = [model.new_int_var(0, len(box.cells), f"c{c}b{b}") for b, box in enumerate(chain.boxes)]
        for rule in chain.rules:
            model.add(sum(variables[b] for b in rule.boxes) == rule.mines)
        total.extend(variables)
    if not total:
        return (0, 0)
    bounds = []
    for sense in (model.minimize, model.maximize):
        sense(sum(total))
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        remaining = None if budget is None else budget.left()
        if remaining is not None:
            solver.parameters.max_time_in_seconds = max(1e-3, remaining)
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return None
        if status != cp_model.OPTIMAL:
            raise BudgetExceededError("CP-SAT could not prove the front's mine range within the time limit")
        bounds.append(int(round(solver.objective_value)))
    return bounds[0], bounds[1]
