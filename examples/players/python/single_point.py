#!/usr/bin/env python3
"""A small Minesweeper player for cspmines: single-point deductions, then a seeded guess.

Two ways to play it, with the very same moves:

* as a program speaking cspmines' line protocol (docs/protocol.md), in its own process, needing nothing
  but Python's standard library::

      cspmines bench --agent "cmd:python3 examples/players/python/single_point.py"

* as a class loaded into cspmines' own process (the Agent protocol, docs/agents.md)::

      cspmines bench --agent examples/players/python/single_point.py:SinglePoint

Each move it reads every opened clue: when its flags and known mines already account for its number,
its other covered neighbours are safe; when its covered neighbours are exactly the mines still missing,
they are all mines. It repeats that until nothing changes, opens the first safe cell found (first in
reading order), and otherwise guesses a covered cell not known to be a mine, uniformly, from a random
stream seeded by the game's seed. It flags nothing under classic rules; under minesearch it opens the
mines it has found (that is how mines are found there), under score it flags them.
"""

from __future__ import annotations

import json
import random
import sys

NAME = "single-point (python)"
COVERED, FLAG, MINE = ".", "F", "*"


def neighbours(row: int, col: int, height: int, width: int):
    for r in range(max(0, row - 1), min(height, row + 2)):
        for c in range(max(0, col - 1), min(width, col + 2)):
            if (r, c) != (row, col):
                yield r, c


def deduce(rows: list[str], mines_left: int) -> tuple[set, set]:
    """The covered cells proved safe and proved mines by single clues (and by the mine count)."""
    height, width = len(rows), len(rows[0])
    safe: set = set()
    mines: set = set()
    changed = True
    while changed:
        changed = False
        for row in range(height):
            for col in range(width):
                clue = rows[row][col]
                if not clue.isdigit():
                    continue
                around = list(neighbours(row, col, height, width))
                marked = sum(1 for r, c in around if rows[r][c] in (FLAG, MINE) or (r, c) in mines)
                unknown = [(r, c) for r, c in around if rows[r][c] == COVERED and (r, c) not in mines and (r, c) not in safe]
                if not unknown:
                    continue
                if marked == int(clue):
                    safe.update(unknown)
                    changed = True
                elif marked + len(unknown) == int(clue):
                    mines.update(unknown)
                    changed = True
    if mines_left - len(mines) == 0:  # every mine is known: the rest is safe
        safe.update((r, c) for r in range(height) for c in range(width) if rows[r][c] == COVERED and (r, c) not in mines)
    return safe, mines


def choose(rows: list[str], mines_left: int, rules: str, rng: random.Random) -> tuple[str, int, int, bool]:
    """The move on ``rows``: (kind, row, col, certain)."""
    safe, mines = deduce(rows, mines_left)
    if rules == "minesearch" and mines:
        return ("open", *min(mines), True)
    if rules != "minesearch" and safe:
        return ("open", *min(safe), True)
    if rules == "score" and mines:
        return ("flag", *min(mines), True)
    covered = [(r, c) for r, line in enumerate(rows) for c, char in enumerate(line) if char == COVERED]
    choices = [cell for cell in covered if cell not in mines and cell not in safe] or covered
    return ("open", *choices[rng.randrange(len(choices))], False)


class SinglePoint:
    """The same player in cspmines' own process: ``reset`` and ``act`` on a Position."""

    name = NAME

    def reset(self, *, rules, seed) -> None:
        from cspmines.agents.external import seed_number  # the whole number a protocol player is given

        self.rules = str(rules)
        self.rng = random.Random(seed_number(seed))

    def act(self, position):
        from cspmines.agents import Action

        rows = str(position).splitlines()[1:]  # the header, then the rows
        mines_left = (position.mines or 0) - len(position.known_mine_cells)
        kind, row, col, certain = choose(rows, mines_left, self.rules, self.rng)
        return Action(kind, position.cell(row, col), certain)


def serve(lines, say) -> None:
    """Play through the protocol: one JSON message a line in, one a line out."""
    rules, rng = "classic", random.Random(0)
    for line in lines:
        message = json.loads(line)
        if "cspmines" in message:
            say({"name": NAME})
        elif "game" in message:
            rules, rng = message["game"]["rules"], random.Random(message["game"]["seed"])
        elif "position" in message:
            kind, row, col, certain = choose(message["position"], message["mines_left"], rules, rng)
            say({kind: [row, col], "certain": certain})
        elif "quit" in message:
            return


def main() -> None:
    def say(message: dict) -> None:
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    serve(sys.stdin, say)


if __name__ == "__main__":
    main()
