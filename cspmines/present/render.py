"""Text renderings of an analysis (the command line's output, usable on their own); the JSON answers
are in :mod:`cspmines.present.answers`.

Examples
--------
>>> import cspmines
>>> analysis = cspmines.solve(cspmines.Position.from_string("3x1x1\\n.1."))
>>> print(board_text(analysis, color=False))
       0   1   2
  0   50 [1]  50
"""

from __future__ import annotations

from fractions import Fraction

from ..engine.analysis import Analysis
from ..engine.insight import FiftyFiftyKind, Insight
from ..position import COVERED, FLAG, MINE, WITHHELD, is_whole

__all__ = ["board_text", "summary_text", "outcomes_text", "insight_text", "decimal", "LEGEND", "MARKS"]

_RESET = "\x1b[0m"


def _count(n: int, noun: str) -> str:
    """``1 cell``, ``2 cells``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _colour(p: float) -> str:
    """A 256-colour background from green (safe) through yellow to red (mine)."""
    if p <= 0:
        return "\x1b[30;48;5;46m"
    if p >= 1:
        return "\x1b[97;48;5;196m"
    steps = [120, 156, 192, 228, 222, 216, 210, 204]
    return f"\x1b[30;48;5;{steps[min(len(steps) - 1, int(p * len(steps)))]}m"


def _cell_label(p: float) -> str:
    """A covered cell's chance of a mine in percent, in three characters (``S`` and ``M`` when certain)."""
    if p == 0:
        return "S"
    if p == 1:
        return "M"
    percent = p * 100
    if percent < 1:
        return "<1"
    if percent > 99:
        return ">99"
    return str(round(percent))


def _percent(p) -> str:
    """A chance in whole percent, ``<1`` and ``>99`` near the ends but not at them."""
    if 0 < p < Fraction(1, 100):
        return "<1"
    if Fraction(99, 100) < p < 1:
        return ">99"
    return str(round(p * 100))


def _shown(code: int) -> str:
    """What an uncovered cell shows, in three characters: a clue in brackets, so it never reads as a percent."""
    return {FLAG: "F", MINE: "*", WITHHELD: "[?]"}.get(code, f"[{code}]")


#: The marks after a covered cell's chance on the text board when the insight is shown, in this order
#: (a cell both dead and half of a 50/50 has both), and what each says (:data:`LEGEND`).
MARKS = {"unavoidable": "h", "pseudo": "p", "dead": "d"}

#: The lines under a board with marks.
LEGEND = ("marks: h half of an unavoidable 50/50 (nothing but a guess tells its halves apart)\n"
          "       p half of a pseudo-50/50 (only cells that are guesses themselves tell them apart)\n"
          "       d dead (opening it tells nothing but that it was safe)")

def _marks(insight: Insight | None) -> dict:
    """Covered cell -> its marks (:data:`MARKS`, a 50/50's first)."""
    marks: dict = {}
    if insight is None:
        return marks
    for fifty in insight.fifty_fifties or ():
        for cell in fifty.cells:
            marks[cell] = marks.get(cell, "") + MARKS[fifty.kind.value]
    for cell in insight.dead or ():
        marks[cell] = marks.get(cell, "") + MARKS["dead"]
    return marks


def board_text(analysis: Analysis, *, color: bool = False, insight: Insight | None = None) -> str:
    """The board with rulers, four characters a cell: each covered cell's chance of a mine in
    percent (``S`` certainly safe, ``M`` certainly a mine, ``<1`` and ``>99`` near the ends),
    clues in brackets (``[2]``, ``[?]`` withheld), ``F`` flags, ``*`` opened mines. Rows and
    columns are numbered from 0, as the (row, col) pairs of the other output. With ``insight``
    (:func:`cspmines.engine.insight.insight_of`), a covered cell's marks follow its chance (never a clue;
    every cell has room for the most any has): ``h`` half of an unavoidable 50/50, ``p`` of a
    pseudo-50/50, ``d`` dead (:data:`MARKS`), and the :data:`LEGEND` follows the board.

    >>> from cspmines import Position, insight_of, solve
    >>> analysis = solve(Position.from_string("3x2x1\\n1..\\n..."))
    >>> print(board_text(analysis))
           0   1   2
      0  [1]  33   S
      1   33  33   S
    >>> marked = board_text(analysis, insight=insight_of(analysis)).splitlines()   # the 1's cells: dead
    >>> print("\\n".join(marked[:3]))
          0    1    2
     0  [1]   33d   S
     1   33d  33d   S
    >>> marked[3]
    'marks: h half of an unavoidable 50/50 (nothing but a guess tells its halves apart)'
    """
    position = analysis.position
    probabilities = analysis.probabilities()
    marks = _marks(insight)
    room = max(map(len, marks.values()), default=0)  # the most marks a cell has: each cell's room for them
    margin = len(str(position.height - 1)) + 2
    lines = [(" " * margin + "".join(f"{c:>4}" + " " * room for c in range(position.width))).rstrip()]
    for r in range(position.height):
        cells = []
        for c in range(position.width):
            code = int(position.grid[r, c])
            if code == COVERED:
                p = float(probabilities[r, c])
                label = _cell_label(p)
                if r * position.width + c in analysis.inexact_cells and label not in ("S", "M"):
                    label = "~" + str(min(99, max(0, round(p * 100))))  # an estimate, marked so
                text = f"{label:>3}"
                mark = marks.get(r * position.width + c, "")
                cells.append(" " + (f"{_colour(p)}{text}{_RESET}" if color else text) + f"{mark:<{room}}")
            else:
                cells.append(f" {_shown(code):>3}" + " " * room)
        lines.append(f"{r:>{margin - 1}} " + "".join(cells).rstrip())
    if marks:
        lines.append(LEGEND)
    return "\n".join(lines)


def summary_text(analysis: Analysis, *, exact: bool = False) -> str:
    """A few lines: certain cells, best guess, chains, and (``exact``) counts and fractions
    (a grid aligned as the board, uncovered cells shown as they are).

    >>> from cspmines import Position, solve
    >>> print(summary_text(solve(Position.from_string("3x2x1\\n1..\\n...")), exact=True))
    safe: (0,2) (1,2)
    mines: none
    least mine chance: 0.0000 at 2 cells, first (0,2)
    chains: 1 (cells: 3)
    models: 3
          0   1   2
    0   [1] 1/3   0
    1   1/3 1/3   0
    """
    position = analysis.position
    coords = lambda cells: " ".join(f"({r},{c})" for r, c in map(position.row_col, cells)) or "none"  # noqa: E731
    best = analysis.best_cells()
    lines = [
        f"safe: {coords(analysis.safe_cells)}",
        f"mines: {coords(analysis.mine_cells)}",
    ]
    if best:
        p = analysis.probability(best[0])
        lines.append(f"least mine chance: {float(p):.4f} at {_count(len(best), 'cell')}, first {coords(best[:1])}")
    sizes = ", ".join(str(c.n_cells) for c in analysis.chains) or "none"
    lines.append(f"chains: {len(analysis.chains)} (cells: {sizes})")
    by_memory = any(chain.stats.get("cut") == "memory" for chain in analysis.chains)
    budget = "the memory allowance (--memory)" if by_memory else "the budget"
    if not analysis.exact:
        lines.append(f"NOT EXACT: {budget} cut counting short; {len(analysis.inexact_cells)} cells are estimates (marked ~)")
    if exact:
        if analysis.model_count is None:
            what = "the memory allowance was reached" if by_memory else "the time or node budget ran out"
            lines.append(f"models: not counted ({what} before counting finished)")
        else:
            lines.append(f"models: {decimal(analysis.model_count)}")
        fractions = analysis.probabilities(exact=True)
        grid = [[_shown(int(position.grid[r, c])) if v is None else decimal(v) for c, v in enumerate(fractions[r])]
                for r in range(position.height)]
        width = max(len(text) for row in grid for text in row + [str(position.width - 1)])
        margin = len(str(position.height - 1))
        lines.append(" " * margin + " " + " ".join(f"{c:>{width}}" for c in range(position.width)))  # rulers, as the board's
        for r, row in enumerate(grid):
            lines.append(f"{r:>{margin}} " + " ".join(f"{text:>{width}}" for text in row))
    return "\n".join(lines)


def outcomes_text(position, spreads, *, exact: bool = False) -> str:
    """A line a cell: what opening it ends in (``spreads``, :func:`cspmines.engine.clues.clue_spreads`'
    by cell), a mine or each clue it can show, as percentages or (``exact``) fractions.

    >>> from cspmines import Position, solve
    >>> from cspmines.engine.clues import clue_spreads
    >>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
    >>> print(outcomes_text(analysis.position, clue_spreads(analysis, [1, 3]), exact=True))
    opening (0,1): a mine 1/2; safe, it shows 1: 1/4, 2: 1/4
    opening (0,3): a mine 1/4; safe, it shows 1: 3/4
    """
    say = decimal if exact else (lambda p: f"{float(p):.2%}")
    lines = []
    for cell, spread in spreads.items():
        row, col = position.row_col(cell)
        mine, *clues = spread.probabilities()
        shows = ", ".join(f"{clue}: {say(p)}" for clue, p in enumerate(clues) if p)
        line = f"opening ({row},{col}): a mine {say(mine)}"
        lines.append(line + (f"; safe, it shows {shows}" if shows else ""))
    return "\n".join(lines)


def insight_text(position, insight: Insight, *, exact: bool = False) -> str:
    """A few lines: the dead cells, the 50/50s (halves split by ``|``, a pseudo one with its tellers), and
    with few layouts the winning chance with best play and a board of each covered cell's, in percent
    (``exact``: as fractions; ``M`` a proved mine); a part not worked out says why.

    >>> from cspmines import Position, insight_of, solve
    >>> analysis = solve(Position.from_string("5x1x2\\n.1..."))
    >>> print(insight_text(analysis.position, insight_of(analysis)))
    dead: (0,0) (0,4)
    50/50s: (0,0) | (0,2) pseudo, told by (0,3); (0,3) | (0,4) pseudo, told by (0,2)
    endgame: 4 layouts; best play wins 50.00%, opening (0,2) (0,3) first
    winning chance with best play after opening each cell, in percent:
           0   1   2   3   4
      0   25 [1]  50  50  25
    """
    coords = lambda cells: " ".join(f"({r},{c})" for r, c in map(position.row_col, cells)) or "none"  # noqa: E731
    missing = insight.missing
    lines = [f"dead: {coords(insight.dead)}" if insight.dead is not None else f"dead: not worked out ({missing['dead']})"]
    if insight.fifty_fifties is None:
        lines.append(f"50/50s: not worked out ({missing['fifty_fifties']})")
    else:
        shown = []
        for fifty in insight.fifty_fifties:
            text = f"{coords(fifty.halves[0])} | {coords(fifty.halves[1])} {fifty.kind}"
            shown.append(text + (f", told by {coords(fifty.tellers)}" if fifty.kind == FiftyFiftyKind.PSEUDO else ""))
        lines.append("50/50s: " + ("; ".join(shown) or "none"))
    endgame = insight.endgame
    if endgame is None:
        lines.append(f"endgame: not searched ({missing['endgame']})")
        return "\n".join(lines)
    lines.append(_best_play_line(endgame, coords, exact))
    lines.append("winning chance with best play after opening each cell, " + ("as fractions:" if exact else "in percent:")
                 + ("" if endgame.exact else " (a-b: between its bounds, the search cut short)"))
    grid = [[_shown(int(code)) if code != COVERED else _winning(endgame, cell, exact)
             for cell, code in enumerate(position.grid.ravel()[r * position.width:(r + 1) * position.width], start=r * position.width)]
            for r in range(position.height)]
    width = max(3, max(len(text) for row in grid for text in row))
    margin = len(str(position.height - 1)) + 2
    lines.append(" " * margin + "".join(f"{c:>{width + 1}}" for c in range(position.width)))
    for r, row in enumerate(grid):
        lines.append(f"{r:>{margin - 1}} " + "".join(f" {text:>{width}}" for text in row))
    return "\n".join(lines)


def _best_play_line(endgame, coords, exact: bool) -> str:
    """What best play wins from the position: exactly, or between its bounds where the search was cut short."""
    say = decimal if exact else (lambda p: f"{float(p):.2%}")
    low, high = endgame.bounds
    if endgame.exact:
        return f"endgame: {_count(endgame.layouts, 'layout')}; best play wins {say(low)}, opening {coords(endgame.best_cells)} first"
    return (f"endgame: {_count(endgame.layouts, 'layout')}; best play wins between {say(low)} and {say(high)} (NOT EXACT: the "
            f"{endgame.stopped_by} ran out), opening {coords(endgame.best_cells)} first at least")


def _winning(endgame, cell: int, exact: bool) -> str:
    """A covered cell's chance of winning after opening it: ``M`` for a proved mine, as the chances' board
    writes it (only a mine in every layout wins none: a cell safe in one wins at least that one); ``a-b``
    its bounds where the search was cut short."""
    value = endgame.value(cell)
    if value.high == 0:
        return "M"
    say = decimal if exact else _percent
    if value.exact:
        return say(Fraction(value.low, value.layouts))
    return f"{say(Fraction(value.low, value.layouts))}-{say(Fraction(value.high, value.layouts))}"


#: Python refuses to write an int of more digits than this (4,300 by default) unless told to for the
#: whole process; a layout count of a large board passes it, so big numbers are written in pieces.
_DIGITS_AT_ONCE = 4000


def decimal(number) -> str:
    """An int or Fraction as decimal text (``"n/d"`` for a fraction), however many digits it has,
    without changing the interpreter's limit on int-to-text conversion (a float, an estimate, as
    Python writes it).

    >>> decimal(12345), decimal(Fraction(2, 6))
    ('12345', '1/3')
    >>> text = decimal(7 ** 10_000)
    >>> len(text), text[:5], int(text[-1])
    (8451, '95587', 1)
    >>> decimal("12")
    Traceback (most recent call last):
    ...
    TypeError: decimal() writes an int, a Fraction or a float, got '12'
    """
    if isinstance(number, Fraction):
        return decimal(number.numerator) if number.denominator == 1 else f"{decimal(number.numerator)}/{decimal(number.denominator)}"
    if isinstance(number, float):  # an estimate where counting was cut short: written as Python writes it
        return str(number)
    if not is_whole(number):
        raise TypeError(f"decimal() writes an int, a Fraction or a float, got {number!r}")
    number = int(number)
    if number < 0:
        return "-" + decimal(-number)
    base = 10**_DIGITS_AT_ONCE
    if number < base:
        return str(number)
    pieces = []
    while number:
        number, piece = divmod(number, base)
        pieces.append(piece)
    return str(pieces[-1]) + "".join(f"{piece:0{_DIGITS_AT_ONCE}d}" for piece in reversed(pieces[:-1]))
