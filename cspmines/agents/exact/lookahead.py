"""The look-ahead: what opening a cell leads to, every clue it can show solved exactly.

Once nothing is proved, the exact agent weighs a short list of candidate
cells (:mod:`~cspmines.agents.exact.candidates`). :func:`look_ahead`
reveals each possible clue of a cell in turn, solves the position that
results exactly, and measures

* its *secondary safety*: the chance that this cell is safe **and** the best
  move after it is safe too, each clue weighted by its exact number of
  layouts;
* its *progress*: the chance that it is safe and its clue proves some other
  cell (a zero always does);
* whether it is *dead*: every layout where it is safe shows the same clue,
  so opening it can tell nothing; a dead cell is taken only when every
  candidate is dead.

:func:`best_guess` ranks the candidates by that score.

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
>>> look_ahead(analysis, 3).dead    # safe, the corner must show 1: it can tell nothing
True
>>> view = look_ahead(analysis, 1)   # safe (chance 1/2), it proves other cells whatever it shows
>>> view.safety, view.progress, view.dead
(0.5, 0.5, False)

See Also
--------
cspmines.agents.exact.fifty_fifty : the 50/50s whose influence the score can take in.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...engine.glance import Glance, clue_is_settled, glance
from ...engine.reveal import solve_revealed
from ...errors import InconsistentPositionError
from ...position import COVERED, FLAG, MINE
from .hotspots import hotspot_ratio
from .options import ExactOptions

__all__ = ["Lookahead", "PLAIN", "SCORE_TIE", "best_guess", "clue_is_settled", "look_ahead", "ranked"]

#: Secondary safety as defined: no blend, no progress bonus (the look-ahead's own defaults).
PLAIN = ExactOptions(blend=0.0, progress=0.0)


@dataclass(frozen=True)
class Lookahead:
    """What opening one cell leads to (see the module docs).

    ``pruned`` is True when the look stopped early because the cell could no
    longer beat ``bound``; then ``secondary`` and ``progress`` are only upper
    bounds and ``dead`` is unknown. ``afters`` holds, for each clue the cell
    can show, the exact analysis of the board showing it.
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
    # clue -> the analysis of the board showing it (what the agent solves next if the cell is opened)
    afters: dict = field(default_factory=dict, repr=False, compare=False)

    def score(self, progress_weight: float) -> float:
        return self.secondary * self.influence * (1.0 + progress_weight * self.progress)


def look_ahead(
    analysis,
    cell: int,
    options: ExactOptions = PLAIN,
    *,
    bound: float = -1.0,
    influence: float = 1.0,
    hotspots=(),
    follow_next: bool = False,
) -> Lookahead:
    """Open ``cell`` in thought: every clue it can show, solved exactly.

    ``options`` (:class:`~cspmines.agents.exact.options.ExactOptions`; by
    default :data:`PLAIN`, secondary safety as defined) says how a clue is
    scored. Stops early (``pruned``) once the cell's score cannot exceed
    ``bound``; the layouts' weights are exact when the position has a mine
    total. The next move's safety is the best cell's, or with ``blend`` > 0
    ``(1 - blend) * best + blend * second best`` (a move that leaves two
    good cells beats one that leaves one); a clue that leaves only mines
    covered has won. ``influence`` multiplies the score (the cell's 50/50
    influence, :func:`fifty_fifty_influence`). With ``linked``, a clue counts
    as progress only if it proves more than the cells that are safe
    whenever this one is (Hill's "linked tiles": those come with the cell
    whatever it shows, so they are no news). With ``living``, the next move
    is sought among cells that can still tell something
    (:func:`~cspmines.engine.glance.clue_is_settled`). With ``hotspots`` (:class:`Hotspot`), each clue's
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
    """
    safety = 1.0 - analysis.probability(cell, exact=False)
    exact_weights = analysis.position.mines is not None and bool(analysis.model_count)
    before = _survival(analysis, hotspots) if hotspots else 1.0  # the chance of getting past the hotspots as the board stands
    if hotspots and any(cell in hotspot.cells for hotspot in hotspots):
        influence = 1.0  # its coin flip is counted by the hotspots
    ceiling, progress_weight = 1.0 / before, options.progress  # (the most a hotspot ratio can be)
    left = safety  # the chance of the cell being safe with a clue not yet looked at
    secondary = progress = 0.0  # running sums, for the cut
    outcomes = {}  # clue -> (weight, next safety, cells it proves safe, the analysis after it)
    for clue in _clues_likeliest_first(analysis, cell):  # so that a cell that cannot win is cut after fewer solves
        # the clues not yet looked at can add at most ``left`` to both the secondary safety and the progress
        if exact_weights and (secondary + left * ceiling) * influence * (1.0 + progress_weight * (progress + left)) <= bound:
            return Lookahead(cell, safety, secondary + left * ceiling, progress + left, False, pruned=True, influence=influence)
        outcome = _outcome(analysis, cell, clue, options, hotspots, before, exact_weights)
        if outcome is None:
            continue  # no layout shows this clue
        weight, next_safe, proved, _ = outcomes[clue] = outcome
        left -= weight
        secondary += weight * next_safe
        progress += weight * bool(proved)
    return _summed_up(cell, safety, outcomes, options, influence, exact_weights, follow_next)


def _survival(analysis, hotspots) -> float:
    """The chance of getting past every one of ``hotspots`` as ``analysis`` sees the board."""
    before = 1.0
    for hotspot in hotspots:
        before *= hotspot.survival(analysis)
    return before


def _clues_likeliest_first(analysis, cell: int) -> list[int]:
    """The clues ``cell`` may show, the nearest to the expected one first (ties to the lower clue)."""
    seen = analysis.position
    flat = seen.grid.ravel()
    around = seen.neighbours(cell)
    known = sum(1 for n in around if flat[n] in (FLAG, MINE))
    unknown = sum(1 for n in around if flat[n] == COVERED)
    expected = known + sum(analysis.probability(n, exact=False) for n in around if flat[n] == COVERED)
    return sorted(range(known, known + unknown + 1), key=lambda v: (abs(v - expected), v))


def _outcome(analysis, cell: int, clue: int, options: ExactOptions, hotspots, before: float, exact_weights: bool) -> tuple | None:
    """What ``cell`` showing ``clue`` leads to, solved exactly: (its weight, the value of the position
    it leaves, the cells it proves safe, that position's analysis); None when no layout shows it. The
    weight is the clue's share of the layouts, or with no exact weights its count of them."""
    try:
        after = solve_revealed(analysis, cell, clue)  # by the engine that solved it (the agent's)
    except InconsistentPositionError:
        return None
    seen = glance(after, 2, living=options.living)  # what the score reads of it, and nothing more
    next_safe = _next_safety(seen, options.blend) ** options.next_power
    if hotspots:
        next_safe *= hotspot_ratio(hotspots, cell, after, before)
    weight = after.model_count / analysis.model_count if exact_weights else after.model_count
    return weight, next_safe, seen.safe, after


def _summed_up(cell: int, safety: float, outcomes: dict, options: ExactOptions, influence: float, exact_weights: bool,
               follow_next: bool) -> Lookahead:
    """The view of ``cell`` from every clue it can show (``outcomes``, by clue), summed in clue order,
    so that a cell's score does not depend on the order the clues were looked at in."""
    if not outcomes:
        return Lookahead(cell, 0.0, 0.0, 0.0, True, influence=influence)
    shown = [outcomes[clue] for clue in sorted(outcomes)]  # in clue order
    secondary = progress = total = 0.0
    for weight, next_safe, proved, _ in shown:
        total += weight
        secondary += weight * next_safe
        progress += weight * bool(proved)
    implied = set(shown[0][2]).intersection(*[proved for _, _, proved, _ in shown[1:]])  # safe whatever it shows
    if options.research.linked:  # the linked cells are the ones proved whatever the clue
        progress = sum(weight for weight, _, proved, _ in shown if len(proved) > len(implied))
    if not exact_weights:  # weights are relative: scale them to the cell's safety
        secondary = safety * secondary / total
        progress = safety * progress / total
    next_cells = {_single_safest(after) for _, _, _, after in outcomes.values()} if follow_next else set()
    return Lookahead(
        cell,
        safety,
        secondary,
        progress,
        dead=len(outcomes) == 1,
        influence=influence,
        implied_safe=frozenset(implied),
        next_cell=next(iter(next_cells)) if len(next_cells) == 1 else None,
        afters={clue: after for clue, (_, _, _, after) in outcomes.items()},
    )


def _single_safest(after) -> int | None:
    """The covered cell safer than every other after a clue (None when cells tie or only mines are left)."""
    best = after.best_cells()
    return best[0] if len(best) == 1 and after.probability(best[0]) < 1 else None


def _next_safety(seen: Glance, blend: float) -> float:
    """The value of the position after a safe move, from its glance (``seen``: with ``living``, its
    least chances are those of cells that can still tell something, dead cells being no place for the
    next guess while another cell is): the safety of its best cell, blended with the second best's;
    1 when every covered cell left is a mine (won)."""
    least = seen.least
    if not least:
        return 1.0
    best = 1.0 - least[0]  # floats, as float() of the exact chances gives them
    if not blend:
        return best
    second = 1.0 - least[-1]
    return (1.0 - blend) * best + blend * second


#: Scores closer than this are a tie (the earlier cell wins): two cells worth the same, their sums
#: taken in another order, differ in the last bits, and rounding must not choose between them.
SCORE_TIE = 1e-12


def ranked(views: list, key) -> list:
    """``views`` best first by ``key`` as :func:`best_guess` picks: each place goes to the first view
    not beaten by more than :data:`SCORE_TIE` (so ties keep the given order).

    >>> ranked(["a", "b", "c"], {"a": 0.5, "b": 0.5 + 1e-15, "c": 0.7}.get)
    ['c', 'a', 'b']
    """
    left, order = list(views), []
    while left:
        best = left[0]
        for view in left[1:]:
            if key(view) > key(best) + SCORE_TIE:
                best = view
        order.append(best)
        left.remove(best)
    return order


def best_guess(analysis, cells, options: ExactOptions = PLAIN, *, influence=None, hotspots=()) -> Lookahead:
    """The cell of ``cells`` with the best score (secondary safety with the progress bonus,
    times the 50/50 influence multiplier ``influence[cell]`` where one is given).

    ``options`` score each cell as :func:`look_ahead` does, and ``hotspots``
    are passed on to it.

    With ``dominance``, a cell that the winner's safety proves safe, and
    that is itself safer, replaces it: it is safe wherever the winner is,
    and more, so opening it first loses nothing and may tell more. Failing
    that, a cell of ``cells`` that is the single safest after every clue
    the winner can show, and safer than the winner now, replaces it (Hill's
    complex domination: it is the next move whatever happens, so it goes first).

    Cells are looked at in the order given, each cut short once it cannot
    beat the best so far (ties go to the earlier cell, scores within 1e-12
    counting as ties). With ``avoid_dead``
    a dead cell is chosen only when every cell is dead, and then the one of
    best secondary safety.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
    >>> best_guess(analysis, [3, 1, 5]).cell   # 3 is safer but dead; 1 tells where the mine is
    1
    >>> best_guess(analysis, [3, 1, 5], PLAIN.with_changes(avoid_dead=False)).cell
    3
    """
    progress_weight = options.progress
    best, best_score, dead = None, -1.0, []
    for cell in cells:
        view = look_ahead(
            analysis,
            cell,
            options,
            bound=best_score + SCORE_TIE,
            influence=1.0 if influence is None else influence.get(cell, 1.0),
            hotspots=hotspots,
            follow_next=options.research.dominance,
        )
        if view.pruned:
            continue
        if view.dead and options.avoid_dead:
            dead.append(view)
        elif view.score(progress_weight) > best_score + SCORE_TIE:
            best, best_score = view, view.score(progress_weight)
    best = best if best is not None else ranked(dead, lambda view: view.secondary)[0]
    dominating = _dominating(analysis, best, cells) if options.research.dominance else None
    return best if dominating is None else look_ahead(analysis, dominating, options, hotspots=hotspots)


def _dominating(analysis, best: Lookahead, cells) -> int | None:
    """A cell to open before ``best`` (``dominance``): the safest of those that ``best``'s safety
    proves safe and that are safer still, else the cell of ``cells`` that is the single safest after
    every clue ``best`` can show, if it is safer now; else None."""
    floor = best.safety + 1e-9  # safer than ``best`` by more than rounding
    candidates = [c for c in best.implied_safe if 1.0 - analysis.probability(c, exact=False) > floor]
    after_every_clue = best.next_cell
    if not candidates and after_every_clue in cells and 1.0 - analysis.probability(after_every_clue, exact=False) > floor:
        candidates = [after_every_clue]  # it would be the next move whatever this one shows, and it is safer: open it now
    return min(candidates, key=lambda c: (analysis.probability(c), c)) if candidates else None
