"""Compiled kernels, where the build had a C compiler; None of them otherwise.

The Python code is the reference and stays: a kernel here does the same steps in the same
floating-point order, so answers do not depend on which runs. ``CSPMINES_PURE_PYTHON=1`` in the
environment turns the kernels off (tests compare both ways).

>>> BUILD in ("compiled kernels", "pure Python")
True
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["BUILD", "kernels"]


def _compiled() -> ModuleType | None:
    if os.environ.get("CSPMINES_PURE_PYTHON"):
        return None
    try:
        from . import _kernels
    except ImportError:  # built without a compiler: the pure-Python kernels run
        return None
    return _kernels


kernels = _compiled()

#: which build runs, for ``cspmines --version``
BUILD = "compiled kernels" if kernels is not None else "pure Python"
