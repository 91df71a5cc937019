"""Cache kept to its allowance: every large structure sized before it is built, a resident-memory
backstop, boards too large refused before any work, and the command line and the server answering
in one line or in JSON where they used to grow until killed."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from cspmines import BudgetExceededError, Limit, MemoryBudgetError, Position, TooLargeError, sample_layouts, solve
from cspmines.cli import main
from cspmines.engine.backends import get_backend
from cspmines.engine.backends.dynamic import DynamicProgrammingBackend, Sweep
from cspmines.engine.backends.sat import SatBackend
from cspmines.engine.budget import DEFAULT_MEMORY, Budget, check_board_size, parse_bytes, resident_bytes
from cspmines.engine.chains import chains_of
from cspmines.neighbours import neighbour_sum
from cspmines.position import COVERED
from cspmines.web import SERVER_MEMORY

DATA = Path(__file__).parent / "data"
MIB = 1 << 20


def lattice(side: int, mines: int) -> Position:
    """A 1 on every other cell of every other row: one chain over the whole board, far too wide to count."""
    rows = ["".join("1" if col % 2 == 0 else "." for col in range(side)) if row % 2 == 0 else "." * side
            for row in range(side)]
    return Position.from_string(f"{side}x{side}x{mines}\n" + "\n".join(rows))


def test_limit_reads_memory_sizes_and_refuses_nonsense():
    assert Limit().memory == DEFAULT_MEMORY
    assert Limit(memory="512M").memory == 512 * MIB
    assert Limit(memory=None).memory is None
    assert parse_bytes("1.5G") == 3 << 29
    for bad in ("lots", "-1", "", True, 1.5, "5X"):
        with pytest.raises(ValueError, match="memory"):
            Limit(memory=bad)
    with pytest.raises(ValueError, match="above 0"):
        Limit(memory=0)


def test_reserve_refuses_what_would_pass_the_allowance():
    budget = Limit(memory=10 * MIB).start()
    budget.reserve(10 * MIB, "exactly the allowance")  # at the allowance: fine
    with pytest.raises(MemoryBudgetError, match="the tallies would take 11 MiB"):
        budget.reserve(11 * MIB, "the tallies")
    Limit(memory=None).start().reserve(1 << 50, "anything")  # no allowance, nothing refused


def test_the_resident_backstop_stops_growth_no_estimate_saw():
    if resident_bytes() is None:
        pytest.skip("no /proc/self/statm on this system: the backstop is off here")
    budget = Limit(memory=40 * MIB).start()
    time.sleep(0.01)
    budget.spend()  # the first reading: the baseline
    held = []
    with pytest.raises(MemoryBudgetError, match="grew by"):
        for _ in range(400):  # up to 400 MiB, touched so that it is resident
            held.append(bytearray(MIB))
            held[-1][::4096] = b"x" * len(held[-1][::4096])
            time.sleep(0.0002)
            budget.spend()
    assert len(held) < 200  # stopped near the allowance, not at the end of the loop


def test_the_sat_backend_no_longer_makes_a_row_per_box_and_cell():
    # 10,680 boxes of a 10,800-cell chain: dense tally rows were 10,680 x 10,801 slots, about 0.9 GB, made
    # before the first model; sparse, the count holds a few megabytes until its budget stops it
    (component,) = chains_of(lattice(120, 1100))
    before = resident_bytes()
    with pytest.raises(BudgetExceededError, match="node limit"):
        SatBackend().count(component, budget=Limit(nodes=3, memory=None).start())
    if before is not None:
        assert resident_bytes() - before < 300 * MIB


@pytest.mark.parametrize("pure", [False, True], ids=["compiled", "python"])
def test_the_dp_passes_keep_to_their_allowance_and_count_the_same_below_it(pure):
    from cspmines import native

    if not pure and native.kernel("count_ordered") is None:
        pytest.skip("the compiled kernels were not built here")
    with native.pure_python() if pure else contextlib.nullcontext():
        _dp_passes_keep_to_their_allowance()


def _dp_passes_keep_to_their_allowance():
    position = Position.from_file(DATA / "lattice11-2.txt")
    counter = DynamicProgrammingBackend()
    for component in chains_of(position):
        free = counter.count(component)
        roomy = counter.count(component, budget=Limit(memory=DEFAULT_MEMORY).start())
        assert (roomy.models, roomy.tallies) == (free.models, free.tallies)
    widest = max(chains_of(position), key=lambda c: c.n_cells)
    with pytest.raises(MemoryBudgetError, match="memory allowance of 4 KiB"):
        counter.count(widest, budget=Limit(memory=4096).start())


@pytest.mark.parametrize("memory_limit", [None, DEFAULT_MEMORY], ids=["no allowance", "roomy allowance"])
def test_the_python_passes_spend_their_work_a_chunk_at_a_time_however_roomy_the_allowance(memory_limit, monkeypatch):
    # a time limit is checked where work is spent: a whole layer at once would read the clock once a layer
    from cspmines.engine.backends import dynamic

    spent = []
    monkeypatch.setattr(Budget, "spend", lambda self, nodes=1: spent.append(nodes))
    monkeypatch.setattr(dynamic, "_CHUNK", 16)  # chunks small beside this chain's layers
    planned = dynamic.plan_steps  # planned without the budget: what is spent is the pass's own
    monkeypatch.setattr(dynamic, "plan_steps", lambda chain, budget=None, orders=None: planned(chain, budget=None, orders=orders))
    widest = max(chains_of(Position.from_file(DATA / "lattice11-2.txt")), key=lambda c: c.n_cells)
    sweep = Sweep.forward(widest, Limit(time=1000, memory=memory_limit).start())
    assert max(len(layer) for _, layer in sweep.layers) > 5 * 16  # layers far wider than a chunk were met
    assert max(spent) <= 16


def test_the_python_passes_stop_by_their_own_estimates_before_the_allowance():
    # the estimates ("would take"), not the resident backstop ("grew by"), stop the planning and the states
    (component,) = chains_of(lattice(60, 400))
    before = resident_bytes()
    with pytest.raises(MemoryBudgetError, match="would take"):
        Sweep.forward(component, Limit(memory=20 * MIB).start())
    if before is not None:
        assert resident_bytes() - before < 120 * MIB


def test_a_solve_cut_by_memory_answers_not_exact_and_says_so():
    position = lattice(60, 400)
    analysis = solve(position, limit=Limit(memory="8M", time=20))
    assert not analysis.exact and analysis.model_count is None
    assert [report.stats["cut"] for report in analysis.chains] == ["memory"]
    assert set(analysis.inexact_cells) == set(position.covered_cells)  # every chance an estimate, and marked


def pairs(count: int, width: int = 250, height: int = 200) -> Position:
    """``count`` separate pairs of 1s: as many small chains, each counted at once, all combined under the total."""
    grid = [["."] * width for _ in range(height)]
    placed = 0
    for row in range(0, height, 4):
        for col in range(0, width - 1, 5):
            if placed < count:
                grid[row][col] = grid[row][col + 1] = "1"
                placed += 1
    return Position.from_string(f"{width}x{height}x{2 * count}\n" + "\n".join("".join(row) for row in grid))


def test_combining_thousands_of_chains_keeps_to_the_budget():
    # each chain counts at once; combining them grows as the cube of their number: 2,500 pairs took 2.9 GB
    position = pairs(2500)
    cut = solve(position, limit=Limit(time=5))
    assert not cut.exact and cut.model_count is None and len(cut.components) == 2500
    small = pairs(30, 60, 40)  # a few chains combine as always
    assert solve(small, limit=Limit(time=5)).exact


def test_the_draw_sizes_its_products_of_the_chains_counts_first():
    with pytest.raises(MemoryBudgetError, match="the draw's products"):
        sample_layouts(pairs(720), 1, seed=0, limit=Limit(memory="64M"))
    assert len(sample_layouts(pairs(30, 60, 40), 3, seed=0)) == 3


def scattered(side: int, density: float, shown: float, seed: int) -> Position:
    """A square board with mines at ``density`` and a share ``shown`` of its safe cells opened at random: many chains."""
    rng = np.random.default_rng(seed)
    mines = np.zeros(side * side, dtype=bool)
    mines[rng.choice(side * side, size=int(side * side * density), replace=False)] = True
    grid = np.full(side * side, COVERED, dtype=np.int8)
    opened = rng.choice(np.flatnonzero(~mines), size=int(side * side * shown), replace=False)
    grid[opened] = neighbour_sum(mines.reshape(side, side)).ravel()[opened]
    return Position(grid.reshape(side, side), mines=int(mines.sum()))


#: Boards of many chains whose products of counts hold tens of kilobytes to megabytes.
MANY_CHAINS = [("30 pairs", lambda: pairs(30, 60, 40)), ("60 pairs", lambda: pairs(60, 50, 60)), ("120 pairs", lambda: pairs(120, 60, 100)),
               ("sparse 30", lambda: scattered(30, 0.1, 0.15, 1)), ("30", lambda: scattered(30, 0.15, 0.15, 1)),
               ("40", lambda: scattered(40, 0.15, 0.15, 1)), ("dense 40", lambda: scattered(40, 0.2, 0.15, 1)),
               ("dense 40, more shown", lambda: scattered(40, 0.2, 0.3, 1))]


def held_bytes(lists) -> int:
    """What Python holds for lists of ints, as sys.getsizeof measures each list and each int."""
    return sum(sys.getsizeof(items) + sum(sys.getsizeof(item) for item in items) for items in lists)


def times(a: list, b: list) -> list:
    """The product of two polynomials, worked out here."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    return out


class Reserved:
    """A budget that only notes what it is asked to reserve."""

    def __init__(self):
        self.asked: list = []

    def reserve(self, nbytes: int, what: str) -> None:
        self.asked.append((what, nbytes))

    def left(self):
        return None


def test_the_combinings_estimate_is_within_a_stated_factor_of_what_its_products_hold(monkeypatch):
    # combining holds every chain's prefix and suffix product of counts; the estimate charges each coefficient
    # as many bits as the cells so far, a bound the counts stay well below: never less than what is held (the
    # allowance would be passed unseen), and not more than 5 times it (boards that fit would be refused)
    from cspmines.engine import combine, solver

    seen: dict = {}
    monkeypatch.setattr(solver, "afford_combining", lambda counts, chains, budget: seen.update(counts=counts, chains=chains))
    for name, board in MANY_CHAINS:
        solve(board())
        models = [list(count.models) for count in seen["counts"]]
        for poly in models:
            while poly and not poly[-1]:
                poly.pop()
        prefixes, suffixes = [[1]], [[1]]
        for poly in models:
            prefixes.append(times(prefixes[-1], poly))
        for poly in reversed(models):
            suffixes.append(times(suffixes[-1], poly))
        held = held_bytes(prefixes) + held_bytes(suffixes)
        budget = Reserved()
        combine.afford_combining(seen["counts"], seen["chains"], budget)
        ((_, estimate),) = budget.asked
        assert held > 16 * 1024, name
        assert held <= estimate <= 5 * held, (name, estimate / held)


def test_the_draws_estimate_is_within_a_stated_factor_of_what_its_products_hold(monkeypatch):
    # the draw keeps the suffix products of the chains' counts and the rest's binomials; the estimate charges
    # each coefficient as many bits as the cells so far (the rest's included, far above what its binomials need
    # where the rest is wide): never less than what is held, and not more than 8 times it
    from cspmines import Engine
    from cspmines.engine.sampling import _Draw
    from cspmines.engine.solver import read_question

    asked: list = []
    monkeypatch.setattr(Budget, "reserve", lambda self, nbytes, what: asked.append((what, nbytes)))
    for name, board in MANY_CHAINS:
        asked.clear()
        position = board()
        draw = _Draw(position, Engine(), read_question(position, limit=Limit(memory=1 << 40)), Limit(memory=1 << 40).start())
        estimate = [nbytes for what, nbytes in asked if what == "the draw's products of the chains' counts"][-1]
        held = held_bytes(draw.after)
        assert held > 16 * 1024, name
        assert held <= estimate <= 8 * held, (name, estimate / held)


def test_the_counting_programmes_layer_estimate_is_within_a_stated_factor_of_what_its_dicts_hold():
    # what a layer of states is charged (a fixed cost a state, its polynomial's bytes) against the dict itself, its
    # keys and its polynomials as sys.getsizeof measures them, on every layer of more than 50 states of the widest
    # chains of three boards: between 0.8 and 1.5 times it
    from cspmines import native
    from cspmines.engine.backends.dynamic import layer_bytes

    layers = 0
    for name in ("lattice11-2", "lattice9-2", "scatter25-2"):
        widest = max(chains_of(Position.from_file(DATA / f"{name}.txt")), key=lambda chain: chain.n_cells)
        with native.pure_python():
            sweep = Sweep.forward(widest, None)
        for layer in [layer for _, layer in sweep.layers] + [sweep.final]:
            if len(layer) <= 50:
                continue
            held = sys.getsizeof(layer) + sum(sys.getsizeof(key) + sys.getsizeof(poly) for key, poly in layer.items())
            assert 0.8 * held <= layer_bytes(layer) <= 1.5 * held, (name, layer_bytes(layer) / held)
            layers += 1
    assert layers > 20


def test_one_more_clues_layouts_never_read_as_none(monkeypatch):
    import cspmines.engine.reveal as reveal
    from cspmines import Engine

    analysis = Engine().solve(Position.from_string("3x1x1\n..."))

    class Uncounted:
        model_count = None

    monkeypatch.setattr(reveal, "solve_revealed", lambda *args, **kwargs: Uncounted())
    analysis.engine.forget()  # nothing kept: the fallback solve is asked
    with pytest.raises(MemoryBudgetError):
        reveal.layouts_revealed(analysis, 0, 1)


def test_serve_takes_none_for_no_allowance():
    from cspmines.cli.parser import build_parser
    from cspmines.web import SERVER_MEMORY

    assert build_parser().parse_args(["serve"]).memory == SERVER_MEMORY
    assert build_parser().parse_args(["serve", "--memory", "none"]).memory is None


def test_an_unforeseen_memory_error_on_the_command_line_is_one_line(monkeypatch, capsys):
    import cspmines.cli.commands.solve as solve_command

    def exhausted(args, out):
        raise MemoryError

    monkeypatch.setattr(solve_command, "run", exhausted)
    assert main(["solve", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cspmines: error: out of memory") and err.count("\n") == 1


def test_every_backend_counts_alike_with_an_allowance():
    position = Position.from_file(DATA / "lattice7-2.txt")
    answers = {name: solve(position, backend=name, limit=Limit(memory="64M")).probabilities(exact=True).tolist()
               for name in ("dp", "sat", "cpsat")}
    assert answers["dp"] == answers["sat"] == answers["cpsat"]


def test_boards_too_large_for_the_allowance_are_refused_before_any_work():
    check_board_size(1000, 1000, DEFAULT_MEMORY)  # a million cells fit the default
    with pytest.raises(TooLargeError, match=r"3000x3000 board \(9,000,000 cells\).*raise it with --memory"):
        check_board_size(3000, 3000, DEFAULT_MEMORY)
    check_board_size(3000, 3000, None)  # no allowance: nothing refused
    with pytest.raises(TooLargeError):
        solve(Position.from_string("400x400x10\n" + "\n".join("." * 400 for _ in range(400))), limit=Limit(memory="100M"))


def test_the_command_line_refuses_in_one_line(tmp_path, capsys):
    board = tmp_path / "big.txt"
    board.write_text("400x400x10\n" + "\n".join("." * 400 for _ in range(400)) + "\n")
    for argv in (["solve", str(board), "--memory", "100M"],
                 ["sample", str(board), "--count", "100000"],
                 ["bench", "--size", "100000x100000x10", "--games", "1", "--quiet"],
                 ["chains", "--size", "2000x2000x100", "--games", "1", "--quiet"],
                 ["solve", str(board), "--memory", "lots"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err.strip()
        assert err.count("\n") == 0 and err.startswith("cspmines"), (argv, err)
        assert "Traceback" not in err


def test_move_says_which_allowance_stopped_the_count(tmp_path, capsys):
    board = tmp_path / "lattice.txt"
    board.write_text(str(lattice(60, 400)))
    assert main(["move", str(board), "--time-limit", "none", "--memory", "8M"]) == 2
    err = capsys.readouterr().err
    assert "within --memory" in err and err.count("\n") == 1


def test_a_study_with_a_board_too_large_is_refused_before_its_folder_is_made(tmp_path, capsys):
    study = tmp_path / "huge.toml"
    study.write_text('games = 1\n[[suite]]\nname = "huge"\nsize = "5000x5000x10"\nagents = ["exact"]\n')
    assert main(["study", str(study), "--out", str(tmp_path / "out"), "--quiet"]) == 2
    assert "suite 'huge'" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def _capped(argv: list[str], cap: int, timeout: float) -> subprocess.CompletedProcess:
    """``python -m cspmines argv`` in a child whose address space is capped at ``cap`` bytes."""

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    return subprocess.run([sys.executable, "-m", "cspmines", *argv], capture_output=True, text=True, timeout=timeout,
                          preexec_fn=limit, env={**os.environ, "PYTHONUNBUFFERED": "1"})


@pytest.mark.parametrize("side", [200, 300])
def test_a_hostile_lattice_under_an_address_space_cap_answers_not_exact(side, tmp_path):
    # before: 200x200 ended in a MemoryError traceback under a 4 GB cap; 300x300 grew to 23.6 GB and was killed
    board = tmp_path / "lattice.txt"
    board.write_text(str(lattice(side, side * side // 12)))
    done = _capped(["solve", str(board), "--time-limit", "2", "--json"], cap=int(2.5 * (1 << 30)), timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    assert answer["exact"] is False and answer["model_count"] is None
    assert "Traceback" not in done.stderr


def test_the_server_answers_a_hostile_body_in_json_and_goes_on():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from cspmines.web import create_app

    client = TestClient(create_app(limit=Limit(time=2.0, memory=SERVER_MEMORY)), raise_server_exceptions=False)
    answer = client.post("/api/solve", content=str(lattice(300, 7500)))
    assert answer.status_code == 200 and answer.json()["exact"] is False
    small = client.post("/api/solve", content="3x1x1\n.1.")
    assert small.status_code == 200 and small.json()["exact"] is True


def test_the_server_refuses_a_board_past_a_requests_share_with_422():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from cspmines.web import create_app

    client = TestClient(create_app(limit=Limit(time=2.0, memory=100 * 1024)), raise_server_exceptions=False)
    answer = client.post("/api/solve", content="20x20x10\n" + "\n".join("." * 20 for _ in range(20)))
    assert answer.status_code == 422
    assert "memory allowance" in answer.json()["error"]


def test_the_server_answers_503_on_an_unforeseen_memory_error_and_goes_on(monkeypatch):
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    import cspmines.web.api as api
    from cspmines.web import create_app

    real = api.solve
    calls = []

    def failing_once(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise MemoryError
        return real(*args, **kwargs)

    monkeypatch.setattr(api, "solve", failing_once)
    client = TestClient(create_app(limit=Limit(time=2.0, memory=SERVER_MEMORY)), raise_server_exceptions=False)
    first = client.post("/api/solve", content="3x1x1\n.1.")
    assert first.status_code == 503 and "out of memory" in first.json()["error"]
    assert client.post("/api/solve", content="3x1x1\n.1.").json()["exact"] is True


def test_an_unforeseen_memory_error_while_counting_is_a_cut_not_a_crash(monkeypatch):
    dp = get_backend("dp")

    class Exhausted:
        name = "dp"

        def count(self, component, *, budget=None):
            if component.n_cells > 4:
                raise MemoryError
            return dp.count(component, budget=budget)

    position = Position.from_file(DATA / "lattice7-2.txt")
    analysis = solve(position, backend=Exhausted(), limit=Limit(time=5))
    assert not analysis.exact
    assert "memory" in [report.stats.get("cut") for report in analysis.chains]


def test_replay_honours_the_memory_allowance(capsys):
    game = Path(__file__).resolve().parent.parent / "cspmines" / "data" / "examples" / "beginner-game.evf"
    pytest.importorskip("ms_toollib")
    assert main(["replay", str(game), "--memory", "10K"]) == 2
    assert "memory allowance of 10 KiB" in capsys.readouterr().err
    assert main(["replay", str(game), "--memory", "64M", "--no-agent"]) == 0


def test_generate_and_certify_refuse_a_board_too_large_in_one_line(tmp_path, capsys):
    assert main(["generate", "--no-guess", "--size", "100000x100000x10"]) == 2  # it used to draw until killed
    assert "memory allowance" in capsys.readouterr().err
    assert main(["generate", "--size", "40x40x300", "--out", str(tmp_path)]) == 0
    (made,) = tmp_path.glob("board-*.json")
    assert main(["certify", str(made), "--memory", "100K"]) == 2
    err = capsys.readouterr().err
    assert "memory allowance of 100 KiB" in err and err.count("\n") == 1


def test_what_a_budget_leaves_is_its_limit_with_the_time_and_units_left():
    from cspmines.engine.budget import SLIVER, Limit

    budget = Limit(time=5, nodes=10, max_chain=3, memory="1G").start()
    budget.spend(4)
    rest = budget.rest()
    assert (rest.nodes, rest.max_chain, rest.memory) == (6, 3, 1 << 30)
    assert 4 < rest.time <= 5 and isinstance(rest, Limit)
    assert budget.rest(memory=None).memory is None and budget.rest(memory=None).nodes == 6
    spent = Limit(time=0.001, memory=None).start()
    while not spent.expired():
        pass
    assert spent.rest().time == SLIVER and spent.rest().nodes is None and spent.rest().memory is None
