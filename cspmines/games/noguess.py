"""No-guess boards: boards their first click solves by exact reasoning with the mine total.

Two ways to draw one (:func:`draw_no_guess`):

``uniform`` (the default)
    Rejection: draw a board as the first-click rule draws it (``safe``: no mine under
    the click; ``opening``: none under it or around it), certify it
    (:func:`~cspmines.games.certificate.certify_layout`, stopping at the first position
    that needs a guess), and draw again until one needs none. Every no-guess board of
    the rule is then equally likely: the draw is uniform over a set that holds them
    all, and the check keeps exactly them. Under ``safe`` the draws leave the click's
    neighbours free too when the board has more mines than the click has neighbours:
    a first click that shows a number proves no cell safe then (its neighbours share
    the mines it shows, and the total leaves mines for the rest), so every no-guess
    board is among those draws, and half of the draws that could not be one are skipped.
    The one exception is a board mined everywhere but the click: the click wins it
    alone, and it is drawn.
``adjust``
    Faster, and **not uniform**: a board that needs a guess is not thrown away; at the
    position where the guess is needed, the mines under one clue's covered cells are
    moved to covered cells far from what is open, and the board is certified again
    from its first click. Moved mines favour some layouts over others (mines gather
    away from where play got stuck); every board it returns is certified all the same.

A board of either way carries its first click (``Board.first_click``), and the
same seed gives the same board.

>>> drawn = draw_no_guess("beginner", seed=3)
>>> drawn.board.first_click, drawn.method.value
(0, 'uniform')
>>> from cspmines.games.certificate import certify
>>> certify(drawn.board).no_guess
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..actions import Vocabulary
from ..errors import CspminesError
from ..neighbours import neighbour_array, neighbour_table
from ..position import COVERED
from .board import Board, FirstClick, _first_click_cell, check_first_click, parse_size
from .certificate import certify_layout, layout_clues

__all__ = ["DEFAULT_ATTEMPTS", "NO_GUESS_CLICKS", "Drawn", "Method", "NoGuessError", "check_no_guess", "draw_no_guess"]

#: The first-click rules a no-guess board is drawn under: each names the cell clicked first.
NO_GUESS_CLICKS = ("safe", "opening")

#: Boards certified before giving up (an expert board takes about 6 draws from an opening, 10 from a corner).
DEFAULT_ATTEMPTS = 100_000

#: Mines moved on one board by ``adjust`` before it draws a fresh one.
_MOVES_A_BOARD = 50


class NoGuessError(CspminesError, ValueError):
    """No no-guess board can be drawn as asked: a rule that names no cell, no room, or none found in time."""


class Method(Vocabulary):
    """How a no-guess board is drawn: uniformly among them (rejection), or by moving mines (not uniform)."""

    UNIFORM = "uniform"
    ADJUST = "adjust"


@dataclass(frozen=True)
class Drawn:
    """A no-guess board, how it was drawn, and what it took: ``attempts`` boards certified, ``moved`` mines
    moved (``adjust`` only)."""

    board: Board
    method: Method
    attempts: int
    moved: int = 0


def draw_no_guess(size="expert", *, seed: int | np.random.Generator | None = None, first_click: str = "safe",
                  method: str = "uniform", attempts: int = DEFAULT_ATTEMPTS) -> Drawn:
    """A board that ``first_click`` solves without a guess (see the module's description).

    Parameters
    ----------
    size : str or (width, height, mines)
        A preset or ``"WxHxM"``.
    seed : int or numpy.random.Generator
    first_click : {"safe", "opening"}
    method : {"uniform", "adjust"}
    attempts : int
        Boards certified before giving up.

    Raises
    ------
    NoGuessError
        The rule names no cell, the board has no room for it, or no board was found within
        ``attempts``.

    Examples
    --------
    >>> draw_no_guess("4x4x14")
    Traceback (most recent call last):
    ...
    cspmines.games.noguess.NoGuessError: a 4x4 board with 14 mines has no room for a no-guess first click 'safe': it keeps 4 cells free
    >>> draw_no_guess("4x4x15").board   # mined everywhere but the corner: the first click wins it alone
    <Board 4x4 with 15 mines, first click 0>
    """
    width, height, mines = parse_size(size)
    method = Method.check(method, "method")
    check_no_guess(width, height, mines, first_click)
    if attempts < 1:
        raise NoGuessError(f"attempts must be at least 1, got {attempts}")
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    click, free = _proposal(width, height, mines, first_click)
    if method == Method.UNIFORM:
        return _uniform(width, height, mines, click, free, rng, attempts)
    return _adjusted(width, height, mines, click, free, rng, attempts)


def check_no_guess(width: int, height: int, mines: int, first_click: str) -> None:
    """Raise :class:`NoGuessError` where no-guess boards cannot be drawn so: a first click that names no
    cell (only ``safe`` and ``opening`` do), or no room for it.

    >>> check_no_guess(9, 9, 10, "opening")
    >>> check_no_guess(9, 9, 10, "random-safe")
    Traceback (most recent call last):
    ...
    cspmines.games.noguess.NoGuessError: no-guess boards are drawn under the first click safe or opening, got 'random-safe'
    """
    if first_click not in NO_GUESS_CLICKS:
        raise NoGuessError(f"no-guess boards are drawn under the first click {' or '.join(NO_GUESS_CLICKS)}, got {first_click!r}")
    check_first_click(width, height, mines, first_click)
    _proposal(width, height, mines, first_click)


def _proposal(width: int, height: int, mines: int, first_click: str) -> tuple[int, np.ndarray]:
    """The first click and the cells a draw may put mines in: all but the click (``safe``), all but the
    click and its neighbours (``opening``, and ``safe`` with more mines than the click has neighbours:
    a first click showing a number proves nothing then, so only a zero can start a no-guess board; but
    for the board mined everywhere but the click, which the click wins alone)."""
    click = _first_click_cell(width, height, first_click)
    assert click is not None  # safe and opening name their cell
    around = neighbour_table(width, height)[click]
    kept = {click}
    if first_click == FirstClick.OPENING or len(around) < mines < width * height - 1:
        kept.update(around)
    free = np.array([cell for cell in range(width * height) if cell not in kept], dtype=np.int64)
    if mines > len(free):
        raise NoGuessError(f"a {width}x{height} board with {mines} mines has no room for a no-guess first click "
                           f"{first_click!r}: it keeps {len(kept)} cells free")
    return click, free


def _layout(size: int, free: np.ndarray, mines: int, rng: np.random.Generator) -> np.ndarray:
    layout = np.zeros(size, dtype=bool)
    layout[rng.choice(free, size=mines, replace=False)] = True
    return layout


def _board(layout: np.ndarray, width: int, height: int, click: int) -> Board:
    return Board(layout.reshape(height, width), first_click=click)


def _uniform(width, height, mines, click, free, rng, attempts) -> Drawn:
    for attempt in range(1, attempts + 1):
        layout = _layout(width * height, free, mines, rng)
        if certify_layout(layout_clues(layout.reshape(height, width)), width, height, mines, click, stop=True):
            return Drawn(_board(layout, width, height, click), Method.UNIFORM, attempt)
    raise NoGuessError(f"no no-guess {width}x{height} board with {mines} mines in {attempts:,} draws: "
                       "allow more attempts, or draw with the adjust method (not uniform)")


def _adjusted(width, height, mines, click, free, rng, attempts) -> Drawn:
    """Certify from the first click; where a guess is needed, move mines and play on from there (cheap: what
    was open stays open), moving again at each stop, until the board is won; then certify it from its first
    click again, for moving mines changed clues that play before may have rested on."""
    size, plays, moved = width * height, 0, 0
    layout, moves = _layout(size, free, mines, rng), 0
    while plays < attempts:
        plays += 1
        certificate = certify_layout(layout_clues(layout.reshape(height, width)), width, height, mines, click)
        if certificate.no_guess:
            return Drawn(_board(layout, width, height, click), Method.ADJUST, plays, moved)
        seen, won = bytearray(certificate.position.grid.tobytes()), False
        while not won and plays < attempts and moves < _MOVES_A_BOARD:
            shifted = _move_mines(layout, seen, width, height, rng)
            if not shifted:
                break
            moves, moved, plays = moves + 1, moved + shifted, plays + 1
            clues = layout_clues(layout.reshape(height, width))
            opened = np.frombuffer(seen, dtype=np.int8) >= 0
            for cell in np.flatnonzero(opened).tolist():  # the open cells show the clues of the layout now
                seen[cell] = clues[cell]
            played = certify_layout(clues, width, height, mines, click, view=seen)
            won = played.no_guess
            seen = bytearray(played.position.grid.tobytes())
        if not won:  # nowhere to move them, or moved enough on this one: a fresh board
            layout, moves = _layout(size, free, mines, rng), 0
    raise NoGuessError(f"no no-guess {width}x{height} board with {mines} mines in {attempts:,} plays: "
                       "allow more attempts, or fewer mines")


def _move_mines(layout: np.ndarray, seen: bytearray, width: int, height: int, rng: np.random.Generator) -> int:
    """Clear the covered cells around one clue where play got stuck (``seen``, the view's codes): their mines
    go to covered cells that touch nothing open. The clue then proves its cells safe (its other mines are
    proved already), and play goes on from there. Returns the mines moved (0: none could be, ``layout``
    unchanged)."""
    codes = np.frombuffer(seen, dtype=np.int8)
    covered, opened = codes == COVERED, codes >= 0
    around = neighbour_array(width, height)
    padded_covered = np.append(covered, False)  # index -1 (no neighbour) reads False
    front = np.flatnonzero(opened & padded_covered[around].any(axis=1))
    if not len(front):
        return 0
    clue = int(front[rng.integers(len(front))])
    cleared = [int(n) for n in around[clue] if n >= 0 and covered[n]]
    leaving = [n for n in cleared if layout[n]]
    touches_open = np.zeros(layout.size + 1, dtype=bool)
    touches_open[around[opened].ravel()] = True
    far = covered & ~touches_open[:-1] & ~layout
    far[cleared] = False
    far_cells = np.flatnonzero(far)
    if not leaving or len(far_cells) < len(leaving):
        return 0
    layout[leaving] = False
    layout[rng.choice(far_cells, size=len(leaving), replace=False)] = True
    return len(leaving)
