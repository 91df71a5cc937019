"""The solver: a position in, an exact :class:`~cspmines.engine.analysis.Analysis` out, by an engine
(:meth:`cspmines.Engine.solve`; ``cspmines.solve`` uses the calling thread's default engine).

Examples
--------
>>> import cspmines
>>> position = cspmines.Position.from_string('''
... 4x3x2
... 1...
... 1...
... 1...
... ''')
>>> analysis = solve(position, engine=cspmines.Engine())
>>> analysis.model_count          # (1,1) is the front's mine; the other hides in 6 cells
6
>>> analysis.probabilities(exact=True)[1, 1], analysis.probabilities(exact=True)[0, 3]
(Fraction(1, 1), Fraction(1, 6))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from numbers import Real
from typing import Any

from ..errors import BudgetExceededError, InconsistentPositionError, MemoryBudgetError, MissingTotalError
from ..position import Position, is_whole
from .analysis import Analysis
from .bounded import bound_chains
from .budget import Budget, Limit, check_board_size, read_limit
from .chains import split_chains
from .combine import Combination, afford_combining, combine_chains, combine_with_density
from .constraints import ConstraintSystem, Settled, mines_word, settle_position
from .counting import Parts, count_smallest_first
from .prover import find_certain, satisfiable
from .question import Density, read_density

__all__ = ["Question", "combine_parts", "exact_analysis", "read_question", "solve", "total_or_density"]


def solve(
    position: Position,
    *,
    engine,
    mines: int | None = None,
    density: Real | Density | None = None,
    limit: Limit | None = None,
    explain: bool = True,
    settle: bool = True,
) -> Analysis:
    """Exact model counts and mine probabilities of a position, by ``engine``.

    Parameters
    ----------
    position : Position
    engine : Engine, keyword-only
        The :class:`~cspmines.engine.Engine` that counts (its backend) and remembers (its cache);
        :func:`cspmines.solve` passes the calling thread's default engine of the backend asked for.
    mines : int, keyword-only
        The board's mine total, overriding the position's header.
    density : float, Fraction or Density, keyword-only
        When the total is unknown: each covered cell is a mine independently
        with this chance. A float is read by its decimal text (0.15 is 3/20).
    limit : Limit, keyword-only
        The budget: ``Limit(time=, nodes=, max_chain=, memory=)`` (:class:`~cspmines.engine.budget.Limit`;
        the memory allowance's default unless given). ``max_chain`` follows influence through at most
        that many boxes: longer chains are cut (see :mod:`cspmines.engine.bounded`), an approximation;
        proved cells stay exact, every other probability is listed in ``inexact_cells``.
    explain : bool, keyword-only
        On an inconsistent position, shrink the conflict to a small set of
        clues for the message (a few extra counts). Searches that try many
        hypothetical positions turn it off.
    settle : bool, keyword-only
        Before splitting into chains, take out the cells that single clues
        force, repeatedly (:func:`~cspmines.engine.constraints.settle_position`): a
        forced cell carries no influence, and positions from real play are
        full of them. The answer is the same either way; the chains are
        then the chains of the undecided cells. False keeps every clue's
        chain as the clues give it (studies of the raw constraint graph).

    Returns
    -------
    Analysis

    Raises
    ------
    InconsistentPositionError
        No mine layout fits; the message names the clues involved.
    MissingTotalError
        The total is unknown and neither ``mines`` nor ``density`` was given.

    Examples
    --------
    >>> from cspmines import Engine, Position
    >>> solve(Position.from_string("3x1\\n.1."), engine=Engine(), density=0.2).probability(0)
    Fraction(1, 2)
    >>> solve(Position.from_string("3x1x2\\n.0."), engine=Engine())
    Traceback (most recent call last):
    ...
    cspmines.errors.InconsistentPositionError: inconsistent position: the clues leave room for 0 mines, but 2 remain
    """
    question = read_question(position, mines=mines, density=density, limit=limit)
    budget = question.limit.start()
    counting = budget.share(_COUNTING_SHARE)  # the rest is kept for the certain cells, should counting stop
    settled = _settled(position, question.mines, settle)
    chains, rest, cut_cells = _chains(settled.system, engine, question.limit.max_chain)
    counts = count_smallest_first(engine.counter, chains, counting, cache=_cache_for(engine, counting))
    parts = Parts.of_solve(settled, chains, counts, rest, mines=question.total(position), density=question.density, cut_cells=cut_cells)
    if not _counted_whole(parts, counts, chains, counting):
        return _partial_analysis(position, parts, budget.rest(nodes=None).start(), engine, cut=_cut_reason(counting))
    combination = combine_parts(parts)
    if combination.model_count == 0:
        raise _inconsistency(position, question.mines, parts, engine.counter, explain)
    analysis = exact_analysis(position, parts, combination, engine)
    if settle and not cut_cells:  # what solve_revealed starts from (cspmines.engine.reveal), kept by the engine
        engine.cache.kept[analysis] = parts
    return analysis


@dataclass(frozen=True)
class Question:
    """What a solve is asked, checked: the total (``mines``, overriding the position's) or a ``density``, and
    the ``limit`` (:func:`read_question`)."""

    mines: int | None
    density: Fraction | None
    limit: Limit

    def total(self, position: Position) -> int | None:
        """The total the layouts are counted with (None under a density)."""
        return None if self.density is not None else (self.mines if self.mines is not None else position.mines)


def read_question(position: Position, *, mines=None, density=None, limit: Limit | None = None) -> Question:
    """The question of a solve or a draw, each part checked here once: a :class:`Position`, a board within
    the memory allowance, a total or a density (:func:`total_or_density`), a :class:`Limit`.

    >>> from cspmines import Position
    >>> read_question(Position.from_string("3x1x1\\n.1.")).limit == Limit()
    True
    >>> read_question("3x1x1")
    Traceback (most recent call last):
    ...
    TypeError: solve() needs a Position, got str
    """
    if not isinstance(position, Position):
        raise TypeError(f"solve() needs a Position, got {type(position).__name__}")
    limit = read_limit(limit)
    check_board_size(position.width, position.height, limit.memory)
    mines, chance = total_or_density(position, mines, density)
    return Question(mines, chance, limit)


def _settled(position: Position, mines: int | None, settle: bool) -> Settled:
    """The position's rules, the cells single clues force taken out unless ``settle`` is False."""
    if settle:
        return settle_position(position, mines=mines)
    return Settled.unchanged(ConstraintSystem.from_position(position, mines=mines))


def _chains(system: ConstraintSystem, engine, max_chain: int | None):
    """(chains, the cells off every chain, the cells of chains cut): the system's chains, longer ones cut."""
    return _cut_long_chains(split_chains(system, engine.cache), system.unconstrained_cells, max_chain)


def _cache_for(engine, budget: Budget):
    """The engine's cache of counts where the count may use it: a budgeted count spends its budget as asked,
    reading no kept count (nor one a backend object may share a name with)."""
    return engine.cache if not budget.limited and isinstance(engine.backend, str) else None


def _counted_whole(parts: Parts, counts, chains, budget: Budget) -> bool:
    """Whether every chain was counted and, under a total, the counts can be combined within the budget
    (:func:`~cspmines.engine.combine.afford_combining` marks the budget spent when they cannot)."""
    if parts.density is None and parts.counted:
        afford_combining(counts, chains, budget)
    return parts.counted and not budget.exhausted


def _inconsistency(position: Position, mines: int | None, parts: Parts, counter, explain: bool) -> InconsistentPositionError:
    """The error of a position no layout fits: naming a small set of conflicting clues when ``explain``."""
    if not explain:
        return InconsistentPositionError("no mine layout fits (explain=False: clues not named)")
    return _explain_inconsistency(position, ConstraintSystem.from_position(position, mines=mines), parts, counter)


def _cut_long_chains(chains, rest: tuple, max_chain: int | None):
    """(chains, rest, cells of the chains cut): cut chains longer than ``max_chain`` boxes."""
    if max_chain is None or all(c.n_boxes <= max_chain for c in chains):
        return chains, rest, frozenset()
    long_chains = [c for c in chains if c.n_boxes > max_chain]
    if not satisfiable(long_chains):  # a relaxation must not hide an inconsistency
        raise InconsistentPositionError("no mine layout satisfies the clues of a chain that max_chain would cut")
    cut_cells = frozenset(cell for c in long_chains for cell in c.cells)
    chains, orphans = bound_chains(chains, max_boxes=max_chain)
    return chains, rest + tuple(orphans), cut_cells


def combine_parts(parts: Parts) -> Combination:
    """The chains' counts and the rest combined under the question: the density, else the total."""
    box_sizes = [[size for size, _ in chain.structure[0]] for chain in parts.chains]  # read off the kept structure
    return combine_chains(parts.counts, box_sizes, rest_size=len(parts.rest), mines_left=parts.mines_left, density=parts.density)


def exact_analysis(position, parts: Parts, combination, engine) -> Analysis:
    """The analysis of a fully counted position from its parts (exact unless chains were cut). Its
    chances and chain reports are worked out when first read: a caller that reads only the model
    count (a question about one outcome) or one cell's chance skips the rest."""
    cut_cells = parts.cut_cells
    groups: Any = partial(parts.groups, combination)  # made when first read, or now
    inexact: frozenset = frozenset()
    if cut_cells:
        # certainties survive a relaxation; with a total every other cell feels the cut
        groups = groups()
        uncertain = {cell for cells, p in groups if p not in (0, 1) for cell in cells}
        inexact = frozenset(uncertain if parts.density is None else uncertain & (cut_cells | set(parts.rest)))
    return Analysis(
        position,
        parts,
        model_count=None if cut_cells else combination.model_count,
        groups=groups,
        # the chances' common one (None: they are Fractions, as every inexact analysis has them)
        denominator=None if cut_cells else combination.denominator,
        inexact_cells=inexact,
        engine=engine,
        combination=combination,
    )


#: With a time limit, counting may use this share; the rest is kept for the certain-cells check.
_COUNTING_SHARE = 0.8


def _cut_reason(budget: Budget) -> str:
    """Which allowance stopped the counting: ``"memory"``, else ``"budget"`` (time or nodes)."""
    return "memory" if isinstance(budget.stopped_by, MemoryBudgetError) else "budget"


def _partial_analysis(position, parts: Parts, budget, engine, cut: str = "budget") -> Analysis:
    """What can still be said when some chain was not counted within the budget.

    Certain cells come from the SAT check (the mine total included) and are
    exact. Every other probability is an estimate and is listed in
    ``inexact_cells``: with a density, counted chains stay exact (they
    are independent) and a cut chain's cells take the density; with a
    known total, which couples everything, every uncertain cell is estimated
    as if the total were the density it implies.
    """
    chains, counts, rest, density = parts.chains, parts.counts, parts.rest, parts.density
    try:
        certain = find_certain(chains, rest_size=len(rest), mines_left=parts.mines_left, budget=budget)
    except (BudgetExceededError, MemoryError):  # nothing proved: every uncertain cell stays an estimate
        certain = (set(), set(), None)
    if certain is None:
        raise InconsistentPositionError("no mine layout satisfies the clues and the mine total together")
    safe, full, rest_verdict = certain
    exact_density = density is not None
    if density is None:
        assert parts.mines_left is not None  # a question has a total or a density
        estimate = Fraction(parts.mines_left, max(1, parts.undecided))
    else:
        estimate = density
    groups, inexact = parts.forced_groups(), set()
    for c, (chain, count) in enumerate(zip(chains, counts, strict=True)):
        if count is not None:
            sizes = [[box.size for box in chain.boxes]]
            (probabilities,) = combine_with_density([count], sizes, rest_size=0, density=estimate).box_probabilities
        else:
            probabilities = [estimate] * chain.n_boxes
        for b, (box, p) in enumerate(zip(chain.boxes, probabilities, strict=True)):
            if (c, b) in safe or (c, b) in full:
                groups.append((box.cells, Fraction(int((c, b) in full))))
            elif count is not None and exact_density:
                groups.append((box.cells, p))
            else:
                groups.append((box.cells, float(p)))
                inexact.update(box.cells)
    if rest:
        if rest_verdict is not None:
            groups.append((rest, Fraction(int(rest_verdict == "mines"))))
        elif exact_density:
            groups.append((rest, density))
        else:
            groups.append((rest, float(estimate)))
            inexact.update(rest)
    return Analysis(
        position,
        parts,
        model_count=None,
        groups=groups,
        chains=parts.reports(cut),
        inexact_cells=frozenset(inexact),
        engine=engine,
    )


def _check_options(*, mines, density) -> None:
    """Refuse a total that is none, and a total beside a density, by name (the density is checked by
    :func:`~cspmines.engine.question.read_density`, the budget by :func:`~cspmines.engine.budget.read_limit`).

    >>> _check_options(mines="1", density=None)
    Traceback (most recent call last):
    ...
    ValueError: mines must be a whole number >= 0, got '1'
    >>> _check_options(mines=5, density=0.2)
    Traceback (most recent call last):
    ...
    ValueError: give the mine total or a density, not both (mines=5, density=0.2)
    """
    if mines is not None and not (is_whole(mines) and mines >= 0):
        raise ValueError(f"mines must be a whole number >= 0, got {mines!r}")
    if mines is not None and density is not None:
        raise ValueError(f"give the mine total or a density, not both (mines={mines}, density={density})")


def total_or_density(position: Position, mines: int | None, density) -> tuple[int | None, Fraction | None]:
    """(mines, density) as the counting takes them, checked: a density (a number or a
    :class:`~cspmines.engine.question.Density`), read exactly, sets the total aside; without one, a
    total must be known. Every entry point that takes a density reads it here.

    >>> from cspmines import Position
    >>> total_or_density(Position.from_string("3x1\\n.1."), None, 0.2)
    (None, Fraction(1, 5))
    >>> total_or_density(Position.from_string("3x1\\n.1."), None, Density("0.2"))
    (None, Fraction(1, 5))
    >>> total_or_density(Position.from_string("3x1\\n.1."), None, None)
    Traceback (most recent call last):
    ...
    cspmines.errors.MissingTotalError: the position's mine total is unknown: pass mines= or density=
    """
    _check_options(mines=mines, density=density)
    chance = read_density(density)
    if chance is not None:
        return None, chance
    if mines is None and position.mines is None:
        raise MissingTotalError("the position's mine total is unknown: pass mines= or density=")
    return mines, None


def _explain_inconsistency(position, system: ConstraintSystem, parts: Parts, counter) -> InconsistentPositionError:
    """An error naming a small set of clues that no layout satisfies together, read on ``system``, the
    clues as given (a conflict the settling met may rest on other clues): ``parts`` where they are its."""
    if parts.settled.system != system:
        chains = split_chains(system)
        parts = Parts.of_solve(Settled.unchanged(system), chains, [counter.count(chain) for chain in chains],
                               system.unconstrained_cells, mines=parts.mines, density=parts.density)
    mine_range = combine_parts(parts).mine_range
    rest_size, density = len(parts.rest), parts.density
    for chain, count in zip(parts.chains, parts.counts, strict=True):
        if count.total == 0:
            labels = _minimal_conflict(system, set(chain.labels))
            return InconsistentPositionError(
                "no mine layout satisfies these clues together",
                clues=tuple(position.row_col(label) for label in sorted(labels)),
            )
    if density is not None:  # every layout weighs nothing: a density of 0 or 1 forces every cell
        return InconsistentPositionError(f"no mine layout fits the clues when each covered cell is a mine with chance {density}")
    low, high = mine_range
    room = mines_word(low, "mine") if low == high + rest_size else f"between {low} and {high + rest_size} mines"
    left = system.mines_left
    return InconsistentPositionError(f"the clues leave room for {room}, but {left} {'remains' if left == 1 else 'remain'}")


def _minimal_conflict(system: ConstraintSystem, labels: set, *, max_rules: int = 40) -> set:
    """Shrink a conflicting set of clues by deletion: drop each clue the conflict survives without.

    Above ``max_rules`` clues the whole set is returned: shrinking costs one
    count per clue and the point is a readable message, not a proof.
    """
    if len(labels) > max_rules:
        return labels
    from .backends.dynamic import DynamicProgrammingBackend

    counter = DynamicProgrammingBackend()

    def conflicting(subset: set) -> bool:
        rules = tuple(rule for rule in system.rules if rule.label in subset)
        sub = ConstraintSystem(rules, system.cells, None)
        return any(counter.count(c).total == 0 for c in split_chains(sub))

    kept = set(labels)
    for label in sorted(labels):
        trial = kept - {label}
        if trial and conflicting(trial):
            kept = trial
    return kept
