"""The ``"auto"`` backend: picks a backend per chain from measured crossovers.

``benchmarks/backends.py`` times every backend on every chain of the
reference positions. ``dp`` wins every chain below 40 boxes and
every wide, loose front (where the enumerating backends are 100x slower or
never finish); ``sat`` wins large chains whose rules leave little
freedom, which have few layouts to list. ``cpsat`` wins none of them. The
feature that separates the two is the slack per box: for each rule the
smaller of its need and its room (``min(v, cells - v)``), summed, over the
number of boxes. A wrong ``dp`` costs under 2x, a wrong ``sat`` 100x,
so the line is drawn on the safe side.

>>> AutoBackend().choose(n_boxes=145, n_rules=90, slack=46)
'sat'
>>> AutoBackend().choose(n_boxes=144, n_rules=49, slack=104)
'dp'
"""

from __future__ import annotations

from ..budget import Budget
from ..cache import Cache
from ..chains import Chain
from .base import Backend, ChainCount
from .cpsat import CpSatBackend
from .dynamic import DynamicProgrammingBackend
from .sat import SatBackend

__all__ = ["AutoBackend", "SAT_FROM_BOXES", "SAT_MAX_SLACK_PER_BOX", "SAT_MAX_SLACK_PER_BOX_OVERDETERMINED"]

#: Below this many boxes ``dp`` always won.
SAT_FROM_BOXES = 40
#: ``sat`` won at or below this slack per box ...
SAT_MAX_SLACK_PER_BOX = 0.4
#: ... and, with more rules than boxes, at or below this one.
SAT_MAX_SLACK_PER_BOX_OVERDETERMINED = 0.2


def slack(chain: Chain) -> int:
    """How much freedom the rules leave: sum of ``min(need, room)`` over rules."""
    sizes = [len(box.cells) for box in chain.boxes]
    total = 0
    for rule in chain.rules:
        cells = sum(sizes[b] for b in rule.boxes)
        total += min(rule.mines, cells - rule.mines)
    return total


class AutoBackend:
    """Counts each chain with the backend the measured crossovers pick for it (``cache``: what its
    ``dp`` keeps, see :class:`~cspmines.engine.backends.dynamic.DynamicProgrammingBackend`).

    Every backend counts to the same answer: see the example in :mod:`cspmines.engine.backends`.

    >>> AutoBackend().choose(n_boxes=3, n_rules=2, slack=0)   # small: dynamic programming
    'dp'
    """

    name = "auto"

    def __init__(self, cache: Cache | None = None):
        self._backends: dict[str, Backend] = {"dp": DynamicProgrammingBackend(cache), "sat": SatBackend(), "cpsat": CpSatBackend()}

    def choose(self, *, n_boxes: int, n_rules: int, slack: int) -> str:
        """The backend name for a chain with these features."""
        if n_boxes < SAT_FROM_BOXES:
            return "dp"
        limit = SAT_MAX_SLACK_PER_BOX if n_rules <= n_boxes else SAT_MAX_SLACK_PER_BOX_OVERDETERMINED
        return "sat" if slack <= limit * n_boxes else "dp"

    def choose_for(self, chain: Chain) -> str:
        """The backend name :meth:`count` uses for ``chain``."""
        if chain.n_boxes < SAT_FROM_BOXES:
            return "dp"
        return self.choose(n_boxes=chain.n_boxes, n_rules=chain.n_rules, slack=slack(chain))

    def count(self, chain: Chain, *, budget: Budget | None = None) -> ChainCount:
        return self._backends[self.choose_for(chain)].count(chain, budget=budget)
