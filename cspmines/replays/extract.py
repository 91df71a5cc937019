"""Read one replay file with ms-toollib and print what the analysis needs as JSON (run as a child process).

ms-toollib's readers end the whole Python process (a Rust abort, exit 134) on a
truncated or corrupt file, so :mod:`cspmines.replays.reader` never calls them
in its own process: it runs this file as a script, hands it the file's bytes on
standard input, and reads back one JSON object on standard output. Only the
standard library and ms-toollib are imported here, so the child starts fast.

The object: the game's facts (size, mines, mode, software, player, time, 3BV,
whether it was won), the mine layout (rows of 0/1), and every event that opened
cells or set off a mine, each with its time, the cell under the mouse, ms-toollib's
kind of event (2 a left click that opens, 3 a chord that opens, 4 a mine set off)
and the board the player saw just before it (one string a row: ``.`` covered,
``F`` flagged, ``Q`` question mark, ``0``-``8`` clues); then ms-toollib's own numbers for
the file at the end of the game (``stats``: 3BV, 3BV/s, IOE, clicks... by its names, the
list in :mod:`cspmines.replays.statistics`), an infinity or not-a-number as null.
"""

import json
import math
import sys

READERS = {"avf": "AvfVideo", "rmv": "RmvVideo", "evf": "EvfVideo", "mvf": "MvfVideo"}
OPENING_LEVELS = (2, 3, 4)  # ms-toollib's useful_level: open, chord, mine set off
SEEN = {10: ".", 11: "F", 12: "Q"}
#: ms-toollib's numbers read at the end of the game (cspmines.replays.statistics.NAMES: kept apart so this
#: script imports nothing of the package and starts fast; a test checks the two lists agree)
STATS = ("bbbv", "bbbv_solved", "bbbv_s", "ioe", "rqp", "thrp", "corr", "cl", "ce", "left", "right", "double", "flag",
         "op", "isl", "stnb", "zini", "hzini", "path", "rtime", "level")
END = 1e9  # a time past any game's end: ms-toollib's figures are those of the moment its current_time names


def stats(video) -> dict:
    """ms-toollib's numbers at the end of the game, an infinity or not-a-number as None (JSON has neither)."""
    video.current_time = END
    values = {}
    for name in STATS:
        value = getattr(video, name)
        values[name] = None if isinstance(value, float) and not math.isfinite(value) else value
    return values


def seen_rows(game_board) -> list:
    return ["".join(SEEN.get(value, str(value) if 0 <= value <= 8 else "X") for value in row) for row in game_board]


def extract(kind: str, data: bytes) -> dict:
    import ms_toollib

    video = getattr(ms_toollib, READERS[kind])(file_name="", raw_data=list(data))
    video.parse()
    video.analyse()
    pixels = int(video.pix_size) or 16
    clicks = []
    for event in video.events:
        if event.useful_level not in OPENING_LEVELS or not event.event.is_mouse():
            continue
        mouse = event.event.unwrap_mouse()
        clicks.append({
            "time": float(event.time),
            "row": int(mouse.y) // pixels,
            "col": int(mouse.x) // pixels,
            "level": int(event.useful_level),
            "seen": seen_rows(event.prior_game_board.game_board),
        })
    text = lambda value: value if isinstance(value, str) else ""  # noqa: E731
    return {
        "width": int(video.column), "height": int(video.row), "mines": int(video.mine_num),
        "mode": int(video.mode), "level": int(video.level), "software": text(video.software),
        "player": text(video.player_identifier), "completed": bool(video.is_completed),
        "time": float(video.rtime), "bbbv": int(video.bbbv),
        "layout": [[1 if value == -1 else 0 for value in row] for row in video.board],
        "clicks": clicks,
        "stats": stats(video),  # last: it moves the video to its end
    }


if __name__ == "__main__":
    json.dump(extract(sys.argv[1], sys.stdin.buffer.read()), sys.stdout)
