"""A replay's own numbers, as ms-toollib computes them for the file: 3BV, 3BV/s, IOE, clicks, openings, ZiNi...

They are read from ms-toollib (in the child process that reads the file, :mod:`.extract`), at the end of the
game, and never recomputed here: what a player's program shows for the file is what is shown. Each keeps
ms-toollib's name; a value it gives as infinite or not a number (3BV/s of a game that took no time) is
None.

* ``bbbv``: the board's 3BV, the fewest left clicks that clear it; ``bbbv_solved``: the 3BV solved by the
  end (of a lost game, before the fatal click); ``bbbv_s``: 3BV solved a second;
* ``ioe``: efficiency, 3BV solved over clicks; ``thrp``: throughput, 3BV solved over effective clicks;
  ``corr``: correctness, effective clicks over clicks; ``rqp``: time over 3BV/s (lower is better);
* ``cl``: clicks, ``left`` + ``right`` + ``double`` (chords); ``ce``: effective clicks (those that changed
  the board); ``flag``: flags placed; ``path``: the mouse's path in pixels;
* ``op``: the board's openings (regions of zeros); ``isl``: its islands (3BV cells away from openings);
  ``zini``: greedy ZiNi, ``hzini``: human ZiNi (the clicks a solver with chords needs);
* ``stnb``: STNB, on beginner, intermediate and expert only (ms-toollib gives 0 on other boards);
* ``rtime``: the game's time in seconds as ms-toollib counts it; ``level``: 3 beginner, 4 intermediate,
  5 expert, 6 another board.

>>> stats = Statistics.from_json({"bbbv": 12, "bbbv_s": 1.13, "stnb": None, "level": 3})
>>> stats.bbbv, stats.values["bbbv_s"], stats.values["stnb"], stats.standard
(12, 1.13, None, True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["NAMES", "Statistics"]

#: The numbers read, by ms-toollib's names, in the order the report gives them.
NAMES = ("bbbv", "bbbv_solved", "bbbv_s", "ioe", "rqp", "thrp", "corr", "cl", "ce", "left", "right", "double", "flag",
         "op", "isl", "stnb", "zini", "hzini", "path", "rtime", "level")

_STANDARD_LEVELS = (3, 4, 5)  # beginner, intermediate, expert: where ms-toollib defines STNB


def finite(value):
    """A number as JSON holds it: None for an infinity or not-a-number.

    >>> finite(2.5), finite(float("inf")), finite(3)
    (2.5, None, 3)
    """
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


@dataclass(frozen=True)
class Statistics:
    """ms-toollib's numbers for one replay (see the module's table): ``values`` by its names, read-only."""

    values: MappingProxyType = field(compare=False)

    @classmethod
    def from_json(cls, data: dict) -> Statistics:
        """From the child's JSON: each name of :data:`NAMES`, None where missing."""
        return cls(MappingProxyType({name: finite(data.get(name)) for name in NAMES}))

    def __eq__(self, other) -> bool:
        return isinstance(other, Statistics) and dict(self.values) == dict(other.values)

    def __hash__(self) -> int:
        return hash(tuple(self.values.items()))

    @property
    def bbbv(self):
        return self.values["bbbv"]

    @property
    def standard(self) -> bool:
        """A beginner, intermediate or expert board: ms-toollib's STNB means something there."""
        return self.values["level"] in _STANDARD_LEVELS

    def json(self) -> dict:
        return dict(self.values)

    def lines(self) -> list[str]:
        """The report's lines: the speed and efficiency figures, then the clicks and the board's."""
        v = self.values

        def num(name: str, digits: int) -> str:
            return "-" if v[name] is None else f"{v[name]:.{digits}f}"

        speed = (f"3BV {v['bbbv_solved']}/{v['bbbv']}, 3BV/s {num('bbbv_s', 3)}, IOE {num('ioe', 3)}, "
                 f"RQP {num('rqp', 2)}, throughput {num('thrp', 3)}, correctness {num('corr', 3)}")
        if self.standard:
            speed += f", STNB {num('stnb', 2)}"
        clicks = (f"clicks {v['cl']} (left {v['left']}, right {v['right']}, double {v['double']}; {v['ce']} effective), "
                  f"flags {v['flag']}; openings {v['op']}, islands {v['isl']}, ZiNi {v['zini']} (human {v['hzini']})")
        return [speed, clicks]
