"""The notebooks run as tests (nbmake, set in pyproject.toml): each plays games for minutes, so each
carries the ``slow`` marker and ``pytest -m "not slow"`` leaves them out."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list) -> None:
    for item in items:
        if item.path.suffix == ".ipynb":
            item.add_marker(pytest.mark.slow)
