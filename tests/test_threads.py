"""The engine under threads: each thread (or engine) has memories of its own, so many threads solving at
once give exactly the answers of the same solves one after another."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import numpy as np

from cspmines import Cache, Engine, Position, solve
from cspmines.engine.engine import default_engine

from randompositions import random_position

DATA = Path(__file__).parent / "data"
FAMILIES = ("beginner", "intermediate", "expert", "dense", "sparse")


def mixed_positions() -> list[Position]:
    """Reference mid-game positions and random small ones, with totals and densities."""
    rng = np.random.default_rng(11)
    positions = [Position.from_file(path) for path in sorted(DATA.glob("*.txt")) if path.name.startswith(FAMILIES)]
    while len(positions) < 120:
        position = random_position(rng, max_covered=12)
        positions.append(position if position.mines is not None else position.with_mines(None))
    return positions


def answer(position: Position):
    try:
        analysis = solve(position, density=None if position.mines is not None else 0.2)
    except ValueError as error:  # inconsistent random positions: the same error each time
        return str(error)
    return analysis.model_count, tuple(map(str, analysis.probabilities(exact=True).ravel()))


def test_eight_threads_of_mixed_solves_equal_the_same_solves_in_turn():
    positions = mixed_positions()
    expected = {index: answer(position) for index, position in enumerate(positions)}
    results: list[dict] = [{} for _ in range(8)]
    failures: list[BaseException] = []

    def work(slot: int) -> None:
        order = random.Random(slot).choices(range(len(positions)), k=500)
        try:
            for index in order:
                results[slot][index] = answer(positions[index])
        except BaseException as error:  # reported below, with the thread's answers
            failures.append(error)

    threads = [threading.Thread(target=work, args=(slot,)) for slot in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    for answers in results:
        assert len(answers) > 50
        assert all(answers[index] == expected[index] for index in answers)


def test_each_thread_and_each_engine_has_a_cache_of_its_own():
    seen = []
    thread = threading.Thread(target=lambda: seen.append(solve(Position.from_string("3x1x1\n.1.")).engine))
    thread.start()
    thread.join()
    assert seen[0] is not default_engine() and seen[0].cache is not default_engine().cache
    assert solve(Position.from_string("3x1x1\n.1.")).engine is default_engine()
    position = Position.from_file(DATA / "expert-5-013.txt")
    with Engine() as engine:  # unbounded: counts are kept (a budgeted count is not)
        before = len(default_engine().cache.counts)
        analysis = engine.solve(position)
        assert analysis.engine is engine
        assert len(engine.cache.counts) > 0 and len(default_engine().cache.counts) == before  # the engine's own, not the thread's
    assert len(engine.cache.counts) == 0  # forgotten at the end of the with block
    assert analysis.probabilities(exact=True).tolist() == solve(position).probabilities(exact=True).tolist()
    cache = Cache()
    Engine(cache=cache).solve(position)
    assert len(cache.counts) > 0


def test_the_total_counted_with_is_recorded():
    from cspmines.present.answers import analysis_json

    position = Position.from_string("4x2x1\n1...\n1...")
    analysis = solve(position, mines=2)
    assert analysis.mines == 2 and analysis_json(analysis)["mines"] == 2
    assert solve(position).mines == 1 and solve(position, density=0.5).mines is None
