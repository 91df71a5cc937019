"""No-guess boards: cspmines' draws beside ms-toollib's ``laymine_solvable``, time a board and what each certifies.

Usage::

    python benchmarks/noguess.py                       # 200 expert boards a method, both first-click rules
    python benchmarks/noguess.py --boards 1000 --seed 3
    python benchmarks/noguess.py --size 30x16x120 --boards 20

For each first-click rule (``opening``: a zero at (3,3) on expert; ``safe``: the corner is no mine):

* **cspmines uniform**: ``draw_no_guess`` (boards drawn and certified by exact reasoning with the mine total
  until one needs no guess: uniform among the no-guess boards), board i from ``(seed, i)``;
* **cspmines adjust**: the same with ``method="adjust"`` (mines moved where play got stuck; not uniform);
* **ms-toollib**: ``laymine_solvable`` (its own rejection loop: ``laymine_op``, an opening at the click, and
  its ``is_solvable``, one- and two-clue reasoning and an enumeration of small fronts, without the total).
  Under ``safe`` it has no such function: the same loop is run here with ``laymine`` (the click no mine) and
  ``is_solvable``, in Python around its calls. ``laymine_solvable`` at the corner (an opening there) is
  timed beside it.

Printed: CPU milliseconds a board (this process; ms-toollib's calls run in it too), boards certified for
each kept, then every board certified again from its first click by ``cspmines.games.certify`` (how many need
a guess), and ms-toollib's ``is_solvable`` on cspmines' uniform boards: how many of the boards exact
reasoning solves its reasoning rejects. A second table takes one stream of uniform draws under each rule and
sorts every board by both verdicts.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from cspmines.games import Board, certify, draw_no_guess, parse_size
from cspmines.games.board import _first_click_cell
from cspmines.games.certificate import certify_layout, layout_clues
from cspmines.games.noguess import _layout, _proposal


def ms_board(board: Board) -> list:
    """A board as ms-toollib takes it: rows of clues, -1 a mine."""
    return [[-1 if board.is_mine(r * board.width + c) else board.clue(r * board.width + c) for c in range(board.width)]
            for r in range(board.height)]


def from_ms(rows: list, click: int) -> Board:
    return Board([[value == -1 for value in row] for row in rows], first_click=click)


def ours(size: tuple, rule: str, method: str, boards: int, seed: int) -> tuple[float, float, list]:
    started, certified, made = time.process_time(), 0, []
    for i in range(boards):
        drawn = draw_no_guess(size, seed=np.random.default_rng([seed, i]), first_click=rule, method=method)
        certified += drawn.attempts
        made.append(drawn.board)
    return (time.process_time() - started) / boards, certified / boards, made


def theirs(size: tuple, rule: str, boards: int, *, loop: bool) -> tuple[float, float | None, list, int]:
    """ms-toollib's boards: ``laymine_solvable`` (an opening at the click), or under ``safe`` its ``laymine`` and
    ``is_solvable`` in a loop (``loop``). Returns seconds a board, draws a board (the loop only), the boards, and
    how many it gave up on."""
    import ms_toollib

    width, height, mines = size
    click = _first_click_cell(width, height, rule)
    assert click is not None
    row, col = divmod(click, width)
    made, draws, failed = [], 0, 0
    started = time.process_time()
    for _ in range(boards):
        if loop:
            while True:
                rows = ms_toollib.laymine(height, width, mines, row, col)
                draws += 1
                if ms_toollib.is_solvable(rows, row, col):
                    break
        else:
            rows, solved = ms_toollib.laymine_solvable(height, width, mines, row, col, 1_000_000)
            failed += not solved
        made.append(rows)
    seconds = (time.process_time() - started) / boards
    return seconds, (draws / boards if loop else None), [from_ms(rows, click) for rows in made], failed


def verdicts(size: tuple, rule: str, draws: int, seed: int) -> dict:
    """One stream of the uniform method's draws under ``rule``, each board judged by both: exact reasoning with
    the total (cspmines) and ms-toollib's ``is_solvable``."""
    import ms_toollib

    width, height, mines = size
    click, free = _proposal(width, height, mines, rule)
    row, col = divmod(click, width)
    rng = np.random.default_rng([seed, 99])
    counts = {(a, b): 0 for a in (True, False) for b in (True, False)}
    for _ in range(draws):
        layout = _layout(width * height, free, mines, rng)
        exact = certify_layout(layout_clues(layout.reshape(height, width)), width, height, mines, click, stop=True)
        board = Board(layout.reshape(height, width), first_click=click)
        counts[exact, bool(ms_toollib.is_solvable(ms_board(board), row, col))] += 1
    return counts


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="expert", help="a preset or WxHxM")
    parser.add_argument("--boards", type=int, default=200, help="boards a method and rule")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--draws", type=int, default=2000, help="draws of the second table (0: none)")
    parser.add_argument("--rules", default="opening,safe", help="first-click rules, comma-separated")
    args = parser.parse_args(argv)
    size = parse_size(args.size)
    try:
        import ms_toollib  # noqa: F401
        have_peer = True
    except ImportError:
        have_peer = False
    print(f"no-guess {size[0]}x{size[1]} boards with {size[2]} mines, {args.boards} a method and rule "
          f"(CPU of this process, ms a board)")
    print(f"{'first click':<14} {'method':<44} {'ms/board':>9} {'draws':>7} {'need a guess':>13} {'its check rejects':>18}")
    for rule in args.rules.split(","):
        click = _first_click_cell(size[0], size[1], rule)
        assert click is not None
        where = "{} ({},{})".format(rule, *divmod(click, size[0]))
        for method in ("uniform", "adjust"):
            seconds, draws, boards = ours(size, rule, method, args.boards, args.seed)
            guess = sum(not certify(board).no_guess for board in boards)
            rejected = ""
            if method == "uniform" and have_peer:
                import ms_toollib

                row, col = divmod(click, size[0])
                rejected = f"{sum(not ms_toollib.is_solvable(ms_board(b), row, col) for b in boards)}/{len(boards)}"
            label = f"cspmines {method}" + (" (not uniform)" if method == "adjust" else "")
            print(f"{where:<14} {label:<44} {1000 * seconds:>9.2f} {draws:>7.1f} {guess:>9}/{len(boards):<3} {rejected:>18}")
        if not have_peer:
            print(f"{where:<14} {'ms-toollib':<44} peer not run (pip install ms_toollib)")
            continue
        runs = [("ms-toollib laymine_solvable", rule, False)]
        if rule == "safe":
            runs = [("ms-toollib laymine + is_solvable, looped", rule, True),
                    ("ms-toollib laymine_solvable (an opening there)", rule, False)]
        for label, peer_rule, loop in runs:
            seconds, draws, boards, failed = theirs(size, peer_rule, args.boards, loop=loop)
            guess = sum(not certify(board).no_guess for board in boards)
            drawn = f"{draws:>7.1f}" if draws is not None else f"{'-':>7}"
            note = f" ({failed} gave up)" if failed else ""
            print(f"{where:<14} {label:<44} {1000 * seconds:>9.2f} {drawn} {guess:>9}/{len(boards):<3}{note}")
    if have_peer and args.draws:
        print(f"\none stream of {args.draws} uniform draws a rule, each board judged by both")
        print(f"{'first click':<14} {'both solve':>11} {'only exact':>11} {'only ms-toollib':>16} {'neither':>8}")
        for rule in args.rules.split(","):
            counts = verdicts(size, rule, args.draws, args.seed)
            print(f"{rule:<14} {counts[True, True]:>11} {counts[True, False]:>11} {counts[False, True]:>16} "
                  f"{counts[False, False]:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
