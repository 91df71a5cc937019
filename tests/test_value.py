"""The value of a position under best play (cspmines.engine.value) against a plain expectimax of the game
as it is played (tests/bruteforce.py: every layout, every move, the zeros' flood, no bound), the published
small-board results, and its budget: bounds that always hold the value, NOT EXACT past the budget."""

from __future__ import annotations

import contextlib
from fractions import Fraction

import numpy as np
import pytest

from cspmines import Limit, Position, native
from cspmines.actions import Action
from cspmines.engine.layouts import MINE, layout_table
from cspmines.engine.value import CellValue, best_play_moves, board_symmetries, value_of
from cspmines.errors import InconsistentPositionError, MissingTotalError
from cspmines.games import Board, Game

from bruteforce import best_play_wins
from randompositions import positions_with_total


def empty(width: int, height: int, mines: int) -> Position:
    return Position.from_string(f"{width}x{height}x{mines}\n" + "\n".join("." * width for _ in range(height)))


def after_first_clicks(count: int, seed: int, *, most_covered: int = 12):
    """Small boards (2 to 5 wide, 1 to 4 high) with a random total, after a random first click (its zeros
    flooded as the game does) and sometimes a second safe click, still being played."""
    rng = np.random.default_rng(seed)
    found = 0
    while found < count:
        width, height = int(rng.integers(2, 6)), int(rng.integers(1, 5))
        size = width * height
        if size < 3:
            continue
        mines = rng.choice(size, int(rng.integers(1, size)), replace=False).tolist()
        board = Board.from_layout(width, height, mines)
        game = Game(board)
        for _ in range(int(rng.integers(1, 3))):
            safe = [c for c in range(size) if not board.is_mine(c) and game.position.code(c) < -0]
            if game.status != "playing" or not safe:
                break
            game.apply(Action.open(int(rng.choice(safe))))
        if game.status == "playing" and len(game.position.covered_cells) <= most_covered:
            found += 1
            yield game.position


def agrees_with_brute_force(position: Position) -> None:
    wins, cells, layouts = best_play_wins(position)
    found = value_of(position, cells="all")
    assert (found.wins, found.wins_high, found.layouts, found.exact) == (wins, wins, layouts, True), position
    assert {cell: found.value(cell) for cell in cells} == {cell: CellValue(w, w, layouts) for cell, w in cells.items()}, position
    assert found.best_cells == tuple(cell for cell, w in sorted(cells.items()) if w == wins), position
    assert found.probability == Fraction(wins, layouts)


def test_every_cell_of_500_small_games_after_a_first_click_is_valued_as_plain_expectimax_values_it():
    positions = list(after_first_clicks(500, seed=1))
    assert max(len(p.covered_cells) for p in positions) >= 11 and len({p.mines for p in positions}) > 8
    for position in positions:
        agrees_with_brute_force(position)


def test_random_positions_with_flags_opened_mines_and_withheld_clues_are_valued_as_plain_expectimax_values_them():
    def small(position):
        try:
            return True if len(position.covered_cells) <= 9 and layout_table(position).count >= 1 else None
        except InconsistentPositionError:
            return None

    positions = [position for position, _ in positions_with_total(150, 3, max_covered=9, accept=small)]
    assert any("F" in str(p) for p in positions) and any("?" in str(p) for p in positions) and any("*" in str(p) for p in positions)
    for position in positions:
        agrees_with_brute_force(position)


def test_the_published_small_board_results():
    # Optimal play, every layout equally likely (the "optimal minesweeper on the largest board" challenge)
    four = value_of(empty(4, 4, 4))
    assert (four.wins, four.layouts) == (961, 1820)
    assert [four.position.row_col(c) for c in four.best_cells] == [(0, 1), (0, 2), (1, 0), (1, 3), (2, 0), (2, 3), (3, 1), (3, 2)]
    clued = value_of(Position.from_string("5x4x5\n.....\n.1...\n.3...\n....."))
    assert (clued.wins, clued.layouts, clued.best_cells) == (285, 360, (2,))


def test_a_board_of_two_closed_off_pockets_is_the_product_of_their_values():
    # two 50/50s walled off by flags, each one mine, every cell dead: a quarter of the layouts
    position = Position.from_string("5x2x4\n..F..\n13F31")
    found = value_of(position, cells="all")
    assert (found.wins, found.layouts) == (best_play_wins(position)[0], 4) == (1, 4)


def test_a_position_with_one_layout_is_won_and_its_mines_are_worth_nothing():
    found = value_of(Position.from_string("3x1x1\n.1*"), cells="all")
    assert (found.wins, found.layouts, found.exact) == (1, 1, True)
    assert found.value(0) == CellValue(1, 1, 1)
    mined = value_of(Position.from_string("2x1x1\n.1"), cells="all")   # the 1's mine is the covered cell
    assert mined.value(0) == CellValue(0, 0, 1) and mined.best_cells == ()


def test_positions_without_a_total_or_without_a_layout_are_refused():
    with pytest.raises(MissingTotalError):
        value_of(Position.from_string("3x1\n.1."))
    with pytest.raises(InconsistentPositionError):
        value_of(Position.from_string("3x1x2\n.0."))


def test_a_search_cut_short_keeps_bounds_that_hold_the_value_and_says_so():
    cases = [p for p in after_first_clicks(60, seed=4) if layout_table(p).count > 20][:20] + [empty(4, 4, 3)]
    assert len(cases) >= 10
    stopped = set()
    for position in cases:
        exact = value_of(position, cells="all")
        for nodes in (1, 3, 20, 200):
            rough = value_of(position, limit=Limit(nodes=nodes), cells="all")
            assert rough.wins <= exact.wins <= rough.wins_high
            assert rough.exact == (rough.wins == rough.wins_high)
            stopped.add(rough.stopped_by)
            for cell, value in exact.cells.items():
                assert rough.value(cell).low <= value.low <= rough.value(cell).high
            if not rough.exact:
                assert rough.probability is None and len(rough.best_cells) <= 1
                assert rough.bounds[0] <= exact.probability <= rough.bounds[1]
    assert stopped == {"nodes", None}


def test_the_lower_bound_of_a_search_cut_at_once_is_the_game_played_safest_first():
    position = empty(5, 5, 3)
    rough = value_of(position, limit=Limit(nodes=2_000))
    assert not rough.exact and 0 < rough.wins < value_of(position).wins <= rough.wins_high < rough.layouts
    assert len(rough.best_cells) == 1


def test_a_time_limit_stops_the_search_with_bounds():
    found = value_of(empty(5, 5, 5), limit=Limit(time=1.0))
    assert (found.exact, found.stopped_by) == (False, "time")
    assert 0 < found.wins < found.wins_high <= found.layouts == 53130


def test_a_time_limit_too_short_to_list_the_layouts_lists_none_and_says_so():
    found = value_of(empty(5, 5, 5), limit=Limit(time=0.05))
    assert (found.exact, found.stopped_by, found.layouts) == (False, "time", 0)
    assert value_of(empty(3, 3, 2), limit=Limit(time=0.05)).exact


def test_a_memory_allowance_too_small_for_the_layouts_lists_none_and_says_so():
    found = value_of(empty(5, 5, 5), limit=Limit(memory="1M"))
    assert (found.exact, found.stopped_by, found.layouts, found.wins, found.wins_high) == (False, "layouts", 0, 0, 0)
    assert found.bounds == (0, 1)
    roomy = value_of(empty(3, 3, 2), limit=Limit(memory="1M"))
    assert roomy.exact


def test_best_play_moves_names_the_cells_or_none_within_the_budget():
    assert best_play_moves(Position.from_string("7x1x2\n.1...1.")) == (3,)
    assert best_play_moves(empty(4, 4, 4), limit=Limit(nodes=5)) is None


def test_the_board_symmetries_are_those_that_map_the_position_to_itself():
    assert len(board_symmetries(empty(4, 4, 4))) == 7
    assert len(board_symmetries(empty(4, 3, 2))) == 3
    kept = [image.tolist() for image in board_symmetries(Position.from_string("3x3x1\n1..\n...\n..."))]
    assert kept == [image.tolist() for image in board_symmetries(empty(3, 3, 1)) if image[0] == 0]  # the corner's clue: the diagonal only
    assert len(kept) == 1
    table = layout_table(empty(3, 3, 2))
    assert (table.codes == MINE).sum(axis=1).tolist() == [2] * 36


@pytest.mark.parametrize("mines, mine_at", [(750, 1), (751, 0)])
def test_a_chain_of_more_boxes_than_pythons_recursion_limit_is_listed(mines, mine_at):
    """1,501 covered cells with a 1 between each two: a chain of 1,501 boxes whose two layouts alternate; the
    total keeps the one with its mines at the odd cells (750) or at the even ones (751)."""
    row = "".join("." if i % 2 == 0 else "1" for i in range(3001))
    position = Position.from_string(f"3001x1x{mines}\n{row}")
    table = layout_table(position)
    assert table.count == 1
    assert [cell % 4 for cell, code in zip(table.cells, table.codes[0], strict=True) if code == MINE] == [2 * mine_at] * mines
    assert value_of(position).wins == 1


def test_a_chain_too_long_to_list_is_not_exact_within_its_budget():
    """The same chain with a covered row under it: far more layouts than a second lists, refused as such."""
    top = "".join("." if i % 2 == 0 else "1" for i in range(2401))
    found = value_of(Position.from_string(f"2401x2x900\n{top}\n{'.' * 2401}"), limit=Limit(time=1))
    assert not found.exact and found.stopped_by == "time"


def test_the_listing_stops_once_its_budget_has_run_out():
    """A long chain lists its layouts in many small blocks: the clock is read between them."""
    top = "".join("." if i % 2 == 0 else "1" for i in range(15))
    position = Position.from_string(f"15x2x6\n{top}\n{'.' * 15}")
    assert layout_table(position, budget=Limit(nodes=1).start()).count == layout_table(position).count
    spent = Limit(time=0.001).start()
    while not spent.expired():
        pass
    assert layout_table(position, budget=spent) is None


@pytest.mark.parametrize("text", ["5x4x8\n.....\n.....\n.....\n.....", "6x4x9\n1.....\n......\n......\n......"],
                         ids=["the rest alone", "a chain and the rest"])
def test_layouts_listed_block_by_block_are_every_layout_once(text):
    """More layouts than a block of rows (listed a block at a time): every layout once, each with the total."""
    from cspmines.engine import layouts

    position = Position.from_string(text)
    table = layout_table(position)
    assert table.count > layouts._ROWS_BLOCK
    mines = table.codes == MINE
    assert (mines.sum(axis=1) == position.mines).all()
    assert len(np.unique(np.packbits(mines, axis=1), axis=0)) == table.count


def test_the_clues_of_many_layouts_are_worked_out_block_by_block_as_at_once():
    """More layouts than one block of the clues' product: each row's codes are its own cells' clues."""
    from cspmines.engine import layouts

    position = Position.from_string("5x4x8\n.....\n.....\n.....\n.....")
    table = layout_table(position)
    assert table.count == 125970 > 2 * layouts._CODES_BLOCK
    for row in table.codes[[0, layouts._CODES_BLOCK - 1, layouts._CODES_BLOCK, layouts._CODES_BLOCK + 1, -1]]:
        mines = {cell for cell, code in zip(table.cells, row, strict=True) if code == MINE}
        expected = [MINE if cell in mines else sum(n in mines for n in position.neighbours(cell)) for cell in table.cells]
        assert row.tolist() == expected


def test_the_memory_allowance_counts_the_boards_symmetries():
    from cspmines.engine.value import listing_cap

    plain, _ = listing_cap(Limit(memory="1G"), 25)
    square, _ = listing_cap(Limit(memory="1G"), 25, symmetries=7)
    assert square == (1 << 29) // (25 + 80 + 12 * 7 + 8) < plain == (1 << 29) // (25 + 80)
    empty = Position.from_string("5x5x15\n" + "\n".join(["....."] * 5))   # 3,268,760 layouts, 7 symmetries
    assert square < 3268760 < plain
    found = value_of(empty, limit=Limit(memory="1G"))
    assert (found.exact, found.stopped_by, found.layouts) == (False, "layouts", 0)


@pytest.mark.skipif(native.kernels is None, reason="built without a C compiler: the twin keeps no working space")
def test_the_compiled_searchs_working_space_holds_its_sort_space_too():
    """The working space the compiled search may take holds the sort space of its splits beside its arenas (the
    layouts of every state on the path, 4 bytes each): with less than that it stops for memory with proven bounds,
    and with enough of it it finishes. On an empty 4x4 board with 4 mines the arenas alone need about 13 bytes a
    layout; with the sort space the least that finishes is past 20."""
    from cspmines.engine.value import run_search, search_input

    table = layout_table(empty(4, 4, 4))
    given = search_input(table)
    exact = run_search(given)
    assert exact["stopped"] is None and exact["low"] == exact["high"] == 961

    def finishes(work_bytes: int) -> bool:
        answer = run_search(given, work_bytes=work_bytes)
        assert answer["low"] <= 961 <= answer["high"]
        assert (answer["stopped"] is None) == (answer["low"] == answer["high"]) or answer["stopped"] == "memory"
        return answer["stopped"] is None

    assert not finishes(20 * table.count)
    assert finishes(64 * table.count)


@pytest.mark.skipif(native.kernels is None, reason="built without a C compiler: the twin keeps no working space")
def test_a_working_space_too_small_for_the_roots_layouts_answers_bounds_not_an_error():
    """An allowance that lists the layouts but leaves the compiled search no room for the root's own (its first
    arena) answers a search not begun, stopped for memory, with the widest bounds: never a MemoryError."""
    position = Position.from_string("7x1x2\n.1...1.")
    tight = value_of(position, limit=Limit(memory=17_000))
    assert (tight.exact, tight.stopped_by, tight.layouts, tight.wins, tight.wins_high, tight.states) == (False, "memory", 4, 0, 4, 0)
    assert tight.cells[3] == CellValue(0, 4, 4) and tight.cells[0] == CellValue(0, 2, 4)  # a cell: at most its safe layouts
    roomy = value_of(position, limit=Limit(memory=20_000))
    assert roomy.exact and roomy.wins == 3 and roomy.best_cells == (3,)


def test_the_working_space_is_what_the_allowance_leaves_beside_the_table_and_the_listing():
    """The compiled search's working space is the allowance's share left by the transposition table, less what
    the listing holds for the whole search (each layout's codes, fingerprint words and symmetry images): the
    three together stay within the allowance."""
    from cspmines.engine.value import _TABLE_SHARE, _layout_symmetry_bytes, _working_space

    memory, count, width = 1 << 27, 100_000, 40
    for symmetries in (0, 3, 7):
        held = count * (width + 16 + _layout_symmetry_bytes(symmetries))
        assert _working_space(memory, count, width, symmetries) == int(memory * (1 - _TABLE_SHARE)) - held > 0
    assert _working_space(memory, 10**7, width, 0) == 0  # more than the listing could hold: no room at all
    assert _working_space(None, count, width, 0) is None


def test_the_search_is_given_the_working_space_its_allowance_leaves(monkeypatch):
    """``value_of`` hands the search the working space above for its own listing: 1,820 layouts of 16 cells, 7
    symmetries, within 4 MiB."""
    from cspmines.engine import value
    from cspmines.engine.value import _working_space

    given = []
    real = value.run_search
    monkeypatch.setattr(value, "run_search", lambda search, *, work_bytes=None: given.append(work_bytes) or real(search, work_bytes=work_bytes))
    found = value_of(empty(4, 4, 4), limit=Limit(memory="4M"))
    assert found.exact and given == [_working_space(4 << 20, 1820, 16, 7)]


def test_a_chain_lists_exactly_as_many_layouts_as_it_may():
    """Every covered cell in one chain (no rest): its two layouts list under a cap of two, not of one."""
    position = Position.from_string("7x1x2\n.1.1.1.")
    assert layout_table(position).count == 2
    assert layout_table(position, most=2).count == 2
    assert layout_table(position, most=1) is None


@pytest.mark.parametrize("compiled", [True, False])
def test_the_search_reads_the_clock_as_soon_as_its_states_hold_many_layouts(compiled):
    """A budget already spent stops the search at its first state: the clock is read every so many layouts,
    not only every 256 states (a state of a million layouts takes a good part of a second)."""
    from cspmines import native
    from cspmines.engine.value import run_search, search_input

    given = search_input(layout_table(empty(4, 4, 4)), seconds=1e-9)
    with contextlib.nullcontext() if compiled else native.pure_python():  # the kernel where it is built, and its twin
        answer = run_search(given)
    assert (answer["stopped"], answer["states"]) == ("time", 1)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("cells", ["all", "best"])
def test_a_search_out_of_time_bounds_the_cells_left_without_searching_them(cells, compiled):
    """Once the time is up no cell is split again: each cell asked for is bounded by its safe layouts (at most
    the position's bound), and the move that reached the lower bound keeps it, as do its images under the
    board's symmetries. (A node limit, which holds no clock, still bounds them by what the search learnt: the
    same answer on every machine.)"""
    from cspmines import native

    position = empty(5, 5, 5)
    with contextlib.nullcontext() if compiled else native.pure_python():
        found = value_of(position, limit=Limit(time=1.0), cells=cells)
    assert (found.exact, found.stopped_by) == (False, "time") and found.layouts == 53130
    table = layout_table(position)
    safe = {cell: int((table.codes[:, k] != MINE).sum()) for k, cell in enumerate(table.cells)}
    move = found.best_cells[0] if found.best_cells else None
    like_move = {move} | {cell for image in board_symmetries(position) for cell in safe if image[cell] == move}
    assert move is None or len(like_move) >= 4  # every cell of the 5x5 square has 4 or 8 alike, but the centre
    for cell, value in found.cells.items():
        asked = cells == "all" or safe[cell] >= found.wins
        low = found.wins if cell in like_move else 0
        expected = (low, min(safe[cell], found.wins_high)) if asked else (0, safe[cell])
        assert (value.low, value.high) == expected, cell


def test_a_node_limit_still_bounds_the_cells_by_what_the_search_learnt():
    found = value_of(empty(4, 4, 3), limit=Limit(nodes=300), cells="all")
    assert (found.exact, found.stopped_by) == (False, "nodes")
    corners = {found.value(cell).bounds for cell in (0, 3, 12, 15)}
    assert len(corners) == 1 and min(corners)[0] > 0  # the corners alike, each with a proven lower bound


def test_out_of_time_the_twin_bounds_the_best_moves_images_by_its_value():
    """The images of the best move under the board's symmetries are worth what it is: they keep its lower
    bound once the time is up, the other cells only their safe layouts (the kernel's rule, in the twin)."""
    from cspmines.engine.value import search_input
    from cspmines.engine.valuesearch import ValueSearch

    table = layout_table(empty(4, 4, 3))
    search = ValueSearch(search_input(table, seconds=1e-9, cells="all"))
    values = search._cell_values(np.arange(table.count), 300, 400, table.column(0))  # the corner as the best move
    assert [values[table.column(cell)] for cell in (0, 3, 12, 15)] == [(300, 400)] * 4
    assert values[table.column(1)] == values[table.column(5)] == (0, 400)
    assert search.stopped == "time"


#: An expert endgame of 110 covered cells (two words of column bits), most of them proved mines, with 105 layouts.
WIDE_ENDGAME = """30x16x99
01.1000002.20112110001.11.11.1
1333110003.302.3.2232211111111
2..3.22212.202.423...100012210
2..422..21221112.34.310112..10
234.113.311.10012.212111.22221
3.311023.343211111101.1111001.
..20001.4...11.111101111110011
221000113.4211123.421012.21000
0000001121112222....213.5.1000
0000012.2101..2.46.42.3..21000
000001.3.2112345.6.32232211110
011213232.2123.....32.10123.10
01.3.3.1112.3.....32.2101..331
1213.3121224.5...2211100123.3.
.1122101.2.5......2001110023..
111.1001122.......2001.1001..1"""


@pytest.mark.parametrize("position", [empty(8, 8, 2), empty(13, 5, 2), Position.from_string(WIDE_ENDGAME)], ids=["64", "65", "110"])
def test_the_compiled_search_counts_columns_alike_by_bits_and_by_histogram_on_either_side_of_64_cells(position):
    """The kernel counts a state's columns by the layouts' column bits (64 cells a word) where its working space
    has room for them (an eighth of the allowance), else by a histogram of each column's codes: either way every
    cell's value, and the states searched, are the same, and the twin's (64 cells fill one word to its last bit,
    65 and 110 need a second; the endgame's clues run to 6)."""
    from cspmines import native
    from cspmines.engine.value import _table_slots

    layouts = value_of(position, cells="one").layouts
    bits = 80 * ((len(position.covered_cells) + 63) // 64) * layouts  # 10 rows (its mines, each clue's cells) a layout
    room, no_room = Limit(memory=8 * bits), Limit(memory=8 * bits - 64)
    assert _table_slots(room.memory) == _table_slots(no_room.memory)  # the same table: the same search
    by_bits, by_histogram = (value_of(position, cells="all", limit=limit) for limit in (room, no_room))
    with native.pure_python():
        twin = value_of(position, cells="all")
    assert by_bits.exact and by_histogram.exact and twin.exact
    assert by_bits.cells == by_histogram.cells == twin.cells and by_bits.states == by_histogram.states
    assert value_of(position, cells="all").states == twin.states


def dense_endgames(count: int, seed: int, width: int, height: int, mines: int, hidden: int):
    """Boards dense with mines (clues up to 8, dead cells), every safe cell opened but ``hidden`` of them."""
    rng = np.random.default_rng(seed)
    made = []
    while len(made) < count:
        layout = set(rng.choice(width * height, size=mines, replace=False).tolist())
        board = Board.from_layout(width, height, sorted(layout))
        safe = [c for c in range(width * height) if c not in layout]
        keep = set(rng.choice(safe, size=hidden, replace=False).tolist())
        game = Game(board)
        for cell in safe:
            if cell not in keep and game.position.grid.flat[cell] < 0:
                game.apply(Action.open(cell))
        if game.status == "playing":
            made.append(game.position)
    return made


@pytest.mark.parametrize("width, height, mines, hidden", [(9, 7, 40, 6), (10, 10, 60, 9)], ids=["one word", "two words"])
def test_the_kernel_counts_columns_as_its_twin_on_dense_boards_with_every_clue(width, height, mines, hidden):
    """Random dense endgames (clues up to 8, dead cells; 46 covered cells, one word of column bits, and 69, two):
    the kernel, which counts a state's columns by their bits, gives the twin's values and states, position by
    position."""
    from cspmines import native

    clues, compared = set(), 0
    for position in dense_endgames(40, seed=width, width=width, height=height, mines=mines, hidden=hidden):
        clues |= {int(v) for v in position.grid.ravel() if v >= 0}
        kernel = value_of(position, cells="all")
        if not 2 <= kernel.layouts <= 600:  # the twin's time
            continue
        with native.pure_python():
            twin = value_of(position, cells="all")
        assert (kernel.cells, kernel.states) == (twin.cells, twin.states), position
        compared += 1
    assert compared >= 15 and clues >= set(range(8))


@pytest.mark.parametrize("memory", [16 << 20, 100_000_000, 1 << 30])
def test_the_table_is_sized_for_its_peak_while_it_doubles(memory):
    """While the transposition table doubles, the table it leaves (half the slots) is held beside the new one:
    at that peak the table fits its share of the allowance, and a table of twice the slots would not."""
    from cspmines.engine.value import _TABLE_SHARE, SLOT_BYTES, _table_slots

    slots, share = _table_slots(memory), memory * _TABLE_SHARE
    assert slots * SLOT_BYTES * 3 // 2 <= share < 2 * slots * SLOT_BYTES * 3 // 2


def test_a_cell_that_can_show_eight_clues_is_counted_alike_by_the_kernel_and_its_twin():
    """On an empty 4x4 board with 7 mines a middle cell can show any clue from 0 to 7: eight clues, a count that
    needs the fourth bit of the kernel's clue counters. The cells are ordered by the clues they can show, so a
    count cut short would change the first moves and the states searched: kernel and twin agree within a budget."""
    from cspmines import native

    position, limit = empty(4, 4, 7), Limit(nodes=2000)
    table = layout_table(position)
    assert len(set(table.codes[:, table.column(5)].tolist()) - {MINE}) == 8
    kernel = value_of(position, limit=limit)
    with native.pure_python():
        twin = value_of(position, limit=limit)
    assert not kernel.exact
    assert (kernel.wins, kernel.wins_high, kernel.best_cells, kernel.states) == (twin.wins, twin.wins_high, twin.best_cells, twin.states)
