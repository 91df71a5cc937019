"""A game written as an EVF replay, through ms-toollib's own recorder: a cspmines game opens in Metasweeper.

ms-toollib's ``BaseVideo`` takes mouse events on a board (16 pixels a cell) and writes an EVF file
(Metasweeper's format) once the game is over. :func:`evf_bytes` plays a list of moves through it;
:func:`~cspmines.replays.read_replay` reads the file back as the same game
(the tests check it click by click against :meth:`~cspmines.replays.Replay.from_moves`).

>>> from cspmines.replays import read_replay
>>> data = evf_bytes([[0, 0, 1]], [("open", 0, 0)], player="me")
>>> replay = read_replay("game.evf", data=data)
>>> replay.outcome.value, replay.player, replay.width, replay.mines
('won', 'me', 3, 1)
"""

from __future__ import annotations

from .reader import ReplayFormatError

__all__ = ["evf_bytes"]

PIXELS = 16
_PRESSES = {"open": ("lc", "lr"), "flag": ("rc", "rr"), "chord": ("lc", "rc", "lr", "rr")}
_WON, _LOST = 3, 4  # ms-toollib's game_board_state


def clue_board(layout) -> list:
    """ms-toollib's board from rows of 0/1: -1 for a mine, else the clue.

    >>> clue_board([[0, 1], [0, 0]])
    [[1, -1], [1, 1]]
    """
    height, width = len(layout), len(layout[0])

    def clue(r: int, c: int) -> int:
        return sum(layout[i][j] for i in range(max(0, r - 1), min(height, r + 2)) for j in range(max(0, c - 1), min(width, c + 2)))

    return [[-1 if layout[r][c] else clue(r, c) for c in range(width)] for r in range(height)]


def evf_bytes(layout, moves, *, player: str = "", software: str = "cspmines") -> bytes:
    """The EVF file of ``moves`` (``(kind, row, col)``: open, chord or flag) played on ``layout``
    (rows of 0/1, 1 a mine). Needs the ``replays`` extra.

    Raises
    ------
    ReplayFormatError
        The moves do not end the game: ms-toollib writes no file for a game still going.
    """
    import ms_toollib

    video = ms_toollib.BaseVideo(clue_board(layout), PIXELS)
    for kind, row, col in moves:
        at = (row * PIXELS + PIXELS // 2, col * PIXELS + PIXELS // 2)
        for press in _PRESSES[kind]:
            video.step(press, at)
    if video.game_board_state not in (_WON, _LOST):
        raise ReplayFormatError("the moves do not end the game: ms-toollib writes no replay of a game still going")
    video.player_identifier = player
    video.software = software
    video.generate_evf_v4_raw_data()
    return bytes(video.raw_data)
