"""The constraint model: rules over cells, knowing nothing of grids.

A :class:`Rule` says "exactly ``mines`` of these ``cells`` are mines".
:func:`rules_from_position` is the one bridge from a board: every revealed
clue becomes a rule over its covered neighbours, known mines subtracted.
A :class:`ConstraintSystem` is the rules, the unknown cells and the number of
mines still to place.

Examples
--------
>>> from cspmines import Position
>>> system = ConstraintSystem.from_position(Position.from_string("3x1x1\\n.1."))
>>> system.rules
(Rule(cells=frozenset({0, 2}), mines=1, label=1),)
>>> system.unconstrained_cells
()
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import native
from ..errors import InconsistentPositionError
from ..position import COVERED, Position, neighbour_array, neighbours_of
from .cache import remembered
from .singleclue import clue_needs, single_clue

__all__ = ["ConstraintSystem", "Rule", "Settled", "rules_from_position", "settle_forced", "settle_position"]


@dataclass(frozen=True)
class Rule:
    """Exactly ``mines`` of ``cells`` are mines.

    Parameters
    ----------
    cells : frozenset of int
        The cells the rule covers (non-empty).
    mines : int
        How many of them are mines, ``0 <= mines <= len(cells)``.
    label : hashable, optional
        Where the rule came from (the clue's flat cell), for messages.

    Examples
    --------
    >>> Rule(frozenset({1, 2}), 3)
    Traceback (most recent call last):
    ...
    cspmines.errors.InconsistentPositionError: inconsistent position: rule None asks for 3 mines among 2 cells
    """

    cells: frozenset
    mines: int
    label: object = None

    def __post_init__(self):
        if not isinstance(self.cells, frozenset):
            object.__setattr__(self, "cells", frozenset(self.cells))
        if not self.cells:
            raise ValueError(f"rule {self.label!r} covers no cells")
        if not 0 <= self.mines <= len(self.cells):
            raise InconsistentPositionError(
                f"rule {self.label!r} asks for {self.mines} mines among {len(self.cells)} cells"
            )

    @classmethod
    def _checked_already(cls, cells: frozenset, mines: int, label) -> Rule:
        """A rule whose caller has already checked what ``__post_init__`` checks (a position's
        clues, a settled rule): built without the checks, the engine's most frequent allocation."""
        rule = object.__new__(cls)
        _set_field(rule, "cells", cells)
        _set_field(rule, "mines", mines)
        _set_field(rule, "label", label)
        return rule


_set_field = object.__setattr__  # a frozen dataclass's own way of setting its fields


def rules_from_position(position: Position) -> tuple[Rule, ...]:
    """One rule per revealed clue with covered neighbours; labels are the clue cells.

    Raises
    ------
    InconsistentPositionError
        A clue that asks for fewer mines than its known-mine neighbours, or
        more than its covered neighbours can hold (named by row and column).

    Examples
    --------
    >>> rules_from_position(Position.from_string("3x1\\nF1."))
    (Rule(cells=frozenset({2}), mines=0, label=1),)
    >>> rules_from_position(Position.from_string("3x1\\nF1F"))
    Traceback (most recent call last):
    ...
    cspmines.errors.InconsistentPositionError: inconsistent position: clue 1 touches 2 known mines; clue(s) at (0,1)
    """
    return tuple(map(Rule._checked_already, *_clue_rows(position)))


#: Boards up to this many cells read their neighbours from a kept table (512 KiB at this size).
_TABLED_CELLS = 1 << 16


def _clue_rows(position: Position) -> tuple[list, list, list]:
    """For each clue with a covered neighbour: its covered neighbours (a frozenset), the mines they
    still hold (checked to fit them), its cell; three lists, in flat order."""
    grid = position.grid
    clue = grid >= 0
    need, covered_around = clue_needs(grid)
    bad = clue & ((need < 0) | (need > covered_around))
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        value, known = int(grid[row, col]), int(grid[row, col] - need[row, col])
        reason = (
            f"clue {value} touches {mines_word(known, 'known mine')}"
            if need[row, col] < 0
            else f"clue {value} needs {mines_word(int(need[row, col]), 'more mine')} but has "
            f"{mines_word(int(covered_around[row, col]), 'covered neighbour')}"
        )
        raise InconsistentPositionError(reason, clues=((row, col),))
    front = np.flatnonzero(clue & (covered_around > 0))
    if position.size <= _TABLED_CELLS:  # the board's whole table, made once and kept: the common case
        around = neighbour_array(position.width, position.height)[front]
    else:  # the front's alone: a huge board's table would be gigabytes
        around = neighbours_of(front, position.width, position.height)
    # A slot that is no covered neighbour (off the board: -1, or opened) is filled with the row's
    # first covered neighbour, which a set holds once anyway: each row then becomes its rule's cells
    # in one frozenset() call, with no filtering loop in Python.
    covered = (grid.ravel()[around] == COVERED) & (around >= 0)
    first = around[np.arange(len(front)), covered.argmax(axis=1)]
    cells = list(map(frozenset, np.where(covered, around, first[:, None]).tolist()))
    return cells, need.ravel()[front].tolist(), front.tolist()


def mines_word(n: int, noun: str) -> str:
    """``1 known mine``, ``2 known mines``: counts in messages read as English.

    >>> mines_word(1, "more mine"), mines_word(3, "covered neighbour")
    ('1 more mine', '3 covered neighbours')
    """
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass(frozen=True)
class ConstraintSystem:
    """Rules over unknown cells, and the mines left to place among those cells.

    Parameters
    ----------
    rules : tuple of Rule
    cells : tuple of int
        Every unknown cell, constrained or not.
    mines_left : int or None
        Mines among ``cells``; ``None`` when the total is unknown.

    Examples
    --------
    >>> from cspmines import Position
    >>> ConstraintSystem.from_position(Position.from_string("4x1x1\\n.1.."))
    ConstraintSystem(rules=(Rule(cells=frozenset({0, 2}), mines=1, label=1),), cells=(0, 2, 3), mines_left=1)
    """

    rules: tuple
    cells: tuple
    mines_left: int | None

    def __post_init__(self):
        known = set(self.cells)
        for rule in self.rules:
            if not rule.cells <= known:
                raise ValueError(f"rule {rule.label!r} covers cells outside the system: {sorted(rule.cells - known)}")
        if self.mines_left is not None and not 0 <= self.mines_left <= len(self.cells):
            raise InconsistentPositionError(
                f"{self.mines_left} mines are left for {len(self.cells)} covered cells"
            )

    @classmethod
    def _checked_already(cls, rules: tuple, cells: tuple, mines_left: int | None) -> ConstraintSystem:
        """A system whose maker has already checked what ``__post_init__`` checks (every rule's cells among
        ``cells``, the mines left in range): settling and splitting make one each time, over hundreds of cells."""
        system = object.__new__(cls)
        _set_field(system, "rules", rules)
        _set_field(system, "cells", cells)
        _set_field(system, "mines_left", mines_left)
        return system

    @classmethod
    def from_position(cls, position: Position, *, mines: int | None = None) -> ConstraintSystem:
        """The system of a position; ``mines`` overrides the position's total."""
        total = position.mines if mines is None else mines
        mines_left = None if total is None else total - len(position.known_mine_cells)
        if mines_left is not None and mines_left < 0:
            raise InconsistentPositionError(
                f"the total of {total} mines is below the {len(position.known_mine_cells)} known mines"
            )
        return cls(rules_from_position(position), position.covered_cells, mines_left)

    @property
    def constrained_cells(self) -> frozenset:
        """Cells covered by at least one rule (the front)."""
        return frozenset().union(*(rule.cells for rule in self.rules))

    @remembered
    def unconstrained_cells(self) -> tuple:
        """Cells no rule covers (the rest, weighed by binomials)."""
        front = self.constrained_cells
        return tuple(cell for cell in self.cells if cell not in front)


@dataclass(frozen=True)
class Settled:
    """A system with the cells that single rules force taken out.

    Attributes
    ----------
    system : ConstraintSystem
        The rules left over the undecided cells, and the mines left among them.
    safe_cells, mine_cells : frozenset of int
        The cells taken out, and what they are.

    Examples
    --------
    >>> from cspmines import Position
    >>> settle_forced(ConstraintSystem.from_position(Position.from_string("4x1x1\\n.1.1")))   # the last 1 forces 2
    Settled(system=ConstraintSystem(rules=(), cells=(), mines_left=0), safe_cells=frozenset({0}), mine_cells=frozenset({2}))
    """

    system: ConstraintSystem
    safe_cells: frozenset
    mine_cells: frozenset

    @classmethod
    def unchanged(cls, system: ConstraintSystem) -> Settled:
        """The system as it is, nothing taken out."""
        return cls(system, frozenset(), frozenset())


def settle_forced(system: ConstraintSystem) -> Settled:
    """Take out every cell a rule forces on its own, repeatedly, before counting.

    A rule that needs no mine makes all its cells safe; a rule that needs one
    mine per cell makes them all mines. Each decision is substituted into the
    other rules, which may force more. Positions from real play are full of
    such cells (players rarely flag): on them the front the counter sees
    shrinks several-fold, and a forced cell joins nothing, so chains split.
    Every layout of the system gives the forced cells the same values, so
    the counts of what is left, with the forced mines off the total, are the
    counts of the whole.

    A contradiction (a cell forced both ways, a rule left needing more mines
    than cells, or fewer mines left than forced) is left for the counter to
    find and explain: the system is returned as it is.

    >>> system = ConstraintSystem((Rule({0, 1}, 2), Rule({1, 2, 3}, 2)), (0, 1, 2, 3, 4), 3)
    >>> settled = settle_forced(system)
    >>> sorted(settled.mine_cells), settled.system.rules, settled.system.mines_left
    ([0, 1], (Rule(cells=frozenset({2, 3}), mines=1, label=None),), 1)
    >>> settle_forced(ConstraintSystem((Rule({0}, 0), Rule({0, 1}, 2)), (0, 1), 2)).system.rules  # contradiction
    (Rule(cells=frozenset({0}), mines=0, label=None), Rule(cells=frozenset({0, 1}), mines=2, label=None))
    """
    rounds = _settle_rounds([(rule.cells, rule.mines, rule.label) for rule in system.rules])
    if rounds is None or not (rounds[1] or rounds[2]):
        return Settled.unchanged(system)
    return _settled(system.cells, system.mines_left, *rounds) or Settled.unchanged(system)


def settle_position(position: Position, *, mines: int | None = None) -> Settled:
    """``settle_forced(ConstraintSystem.from_position(position, mines=mines))``, the same answer and
    errors, with rule objects made only for the clues left undecided (a mid-game board settles
    most of its clues: about 59 rules to 7 on the reference positions).

    >>> settle_position(Position.from_string("4x1x1\\n.1.1")) == settle_forced(
    ...     ConstraintSystem.from_position(Position.from_string("4x1x1\\n.1.1")))
    True
    """
    total = position.mines if mines is None else mines
    compiled = native.kernel("settle_clues")
    if compiled is not None:
        settled = _settle_compiled(compiled, position, total)
        if settled is not None:
            return settled
    covered = position.covered_cells
    mines_left = None if total is None else total - len(position.known_mine_cells)
    if mines_left is not None and not 0 <= mines_left <= len(covered):
        ConstraintSystem.from_position(position, mines=mines)  # raises, saying which way
    triples = list(zip(*_clue_rows(position), strict=True))
    rounds = _settle_rounds(triples)
    settled = _settled(covered, mines_left, *rounds) if rounds is not None and (rounds[1] or rounds[2]) else None
    if settled is None:
        rules = tuple(Rule._checked_already(cells, need, label) for cells, need, label in triples)
        return Settled.unchanged(ConstraintSystem(rules, covered, mines_left))
    return settled


def _settle_compiled(settle_clues, position: Position, total: int | None) -> Settled | None:
    """:func:`settle_position`'s answer from the compiled twin of :func:`_clue_rows` and
    :func:`_settle_rounds` (``settle_clues``: the same rules, cells and sets), or None where the
    Python path must answer (it raises, or keeps every rule): a clue that cannot be met, a round
    that contradicts itself, a total that the board or the settled cells cannot hold."""
    found = settle_clues(position.grid, position.width, position.height)
    if found is None:
        return None
    rules, safe, mines, undecided, rest, covered, known = found
    mines_left = None if total is None else total - known
    if mines_left is not None and not 0 <= mines_left <= covered:
        return None
    if safe or mines:
        mines_left = None if mines_left is None else mines_left - len(mines)
        if mines_left is not None and not 0 <= mines_left <= len(undecided):
            return None
    kept = tuple(Rule._checked_already(cells, need, label) for cells, need, label in rules)  # needs checked in C
    system = ConstraintSystem._checked_already(kept, undecided, mines_left)  # rules over undecided cells; the total checked above
    system.__dict__["unconstrained_cells"] = rest  # known already: spare the cached property its work
    return Settled(system, safe, mines)


def _settle_rounds(rules: list) -> tuple[list, set, set] | None:
    """:func:`settle_forced`'s rounds over rules as (cells, mines, label) triples, their needs checked:
    (the rules left, the safe cells, the mine cells), or None where a round contradicts itself."""
    safe: set = set()
    mines: set = set()
    while True:
        new_safe: set = set()
        new_mines: set = set()
        for cells, need, _label in rules:
            if 0 < need < len(cells):  # most clues prove nothing alone: passed over before the rule is asked
                continue
            proved = single_clue(need, cells)
            assert proved is not None  # the needs were checked
            new_safe.update(proved[0])
            new_mines.update(proved[1])
        if not new_safe and not new_mines:
            return rules, safe, mines
        if not new_safe.isdisjoint(new_mines):
            return None
        decided = new_safe | new_mines
        kept: list = []
        for rule in rules:
            cells = rule[0]
            if cells.isdisjoint(decided):
                kept.append(rule)
                continue
            left = cells - decided
            need = rule[1] - len(cells & new_mines)
            if not 0 <= need <= len(left):
                return None
            if left:
                kept.append((left, need, rule[2]))
        rules = kept
        safe |= new_safe
        mines |= new_mines


def _settled(cells: tuple, mines_left: int | None, rules: list, safe: set, mines: set) -> Settled | None:
    """The settled system, or None when the forced mines leave a total that cannot be met."""
    decided = safe | mines
    undecided = tuple(c for c in cells if c not in decided)
    mines_left = None if mines_left is None else mines_left - len(mines)
    if mines_left is not None and not 0 <= mines_left <= len(undecided):
        return None
    kept = tuple(Rule._checked_already(cells, need, label) for cells, need, label in rules)  # needs checked in the rounds
    return Settled(ConstraintSystem._checked_already(kept, undecided, mines_left), frozenset(safe), frozenset(mines))
