"""The codes of a position's cells (:attr:`cspmines.Position.grid`): clues are their own value 0..8,
the other states negative. Kept apart from :mod:`cspmines.position`, which exports them, so that what
reads only cells (the pictures) needs nothing else.

>>> COVERED, FLAG, MINE, WITHHELD
(-1, -2, -3, -4)
"""

__all__ = ["COVERED", "FLAG", "MINE", "WITHHELD"]

#: A covered cell.
COVERED = -1
#: A cell flagged by the player: trusted as a known mine.
FLAG = -2
#: An opened mine (minesearch and score rules): a known mine.
MINE = -3
#: An opened safe cell whose clue was withheld (``?``).
WITHHELD = -4
