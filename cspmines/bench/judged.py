"""Judged games summarized and paired: the engine's view of every open, a game's means per agent.

A game played with ``judge`` (``cspmines bench --judge``, ``run_suite(judge=True)``,
``judge = true`` in a study file) carries in its record ``judged``, an object
with ``guesses``, ``needless``, ``blunders``, ``excess_risk``, ``survival``,
``loss``, ``unvalued`` and ``expected_win`` (:mod:`cspmines.games.judge`), and ``judged_exact``,
false when a count was cut short by the budget. Only exactly judged games enter
the means and the pairs; the others are counted (``not_exact``), never mixed in.

A game's ``loss`` is the winning chance its guesses gave up to best play, summed
over those valued; ``unvalued`` counts the others (a chord, or a position whose
value search did not finish within the judge's value budget). The loss's mean
and pairs take the **fully valued** games alone (``unvalued`` 0: the loss is the
game's whole loss, exactly), ``valued_games`` of them; a game with a guess not
valued is counted, never mixed in with a part of its loss. ``loss`` and
``unvalued`` are null in a game judged without values (other rules than
classic, withheld clues) and absent from records written before they were kept:
such a game has no loss, and is in none of the loss's figures.

A game's ``expected_win`` is its win with the luck of its valued guesses taken
out (:func:`~cspmines.games.judge.expected_win`): every game has one (null where
the layouts a position allows are not equally likely: no-guess boards, a first
click on a highest clue). Its mean estimates the win rate, and its paired
difference is minus the paired difference of the **loss per game over every
move**, the moves past the value budget included: two agents of a board start
from the same position, whose value cancels. So the pairs of ``expected win``
compare every agent's loss of winning chance per game, on every board.

>>> base = {"width": 9, "height": 9, "mines": 10, "rules": "classic", "withheld": 0.0, "first_click": "safe", "seed": 0}
>>> def game(agent, i, guesses, survival, exact=True):
...     figures = {"guesses": guesses, "needless": 0, "blunders": 0, "excess_risk": 0.0, "survival": survival,
...                "loss": 0.125 * guesses, "unvalued": guesses // 2}
...     return {**base, "agent": agent, "game": i, "won": True, "judged": figures, "judged_exact": exact}
>>> records = [game("exact", 0, 1, 0.5), game("greedy", 0, 2, 0.25), game("exact", 1, 0, 1.0), game("greedy", 1, 3, 0.5, False)]
>>> [(row["agent"], row["games"], row["not_exact"], row["guesses"], row["loss"], row["valued_games"], row["valued_guesses"])
...  for row in judged_summary(records)]   # greedy's game 0 has a guess not valued: no loss of its own
[('exact', 2, 0, 0.5, 0.0625, 2, 1.0), ('greedy', 1, 1, 2.0, None, 0, 0.5)]
>>> [(row["measure"], row["games"], row["difference"]) for row in judged_paired(records)][:2]
[('guesses', 1, 1.0), ('needless guesses', 1, 0.0)]
"""

from __future__ import annotations

from .compare import CONFIG_KEYS, Measure, paired_table
from .stats import mean_interval

__all__ = ["UNVALUED", "JUDGED_MEASURES", "judged_summary", "judged_paired", "judged_tables", "judged_text", "mean_interval"]

#: The judged figures as measures: record field, name, which way is better, and what a game's value can be
#: (survival, a chance: 0 to 1; loss, a sum of chances whose expectation is a chance; the others are counts,
#: and excess risk a sum of chances, from 0 up). Each is paired (the loss on fully valued games alone);
#: ``unvalued`` is not (see :data:`UNVALUED`).
JUDGED_MEASURES = (
    Measure("judged.guesses", "guesses", False),
    Measure("judged.needless", "needless guesses", False),
    Measure("judged.blunders", "blunders", False),
    Measure("judged.excess_risk", "excess risk", False),
    Measure("judged.survival", "survival", True, share=True),
    Measure("judged.loss", "loss", False, expected_chance=True),
    Measure("judged.expected_win", "expected win", True, expected_chance=True),
)

#: The guesses a game had that were not valued: how far the judge reached, not how well the agent played, so
#: its mean is shown and never paired.
UNVALUED = Measure("judged.unvalued", "unvalued guesses", False)

#: The loss among the measures (its games are the fully valued ones).
_LOSS = next(measure for measure in JUDGED_MEASURES if measure.name == "loss")


def judged_summary(records) -> list[dict]:
    """One row per agent and suite that has judged games, in first-seen order: ``agent``, ``games``
    (judged exactly), ``not_exact`` (judged under a cut budget: left out), then each figure's mean
    over the games and ``<figure>_ci95`` ([low, high]: :func:`~cspmines.bench.stats.mean_interval`, never
    below 0, a survival's and a loss's never above 1). ``loss`` is over the fully valued games alone,
    ``valued_games`` of them; ``unvalued`` (a game's mean) and ``valued_guesses`` (the share of guesses valued;
    None without a guess) over the games judged with values."""
    groups: dict[tuple, list] = {}
    for record in records:
        if "judged" in record and "error" not in record:
            groups.setdefault((record["agent"], *(record.get(k) for k in CONFIG_KEYS)), []).append(record)
    rows = []
    for (agent, *_), group in groups.items():
        exact = [r for r in group if r.get("judged_exact", True)]
        row: dict = {"agent": agent, "games": len(exact), "not_exact": len(group) - len(exact)}
        for measure in (*JUDGED_MEASURES, UNVALUED):
            figure = measure.field.partition(".")[2]
            least, most = measure.mean_range
            values = [r["judged"][figure] for r in map(_loss_if_whole, exact) if r["judged"].get(figure) is not None]
            mean, low, high = mean_interval(values, least=least, most=most) if values else (None, None, None)
            row[figure], row[f"{figure}_ci95"] = mean, [low, high]
        row.update(_valued(exact))
        rows.append(row)
    return rows


def _valued(records: list) -> dict:
    """How many of ``records`` were fully valued, and the share of the guesses valued in those judged with
    values."""
    valued = [r["judged"] for r in records if r["judged"].get("loss") is not None]
    guesses = sum(j["guesses"] for j in valued)
    share = None if not guesses else (guesses - sum(j["unvalued"] for j in valued)) / guesses
    return {"valued_games": sum(1 for j in valued if j["unvalued"] == 0), "valued_guesses": share}


def _loss_if_whole(record: dict) -> dict:
    """``record`` with its ``judged`` loss left out (None) unless every guess of the game was valued."""
    judged = record["judged"]
    if judged.get("loss") is None or judged.get("unvalued") == 0:
        return record
    return {**record, "judged": {**judged, "loss": None}}


def judged_paired(records, *, against: str | None = None, agents=None) -> list[dict]:
    """The paired rows of :func:`~cspmines.bench.compare.paired_table` for each judged figure in turn, on the
    boards both agents' games were judged exactly (and for the loss, fully valued)."""
    rows = []
    for measure in JUDGED_MEASURES:
        given = [_loss_if_whole(r) if "judged" in r else r for r in records] if measure is _LOSS else records
        rows.extend(paired_table(given, against=against, agents=agents, measure=measure))
    return rows


def judged_tables(records, *, against: str | None = None, agents=None) -> dict | None:
    """``{"results": judged_summary, "paired": judged_paired}`` of ``records``; None when no game was judged."""
    if not any("judged" in record for record in records):
        return None
    return {"results": judged_summary(records), "paired": judged_paired(records, against=against, agents=agents)}


#: The figures of the judged table shown with their intervals, in its order, and their columns' heads.
_SHOWN = (("guesses", "guesses"), ("needless", "needless"), ("blunders", "blunders"), ("excess_risk", "excess risk"),
          ("survival", "survival"), ("loss", "loss"), ("expected_win", "expected win"))


def judged_text(tables: dict) -> str:
    """The judged tables as text: each agent's means with their 95% intervals (the loss's over its fully
    valued games, counted beside it), its guesses not valued (a game's mean) and the share of its guesses
    valued; then the pairs."""
    rows, paired = tables["results"], tables["paired"]
    x = rows and "x" in rows[0]
    head = f"{'x':>8} " if x else ""
    lines = ["judged by the engine before every open (a game's mean, and its 95% interval):",
             head + f"{'agent':>15} {'games':>6} {'not exact':>9} " + " ".join(f"{name:>{_FIGURE_WIDTH}}" for _, name in _SHOWN)
             + f" {'valued games':>12} {'unvalued':>8} {'valued':>7}"]
    for row in rows:
        figures = " ".join(_with_interval(row, figure) for figure, _ in _SHOWN)
        unvalued = "-" if row.get("unvalued") is None else f"{row['unvalued']:.2f}"
        share = "-" if row.get("valued_guesses") is None else f"{row['valued_guesses']:.1%}"
        lines.append((f"{row['x']:8g} " if x else "") + f"{row['agent']:>15} {row['games']:6d} {row['not_exact']:9d} {figures} "
                     f"{row.get('valued_games', 0):12d} {unvalued:>8} {share:>7}")
    if any(row.get("unvalued") is not None for row in rows):
        lines.append("loss: the winning chance given up to best play, over the valued games (every guess valued within "
                     "the value budget); unvalued: a game's guesses not valued; valued: the share of guesses valued")
    if any(row.get("expected_win") is not None for row in rows):
        lines.append("expected win: a game's win with the luck of its valued guesses taken out; minus its paired difference "
                     "is the paired difference of the loss of winning chance per game over every move")
    if paired:
        lines += ["paired on the same boards, judged exactly, agent minus the other:",
                  head + f"{'measure':>16} {'agent':>15} {'against':>15} {'games':>6} {'difference':>11} {'95% interval':>22} "
                  f"{'better':>7} {'worse':>6}"]
        for row in paired:
            low, high = row["ci95"]
            lines.append((f"{row['x']:8g} " if x else "") + f"{row['measure']:>16} {row['agent']:>15} {row['against']:>15} "
                         f"{row['games']:6d} {row['difference']:+11.4f} {low:+10.4f} .. {high:+8.4f} {row['better']:7d} {row['worse']:6d}")
    return "\n".join(lines)


#: A judged figure's column: its mean and its interval's ends, ``0.1000 (0.0000..0.2206)``, a space before.
_FIGURE_WIDTH = 24


def _with_interval(row: dict, figure: str) -> str:
    """A figure's mean and its interval by its ends (cut at what the figure can be, so not symmetric); ``-``
    where no game has it (the loss of games judged without values)."""
    mean, (low, high) = row.get(figure), row.get(f"{figure}_ci95", (None, None))
    if mean is None:
        return f"{'-':>{_FIGURE_WIDTH}}"
    return f"{f'{mean:.4f} ({low:.4f}..{high:.4f})':>{_FIGURE_WIDTH}}"
