"""Dead cells, 50/50s and endgame winning chances against brute force over every layout.

Each reading is checked on 300 random small positions against its definition applied literally to the
listed layouts (tests/bruteforce.py's enumeration): the game played out layout by layout (a cascade
opened cell by cell), every subset of cells tried as a 50/50, and the game tree searched by plain
minimax over sets of layouts with fractions. None of it shares code with the engine beyond reading the
position.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction
from functools import cache, partial

import numpy as np
import pytest

from cspmines import BudgetExceededError, InconsistentPositionError, Limit, MissingTotalError, Position, clue_spread, solve
from cspmines.engine.insight import (
    FiftyFiftyKind,
    dead_cells,
    endgame_chances,
    fifty_fifties,
    insight_of,
)
from cspmines.position import COVERED, FLAG, MINE

from bruteforce import mine_layouts
from randompositions import random_position

POSITIONS = 300


class Board:
    """A position read for brute force: its cells' neighbours and known mines, and clues shown per layout."""

    def __init__(self, position: Position):
        self.position = position
        self.grid = position.grid.ravel().tolist()
        width, height = position.width, position.height
        self.around = []
        for cell in range(position.size):
            row, col = divmod(cell, width)
            self.around.append([r * width + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                                if (r, c) != (row, col) and 0 <= r < height and 0 <= c < width])
        self.covered = [cell for cell, code in enumerate(self.grid) if code == COVERED]
        self.known = {cell for cell, code in enumerate(self.grid) if code in (FLAG, MINE)}

    def clue(self, cell: int, layout: frozenset) -> int:
        return sum(1 for n in self.around[cell] if n in layout or n in self.known)

    def opening(self, cell: int, layout: frozenset) -> frozenset:
        """Every (cell, clue) the game shows when ``cell`` (safe in ``layout``) is opened, its cascade included."""
        shown: dict = {}
        stack = [cell]
        while stack:
            x = stack.pop()
            if x in shown:
                continue
            shown[x] = self.clue(x, layout)
            if shown[x] == 0:
                stack += [n for n in self.around[x] if self.grid[n] == COVERED and n not in shown]
        return frozenset(shown.items())


def brute_dead(board: Board, layouts: list) -> tuple:
    """Covered cells safe in some layout whose opening shows the same everywhere it is safe."""
    dead = []
    for cell in board.covered:
        shown = {board.opening(cell, layout) for layout in layouts if cell not in layout}
        if len(shown) == 1:
            dead.append(cell)
    return tuple(dead)


def brute_fifty_fifties(board: Board, layouts: list) -> set:
    """{(halves, kind, tellers)}: every set of covered cells tried against the definition, literally."""
    every = set(layouts)
    undecided = [c for c in board.covered if any(c in layout for layout in layouts) and any(c not in layout for layout in layouts)]
    found = set()
    for size in range(2, len(undecided) + 1, 2):
        for cells in itertools.combinations(undecided, size):
            s = frozenset(cells)
            patterns = {layout & s for layout in layouts}
            if len(patterns) != 2:
                continue
            first, second = sorted(patterns, key=lambda half: min(half, default=len(board.grid)))
            if not first or not second or first | second != s or len(first) != len(second):
                continue
            if any(layout ^ s not in every for layout in layouts):
                continue  # swapping the halves must give a layout
            tellers = tuple(sorted(x for x in board.covered if x not in s and any(
                x not in layout and board.clue(x, layout) != board.clue(x, layout ^ s) for layout in layouts)))
            if not tellers:
                kind = FiftyFiftyKind.UNAVOIDABLE
            elif all(any(x in layout for layout in layouts) for x in tellers):
                kind = FiftyFiftyKind.PSEUDO
            else:
                continue
            found.add(((tuple(sorted(first)), tuple(sorted(second))), kind, tellers))
    return found


def brute_endgame(board: Board, layouts: list) -> tuple[Fraction, dict]:
    """(the position's winning chance with best play, covered cell -> the chance after opening it first)."""

    def split(cell: int, state: frozenset) -> list:
        """The layouts of ``state`` where ``cell`` is safe, by the clue it shows there."""
        groups = defaultdict(list)
        for i in state:
            if cell not in layouts[i]:
                groups[board.clue(cell, layouts[i])].append(i)
        return [frozenset(group) for group in groups.values()]

    def outcome(groups: list, state: frozenset) -> Fraction:
        return sum((Fraction(len(group), len(state)) * win(group) for group in groups), Fraction(0))

    @cache
    def win(state: frozenset) -> Fraction:
        if len(state) == 1:
            return Fraction(1)
        best = Fraction(0)
        for cell in board.covered:
            groups = split(cell, state)
            if groups != [state]:  # a move that changes nothing is no move
                best = max(best, outcome(groups, state))
        return best

    everything = frozenset(range(len(layouts)))
    return win(everything), {cell: outcome(split(cell, everything), everything) for cell in board.covered}


def counted_positions(seed: int, *, most_layouts: int | None = None, least_layouts: int = 1, max_covered: int = 12, accept=None):
    """(board, layouts, analysis) for POSITIONS consistent random positions with a total (and the layout counts
    asked, and whose analysis ``accept`` takes when given)."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < POSITIONS:
        position = random_position(rng, max_covered=max_covered)
        if position.mines is None:
            continue
        try:
            analysis = solve(position)
        except InconsistentPositionError:
            continue
        if analysis.model_count < least_layouts or (most_layouts is not None and analysis.model_count > most_layouts):
            continue
        if accept is not None and not accept(analysis):
            continue
        found += 1
        yield Board(position), mine_layouts(position), analysis


def test_dead_cells_are_those_whose_opening_shows_the_same_wherever_they_are_safe():
    total, cascades = 0, 0
    for board, layouts, analysis in counted_positions(1, least_layouts=2):
        expected = brute_dead(board, layouts)
        assert dead_cells(analysis) == expected, board.position
        total += len(expected)
        safe_in = {cell: next(layout for layout in layouts if cell not in layout) for cell in expected}
        cascades += sum(1 for cell in expected if len(board.opening(cell, safe_in[cell])) > 1)
    assert total > 100 and cascades > 0  # the sample holds many dead cells, some opening a cascade


def test_a_zero_whose_cascade_can_tell_is_not_dead():
    # (0,3) is proved safe and shows 0 (the 0 below it leaves it no mine), but its cascade opens (0,2), whose clue varies
    position = Position.from_string("4x2x2\n....\n.2.0")
    analysis = solve(position)
    board, layouts, corner = Board(position), mine_layouts(position), position.cell(0, 3)
    assert [clue for clue, count in enumerate(clue_spread(analysis, corner).clues) if count] == [0]
    assert len({board.opening(corner, layout) for layout in layouts}) > 1
    assert corner not in dead_cells(analysis) and dead_cells(analysis) == brute_dead(board, layouts)


def test_fifty_fifties_are_the_sets_no_other_cell_can_tell_apart():
    kinds: dict = defaultdict(int)
    halves = lambda analysis: len(analysis.cells_where(lambda p: p == Fraction(1, 2))) >= 2  # noqa: E731  (where one may be)
    for board, layouts, analysis in counted_positions(2, max_covered=14, accept=halves):
        expected = brute_fifty_fifties(board, layouts)
        found = {(fifty.halves, fifty.kind, fifty.tellers) for fifty in fifty_fifties(analysis)}
        assert found == expected, board.position
        for halves_found, kind, _tellers in expected:
            kinds[kind] += 1
            kinds["wider"] += len(halves_found[0]) > 1
        for fifty in fifty_fifties(analysis):  # each cell of one is a mine with chance exactly 1/2
            assert all(analysis.probability(cell) == Fraction(1, 2) for cell in fifty.cells)
    assert kinds[FiftyFiftyKind.UNAVOIDABLE] >= 10 and kinds[FiftyFiftyKind.PSEUDO] >= 10 and kinds["wider"] >= 1, dict(kinds)


def test_a_fifty_fifty_of_two_cells_a_half_far_apart():
    # (0,0) and (2,2) are mines together, or (0,2) and (2,0): every clue sees as many of each pair
    position = Position.from_string("5x3x7\n....2\n3.54.\n.2.*.")
    (fifty,) = fifty_fifties(solve(position))
    assert [[position.row_col(cell) for cell in half] for half in fifty.halves] == [[(0, 0), (2, 2)], [(0, 2), (2, 0)]]
    assert fifty.kind == FiftyFiftyKind.UNAVOIDABLE and fifty.tellers == ()


def test_endgame_chances_are_the_minimax_of_the_game_tree():
    for board, layouts, analysis in counted_positions(3, least_layouts=2, most_layouts=60):
        chance, by_cell = brute_endgame(board, layouts)
        endgame = endgame_chances(analysis)
        assert endgame.layouts == len(layouts) and endgame.exact
        assert endgame.probability == chance, board.position
        assert {cell: endgame.value(cell).probability for cell in board.covered} == by_cell, board.position
        assert set(endgame.best_cells) == {cell for cell, value in by_cell.items() if value == chance}


def test_the_endgame_is_searched_past_a_thousand_layouts_within_its_budget():
    four = solve(Position.from_string("4x4x4\n" + "\n".join(["...."] * 4)))   # 1,820 layouts: searched whole
    assert endgame_chances(four).probability == Fraction(961, 1820)
    analysis = solve(Position.from_string("6x6x6\n" + "\n".join(["......"] * 6)))   # 1,947,792 layouts
    seen = insight_of(analysis, limit=Limit(time=1))
    assert seen.endgame is None
    assert seen.missing["endgame"] == "not searched: 1,947,792 layouts, more than the time can list and search"
    few = solve(Position.from_string("3x2x1\n1..\n1.."))
    assert endgame_chances(few).probability == Fraction(1, 2)


def test_a_position_of_one_layout_is_won_whatever_is_left_covered():
    # every covered cell a mine, some safe, none covered at all: one layout is everything known, won
    for text, wins in [("2x1x1\n1.", {1: 0}), ("3x1x1\n1..", {1: 0, 2: 1}), ("3x1x0\n...", {0: 1, 1: 1, 2: 1}),
                       ("2x1x0\n00", {}), ("4x1x2\nF1..", {2: 1, 3: 0})]:
        position = Position.from_string(text)
        endgame = endgame_chances(solve(position))
        assert (endgame.layouts, {cell: value.low for cell, value in endgame.cells.items()}, endgame.probability) == (1, wins, 1), text
        assert endgame.best_cells == tuple(sorted(cell for cell, won in wins.items() if won)), text
    one = 0
    for board, layouts, analysis in counted_positions(4, most_layouts=1):
        chance, by_cell = brute_endgame(board, layouts)
        endgame = endgame_chances(analysis)
        assert endgame.probability == chance == 1, board.position
        assert {cell: endgame.value(cell).probability for cell in board.covered} == by_cell, board.position
        one += any(value == 0 for value in by_cell.values())
    assert one > 50  # many of them with a covered mine, whose opening loses


def test_the_endgame_search_works_out_exactly_the_states_it_is_allowed():
    analysis = solve(Position.from_string("5x3x3\n1....\n2....\n....."))
    needed = endgame_chances(analysis).states
    assert needed > 10
    assert endgame_chances(analysis, limit=Limit(nodes=needed)).probability == Fraction(31, 36)
    cut = endgame_chances(analysis, limit=Limit(nodes=needed - 1))   # a state short: some value is left as bounds
    assert cut.stopped_by == "nodes" and not (cut.exact and all(value.exact for value in cut.cells.values()))
    assert cut.bounds[0] <= Fraction(31, 36) <= cut.bounds[1]


class FrozenClock:
    """A clock that moves only when told (or by ``step`` at every read): each part of the insight is given
    what is left of the time, read off it."""

    def __init__(self, step: float = 0.0):
        self.now, self.step = 1000.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def timed_part(clock: FrozenClock, given: dict, part: str, seconds: float, answer):
    """A stand-in for one of the insight's parts: it notes the time it was given in ``given``, moves
    ``clock`` on by ``seconds`` and answers ``answer``."""
    def run(analysis, *, limit=None, **_):
        given[part] = limit.time
        clock.now += seconds
        return answer
    return run


def test_the_insight_gives_each_part_what_is_left_of_its_time(monkeypatch):
    from cspmines.engine import budget, insight

    clock = FrozenClock()
    monkeypatch.setattr(budget, "_clock", clock)
    given: dict = {}

    taking = partial(timed_part, clock, given)

    monkeypatch.setattr(insight, "dead_cells", taking("dead", 4.0, ()))
    monkeypatch.setattr(insight, "fifty_fifties", taking("fifty_fifties", 2.5, ()))
    monkeypatch.setattr(insight, "endgame_chances", taking("endgame", 0.0, None))
    analysis = solve(Position.from_string("3x2x1\n1..\n1.."))
    insight_of(analysis, limit=Limit(time=10))
    assert given == {"dead": 10.0, "fifty_fifties": 6.0, "endgame": 3.5}

    given.clear()  # the first part takes the whole time: the others are not started, and say so
    monkeypatch.setattr(insight, "dead_cells", taking("dead", 10.0, ()))
    seen = insight_of(analysis, limit=Limit(time=10))
    assert given == {"dead": 10.0}
    assert seen.missing == {"fifty_fifties": "the time limit ran out", "endgame": "the time limit ran out"}


def test_the_parts_asked_alone_are_worked_out_and_the_endgame_takes_its_share_of_the_time(monkeypatch):
    """Only the parts asked are started (the others say "not asked"), and the endgame's search is given its share
    of the time left when its turn comes, not all of it."""
    from cspmines.engine import budget, insight

    clock = FrozenClock()
    monkeypatch.setattr(budget, "_clock", clock)
    given: dict = {}

    taking = partial(timed_part, clock, given)

    monkeypatch.setattr(insight, "dead_cells", taking("dead", 2.0, ()))
    monkeypatch.setattr(insight, "fifty_fifties", taking("fifty_fifties", 2.0, ()))
    monkeypatch.setattr(insight, "endgame_chances", taking("endgame", 0.0, None))
    analysis = solve(Position.from_string("3x2x1\n1..\n1.."))
    seen = insight_of(analysis, limit=Limit(time=10), parts=("endgame", "dead"), endgame_share=0.25)
    assert given == {"dead": 10.0, "endgame": 2.0}  # a quarter of the 8 s the dead cells left
    assert seen.missing == {"fifty_fifties": "not asked"} and seen.fifty_fifties is None and seen.dead == ()
    with pytest.raises(ValueError, match="the insight's parts are dead, fifty_fifties and endgame, got 'values'"):
        insight_of(analysis, parts=["values"])
    with pytest.raises(ValueError, match="endgame_share must be above 0 and at most 1"):
        insight_of(analysis, endgame_share=0)


def test_a_part_whose_time_is_spent_says_so_before_any_work(monkeypatch):
    from cspmines.engine import budget

    monkeypatch.setattr(budget, "_clock", FrozenClock(step=1.0))  # a second at every read: any deadline passes at once
    analysis = solve(Position.from_string("2x2x1\n11\n.."))
    with pytest.raises(BudgetExceededError, match="ran out while looking for 50/50s"):
        fifty_fifties(analysis, limit=Limit(time=0.5))
    with pytest.raises(BudgetExceededError, match="the time limit ran out"):
        dead_cells(analysis, limit=Limit(time=0.5))
    monkeypatch.setattr(budget, "_clock", FrozenClock())
    assert fifty_fifties(analysis, limit=Limit(time=1))[0].kind == FiftyFiftyKind.UNAVOIDABLE


def test_a_search_past_its_budget_gives_bounds_and_a_board_past_its_memory_is_not_searched():
    analysis = solve(Position.from_string("5x4x3\n1....\n2....\n.....\n....."))
    seen = insight_of(analysis, limit=Limit(nodes=1))   # the units bound the search alone: bounds, marked not exact
    assert not seen.endgame.exact and seen.endgame.stopped_by == "nodes" and "endgame" not in seen.missing
    assert seen.dead is not None and seen.fifty_fifties is not None
    seen = insight_of(analysis, limit=Limit(memory=1000))  # too little for the board: its solves are refused
    assert seen.fifty_fifties is None and "over the memory allowance" in seen.missing["fifty_fifties"]
    assert seen.endgame is None and "more than the memory allowance can list" in seen.missing["endgame"]


def test_insight_needs_a_total_and_an_exact_count():
    with_density = solve(Position.from_string("3x1\n.1."), density=0.5)
    with pytest.raises(MissingTotalError):
        dead_cells(with_density)
    seen = insight_of(with_density)
    assert (seen.dead, seen.fifty_fifties, seen.endgame) == (None, None, None) and set(seen.missing) == {"dead", "fifty_fifties", "endgame"}
