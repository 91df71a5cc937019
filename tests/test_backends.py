"""Every registered backend against the brute-force oracle and the reference answers, and budgets.

One suite, parametrized over ``backend_names()``: a backend added to the
registry is tested here without a line of its own.
"""

from __future__ import annotations

import builtins
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import cspmines
from cspmines import BackendUnavailableError, InconsistentPositionError, Limit, Position, certain_cells, solve
from cspmines.engine.backends import SatBackend, backend_names, get_backend
from cspmines.engine.chains import split_chains
from cspmines.engine.constraints import ConstraintSystem

from bruteforce import brute_force
from randompositions import random_position

DATA = Path(__file__).parent / "data"
REFERENCES = sorted(DATA.glob("*.txt"))
BACKENDS = backend_names()
#: Reference fronts whose box-level layouts number 1e5 to 1e13: enumerating backends
#: cannot list them and must say so through the budget path instead.
TOO_WIDE_TO_ENUMERATE = {"lattice11-2", "lattice13-2", "lattice15-2", "scatter25-2", "scatter35-2"}
ENUMERATING = {"sat", "cpsat"}


def check_against_oracle(position: Position, backend: str) -> bool:
    """Assert exact agreement with brute force; returns whether the position was consistent."""
    density = None
    if position.mines is None:
        density = Fraction(int(np.random.default_rng(hash(position) % 2**32).integers(1, 10)), 10)
    oracle = brute_force(position, density=density)
    if oracle.model_count == 0:
        with pytest.raises(InconsistentPositionError):
            solve(position, density=density, backend=backend)
        return False
    analysis = solve(position, density=density, backend=backend)
    assert analysis.exact
    assert analysis.model_count == oracle.model_count, repr(position)
    exact = analysis.probabilities(exact=True)
    floats = analysis.probabilities()
    for cell, p in oracle.probabilities.items():
        assert exact.flat[cell] == p, (repr(position), position.row_col(cell))
        assert floats.flat[cell] == pytest.approx(float(p))
    for cell in set(range(position.size)) - set(oracle.probabilities):
        assert exact.flat[cell] is None and np.isnan(floats.flat[cell])
    assert set(analysis.safe_cells) == {c for c, p in oracle.probabilities.items() if p == 0}
    assert set(analysis.mine_cells) == {c for c, p in oracle.probabilities.items() if p == 1}
    return True


@pytest.mark.parametrize("chunk", range(5))
@pytest.mark.parametrize("backend", BACKENDS)
def test_random_positions_agree_with_brute_force(backend, chunk):
    rng = np.random.default_rng(20261121 + chunk)
    consistent = sum(check_against_oracle(random_position(rng, corrupt=(i % 6 == 0)), backend) for i in range(240))
    assert consistent >= 160  # the generator must mostly produce consistent positions


def test_cnf_solver_with_card_encodings_agrees(monkeypatch):
    """A plain CNF solver (auxiliary variables from pysat.card) must not count a layout twice."""
    monkeypatch.setitem(cspmines.engine.backends.base._REGISTRY, "sat", lambda: SatBackend(solver="cadical153"))
    rng = np.random.default_rng(7)
    assert sum(check_against_oracle(random_position(rng), "sat") for _ in range(150)) >= 100


@pytest.mark.parametrize("path", REFERENCES, ids=[p.stem for p in REFERENCES])
@pytest.mark.parametrize("backend", BACKENDS)
def test_reference_positions(backend, path):
    reference = json.loads(path.with_suffix(".json").read_text())
    position = Position.from_file(path)
    too_wide = backend in ENUMERATING and path.stem in TOO_WIDE_TO_ENUMERATE
    analysis = solve(position, backend=backend, limit=Limit(nodes=5000 if backend in ENUMERATING else None))
    if too_wide:
        # cut short: still every certain cell, exactly, and said to be inexact
        assert not analysis.exact and analysis.model_count is None
        truth = solve(position)
        assert analysis.safe_cells == truth.safe_cells and analysis.mine_cells == truth.mine_cells
        assert analysis.inexact_cells == frozenset(position.covered_cells) - set(truth.safe_cells) - set(truth.mine_cells)
        return
    assert analysis.exact, "a backend that finished must be exact"
    assert analysis.model_count == int(reference["solutions"])
    exact = analysis.probabilities(exact=True)
    for r, row in enumerate(reference["probability_fractions"]):
        for c, value in enumerate(row):
            assert exact[r, c] == (None if value is None else Fraction(*value)), (r, c)


@pytest.mark.parametrize("backend", BACKENDS)
def test_backends_agree_component_by_component(backend):
    position = Position.from_file(DATA / "scatter15-2.txt")
    reference = get_backend("dp")
    engine = get_backend(backend)
    for component in split_chains(ConstraintSystem.from_position(position)):
        assert engine.count(component).models == reference.count(component).models
        assert engine.count(component).tallies == reference.count(component).tallies


@pytest.mark.parametrize("backend", BACKENDS)
def test_node_limit_gives_partial_exact_certainties(backend):
    position = Position.from_file(DATA / "lattice15-2.txt")
    analysis = solve(position, backend=backend, limit=Limit(nodes=50))
    assert not analysis.exact and analysis.model_count is None
    assert any(not report.exact for report in analysis.chains)  # the wide chain was cut short
    proved = certain_cells(position)
    assert analysis.safe_cells == proved.safe and analysis.mine_cells == proved.mines
    floats = analysis.probabilities()
    covered = np.array(position.grid == -1)
    assert np.all((floats[covered] >= 0) & (floats[covered] <= 1))
    for cell in analysis.inexact_cells:
        assert isinstance(analysis.probability(cell), float)


@pytest.mark.parametrize("backend", BACKENDS)
def test_time_limit_returns_partial_result(backend):
    position = Position.from_file(DATA / "lattice15-2.txt")
    analysis = solve(position, backend=backend, limit=Limit(time=0.05))
    assert not analysis.exact  # nothing counts lattice15 in 40 ms
    assert set(analysis.safe_cells) <= set(solve(position).safe_cells)


def test_density_keeps_counted_components_exact_when_another_is_cut():
    position = Position.from_file(DATA / "scatter35-2.txt").with_mines(None)
    full = solve(position, density=Fraction(1, 5))
    cut = solve(position, density=Fraction(1, 5), backend="sat", limit=Limit(nodes=500))
    assert not cut.exact
    small = min(full.components, key=lambda c: c.n_cells)
    for cell in small.cells:
        assert cut.probability(cell) == full.probability(cell)
        assert cell not in cut.inexact_cells


def test_the_budget_is_one_limit_and_its_old_keywords_are_gone():
    from cspmines.engine.clues import clue_spreads

    position = Position.from_string("3x1x1\n.1.")
    for call, old in ((lambda **k: solve(position, **k), ("time_limit", "node_limit", "max_chain")),
                      (lambda **k: clue_spreads(solve(position), [0], **k), ("time_limit",)),
                      (lambda **k: certain_cells(position, **k), ("time_limit", "memory"))):
        for keyword in old:
            with pytest.raises(TypeError, match=f"unexpected keyword argument '{keyword}'"):
                call(**{keyword: 1})
    wide = Position.from_file(REFERENCES[0])
    cut = solve(wide, limit=Limit(nodes=5, max_chain=3))
    assert not cut.exact and cut.inexact_cells


@pytest.mark.parametrize("path", REFERENCES[::3], ids=[p.stem for p in REFERENCES[::3]])
def test_certain_cells_fast_path_matches_counting(path):
    position = Position.from_file(path)
    proved, counted = certain_cells(position), solve(position)
    assert proved.complete
    assert proved.safe == counted.safe_cells and proved.mines == counted.mine_cells


def test_certain_cells_uses_the_total_when_it_binds():
    # two separate 1-clues; a total of 2 forces the far rest cells to be safe
    position = Position.from_string("5x3x2\n.....\n.1.1.\n.....")
    assert certain_cells(position).safe == solve(position).safe_cells
    tight = Position.from_string("3x2x2\n1..\n...")
    assert certain_cells(tight).safe == solve(tight).safe_cells
    assert certain_cells(tight).mines == solve(tight).mine_cells
    with pytest.raises(InconsistentPositionError):
        certain_cells(Position.from_string("3x1x2\n.0."))


def test_missing_solver_package_says_how_to_install(monkeypatch):
    real_import = builtins.__import__

    def no_pysat(name, *args, **kwargs):
        if name.startswith("pysat"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pysat)
    (component,) = split_chains(ConstraintSystem.from_position(Position.from_string("3x1\n.1.")))
    with pytest.raises(BackendUnavailableError, match="pip install python-sat"):
        SatBackend().count(component)


def test_unknown_solver_name_is_a_clear_error():
    (component,) = split_chains(ConstraintSystem.from_position(Position.from_string("3x1\n.1.")))
    with pytest.raises(BackendUnavailableError, match="no solver named"):
        SatBackend(solver="nosuchsolver").count(component)


def test_a_box_encoding_deletes_its_solver_however_its_block_ends():
    pytest.importorskip("pysat")
    from cspmines.engine.backends.sat import BoxEncoding

    with pytest.raises(RuntimeError, match="inside"), BoxEncoding() as encoding:
        encoding.exactly(encoding.unary("box", 3), 2)
        raise RuntimeError("inside")
    assert encoding.solver is None
    encoding.close()  # a second close does nothing
    assert encoding.solver is None
