"""The commands' descriptions and examples, as ``cspmines COMMAND --help`` prints them."""

SOLVE_HELP = """\
Exact mine probabilities of a position file (the text format: a header WxHxM, then
the rows; `.` covered, 0-8 clues, F flags, * opened mines, ? withheld clues).

The board is printed with row and column numbers. Each covered cell shows its
chance of being a mine in percent (S: certainly safe, M: certainly a mine, <1 and
>99 near the ends); clues are in brackets, [2]. Below it: the proved safe cells and
mines as (row,col), the least mine chance and where, the chains of influence.
--exact adds the number of mine layouts and every chance as an exact fraction.
--insight marks d dead cells, h unavoidable and p pseudo 50/50s after their chance
(a legend under the board says so), and with at most 1,000 layouts gives each
cell's chance of winning with best play, M a proved mine (docs/engine.md).

examples:
  cspmines solve board.txt
  cspmines solve board.txt --exact
  cspmines solve board.txt --outcomes 3,4
  cspmines solve board.txt --insight
  cat board.txt | cspmines solve - --density 0.2 --json
"""

MOVE_HELP = """\
The move each agent would make on a position, beside the engine's exact chance
that the cell is a mine, and the least chance on the board.

agents: {agents}
  (options after a colon: exact:lookahead=3,endgame=0; players from outside:
  "cmd:COMMAND LINE" speaking docs/protocol.md, FILE.py:CLASS, an installed plugin's name)

{exact_options}

examples:
  cspmines move board.txt
  cspmines move board.txt --agent exact --agent greedy --explain
  cspmines move board.txt --agent "cmd:node examples/players/js/single_point.js"
"""

BENCH_HELP = """\
Play seeded games: every agent meets the same boards (game i's board depends on
--seed and i alone), so agents are compared board by board.

agents: {agents}
  (players from outside: "cmd:COMMAND LINE" speaking docs/protocol.md, one process
  a worker, named in the tables as it names itself; FILE.py:CLASS; a plugin's name)

{exact_options}

examples:
  cspmines bench --preset expert --games 1000
  cspmines bench --agent exact --agent greedy --size 10x10x10 --rules minesearch
  cspmines bench --agent greedy --agent exact --against greedy --games 500
  cspmines bench --agent exact --agent set-theory --judge --games 200
  cspmines bench --agent exact --size 10x10x10 --density-sweep 0.1,0.2,0.3 --plot sweep.png
  cspmines bench --agent exact --agent "cmd:node examples/players/js/single_point.js" --move-timeout 5
"""


SAMPLE_HELP = """\
Whole boards drawn uniformly from the mine layouts a position allows, exactly
(each layout with the same chance), one board a block, or JSON lines.

examples:
  cspmines sample board.txt --count 3 --seed 1
  cspmines sample board.txt --count 100 --json > layouts.jsonl
"""

CHAINS_HELP = """\
The chains of influence the exact agent meets in seeded games: how long, how wide,
how costly to count. Each position of each game is solved again with its chains as
the clues give them and each chain measured, so a game costs about 0.35 s of CPU on
expert (0.5 s without the compiled kernels; a bench game, some 20 ms): start with
--games 20.

columns:
  density     the board's mine density, mines over cells
  cells       a size sweep's first column in its place: the board's cells
  board       width x height x mines
  games       games played
  positions   positions the exact agent met, each solved again
  chains      chains of influence counted in them (the chains as the clues
              give them, cells a single clue forces kept)
  mean-len    a chain's length, averaged: the diameter of its cell graph (cells
              joined when one clue covers both), how far influence travels
  longest     each game's longest chain, averaged over the games
  max-len     the longest chain met
  mean-width  a chain's width, averaged: the most clues open at once along its
              counting order (the count's cost grows with it)
  max-width   the widest chain met
  0-cuts      the share of positions cut in two by a full row or column of
              revealed 0s (0.250: one in four)
  median-ms   the time to count one chain, the median, in milliseconds
  max-ms      the time to count one chain, the most, in milliseconds

examples:
  cspmines chains --preset expert --games 20
  cspmines chains --size 16x16x40 --games 50 --plot chains.png
  cspmines chains --preset expert --density-sweep 0.1,0.15,0.2 --games 20 --csv chains.csv
"""

SERVE_HELP = """\
A local web page on the engine: paste or play a position, see every cell's exact
chance, ask any agent for its move, replay a bench game or a replay file. It listens
on this machine only (127.0.0.1) unless --host says otherwise. Needs the web extra:
pip install 'cspmines[web]' (in a checkout: pip install -e '.[web]').

examples:
  cspmines serve --open
  cspmines serve --port 8080 --time-limit 10
"""

REPLAY_HELP = """\
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


COMPARE_HELP = """\
The paired table of `cspmines bench` from its result files (--out), so runs made
apart (other machines, other revisions of the code, games added later) are compared
board by board. Games are matched by their number; every file must come from the
same suite (board size, rules, withheld clues, first click, seed). Every agent is
paired with the baseline: the first agent the bench was given (the first file's),
or --against; the line above the paired table names it. An agent whose games
appear in two files under the same numbers (the same agent from two runs) is
named after its file in each, "exact (run-b)", and the two are paired.

examples:
  cspmines compare exact.jsonl greedy.jsonl
  cspmines compare before.jsonl after.jsonl --against "exact (before)"
  cspmines compare part1.jsonl part2.jsonl --json
"""


STUDY_HELP = """\
Play every suite of a study file and write DIR/results.jsonl (every game, with its
suite and point), DIR/report.md (each suite's table with 95% intervals and the
paired differences) and each suite's figure as PNG and SVG. Stopped at any moment,
the same command goes on from where it stopped; the report is the same either way.
The file is checked whole before any game: an unknown key, a wrong type, a missing
field or an unknown agent option is one line naming the file, the line and the key.
The format: docs/studies.md; the studies behind README's tables are in studies/.

examples:
  cspmines study studies/classic.toml --out results/classic
  cspmines study studies/seeds.toml --out results/seeds --workers 2
"""
