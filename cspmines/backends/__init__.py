"""Backends: one component in, exact counts by mine number out, chosen by name.

>>> from cspmines.backends import get_backend
>>> get_backend("nope")
Traceback (most recent call last):
...
cspmines.errors.UnknownBackendError: unknown backend 'nope'; choose one of auto, enumerate
"""

from .base import Backend, Budget, ComponentCount, backend_names, get_backend, register_backend
from .frontier import FrontierBackend

__all__ = ["Backend", "Budget", "ComponentCount", "backend_names", "get_backend", "register_backend", "FrontierBackend"]

register_backend("enumerate", FrontierBackend)
register_backend("auto", FrontierBackend)
