"""The exact agent's play: proofs kept, the engine called, and the chain of guessing rules.

Each move: open a cell already proved safe (proofs are kept between moves);
otherwise try single-clue deductions, which are cheap; otherwise call the
full engine, keep every proved cell, and if nothing is proved guess by the
first of these rules that chooses, in this order (:attr:`ExactAgent.GUESS_RULES`,
each a method returning a choice or None; each switched by
:class:`~cspmines.agents.exact.options.ExactOptions`):

1. played for the fewest mines set off (``objective``, as under ``score``),
   with few layouts left: the move of least expected mines, by exhaustive
   search of the game tree (``cost_search``);
2. played to win, with few layouts left: the move of the best chance of
   winning, by exhaustive search of the game tree (``endgame``);
3. a forced 50/50, which must be guessed some time (``fifty_fifty``);
4. a cell that is a mine only as half of a 50/50, unless it is dead
   (``fifty_fifty`` and ``influence``);
5. the best move inside an isolated pocket, a game of its own played
   exactly (``pockets``);
6. the candidate of best secondary safety (the next move's safety blended with the second best's),
   with a bonus for progress and for 50/50 influence, dead cells last (``lookahead`` and the options
   it reads; see :mod:`~cspmines.agents.exact.lookahead`), or a corner in its place where a research
   switch says so (``first_corner``, ``corners``);
7. with every option off: the cell least likely to be a mine, ties broken
   towards cells with fewer neighbours (a corner is likelier to open a zero).

Mines it has proved are remembered and shown to the engine as flags.

Each game is played for its own measure (the ``objective`` option,
:mod:`~cspmines.agents.exact.objectives`). Under ``score`` it flags proved
mines (they score) and guesses by the rules above. Under ``minesearch`` it
opens proved mines (each must be opened anyway, and costs nothing more) and,
with nothing proved, guesses by its own rules (:attr:`ExactAgent.MINESEARCH_RULES`):
1. not played for the fewest openings, the likeliest mine; 2. with few
layouts left, the square of fewest expected safe openings by exhaustive
search; 3. the square that tells most for the safe openings it is expected
to cost.

>>> from cspmines.games import Board, Game, play
>>> play(ExactAgent(), Game(Board.random("beginner", seed=11)), seed=0).status
'won'
"""

from __future__ import annotations

import numpy as np

from ...actions import Rules
from ...engine.budget import Limit
from ...engine.clues import clue_spreads, off_front_spreads
from ...engine.engine import Engine, default_engine
from ...engine.sampling import layouts_still_possible, sample_mines
from ...engine.singleclue import single_clue_deductions
from ...errors import InconsistentPositionError
from ...position import COVERED, FLAG, Position, neighbour_table
from ..base import Action, SeededAgent
from .candidates import candidates
from .corners import corner_instead
from .deductions import SingleClueWatch
from .endgame import best_play, pocket_move
from .fifty_fifty import fifty_fifty_influence, forced_fifty_fifty
from .guesses import Guess, Reason
from .lookahead import PLAIN, best_guess, look_ahead, ranked
from .objectives import MINES, OPENINGS, cheapest_move, information_per_cost
from .options import DEFAULT, ExactOptions, Objective, Spreads

__all__ = ["ExactAgent", "Guess", "Reason", "single_clue_deductions"]

#: After the least-cost search runs out of budget on n layouts, it is tried again at 0.7 n or fewer.
_RETRY_SHARE = 0.7
_NOT_YET = object()  # a memo not yet filled
_CLASSIC, _MINESEARCH, _SCORE = Rules.CLASSIC, Rules.MINESEARCH, Rules.SCORE  # read once a move: see cspmines.actions


class _Turn:
    """One guess being chosen: what the guessing rules read, each part worked out once, when a rule
    first asks (plain memos: a cached_property takes a lock on every read)."""

    def __init__(self, agent: ExactAgent, position: Position, analysis, objective: Objective):
        self.agent, self.position, self.analysis, self.objective = agent, position, analysis, objective
        self._least_risky: int | None = None
        self._influence: object = _NOT_YET  # (None is an answer: influence not weighed)

    @property
    def least_risky(self) -> int:
        """The cell least likely to be a mine (:meth:`ExactAgent._least_risky`)."""
        if self._least_risky is None:
            self._least_risky = self.agent._least_risky(self.analysis)
        return self._least_risky

    @property
    def influence(self):
        """The position's 50/50 influence when the look-ahead weighs it, else None."""
        if self._influence is _NOT_YET:
            self._influence = self.agent._influence_spread(self.analysis)
        return self._influence


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
    engine : Engine, keyword-only
        The engine it solves with (of the options' ``backend``); by default the thread's default
        engine of that backend when each game starts (:func:`cspmines.engine.engine.default_engine`).
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

    def __init__(self, options: ExactOptions | None = None, *, on_analysis=None, on_guess=None, engine: Engine | None = None, **changes):
        self.options = (options or DEFAULT).with_changes(**changes) if changes else (options or DEFAULT)
        self.on_analysis = on_analysis  # called with every Analysis the agent computes (studies)
        self.on_guess = on_guess  # called with every Guess (where games are lost)
        self._given_engine = engine
        self._limit = None if self.options.max_chain is None else Limit(max_chain=self.options.max_chain)
        super().__init__()

    def start(self) -> None:
        self.engine = self._given_engine or default_engine(self.options.backend)  # the thread's that plays, unless given
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
        if self.rules == _CLASSIC:  # most moves open a cell proved before: nothing else is read for them
            pending = self._pending_safe(flat)
            if pending is not None:
                return Action.open(pending, certain=True)
        view = flat.tolist()  # a list reads a cell several times faster than an array, once made
        self.safe = {c for c in self.safe if view[c] == COVERED}
        self.mines = {c for c in self.mines if view[c] == COVERED or view[c] == FLAG}
        if not self.safe or self.rules == Rules.MINESEARCH:
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
        engine = self.engine
        seen = self._seen_by_engine(position)
        if self._limit is None:  # a cut solve is not what the look-ahead counted
            foreseen = engine.cache.foreseen_analysis(seen, engine.backend_name)
            if foreseen is not None:
                return foreseen
        try:
            return engine.solve(seen, limit=self._limit)
        except InconsistentPositionError:
            # only a wrong flag of the caller's can do this; fall back to the position alone
            self.mines.clear()
            return engine.solve(position, limit=self._limit)

    def _seen_by_engine(self, position: Position) -> Position:
        if not self.mines:
            return position
        grid = position.grid.copy()
        grid.flat[[c for c in self.mines if grid.flat[c] == COVERED]] = FLAG
        return Position._trusted(grid, position.mines)  # a copy of the position's grid with proved mines flagged

    def _proved_move(self, flat) -> Action | None:
        def first_pending() -> int | None:  # the first proved mine still covered (classic play never asks)
            return min((c for c in self.mines if flat[c] == COVERED), default=None)

        if self.rules == _MINESEARCH:  # a proved safe cell would cost a cell for nothing
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
        if self.rules == _SCORE and (pending := first_pending()) is not None:
            return Action.flag(pending, certain=True)
        return None

    def _guess(self, position: Position, analysis) -> int:
        cell, reason = self._choose_guess(position, analysis)
        if self.on_guess is not None:
            safety = 1.0 - analysis.probability(cell, exact=False)
            self.on_guess(Guess(cell, reason, safety, len(position.covered_cells)))
        return cell

    def _choose_guess(self, position: Position, analysis) -> tuple[int, Reason]:
        """(the cell to guess, which rule chose it: see :class:`Guess`): the first answer of the
        game's rules, walked in order (:attr:`GUESS_RULES`, or under minesearch :attr:`MINESEARCH_RULES`)."""
        self.guesses += 1
        turn = _Turn(self, position, analysis, self.options.objective_for(self.rules))
        rules = self.MINESEARCH_RULES if self.rules == Rules.MINESEARCH else self.GUESS_RULES
        for rule in rules:
            chosen = rule(self, turn)
            if chosen is not None:
                return chosen
        raise AssertionError("the last guessing rule always chooses")  # pragma: no cover

    # -- the guessing rules, in the module docs' order: each a choice or None (not its turn) --------

    def _fewest_mines(self, turn: _Turn) -> tuple[int, Reason] | None:
        """1. Played for the fewest mines set off, with few layouts left: the move of least expected mines."""
        count = turn.analysis.model_count
        if turn.objective is not Objective.MINES or not self._worth_searching(count):
            return None
        searched = self._cheapest(turn.analysis.position, MINES, count)
        return None if searched is None else (searched[0], Reason.FEWEST_MINES)

    def _endgame(self, turn: _Turn) -> tuple[int, Reason] | None:
        """2. Played to win, with at most ``endgame`` layouts left: the move of the best chance of winning."""
        options, count = self.options, turn.analysis.model_count
        if turn.objective is not Objective.WIN or not options.searches_endgame or count is None or count > options.endgame:
            return None
        cell = best_play(turn.analysis.position, states=options.endgame_states)  # the engine's view, flags added
        return None if cell is None else (cell, Reason.ENDGAME)

    def _forced_fifty_fifty(self, turn: _Turn) -> tuple[int, Reason] | None:
        """3. A forced 50/50: a coin flip that must be taken some time, so it loses nothing now."""
        pair = forced_fifty_fifty(turn.analysis) if self.options.fifty_fifty else None
        return None if pair is None else (min(pair), Reason.FIFTY_FIFTY)

    def _pseudo_fifty_fifty(self, turn: _Turn) -> tuple[int, Reason] | None:
        """4. A cell that is a mine only as half of a 50/50, unless it is dead (it would tell nothing)."""
        spread = turn.influence if self.options.fifty_fifty else None
        pseudo = None if spread is None else spread.pseudo
        if pseudo is None or pseudo in self.mines:
            return None
        if look_ahead(turn.analysis, pseudo, PLAIN).dead:  # (the look-ahead solves by the analysis's engine)
            return None
        return pseudo, Reason.PSEUDO_FIFTY_FIFTY

    def _pocket(self, turn: _Turn) -> tuple[int, Reason] | None:
        """5. The best move inside an isolated pocket of at most ``pockets`` layouts, played exactly."""
        options = self.options
        played = pocket_move(turn.analysis, most=options.pockets, states=options.endgame_states) if options.plays_pockets else None
        return None if played is None else (played[0], Reason.POCKET)

    def _look_ahead(self, turn: _Turn) -> tuple[int, Reason] | None:
        """6. The candidate of best score (:func:`~cspmines.agents.exact.lookahead.best_guess`), or a
        corner in its place where a research switch sends it there."""
        options, analysis = self.options.at_stage(turn.position), turn.analysis
        if not options.looks_ahead:
            return None
        spread = turn.influence
        cells, multipliers = candidates(analysis, turn.least_risky, spread, options, exclude=self.mines)
        chosen = best_guess(analysis, cells, options, influence=multipliers, hotspots=self._hotspots(spread))
        research = options.research
        if research.goes_to_corner_first or research.opens_corners:  # Hill's corner habits, research switches
            corner = corner_instead(analysis, chosen.cell, research, guesses=self.guesses, mines=self.mines)
            if corner is not None:
                return corner
        # the next solve is one of these when the cell shows a clue: the engine keeps them
        self.engine.cache.foresee(chosen.afters.values(), self.engine.backend_name)
        return chosen.cell, Reason.LOOK_AHEAD

    def _least_risk(self, turn: _Turn) -> tuple[int, Reason]:
        """7. The cell least likely to be a mine (see :meth:`_least_risky`): always a choice."""
        return turn.least_risky, Reason.LEAST_RISK

    def _likeliest_mine(self, turn: _Turn) -> tuple[int, Reason] | None:
        """Minesearch 1. Not played for the fewest openings: the likeliest mine, ties to fewer neighbours."""
        if turn.objective is Objective.OPENINGS:
            return None
        position, analysis = turn.position, turn.analysis
        table = position.neighbours
        unproved = [c for c in position.covered_cells if c not in self.safe]
        return max(unproved, key=lambda c: (analysis.probability(c), -len(table(c)), -c)), Reason.LIKELIEST_MINE

    def _fewest_openings(self, turn: _Turn) -> tuple[int, Reason] | None:
        """Minesearch 2. With few layouts left: the square of least expected safe openings, by exhaustive search."""
        count = turn.analysis.model_count
        if not self._worth_searching(count):
            return None
        searched = self._cheapest(turn.analysis.position, OPENINGS, count)
        return None if searched is None else (searched[0], Reason.FEWEST_OPENINGS)

    def _most_information(self, turn: _Turn) -> tuple[int, Reason]:
        """Minesearch 3. The square that tells most for the safe openings it is expected to cost."""
        options, analysis = self.options, turn.analysis
        cells = [c for c in turn.position.covered_cells if c not in self.mines]
        spreads = self._exact_spreads(analysis, cells)
        layouts = self._drawn_layouts(analysis) if options.clue_samples and len(spreads) < len(cells) else None
        ratios = information_per_cost(analysis, cells, layouts=layouts, spreads=spreads, cost_power=options.cost_power)
        return max(ratios, key=lambda c: (ratios[c], -c)), Reason.INFORMATION

    #: The rules of classic and score games, in order: the first that chooses makes the guess.
    GUESS_RULES = (_fewest_mines, _endgame, _forced_fifty_fifty, _pseudo_fifty_fifty, _pocket, _look_ahead, _least_risk)
    #: Minesearch's rules, in order.
    MINESEARCH_RULES = (_likeliest_mine, _fewest_openings, _most_information)

    def _drawn_layouts(self, analysis) -> np.ndarray:
        """``clue_samples`` layouts drawn uniformly from the position with the agent's seed, a row each
        (with ``reuse``, those of the last information move still possible, and only the rest drawn)."""
        options = self.options
        seed = int(self.rng.integers(2**63))
        reusing = options.research.reuse and self.drawn is not None
        kept = layouts_still_possible(analysis.position, self.drawn)[: options.clue_samples] if reusing else None
        fresh = options.clue_samples - (0 if kept is None else len(kept))
        layouts = sample_mines(analysis.position, fresh, engine=self.engine, seed=seed)
        self.drawn = layouts = layouts if kept is None else np.concatenate([kept, layouts])
        return layouts

    def _exact_spreads(self, analysis, cells) -> dict:
        """The clue spreads the information rule reads exactly (``spreads``), by square."""
        where = self.options.spreads
        if analysis.model_count is None or analysis.mines is None:  # estimates (max_chain, a budget): no count to share
            return {}
        if where is Spreads.EXACT:
            return clue_spreads(analysis, cells)  # by the engine that solved it
        return off_front_spreads(analysis, cells) if where is Spreads.OFF_FRONT else {}

    def _influence_spread(self, analysis):
        """The position's 50/50 influence when the look-ahead weighs it, else None."""
        return fifty_fifty_influence(analysis) if self.options.weighs_influence else None

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
        return min(zip([sign * len(table[c]) for c in tied], tied, strict=True))[1]  # pairs compared in C: no key called per cell

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
        options = self.options.at_stage(analysis.position)
        spread = self._influence_spread(analysis)
        cells, multipliers = candidates(analysis, self._least_risky(analysis), spread, options, exclude=self.mines)
        hotspots = self._hotspots(spread)
        views = [look_ahead(analysis, cell, options, influence=(multipliers or {}).get(cell, 1.0), hotspots=hotspots) for cell in cells]
        living = [view for view in views if not (view.dead and options.avoid_dead)]
        dead = [view for view in views if view.dead and options.avoid_dead]
        return ranked(living, lambda view: view.score(options.progress)) + ranked(dead, lambda view: view.secondary)

