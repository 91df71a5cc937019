"""A window that shows the board, for ``render_mode="human"``: Tk, which comes with Python, so no package is
needed; where there is no display to open it on, a one-line :class:`~cspmines.gym.options.EnvOptionError`.

The frames are :func:`~cspmines.gym.frames.board_frame`'s pictures, handed to Tk as PPM images (no Pillow), and
shown no faster than ``fps`` a second, as Gymnasium's ``render_fps`` asks of a human view.
"""

from __future__ import annotations

import time
from contextlib import suppress
from typing import Any

import numpy as np

from .options import EnvOptionError

__all__ = ["Window", "ppm"]


def ppm(frame: np.ndarray) -> bytes:
    """An ``(H, W, 3)`` uint8 picture as a binary PPM image.

    >>> ppm(np.zeros((1, 2, 3), dtype=np.uint8))
    b'P6 2 1 255\\n\\x00\\x00\\x00\\x00\\x00\\x00'
    """
    height, width, _ = frame.shape
    return b"P6 %d %d 255\n" % (width, height) + np.ascontiguousarray(frame, dtype=np.uint8).tobytes()


class Window:
    """A Tk window showing one picture at a time (see the module's description).

    Parameters
    ----------
    title : str
    fps : float
        The most frames shown a second: :meth:`show` waits out the rest of a frame's time.
    """

    def __init__(self, title: str, fps: float):
        try:
            import tkinter
        except ImportError:  # a Python built without Tk
            raise EnvOptionError("render_mode 'human' shows the board with Tk (tkinter), which this Python lacks: "
                                 "use render_mode 'rgb_array' and show the pictures yourself") from None
        try:
            self._root = tkinter.Tk()
        except tkinter.TclError as error:  # no display: a server, a container, a CI machine
            reason = " ".join(str(error).split())
            raise EnvOptionError(f"render_mode 'human' needs a display to open a window on, and Tk found none ({reason}): "
                                 "use render_mode 'rgb_array' for the pictures as arrays") from None
        self._tk = tkinter
        self._root.title(title)
        self._label = tkinter.Label(self._root, borderwidth=0)
        self._label.pack()
        self._image: Any = None  # Tk shows an image only while Python holds it
        self._gap, self._shown = 1.0 / fps, 0.0
        self.closed = False

    def show(self, frame: np.ndarray) -> None:
        """Show ``frame`` (an ``(H, W, 3)`` uint8 picture) once the last one has had its time on screen; once
        the window is closed (by :meth:`close`, or by its user) nothing is shown."""
        if self.closed:
            return
        wait = self._gap - (time.monotonic() - self._shown)
        if wait > 0:
            time.sleep(wait)
        try:
            self._image = self._tk.PhotoImage(master=self._root, data=ppm(frame), format="PPM")
            self._label.configure(image=self._image)
            self._root.update()
        except (self._tk.TclError, RuntimeError):  # its user closed the window: training goes on unseen
            self.closed = True
        self._shown = time.monotonic()

    def close(self) -> None:
        """Close the window (again: nothing)."""
        if not self.closed:
            self.closed = True
            with suppress(self._tk.TclError):  # already gone with its user's click
                self._root.destroy()
