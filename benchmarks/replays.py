"""Replays judged by cspmines beside ms-toollib, file by file: the chances agree, and how long each takes.

Usage::

    python benchmarks/replays.py FOLDER_OR_FILES...      # real replay files (AVF, RMV, EVF, MVF)
    python benchmarks/replays.py --make 3                # three games of the exact agent, written as EVF here first
    python benchmarks/replays.py --make 1 --size 60x36x540 --seed 5 --first-click opening   # 1,082 clicks
    python benchmarks/replays.py FOLDER --agent          # also time the exact agent's move at every guess

For every file: our read (ms-toollib's parser in a child process) and exact analysis of every click
(``agent=False`` unless ``--agent``), and ms-toollib's own analysis in another child process (it
aborts the process on a bad file): its parse, its board replay and its float chance (``poss``) at every
click. Printed: the clicks, our guesses (forced / needless), both programs' seconds, the largest
difference between our exact chance and ms-toollib's ``poss`` over the single left clicks (the two
must agree within 1e-6), our luck in bits beside ms-toollib's ``pluck`` (log10 units, shown in bits),
the needless guesses ms-toollib's ``needless_guess`` flags beside ours (nearby and elsewhere), and
whether the numbers our report gives for the file (3BV, 3BV/s, IOE, clicks, ZiNi...: ``replay.statistics``)
equal those ms-toollib gives when asked directly, every one.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import sys
import tempfile
import time
from pathlib import Path

from cspmines.replays import FORMATS, ClickAction, ReplayFormatError, analyse_replay, read_replay

READERS = {"avf": "AvfVideo", "rmv": "RmvVideo", "evf": "EvfVideo", "mvf": "MvfVideo"}


def peer(path: str) -> dict:
    """ms-toollib on one file (run in a child process): seconds, poss at each opening click, pluck, needless flags."""
    import ms_toollib

    started = time.perf_counter()
    video = getattr(ms_toollib, READERS[Path(path).suffix.lower().lstrip(".")])(path)
    video.parse()
    video.analyse()
    poss = []
    for event in video.events:
        if event.useful_level >= 2:
            mouse = event.event.unwrap_mouse()
            row, col = mouse.y // video.pix_size, mouse.x // video.pix_size
            poss.append(event.prior_game_board.poss[row][col] if event.useful_level == 2 else None)
    seconds = time.perf_counter() - started
    video.analyse_for_features(["pluck", "needless_guess"])
    pluck = [e.key_dynamic_params.pluck for e in video.events if e.useful_level >= 2]
    needless = sum(1 for e in video.events if "needless" in e.comments.lower() or "不必要" in e.comments)
    return {"seconds": seconds, "poss": poss, "pluck": pluck[-1] if pluck else float("nan"), "needless": needless,
            "numbers": numbers(path)}


def numbers(path: str) -> dict:
    """ms-toollib's own numbers for the file at the end of its game (3BV, 3BV/s, IOE, ...), read as a user of
    ms-toollib reads them: a fresh parse, the video moved to its end; an infinity or not-a-number as None."""
    import ms_toollib

    from cspmines.replays.statistics import NAMES

    video = getattr(ms_toollib, READERS[Path(path).suffix.lower().lstrip(".")])(path)
    video.parse()
    video.analyse()
    video.current_time = 1e9
    values = {name: getattr(video, name) for name in NAMES}
    return {k: None if isinstance(v, float) and not math.isfinite(v) else v for k, v in values.items()}


def make_games(folder: Path, count: int, *, size: str = "expert", seed: int = 0, first_click: str = "safe") -> list[Path]:
    """``count`` games of the exact agent (seeds ``seed``, ``seed + 1``, ...), written as EVF through
    ms-toollib's recorder."""
    from cspmines.agents import make_agent
    from cspmines.games import Board, Game
    from cspmines.replays.writer import evf_bytes

    paths = []
    for board_seed in range(seed, seed + count):
        board = Board.random(size, seed=board_seed, first_click=first_click)
        game, agent = Game(board, rules="classic"), make_agent("exact")
        agent.reset(rules="classic", seed=board_seed)
        moves = [("open", *divmod(board.first_click, board.width))]
        while game.status == "playing":
            action = agent.act(game.position)
            game.apply(action)
            moves.append((action.kind, *divmod(action.cell, board.width)))
        layout = [[int(board.is_mine(r * board.width + c)) for c in range(board.width)] for r in range(board.height)]
        path = folder / f"exact-{size}-{board_seed}.evf"
        path.write_bytes(evf_bytes(layout, moves, player="cspmines exact"))
        paths.append(path)
    return paths


def files_of(names: list) -> list[Path]:
    found: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.suffix.lower().lstrip(".") in FORMATS))
        else:
            found.append(path)
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", help="replay files or folders")
    parser.add_argument("--make", type=int, default=0, help="first write this many exact-agent games as EVF")
    parser.add_argument("--size", default="expert", help="--make's board: a preset or WxHxM")
    parser.add_argument("--seed", type=int, default=0, help="--make's first seed")
    parser.add_argument("--first-click", default="safe", help="--make's first click (safe, opening, ...)")
    parser.add_argument("--agent", action="store_true", help="ask the exact agent at every guess too")
    parser.add_argument("--peer-timeout", type=float, default=300.0, help="seconds ms-toollib may take on one file")
    args = parser.parse_args(argv)
    scratch = tempfile.TemporaryDirectory(prefix="replays-bench-")
    made = make_games(Path(scratch.name), args.make, size=args.size, seed=args.seed, first_click=args.first_click) if args.make else []
    files = files_of(args.files) + made
    if not files:
        parser.error("name replay files or folders, or --make N")
    print(f"{'file':<34} {'fmt':<4} {'size':<10} {'clicks':>6} {'forced':>6} {'needl.':>6} {'near/far':>8} {'ours s':>7} "
          f"{'peer s':>7} {'compared':>8} {'max diff':>9} {'bits':>7} {'peer bits':>9} {'peer needl.':>11} {'numbers':>8}")
    worst_all, compared_all, equal_numbers, formats = 0.0, 0, 0, set()
    with concurrent.futures.ProcessPoolExecutor(max_workers=1) as pool:
        for path in files:
            name = path.name if len(path.name) <= 34 else path.name[:31] + "..."
            started = time.perf_counter()
            try:
                replay = read_replay(path)
                result = analyse_replay(replay, agent=args.agent)
            except ReplayFormatError as error:
                print(f"{name:<34} error: {error}")
                continue
            ours = time.perf_counter() - started
            try:
                theirs = pool.submit(peer, str(path)).result(timeout=args.peer_timeout)
            except (concurrent.futures.process.BrokenProcessPool, concurrent.futures.TimeoutError) as error:
                theirs = None
                print(f"  (ms-toollib failed on {path.name}: {type(error).__name__})", file=sys.stderr)
                pool.shutdown(cancel_futures=True)
                pool = concurrent.futures.ProcessPoolExecutor(max_workers=1)
            worst, compared = 0.0, 0
            if theirs is not None:
                for index, (judged, poss) in enumerate(zip(result.clicks, theirs["poss"], strict=True)):
                    if index and poss is not None and judged.click.action == ClickAction.OPEN:
                        worst = max(worst, abs(float(judged.chance) - poss))
                        compared += 1
                worst_all, compared_all = max(worst_all, worst), compared_all + compared
            pluck_bits = theirs["pluck"] * math.log2(10) if theirs and math.isfinite(theirs["pluck"]) else float("nan")
            size = f"{replay.width}x{replay.height}/{replay.mines}"
            ours_numbers = replay.statistics.json() if replay.statistics is not None else None
            differ = [k for k in theirs["numbers"] if ours_numbers is None or ours_numbers.get(k) != theirs["numbers"][k]] \
                if theirs else []
            equal_numbers += bool(theirs) and not differ
            formats.add(replay.format)
            verdict = "-" if not theirs else "equal" if not differ else f"DIFF {len(differ)}"
            print(f"{name:<34} {replay.format:<4} {size:<10} {len(result.clicks):>6} {result.forced:>6} {result.needless:>6} "
                  f"{f'{result.nearby}/{result.elsewhere}':>8} {ours:>7.2f} {theirs['seconds'] if theirs else float('nan'):>7.2f} "
                  f"{compared:>8} {worst:>9.1e} {result.luck_bits:>7.3f} {pluck_bits:>9.3f} "
                  f"{theirs['needless'] if theirs else '-':>11} {verdict:>8}")
            if differ:
                print(f"  numbers that differ: {', '.join(differ)}")
    print(f"left clicks compared with ms-toollib's poss: {compared_all}, largest difference {worst_all:.1e} "
          f"({'agree within 1e-6' if worst_all <= 1e-6 else 'DISAGREE'})")
    print(f"ms-toollib's numbers for the file (3BV, 3BV/s, IOE, ...) equal ours on {equal_numbers} of the files read "
          f"(formats: {', '.join(sorted(formats))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
