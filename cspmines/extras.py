"""How to install an optional extra, said the way that installs it where this copy of cspmines came from.

From a release (a wheel in site-packages) that is ``pip install 'cspmines[EXTRA]'``; run from a source
tree (a checkout, installed editable or put on the path) that line would fetch another copy from PyPI,
so the tree's own form is said too, ``pip install -e '.[EXTRA]'`` (or the tree's path when the command
runs elsewhere).

>>> install_hint("plot", root=Path("/nowhere"))
"pip install 'cspmines[plot]'"
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["install_hint", "source_tree"]

#: The folder that holds the package: a source tree when its pyproject.toml is cspmines'.
_ROOT = Path(__file__).resolve().parent.parent


def source_tree(root: Path = _ROOT) -> Path | None:
    """``root`` when it is cspmines' source tree (a ``pyproject.toml`` naming the project), else None."""
    pyproject = root / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:  # none there: an installed copy
        return None
    return root if 'name = "cspmines"' in text else None


def install_hint(extra: str, *, root: Path | None = None) -> str:
    """The command that installs ``extra`` for this copy (``root``: the folder holding the package)."""
    released = f"pip install 'cspmines[{extra}]'"
    tree = source_tree(_ROOT if root is None else root)
    if tree is None:
        return released
    where = "." if tree.resolve() == Path.cwd().resolve() else str(tree)
    return f"{released} (from this source tree: pip install -e '{where}[{extra}]')"
