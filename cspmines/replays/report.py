"""A judged game written out: the readable report, its JSON and its CSV row.

>>> from cspmines.replays import Replay, analyse_replay
>>> result = analyse_replay(Replay.from_moves([[1, 0, 0], [0, 0, 0]], [("open", 1, 2), ("open", 1, 0)]), agent=False)
>>> data = replay_json(result)
>>> data["survival"], data["luck_bits"], [(c["action"], c["chance"], c["class"], c["loss"]) for c in data["clicks"]]
('1/2', 1.0, [('open', '0', 'proved', '0'), ('open', '1/2', 'forced', '0')])
>>> data["loss"], data["unvalued"]
('0', 0)
>>> data["survival_decimal"], data["counts"], data["statistics"]   # a game made here: no file, no ms-toollib numbers
('0.5', {'judged': 2, 'proved': 1, 'forced': 1, 'needless': 0, 'nearby': 0, 'elsewhere': 0}, None)
"""

from __future__ import annotations

import math
from decimal import ROUND_DOWN, Decimal, Inexact, localcontext
from fractions import Fraction

from .advice import PROVED
from .analysis import ClickAnalysis, ClickClass, ReplayAnalysis
from .reader import NOT_UNIFORM_MODES, FirstClickRule
from .statistics import NAMES

__all__ = ["CSV_COLUMNS", "chance_text", "click_json", "click_text", "csv_row", "decimal_text", "error_json", "error_row",
           "leading_digits", "replay_json", "replay_text"]

#: ms-toollib's numbers in a CSV row (all but the 3BV, which has its column, and the level)
_STAT_COLUMNS = tuple(name for name in NAMES if name not in ("bbbv", "level"))

#: The columns of ``cspmines replay --csv``: one row a game.
CSV_COLUMNS = ("file", "format", "software", "player", "mode", "width", "height", "mines", "outcome", "time", "bbbv", "clicks",
               "proved", "forced", "needless", "nearby", "elsewhere", "survival", "survival_decimal", "luck_bits",
               "agent_survival", "agent_luck_bits", "exact", "loss", "loss_decimal", "unvalued", "expected_win", *_STAT_COLUMNS,
               "error")

_RULES = {
    FirstClickRule.SAFE: "never a mine (the program guarantees it)",
    FirstClickRule.OPENING: "always an opening (the program guarantees a zero)",
    FirstClickRule.ANY: "no guarantee (a plain draw)",
}


def chance_text(chance) -> str:
    """An exact chance as ``p/q`` (``0`` and ``1`` as they are); an estimate as a decimal.

    >>> chance_text(Fraction(1, 3)), chance_text(Fraction(0)), chance_text(0.25)
    ('1/3', '0', '0.25')
    """
    if isinstance(chance, Fraction):
        return str(chance)
    return f"{float(chance):.6g}"


def _bits(value) -> float | None:
    """Bits for JSON: a finite float, or None for a certain loss (JSON has no infinity)."""
    return None if value is None or math.isinf(value) else value


def decimal_text(value) -> str:
    """A chance as a decimal of six significant digits, made from the integers of an exact fraction (so a
    survival far below a float's least is written too); an estimate as its float.

    >>> decimal_text(Fraction(1, 3)), decimal_text(Fraction(2, 3 * 10**600)), decimal_text(Fraction(1)), decimal_text(0.25)
    ('0.333333', '6.66667e-601', '1', '0.25')
    """
    if not isinstance(value, Fraction):
        return repr(float(value))
    with localcontext() as context:
        context.prec = 6
        number = Decimal(value.numerator) / Decimal(value.denominator)
    return f"{number:g}"


def replay_json(result: ReplayAnalysis) -> dict:
    """The JSON of ``cspmines replay --json`` for one game (schema in docs/replays.md): everything the text
    report shows, every chance as its exact fraction."""
    replay = result.replay
    statistics = replay.statistics
    return {
        "file": replay.source,
        "format": replay.format,
        "software": replay.software,
        "player": replay.player,
        "mode": replay.mode,
        "mode_note": NOT_UNIFORM_MODES.get(replay.mode) if replay.mode is not None else None,
        "width": replay.width,
        "height": replay.height,
        "mines": replay.mines,
        "outcome": replay.outcome.value,
        "time": replay.time,
        "bbbv": replay.bbbv,
        "first_click": replay.first_click.value,
        "counts": _counts(result),
        "clicks": [click_json(click, replay.width) for click in result.clicks],
        "fatal": _fatal_json(result),
        "survival": chance_text(result.survival),
        "survival_decimal": decimal_text(result.survival),
        "luck_bits": _bits(result.luck_bits),
        "agent_survival": None if result.agent_survival is None else chance_text(result.agent_survival),
        "agent_luck_bits": _bits(result.agent_luck_bits),
        "exact": result.exact,
        "complete": result.complete,
        "loss": _loss_text(result.loss),
        "unvalued": result.unvalued,
        "expected_win": _loss_text(result.expected_win),
        "statistics": None if statistics is None else statistics.json(),
    }


def _loss_text(loss) -> str | None:
    """A loss for the JSON and the CSV: its exact fraction, or None (null) where it was not valued."""
    return None if loss is None else chance_text(loss)


def _counts(result: ReplayAnalysis) -> dict:
    proved = sum(1 for click in result.clicks if click.kind == ClickClass.PROVED)
    return {"judged": len(result.clicks), "proved": proved, "forced": result.forced, "needless": result.needless,
            "nearby": result.nearby, "elsewhere": result.elsewhere}


def click_json(judged: ClickAnalysis, width: int) -> dict:
    """One judged click as the JSON's ``clicks`` list holds it (docs/replays.md)."""
    click = judged.click
    agent = None
    if judged.agent_action is not None:
        row, col = divmod(judged.agent_action.cell, width)
        agent = {"action": judged.agent_action.kind, "row": row, "col": col, "chance": chance_text(judged.agent_chance),
                 "reason": judged.agent_reason, "why": judged.agent_why}
    return {"time": round(click.time, 3), "thinking": round(judged.thinking, 3), "action": click.action.value,
            "row": click.row, "col": click.col, "chance": chance_text(judged.chance), "class": judged.kind.value,
            "needless": None if judged.where is None else judged.where.value, "loss": _loss_text(judged.loss),
            "unvalued": judged.unvalued, "agent": agent}


def _fatal_json(result: ReplayAnalysis) -> dict | None:
    fatal = result.fatal
    if fatal is None:
        return None
    click, statistics = fatal.click, result.replay.statistics
    return {"time": round(click.time, 3), "action": click.action.value, "row": click.row, "col": click.col,
            "chance": chance_text(fatal.chance), "bbbv_solved": None if statistics is None else statistics.values["bbbv_solved"]}


def error_json(name: str, format: str, error: Exception) -> dict:
    """A file that could not be judged, in a JSON list of games."""
    return {"file": name, "format": format, "error": str(error)}


def csv_row(result: ReplayAnalysis) -> dict:
    """One game as a row of :data:`CSV_COLUMNS`: the exact survival and its decimal, ms-toollib's numbers."""
    replay = result.replay
    counts = _counts(result)
    statistics = replay.statistics.json() if replay.statistics is not None else {}
    return {
        "file": replay.source, "format": replay.format, "software": replay.software, "player": replay.player,
        "mode": "" if replay.mode is None else replay.mode,
        "width": replay.width, "height": replay.height, "mines": replay.mines, "outcome": replay.outcome.value,
        "time": "" if replay.time is None else replay.time, "bbbv": replay.bbbv or "", "clicks": counts["judged"],
        **{key: counts[key] for key in ("proved", "forced", "needless", "nearby", "elsewhere")},
        "survival": chance_text(result.survival), "survival_decimal": decimal_text(result.survival),
        "luck_bits": _bits(result.luck_bits),
        "agent_survival": "" if result.agent_survival is None else chance_text(result.agent_survival),
        "agent_luck_bits": "" if result.agent_luck_bits is None else _bits(result.agent_luck_bits),
        "exact": result.exact,
        "loss": _loss_text(result.loss) or "", "loss_decimal": "" if result.loss is None else decimal_text(result.loss),
        "unvalued": "" if result.unvalued is None else result.unvalued,
        "expected_win": _loss_text(result.expected_win) or "",
        **{name: "" if statistics.get(name) is None else statistics[name] for name in _STAT_COLUMNS},
        "error": "",
    }


def error_row(name: str, format: str, error: Exception) -> dict:
    """A file that could not be judged, as its CSV row."""
    return {**{column: "" for column in CSV_COLUMNS}, "file": name, "format": format, "error": str(error)}


def leading_digits(value: Fraction, *, digits: int = 4) -> str:
    """An exact fraction too long to print whole, by the first ``digits`` significant digits of its decimal,
    cut (not rounded), then ``...`` where more digits follow; below 0.0001 with its power of ten. Made from
    the integers alone, so a fraction of any length (far below a float's least) is written.

    >>> leading_digits(Fraction(1, 3)), leading_digits(Fraction(1, 8)), leading_digits(Fraction(2, 3 * 10**600))
    ('0.3333...', '0.125', '6.666...e-601')
    """
    if value <= 0:
        return "0"
    with localcontext() as context:
        context.prec, context.rounding = digits, ROUND_DOWN
        number = Decimal(value.numerator) / Decimal(value.denominator)
        cut = bool(context.flags[Inexact])
    mark = "..." if cut else ""
    exponent = number.adjusted()
    if exponent >= -4:
        return f"{number:f}{mark}"
    mantissa = number.scaleb(-exponent)
    return f"{mantissa:f}{mark}e{exponent}"


def _with_decimal(value, *, longest: int = 24) -> str:
    """A chance for the report: an exact fraction with its decimal, ``1/3 (0.3333)``; one longer than
    ``longest`` by its leading digits, ``0.09182...`` (:func:`leading_digits`; the JSON keeps every digit);
    an estimate (a float) as a decimal marked ``~``, as ``cspmines solve`` marks its estimates."""
    if not isinstance(value, Fraction):
        return f"~{float(value):.4g}"
    text = chance_text(value)
    if value.denominator == 1:
        return text
    if len(text) <= longest:
        return f"{text} ({float(value):.4f})"
    return "-" + leading_digits(-value) if value < 0 else leading_digits(value)  # (an expected win may be below 0)


def replay_text(result: ReplayAnalysis) -> str:
    """The readable report: the game and ms-toollib's numbers for it, each guess on a line, then the totals."""
    replay = result.replay
    facts = [f"{replay.format.upper()}"]
    if replay.software:
        facts.append(f"by {replay.software}")
    if replay.player:
        facts.append(f"player {replay.player}")
    played = f"{replay.outcome.value}" + (f" in {replay.time:.2f} s" if replay.time else "")
    lines = [
        f"{replay.source}: {', '.join(facts)}",
        f"  {replay.width}x{replay.height}, {replay.mines} mines, {played}" + (f", 3BV {replay.bbbv}" if replay.bbbv else ""),
    ]
    if replay.statistics is not None:
        lines += ["  " + line for line in replay.statistics.lines()]
    lines.append(f"  first click: {_RULES[replay.first_click]}")
    if replay.mode in NOT_UNIFORM_MODES:
        lines.append(f"  mode: {NOT_UNIFORM_MODES[replay.mode]}: the program does not draw layouts uniformly; "
                     "the chances are those of a uniform layout")
    guesses = result.guesses
    proved = len(result.clicks) - len(guesses)
    split = f" ({result.nearby} nearby, {result.elsewhere} elsewhere)" if result.needless else ""
    lines.append(f"  {len(result.clicks)} clicks opened cells: {proved} proved, {_count(result.forced, 'forced guess')}, "
                 f"{_count(result.needless, 'needless guess')}{split}")
    if guesses:
        agent = " exact agent there" if any(click.agent_action is not None for click in result.clicks) else ""
        lines.append(f"  {'#':>3} {'time':>7} {'thinking':>8}  {'click':<14} {'mine chance':<21} {'loss':<13} {'class':<20}"
                     f"{agent}".rstrip())
        for number, judged in enumerate(result.clicks, start=1):
            if judged.kind != ClickClass.PROVED:
                lines += ["  " + line for line in _guess_lines(number, replay.width, judged)]
    if result.fatal is not None:
        lines.append("  " + _fatal_line(result))
    return "\n".join(lines + ["  " + line for line in _total_lines(result)])


def _total_lines(result: ReplayAnalysis) -> list[str]:
    """The report's totals: survival and luck, the loss, the expected win where some guess was valued, the exact
    agent's survival at the same moments, and whether every count was exact."""
    lines = [f"survival {_with_decimal(result.survival)}, luck {_bits_text(result.luck_bits)}"]
    if result.loss is not None:
        lines.append(_loss_line(result))
    if result.expected_win is not None and (result.unvalued or 0) < len(result.guesses):  # some luck taken out
        lines.append(f"expected win {_with_decimal(result.expected_win)}: the {result.replay.outcome.value} game's "
                     "win with the luck of its valued guesses taken out")
    if result.agent_survival is not None:
        lines.append(f"the exact agent at the same moments: survival {_with_decimal(result.agent_survival)}, "
                     f"{_bits_text(result.agent_luck_bits)}")
    if not result.exact:
        lines.append("NOT EXACT: some counts did not finish within the time limit; their chances are estimates")
    if not result.complete:
        lines.append(f"NOT COMPLETE: the time ran out after {len(result.clicks)} of the {len(result.replay.clicks)} clicks; "
                     "the figures are those of the clicks judged")
    return lines


def _loss_line(result: ReplayAnalysis) -> str:
    """The game's loss: the winning chance its guesses gave up to best play, the whole game's when every guess
    was valued, else the part over those valued, the others counted."""
    guesses, unvalued = len(result.guesses), result.unvalued or 0
    assert result.loss is not None
    if not unvalued:
        return f"winning chance lost to best play {_with_decimal(result.loss)} (every guess valued)"
    if unvalued == guesses:
        return f"winning chance lost to best play: not valued ({_count(guesses, 'guess')}: chords, or past the value budget)"
    return (f"winning chance lost to best play {_with_decimal(result.loss)} over {guesses - unvalued} of {guesses} guesses; "
            f"{unvalued} not valued (chords, or past the value budget)")


def _click_loss(judged: ClickAnalysis, *, longest: int = 12) -> str:
    """A click's loss for the report: its fraction (by its leading digits past ``longest``), ``unvalued`` where
    it was not valued, ``-`` where not asked."""
    if judged.loss is not None:
        return _with_decimal(judged.loss, longest=longest)
    return "unvalued" if judged.unvalued else "-"


def click_text(replay, number: int, judged: ClickAnalysis) -> tuple[str, list[str]]:
    """Click ``number`` (from 1) as ``cspmines replay --at`` says it: its heading, and the lines under its board:
    the player's flags, the click's chance and class, the advice and why."""
    click = judged.click
    heading = (f"{replay.source}: click {number} of {len(replay.clicks)}, at {click.time:.2f} s: "
               f"{click.action.value} ({click.row},{click.col})")
    lines = []
    if click.flags:
        flags = " ".join("({},{})".format(*divmod(cell, replay.width)) for cell in click.flags)
        lines.append(f"the player's flags, read as covered cells: {flags}")
    kind = {ClickClass.PROVED: "proved safe", ClickClass.FORCED: "a forced guess",
            ClickClass.NEEDLESS: "a needless guess"}[judged.kind] + (f" ({judged.where.value})" if judged.where else "")
    lines.append(f"the click: mine chance {_with_decimal(judged.chance, longest=12)}, {kind}"
                 + ("" if judged.exact else " (NOT EXACT)"))
    if judged.kind != ClickClass.PROVED and (judged.loss is not None or judged.unvalued):
        lost = "not valued (a chord, or a value search past its budget)" if judged.unvalued else _click_loss(judged)
        lines.append(f"winning chance lost to best play: {lost}")
    if judged.agent_action is not None:
        row, col = divmod(judged.agent_action.cell, replay.width)
        how = "proved, nearest" if judged.agent_reason == PROVED else judged.agent_reason
        lines.append(f"the exact agent: {judged.agent_action.kind} ({row},{col}) at {_with_decimal(judged.agent_chance, longest=12)}, {how}")
        if judged.agent_why is not None and judged.agent_reason != PROVED:
            lines.append(f"  the agent risks more: {judged.agent_why}")
    return heading, lines


def _fatal_line(result: ReplayAnalysis) -> str:
    """A lost game's fatal click, its chance, and the 3BV solved before it (ms-toollib's count)."""
    fatal = result.fatal
    assert fatal is not None
    click, statistics = fatal.click, result.replay.statistics
    solved = ""
    if statistics is not None:
        solved = f", with {statistics.values['bbbv_solved']} of {statistics.bbbv} 3BV solved before it"
    return (f"lost at {click.time:.2f} s on {click.action.value} ({click.row},{click.col}), mine chance "
            f"{_with_decimal(fatal.chance, longest=12)}{solved}")


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" + ("" if number == 1 else "es")


def _bits_text(bits) -> str:
    return "infinite bits (a certain mine)" if math.isinf(bits) else f"{bits:.3f} bits"


def _guess_lines(number: int, width: int, judged: ClickAnalysis) -> list[str]:
    """A guess's line (its number among the clicks, as ``--at`` takes it), and where the advice risks more
    than the click, a line saying why."""
    click = judged.click
    where = f"{click.action.value} ({click.row},{click.col})"
    chance = _with_decimal(judged.chance, longest=12) + ("" if judged.exact else " NOT EXACT")
    agent = ""
    if judged.agent_action is not None:
        row, col = divmod(judged.agent_action.cell, width)
        agent = f"{judged.agent_action.kind} ({row},{col}) at {_with_decimal(judged.agent_chance, longest=12)}"
        agent += ", proved, nearest" if judged.agent_reason == PROVED else ""
    kind = judged.kind.value + (f" ({judged.where.value})" if judged.where is not None else "")
    lines = [f"{number:3d} {click.time:7.2f} {judged.thinking:8.2f}  {where:<14} {chance:<21} {_click_loss(judged, longest=5):<13} {kind:<20} "
             f"{agent}".rstrip()]
    if judged.agent_why is not None and judged.agent_reason != PROVED:
        lines.append(f"{'':<4}the agent risks more: {judged.agent_why}")
    return lines
