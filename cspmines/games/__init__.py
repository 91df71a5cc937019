"""Games: seeded boards, the rule variants of the seeds, and a runner for agents; no-guess boards drawn and certified."""

from .board import FIRST_CLICKS, PRESETS, Board, BoardFormatError, FirstClick, parse_size
from .boardfiles import read_board, read_boards
from .certificate import Certificate, NoFirstClickError, certify
from .game import BoardMismatchError, Game, IllegalMoveError, Status
from .noguess import NO_GUESS_CLICKS, NoGuessError, draw_no_guess
from .playing import AgentError, Fault, GameRecord, MoveRecord, PlayerFault, play

__all__ = [
    "Status",
    "Board",
    "BoardFormatError",
    "FIRST_CLICKS",
    "FirstClick",
    "PRESETS",
    "parse_size",
    "read_board",
    "read_boards",
    "Game",
    "IllegalMoveError",
    "BoardMismatchError",
    "play",
    "GameRecord",
    "MoveRecord",
    "AgentError",
    "Fault",
    "PlayerFault",
    "Certificate",
    "NoFirstClickError",
    "certify",
    "NO_GUESS_CLICKS",
    "NoGuessError",
    "draw_no_guess",
]
