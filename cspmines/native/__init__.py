"""Compiled kernels, where the build had a C compiler; their pure-Python twins otherwise.

The Python code is the reference and stays: a kernel here does the same steps in the same
floating-point order, so answers do not depend on which runs. Every kernel has a row in
:data:`KERNELS` (:mod:`cspmines.native.table`), and code picks one through :func:`kernel`
alone. ``CSPMINES_PURE_PYTHON=1`` in the environment turns them all off for a run,
``with pure_python():`` for a block (tests compare both ways so).

>>> BUILD in ("compiled kernels", "pure Python")
True
"""

from __future__ import annotations

import os
from types import ModuleType

from .table import KERNELS, Kernel, kernel, pure_python, switch_on

__all__ = ["BUILD", "KERNELS", "Kernel", "kernel", "kernels", "pure_python"]


def _compiled() -> ModuleType | None:
    if os.environ.get("CSPMINES_PURE_PYTHON"):
        return None
    try:
        from . import _kernels
    except ImportError:  # built without a compiler: the pure-Python twins run
        return None
    return _kernels


#: the compiled module as loaded (None in a pure-Python build or run); code asks :func:`kernel` instead,
#: which :func:`pure_python` can turn off
kernels = _compiled()
switch_on(kernels)

#: which build runs, for ``cspmines --version``
BUILD = "compiled kernels" if kernels is not None else "pure Python"
