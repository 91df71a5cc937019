"""The result of :func:`cspmines.solve`: exact counts, probabilities and certainties.

Examples
--------
>>> import cspmines
>>> analysis = cspmines.solve(cspmines.Position.from_string("3x1x1\\n.1."))
>>> analysis.model_count
2
>>> analysis.probability(0)
Fraction(1, 2)
>>> analysis.probabilities()
array([[0.5, nan, 0.5]])
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np

from ..drawing import render_svg
from ..position import Position
from .cache import remembered
from .counting import ChainReport, ComponentReport, Parts

__all__ = ["Analysis", "ChainReport", "ComponentReport"]


class Analysis:
    """Exact answers about one position (built by :func:`cspmines.solve`).

    Attributes
    ----------
    position : Position
    model_count : int
        Mine layouts consistent with the position (with a density instead of
        a total: consistent with the clues, any number of mines).
    parts : Parts
        What it was made from (:class:`~cspmines.engine.counting.Parts`): what was settled, the chains
        and their counts, the cells off the front, the question.
    chains : tuple of ChainReport
        The chains of influence, a report each (also as ``components``, the earlier name).
    backend : str
        The backend name asked for.
    engine : Engine
        The :class:`~cspmines.engine.Engine` that solved it: its reveals, clue spreads and
        insight are worked out by the same one, from what it kept in its memory.
    mines : int or None
        The mine total the counting used: the one asked for (``solve(mines=...)``), else the
        position's header; None with a density.
    combination : Combination or None
        The chains' counts combined with the cells off the front under the question
        (:class:`~cspmines.engine.combine.Combination`: each box's chance), where the chances were
        made from one; None where a budget cut the counting short. After ``max_chain`` cut chains
        (``approximate``) it is the relaxed count's, its chances estimates.
    exact : bool
        False when a budget cut some chain short, or ``max_chain`` cut a
        chain (then ``approximate`` is True): those probabilities are estimates
        (see ``inexact_cells``) and ``model_count`` is ``None``.

    Examples
    --------
    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("3x2x1\\n1..\\n..."))
    >>> analysis.model_count, analysis.exact   # the 1's mine is at 1, 3 or 4
    (3, True)
    >>> analysis.probability(1), analysis.safe_cells   # 2 and 5 touch no clue: the one mine is by the 1
    (Fraction(1, 3), (2, 5))
    """

    def __init__(
        self,
        position: Position,
        parts: Parts,
        *,
        model_count: int | None,
        groups: list | Callable[[], list],
        engine,
        chains: tuple | None = None,
        inexact_cells: frozenset = frozenset(),
        denominator: int | None = None,
        combination=None,
    ):
        self.position = position
        self.parts = parts
        self.engine = engine
        self.model_count = model_count
        # the chains' reports (its parts' unless given) and the groups below: each given, or a function
        # making it on first read (a solve's)
        self._sources: dict[str, Any] = {"chains": parts.reports if chains is None else chains, "_groups": groups}
        self.__dict__.update((name, made) for name, made in self._sources.items() if not callable(made))
        self.backend = engine.backend_name
        self.inexact_cells = frozenset(inexact_cells)
        self.mines_left = parts.given_mines_left
        self.density = parts.density
        self.approximate = bool(parts.cut_cells)  # chains were cut (max_chain): see inexact_cells
        # the total counted with: the one asked for, else the position's (None with a density)
        self.mines = parts.mines
        # (cells, chance) sharing one probability: an integer over ``denominator`` (an exact
        # count with a total: integers compare and sum without a gcd at every step), else a
        # Fraction or, where estimated, a float; Fractions are made when a probability is read
        self._denominator = denominator
        self.combination = combination
        self._certain = denominator if denominator else 1  # the chance of a certain mine
        self._cell_probability: dict | None = None
        self._fractions: dict = {}

    def __repr__(self) -> str:
        exact = "exact" if self.exact else f"{len(self.inexact_cells)} cells inexact"
        return (
            f"<Analysis of {self.position.width}x{self.position.height}: {self.model_count} models, "
            f"{len(self.chains)} chains, {len(self.safe_cells)} safe, {len(self.mine_cells)} mines, {exact}>"
        )

    def picture(self, *, chains: bool = False, components: bool = False) -> str:
        """An SVG picture: cells shaded by mine probability, certain cells marked, the chains of
        influence outlined when asked (``chains``; ``components`` is its earlier name)."""
        return render_svg(self, chains=chains or components)

    def _repr_svg_(self) -> str:
        return self.picture()

    def _repr_html_(self) -> str:
        exact = "exact" if self.exact else f"{len(self.inexact_cells)} cells estimated"
        facts = [
            ("models", "unknown" if self.model_count is None else f"{self.model_count:,}"),
            ("certain safe", len(self.safe_cells)),
            ("certain mines", len(self.mine_cells)),
            ("chains", len(self.chains)),
            ("answer", exact),
        ]
        rows = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{v}</td></tr>" for k, v in facts)
        return f"<div style='display:flex;gap:1em;align-items:flex-start'>{self.picture(chains=True)}<table>{rows}</table></div>"

    @property
    def exact(self) -> bool:
        return not self.inexact_cells

    @remembered
    def chains(self) -> tuple:
        """The chains of influence counted, a :class:`ChainReport` each."""
        return self._sources["chains"]()

    @property
    def components(self) -> tuple:
        """The earlier name of :attr:`chains` (reports and notebooks written against it read it)."""
        return self.chains

    @remembered
    def _groups(self) -> list:
        return self._sources["_groups"]()

    def _lookup(self) -> dict:
        if self._cell_probability is None:
            self._cell_probability = {cell: p for cells, p in self._groups for cell in cells}
        return self._cell_probability

    def _fraction(self, chance) -> Fraction | float:
        """A chance as the probability it is (a Fraction, made once per chance)."""
        if not self._denominator:
            return chance
        fraction = self._fractions.get(chance)
        if fraction is None:
            fraction = self._fractions[chance] = Fraction(chance, self._denominator)
        return fraction

    def probability(self, cell: int, *, exact: bool = True) -> Fraction | float:
        """The mine probability of one covered cell: a Fraction when exact.

        ``cell`` is a flat index or a ``(row, col)`` pair. With ``exact=False``
        a float (the Fraction's nearest, as ``float()`` of it gives), made without
        the Fraction: what a player comparing many cells reads.

        Raises
        ------
        OffBoardError
            The cell is not on the board (an ``IndexError``).
        CellTypeError
            Neither a flat index nor a pair of whole numbers (a ``TypeError``).
        KeyError
            The cell is not covered.

        >>> from cspmines import Position, solve
        >>> analysis = solve(Position.from_string("3x1x1\\n.1."))
        >>> analysis.probability(0), analysis.probability((0, 2)), analysis.probability(0, exact=False)
        (Fraction(1, 2), Fraction(1, 2), 0.5)
        >>> analysis.probability(99)
        Traceback (most recent call last):
        ...
        cspmines.errors.OffBoardError: cell 99 is outside the 3x1 board (cells 0 to 2)
        """
        position = self.position
        cell = position.index(cell)
        try:
            chance = self._lookup()[cell]
        except KeyError:
            row, col = divmod(int(cell), position.width)
            raise KeyError(f"cell {cell} at ({row}, {col}) is not covered") from None
        if not exact:  # an integer division is correctly rounded, as float() of the Fraction is
            return chance / self._denominator if self._denominator else float(chance)
        return self._fraction(chance)

    def probabilities(self, *, exact: bool = False) -> np.ndarray:
        """Every covered cell's mine probability as a ``(height, width)`` array.

        Parameters
        ----------
        exact : bool, keyword-only
            False: floats, NaN where not covered. True: an object array of
            ``Fraction``, ``None`` where not covered (and a float where a
            budget made the value an estimate).
        """
        shape = (self.position.height, self.position.width)
        grid = np.full(shape, None, dtype=object) if exact else np.full(shape, np.nan)
        flat = grid.reshape(-1)
        denominator = self._denominator
        for cells, p in self._groups:
            if exact:
                p = self._fraction(p)
                for cell in cells:  # element by element: numpy would try to unpack a Fraction
                    flat[cell] = p
            else:
                flat[list(cells)] = p / denominator if denominator else float(p)
        return grid

    def groups(self) -> list:
        """The covered cells as ``(cells, probability)`` groups, one probability to a group
        (how the engine finds them: a box, the cells off the front, the forced ones).

        >>> from cspmines import Position, solve
        >>> solve(Position.from_string("3x1x1\\n.1.")).groups()
        [((0, 2), Fraction(1, 2))]
        """
        return [(cells, self._fraction(p)) for cells, p in self._groups]

    @remembered
    def safe_cells(self) -> tuple:
        """Covered cells that are certainly safe, in flat order."""
        return tuple(sorted(self.decided[0]))

    @remembered
    def mine_cells(self) -> tuple:
        """Covered cells that are certainly mines, in flat order."""
        return tuple(sorted(self.decided[1]))

    @remembered
    def decided(self) -> tuple[frozenset, frozenset]:
        """(the certainly safe cells, the certain mines) as sets: what a caller testing cells reads."""
        safe: set = set()
        mines: set = set()
        for cells, p in self._groups:
            if p == 0:
                safe.update(cells)
            elif p == self._certain:
                mines.update(cells)
        return frozenset(safe - self.inexact_cells), frozenset(mines - self.inexact_cells)

    def cells_where(self, test) -> tuple[int, ...]:
        """The covered cells whose mine probability passes ``test``, in flat order
        (``test`` is asked once per group of cells sharing a probability, not per cell).

        >>> from fractions import Fraction
        >>> from cspmines import Position, solve
        >>> solve(Position.from_string("4x2x2\\n1...\\n1...")).cells_where(lambda p: p < Fraction(1, 2))
        (2, 3, 6, 7)
        """
        return tuple(sorted([c for cells, p in self._groups if test(self._fraction(p)) for c in cells]))

    def least_probabilities(self, count: int, *, below=None, keep=None, exact: bool = True) -> tuple:
        """The ``count`` least mine probabilities, one per covered cell, least first,
        counting only cells whose probability is under ``below`` when given (1: not
        certain mines) and, when given, for which ``keep(cell)`` is true; floats with
        ``exact=False`` (each the Fraction's nearest, made without it, as
        :meth:`probability` reads them).

        >>> import cspmines
        >>> analysis = cspmines.solve(cspmines.Position.from_string("4x1x2\\n.1.."))
        >>> analysis.least_probabilities(3)
        (Fraction(1, 2), Fraction(1, 2), Fraction(1, 1))
        >>> analysis.least_probabilities(3, below=1)
        (Fraction(1, 2), Fraction(1, 2))
        >>> analysis.least_probabilities(3, keep=lambda cell: cell != 0)
        (Fraction(1, 2), Fraction(1, 1))
        >>> analysis.least_probabilities(3, below=1, exact=False)
        (0.5, 0.5)
        >>> analysis.least_probabilities(-1)
        Traceback (most recent call last):
        ...
        ValueError: count must be >= 0, got -1
        """
        if count < 0:
            raise ValueError(f"count must be >= 0, got {count}")
        least: list = []
        # ``below`` in the chances' own terms: the comparison needs no Fraction
        limit: int | Fraction | None = None
        if below is not None:
            bound = Fraction(below) * (self._denominator or 1)  # exact, a float's too
            limit = bound.numerator if bound.denominator == 1 else bound
        denominator = self._denominator
        for cells, p in self._ordered:
            if (limit is not None and p >= limit) or len(least) >= count:
                break
            wanted = count - len(least)
            if keep is None:
                kept = len(cells)
            else:  # stop asking once enough cells are kept: ``keep`` may be costly, groups large
                kept = 0
                for cell in cells:
                    kept += bool(keep(cell))
                    if kept >= wanted:
                        break
            if kept:  # floats as probability() reads them: the Fraction's float, made without it
                value = self._fraction(p) if exact else (p / denominator if denominator else float(p))
                least.extend([value] * min(kept, wanted))
        return tuple(least)

    @remembered
    def _ordered(self) -> list:
        """The groups, least chance first (ties in their own order), sorted once for every reader."""
        if self._denominator:  # integers over one denominator: their order is the probabilities'
            return sorted(self._groups, key=lambda group: group[1])
        # float first: rounding keeps the order, and Fractions are compared only where floats tie
        return sorted(self._groups, key=lambda group: (float(group[1]), group[1]))

    def best_cells(self) -> tuple:
        """The covered cells of least mine probability, in flat order."""
        least = min((p for _cells, p in self._groups), default=None)  # chances over one denominator: their order
        return tuple(sorted(c for cells, p in self._groups if p == least for c in cells))
