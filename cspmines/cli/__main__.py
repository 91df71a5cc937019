"""``python -m cspmines.cli``: the same as the ``cspmines`` command."""

from . import entry_point

if __name__ == "__main__":  # not when a documentation tool imports it
    entry_point()
