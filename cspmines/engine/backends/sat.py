"""The ``"sat"`` backend on python-sat: model enumeration, and certain cells without counting.

Every box of s cells gets s ordered ("unary") variables, ``y[b, j]`` = "box b
holds at least j mines", so one assignment of the y's is one mine number per
box and interchangeable cells are never enumerated apart. A rule is
"exactly v of these y's are true". With a solver that has native cardinality
constraints (minicard, the default) every variable is a y. With a plain CNF
solver the rules become :mod:`pysat.card` encodings with auxiliary variables,
and blocking clauses mention only the y's, so that a mine layout is counted
once however the auxiliaries fall.

Examples
--------
>>> from cspmines import Position
>>> from cspmines.engine.chains import chains_of
>>> (chain,) = chains_of(Position.from_string("4x1\\n.1.1"))
>>> SatBackend().count(chain).models
(0, 1)
>>> SatBackend(solver="cadical153").count(chain).models
(0, 1)
"""

from __future__ import annotations

import threading
from itertools import pairwise
from math import comb

from ...errors import BackendUnavailableError
from ..budget import Budget, Stopwatch, out_of_time
from ..chains import Chain
from .base import ChainCount, dense_coefficients

__all__ = ["SatBackend", "BoxEncoding", "chain_cnf", "encode_chain", "encoding_bytes", "ganak_layouts"]


def _pysat():
    try:
        from pysat.card import CardEnc, EncType
        from pysat.formula import IDPool
        from pysat.solvers import Solver
    except ImportError as error:  # pragma: no cover - python-sat is a runtime dependency
        raise BackendUnavailableError(
            "the 'sat' backend needs python-sat: pip install python-sat"
        ) from error
    return Solver, IDPool, CardEnc, EncType


class BoxEncoding:
    """Unary box variables and exact-count constraints in one python-sat solver.

    Parameters
    ----------
    solver : str
        A python-sat solver name. Native cardinality is used when it has it.

    The encoding owns its solver's handle: use it as a context manager (``with BoxEncoding() as
    encoding:``), which deletes the solver when the block ends, however it ends; :meth:`close` does so
    by hand, once (a second call does nothing).

    >>> with BoxEncoding() as encoding:
    ...     lits = encoding.unary("box", 2)
    ...     encoding.exactly(lits, 1)
    ...     bool(encoding.solve())
    True
    >>> encoding.solver is None
    True
    """

    def __init__(self, solver: str = "minicard"):
        Solver, IDPool, CardEnc, EncType = _pysat()
        self.pool = IDPool()  # maps ("y", group, box, j) to a variable
        try:
            self.solver = Solver(name=solver)
        except Exception as error:
            raise BackendUnavailableError(f"python-sat has no solver named {solver!r}: {error}") from error
        self.native = self.solver.supports_atmost()
        self._card, self._enc = CardEnc, EncType
        self.primary: list[int] = []

    def __enter__(self) -> BoxEncoding:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def close(self) -> None:
        """Delete the solver (its memory is outside Python's); nothing once done."""
        if self.solver is not None:
            self.solver.delete()
            self.solver = None

    def unary(self, key, size: int) -> list[int]:
        """``size`` ordered variables for a group of interchangeable cells."""
        lits = [self.pool.id(("y", key, j)) for j in range(1, size + 1)]
        for lower, higher in pairwise(lits):
            self.solver.add_clause([-higher, lower])  # at least j+1 mines implies at least j
        self.primary.extend(lits)
        return lits

    def exactly(self, lits: list[int], bound: int) -> None:
        """Exactly ``bound`` of ``lits`` are true."""
        self.at_most(lits, bound)
        self.at_most([-lit for lit in lits], len(lits) - bound)

    def at_most(self, lits: list[int], bound: int) -> None:
        """At most ``bound`` of ``lits`` are true (natively, or by a pysat.card encoding)."""
        if self.native:
            self.solver.add_atmost(lits, bound)
            return
        encoding = self._card.atmost(lits=lits, bound=bound, vpool=self.pool, encoding=self._enc.seqcounter)
        for clause in encoding.clauses:
            self.solver.add_clause(clause)

    def solve(self, assumptions=(), budget: Budget | None = None) -> bool | None:
        """Satisfiable? ``None`` when the budget's deadline interrupted the search."""
        remaining = None if budget is None else budget.left()
        if remaining is None:
            return self.solver.solve(assumptions=list(assumptions))
        if remaining <= 0:
            return None
        timer = threading.Timer(remaining, self.solver.interrupt)
        timer.start()
        try:
            answer = self.solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
        finally:
            timer.cancel()
            self.solver.clear_interrupt()
        return answer

    def model_set(self) -> set:
        return {lit for lit in self.solver.get_model() if lit > 0}


#: What the memory allowance is charged: a blocking clause's literal in the solver (with its watches),
#: a sparse tally entry, and an entry of a finished tally row (a pointer; the ints are shared or small).
_CLAUSE_BYTES_PER_LITERAL = 8
_TALLY_BYTES = 16
_ROW_BYTES = 8


#: What a literal of the encoding holds in the solver: its unary clauses, its place in the rules'
#: cardinality constraints and its watches (100 to 170 bytes measured on lattices of 10,000 to 30,000 cells).
_ENCODING_BYTES_PER_LITERAL = 256


def encoding_bytes(chains) -> int:
    """The bytes :func:`encode_chain` makes the solver hold for ``chains``, about."""
    literals = 0
    for chain in chains:
        sizes = [box.size for box in chain.boxes]
        literals += sum(sizes) + sum(sizes[b] for rule in chain.rules for b in rule.boxes)
    return _ENCODING_BYTES_PER_LITERAL * literals


def chain_cnf(chain: Chain) -> tuple[list[list[int]], range]:
    """A chain's rules as plain CNF for an outside model counter: variable ``i + 1`` is the chain's ``i``-th
    cell (:attr:`Chain.cells`), each rule "exactly ``mines`` of these cells" a sequential-counter
    encoding whose auxiliary variables come after the cells. Its models projected on the cells (the range
    returned) are the chain's layouts, one each: how an independent counter such as Ganak checks ours.

    >>> from cspmines import Position
    >>> from cspmines.engine.chains import chains_of
    >>> (chain,) = chains_of(Position.from_string("3x1\\n.1."))
    >>> clauses, cells = chain_cnf(chain)
    >>> list(cells), [1, 2] in clauses
    ([1, 2], True)
    """
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    cells = chain.cells
    variable = {cell: index + 1 for index, cell in enumerate(cells)}
    pool = IDPool(start_from=len(cells) + 1)
    clauses: list[list[int]] = []
    for rule in chain.rules:
        literals = [variable[cell] for box in rule.boxes for cell in chain.boxes[box].cells]
        clauses.extend(CardEnc.equals(lits=literals, bound=rule.mines, vpool=pool, encoding=EncType.seqcounter).clauses)
    return clauses, range(1, len(cells) + 1)


def ganak_layouts(chain: Chain) -> int:
    """The chain's layouts as Ganak counts them (the ``pyganak`` package, an exact model counter written
    by others): the models of :func:`chain_cnf`'s clauses projected on its cells. The tests' independent
    check of the engine's counts, and the benchmarks' peer; ImportError where pyganak is not installed
    (it comes with the ``test`` extra).

    >>> from cspmines import Position
    >>> from cspmines.engine.chains import chains_of
    >>> (chain,) = chains_of(Position.from_string("3x1\\n.1."))
    >>> ganak_layouts(chain)   # the 1's mine on either side
    2
    """
    try:
        import pyganak
    except ImportError:
        raise ImportError("counting with Ganak needs pyganak: pip install pyganak (or the test extra)") from None
    clauses, cells = chain_cnf(chain)
    counter = pyganak.Counter()
    counter.add_clauses(clauses)
    counter.set_sampling_set(cells)
    return counter.count()


def encode_chain(encoding: BoxEncoding, chain: Chain, group=0) -> list[list[int]]:
    """Add ``chain``'s rules to ``encoding``; each box's unary literals, in box order
    (keyed by ``(group, box)``, so several chains can share one encoding)."""
    boxes = [encoding.unary((group, b), len(box.cells)) for b, box in enumerate(chain.boxes)]
    for rule in chain.rules:
        encoding.exactly([lit for b in rule.boxes for lit in boxes[b]], rule.mines)
    return boxes


class SatBackend:
    """Exact counting by enumerating box-level models with python-sat (``"sat"``).

    Cost follows the number of box-level models, so it suits narrow
    chains; a budget stops it (one node per model).

    Every backend counts to the same answer: see the example in :mod:`cspmines.engine.backends`.

    Parameters
    ----------
    solver : str, keyword-only
        python-sat solver name: ``"minicard"`` (native cardinality, the
        default) or any CNF solver such as ``"cadical153"``, ``"glucose4"``.
    """

    name = "sat"

    def __init__(self, *, solver: str = "minicard"):
        self.solver = solver

    def count(self, chain: Chain, *, budget: Budget | None = None) -> ChainCount:
        watch = Stopwatch()
        if budget is not None:
            budget.reserve(encoding_bytes([chain]), "the SAT encoding")
        with BoxEncoding(self.solver) as encoding:
            boxes = encode_chain(encoding, chain)
            sizes = [len(lits) for lits in boxes]
            models: dict[int, int] = {}
            # tallies kept sparse, by mine number: a dense row per box would be boxes x cells before a
            # single model is found (about 20 GB for a lattice of 45,000 boxes)
            tallies: list[dict[int, int]] = [{} for _ in boxes]
            solutions = 0
            # each model found adds a blocking clause over every primary literal, and a tally entry per box
            per_model = _CLAUSE_BYTES_PER_LITERAL * len(encoding.primary) + _TALLY_BYTES * len(boxes)
            while True:
                answer = encoding.solve(budget=budget)
                if answer is None:
                    raise out_of_time(budget)
                if not answer:
                    break
                true = encoding.model_set()
                mines = [sum(1 for lit in lits if lit in true) for lits in boxes]
                weight = 1
                for size, m in zip(sizes, mines, strict=True):
                    weight *= comb(size, m)
                k = sum(mines)
                models[k] = models.get(k, 0) + weight
                for b, m in enumerate(mines):
                    if m:
                        tallies[b][k] = tallies[b].get(k, 0) + weight * m
                solutions += 1
                if budget is not None:
                    budget.reserve(per_model * (solutions + 1), "the SAT enumeration's blocking clauses")
                    budget.spend(1)
                # block this box-level assignment only: auxiliaries may differ, the layout may not
                encoding.solver.add_clause([-lit if lit in true else lit for lit in encoding.primary])
            if budget is not None:  # the tallies as rows up to their largest mine number, sized before made
                budget.reserve(_ROW_BYTES * sum(max(t, default=0) + 1 for t in tallies), "the SAT count's tally rows")
        return ChainCount(
            models=dense_coefficients(models),
            tallies=tuple(dense_coefficients(t) for t in tallies),
            stats={"backend": self.name, "solver": self.solver, "solutions": solutions, "seconds": watch.seconds},
        )
