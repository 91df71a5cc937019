"""Statistics of benchmark results: intervals, summaries and paired comparisons.

A strength claim is a paired comparison on shared boards: every agent plays
the same boards (:func:`~cspmines.bench.suite.board_for`), so the difference
between two agents is measured board by board (:func:`paired_wins`,
:func:`paired_means`), which is far tighter than comparing two rates.

>>> paired_wins([True, False, True, False], [True, True, True, False]).difference
0.25
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

__all__ = ["Paired", "mean_interval", "paired_means", "paired_wins", "summarize", "wilson_interval"]


def wilson_interval(successes: int, trials: int, *, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (as scipy's ``binomtest(...).proportion_ci(method="wilson")``;
    the closed form here spares a bench the second scipy.stats takes to import).

    >>> [round(x, 4) for x in wilson_interval(41, 100)]
    [0.3187, 0.508]
    """
    if trials == 0:
        return (0.0, 1.0)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2)
    share, spread = successes / trials, z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    half = z / (1 + spread) * math.sqrt(share * (1 - share) / trials + spread / (4 * trials))
    # at none and at all the bound is exactly 0 or 1 (centre and half cancel; in floats, nearly)
    return (0.0 if successes == 0 else centre - half, 1.0 if successes == trials else centre + half)


def mean_interval(values, *, least: float | None = None, most: float | None = None) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval: the normal one (from the standard error), cut to what the
    quantity can be, ``least`` to ``most`` (a count is never below 0, a share never above 1), so an interval
    never claims a value the quantity cannot take.

    >>> [round(v, 4) for v in mean_interval([1.0, 2.0, 3.0])]
    [2.0, 0.8684, 3.1316]
    >>> [round(v, 4) for v in mean_interval([0, 0, 0, 1], least=0)]   # normal: -0.24 .. 0.74
    [0.25, 0.0, 0.74]
    """
    values = [float(v) for v in values]
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    low, high = mean - half, mean + half
    return mean, low if least is None else max(float(least), low), high if most is None else min(float(most), high)


def _mean(played: list, key: str) -> float | None:
    """The mean of one field over the games played (None if none was)."""
    return statistics.fmean(r[key] for r in played) if played else None


def summarize(records: list) -> list[dict]:
    """One summary per agent and configuration, in first-seen order. ``errors`` counts the games that went
    wrong: those that failed (left out of ``games``) and those the player lost by a fault (``faults``: in
    ``games``, as losses, as the rules have it).

    >>> record = {"agent": "a", "game": 0, "width": 9, "height": 9, "mines": 10, "rules": "classic",
    ...           "withheld": 0.0, "first_click": "safe", "won": True, "moves": 20, "guesses": 1,
    ...           "opened_fraction": 0.9, "score": 0.0, "seconds": 0.002}
    >>> row, = summarize([record, {**record, "game": 1, "won": False}])
    >>> row["games"], row["wins"], row["win_rate"]
    (2, 1, 0.5)
    """
    groups: dict[tuple, list] = {}
    for record in records:
        key = (record["agent"], *(record[k] for k in ("width", "height", "mines", "rules", "withheld", "first_click")))
        groups.setdefault(key, []).append(record)
    out = []
    for (agent, width, height, mines, rules, withheld, first_click), group in groups.items():
        played = [r for r in group if "error" not in r]
        faults = sum(1 for r in played if "fault" in r)  # lost by the player's fault: in the games, as losses
        wins = sum(r["won"] for r in played)
        moves = sum(r["moves"] for r in played)
        out.append(
            {
                "agent": agent,
                "width": width,
                "height": height,
                "mines": mines,
                "rules": rules,
                "withheld": withheld,
                "first_click": first_click,
                "games": len(played),
                "errors": len(group) - len(played) + faults,
                "faults": faults,
                "wins": wins,
                "win_rate": wins / len(played) if played else None,
                "ci95": list(wilson_interval(wins, len(played))),
                "mean_opened_fraction": _mean(played, "opened_fraction"),
                "mean_score": _mean(played, "score"),
                "mean_guesses": _mean(played, "guesses"),
                "mean_seconds_per_game": _mean(played, "seconds"),
                "mean_seconds_per_move": (sum(r["seconds"] for r in played) / moves) if moves else None,
            }
        )
    return out


@dataclass(frozen=True)
class Paired:
    """A paired difference ``second - first`` on shared boards, with its 95% interval.

    ``gained`` and ``lost`` count the boards where the second did better and
    worse (wins: won only by the second, only by the first); ``games`` the
    boards compared.
    """

    games: int
    gained: int
    lost: int
    difference: float
    low: float
    high: float

    def __str__(self) -> str:
        return (f"+{self.gained} -{self.lost} of {self.games}: {self.difference:+.4f} "
                f"(95% {self.low:+.4f} .. {self.high:+.4f})")


def paired_wins(first, second) -> Paired:
    """Win rate of ``second`` minus ``first`` on the same boards (booleans, board by board).

    The interval is the normal one for paired proportions: the variance of
    the per-board difference, which only the boards won by one of the two
    carry.

    >>> p = paired_wins([True, False, True, False], [True, True, True, False])
    >>> (p.gained, p.lost, p.difference, round(p.high - p.difference, 4))
    (1, 0, 0.25, 0.4244)
    >>> paired_wins([True], [])
    Traceback (most recent call last):
    ...
    ValueError: paired results need the same boards: 1 against 0
    """
    first, second = list(first), list(second)
    if len(first) != len(second) or not first:
        raise ValueError(f"paired results need the same boards: {len(first)} against {len(second)}")
    n = len(first)
    gained = sum(1 for a, b in zip(first, second, strict=True) if b and not a)
    lost = sum(1 for a, b in zip(first, second, strict=True) if a and not b)
    difference = (gained - lost) / n
    spread = math.sqrt(max(gained + lost - (gained - lost) ** 2 / n, 0.0)) / n
    return Paired(n, gained, lost, difference, difference - 1.96 * spread, difference + 1.96 * spread)


def paired_means(first, second) -> Paired:
    """Mean of ``second - first`` board by board (a measure such as the fraction opened), with
    its 95% interval (normal, from the differences' standard error).

    >>> p = paired_means([0.5, 0.4, 0.3], [0.4, 0.4, 0.2])
    >>> (p.gained, p.lost, round(p.difference, 4))
    (0, 2, -0.0667)
    """
    first, second = list(first), list(second)
    if len(first) != len(second) or not first:
        raise ValueError(f"paired results need the same boards: {len(first)} against {len(second)}")
    differences = [b - a for a, b in zip(first, second, strict=True)]
    mean = statistics.fmean(differences)
    error = statistics.stdev(differences) / math.sqrt(len(differences)) if len(differences) > 1 else 0.0
    gained = sum(1 for d in differences if d > 0)
    lost = sum(1 for d in differences if d < 0)
    return Paired(len(differences), gained, lost, mean, mean - 1.96 * error, mean + 1.96 * error)
