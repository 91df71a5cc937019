"""What a player is shown beside the chances, exactly: dead cells, 50/50s and endgame winning chances.

Three readings of a position, each defined on its layouts (the exact
definitions, and why they mean what they say, are in docs/engine.md):

* :func:`dead_cells`: covered cells that are safe in some layout and show the
  same clue in every layout where they are safe (for a 0, every cell its
  cascade opens shows one clue too), so opening one tells nothing but that it
  was safe;
* :func:`fifty_fifties`: sets of cells split into two halves, one all mines
  and the other all safe, which no other cell can ever tell apart
  (``unavoidable``), or only cells that are themselves guesses can
  (``pseudo``);
* :func:`endgame_chances`: each covered cell's chance of winning the game
  with best play after opening it, and the position's own: the value of the
  position (:mod:`cspmines.engine.value`), exact within the budget, else
  proven bounds.

:func:`insight_of` gathers the three within a :class:`~cspmines.engine.budget.Limit`.
None of it runs unless asked: a solve, and an agent's move, never pay for it.

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("5x1x2\\n.1..."))
>>> seen = insight_of(analysis)
>>> seen.dead   # safe, (0,0) sees no cell and (0,4) the mine beside it
(0, 4)
>>> [(f.halves, f.kind, f.tellers) for f in seen.fifty_fifties]   # each pair told apart only by a cell of the other
[(((0,), (2,)), 'pseudo', (3,)), (((3,), (4,)), 'pseudo', (2,))]
>>> seen.endgame.probability, seen.endgame.value(2).probability   # (0,2) is a coin flip that tells the other pair's
(Fraction(1, 2), Fraction(1, 2))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..actions import Vocabulary
from ..errors import BudgetExceededError, MissingTotalError, TooLargeError
from ..position import COVERED, FLAG
from .budget import SLIVER, Budget, Limit, read_limit
from .clues import clue_spreads
from .reveal import solve_revealed
from .solver import solve
from .value import PositionValue, value_of
from .valuesearch import StopReason

__all__ = ["PARTS", "FiftyFifty", "FiftyFiftyKind", "Insight", "dead_cells", "endgame_chances", "fifty_fifties", "insight_of"]


HALF = Fraction(1, 2)
#: The insight's parts, in the order :func:`insight_of` works them out.
PARTS = ("dead", "fifty_fifties", "endgame")


class FiftyFiftyKind(Vocabulary):
    """Whether anything but a guess can ever tell a 50/50's halves apart."""

    UNAVOIDABLE = "unavoidable"  # nothing can: a coin flip that must be taken some time
    PSEUDO = "pseudo"  # only cells that are themselves guesses can


@dataclass(frozen=True)
class FiftyFifty:
    """A 50/50: in every layout one half is all mines and the other all safe, each half with chance 1/2.

    Attributes
    ----------
    halves : tuple of two tuples of int
        The two halves, each in flat order, the one holding the smallest cell first.
    kind : FiftyFiftyKind
    tellers : tuple of int
        The covered cells that could tell the halves apart (each sees more of one half than of the
        other and is safe in some layout); none for an unavoidable one, only guesses for a pseudo one.
    """

    halves: tuple
    kind: FiftyFiftyKind
    tellers: tuple = ()

    @property
    def cells(self) -> tuple:
        """Both halves' cells, in flat order."""
        return tuple(sorted(self.halves[0] + self.halves[1]))




@dataclass(frozen=True)
class Insight:
    """What :func:`insight_of` found; a part it could not work out is None, with the reason in ``missing``.

    Attributes
    ----------
    dead : tuple of int or None
        :func:`dead_cells`.
    fifty_fifties : tuple of FiftyFifty or None
        :func:`fifty_fifties`.
    endgame : PositionValue or None
        :func:`endgame_chances` (None with a reason where the layouts could not be listed within the budget).
    missing : dict
        Part name (``"dead"``, ``"fifty_fifties"``, ``"endgame"``) -> why it is None.
    """

    dead: tuple | None
    fifty_fifties: tuple | None
    endgame: PositionValue | None
    missing: dict = field(default_factory=dict, hash=False)


def dead_cells(analysis, *, limit: Limit | None = None) -> tuple:
    """The covered cells whose opening can tell nothing, in flat order.

    A cell is dead when it is safe in some layout and shows the same clue in every layout where it is
    safe, and, where that clue is 0, every cell its cascade opens shows one clue in all of them too. The
    layouts left after opening it are then exactly those in which it is safe: surviving is all it tells.

    Raises
    ------
    MissingTotalError
        The analysis has no mine total or no exact count.
    BudgetExceededError
        The limit's time ran out.

    Examples
    --------
    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
    >>> [analysis.position.row_col(cell) for cell in dead_cells(analysis)]   # safe, they see both mines, or the one
    [(0, 2), (0, 3), (1, 2), (1, 3)]
    """
    _check_counted(analysis)
    budget = read_limit(limit).start()
    spreads = clue_spreads(analysis, analysis.position.covered_cells, limit=_rest(budget, memory=None))
    dead = []
    for cell, spread in spreads.items():
        shown = _shown(spread)
        if len(shown) == 1 and (shown[0] or _quiet_cascade(analysis, cell, budget)):
            dead.append(cell)
    return tuple(dead)


def _shown(spread) -> list:
    """The clues a cell shows in some layout where it is safe."""
    return [clue for clue, layouts in enumerate(spread.clues) if layouts]


def _quiet_cascade(analysis, cell: int, budget: Budget) -> bool:
    """Whether every cell the cascade of ``cell`` (a 0 whenever safe) opens shows one clue in every
    layout where ``cell`` is safe. Revealing a clue every one of those layouts shows leaves them all, so
    each cell of the cascade is read in the one analysis of ``cell`` revealed."""
    after = solve_revealed(analysis, cell, 0)
    position = after.position
    flat = position.grid.ravel()
    seen = {cell}
    wave = [n for n in position.neighbours(cell) if flat[n] == COVERED]
    seen.update(wave)
    while wave:
        following = []
        for n, spread in clue_spreads(after, wave, limit=_rest(budget, memory=None)).items():
            shown = _shown(spread)
            if len(shown) != 1:
                return False
            if shown[0] == 0:  # a 0 opens its covered neighbours in turn
                fresh = [m for m in position.neighbours(n) if flat[m] == COVERED and m not in seen]
                seen.update(fresh)
                following += fresh
        wave = following
    return True


def fifty_fifties(analysis, *, limit: Limit | None = None) -> tuple:
    """The position's 50/50s, unavoidable and pseudo (:class:`FiftyFifty`), by their first cell.

    A 50/50 is a set of covered cells split into two halves A and B of one size, such that in every
    layout one half is all mines and the other all safe, and every opened clue next to them sees as many
    cells of A as of B (so swapping the halves turns each layout into another: each cell is a mine with
    chance exactly 1/2). A covered cell next to them that sees more of one half than of the other and is
    safe in some layout is a *teller*: its clue could tell the halves apart. With no teller the 50/50 is
    unavoidable (no cell but its own can ever tell, so one of them must be guessed some time); with
    tellers that are all guesses (each a mine in some layout) it is a pseudo-50/50: only a guess can
    resolve it now. One with a proved-safe teller is neither: opening that cell tells for free.
    Each cell of chance 1/2 is tied to the others by one solve with it flagged, within ``limit``.

    Raises
    ------
    MissingTotalError
        The analysis has no mine total or no exact count.
    BudgetExceededError
        The limit's time or memory ran out.

    Examples
    --------
    >>> from cspmines import Position, solve
    >>> fifty_fifties(solve(Position.from_string("2x2x1\\n11\\n..")))   # the 1s see both cells: nothing else can
    (FiftyFifty(halves=((2,), (3,)), kind='unavoidable', tellers=()),)
    >>> fifty_fifties(solve(Position.from_string("3x2x1\\n11.\\n...")))   # (1,0) or (1,1): (0,2), proved safe, tells which
    ()
    """
    _check_counted(analysis)
    budget = read_limit(limit).start()
    # cells of one group (a box, or the cells off the front) are interchangeable: one solve tells for all
    group_of = {cell: cells for cells, p in analysis.groups() if p == HALF for cell in cells}
    halves = tuple(sorted(group_of))  # every cell of chance 1/2, in flat order
    found: list = []
    classified: set = set()
    for a in halves:
        if a in classified:
            continue
        if budget.expired():
            raise BudgetExceededError("the time limit ran out while looking for 50/50s")
        same, other = _partners(analysis, a, halves, budget)
        classified.update(same, other)
        if not set(group_of[a]) <= same | other:
            # a cell of its group that varies apart from it: by the group's symmetry, no cell of the group
            # is tied to any other cell (docs/engine.md), so none is in a 50/50
            classified.update(group_of[a])
            continue
        fifty = _as_fifty_fifty(analysis, tuple(sorted(same)), tuple(sorted(other)))
        if fifty is not None:
            found.append(fifty)
    return tuple(sorted(found, key=lambda fifty: fifty.cells))


def _partners(analysis, a: int, halves: tuple, budget: Budget) -> tuple[set, set]:
    """(the cells that are mines exactly when ``a`` is, ``a`` among them; those that are mines exactly
    when it is not): the position solved with ``a`` a mine proves them mines and safe."""
    flagged = analysis.position._with_cell(a, FLAG)
    given = solve(flagged, engine=analysis.engine, mines=analysis.mines, explain=False, limit=_rest(budget, nodes=None))
    if not given.exact:
        raise BudgetExceededError("the time limit or the memory allowance ran out while looking for 50/50s")
    same = {a} | {y for y in halves if y != a and given.probability(y) == 1}  # with P(y) = 1/2: y is a mine exactly when a is
    other = {y for y in halves if y != a and given.probability(y) == 0}
    return same, other


def _as_fifty_fifty(analysis, first: tuple, second: tuple) -> FiftyFifty | None:
    """The 50/50 of two halves tied against each other, or None where they do not make one."""
    if not first or not second or len(first) != len(second):
        return None
    position = analysis.position
    flat = position.grid.ravel()
    inside = set(first) | set(second)
    around = sorted({n for cell in inside for n in position.neighbours(cell)} - inside)
    tellers = []
    for n in around:
        near = set(position.neighbours(n))
        if len(near & set(first)) == len(near & set(second)):
            continue  # sees as many of each: the same clue whichever half holds the mines
        if flat[n] >= 0:
            return None  # an opened clue seeing more of one half: swapping them is no layout
        if flat[n] == COVERED and analysis.probability(n) != 1:
            tellers.append(n)  # flags, opened mines, withheld clues and certain mines tell nothing
    if any(analysis.probability(n) == 0 for n in tellers):
        return None  # a proved-safe cell tells which half holds the mines
    halves = (first, second) if first[0] < second[0] else (second, first)
    kind = FiftyFiftyKind.PSEUDO if tellers else FiftyFiftyKind.UNAVOIDABLE
    return FiftyFifty(halves, kind, tuple(tellers))


def endgame_chances(analysis, *, limit: Limit | None = None) -> PositionValue:
    """Every covered cell's chance of winning with best play after opening it, and the position's: the value
    of the position (:func:`cspmines.engine.value.value_of`, every cell's value worked out), exact within
    ``limit``, else proven bounds marked not exact.

    Raises
    ------
    MissingTotalError
        The analysis has no mine total or no exact count.
    BudgetExceededError
        The layouts could not be listed within the limit (too many for its time or memory).

    Examples
    --------
    >>> from cspmines import Position, solve
    >>> endgame = endgame_chances(solve(Position.from_string("5x3x3\\n1....\\n2....\\n.....")))
    >>> endgame.layouts, endgame.probability, endgame.best_cells   # (2,3) or (2,4) first: 31 games in 36
    (36, Fraction(31, 36), (13, 14))
    >>> endgame.value(1).probability   # (0,1) first: a mine 1 time in 2 (the 1 and the 2 share it), 17 in 36
    Fraction(17, 36)
    """
    _check_counted(analysis)
    found = value_of(analysis.position.with_mines(analysis.mines), limit=limit, cells="all")
    if not found.layouts:
        why = "time" if found.stopped_by == StopReason.TIME else "memory allowance"
        raise BudgetExceededError(f"not searched: {analysis.model_count:,} layouts, more than the {why} can list and search")
    return found


def insight_of(analysis, *, limit: Limit | None = None, parts=PARTS, endgame_share: float = 1.0) -> Insight:
    """:func:`dead_cells`, :func:`fifty_fifties` and :func:`endgame_chances` within ``limit`` (its time
    shared by the three in that order: each is given what the ones before it left); a part that
    cannot be worked out is None, with the reason in ``Insight.missing``. The counting is done by the
    engine that solved ``analysis``.

    Parameters
    ----------
    analysis : Analysis
        Counted exactly, with the mine total.
    limit : Limit, keyword-only
    parts : iterable of str, keyword-only
        The parts worked out, among :data:`PARTS`; one left out is None, ``"not asked"`` its reason.
    endgame_share : float, keyword-only
        The share of the time left, when its turn comes, that the endgame's search may take (above 0, at most 1): a
        caller that answers within a time of its own (the web server) keeps the rest for what follows.

    Examples
    --------
    >>> from cspmines import Position, solve
    >>> seen = insight_of(solve(Position.from_string("3x2x1\\n1..\\n1..")))
    >>> seen.dead, seen.fifty_fifties[0].kind, seen.endgame.probability   # (0,1) or (1,1): nothing else can tell
    ((1, 2, 4, 5), 'unavoidable', Fraction(1, 2))
    >>> insight_of(solve(Position.from_string("3x1\\n.1."), density=0.5)).missing["dead"]
    'the insight needs the mine total and an exact count (a density or a budget gives none)'
    >>> only = insight_of(solve(Position.from_string("3x2x1\\n1..\\n1..")), parts=["endgame"])
    >>> only.dead, only.missing, only.endgame.probability
    (None, {'dead': 'not asked', 'fifty_fifties': 'not asked'}, Fraction(1, 2))
    """
    limit = read_limit(limit)
    asked = _check_parts(parts)
    if not 0 < endgame_share <= 1:
        raise ValueError(f"endgame_share must be above 0 and at most 1, got {endgame_share!r}")
    try:
        _check_counted(analysis)
    except MissingTotalError as error:
        return Insight(None, None, None, {part: str(error) for part in PARTS})
    budget = limit.start()
    missing: dict = {part: "not asked" for part in PARTS if part not in asked}
    found: dict = dict.fromkeys(PARTS)
    work = {"dead": dead_cells, "fifty_fifties": fifty_fifties, "endgame": endgame_chances}
    for part in asked:
        share = endgame_share if part == "endgame" else 1.0
        try:
            found[part] = work[part](analysis, limit=_rest(budget, share))
        except (BudgetExceededError, TooLargeError) as error:  # out of time or of memory: said, not guessed
            missing[part] = str(error)
    return Insight(found["dead"], found["fifty_fifties"], found["endgame"], missing)


def _check_parts(parts) -> tuple:
    """The parts asked for, in the order they are worked out; a word not among :data:`PARTS` is refused.

    >>> _check_parts(["endgame", "dead"])
    ('dead', 'endgame')
    >>> _check_parts(["dead", "deadcells"])
    Traceback (most recent call last):
    ...
    ValueError: the insight's parts are dead, fifty_fifties and endgame, got 'deadcells'
    """
    parts = [parts] if isinstance(parts, str) else list(parts)
    for part in parts:
        if part not in PARTS:
            raise ValueError(f"the insight's parts are {', '.join(PARTS[:-1])} and {PARTS[-1]}, got {part!r}")
    return tuple(part for part in PARTS if part in parts)


def _check_counted(analysis) -> None:
    if analysis.mines is None or analysis.model_count is None:
        raise MissingTotalError("the insight needs the mine total and an exact count (a density or a budget gives none)")


def _rest(budget: Budget, share: float = 1.0, **changes) -> Limit:
    """What is left of ``budget`` for the next part (``share`` of its time); none left, it says so (the part
    would only find it spent)."""
    if budget.expired():
        raise BudgetExceededError("the time limit ran out")
    left = budget.left()
    if share < 1 and left is not None:
        changes["time"] = max(SLIVER, left * share)
    return budget.rest(**changes)
