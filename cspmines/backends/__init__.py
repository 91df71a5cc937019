"""Backends: one component in, exact counts by mine number out, chosen by name.

Every backend has the same ``count(component, *, budget=None)`` method and
returns the same exact :class:`ComponentCount`; they differ in how they get
there (see each module).

>>> from cspmines.backends import backend_names, get_backend
>>> backend_names()
('auto', 'cpsat', 'enumerate', 'sat')
>>> get_backend("nope")
Traceback (most recent call last):
...
cspmines.errors.UnknownBackendError: unknown backend 'nope'; choose one of auto, cpsat, enumerate, sat
"""

from .auto import AutoBackend
from .base import Backend, Budget, ComponentCount, backend_names, get_backend, register_backend, trim_zeros
from .cpsat import CpSatBackend
from .frontier import FrontierBackend, LayoutSampler
from .sat import SatBackend

__all__ = [
    "Backend",
    "Budget",
    "ComponentCount",
    "backend_names",
    "get_backend",
    "register_backend",
    "trim_zeros",
    "AutoBackend",
    "CpSatBackend",
    "FrontierBackend",
    "LayoutSampler",
    "SatBackend",
]

register_backend("enumerate", FrontierBackend)
register_backend("sat", SatBackend)
register_backend("cpsat", CpSatBackend)
register_backend("auto", AutoBackend)
