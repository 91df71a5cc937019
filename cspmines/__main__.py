"""``python -m cspmines``: the same as the ``cspmines`` command."""

from .cli import entry_point

entry_point()
