"""Chain counts against Ganak, an exact model counter written by others: an independent check of the
counting (the engine shares no code with it).

Each chain's clues become CNF, one variable a cell and each rule "exactly m of these cells" by a
sequential-counter cardinality encoding (``pysat.card``); Ganak counts the models projected on the
cells (the encoding's auxiliary variables are existential), which must be the chain's layout count,
:attr:`ChainCount.total`. Skipped, saying so, where ``pyganak`` is not installed (the ``test``
extra installs it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cspmines import InconsistentPositionError, Position
from cspmines.engine.backends import get_backend
from cspmines.engine.backends.sat import ganak_layouts
from cspmines.engine.chains import chains_of, split_chains
from cspmines.engine.constraints import settle_position

from randompositions import random_position

pytest.importorskip("pyganak", reason="pyganak is not installed (pip install pyganak, or the test extra)")

DATA = Path(__file__).parent / "data"


def engine_layouts(component) -> int:
    return get_backend("dp").count(component).total


def test_random_fronts_count_as_ganak_counts_them():
    """Chains of random small positions, raw and settled (flags, opened mines, withheld clues, some
    positions inconsistent: chains of no layout at all)."""
    rng = np.random.default_rng(5)
    chains = []
    while len(chains) < 400:
        position = random_position(rng, max_covered=int(rng.integers(4, 24)), corrupt=bool(rng.random() < 0.2))
        try:
            chains += chains_of(position)
            chains += split_chains(settle_position(position).system)
        except InconsistentPositionError:  # a clue that cannot be met makes no system
            continue
    counted = [(engine_layouts(chain), ganak_layouts(chain)) for chain in chains]
    assert all(ours == theirs for ours, theirs in counted), [(c.cells, n) for c, n in zip(chains, counted, strict=True) if n[0] != n[1]]
    assert any(ours == 0 for ours, _ in counted) and max(ours for ours, _ in counted) > 50  # none and many


def test_the_reference_chains_count_as_ganak_counts_them():
    """Every chain of every reference position (mid-game fronts and the wide lattices, scatters,
    checkers and chains, up to about 10^13 layouts), as the clues give them."""
    chains = [chain for path in sorted(DATA.glob("*.txt")) for chain in chains_of(Position.from_file(path))]
    for chain in chains:
        assert engine_layouts(chain) == ganak_layouts(chain), chain.cells
    assert max(chain.n_cells for chain in chains) > 300
