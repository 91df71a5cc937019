"""``python -m cspmines.cli``: the same as the ``cspmines`` command."""

from . import entry_point

entry_point()
