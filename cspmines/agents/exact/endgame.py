"""The exact agent's endgame: best play by the engine's value search, the whole board or an isolated pocket.

With few layouts left the agent plays the move of best play (:func:`cspmines.value_of`: every layout
listed, the game searched to its end over them), within a budget of search states, so that a game
plays the same moves on every machine; past the budget it guesses by its other rules. A pocket (a
part of the board nothing else can ever tell about) is a game of its own, played the same way
(:func:`pocket_move`).

>>> from cspmines import Position
>>> best_play(Position.from_string("7x1x2\\n.1...1."), states=1000)   # the free cell between two 50/50s
3
"""

from __future__ import annotations

from ...engine.budget import Limit
from ...engine.value import PositionValue, value_of
from ...position import COVERED, WITHHELD, Position

__all__ = ["best_play", "pocket_move"]


def _value(position: Position, states: int) -> PositionValue:
    """The value of ``position`` with the best move's alone, within ``states`` search states (no clock)."""
    return value_of(position, limit=Limit(nodes=states, time=None), cells="one")


def best_play(position: Position, *, states: int) -> int | None:
    """The cell best play opens next, or None where the search passes ``states`` states or there is
    nothing to search (one layout left).

    >>> best_play(Position.from_string("2x1x1\\n1."), states=10) is None   # one layout: every cell is known
    True
    """
    found = _value(position, states)
    if not found.exact or found.layouts < 2 or not found.best_cells:
        return None
    return found.best_cells[0]


def pocket_move(analysis, *, most: int, states: int) -> tuple[int, PositionValue] | None:
    """The best first move inside an isolated pocket of at most ``most`` layouts, and its value.

    A pocket is a chain of influence cut off from everything else: no
    covered cell outside it touches it, so no move elsewhere can ever tell
    anything about it, and every one of its layouts holds the same number of
    mines, so neither can the mine total. It is a game of its own that must
    be played some time, so it is best played now and exactly: the pocket
    alone (the rest of the board opened, telling nothing) is searched for
    best play. Among several pockets, the one likeliest to be
    cleared.

    >>> from cspmines import Position, solve
    >>> position = Position.from_string("5x3x7\\n.3F..\\n..F..\\nFFF..")   # the 3's three cells, walled off by flags
    >>> cell, value = pocket_move(solve(position), most=100, states=10_000)
    >>> position.row_col(cell), value.probability   # one mine in three cells that tell nothing: 2 in 3, then a 50/50
    ((0, 0), Fraction(1, 3))
    """
    position = analysis.position
    best = None
    for report in analysis.chains:
        low, high = report.mine_range
        if low != high or not 2 <= report.layouts <= most:
            continue
        pocket = _closed_pocket(position, report)
        if pocket is None:
            continue
        forced = len(pocket & set(analysis.parts.settled.mine_cells))  # mines single clues settled out of the chain
        found = _value(_pocket_alone(position, pocket, low + forced), states)
        if not found.exact or not found.best_cells:
            continue
        if best is None or found.wins * best[1].layouts > best[1].wins * found.layouts:  # (exact: wins over layouts)
            best = (found.best_cells[0], found)
    return best


def _closed_pocket(position: Position, report) -> set | None:
    """The chain's covered cells with those its clues forced, or None where a covered cell outside touches
    them or a clue of theirs reaches beyond (the pocket is not closed)."""
    flat = position.grid.ravel()
    pocket = set(report.cells) | {n for clue in report.clues for n in position.neighbours(clue) if flat[n] == COVERED}
    touching = {n for c in pocket for n in position.neighbours(c)}
    if any(flat[n] == COVERED and n not in pocket for n in touching):
        return None
    if any(flat[n] == COVERED and n not in pocket for clue in touching if flat[clue] >= 0 for n in position.neighbours(clue)):
        return None
    return pocket


def _pocket_alone(position: Position, pocket: set, mines: int) -> Position:
    """``position`` with only ``pocket`` left to play: every covered cell outside it, and every clue that
    touches none of its cells, opened with its clue withheld (a safe cell telling nothing, as ``?`` is);
    the total, the known mines and what the pocket holds. A pocket's cells and the clues touching them
    touch no covered cell outside it, so its layouts, and what each of its cells shows, are the same."""
    grid = position.grid.copy()
    flat = grid.ravel()
    touching = {n for c in pocket for n in position.neighbours(c)}
    for cell in range(flat.size):
        if cell in pocket:
            continue
        if flat[cell] == COVERED or (flat[cell] >= 0 and cell not in touching):
            flat[cell] = WITHHELD
    alone = Position(grid)
    return Position(grid, mines=len(alone.known_mine_cells) + mines)
