"""The exact agent's endgame: the engine's exhaustive search, and isolated pockets played with it.

The search itself (every layout listed, the game tree over them searched for the best chance of
winning) is the engine's, :mod:`cspmines.engine.endgame`, shared with the analysis shown to players
(:mod:`cspmines.engine.insight`); this module adds what only the agent does with it,
:func:`pocket_move`.

>>> from cspmines import Position
>>> best_move(Position.from_string("3x2x1\\n1..\\n1.."), limit=10)[1]   # a 50/50: half the games are won
0.5
"""

from __future__ import annotations

from ...engine.endgame import MemoisedSearch, WinSearch, best_move, list_layouts, search_layouts, split_by_count
from ...position import COVERED

__all__ = ["MemoisedSearch", "WinSearch", "best_move", "list_layouts", "pocket_move", "search_layouts", "split_by_count"]


def pocket_move(analysis, *, limit: int = 150, budget: int = 200_000) -> tuple[int, float] | None:
    """The best first move inside an isolated pocket, and the chance of clearing it.

    A pocket is a chain of influence cut off from everything else: no
    covered cell outside it touches it, so no move elsewhere can ever tell
    anything about it, and every one of its layouts holds the same number of
    mines, so neither can the mine total. It is a game of its own that must
    be played some time, so it is best played now and exactly: its layouts
    are equally likely, and :func:`best_move`'s search over them is the
    optimal play. Among several pockets, the one likeliest to be cleared.

    >>> from cspmines import Position, solve
    >>> position = Position.from_string("3x2x1\\n.1.\\n...")   # one mine in five cells, nothing else to learn from
    >>> cell, chance = pocket_move(solve(position))
    >>> cell, round(chance, 3)   # open the corner: safe 4 times in 5, then its clue decides 3 times in 4
    (0, 0.6)
    """
    position = analysis.position
    flat = position.grid.ravel()
    best = None
    for report in analysis.chains:
        low, high = report.mine_range
        if low != high or not 2 <= report.layouts <= limit:
            continue
        # the cells its clues force were settled out of the chain; they belong to the pocket
        pocket = set(report.cells) | {n for clue in report.clues for n in position.neighbours(clue) if flat[n] == COVERED}
        touching = {n for c in pocket for n in position.neighbours(c)}
        if any(flat[n] == COVERED and n not in pocket for n in touching):
            continue
        if any(flat[n] == COVERED and n not in pocket for clue in touching if flat[clue] >= 0 for n in position.neighbours(clue)):
            continue  # a clue of a forced cell reaches beyond: not closed
        layouts = list_layouts(position, limit=limit, cells=pocket)
        if not layouts or len(layouts) < 2:
            continue
        played = search_layouts(position, layouts, budget=budget, cells=pocket)
        if played is not None and (best is None or played[1] > best[1]):
            best = played
    return best
