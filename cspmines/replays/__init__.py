"""Real games: replay files read (AVF, RMV, EVF, MVF) and every click judged exactly.

>>> from cspmines.replays import Replay, analyse_replay
>>> result = analyse_replay(Replay.from_moves([[1, 0, 0], [0, 0, 0]], [("open", 1, 2), ("open", 1, 0)]), agent=False)
>>> result.survival, result.forced, result.needless
(Fraction(1, 2), 1, 0)
"""

from .analysis import ClickAnalysis, ClickClass, ReplayAnalysis, analyse_replay, judge_click
from .reader import FORMATS, ClickAction, FirstClickRule, Outcome, Replay, ReplayClick, ReplayFormatError, read_replay

__all__ = [
    "FORMATS",
    "ClickAction",
    "ClickAnalysis",
    "ClickClass",
    "FirstClickRule",
    "Outcome",
    "Replay",
    "ReplayAnalysis",
    "ReplayClick",
    "ReplayFormatError",
    "analyse_replay",
    "judge_click",
    "read_replay",
]
