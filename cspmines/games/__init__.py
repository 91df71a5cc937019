"""Games: seeded boards, the rule variants of the seeds, and a runner for agents."""

from .board import FIRST_CLICKS, PRESETS, Board, BoardFormatError, parse_size
from .game import BoardMismatchError, Game, IllegalMoveError, Status
from .play import AgentError, Fault, GameRecord, MoveRecord, PlayerFault, play

__all__ = [
    "Status",
    "Board",
    "BoardFormatError",
    "FIRST_CLICKS",
    "PRESETS",
    "parse_size",
    "Game",
    "IllegalMoveError",
    "BoardMismatchError",
    "play",
    "GameRecord",
    "MoveRecord",
    "AgentError",
    "Fault",
    "PlayerFault",
]
