"""How the exact agent chooses among guesses once nothing is proved.

The least mine probability is only the start. For a short list of candidate
cells (:func:`shortlist`: the cells whose safety is within a margin of the
best, and the most promising cells off the front), :func:`look_ahead`
reveals each possible clue in turn, solves the position that results
exactly, and measures

* its *secondary safety*: the chance that this cell is safe **and** the best
  move after it is safe too, each clue weighted by its exact number of
  layouts;
* its *progress*: the chance that it is safe and its clue proves some other
  cell (a zero always does);
* whether it is *dead*: every layout where it is safe shows the same clue,
  so opening it can tell nothing; a dead cell is taken only when every
  candidate is dead.

:func:`forced_fifty_fifty` finds a pair of cells that no future clue can ever
tell apart (one mine between them, and no clue or covered cell touching only
one of them): a coin flip that must be taken some time, so taking it
first loses nothing and saves the work on games it loses.

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
>>> shortlist(analysis, size=8, margin=0.5)   # the corner off the front, then the front's two cells
[3, 1, 5]
>>> look_ahead(analysis, 3).dead    # safe, the corner must show 1: it can tell nothing
True
>>> view = look_ahead(analysis, 1)   # safe (chance 1/2), it proves other cells whatever it shows
>>> view.safety, view.progress, view.dead
(0.5, 0.5, False)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from ..errors import InconsistentPositionError
from ..position import COVERED, FLAG, MINE, WITHHELD, Position
from ..solve import solve

# a hotspot whose enabler is safer than 90% is not worth charging for (Hill's threshold)
HOTSPOT_ENABLER_RISK = Fraction(1, 10)

__all__ = [
    "Hotspot",
    "Influence",
    "Lookahead",
    "best_guess",
    "fifty_fifty_influence",
    "forced_fifty_fifty",
    "hotspot_ratio",
    "in_small_space",
    "look_ahead",
    "shortlist",
]

HALF = Fraction(1, 2)  # compared with exact probabilities: a Fraction compares fastest with a Fraction


@dataclass(frozen=True)
class Lookahead:
    """What opening one cell leads to (see the module docs).

    ``pruned`` is True when the look stopped early because the cell could no
    longer beat ``bound``; then ``secondary`` and ``progress`` are only upper
    bounds and ``dead`` is unknown.
    """

    cell: int
    safety: float
    secondary: float
    progress: float
    dead: bool
    pruned: bool = False
    influence: float = 1.0  # 50/50 influence multiplier (see fifty_fifty_influence)
    implied_safe: frozenset = field(default=frozenset(), repr=False, compare=False)  # safe whatever it shows
    # the one cell safer than every other after each clue it can show, when that is always the same cell
    next_cell: int | None = field(default=None, repr=False, compare=False)

    def score(self, progress_weight: float) -> float:
        return self.secondary * self.influence * (1.0 + progress_weight * self.progress)


def shortlist(analysis, *, size: int, margin: float, exclude=frozenset(), off_front: int = 0) -> list[int]:
    """The cells worth looking ahead from, safest first.

    Every front cell whose safety is at least ``(1 - margin)`` times the best
    safety, then, if the cells off the front are that safe too, two of them:
    the one with the fewest covered neighbours (likeliest to open a zero) and
    the one two steps from the front with the fewest (its clue can reach the
    front). At most ``size`` cells.

    With ``off_front`` > 0 the cells off the front are chosen wider, as Hill
    does, and come on top of the ``size`` cells: every one of them when
    fewer than 30 are left, else those two steps straight out from a clue
    of the front (their clue can join it) and those with two or three
    covered neighbours (likely to open up), at most ``off_front`` of them,
    fewest covered neighbours first.

    >>> from cspmines import Position, solve
    >>> shortlist(solve(Position.from_string("4x2x2\\n1...\\n1...")), size=2, margin=0.5)
    [3, 1]
    >>> shortlist(solve(Position.from_string("4x2x2\\n1...\\n1...")), size=2, margin=0.5, off_front=-1)
    Traceback (most recent call last):
    ...
    ValueError: size and off_front must be >= 0, got size=2, off_front=-1
    """
    if size < 0 or off_front < 0:
        raise ValueError(f"size and off_front must be >= 0, got size={size}, off_front={off_front}")
    position = analysis.position
    flat = position.grid.ravel()
    front = {cell for report in analysis.components for cell in report.cells}
    cells = [c for c in analysis.cells_where(lambda p: p != 1) if c not in exclude]
    if not cells:
        return []
    safety = {c: 1.0 - float(analysis.probability(c)) for c in cells}
    floor = (1.0 - margin) * max(safety.values())

    def covered_around(cell: int) -> int:
        return sum(1 for n in position.neighbours(cell) if flat[n] == COVERED)

    on_front = [c for c in cells if c in front and safety[c] >= floor]
    off = [c for c in cells if c not in front and safety[c] >= floor]
    picked = []
    if off and not off_front:  # the two most promising cells off the front

        picked.append(min(off, key=lambda c: (covered_around(c), c)))
        beside_front = {n for f in front for n in position.neighbours(f)}  # once, not per cell
        near = [c for c in off if any(n in beside_front for n in position.neighbours(c))]  # two steps from it
        if near:
            picked.append(min(near, key=lambda c: (covered_around(c), c)))
    merged = sorted(dict.fromkeys(on_front + picked), key=lambda c: (-safety[c], covered_around(c), c))[:size]
    if off and off_front:  # Hill's wider set, on top
        if len(off) >= 30:
            straight = _straight_two_from_clues(analysis)
            off = [c for c in off if c in straight or 2 <= covered_around(c) <= 3]
        merged += sorted(off, key=lambda c: (covered_around(c), c))[:off_front]
    return merged


def in_small_space(position: Position, cell: int, *, mines=frozenset(), threshold: int = 8) -> bool:
    """Whether ``cell`` lies in a space of fewer than ``threshold`` unknown cells.

    A space is the cells, covered and not known mines, that join up through
    neighbours or across one opened cell (Hill's space counter). A guess in
    a small space tells little about the rest of the board, and the mine
    total may yet settle it, so it is worth putting off while a guess
    elsewhere is as good.

    >>> p = Position.from_string("5x1x1\\n..1..")
    >>> in_small_space(p, 0, threshold=4), in_small_space(p, 0, threshold=5)
    (False, True)
    >>> in_small_space(p, 2)
    Traceback (most recent call last):
    ...
    ValueError: cell 2 is not a covered cell of this 5x1 position
    """
    flat = position.grid.ravel()
    if not 0 <= cell < flat.size or flat[cell] != COVERED:
        raise ValueError(f"cell {cell} is not a covered cell of this {position.width}x{position.height} position")
    if threshold <= 1:
        return False  # the cell alone fills such a space

    def unknown(n: int) -> bool:
        return flat[n] == COVERED and n not in mines

    seen = {cell}
    todo = [cell]
    while todo:
        for n in position.neighbours(todo.pop()):
            if unknown(n):
                reached = [n]
            elif flat[n] >= 0 or flat[n] == WITHHELD:  # across an opened cell
                reached = [m for m in position.neighbours(n) if unknown(m)]
            else:
                continue
            for m in reached:
                if m not in seen:
                    seen.add(m)
                    todo.append(m)
            if len(seen) >= threshold:
                return False
    return True


def _straight_two_from_clues(analysis) -> set:
    """The cells two steps up, down, left or right of a clue that touches a covered cell."""
    position = analysis.position
    width, height = position.width, position.height
    flat = position.grid.ravel()
    clues = [clue for clue in position.clue_cells if any(flat[n] == COVERED for n in position.neighbours(clue))]
    out = set()
    for clue in clues:
        r, c = divmod(clue, width)
        for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)):
            if 0 <= r + dr < height and 0 <= c + dc < width:
                out.add((r + dr) * width + c + dc)
    return out


def look_ahead(
    analysis,
    cell: int,
    *,
    bound: float = -1.0,
    progress_weight: float = 0.0,
    blend: float = 0.0,
    influence: float = 1.0,
    linked: bool = False,
    living: bool = False,
    hotspots=(),
    next_power: float = 1.0,
    follow_next: bool = False,
    backend: str = "auto",
) -> Lookahead:
    """Open ``cell`` in thought: every clue it can show, solved exactly.

    Stops early (``pruned``) once the cell's score cannot exceed ``bound``;
    the layouts' weights are exact when the position has a mine total.
    The next move's safety is the best cell's, or with ``blend`` > 0
    ``(1 - blend) * best + blend * second best`` (a move that leaves two
    good cells beats one that leaves one); a clue that leaves only mines
    covered has won. ``influence`` multiplies the score (the cell's 50/50
    influence, :func:`fifty_fifty_influence`). With ``linked``, a clue counts
    as progress only if it proves more than the cells that are safe
    whenever this one is (Hill's "linked tiles": those come with the cell
    whatever it shows, so they are no news). With ``living``, the next move
    is sought among cells that can still tell something (see
    :func:`_next_safety`). With ``hotspots`` (:class:`Hotspot`), each clue's
    next safety is weighted by how it changes the chance of getting past
    them (:func:`hotspot_ratio`), and a cell that settles one of them keeps
    no ``influence`` multiplier (its 50/50 is counted there).
    ``next_power`` raises the next move's safety to that power before it
    is weighted (above 1 a poor next move costs more: the guess after it is
    likely no better, so a clue that leaves a good move is worth more than
    its one step; 0 leaves the cell's own safety alone). With ``follow_next``,
    ``next_cell`` is the cell that is the single safest after every clue,
    if there is one (what :func:`best_guess`'s ``dominance`` needs; off, it
    costs nothing).

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
    >>> look_ahead(analysis, 3)   # safe 3 times in 4, and then it can only show 1
    Lookahead(cell=3, safety=0.75, secondary=0.5, progress=0.0, dead=True, pruned=False, influence=1.0)
    >>> look_ahead(analysis, 3, bound=0.9).pruned   # it cannot reach 0.9
    True
    >>> look_ahead(analysis, 3, next_power=-1)
    Traceback (most recent call last):
    ...
    ValueError: next_power must be >= 0, got -1
    """
    if next_power < 0:
        raise ValueError(f"next_power must be >= 0, got {next_power}")
    seen = analysis.position
    flat = seen.grid.ravel()
    around = seen.neighbours(cell)
    known = sum(1 for n in around if flat[n] in (FLAG, MINE))
    unknown = sum(1 for n in around if flat[n] == COVERED)
    safety = 1.0 - float(analysis.probability(cell))
    exact_weights = seen.mines is not None and bool(analysis.model_count)
    left = safety  # chance of this cell being safe with a clue not yet looked at
    secondary = progress = total = 0.0
    outcomes = 0  # clues the cell can show
    implied = None  # cells proved safe whatever the clue: safe wherever this cell is
    next_cells = set()  # the single safest cell after each clue (None: no single one)
    proofs = []  # (weight, number of cells proved) of each clue
    before = 1.0  # the chance of getting past the hotspots as the board stands
    for hotspot in hotspots:
        before *= hotspot.survival(analysis)
    if any(cell in hotspot.cells for hotspot in hotspots):
        influence = 1.0
    ceiling = 1.0 / before  # the most a hotspot ratio can be
    for clue in range(known, known + unknown + 1):
        # the clues not yet looked at can add at most ``left`` to both the secondary safety and the progress
        if exact_weights and (secondary + left * ceiling) * influence * (1.0 + progress_weight * (progress + left)) <= bound:
            return Lookahead(cell, safety, secondary + left * ceiling, progress + left, False, pruned=True, influence=influence)
        grid = seen.grid.copy()
        grid.flat[cell] = clue
        try:
            after = solve(Position(grid, mines=seen.mines), density=analysis.density, backend=backend, explain=False)
        except InconsistentPositionError:
            continue
        next_safe = _next_safety(after, blend, living) ** next_power
        if hotspots:
            next_safe *= hotspot_ratio(hotspots, cell, after, before)
        proved = after.safe_cells  # a sort over every group: read once
        if follow_next:
            next_cells.add(_single_safest(after))
        implied = set(proved) if implied is None else implied.intersection(proved)
        if exact_weights:
            weight = after.model_count / analysis.model_count
            left -= weight
        else:
            weight = after.model_count
        outcomes += 1
        total += weight
        secondary += weight * next_safe
        progress += weight * bool(proved)
        proofs.append((weight, len(proved)))
    if not outcomes:
        return Lookahead(cell, 0.0, 0.0, 0.0, True, influence=influence)
    implied = implied or set()  # some clue was looked at, so it is a set
    if linked:  # the linked cells are the ones proved whatever the clue
        progress = sum(weight for weight, count in proofs if count > len(implied))
    if not exact_weights:  # weights are relative: scale them to the cell's safety
        secondary = safety * secondary / total
        progress = safety * progress / total
    return Lookahead(
        cell,
        safety,
        secondary,
        progress,
        dead=outcomes == 1,
        influence=influence,
        implied_safe=frozenset(implied),
        next_cell=next(iter(next_cells)) if len(next_cells) == 1 else None,
    )


def _single_safest(after) -> int | None:
    """The covered cell safer than every other after a clue (None when cells tie or only mines are left)."""
    best = after.best_cells()
    return best[0] if len(best) == 1 and after.probability(best[0]) < 1 else None


def clue_is_settled(analysis):
    """A test of whether a covered cell's clue is already known, so opening it tells nothing.

    It is when each of its covered neighbours is proved (a mine or safe), or
    when the neighbours still in doubt are exactly those of one clue, whose
    number then fixes how many mines they hold. (A sufficient test, cheap
    enough for every position the look-ahead imagines; a cell can be dead
    for subtler reasons.)

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("3x2x1\\n1..\\n1.."))
    >>> settled = clue_is_settled(analysis)
    >>> settled(2), settled(5)   # safe, and their doubtful neighbours are the 1s': they will show 1
    (True, True)
    >>> settled(1)   # safe only when 4 is the mine, so it would show 1 too, but this test cannot see that
    False
    """
    position = analysis.position
    flat = position.grid.ravel()
    decided = set(analysis.mine_cells) | set(analysis.safe_cells)

    def doubtful(cell: int) -> frozenset:
        return frozenset(n for n in position.neighbours(cell) if flat[n] == COVERED and n not in decided)

    def settled(cell: int) -> bool:
        around = doubtful(cell)
        if not around:
            return True
        anchor = next(iter(around))
        # a clue holding all of them is a neighbour of each, so of this one
        return any(flat[c] >= 0 and doubtful(c) == around for c in position.neighbours(anchor))

    return settled


def _next_safety(after, blend: float, living: bool = False) -> float:
    """The value of the position after a safe move: the safety of its best cell,
    blended with the second best's; 1 when every covered cell left is a mine (won).
    With ``living``, dead cells (:func:`clue_is_settled`) do not count while
    another cell does: opening them tells nothing, so they are not where the
    next guess will be made."""
    least = ()
    if living:
        settled = clue_is_settled(after)
        least = after.least_probabilities(2, below=1, keep=lambda cell: not settled(cell))
    if not least:
        least = after.least_probabilities(2, below=1)
    if not least:
        return 1.0
    best = 1.0 - float(least[0])
    if not blend:
        return best
    second = 1.0 - float(least[-1])
    return (1.0 - blend) * best + blend * second


def best_guess(
    analysis,
    cells,
    *,
    progress_weight: float = 0.0,
    avoid_dead: bool = True,
    blend: float = 0.0,
    influence=None,
    dominance: bool = False,
    linked: bool = False,
    living: bool = False,
    hotspots=(),
    next_power: float = 1.0,
    backend: str = "auto",
) -> Lookahead:
    """The cell of ``cells`` with the best score (secondary safety with the progress bonus,
    times the 50/50 influence multiplier ``influence[cell]`` where one is given).

    ``hotspots`` and ``next_power`` are passed on to :func:`look_ahead`.

    With ``dominance``, a cell that the winner's safety proves safe, and
    that is itself safer, replaces it: it is safe wherever the winner is,
    and more, so opening it first loses nothing and may tell more. Failing
    that, a cell of ``cells`` that is the single safest after every clue
    the winner can show, and safer than the winner now, replaces it (Hill's
    complex domination: it is the next move whatever happens, so it goes first).

    Cells are looked at in the order given, each cut short once it cannot
    beat the best so far (ties go to the earlier cell). With ``avoid_dead``
    a dead cell is chosen only when every cell is dead, and then the one of
    best secondary safety.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
    >>> best_guess(analysis, [3, 1, 5]).cell   # 3 is safer but dead; 1 tells where the mine is
    1
    >>> best_guess(analysis, [3, 1, 5], avoid_dead=False).cell
    3
    """
    # how every cell is looked at, here and for a dominating cell below
    options = dict(
        progress_weight=progress_weight,
        blend=blend,
        linked=linked,
        living=living,
        hotspots=hotspots,
        next_power=next_power,
        backend=backend,
    )
    best, best_score, dead = None, -1.0, []
    for cell in cells:
        view = look_ahead(
            analysis,
            cell,
            bound=best_score,
            influence=1.0 if influence is None else influence.get(cell, 1.0),
            follow_next=dominance,
            **options,
        )
        if view.pruned:
            continue
        if view.dead and avoid_dead:
            dead.append(view)
        elif view.score(progress_weight) > best_score:
            best, best_score = view, view.score(progress_weight)
    best = best if best is not None else max(dead, key=lambda view: view.secondary)
    if dominance:
        safer = [c for c in best.implied_safe if 1.0 - float(analysis.probability(c)) > best.safety + 1e-9]
        after_every_clue = best.next_cell
        if not safer and after_every_clue in cells and 1.0 - float(analysis.probability(after_every_clue)) > best.safety + 1e-9:
            safer = [after_every_clue]  # it would be the next move whatever this one shows, and it is safer: open it now
        if safer:
            cell = min(safer, key=lambda c: (analysis.probability(c), c))
            return look_ahead(analysis, cell, **options)
    return best


def forced_fifty_fifty(analysis) -> tuple[int, int] | None:
    """Two cells with one mine between them that no clue can ever tell apart, or None.

    Such a pair is a coin flip in every line of play: each cell is a mine
    with chance 1/2, exactly one of them is, and every cell touching only
    one of the two is a known mine or an opened cell without a clue (a clue
    there, or a covered cell, could tell them apart through its other
    neighbours), so every clue, now or to come, sees both or neither:
    swapping the two is a symmetry of everything a player can ever learn.

    >>> from cspmines import Position, solve
    >>> forced_fifty_fifty(solve(Position.from_string("2x2x1\\n11\\n..")))
    (2, 3)
    >>> forced_fifty_fifty(solve(Position.from_string("3x2x1\\n11.\\n...")))  # (1,2) can still tell
    """
    position = analysis.position
    flat = position.grid.ravel()
    halves = analysis.cells_where(lambda p: p == HALF)
    around = {c: set(position.neighbours(c)) for c in halves}
    for a, b in itertools.combinations(halves, 2):
        if not around[a] & (around[b] | {b}):
            continue  # too far apart to share a clue
        only_one = (around[a] ^ around[b]) - {a, b}
        if any(flat[n] == COVERED or flat[n] >= 0 for n in only_one):
            continue  # a covered cell or a clue there could tell the two apart, now or later
        if _exactly_one_mine(analysis, a, b):
            return a, b
    return None


def _exactly_one_mine(analysis, a: int, b: int) -> bool:
    """Whether every layout has a mine at exactly one of ``a``, ``b`` (each a mine with chance 1/2)."""
    position = analysis.position
    grid = position.grid.copy()
    grid.flat[a] = FLAG
    try:
        with_a = solve(Position(grid, mines=position.mines), density=analysis.density, explain=False)
    except InconsistentPositionError:
        return False
    # a mine at a forces b safe, so P(a and b) = 0 and P(a or b) = 1/2 + 1/2 = 1
    return with_a.probability(b) == 0


@dataclass(frozen=True)
class Influence:
    """The 50/50s that may form around covered cells (see :func:`fifty_fifty_influence`).

    Attributes
    ----------
    chance : dict
        cell -> the chance of the layouts in which a 50/50 forms around it,
        at most its chance of being a mine and of being safe.
    pseudo : int or None
        A cell that is a mine only in layouts where it is one half of a
        50/50: "a 50/50, or safe", as good to guess now as ever.
    hotspots : tuple of Hotspot
        The pairs, each a mine with chance 1/2, that one more mine at a
        flanking cell would seal into a 50/50 (see :class:`Hotspot`).
    """

    chance: dict
    pseudo: int | None = None
    hotspots: tuple = ()

    def multipliers(self, analysis, weight: float) -> dict:
        """cell -> ``1 + weight * chance / P(safe)``: the score bonus of a cell whose
        mine would have cost a coin flip anyway."""
        out = {}
        for cell, chance in self.chance.items():
            safety = 1.0 - float(analysis.probability(cell))
            if safety > 0:
                out[cell] = 1.0 + weight * chance / safety
        return out


@dataclass(frozen=True)
class Hotspot:
    """A pair of side-by-side cells, each a mine with chance 1/2, closed off by known
    mines and the board's edge but for one flanking cell, the ``enabler``.

    If the enabler is a mine too, the pair can never be told apart: the game
    will cost a coin flip there. So the chance of getting past the pair is
    about ``1/2 + 1/2 * P(enabler is safe)`` (:meth:`survival`), and a guess
    that makes the enabler likelier to be a mine costs that much in the long
    run (Hill's risk hotspots). Opening one of ``cells`` (the pair and the
    enabler) settles the question at once, so such a guess is not charged.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x1x2\\n...."))
    >>> hotspots = fifty_fifty_influence(analysis).hotspots
    >>> hotspots[0]   # cells 0 and 1 against the edge: cell 2 a mine would seal them
    Hotspot(enabler=2, cells=frozenset({0, 1, 2}))
    >>> hotspots[0].survival(analysis)   # the enabler is a mine half the time
    0.75
    """

    enabler: int
    cells: frozenset

    def survival(self, analysis) -> float:
        """The chance of getting past this pair as ``analysis`` sees the board."""
        return 0.5 + 0.5 * (1.0 - float(analysis.probability(self.enabler)))


def hotspot_ratio(hotspots, cell: int, after, before: float) -> float:
    """How a guess at ``cell`` that led to ``after`` changes the chance of getting past
    ``hotspots``: the product of their survival in ``after`` (those that ``cell``
    settles left out) over ``before``, the product as the board stands.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x1x2\\n...."))
    >>> hotspots = fifty_fifty_influence(analysis).hotspots
    >>> before = hotspots[0].survival(analysis) * hotspots[1].survival(analysis)
    >>> hotspot_ratio(hotspots, 0, analysis, before)   # nothing learned, the first pair settled
    1.3333333333333333
    >>> hotspot_ratio(hotspots, 0, analysis, 0.0)
    Traceback (most recent call last):
    ...
    ValueError: before must be a chance above 0, got 0.0
    """
    if not before > 0:
        raise ValueError(f"before must be a chance above 0, got {before}")
    ratio = 1.0
    for hotspot in hotspots:
        if cell not in hotspot.cells:
            ratio *= hotspot.survival(after)
    return ratio / before


def fifty_fifty_influence(analysis, *, backend: str = "auto") -> Influence:
    """Where 50/50s may form: two side-by-side cells, or a 2x2 block, whose
    flanks are all known mines or the board's edge but for at most one cell.

    If that cell is a mine too (and one cell of the pair, or one diagonal of
    the block), no clue can ever tell the two apart: a coin flip that must
    be taken some time. A guess at a cell in such a place loses, in those
    layouts, what the coin flip would have lost anyway, so its score earns a
    bonus (Hill's "50/50 influence"). For every place found the layouts that
    make it a 50/50 are counted exactly (one solve with the mines flagged and
    the other cells opened without a clue); the flanking cell that completes
    it shares the influence. Only with a known mine total (exact weights).

    >>> from cspmines import Position, solve
    >>> # a pair on the bottom edge: the flags close it off, the clues above see both cells
    >>> influence = fifty_fifty_influence(solve(Position.from_string("3x2x3\\n13F\\n..F")))
    >>> sorted(influence.chance.items()), influence.pseudo
    ([(3, 0.5), (4, 0.5)], 3)
    """
    position = analysis.position
    if position.mines is None or not analysis.model_count:
        return Influence({})
    width, height = position.width, position.height
    flat = position.grid.ravel()
    total = analysis.model_count
    mine = set(analysis.mine_cells)  # exact here: a model count was asked for above
    mines_left = analysis.mines_left - len(mine)

    def hidden(cell: int) -> bool:
        return flat[cell] == COVERED and cell not in mine

    def missing_flanks(cells) -> list | None:
        """The flanking cells still to be mines, or None if one is opened or two are
        still to be (no place needs more than one: stop looking early, most fail)."""
        missing: list[int] = []
        for r, c in cells:
            if 0 <= r < height and 0 <= c < width:
                cell = r * width + c
                if flat[cell] not in (COVERED, FLAG, MINE):
                    return None
                if hidden(cell):
                    if missing:
                        return None
                    missing.append(cell)
        return missing

    def layouts_with(mines, safes) -> int:
        grid = position.grid.copy()
        grid.flat[list(mines)] = FLAG
        grid.flat[list(safes)] = WITHHELD
        try:
            count = solve(Position(grid, mines=position.mines), backend=backend, explain=False).model_count
        except InconsistentPositionError:
            return 0
        assert count is not None  # no budget: the count is exact
        return count

    pairs: dict = {}  # cell -> layouts where a side-by-side 50/50 takes it in
    blocks: dict = {}  # cell -> most layouts where a 2x2 50/50 takes it in
    enabling: dict = {}  # flanking cell -> layouts where it completes a 50/50
    pseudo = None
    hotspots = []
    # numpy marks the few places closed off enough to be looked at; missing_flanks has the last word
    across, down, square = _closed_off_places(position.grid, mine)
    for a in np.flatnonzero(across | down | square).tolist():  # row by row: the first pseudo cell found wins
        r, c = divmod(a, width)
        for (dr, dc), place in (((0, 1), across), ((1, 0), down)):
            if not place.flat[a]:
                continue
            b = a + dr * width + dc
            flanks = _ACROSS_FLANKS if dc else _DOWN_FLANKS
            missing = missing_flanks([(r + fr, c + fc) for fr, fc in flanks])
            if missing is None or len(missing) + 1 > mines_left:
                continue
            layouts = layouts_with(missing + [a], [b])  # the same with b the mine: a symmetry
            if not layouts:
                continue
            halves = analysis.probability(a) == analysis.probability(b) == HALF
            if len(missing) == 1 and halves and analysis.probability(missing[0]) > HOTSPOT_ENABLER_RISK:
                hotspots.append(Hotspot(missing[0], frozenset((a, b, missing[0]))))
            for cell in (a, b):
                pairs[cell] = pairs.get(cell, 0) + layouts
                if pseudo is None and layouts == analysis.probability(cell) * total:
                    pseudo = cell  # a mine only as half of this 50/50
            for cell in missing:
                enabling[cell] = enabling.get(cell, 0) + layouts
        if square.flat[a] and mines_left >= 2:
            block = (a, a + 1, a + width, a + width + 1)
            corners = [(r + fr, c + fc) for fr, fc in _BLOCK_CORNERS]
            if all(hidden(cell) for cell in block) and missing_flanks(corners) == []:
                layouts = layouts_with([block[0], block[3]], [block[1], block[2]])
                for cell in block:
                    blocks[cell] = max(blocks.get(cell, 0), layouts)
    chance = {}
    for cell in set(pairs) | set(blocks) | set(enabling):
        mine_layouts = analysis.probability(cell) * total
        cap = min(mine_layouts, total - mine_layouts)
        layouts = min(pairs.get(cell, 0) + blocks.get(cell, 0) + enabling.get(cell, 0), cap)
        if layouts > 0:
            chance[cell] = float(layouts / total)
    return Influence(chance, pseudo, tuple(hotspots))


# offsets from a pair's or block's top-left cell: the cells beside a pair across (two columns
# of three), beside a pair down (two rows of three), and at a 2x2 block's diagonal corners
_ACROSS_FLANKS = tuple((k, -1) for k in (-1, 0, 1)) + tuple((k, 2) for k in (-1, 0, 1))
_DOWN_FLANKS = tuple((-1, k) for k in (-1, 0, 1)) + tuple((2, k) for k in (-1, 0, 1))
_BLOCK_CORNERS = ((-1, -1), (-1, 2), (2, -1), (2, 2))


def _closed_off_places(grid: np.ndarray, known_mines) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Where a 50/50 may form, by the cell at its top left: side-by-side pairs across and down of
    hidden cells (covered, not known mines) whose six flanking cells hold no opened cell and at
    most one hidden one, and 2x2 blocks of hidden cells whose four corner cells are all closed
    (known mines or off the board). Boolean grids of the board's shape."""
    height, width = grid.shape
    hidden = grid == COVERED
    if known_mines:
        hidden.flat[list(known_mines)] = False
    opened = ~np.isin(grid, (COVERED, FLAG, MINE))
    # padded by two on every side, where nothing is hidden or opened: the board's edge closes a place off
    hidden_p, opened_p = (np.pad(x.astype(np.int8), 2) for x in (hidden, opened))

    def at(x: np.ndarray, dr: int, dc: int) -> np.ndarray:
        """``x`` at (r + dr, c + dc) for every cell (r, c) of the board."""
        return x[2 + dr : 2 + dr + height, 2 + dc : 2 + dc + width]

    def flanks(x: np.ndarray, cells) -> np.ndarray:
        """How many of ``cells`` (offsets) hold a 1 in ``x``, for every cell of the board."""
        return np.sum([at(x, dr, dc) for dr, dc in cells], axis=0)

    here = at(hidden_p, 0, 0).astype(bool)
    across = here & (at(hidden_p, 0, 1) == 1) & (flanks(opened_p, _ACROSS_FLANKS) == 0) & (flanks(hidden_p, _ACROSS_FLANKS) <= 1)
    down = here & (at(hidden_p, 1, 0) == 1) & (flanks(opened_p, _DOWN_FLANKS) == 0) & (flanks(hidden_p, _DOWN_FLANKS) <= 1)
    block = here & (at(hidden_p, 0, 1) == 1) & (at(hidden_p, 1, 0) == 1) & (at(hidden_p, 1, 1) == 1)
    square = block & (flanks(opened_p + hidden_p, _BLOCK_CORNERS) == 0)
    return across, down, square
