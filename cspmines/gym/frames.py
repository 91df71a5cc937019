"""The board as a picture in a numpy array, for ``render_mode="rgb_array"`` (videos, notebooks) and the
``"human"`` window: the colours and letters of the package's SVG pictures (:func:`cspmines.drawing.scene`),
drawn cell by cell with a small bitmap font, so nothing beyond numpy is needed (no matplotlib, no Pillow).

Each cell is a square of ``cell`` pixels with a one-pixel white seam: covered cells grey, opened ones light,
clues in their usual colours, ``F`` a flag, ``*`` an opened mine, ``?`` a withheld clue.

>>> from cspmines import Position
>>> frame = board_frame(Position.from_string("3x2x1\\n1..\\n..."))
>>> frame.shape, frame.dtype
((32, 48, 3), dtype('uint8'))
>>> frame[1, 17].tolist(), frame[1, 1].tolist(), frame[8, 8].tolist()   # covered grey; the opened 1: light, blue
([176, 176, 176], [240, 240, 240], [31, 63, 191])
"""

from __future__ import annotations

import numpy as np

from ..drawing import scene
from ..position import Position

__all__ = ["CELL_PIXELS", "board_frame"]

#: The side of a cell in pixels: an expert board is 480 x 256, a multiple of 16 as video encoders like.
CELL_PIXELS = 16

_SEAM = (255, 255, 255)

# 5 x 7 letters, a row a string: what a cell can show
_FONT = {
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": (".###.", "#...#", "....#", "..##.", "....#", "#...#", ".###."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": ("..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "F": ("#####", "#....", "#....", "####.", "#....", "#....", "#...."),
    "*": (".....", "#.#.#", ".###.", "#####", ".###.", "#.#.#", "....."),
    "?": (".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."),
}
_GLYPHS = {text: np.array([[mark == "#" for mark in row] for row in rows]) for text, rows in _FONT.items()}


def board_frame(position: Position, *, cell: int = CELL_PIXELS) -> np.ndarray:
    """The position as an RGB picture, a ``(height * cell, width * cell, 3)`` uint8 array.

    >>> from cspmines import Position
    >>> board_frame(Position.from_string("2x1x1\\n1."), cell=10).shape
    (10, 20, 3)
    """
    drawn = scene(position)
    frame = np.empty((drawn["height"] * cell, drawn["width"] * cell, 3), dtype=np.uint8)
    frame[:] = _SEAM
    scale = max(1, (cell - 2) // 7)  # the letters' pixels, as large as the cell holds
    for item in drawn["cells"]:
        top, left = item["row"] * cell, item["col"] * cell
        square = frame[top:top + cell, left:left + cell]
        square[: cell - 1, : cell - 1] = _rgb(item["fill"])  # the seam: the last row and column
        if item["text"]:
            _letter(square, item["text"], _rgb(item["colour"]), scale)
    return frame


def _letter(square: np.ndarray, text: str, colour: tuple[int, int, int], scale: int) -> None:
    """Write the letter ``text`` in ``colour`` at the middle of a cell's ``square``, each font pixel ``scale``
    pixels wide."""
    glyph = np.kron(_GLYPHS[text], np.ones((scale, scale), dtype=bool))
    side = square.shape[0] - 1  # inside the seam
    top, left = max(0, (side - glyph.shape[0] + 1) // 2), max(0, (side - glyph.shape[1] + 1) // 2)
    glyph = glyph[:side - top, :side - left]  # a cell too small for the letter shows what fits
    square[top:top + glyph.shape[0], left:left + glyph.shape[1]][glyph] = colour


def _rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` as three bytes."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
