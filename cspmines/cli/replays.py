"""The ``replay`` command: real games' replay files judged click by click."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

__all__ = ["run_replay", "replay_files"]


def replay_files(names: list) -> tuple[list, bool]:
    """The files named, each folder replaced by the replay files under it (sorted), and whether the run
    covers several games (a folder or more than one name): then a bad file is reported in its row."""
    from ..replays import FORMATS

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


def run_replay(args, out) -> int:
    from ..replays import ReplayFormatError, analyse_replay, read_replay
    from ..replays.report import CSV_COLUMNS, csv_row, error_json, error_row, replay_json, replay_text

    files, many = replay_files(args.files)
    ask_agent = not args.no_agent  # the text, the JSON and the CSV all give the agent's moves
    bar = _bar(len(files), many and not args.quiet)
    games, rows, failed = [], [], 0
    for path in files:
        name = str(path)
        try:
            replay = read_replay(path)
            result = analyse_replay(replay, agent=ask_agent, time_limit=args.time_limit, memory=args.memory)
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


def _bar(total: int, show: bool):
    if not show:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="game", file=sys.stderr, leave=False)
