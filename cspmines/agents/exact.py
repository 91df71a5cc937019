"""The ``exact`` agent: plays on the exact engine.

Each move: open a cell already proved safe (proofs are kept between moves);
otherwise try single-clue deductions, which are cheap; otherwise call the
full engine, keep every proved cell, and if nothing is proved guess, in
this order of preference:

1. with few layouts left, the move of an exhaustive search of the game tree
   (``endgame``);
2. a forced 50/50, which must be guessed some time (``fifty_fifty``), or a
   cell that is a mine only as half of a 50/50 (``influence``);
3. the best move inside an isolated pocket, a game of its own played
   exactly (``pockets``);
4. the candidate of best secondary safety (the next move's safety blended
   with the second best's), with a bonus for progress and for 50/50
   influence, dead cells last (``lookahead``, ``margin``, ``blend``,
   ``progress``, ``influence``, ``avoid_dead``, ``dominance``; see
   :mod:`cspmines.agents.guessing`);
5. with every option off: the cell least likely to be a mine, ties broken
   towards cells with fewer neighbours (a corner is likelier to open a zero).

Mines it has proved are remembered and shown to the engine as flags.

Under ``minesearch`` it opens proved mines (each one found costs one cell
that must be opened anyway) and, with nothing proved, opens the cell most
likely to be a mine. Under ``score`` it flags proved mines (they score) and
otherwise plays as in ``classic``.

>>> from cspmines.games import Board, Game, play
>>> play(ExactAgent(), Game(Board.random("beginner", seed=11)), seed=0).status
'won'
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..constraints import neighbour_sum
from ..errors import InconsistentPositionError
from ..position import COVERED, FLAG, MINE, Position, neighbour_array
from ..solve import solve
from .base import Action, SeededAgent
from .endgame import best_move, pocket_move
from .guessing import (
    best_guess,
    fifty_fifty_influence,
    forced_fifty_fifty,
    in_small_space,
    look_ahead,
    shortlist,
)

__all__ = ["ExactAgent", "Guess", "trivial_deductions"]


@dataclass(frozen=True)
class Guess:
    """One move of the exact agent that was not proved safe.

    ``reason`` names the rule that chose it: ``"endgame"``, ``"fifty-fifty"``,
    ``"pseudo fifty-fifty"``, ``"pocket"``, ``"look-ahead"``, ``"least risk"``
    (every option off) or, under minesearch, ``"likeliest mine"``;
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
    reason: str
    safety: float
    covered: int


def trivial_deductions(position: Position, known_mines: set) -> tuple[set, set]:
    """(safe, mines) that single clues prove, counting ``known_mines`` as flags.

    >>> p = Position.from_string("3x2x1\\n1..\\n1..")
    >>> trivial_deductions(p, set())
    (set(), set())
    >>> trivial_deductions(Position.from_string("3x1x1\\n01."), set())
    (set(), {2})
    """
    grid = position.grid.copy()
    if known_mines:
        grid.flat[list(known_mines)] = FLAG
    clue = grid >= 0
    covered = grid == COVERED
    covered_around = neighbour_sum(covered)
    need = np.where(clue, grid - neighbour_sum((grid == FLAG) | (grid == MINE)), -1)
    table = neighbour_array(position.width, position.height)
    flat_covered = covered.ravel()
    safe: set[int] = set()
    mines: set[int] = set()
    for source, into in (((need == 0) & (covered_around > 0), safe), ((need > 0) & (need == covered_around), mines)):
        for cell in np.flatnonzero(source).tolist():
            into.update(n for n in table[cell].tolist() if n >= 0 and flat_covered[n])
    return safe, mines


class ExactAgent(SeededAgent):
    """The strongest player we build on the exact engine (see module docs).

    Parameters
    ----------
    backend : str, keyword-only
        The engine backend.
    max_chain : int, keyword-only
        Cut chains longer than this many boxes (approximate probabilities).
    on_analysis : callable, keyword-only
        Called with each :class:`~cspmines.analysis.Analysis` (for studies).
    on_guess : callable, keyword-only
        Called with a :class:`Guess` for every move not proved safe (for
        studies of where games are lost).
    lookahead : int, keyword-only
        Secondary safety: look ahead from up to this many candidate cells
        (:func:`~cspmines.agents.guessing.shortlist`) and open the one that
        maximises "this move is safe and so is the best move after it", each
        possible clue weighted by its exact number of layouts. 0 turns it
        off (open the least likely cell). Each cell looked at costs one solve
        per clue it can show; candidates that cannot win are cut short.
    margin : float, keyword-only
        A candidate's chance of being safe may be this fraction below the
        best cell's (0.1: within 10%).
    progress : float, keyword-only
        Bonus for progress: a cell's score is its secondary safety times
        ``1 + progress * P(it is safe and its clue proves another cell)``.
    avoid_dead : bool, keyword-only
        Never look-ahead-choose a dead cell (one whose clue is the same in
        every layout where it is safe, so opening it tells nothing) while a
        living candidate remains.
    fifty_fifty : bool, keyword-only
        When a guess is needed, guess a forced 50/50 (two cells, one mine,
        that no clue can ever tell apart) before anything else.
    endgame : int, keyword-only
        With at most this many layouts left, search the game tree exhaustively
        for the move that maximises the chance of winning
        (:mod:`cspmines.agents.endgame`); 0 turns it off. Default 1000.
    blend : float, keyword-only
        In the look-ahead, value the position after a safe move as
        ``(1 - blend) * best safety + blend * second best`` (Hill blends
        0.2); 0 takes the best cell alone.
    influence : float, keyword-only
        50/50 influence (:func:`~cspmines.agents.guessing.fifty_fifty_influence`):
        a cell where a 50/50 may form earns the score bonus
        ``1 + influence * P(50/50 forms) / P(safe)`` (Hill uses 0.9), such
        cells join the shortlist, and with ``fifty_fifty`` a cell that is a
        mine only as half of a 50/50 ("a 50/50, or safe") is guessed first.
        0 turns it off.
    dominance : bool, keyword-only
        When the look-ahead's choice, if safe, proves a safer cell safe
        whatever it shows, open that cell instead (it is safe wherever the
        choice is, and more); failing that, when a shortlisted cell is the
        single safest after every clue the choice can show and is safer
        now, open it first (Hill's complex domination).
    linked : bool, keyword-only
        Count as progress only a clue that proves more than the cells that
        are safe whenever the guess is (Hill's linked tiles).
    living : bool, keyword-only
        In the look-ahead, seek the next move among cells whose clue is not
        yet known (Hill's living tiles; the test is
        :func:`~cspmines.agents.guessing.clue_is_settled`).
    off_front : int, keyword-only
        Look ahead from up to this many cells off the front too, chosen as
        Hill does (:func:`~cspmines.agents.guessing.shortlist`); 0 keeps the
        two most promising.
    space : int, keyword-only
        Put off guesses in a space of fewer than this many unknown cells
        (:func:`~cspmines.agents.guessing.in_small_space`) while a candidate
        elsewhere remains (Hill uses 8); 0 turns it off.
    pockets : int, keyword-only
        Play an isolated pocket (a chain of influence nothing else can tell
        about, every layout with the same number of mines) of at most this
        many layouts now, by the same exhaustive search
        (:func:`~cspmines.agents.endgame.pocket_move`); 0 turns it off. Default 1000.
    hotspots : bool, keyword-only
        In the look-ahead, weight each clue's next safety by how it changes
        the chance of getting past the pairs that one more mine would seal
        into a 50/50 (:class:`~cspmines.agents.guessing.Hotspot`, Hill's risk
        hotspots). Needs ``influence``, which finds them.
    next_power : float, keyword-only
        In the look-ahead, raise the next move's safety to this power (1:
        secondary safety as defined; above 1 a poor next move costs more,
        as the guess after it is likely no better).

    The defaults and what each option is worth are measured by
    ``benchmarks/guessing.py`` (the README's ablation table).

    Examples
    --------
    >>> from cspmines import Position
    >>> agent = ExactAgent(lookahead=3)
    >>> agent.reset(rules="classic", seed=0)
    >>> agent.act(Position.from_string("3x2x1\\n1..\\n1.."))   # the 1s' mine is at 1 or 4: 2 is safe
    Action(kind='open', cell=2, certain=True)
    """

    name = "exact"

    def __init__(
        self,
        *,
        backend: str = "auto",
        max_chain: int | None = None,
        on_analysis=None,
        on_guess=None,
        lookahead: int = 5,
        margin: float = 0.05,
        progress: float = 0.2,
        avoid_dead: bool = True,
        fifty_fifty: bool = True,
        endgame: int = 1000,
        pockets: int = 1000,
        blend: float = 0.2,
        influence: float = 0.9,
        dominance: bool = False,
        linked: bool = False,
        living: bool = False,
        off_front: int = 0,
        space: int = 0,
        hotspots: bool = False,
        next_power: float = 1.0,
    ):
        counts = min(lookahead, endgame, pockets, progress, influence, off_front, space, next_power)
        if counts < 0 or not 0 <= margin < 1 or not 0 <= blend <= 1:
            raise ValueError(
                "lookahead, endgame, pockets, progress, influence, off_front, space and next_power must be >= 0, "
                f"margin in [0, 1) and blend in [0, 1], got lookahead={lookahead}, endgame={endgame}, "
                f"pockets={pockets}, progress={progress}, influence={influence}, off_front={off_front}, "
                f"space={space}, next_power={next_power}, margin={margin}, blend={blend}"
            )
        self.linked = linked
        self.hotspots = hotspots
        self.next_power = next_power
        self.living = living
        self.off_front = off_front
        self.space = space
        self.blend = blend
        self.dominance = dominance
        self.influence = influence
        self.endgame = endgame
        self.lookahead = lookahead
        self.margin = margin
        self.progress = progress
        self.avoid_dead = avoid_dead
        self.fifty_fifty = fifty_fifty
        self.pockets = pockets
        self.backend = backend
        self.max_chain = max_chain  # bounded chains (an approximation), see cspmines.bounded
        self.on_analysis = on_analysis  # called with every Analysis the agent computes (studies)
        self.on_guess = on_guess  # called with every Guess (where games are lost: benchmarks/losses.py)
        super().__init__()

    def start(self) -> None:
        self.safe: set = set()
        self.mines: set = set()

    def _seen_by_engine(self, position: Position) -> Position:
        if not self.mines:
            return position
        grid = position.grid.copy()
        grid.flat[[c for c in self.mines if grid.flat[c] == COVERED]] = FLAG
        return Position(grid, mines=position.mines)

    def act(self, position: Position) -> Action:
        flat = position.grid.ravel()
        self.safe = {c for c in self.safe if flat[c] == COVERED}
        self.mines = {c for c in self.mines if flat[c] in (COVERED, FLAG)}
        if not self.safe or self.rules == "minesearch":
            safe, mines = trivial_deductions(position, self.mines)
            self.safe |= safe
            self.mines |= mines
        proved = self._proved_move(flat)
        if proved is not None:
            return proved
        try:
            analysis = solve(self._seen_by_engine(position), backend=self.backend, max_chain=self.max_chain)
        except InconsistentPositionError:
            # only a wrong flag of the caller's can do this; fall back to the position alone
            self.mines.clear()
            analysis = solve(position, backend=self.backend, max_chain=self.max_chain)
        if self.on_analysis is not None:
            self.on_analysis(analysis)
        self.safe |= set(analysis.safe_cells)
        self.mines |= set(analysis.mine_cells)
        proved = self._proved_move(flat)
        if proved is not None:
            return proved
        return Action.open(self._guess(position, analysis))

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
            safety = 1.0 - float(analysis.probability(cell))
            self.on_guess(Guess(cell, reason, safety, len(position.covered_cells)))
        return cell

    def _choose_guess(self, position: Position, analysis) -> tuple[int, str]:
        """(the cell to guess, which rule chose it: see :class:`Guess`)."""
        table = position.neighbours
        if self.rules == "minesearch":
            candidates = [c for c in position.covered_cells if c not in self.safe]
            return max(candidates, key=lambda c: (analysis.probability(c), -len(table(c)), -c)), "likeliest mine"
        choice = self._least_risky(analysis)
        if self.endgame and analysis.model_count is not None and analysis.model_count <= self.endgame:
            searched = best_move(analysis.position, limit=self.endgame)  # the engine's view, flags added
            if searched is not None:
                return searched[0], "endgame"
        if self.fifty_fifty:
            pair = forced_fifty_fifty(analysis)
            if pair is not None:
                return min(pair), "fifty-fifty"
        spread = self._influence_spread(analysis)
        if spread is not None:
            pseudo = spread.pseudo
            if (
                self.fifty_fifty
                and pseudo is not None
                and pseudo not in self.mines
                and not look_ahead(analysis, pseudo, backend=self.backend).dead  # a dead one tells nothing
            ):
                return pseudo, "pseudo fifty-fifty"
        if self.pockets:
            played = pocket_move(analysis, limit=self.pockets)
            if played is not None:
                return played[0], "pocket"
        if self.lookahead:
            return self._best_look_ahead(analysis, choice, spread), "look-ahead"
        return choice, "least risk"

    def _influence_spread(self, analysis):
        """The position's 50/50 influence (:func:`fifty_fifty_influence`) when the look-ahead uses it, else None."""
        return fifty_fifty_influence(analysis, backend=self.backend) if self.influence and self.lookahead else None

    def _least_risky(self, analysis) -> int:
        """The cell least likely to be a mine, ties to the one with fewest neighbours (a corner
        is likelier to open a zero), then the first."""
        table = analysis.position.neighbours
        (best,) = analysis.least_probabilities(1, keep=lambda c: c not in self.mines)
        tied = [c for c in analysis.cells_where(lambda p: p == best) if c not in self.mines]
        return min(tied, key=lambda c: (len(table(c)), c))

    def weigh(self, analysis) -> list:
        """The look-ahead's candidates on ``analysis`` as it weighs them, best first.

        Each is a full :class:`~cspmines.agents.guessing.Lookahead` (none cut
        short, so every score is exact); they are ranked as the agent ranks
        them: living cells by score, then (with ``avoid_dead``) dead ones by
        secondary safety, ties in candidate order. The first is the cell the
        look-ahead opens (before a ``dominance`` swap). For a study of why a
        guess was made; the agent itself prunes and does not call this.

        >>> from cspmines import Position, solve
        >>> views = ExactAgent().weigh(solve(Position.from_string("4x2x2\\n1...\\n1...")))
        >>> [(view.cell, view.safety, view.dead) for view in views]   # 2, 3, 6 and 7 are safer but can only show 1
        [(1, 0.5, False), (5, 0.5, False), (3, 0.75, True), (2, 0.75, True), (6, 0.75, True), (7, 0.75, True)]
        """
        spread = self._influence_spread(analysis)
        cells, multipliers = self.candidates(analysis, self._least_risky(analysis), spread)
        scoring = self.scoring(spread)
        views = [look_ahead(analysis, cell, influence=(multipliers or {}).get(cell, 1.0), **scoring) for cell in cells]
        living = [view for view in views if not (view.dead and self.avoid_dead)]
        dead = [view for view in views if view.dead and self.avoid_dead]
        living.sort(key=lambda view: -view.score(self.progress))
        dead.sort(key=lambda view: -view.secondary)
        return living + dead

    def _best_look_ahead(self, analysis, choice: int, spread) -> int:
        """Among the candidates, the living cell of best secondary safety (progress as a bonus,
        50/50 influence as a multiplier)."""
        cells, multipliers = self.candidates(analysis, choice, spread)
        return best_guess(
            analysis,
            cells,
            avoid_dead=self.avoid_dead,
            influence=multipliers,
            dominance=self.dominance,
            **self.scoring(spread),
        ).cell

    def candidates(self, analysis, choice: int, spread) -> tuple[list[int], dict | None]:
        """The cells the look-ahead weighs against ``choice`` (the least risky cell), and their
        50/50 influence multipliers (None without influence).

        ``spread`` is the position's :func:`fifty_fifty_influence`, or None.

        >>> from cspmines import Position, solve
        >>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
        >>> # 2 (the choice, beside the front), 3 (a corner off the front), 1 (on it, within the margin)
        >>> ExactAgent(lookahead=3, margin=0.5).candidates(analysis, 2, None)
        ([2, 3, 1], None)
        """
        cells = shortlist(analysis, size=self.lookahead, margin=self.margin, exclude=self.mines, off_front=self.off_front)
        if choice not in cells:
            cells = [choice, *cells[: self.lookahead - 1]]
        multipliers = None
        if spread is not None and spread.chance:
            def safety(cell: int) -> float:
                return 1.0 - float(analysis.probability(cell))

            floor = (1.0 - self.margin) * max(safety(c) for c in cells)
            # a cell whose mine costs a coin flip anyway may be worth more than its safety says
            extra = [c for c, chance in spread.chance.items() if c not in self.mines and safety(c) + chance >= floor]
            cells += sorted(set(extra) - set(cells), key=lambda c: (-(safety(c) + spread.chance[c]), c))
            multipliers = spread.multipliers(analysis, self.influence)
        if self.space:
            position = analysis.position
            roomy = [c for c in cells if not in_small_space(position, c, mines=self.mines, threshold=self.space)]
            cells = roomy or cells  # a guess in a small space waits while one elsewhere remains
        return cells, multipliers

    def scoring(self, spread) -> dict:
        """How the look-ahead scores a candidate: the options :func:`look_ahead` takes at this agent's settings.

        >>> ExactAgent(progress=0.5).scoring(None)["progress_weight"]
        0.5
        """
        return dict(
            progress_weight=self.progress,
            blend=self.blend,
            linked=self.linked,
            living=self.living,
            hotspots=spread.hotspots if self.hotspots and spread is not None else (),
            next_power=self.next_power,
            backend=self.backend,
        )
