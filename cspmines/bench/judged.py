"""Judged games summarized and paired: the engine's view of every open, a game's means per agent.

A game played with ``judge`` (``cspmines bench --judge``, ``run_suite(judge=True)``,
``judge = true`` in a study file) carries in its record ``judged``, an object
with ``guesses``, ``needless``, ``blunders``, ``excess_risk``, ``survival``,
``loss`` and ``beyond`` (:mod:`cspmines.games.judge`), and ``judged_exact``,
false when a count was cut short by the budget. Only exactly judged games enter
the means and the pairs; the others are counted (``not_exact``), never mixed in.
``loss`` and ``beyond`` are null in a game judged without values (other rules
than classic, withheld clues) and absent from records written before they were
kept: such a game is not judged for loss, and is left out of the loss's mean
and pairs (``valued_games`` counts those in).

>>> base = {"width": 9, "height": 9, "mines": 10, "rules": "classic", "withheld": 0.0, "first_click": "safe", "seed": 0}
>>> def game(agent, i, guesses, survival, exact=True):
...     figures = {"guesses": guesses, "needless": 0, "blunders": 0, "excess_risk": 0.0, "survival": survival,
...                "loss": 0.1 * guesses, "beyond": guesses // 2}
...     return {**base, "agent": agent, "game": i, "won": True, "judged": figures, "judged_exact": exact}
>>> records = [game("exact", 0, 1, 0.5), game("greedy", 0, 2, 0.25), game("exact", 1, 0, 1.0), game("greedy", 1, 3, 0.5, False)]
>>> [(row["agent"], row["games"], row["not_exact"], row["guesses"], row["loss"], row["valued_guesses"])
...  for row in judged_summary(records)]
[('exact', 2, 0, 0.5, 0.05, 1.0), ('greedy', 1, 1, 2.0, 0.2, 0.5)]
>>> [(row["measure"], row["games"], row["difference"]) for row in judged_paired(records)][:2]
[('guesses', 1, 1.0), ('needless guesses', 1, 0.0)]
"""

from __future__ import annotations

from ..games.judge import JUDGED_FIELDS
from .compare import CONFIG_KEYS, Measure, paired_table
from .stats import mean_interval

__all__ = ["BEYOND", "JUDGED_MEASURES", "judged_summary", "judged_paired", "judged_tables", "judged_text", "mean_interval"]

#: The judged figures as measures: record field, name, which way is better, and what a game's value can be
#: (survival, a chance: 0 to 1; loss, a sum of chances whose expectation is one; the others are counts, and
#: excess risk a sum of chances, from 0 up). Each is paired; ``beyond`` is not (see :data:`BEYOND`).
JUDGED_MEASURES = (
    Measure("judged.guesses", "guesses", False),
    Measure("judged.needless", "needless guesses", False),
    Measure("judged.blunders", "blunders", False),
    Measure("judged.excess_risk", "excess risk", False),
    Measure("judged.survival", "survival", True, share=True),
    Measure("judged.loss", "loss", False, expected_chance=True),
)

#: The guesses a game had that were not valued: how far the judge reached, not how well the agent played, so
#: its mean is shown and never paired.
BEYOND = Measure("judged.beyond", "beyond budget", False)


def judged_summary(records) -> list[dict]:
    """One row per agent and suite that has judged games, in first-seen order: ``agent``, ``games``
    (judged exactly), ``not_exact`` (judged under a cut budget: left out), then each figure's mean
    over the games and ``<figure>_ci95`` ([low, high]: :func:`~cspmines.bench.stats.mean_interval`, never
    below 0, a survival's and a loss's never above 1). ``loss`` and ``beyond`` are over the games judged with
    values alone, ``valued_games`` of them; ``valued_guesses`` is the share of their guesses valued (None
    without a guess)."""
    groups: dict[tuple, list] = {}
    for record in records:
        if "judged" in record and "error" not in record:
            groups.setdefault((record["agent"], *(record.get(k) for k in CONFIG_KEYS)), []).append(record)
    rows = []
    for (agent, *_), group in groups.items():
        exact = [r for r in group if r.get("judged_exact", True)]
        row: dict = {"agent": agent, "games": len(exact), "not_exact": len(group) - len(exact)}
        for figure, measure in zip(JUDGED_FIELDS, (*JUDGED_MEASURES, BEYOND), strict=True):
            least, most = measure.mean_range
            values = [r["judged"][figure] for r in exact if r["judged"].get(figure) is not None]
            mean, low, high = mean_interval(values, least=least, most=most) if values else (None, None, None)
            row[figure], row[f"{figure}_ci95"] = mean, [low, high]
        row.update(_valued(exact))
        rows.append(row)
    return rows


def _valued(records: list) -> dict:
    """How many of ``records`` were judged with values, and the share of their guesses valued."""
    valued = [r["judged"] for r in records if r["judged"].get("loss") is not None]
    guesses = sum(j["guesses"] for j in valued)
    share = None if not guesses else (guesses - sum(j["beyond"] for j in valued)) / guesses
    return {"valued_games": len(valued), "valued_guesses": share}


def judged_paired(records, *, against: str | None = None, agents=None) -> list[dict]:
    """The paired rows of :func:`~cspmines.bench.compare.paired_table` for each judged figure in turn, on the
    boards both agents' games were judged exactly."""
    rows = []
    for measure in JUDGED_MEASURES:
        rows.extend(paired_table(records, against=against, agents=agents, measure=measure))
    return rows


def judged_tables(records, *, against: str | None = None, agents=None) -> dict | None:
    """``{"results": judged_summary, "paired": judged_paired}`` of ``records``; None when no game was judged."""
    if not any("judged" in record for record in records):
        return None
    return {"results": judged_summary(records), "paired": judged_paired(records, against=against, agents=agents)}


#: The figures of the judged table shown with their intervals, in its order, and their columns' heads.
_SHOWN = (("guesses", "guesses"), ("needless", "needless"), ("blunders", "blunders"), ("excess_risk", "excess risk"),
          ("survival", "survival"), ("loss", "loss"))


def judged_text(tables: dict) -> str:
    """The judged tables as text: each agent's means with their 95% intervals, its guesses beyond the value
    budget (a game's mean) and the share of its guesses valued; then the pairs."""
    rows, paired = tables["results"], tables["paired"]
    x = rows and "x" in rows[0]
    head = f"{'x':>8} " if x else ""
    lines = ["judged by the engine before every open (a game's mean, and its 95% interval):",
             head + f"{'agent':>15} {'games':>6} {'not exact':>9} " + " ".join(f"{name:>{_FIGURE_WIDTH}}" for _, name in _SHOWN)
             + f" {'beyond':>7} {'valued':>7}"]
    for row in rows:
        figures = " ".join(_with_interval(row, figure) for figure, _ in _SHOWN)
        beyond = "-" if row.get("beyond") is None else f"{row['beyond']:.2f}"
        share = "-" if row.get("valued_guesses") is None else f"{row['valued_guesses']:.1%}"
        lines.append((f"{row['x']:8g} " if x else "") + f"{row['agent']:>15} {row['games']:6d} {row['not_exact']:9d} {figures} "
                     f"{beyond:>7} {share:>7}")
    if any(row.get("loss") is not None for row in rows):
        lines.append("loss: the winning chance given up to best play, summed over the guesses valued within the budget; "
                     "beyond: the guesses not valued; valued: the share of guesses valued")
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
