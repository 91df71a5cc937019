"""A game played on the page: its board and rules, the game as it stands, and the moves that made it.

The server keeps these in its :class:`~cspmines.web.guard.GameStore`; every change goes through
:meth:`PlayedGame.play` or :meth:`PlayedGame.undo` under the store's lock.

>>> from cspmines.actions import Action
>>> from cspmines.games import Board
>>> played = PlayedGame(Board.random("beginner", seed=1), "classic")
>>> played.play(Action.open(80))
>>> played.state("1")["moves"], played.undo().state("1")["moves"]
(1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..actions import Action
from ..games import Board, Game

__all__ = ["PlayedGame"]


@dataclass
class PlayedGame:
    """One game on the server: ``board`` and ``rules`` as it began, ``game`` as it stands, ``actions`` so far."""

    board: Board
    rules: str
    game: Game = field(init=False)
    actions: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.game = Game(self.board, rules=self.rules)

    def play(self, action: Action) -> None:
        """Apply one move (the game refuses an illegal one, and then nothing is kept)."""
        self.game.apply(action)
        self.actions.append(action)

    def undo(self) -> PlayedGame:
        """Take the last move back: the game played again from its board without it."""
        game = Game(self.board, rules=self.rules)
        actions = self.actions[:-1]
        for action in actions:
            game.apply(action)
        self.game, self.actions = game, actions
        return self

    def state(self, game_id: str) -> dict:
        """What every game endpoint answers: the position as text, the status, the moves and the measures."""
        game = self.game
        return {
            "id": game_id,
            "position": str(game.position),
            "status": game.status,
            "rules": game.rules,
            "moves": len(self.actions),
            "opened_fraction": game.opened_fraction,
            "score": game.score,
            "mines_opened": game.mines_opened,
        }
