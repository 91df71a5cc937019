"""Games made here to write as replays: a cspmines agent's classic game as its layout and moves."""

from __future__ import annotations


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
