"""Replay files made here: games played through ms-toollib's own recorder and written as EVF.

ms-toollib's BaseVideo takes mouse events on a board (pixel positions, 16 pixels a cell) and writes
an EVF file once the game is over; reading that file back with :func:`cspmines.replays.read_replay` must
give the positions our own :meth:`~cspmines.replays.Replay.from_moves` builds from the same moves.
"""

from __future__ import annotations

import numpy as np

PIXELS = 16


def clue_board(layout) -> list:
    """ms-toollib's board: -1 for a mine, else the clue."""
    mines = np.array(layout, dtype=int)
    padded = np.pad(mines, 1)
    counts = sum(padded[1 + dr:1 + dr + mines.shape[0], 1 + dc:1 + dc + mines.shape[1]]
                 for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
    return np.where(mines == 1, -1, counts).tolist()


def evf_bytes(layout, moves, *, player: str = "cspmines", software: str = "cspmines tests") -> bytes:
    """The EVF file of ``moves`` (``(kind, row, col)``: open, chord or flag) played on ``layout``.

    The game must end (won or lost): ms-toollib writes no file for a game still going.
    """
    import ms_toollib

    video = ms_toollib.BaseVideo(clue_board(layout), PIXELS)
    for kind, row, col in moves:
        at = (row * PIXELS + PIXELS // 2, col * PIXELS + PIXELS // 2)
        presses = {"open": ("lc", "lr"), "flag": ("rc", "rr"), "chord": ("lc", "rc", "lr", "rr")}[kind]
        for press in presses:
            video.step(press, at)
    if video.game_board_state not in (3, 4):  # ms-toollib: 3 won, 4 lost
        raise ValueError("the moves do not end the game: ms-toollib writes no replay of a game still going")
    video.player_identifier = player
    video.software = software
    video.generate_evf_v4_raw_data()
    return bytes(video.raw_data)


def agent_game(agent: str, size: tuple, seed: int, *, first_click: str = "safe") -> tuple[list, list]:
    """A classic game of a cspmines agent: its layout (rows of 0/1) and its moves, opens and flags."""
    from cspmines.agents import make_agent
    from cspmines.games import Board, Game

    board = Board.random(size, seed=seed, first_click=first_click)
    game = Game(board, rules="classic")
    player = make_agent(agent)
    player.reset(rules="classic", seed=seed)
    width = size[0]
    moves = []
    if board.first_click is not None:
        moves.append(("open", *divmod(board.first_click, width)))
    while game.status == "playing":
        action = player.act(game.position)
        game.apply(action)
        moves.append((action.kind, *divmod(action.cell, width)))
    layout = [[int(board.is_mine(r * width + c)) for c in range(width)] for r in range(size[1])]
    return layout, moves
