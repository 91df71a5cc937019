"""Backends: one chain in, exact counts by mine number out, chosen by name.

Every backend has the same ``count(chain, *, budget=None)`` method and
returns the same exact :class:`ChainCount`; they differ in how they get
there (see each module).

>>> from cspmines.engine.backends import backend_names, get_backend
>>> backend_names()
('auto', 'cpsat', 'dp', 'sat')

Each counts a chain to the same exact answer (here one mine in the
middle cell, or one at each end):

>>> from cspmines import Position
>>> from cspmines.engine.chains import chains_of
>>> (chain,) = chains_of(Position.from_string("5x1\\n.1.1."))
>>> for name in backend_names():
...     counted = get_backend(name).count(chain)
...     print(name, counted.models, counted.tallies)
auto (0, 1, 1) ((0, 0, 1), (0, 1), (0, 0, 1))
cpsat (0, 1, 1) ((0, 0, 1), (0, 1), (0, 0, 1))
dp (0, 1, 1) ((0, 0, 1), (0, 1), (0, 0, 1))
sat (0, 1, 1) ((0, 0, 1), (0, 1), (0, 0, 1))
>>> get_backend("nope")
Traceback (most recent call last):
...
cspmines.errors.UnknownBackendError: unknown backend 'nope'; choose one of auto, cpsat, dp, sat
"""

from .auto import AutoBackend
from .base import Backend, ChainCount, ComponentCount, backend_names, get_backend, register_backend, trim_zeros
from .cpsat import CpSatBackend
from .dynamic import DynamicProgrammingBackend
from .sampler import LayoutSampler
from .sat import SatBackend

__all__ = [
    "Backend",
    "ChainCount",
    "ComponentCount",
    "backend_names",
    "get_backend",
    "register_backend",
    "trim_zeros",
    "AutoBackend",
    "CpSatBackend",
    "DynamicProgrammingBackend",
    "LayoutSampler",
    "SatBackend",
]

register_backend("dp", DynamicProgrammingBackend)
register_backend("sat", lambda cache: SatBackend())  # the enumerating backends keep nothing between counts
register_backend("cpsat", lambda cache: CpSatBackend())
register_backend("auto", AutoBackend)
