"""An agent's move as the page shows it: the cell it outlines, and in one line why the move beats the least chance
of a mine when it is not a cell of the least chance.

The reasons are the ones the agent's advice already carries (:class:`~cspmines.agents.advice.Suggestion`): the
exact agent's rule that chose a guess (:class:`~cspmines.agents.exact.Reason`: an endgame searched to the end, a
50/50 that must be guessed some time, ...) and, for a look-ahead guess, what the look-ahead found for the move and
for the cell of least chance it weighed beside it (:class:`~cspmines.agents.exact.lookahead.Lookahead`: how often
the move is safe with a safe move after it, how often its clue proves another cell, whether the other can tell
anything at all).

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("5x3x3\\n1....\\n2....\\n....."))
>>> move, missing = advice_json(analysis, "exact", rules="classic", seed=1)
>>> move["cell"], move["mine_fraction"], move["least_mine_fraction"], move["why"], missing
([2, 3], '1/9', '1/9', None, None)
"""

from __future__ import annotations

from fractions import Fraction

from ..actions import ActionKind
from ..agents.advice import Advice, GameOverError, Suggestion, suggest
from ..agents.exact import Reason
from ..present.answers import moves_json

__all__ = ["RULES_SAY", "advice_json", "least_cells", "why", "with_why"]

#: What each of the exact agent's guessing rules says of a move riskier than the least chance (the look-ahead's
#: own numbers are added where its advice carries them).
RULES_SAY: dict[str, str] = {
    Reason.FEWEST_MINES: "played for the fewest mines set off, a search of every layout left finds this move sets off fewest",
    Reason.ENDGAME: "with few layouts left, a search of every one finds this move wins most often",
    Reason.FIFTY_FIFTY: "it is half of a 50/50 that must be guessed some time, and guessing it now costs nothing more",
    Reason.PSEUDO_FIFTY_FIFTY: "it is a mine only as half of a 50/50 that only a guess can settle: guessed now, it is settled",
    Reason.POCKET: "it is the best move of an isolated pocket, played exactly as a game of its own",
    Reason.LOOK_AHEAD: "the look-ahead scores it best (the safety of the move after it, and what its clue proves)",
    Reason.LEAST_RISK: "it is of the least chance, the tie broken towards fewer neighbours",
    Reason.FIRST_CORNER: "a corner first (a research switch): a zero is likeliest there",
    Reason.CORNER: "a corner (a research switch): a zero is likeliest there",
    Reason.LIKELIEST_MINE: "under minesearch every mine is opened in the end, so the likeliest mine goes first",
    Reason.FEWEST_OPENINGS: "under minesearch, a search of every layout left finds this move opens the fewest safe squares",
    Reason.INFORMATION: "under minesearch, this square tells the most for the safe squares it is expected to cost",
}

_MOST_NAMED = 3  # cells of the least chance named in the line; the rest are counted


def _percent(chance) -> str:
    return f"{100 * float(chance):.1f}%"


def _cell(position, cell: int) -> str:
    row, col = position.row_col(cell)
    return f"({row},{col})"


def _cells(position, cells) -> str:
    named = " ".join(_cell(position, cell) for cell in cells[:_MOST_NAMED])
    return named + (f" and {len(cells) - _MOST_NAMED} more" if len(cells) > _MOST_NAMED else "")


def _look_ahead(suggestion: Suggestion, position) -> str | None:
    """What the look-ahead found for the move and for the best-scored cell of the least chance it weighed, or
    None where its advice does not carry both (weighed without ``explain``, or swapped for another cell)."""
    views = [view for view, _ in suggestion.candidates]
    chosen = next((view for view in views if view.cell == suggestion.action.cell), None)
    safest = max((view.safety for view in views), default=None)
    least = next((view for view in views if view.safety == safest and view is not chosen), None)
    if chosen is None or least is None:
        return None
    at = _cell(position, least.cell)
    if least.dead and not chosen.dead:
        return f"{at} can tell nothing (safe, it shows the same clue in every layout), and the look-ahead opens a cell that can"
    said = [f"the look-ahead finds it safe with a safe move after it {_percent(chosen.secondary)} of the time, "
            f"against {_percent(least.secondary)} for {at}"]
    if chosen.progress > least.progress:
        said.append(f"its clue proving another cell {_percent(chosen.progress)} of the time against {_percent(least.progress)}")
    if chosen.influence != least.influence:
        said.append(f"its 50/50 influence {chosen.influence:.2f} against {least.influence:.2f}")
    return ", ".join(said)


def why(suggestion: Suggestion, position, least_cells) -> str | None:
    """One line on why ``suggestion`` opens a cell riskier than the least chance (at ``least_cells``), or None
    where it does not (a cell of the least chance, a flag).

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("3x1x1\\n.1."))
    >>> move = suggest(analysis.position, "random", seed=0, analysis=analysis)
    >>> print(why(move, analysis.position, analysis.cells_where(lambda p: p == move.least)))
    None
    """
    if suggestion.action.kind != ActionKind.OPEN or suggestion.mine_probability <= suggestion.least:
        return None
    head = f"the least chance is {_percent(suggestion.least)}, at {_cells(position, list(least_cells))}"
    if suggestion.reason == Reason.LOOK_AHEAD:
        says = _look_ahead(suggestion, position) or RULES_SAY[Reason.LOOK_AHEAD]
    elif suggestion.reason in RULES_SAY:
        says = RULES_SAY[suggestion.reason]
    else:  # an agent that names no rule
        says = f"{suggestion.agent} does not say why"
    return f"{head}; {says}"


def least_cells(advice: Advice) -> tuple:
    """The covered cells of the least chance of a mine on the advice's position."""
    least = Fraction(advice.suggestions[0].least)
    return advice.analysis.cells_where(lambda p: p == least)


def with_why(answer: dict, advice: Advice) -> dict:
    """``answer`` (:func:`~cspmines.present.answers.moves_json` of ``advice``) with each move's ``why``."""
    least = least_cells(advice)
    for move, suggestion in zip(answer["moves"], advice.suggestions, strict=True):
        move["why"] = why(suggestion, advice.position, least)
    return answer


def advice_json(analysis, agent: str, *, rules: str, seed) -> tuple[dict | None, str | None]:
    """(``agent``'s move on the analysed position as JSON, None), or (None, why there is none).

    The move is a ``/api/move`` move (with ``explain``: the look-ahead's candidates) with the least chance beside
    it (``least_mine_fraction``, ``least_cells``) and ``why`` (:func:`why`). There is none without the mine total,
    on a count cut short (no move can be judged exactly) or once the game is over.
    """
    if analysis.mines is None:
        return None, "the agent's move needs the mine total, not a density"
    if not analysis.exact:
        return None, "the count was cut short: no move can be judged exactly"
    position = analysis.position
    try:
        suggestion = suggest(position, agent, rules=rules, seed=seed, analysis=analysis, explain=True)
    except GameOverError as error:
        return None, str(error)
    advice = Advice(position, analysis, (suggestion,), rules)
    answer = with_why(moves_json(advice, explain=True), advice)
    least = [list(position.row_col(cell)) for cell in least_cells(advice)]
    return answer["moves"][0] | {"least_mine_fraction": answer["least_mine_fraction"], "least_cells": least}, None
