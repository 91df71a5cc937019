"""``python -m cspmines``: the same as the ``cspmines`` command."""

from .cli import entry_point

if __name__ == "__main__":  # not when a documentation tool imports it
    entry_point()
