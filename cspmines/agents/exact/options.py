"""The exact agent's options: one frozen, validated value, each option declared once.

Every rule of the exact agent's guessing is switched and tuned here, and
nowhere else. Each option is one field that carries its check and its
documentation (:mod:`~cspmines.agents.exact.declared`: :func:`count`,
:func:`number`, :func:`flag`, :func:`choice`, ...); the validation, the ``Parameters`` sections of the docstrings, the
options table of ``docs/agents.md`` (:func:`options_table`) and the reading
of ``exact:key=value`` specs are all derived from those fields.

:class:`ExactOptions` holds the options a user tunes;
:class:`ResearchSwitches`, its ``research`` field, the rules measured not to
pay (off by default, kept for studies). Both are set by name in the same
spec: ``exact:lookahead=3,dominance=true``.

A count of ``0`` (``lookahead``, ``endgame``, ``pockets``, ``off_front``,
``space``, ``corners``) or a weight of ``0`` (``influence``, ``progress``,
``blend``, ``first_corner``, ``early_progress``) turns its rule off; a ``bool`` option is off
when ``False`` (``false`` or ``0`` in an agent spec). The properties
``looks_ahead``, ``searches_endgame``, ``plays_pockets``, ``weighs_influence``
and ``searches_costs`` (and the research switches' ``goes_to_corner_first``,
``opens_corners``, ``spares_small_spaces`` and ``weighs_early_progress``) say which rules are on, so no
caller tests a number for truth.

>>> options = ExactOptions.parse("lookahead=3,margin=0.1,dominance=true,objective=win")
>>> options.lookahead, options.margin, options.research.dominance, options.looks_ahead
(3, 0.1, True, True)
>>> options.objective is Objective.WIN
True
>>> ExactOptions(lookahead=0).weighs_influence   # influence rides on the look-ahead
False
>>> ExactOptions.parse("lookahed=3")
Traceback (most recent call last):
...
cspmines.agents.exact.declared.OptionError: the exact agent has no option 'lookahed' (did you mean 'lookahead'?); its options are avoid_dead, backend, blend, clue_samples, corners, cost_budget, cost_power, cost_search, dominance, early_progress, early_share, endgame, endgame_states, fifty_fifty, first_corner, hotspots, influence, linked, living, lookahead, margin, max_chain, next_power, objective, off_front, pockets, progress, reuse, space, spreads
>>> ExactOptions.parse("lookahead=abc")
Traceback (most recent call last):
...
cspmines.agents.exact.declared.OptionError: exact option lookahead=abc is invalid: it takes a whole number >= 0
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, fields, replace

import numpy as np

from ...actions import Rules, Vocabulary
from ...cells import COVERED, FLAG
from .declared import Checked, OptionError, choice, count, declared, flag, group, named, number, optional_count, spec_word, table

__all__ = ["OBJECTIVES", "ExactOptions", "Objective", "OptionError", "ResearchSwitches", "Spreads", "options_table", "spec_defaults"]


class Objective(Vocabulary):
    """What the agent plays for: ``auto`` picks by the game's rules (see :meth:`ExactOptions.objective_for`)."""

    AUTO = "auto"
    WIN = "win"
    OPENINGS = "openings"
    MINES = "mines"


class Spreads(Vocabulary):
    """Where minesearch's information rule reads a square's clue spread exactly (the rest from drawn layouts)."""

    DRAWN = "drawn"
    OFF_FRONT = "off_front"
    EXACT = "exact"


#: The objectives' words.
OBJECTIVES = Objective.words()
_BY_RULES: dict[str, Objective] = {Rules.CLASSIC: Objective.WIN, Rules.MINESEARCH: Objective.OPENINGS, Rules.SCORE: Objective.MINES}


# -- the options --------------------------------------------------------------------------


@declared
@dataclass(frozen=True)
class ResearchSwitches(Checked):
    """Rules of the exact agent measured not to pay: all off by default, kept for studies.

    Each is set by its own name in an agent spec, beside the tuned options
    (``exact:dominance=true``), and read as ``options.research.dominance``.
    What each was worth is in the strength notes in ``docs/``.

    Examples
    --------
    >>> ExactOptions.parse("corners=2").research.opens_corners, ResearchSwitches().opens_corners
    (True, False)
    """

    first_corner: float = number(0.0, below=1, doc="""
        Hill's first guess: the game's first guess, when the look-ahead makes
        it, goes to the bottom-left corner instead if that corner is covered,
        off the front and at most this much less safe than the look-ahead's
        cell. 0: off.
        """)
    corners: int = count(0, doc="""
        From the game's ``corners``-th guess on, a look-ahead guess off the
        front opens instead the cell off the front with the fewest covered
        neighbours. A corner while one is left (as safe: every cell off the
        front is), whose zero may open a region where the look-ahead's cell
        beside the front tells only about the next move. 0: off.
        """)
    dominance: bool = flag(False, doc="""
        Open a safer cell that the look-ahead's choice proves safe (or that is
        the single safest after every clue it can show) instead of the choice.
        """)
    linked: bool = flag(False, doc="""
        Count as progress only a clue that proves more than the cells safe whenever the guess is.
        """)
    reuse: bool = flag(False, doc="""
        Keep the layouts drawn for the last information move that the board still allows, and draw
        only the rest of ``clue_samples``. They stay uniform (rejection sampling). Faster; off by
        default until paired play shows it level.
        """)
    hotspots: bool = flag(False, doc="""
        Weight each clue's next safety by the pairs one more mine would seal into a 50/50.
        Needs ``influence``, which finds them.
        """)
    early_progress: float = number(0.0, doc="""
        The progress weight in the opening, while at least ``early_share`` of the board is covered
        (a clue that proves cells there, a zero above all, may open up more than the next move's
        safety tells). 0: off, ``progress`` throughout.
        """)
    early_share: float = number(0.8, below=1, doc="""
        The covered share of the board from which ``early_progress`` is the progress weight.
        """)
    space: int = count(0, doc="""
        Put off guesses in a space of fewer than this many unknown cells while another remains. 0: off.
        """)

    # -- which rules are on: the one place where 0 means off ----------------------------------
    goes_to_corner_first = property(lambda self: self.first_corner > 0, doc="The first guess may go to a corner.")
    opens_corners = property(lambda self: self.corners > 0, doc="Guesses off the front go to corners.")
    weighs_early_progress = property(lambda self: self.early_progress > 0, doc="The opening has a progress weight of its own.")
    spares_small_spaces = property(lambda self: self.space > 0, doc="Guesses in small spaces wait.")


@declared
@dataclass(frozen=True)
class ExactOptions(Checked):
    """How the exact agent guesses; every field is checked when the value is made.

    The defaults, and what each rule is worth, are measured by
    ``research/guessing.py`` (see the strength notes in ``docs/``).

    Examples
    --------
    >>> ExactOptions(margin=1.5)
    Traceback (most recent call last):
    ...
    cspmines.agents.exact.declared.OptionError: exact option margin=1.5 is invalid: it takes a number in [0, 1)
    """

    backend: str = named("auto", what="backend", doc="""
        The engine backend (:func:`cspmines.engine.backends.get_backend`).
        """)
    max_chain: int | None = optional_count(None, doc="""
        Cut chains longer than this many boxes (approximate probabilities, :mod:`cspmines.engine.bounded`).
        """)
    lookahead: int = count(30, doc="""
        Look ahead from up to this many candidate cells and open the one that
        maximises "this move is safe and so is the best move after it"
        (secondary safety), each clue weighted by its exact number of layouts
        (:func:`~cspmines.agents.exact.candidates.shortlist`). 0: open the
        least likely cell.
        """)
    margin: float = number(0.1, below=1, doc="""
        A candidate's safety may be this fraction below the best cell's.
        """)
    progress: float = number(0.001, doc="""
        Score bonus: secondary safety times ``1 + progress * P(safe and its clue proves a cell)``.
        The default, 0.001, only breaks ties between cells otherwise worth the same.
        """)
    avoid_dead: bool = flag(True, doc="""
        Never choose a dead cell (its clue is the same in every layout where
        it is safe) while a living candidate remains.
        """)
    fifty_fifty: bool = flag(True, doc="""
        Guess a forced 50/50 (two cells no clue can ever tell apart) before anything else.
        """)
    endgame: int = count(6000, doc="""
        With at most this many layouts left, play the move of best play: the value of the position
        searched to the game's end (:mod:`cspmines.agents.exact.endgame`), within ``endgame_states``.
        0: off.
        """)
    endgame_states: int = count(300_000, least=1, doc="""
        The search states the endgame's value search may visit (a count, not a time, so that a game
        plays the same moves on every machine); past them the agent guesses by its other rules.
        More, with a larger ``endgame``, for studies (as Hill's large analysis spends more).
        """)
    pockets: int = count(6000, doc="""
        Play an isolated pocket of at most this many layouts by the same search. 0: off.
        """)
    blend: float = number(0.2, most=1, doc="""
        Value the position after a safe move as ``(1 - blend) * best + blend * second best`` safety.
        """)
    influence: float = number(0.9, doc="""
        50/50 influence: the score bonus ``1 + influence * P(50/50 forms) / P(safe)``
        (:func:`~cspmines.agents.exact.fifty_fifty.fifty_fifty_influence`). Such
        cells join the shortlist, and with ``fifty_fifty`` a "50/50 or safe"
        cell is guessed first. 0: off (and off whenever ``lookahead`` is 0).
        """)
    living: bool = flag(True, doc="""
        Seek the next move among cells whose clue is not yet known (a safe cell
        that can tell nothing does not make the next move safe).
        """)
    spreads: Spreads = choice(Spreads.OFF_FRONT, doc="""
        Where minesearch's information rule reads a square's clue spread exactly (:mod:`cspmines.engine.clues`).
        ``off_front`` (the default) for every square whose undecided neighbours all lie off the
        front, in closed form, the squares by the front from ``clue_samples`` drawn layouts (none
        drawn when no square is by the front); ``exact`` for every square (those by the front by
        revealing each clue and counting: no layouts drawn, several times slower, measured level);
        ``drawn`` every square from the layouts.
        """)
    off_front: int = count(0, doc="""
        Look ahead from up to this many cells off the front too; 0 keeps the two most promising.
        """)
    next_power: float = number(1.0, doc="""
        Raise the next move's safety to this power in the look-ahead.
        """)
    objective: Objective = choice(Objective.AUTO, doc="""
        What a guess plays for; ``auto`` (the default) plays each game's own measure.
        ``win``: the chance of winning (classic); ``openings``: the fewest safe
        squares opened (minesearch: every mine is opened anyway); ``mines``: the
        fewest mines set off (score: every safe square is opened anyway). Under
        minesearch ``win`` has no meaning and plays the earlier rule: open the
        likeliest mine. See :mod:`~cspmines.agents.exact.objectives`.
        """)
    cost_search: int = count(30, doc="""
        With at most this many layouts left, the ``openings`` and ``mines``
        objectives search their game tree exhaustively for the least expected
        cost. Their costs prune less than the chance of winning does, so the
        limit is lower than ``endgame``'s. 0: off.
        """)
    cost_budget: int = count(20_000, least=1, doc="""
        The states that search may visit before it gives up (and the agent
        falls back on its other rules).
        """)
    clue_samples: int = count(200, doc="""
        ``openings`` with more layouts than ``cost_search``: open the square
        that tells most for what it costs
        (:func:`~cspmines.agents.exact.objectives.information_per_cost`),
        reading each square's clue spread from this many layouts drawn
        uniformly from the position (with the agent's seed). 0: take the
        neighbours as independent instead (faster, a little weaker).
        """)
    cost_power: float = number(0.7, doc="""
        That choice's weight on cost: information over expected safe squares
        to this power (1: bits per square; lower leans towards information).
        """)
    research: ResearchSwitches = group(ResearchSwitches(), doc="""
        The rules measured not to pay (:class:`ResearchSwitches`), each set by its own name.
        """)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every option's name, the research switches' too, sorted.

        >>> ExactOptions.names()[:3]
        ('avoid_dead', 'backend', 'blend')
        """
        return tuple(sorted((*_TUNED, *_RESEARCH)))

    @classmethod
    def from_mapping(cls, values: dict) -> ExactOptions:
        """Options from a mapping of names to values (unknown names are refused by name).

        >>> ExactOptions.from_mapping({"lookahead": "4", "space": "8"}).research.space
        8
        """
        return DEFAULT.with_changes(**values)

    @classmethod
    def parse(cls, text: str) -> ExactOptions:
        """Options from ``"key=value,key=value"`` (the part after ``exact:`` in an agent spec).

        >>> ExactOptions.parse("")  == ExactOptions()
        True
        """
        values = {}
        for part in filter(None, (p.strip() for p in text.split(","))):
            key, equals, value = part.partition("=")
            if not equals or not key.strip():
                raise OptionError(f"exact option {part!r} is not key=value")
            values[key.strip()] = value.strip()
        return cls.from_mapping(values)

    def with_changes(self, **changes) -> ExactOptions:
        """A copy with some options changed, research switches by their own names too (unknown
        names are refused by name).

        >>> ExactOptions().with_changes(endgame=0, linked=True).research.linked
        True
        """
        unknown = sorted(set(changes) - set(_TUNED) - set(_RESEARCH) - {"research"})
        if unknown:
            close = difflib.get_close_matches(unknown[0], self.names(), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise OptionError(f"the exact agent has no option {unknown[0]!r}{hint}; its options are {', '.join(self.names())}")
        switches = {key: changes.pop(key) for key in _RESEARCH if key in changes}
        if switches:
            changes["research"] = replace(changes.get("research", self.research), **switches)
        return replace(self, **changes)

    def progress_weight(self, covered: int, cells: int) -> float:
        """The progress weight with ``covered`` of a board's ``cells`` covered: with the research switch
        ``early_progress`` on, that weight from ``early_share`` of them on; else ``progress``.

        >>> options = ExactOptions.parse("progress=0.001,early_progress=0.2,early_share=0.8")
        >>> options.progress_weight(80, 100), options.progress_weight(79, 100), ExactOptions().progress_weight(80, 100)
        (0.2, 0.001, 0.001)
        """
        research = self.research
        return research.early_progress if research.weighs_early_progress and covered >= research.early_share * cells else self.progress

    def at_stage(self, position) -> ExactOptions:
        """The options the look-ahead scores by at ``position``: its stage's progress weight
        (:meth:`progress_weight`), read from the cells not yet opened (covered or flagged: the engine's
        view flags the proved mines, the game's does not).

        >>> from cspmines import Position
        >>> options = ExactOptions.parse("early_progress=0.2,early_share=0.5")
        >>> options.at_stage(Position.from_string("2x1x1\\nF1")).progress, options.at_stage(Position.from_string("3x1x1\\n.11")).progress
        (0.2, 0.001)
        """
        grid = position.grid
        weight = self.progress_weight(int(np.count_nonzero(grid == COVERED) + np.count_nonzero(grid == FLAG)), grid.size)
        return self if weight == self.progress else self.with_changes(progress=weight)

    def objective_for(self, rules: str) -> Objective:
        """The objective played under ``rules``.

        >>> ExactOptions().objective_for("minesearch"), ExactOptions(objective="win").objective_for("score")
        ('openings', 'win')
        """
        return _BY_RULES[rules] if self.objective is Objective.AUTO else self.objective

    # -- which rules are on: the one place where 0 or False means off --------------------
    looks_ahead = property(lambda self: self.lookahead > 0, doc="The look-ahead weighs candidates.")
    searches_endgame = property(lambda self: self.endgame > 0, doc="Few layouts: search for the best chance of winning.")
    plays_pockets = property(lambda self: self.pockets > 0, doc="Isolated pockets are played exactly.")
    weighs_influence = property(lambda self: self.influence > 0 and self.lookahead > 0, doc="50/50 influence counts.")
    searches_costs = property(lambda self: self.cost_search > 0, doc="Few layouts: search for the least expected cost.")


#: The tuned options' fields and the research switches', by name.
_TUNED = {each.name: each for each in fields(ExactOptions) if each.name != "research"}
_RESEARCH = {each.name: each for each in fields(ResearchSwitches)}

DEFAULT = ExactOptions()


# -- the options table of the docs ---------------------------------------------------------


def options_table(*, research: bool = False) -> str:
    """The exact agent's tuned options (or with ``research``, its research switches) as a Markdown
    table, which ``docs/agents.md`` holds: name, default, what it takes, and the first sentence of
    what it does.

    >>> print(options_table().splitlines()[2])
    | `backend` | `auto` | a backend name | The engine backend (`cspmines.engine.backends.get_backend`). |
    >>> print(options_table(research=True).splitlines()[-1])
    | `space` | `0` | a whole number >= 0 | Put off guesses in a space of fewer than this many unknown cells while another remains. |
    """
    return table(_RESEARCH if research else _TUNED)


def spec_defaults(*, research: bool = False) -> str:
    """The tuned options (or with ``research``, the research switches) as an agent spec writes
    them, at their defaults (``cspmines move --help`` lists them).

    >>> spec_defaults(research=True)
    'first_corner=0, corners=0, dominance=false, linked=false, reuse=false, hotspots=false, early_progress=0, early_share=0.8, space=0'
    """
    return ", ".join(f"{key}={spec_word(each.default)}" for key, each in (_RESEARCH if research else _TUNED).items())

