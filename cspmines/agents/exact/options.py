"""The exact agent's options: one frozen, validated value.

Every rule of the exact agent's guessing is switched and tuned here, and
nowhere else. A count of ``0`` (``lookahead``, ``endgame``, ``pockets``,
``space``, ``off_front``, ``corners``) or a weight of ``0`` (``influence``,
``progress``, ``blend``, ``first_corner``) turns its rule off; a ``bool``
option is off when ``False`` (``false`` or ``0`` in an agent spec). The
properties ``looks_ahead``, ``searches_endgame``, ``plays_pockets``,
``weighs_influence``, ``goes_to_corner_first``, ``opens_corners`` and
``spares_small_spaces`` say which rules are on, so no caller tests a number
for truth.

>>> options = ExactOptions.parse("lookahead=3,margin=0.1,dominance=true")
>>> options.lookahead, options.margin, options.dominance, options.looks_ahead
(3, 0.1, True, True)
>>> ExactOptions(lookahead=0).weighs_influence   # influence rides on the look-ahead
False
>>> ExactOptions.parse("lookahed=3")
Traceback (most recent call last):
...
cspmines.agents.exact.options.OptionError: the exact agent has no option 'lookahed' (did you mean 'lookahead'?); its options are avoid_dead, backend, blend, clue_samples, corners, cost_budget, cost_power, cost_search, dominance, endgame, fifty_fifty, first_corner, hotspots, influence, linked, living, lookahead, margin, max_chain, next_power, objective, off_front, pockets, progress, reuse, space, spreads
>>> ExactOptions.parse("lookahead=abc")
Traceback (most recent call last):
...
cspmines.agents.exact.options.OptionError: exact option lookahead=abc is invalid: it takes a whole number >= 0
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, fields, replace

from ...actions import Vocabulary
from ...errors import CspminesError

__all__ = ["OBJECTIVES", "ExactOptions", "OptionError"]


class OptionError(CspminesError, ValueError):
    """An option the exact agent does not have, or a value it cannot take."""


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
SPREADS = Spreads.words()
_BY_RULES = {"classic": "win", "minesearch": "openings", "score": "mines"}

# option -> (kind, what it must be, test); kinds: count (int >= 0), weight (float >= 0), flag (bool), ...
_WHOLE = "a whole number >= 0"
_RULES = {
    "lookahead": ("int", _WHOLE, lambda v: v >= 0),
    "endgame": ("int", _WHOLE, lambda v: v >= 0),
    "pockets": ("int", _WHOLE, lambda v: v >= 0),
    "off_front": ("int", _WHOLE, lambda v: v >= 0),
    "space": ("int", _WHOLE, lambda v: v >= 0),
    "cost_search": ("int", _WHOLE, lambda v: v >= 0),
    "cost_budget": ("int", "a whole number >= 1", lambda v: v >= 1),
    "clue_samples": ("int", _WHOLE, lambda v: v >= 0),
    "cost_power": ("float", "a number >= 0", lambda v: v >= 0),
    "max_chain": ("int?", "a whole number >= 1 or none", lambda v: v is None or v >= 1),
    "margin": ("float", "a number in [0, 1)", lambda v: 0 <= v < 1),
    "blend": ("float", "a number in [0, 1]", lambda v: 0 <= v <= 1),
    "progress": ("float", "a number >= 0", lambda v: v >= 0),
    "influence": ("float", "a number >= 0", lambda v: v >= 0),
    "next_power": ("float", "a number >= 0", lambda v: v >= 0),
    "first_corner": ("float", "a number in [0, 1)", lambda v: 0 <= v < 1),
    "corners": ("int", _WHOLE, lambda v: v >= 0),
    "avoid_dead": ("bool", "true or false", None),
    "fifty_fifty": ("bool", "true or false", None),
    "dominance": ("bool", "true or false", None),
    "linked": ("bool", "true or false", None),
    "living": ("bool", "true or false", None),
    "reuse": ("bool", "true or false", None),
    "spreads": ("str", "one of drawn, off_front, exact", lambda v: v in SPREADS),
    "hotspots": ("bool", "true or false", None),
    "backend": ("str", "a backend name", None),
    "objective": ("str", "one of auto, win, openings, mines", lambda v: v in OBJECTIVES),
}


@dataclass(frozen=True)
class ExactOptions:
    """How the exact agent guesses; every field is checked when the value is made.

    Parameters
    ----------
    backend : str
        The engine backend (:func:`cspmines.engine.backends.get_backend`).
    max_chain : int or None
        Cut chains longer than this many boxes (approximate probabilities, :mod:`cspmines.engine.bounded`).
    lookahead : int
        Look ahead from up to this many candidate cells
        (:func:`~cspmines.agents.exact.candidates.shortlist`) and open the
        one that maximises "this move is safe and so is the best move after
        it" (secondary safety), each clue weighted by its exact number of
        layouts. 0: open the least likely cell.
    margin : float
        A candidate's safety may be this fraction below the best cell's.
    progress : float
        Score bonus: secondary safety times ``1 + progress * P(safe and its clue proves a cell)``
        (the default, 0.001, only breaks ties between cells otherwise worth the same).
    avoid_dead : bool
        Never choose a dead cell (its clue is the same in every layout where
        it is safe) while a living candidate remains.
    fifty_fifty : bool
        Guess a forced 50/50 (two cells no clue can ever tell apart) before anything else.
    endgame : int
        With at most this many layouts left, search the game tree exhaustively
        (:mod:`cspmines.agents.exact.endgame`). 0: off.
    pockets : int
        Play an isolated pocket of at most this many layouts by the same search. 0: off.
    blend : float
        Value the position after a safe move as ``(1 - blend) * best + blend * second best`` safety.
    influence : float
        50/50 influence (:func:`~cspmines.agents.exact.fifty_fifty.fifty_fifty_influence`):
        the score bonus ``1 + influence * P(50/50 forms) / P(safe)``; such
        cells join the shortlist, and with ``fifty_fifty`` a "50/50 or safe"
        cell is guessed first. 0: off (and off whenever ``lookahead`` is 0).
    dominance : bool
        Open a safer cell that the look-ahead's choice proves safe (or that is
        the single safest after every clue it can show) instead of the choice.
    linked : bool
        Count as progress only a clue that proves more than the cells safe whenever the guess is.
    living : bool
        Seek the next move among cells whose clue is not yet known (a safe cell
        that can tell nothing does not make the next move safe).
    off_front : int
        Look ahead from up to this many cells off the front too; 0 keeps the two most promising.
    space : int
        Put off guesses in a space of fewer than this many unknown cells while another remains. 0: off.
    hotspots : bool
        Weight each clue's next safety by the pairs one more mine would seal into a 50/50
        (needs ``influence``, which finds them).
    next_power : float
        Raise the next move's safety to this power in the look-ahead.
    first_corner : float
        Hill's first guess: the game's first guess, when the look-ahead makes
        it, goes to the bottom-left corner instead if that corner is covered,
        off the front and at most this much less safe than the look-ahead's
        cell (measured: it does not pay, see the strength notes in ``docs/``).
        0: off.
    corners : int
        From the game's ``corners``-th guess on, a look-ahead guess off the
        front opens instead the cell off the front with the fewest covered
        neighbours, a corner while one is left (as safe: every cell off the
        front is), whose zero may open a region where the look-ahead's cell
        beside the front tells only about the next move. 0: off.
    objective : {"auto", "win", "openings", "mines"}
        What a guess plays for: ``win`` the chance of winning (classic),
        ``openings`` the fewest safe squares opened (minesearch: every mine is
        opened anyway), ``mines`` the fewest mines set off (score: every safe
        square is opened anyway). ``auto`` (the default) plays each game's
        own measure. Under minesearch ``win`` has no meaning and plays the
        earlier rule: open the likeliest mine. See
        :mod:`~cspmines.agents.exact.objectives`.
    cost_search : int
        With at most this many layouts left, the ``openings`` and ``mines``
        objectives search their game tree exhaustively for the least expected
        cost (their costs prune less than the chance of winning does, so the
        limit is lower than ``endgame``'s). 0: off.
    cost_budget : int
        The states that search may visit before it gives up (and the agent
        falls back on its other rules).
    clue_samples : int
        ``openings`` with more layouts than ``cost_search``: open the square
        that tells most for what it costs
        (:func:`~cspmines.agents.exact.objectives.information_per_cost`),
        reading each square's clue spread from this many layouts drawn
        uniformly from the position (with the agent's seed). 0: take the
        neighbours as independent instead (faster, a little weaker).
    spreads : str
        Where that choice reads a square's clue spread exactly (:mod:`cspmines.engine.clues`):
        ``off_front`` (the default) for every square whose undecided neighbours all lie off the
        front, in closed form, the squares by the front from ``clue_samples`` drawn layouts (none
        drawn when no square is by the front); ``exact`` for every square (those by the front by
        revealing each clue and counting: no layouts drawn, several times slower, measured level);
        ``drawn`` every square from the layouts.
    reuse : bool
        Keep the layouts drawn for the last information move that the board still allows, and draw
        only the rest of ``clue_samples`` (they stay uniform: rejection sampling). Faster; off by
        default until paired play shows it level.
    cost_power : float
        That choice's weight on cost: information over expected safe squares
        to this power (1: bits per square; lower leans towards information).

    The defaults, and what each rule is worth, are measured by
    ``research/guessing.py`` (see the strength notes in ``docs/``).

    >>> ExactOptions(margin=1.5)
    Traceback (most recent call last):
    ...
    cspmines.agents.exact.options.OptionError: exact option margin=1.5 is invalid: it takes a number in [0, 1)
    """

    backend: str = "auto"
    max_chain: int | None = None
    lookahead: int = 30
    margin: float = 0.1
    progress: float = 0.001
    avoid_dead: bool = True
    fifty_fifty: bool = True
    endgame: int = 1000
    pockets: int = 1000
    blend: float = 0.2
    influence: float = 0.9
    dominance: bool = False
    linked: bool = False
    living: bool = True
    reuse: bool = False
    spreads: str = "off_front"
    off_front: int = 0
    space: int = 0
    hotspots: bool = False
    next_power: float = 1.0
    first_corner: float = 0.0
    corners: int = 0
    objective: str = "auto"
    cost_search: int = 30
    cost_budget: int = 20_000
    clue_samples: int = 200
    cost_power: float = 0.7

    def __post_init__(self):
        for name, (kind, wanted, test) in _RULES.items():
            value = _coerce(name, getattr(self, name), kind, wanted)
            if test is not None and not test(value):
                raise OptionError(f"exact option {name}={value} is invalid: it takes {wanted}")
            object.__setattr__(self, name, value)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every option's name, sorted.

        >>> ExactOptions.names()[:3]
        ('avoid_dead', 'backend', 'blend')
        """
        return tuple(sorted(f.name for f in fields(cls)))

    @classmethod
    def from_mapping(cls, values: dict) -> "ExactOptions":
        """Options from a mapping of names to values (unknown names are refused by name).

        >>> ExactOptions.from_mapping({"lookahead": "4"}).lookahead
        4
        """
        return DEFAULT.with_changes(**values)

    @classmethod
    def parse(cls, text: str) -> "ExactOptions":
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

    def with_changes(self, **changes) -> "ExactOptions":
        """A copy with some options changed (unknown names are refused by name).

        >>> ExactOptions().with_changes(endgame=0).searches_endgame
        False
        """
        unknown = sorted(set(changes) - set(self.names()))
        if unknown:
            close = difflib.get_close_matches(unknown[0], self.names(), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise OptionError(f"the exact agent has no option {unknown[0]!r}{hint}; its options are {', '.join(self.names())}")
        return replace(self, **changes)

    def objective_for(self, rules: str) -> str:
        """The objective played under ``rules``.

        >>> ExactOptions().objective_for("minesearch"), ExactOptions(objective="win").objective_for("score")
        ('openings', 'win')
        """
        return _BY_RULES[rules] if self.objective == "auto" else self.objective

    # -- which rules are on: the one place where 0 or False means off --------------------
    looks_ahead = property(lambda self: self.lookahead > 0, doc="The look-ahead weighs candidates.")
    searches_endgame = property(lambda self: self.endgame > 0, doc="Few layouts: search for the best chance of winning.")
    plays_pockets = property(lambda self: self.pockets > 0, doc="Isolated pockets are played exactly.")
    weighs_influence = property(lambda self: self.influence > 0 and self.lookahead > 0, doc="50/50 influence counts.")
    searches_costs = property(lambda self: self.cost_search > 0, doc="Few layouts: search for the least expected cost.")
    opens_corners = property(lambda self: self.corners > 0, doc="Guesses off the front go to corners.")
    goes_to_corner_first = property(lambda self: self.first_corner > 0, doc="The first guess may go to a corner.")
    spares_small_spaces = property(lambda self: self.space > 0, doc="Guesses in small spaces wait.")


def _coerce(name: str, value, kind: str, wanted: str):
    """``value`` as the option's type: text from a spec is read, numbers are checked for their kind."""
    try:
        if kind == "bool":
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0"):
                return value.lower() in ("true", "1")
            if isinstance(value, (bool, int)) and value in (0, 1):
                return bool(value)
            raise ValueError
        if kind == "str":
            if not isinstance(value, str) or not value:
                raise ValueError
            return value
        if kind == "int?" and (value is None or (isinstance(value, str) and value.lower() == "none")):
            return None
        if isinstance(value, bool):
            raise ValueError
        if kind in ("int", "int?"):
            number = int(value) if isinstance(value, str) else value
            if not isinstance(number, int):
                if isinstance(number, float) and number.is_integer():
                    return int(number)
                raise ValueError
            return number
        number = float(value)
        if number != number:  # NaN passes no range test by accident
            raise ValueError
        return number
    except (TypeError, ValueError):
        raise OptionError(f"exact option {name}={value} is invalid: it takes {wanted}") from None


DEFAULT = ExactOptions()
