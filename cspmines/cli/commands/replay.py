"""``cspmines replay``: real games' replay files judged click by click."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from ..options import (
    DEFAULT_SECONDS,
    Help,
    add_memory_option,
    limit_of,
    seconds_or_none,
    whole,
)

__all__ = ["add_parser", "run"]

HELP = """\
Real games judged click by click: replay files of Arbiter (.avf), Viennasweeper and
Minesweeper Clone (.rmv), Metasweeper (.evf) and Minesweeper X (.mvf), or folders of
them. Needs the replays extra: pip install 'cspmines[replays]' (in a checkout:
pip install -e '.[replays]').

Each click that opened cells is judged on the board the player saw just before it
(flags read as covered cells), with the board's mine total: its exact chance of a
mine, and whether it was proved (chance 0), a forced guess (no cell anywhere was
provably safe) or a needless guess (one was). The report lists the guesses, each by
its number among the clicks (#), with the move advised at each: the proved cell
nearest the click at a needless guess, the exact agent's move at a forced one (and
why, where it risks more than the click); then the game's survival (the product of
1 - chance over the clicks, an exact fraction) and its luck in bits (-log2 of it).
--at N prints the board the player saw before click N, every cell's chance on it.
In a folder run a file that cannot be read is reported in its row and the others
are judged.

examples:
  cspmines replay game.avf
  cspmines replay game.avf --at 12
  cspmines replay game.evf --json
  cspmines replay my-replays/ --csv history.csv --no-agent
"""


def add_parser(commands) -> None:
    """The ``replay`` command's options, and :func:`run` to run it."""
    replay = commands.add_parser("replay", help="real games' replay files (AVF, RMV, EVF, MVF) judged click by click",
                                 description=HELP, formatter_class=Help)
    replay.add_argument("files", nargs="+", metavar="FILE", help="replay files or folders of them")
    replay.add_argument("--json", action="store_true", help="print JSON: one object a game, a list for several (docs/replays.md)")
    replay.add_argument("--csv", help="save one row a game as CSV here")
    replay.add_argument("--no-agent", action="store_true", help="skip the exact agent's move at each guess (faster)")
    replay.add_argument("--at", type=whole(1), metavar="N",
                        help="print the board the player saw before click N (the report's #), each cell's chance on it, "
                             "and the click judged")
    replay.add_argument("--time-limit", type=seconds_or_none, default=DEFAULT_SECONDS,
                        help="seconds allowed for counting each position, or none; past them a chance is an estimate, "
                             "marked NOT EXACT")
    add_memory_option(replay, "each position's solve")
    replay.add_argument("--quiet", action="store_true", help="no progress bar")
    replay.set_defaults(run=run)


def run(args, out) -> int:
    files, many = replay_files(args.files)
    if args.at is not None:
        return _run_at(args, files, many, out)
    return _run_games(args, files, many, out)


def replay_files(names: list) -> tuple[list, bool]:
    """The files named, each folder replaced by the replay files under it (sorted), and whether the run
    covers several games (a folder or more than one name): then a bad file is reported in its row."""
    from ...replays import FORMATS

    files: list = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower().lstrip(".") in FORMATS)
            if not found:
                raise ValueError(f"{name}: no replay files (.avf, .rmv, .evf, .mvf) in this folder")
            files.extend(found)
        elif not path.exists():
            raise ValueError(f"{name}: no such file or folder")
        else:
            files.append(path)
    return files, len(names) > 1 or any(Path(name).is_dir() for name in names)

def _run_games(args, files: list, many: bool, out) -> int:
    """Every game of ``files`` judged: the report, the JSON, the CSV; a bad file in its row where there are several."""
    from ...replays import ReplayFormatError, analyse_replay, read_replay
    from ...replays.report import CSV_COLUMNS, csv_row, error_json, error_row, replay_json, replay_text

    ask_agent = not args.no_agent  # the text, the JSON and the CSV all give the agent's moves
    bar = _bar(len(files), many and not args.quiet)
    games, rows, failed = [], [], 0
    for path in files:
        name = str(path)
        try:
            replay = read_replay(path)
            result = analyse_replay(replay, agent=ask_agent, limit=limit_of(args))
        except ReplayFormatError as error:
            if not many:
                raise
            failed += 1
            kind = path.suffix.lower().lstrip(".")
            games.append(error_json(name, kind, error))
            rows.append(error_row(name, kind, error))
            if not args.json:
                out.write(("\n" if games[:-1] else "") + f"{name}: error: {str(error).removeprefix(name + ': ')}\n")
        else:
            games.append(replay_json(result))
            rows.append(csv_row(result))
            if not args.json:
                out.write(("\n" if games[:-1] else "") + replay_text(result) + "\n")
        if bar is not None:
            bar.update()
    if bar is not None:
        bar.close()
    if args.json:
        json.dump(games if many else games[0], out)
        out.write("\n")
    if args.csv:
        with open(args.csv, "w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(CSV_COLUMNS))
            writer.writeheader()
            writer.writerows(rows)
    if failed:
        print(f"cspmines: {failed} of {len(files)} files could not be read (their rows say why)", file=sys.stderr)
    return 2 if failed == len(files) else 0

def _run_at(args, files: list, many: bool, out) -> int:
    """``replay FILE --at N``: the board the player saw before click N (the report's #), every covered cell's
    chance on it, and the click judged."""
    from ...engine.engine import solve
    from ...present.answers import analysis_json
    from ...present.render import board_text, summary_text
    from ...replays import judge_click, read_replay
    from ...replays.report import click_json, click_text

    if many:
        raise ValueError("--at reads one replay file: name one, not several or a folder")
    if args.csv:
        raise ValueError("--at prints one click: --csv writes a row a game")
    replay = read_replay(files[0])
    if args.at > len(replay.clicks):
        raise ValueError(f"--at {args.at}: the game has {len(replay.clicks)} clicks that opened cells (1 to {len(replay.clicks)})")
    judged = judge_click(replay, args.at - 1, agent=not args.no_agent, limit=limit_of(args))
    seen = judged.click.seen
    analysis = solve(seen, limit=limit_of(args))
    if args.json:
        json.dump({"file": replay.source, "number": args.at, "clicks": len(replay.clicks), "position": str(seen),
                   "flags": [list(divmod(cell, replay.width)) for cell in judged.click.flags],
                   "click": click_json(judged, replay.width), "analysis": analysis_json(analysis)}, out)
        out.write("\n")
        return 0
    heading, lines = click_text(replay, args.at, judged)
    out.write("\n".join([heading, board_text(analysis), summary_text(analysis), *lines]) + "\n")
    return 0

def _bar(total: int, show: bool):
    if not show:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr, leave=False)
