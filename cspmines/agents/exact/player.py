"""The exact agent's play: proofs kept, the engine called, and the chain of guessing rules.

Each move: open a cell already proved safe (proofs are kept between moves);
otherwise try single-clue deductions, which are cheap; otherwise call the
full engine, keep every proved cell, and if nothing is proved guess, in
this order of preference (each rule switched by
:class:`~cspmines.agents.exact.options.ExactOptions`):

1. with few layouts left, the move of an exhaustive search of the game tree
   (``endgame``);
2. a forced 50/50, which must be guessed some time (``fifty_fifty``), or a
   cell that is a mine only as half of a 50/50 (``influence``);
3. the best move inside an isolated pocket, a game of its own played
   exactly (``pockets``);
4. the candidate of best secondary safety (the next move's safety blended
   with the second best's), with a bonus for progress and for 50/50
   influence, dead cells last (``lookahead`` and the options it reads; see
   :mod:`~cspmines.agents.exact.lookahead`);
5. with every option off: the cell least likely to be a mine, ties broken
   towards cells with fewer neighbours (a corner is likelier to open a zero).

Mines it has proved are remembered and shown to the engine as flags.

Each game is played for its own measure (the ``objective`` option,
:mod:`~cspmines.agents.exact.objectives`). Under ``minesearch`` it opens
proved mines (each must be opened anyway, and costs nothing more) and, with
nothing proved, the square of fewest expected safe openings by exhaustive
search once few layouts are left, else the square that tells most for the
safe openings it is expected to cost. Under ``score`` it flags proved mines
(they score), searches for the fewest mines set off once few layouts are
left, and otherwise plays as in ``classic``.

>>> from cspmines.games import Board, Game, play
>>> play(ExactAgent(), Game(Board.random("beginner", seed=11)), seed=0).status
'won'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...actions import Vocabulary
from ...engine.clues import clue_spreads, off_front_spreads
from ...engine.memory import current_memory
from ...engine.sampling import layouts_still_possible, sample_mines
from ...engine.solver import solve
from ...errors import InconsistentPositionError
from ...position import COVERED, FLAG, Position, neighbour_table
from ..base import Action, SeededAgent
from .candidates import candidates, likeliest_opening
from .deductions import SingleClueWatch, single_clue_deductions
from .endgame import best_move, pocket_move
from .fifty_fifty import fifty_fifty_influence, forced_fifty_fifty
from .lookahead import PLAIN, best_guess, look_ahead, ranked
from .objectives import MINES, OPENINGS, cheapest_move, information_per_cost
from .options import DEFAULT, ExactOptions, Objective, Spreads

__all__ = ["ExactAgent", "Guess", "Reason", "single_clue_deductions"]

#: After the least-cost search runs out of budget on n layouts, it is tried again at 0.7 n or fewer.
_RETRY_SHARE = 0.7


class Reason(Vocabulary):
    """The rule that chose a guess (see :class:`Guess`)."""

    FEWEST_MINES = "fewest mines"
    ENDGAME = "endgame"
    FIFTY_FIFTY = "fifty-fifty"
    PSEUDO_FIFTY_FIFTY = "pseudo fifty-fifty"
    POCKET = "pocket"
    LOOK_AHEAD = "look-ahead"
    LEAST_RISK = "least risk"
    FIRST_CORNER = "first corner"
    CORNER = "corner"
    LIKELIEST_MINE = "likeliest mine"
    FEWEST_OPENINGS = "fewest openings"
    INFORMATION = "information"


@dataclass(frozen=True)
class Guess:
    """One move of the exact agent that was not proved safe.

    ``reason`` names the rule that chose it: ``"endgame"``, ``"fifty-fifty"``,
    ``"pseudo fifty-fifty"``, ``"pocket"``, ``"look-ahead"``, ``"least risk"``
    (every option off), ``"first corner"`` and ``"corner"`` (the options
    ``first_corner`` and ``corners``); under score ``"fewest mines"`` (the
    exhaustive search for the fewest mines set off); under minesearch ``"fewest openings"``
    (its search), ``"information"`` (the most told for the cost) or, with
    ``objective=win``, ``"likeliest mine"``;
    ``safety`` is its exact chance of being safe and ``covered`` the number
    of covered cells when it was made (how far the game had gone).

    >>> from cspmines.games import Board, Game, play
    >>> guesses = []
    >>> play(ExactAgent(on_guess=guesses.append), Game(Board.random("expert", seed=1)), seed=0).status
    'lost'
    >>> guesses
    [Guess(cell=427, reason='endgame', safety=0.5, covered=101)]
    """

    cell: int
    reason: Reason
    safety: float
    covered: int


class ExactAgent(SeededAgent):
    """The strongest player we build on the exact engine (see the module docs).

    Parameters
    ----------
    options : ExactOptions, optional
        How it guesses (:class:`~cspmines.agents.exact.options.ExactOptions`);
        the defaults when omitted.
    on_analysis : callable, keyword-only
        Called with each :class:`~cspmines.engine.analysis.Analysis` (for studies).
    on_guess : callable, keyword-only
        Called with a :class:`Guess` for every move not proved safe (for
        studies of where games are lost).
    **changes
        Options changed from ``options`` by name (as ``make_agent("exact:lookahead=3")`` passes them).

    Examples
    --------
    >>> from cspmines import Position
    >>> agent = ExactAgent(lookahead=3)
    >>> agent.options.lookahead
    3
    >>> agent.reset(rules="classic", seed=0)
    >>> agent.act(Position.from_string("3x2x1\\n1..\\n1.."))   # the 1s' mine is at 1 or 4: 2 is safe
    Action(kind='open', cell=2, certain=True)
    """

    name = "exact"

    def __init__(self, options: ExactOptions | None = None, *, on_analysis=None, on_guess=None, **changes):
        self.options = (options or DEFAULT).with_changes(**changes) if changes else (options or DEFAULT)
        self.on_analysis = on_analysis  # called with every Analysis the agent computes (studies)
        self.on_guess = on_guess  # called with every Guess (where games are lost)
        super().__init__()

    def start(self) -> None:
        self.safe: set = set()
        self.mines: set = set()
        self.search_failed_at: int | None = None  # layouts when the cost search last ran out of budget
        self.guesses = 0  # made this game (``first_corner`` and ``corners`` read it)
        self.deductions = SingleClueWatch()  # single clues' proofs, read only where the board changed
        self.drawn: np.ndarray | None = None  # the layouts of the last information move, a row each (kept with ``reuse``)

    def _worth_searching(self, count: int | None) -> bool:
        """Whether the least-cost search may finish on ``count`` layouts: within ``cost_search``, and
        well below the count at which it last ran out of budget this game (layouts only ever
        shrink, and a search that failed on 18 nearly always fails on 16: each try costs the whole
        budget, 0.5 s)."""
        if not self.options.searches_costs or count is None or count > self.options.cost_search:
            return False
        return self.search_failed_at is None or count <= self.search_failed_at * _RETRY_SHARE

    def _cheapest(self, position: Position, prices, count: int):
        searched = cheapest_move(position, prices, limit=self.options.cost_search, budget=self.options.cost_budget)
        if searched is None:
            self.search_failed_at = count
        return searched

    def act(self, position: Position) -> Action:
        flat = position.grid.ravel()
        if self.rules == "classic":  # most moves open a cell proved before: nothing else is read for them
            pending = self._pending_safe(flat)
            if pending is not None:
                return Action.open(pending, certain=True)
        view = flat.tolist()  # a list reads a cell several times faster than an array, once made
        self.safe = {c for c in self.safe if view[c] == COVERED}
        self.mines = {c for c in self.mines if view[c] == COVERED or view[c] == FLAG}
        if not self.safe or self.rules == "minesearch":
            safe, mines = self.deductions(position, self.mines)
            self.safe |= safe
            self.mines |= mines
        proved = self._proved_move(flat)
        if proved is not None:
            return proved
        analysis = self._solve(position)
        if self.on_analysis is not None:
            self.on_analysis(analysis)
        self.safe |= set(analysis.safe_cells)
        self.mines |= set(analysis.mine_cells)
        proved = self._proved_move(flat)
        if proved is not None:
            return proved
        return Action.open(self._guess(position, analysis))

    def _pending_safe(self, flat) -> int | None:
        """The least proved safe cell still covered, the move classic play makes next; the cells before it
        that were opened since are dropped (the others are when the proved cells are next read whole)."""
        while self.safe:
            cell = min(self.safe)
            if flat[cell] == COVERED:
                return cell
            self.safe.discard(cell)
        return None

    def _solve(self, position: Position):
        """The engine's analysis, the mines this agent proved shown as flags: the look-ahead's own
        analysis of the board when the guess showed a clue it weighed and nothing else changed."""
        backend, max_chain = self.options.backend, self.options.max_chain
        seen = self._seen_by_engine(position)
        if max_chain is None:  # a cut solve is not what the look-ahead counted
            foreseen = current_memory().foreseen_analysis(seen, backend)
            if foreseen is not None:
                return foreseen
        try:
            return solve(seen, backend=backend, max_chain=max_chain)
        except InconsistentPositionError:
            # only a wrong flag of the caller's can do this; fall back to the position alone
            self.mines.clear()
            return solve(position, backend=backend, max_chain=max_chain)

    def _seen_by_engine(self, position: Position) -> Position:
        if not self.mines:
            return position
        grid = position.grid.copy()
        grid.flat[[c for c in self.mines if grid.flat[c] == COVERED]] = FLAG
        return Position._trusted(grid, position.mines)  # a copy of the position's grid with proved mines flagged

    def _proved_move(self, flat) -> Action | None:
        def first_pending() -> int | None:  # the first proved mine still covered (classic play never asks)
            return min((c for c in self.mines if flat[c] == COVERED), default=None)

        if self.rules == "minesearch":  # a proved safe cell would cost a cell for nothing
            pending = first_pending()
            if pending is not None:
                return Action.open(pending, certain=True)
            flagged = np.flatnonzero(flat == FLAG)
            if len(flagged) and all(c in self.safe for c in np.flatnonzero(flat == COVERED)):
                # every mine left is under a flag (a position given with flags), and a flagged cell
                # cannot be opened: lift one (a flag on a flag removes it); it stays a known mine, opened next
                self.mines.add(int(flagged[0]))
                return Action.flag(int(flagged[0]), certain=True)
            return None
        if self.safe:
            return Action.open(min(self.safe), certain=True)
        if self.rules == "score" and (pending := first_pending()) is not None:
            return Action.flag(pending, certain=True)
        return None

    def _guess(self, position: Position, analysis) -> int:
        cell, reason = self._choose_guess(position, analysis)
        if self.on_guess is not None:
            safety = 1.0 - analysis.probability(cell, exact=False)
            self.on_guess(Guess(cell, reason, safety, len(position.covered_cells)))
        return cell

    def _choose_guess(self, position: Position, analysis) -> tuple[int, Reason]:
        """(the cell to guess, which rule chose it: see :class:`Guess`)."""
        options = self.options
        objective = options.objective_for(self.rules)
        self.guesses += 1
        first = self.guesses == 1
        if self.rules == "minesearch":
            return self._minesearch_guess(position, analysis, objective)
        count = analysis.model_count
        if objective is Objective.MINES and self._worth_searching(count):
            searched = self._cheapest(analysis.position, MINES, count)
            if searched is not None:
                return searched[0], Reason.FEWEST_MINES
        choice = self._least_risky(analysis)
        if objective is Objective.WIN and options.searches_endgame and count is not None and count <= options.endgame:
            searched = best_move(analysis.position, limit=options.endgame)  # the engine's view, flags added
            if searched is not None:
                return searched[0], Reason.ENDGAME
        if options.fifty_fifty:
            pair = forced_fifty_fifty(analysis)
            if pair is not None:
                return min(pair), Reason.FIFTY_FIFTY
        spread = self._influence_spread(analysis)
        if spread is not None:
            pseudo = spread.pseudo
            if (
                options.fifty_fifty
                and pseudo is not None
                and pseudo not in self.mines
                and not look_ahead(analysis, pseudo, PLAIN.with_changes(backend=options.backend)).dead  # a dead one tells nothing
            ):
                return pseudo, Reason.PSEUDO_FIFTY_FIFTY
        if options.plays_pockets:
            played = pocket_move(analysis, limit=options.pockets)
            if played is not None:
                return played[0], Reason.POCKET
        if options.looks_ahead:
            cells, multipliers = candidates(analysis, choice, spread, options, exclude=self.mines)
            chosen = best_guess(analysis, cells, options, influence=multipliers, hotspots=self._hotspots(spread))
            corner = self._corner_instead(analysis, chosen.cell, first)
            if corner is not None:
                return corner
            # the next solve is one of these when the cell shows a clue: the engine keeps them
            current_memory().foresee(chosen.afters.values(), self.options.backend)
            return chosen.cell, Reason.LOOK_AHEAD
        return choice, Reason.LEAST_RISK

    def _corner_instead(self, analysis, cell: int, first: bool) -> tuple[int, Reason] | None:
        """(a corner, the rule) that takes the look-ahead's guess at ``cell``, or None: Hill's habits,
        each an option, off by default (``first_corner``, ``corners``)."""
        options = self.options
        if first and options.research.goes_to_corner_first and self._bottom_left_instead(analysis, cell):
            return self._bottom_left(analysis.position), Reason.FIRST_CORNER
        if options.research.opens_corners and self.guesses >= options.research.corners and self._off_front(analysis, cell):
            opening = likeliest_opening(analysis, exclude=self.mines)
            if opening is not None and opening != cell and analysis.probability(opening) == analysis.probability(cell):
                return opening, Reason.CORNER
        return None

    @staticmethod
    def _bottom_left(position: Position) -> int:
        return (position.height - 1) * position.width  # Hill's solver's first guess

    def _bottom_left_instead(self, analysis, cell: int) -> bool:
        """Whether ``first_corner`` sends the guess at ``cell`` to the bottom-left corner: covered,
        off the front, not proved a mine and at most ``first_corner`` less safe."""
        corner = self._bottom_left(analysis.position)
        if corner == cell or corner in self.mines or analysis.position.grid.flat[corner] != COVERED:
            return False
        if not self._off_front(analysis, corner):
            return False
        return analysis.probability(corner) <= analysis.probability(cell) + self.options.research.first_corner

    @staticmethod
    def _off_front(analysis, cell: int) -> bool:
        return not any(cell in report.cells for report in analysis.components)

    def _minesearch_guess(self, position: Position, analysis, objective: Objective) -> tuple[int, Reason]:
        """Minesearch: the square of least expected safe openings by exhaustive search once few
        layouts are left, else the one that tells most for what it is expected to cost (``openings``);
        the likeliest mine otherwise."""
        table = position.neighbours
        if objective is not Objective.OPENINGS:
            unproved = [c for c in position.covered_cells if c not in self.safe]
            return max(unproved, key=lambda c: (analysis.probability(c), -len(table(c)), -c)), Reason.LIKELIEST_MINE
        options = self.options
        count = analysis.model_count
        if self._worth_searching(count):
            searched = self._cheapest(analysis.position, OPENINGS, count)
            if searched is not None:
                return searched[0], Reason.FEWEST_OPENINGS
        cells = [c for c in position.covered_cells if c not in self.mines]
        spreads = self._exact_spreads(analysis, cells)
        layouts = None
        if options.clue_samples and len(spreads) < len(cells):  # some square's spread is read from layouts
            seed = int(self.rng.integers(2**63))
            reusing = options.research.reuse and self.drawn is not None
            kept = layouts_still_possible(analysis.position, self.drawn)[: options.clue_samples] if reusing else None
            fresh = options.clue_samples - (0 if kept is None else len(kept))
            layouts = sample_mines(analysis.position, fresh, seed=seed, backend=options.backend)
            self.drawn = layouts = layouts if kept is None else np.concatenate([kept, layouts])
        ratios = information_per_cost(analysis, cells, layouts=layouts, spreads=spreads, cost_power=options.cost_power)
        return max(ratios, key=lambda c: (ratios[c], -c)), Reason.INFORMATION

    def _exact_spreads(self, analysis, cells) -> dict:
        """The clue spreads the information rule reads exactly (``spreads``), by square."""
        where = self.options.spreads
        if analysis.model_count is None or analysis.mines is None:  # estimates (max_chain, a budget): no count to share
            return {}
        if where is Spreads.EXACT:
            return clue_spreads(analysis, cells, backend=self.options.backend)
        return off_front_spreads(analysis, cells) if where is Spreads.OFF_FRONT else {}

    def _influence_spread(self, analysis):
        """The position's 50/50 influence when the look-ahead weighs it, else None."""
        return fifty_fifty_influence(analysis, backend=self.options.backend) if self.options.weighs_influence else None

    def _hotspots(self, spread) -> tuple:
        """The risk hotspots the look-ahead charges for (none unless ``hotspots`` is on)."""
        return spread.hotspots if self.options.research.hotspots and spread is not None else ()

    def _least_risky(self, analysis) -> int:
        """The cell least likely to be a mine, ties to the one with fewest neighbours (a corner
        is likelier to open a zero), then the first. Played for the fewest mines set off (score),
        ties go to the most neighbours instead: there every square is opened in the end, and
        the one whose clue tells most spares the most guesses later (measured on 4x4: +0.012
        at 14 mines over 2,000 boards, level or better at 6 and 11)."""
        position = analysis.position
        table = neighbour_table(position.width, position.height)  # every cell's neighbours, kept
        (best,) = analysis.least_probabilities(1, keep=lambda c: c not in self.mines)
        tied = [c for c in analysis.cells_where(lambda p: p == best) if c not in self.mines]
        sign = -1 if self.options.objective_for(self.rules) is Objective.MINES else 1
        return min(tied, key=lambda c: (sign * len(table[c]), c))

    def weigh(self, analysis) -> list:
        """The look-ahead's candidates on ``analysis`` as it weighs them, best first.

        Each is a full :class:`~cspmines.agents.exact.lookahead.Lookahead`
        (none cut short, so every score is exact); they are ranked as the
        agent ranks them: living cells by score, then (with ``avoid_dead``)
        dead ones by secondary safety, ties in candidate order. The first is
        the cell the look-ahead opens (before a ``dominance`` swap). For a
        study of why a guess was made; the agent itself prunes and does not
        call this.

        >>> from cspmines import Position, solve
        >>> views = ExactAgent().weigh(solve(Position.from_string("4x2x2\\n1...\\n1...")))
        >>> [(view.cell, view.safety, view.dead) for view in views]   # 2, 3, 6 and 7 are safer but can only show 1
        [(1, 0.5, False), (5, 0.5, False), (3, 0.75, True), (2, 0.75, True), (6, 0.75, True), (7, 0.75, True)]
        """
        options = self.options
        spread = self._influence_spread(analysis)
        cells, multipliers = candidates(analysis, self._least_risky(analysis), spread, options, exclude=self.mines)
        hotspots = self._hotspots(spread)
        views = [look_ahead(analysis, cell, options, influence=(multipliers or {}).get(cell, 1.0), hotspots=hotspots) for cell in cells]
        living = [view for view in views if not (view.dead and options.avoid_dead)]
        dead = [view for view in views if view.dead and options.avoid_dead]
        return ranked(living, lambda view: view.score(options.progress)) + ranked(dead, lambda view: view.secondary)

