"""Counting a position's chains, each by its backend, recent chains not counted again; and what a
solve counted, as one value (:class:`Parts`).

:func:`~cspmines.engine.solver.solve` counts its chains here, smallest first under a
budget; :mod:`cspmines.engine.reveal` counts the chains a new clue changed
(:func:`count_chains`). Both keep the counts of recent chains by their shape
in the memory an engine hands them, so a chain met again, here or elsewhere on
the board, costs a look-up.

>>> from cspmines.engine.backends import get_backend
>>> from cspmines.engine.chains import chains_of
>>> from cspmines.engine.cache import Cache
>>> from cspmines.position import Position
>>> left, right = chains_of(Position.from_string("7x2\\n1.....1\\n......."))
>>> cache = Cache()
>>> [count.models for count in count_chains(get_backend("dp"), [left, right], cache)]
[(0, 3), (0, 3)]
>>> len(cache.counts)   # a 1 in either corner: one shape, counted once
1

A solve's parts (:class:`Parts`: what is settled, the chains and their counts, the cells off the
front, and the question, the total or the density counted with) are one value:
:func:`~cspmines.engine.solver.solve` makes it, the :class:`~cspmines.engine.analysis.Analysis` is
made from it (``analysis.parts``: its chances and chain reports, a :class:`ChainReport` each),
:mod:`~cspmines.engine.reveal` starts one more clue from it and makes the next one, and
:mod:`~cspmines.engine.clues` reads the closed form from it. A full solve keeps it in its engine's
memory too (``Cache.kept``, by analysis): that is what says one more clue may start from it.

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("3x2x1\\n1..\\n..."))
>>> parts = analysis.parts
>>> [chain.cells for chain in parts.chains], parts.rest, parts.undecided, parts.mines
([(1, 3, 4)], (2, 5), 5, 1)
>>> analysis.engine.cache.kept[analysis] is parts   # kept for one more clue, in the engine that solved it
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import BudgetExceededError, MemoryBudgetError
from .backends import ChainCount
from .budget import NO_LIMIT, Budget
from .cache import Cache, Hashed, remembered
from .chains import Chain, shape
from .constraints import Rule, Settled

__all__ = ["ChainReport", "ComponentReport", "Parts", "count_chains", "count_smallest_first", "shape"]


def count_chains(counter, chains, cache: Cache | None) -> list:
    """Each chain's counts by ``counter`` (a backend), with no time budget, recent chains not counted
    again (kept in ``cache``; for :mod:`cspmines.engine.reveal`); None for a chain past the
    default memory allowance."""
    return count_smallest_first(counter, chains, NO_LIMIT.start(), cache=cache)


def count_smallest_first(counter, chains, budget: Budget, *, cache: Cache | None = None) -> list:
    """Counts in the chains' order by ``counter`` (a backend), counted smallest first: under a
    budget the cheap chains are settled before a wide one spends what is left. With a
    ``cache``, a chain counted lately by the same backend is not counted again (the
    budget then has no time or node limit: such a count is never cut short, but it may meet
    the memory allowance, and is then None and not kept)."""
    counts: list[ChainCount | None] = [None] * len(chains)
    for index in sorted(range(len(chains)), key=lambda i: chains[i].n_boxes):
        chain = chains[index]
        if cache is None:
            counts[index] = _count_or_none(counter, chain, budget)
            continue
        recent = cache.counts
        # a chain kept by the splits' memory and counted already, while this memory of counts keeps counts
        counted = chain.__dict__.get("counted")
        if counted is not None and counted[0] is recent and counted[1] == (recent.generation, counter.name) and recent.limit:
            counts[index] = counted[2]
            continue
        key = Hashed((counter.name, shape(chain)))
        count = recent.get(key)
        if count is None:
            count = _count_or_none(counter, chain, budget)
            if count is not None:
                recent.put(key, count)
        if count is not None:
            chain.__dict__["counted"] = (recent, (recent.generation, counter.name), count)
        counts[index] = count
    return counts


# Counts of recent chains by backend and shape are kept in the cache an engine hands down
# (:class:`cspmines.engine.cache.Cache`, ``counts``). Positions solved one after another mostly share
# their chains: each position the look-ahead imagines differs from the board in one chain, and so
# does the next move's. A count depends on the shape alone, so a recurring chain is not counted
# again, nor a chain of the same shape elsewhere on the board (a 1-2-1 along an edge is one shape
# wherever it is). Solves under a budget do not use it (their budget must be spent as asked).


def _count_or_none(counter, chain: Chain, budget: Budget) -> ChainCount | None:
    """The chain's counts, or None once the budget is spent (later chains are not tried)."""
    if budget.exhausted:
        return None
    try:
        return counter.count(chain, budget=budget)
    except BudgetExceededError as error:
        budget.exhausted = True
        budget.stopped_by = error
        return None
    except MemoryError as error:  # a structure no estimate foresaw: the frames that held it are gone now
        budget.exhausted = True
        budget.stopped_by = MemoryBudgetError(f"out of memory while counting a chain of {chain.n_cells} cells")
        budget.stopped_by.__cause__ = error
        return None


@dataclass(frozen=True)
class ChainReport:
    """What one chain of influence looked like and what it cost.

    Attributes
    ----------
    cells : tuple of int
        Its covered cells.
    clues : tuple of int
        The clue cells whose rules join them.
    n_boxes : int
    mine_range : tuple of int
        Fewest and most mines it can hold.
    layouts : int
        Its layouts, whatever their mine number (0 if not counted).
    exact : bool
        False when its count was cut short by the budget.
    stats : dict
        The backend's work figures (backend, states, seconds, ...).

    Examples
    --------
    >>> from cspmines import Position, solve
    >>> (chain,) = solve(Position.from_string("3x2x1\\n1..\\n...")).chains
    >>> chain.cells, chain.clues, chain.n_boxes, chain.mine_range, chain.layouts
    ((1, 3, 4), (0,), 1, (1, 1), 3)
    """

    cells: tuple
    clues: tuple
    n_boxes: int
    mine_range: tuple
    layouts: int
    exact: bool = True
    stats: dict = field(default_factory=dict, compare=False)
    chain: Chain | None = field(default=None, compare=False, repr=False)

    @property
    def component(self) -> Chain | None:
        """The earlier name of :attr:`chain`."""
        return self.chain

    @property
    def length(self) -> int:
        """Diameter of the chain's cell graph (computed on first use)."""
        return self.chain.length if self.chain is not None else 0

    @property
    def width(self) -> int:
        """Most rules open at once along the counting order (computed on first use)."""
        if self.chain is None:
            return 0
        from .backends.ordering import front_width

        return front_width(self.chain)

    @property
    def n_cells(self) -> int:
        return len(self.cells)

    @property
    def n_clues(self) -> int:
        return len(self.clues)


#: The earlier name of :class:`ChainReport`, kept for code written against it.
ComponentReport = ChainReport


@dataclass(frozen=True, eq=False, init=False)
class Parts:
    """What a solve is made of.

    Attributes
    ----------
    settled : Settled
        The cells single clues forced (``safe_cells``, ``mine_cells``); after a reveal its system's
        rules are not read (the chains hold them).
    chains : tuple of Chain
        The chains of influence, in the board's order.
    counts : tuple of ChainCount
        Each chain's counts (None for one a budget cut short).
    rest : tuple of int
        The covered cells no clue touches.
    mines : int or None
        The question: the total counted with (asked, else the position's); None with a density.
    density : Fraction or None
        ... or the density each covered cell is a mine with.
    given_mines_left : int or None
        Mines left among the covered cells before settling.
    undecided : int
        The cells left to place once settled, and ``mines_left`` among them.
    cut_cells : frozenset
        The cells of chains cut short by ``max_chain`` (their chances are estimates).
    """

    settled: Settled
    chains: tuple
    counts: tuple
    rest: tuple
    mines: int | None
    density: Fraction | None
    given_mines_left: int | None
    undecided: int
    mines_left: int | None
    cut_cells: frozenset = frozenset()
    # what one more clue at a cell changes whatever the clue, by cell (cspmines.engine.reveal), and each
    # chain's rules over cells again: worked out from the fields above, on first use
    bases: dict = field(default_factory=dict, repr=False, compare=False)
    _rules: dict = field(default_factory=dict, repr=False, compare=False)

    def __init__(self, settled: Settled, chains: tuple, counts: tuple, rest: tuple, mines: int | None, density: Fraction | None,
                 given_mines_left: int | None, undecided: int, mines_left: int | None, cut_cells: frozenset = frozenset()):
        # made once a solve and once a clue a look-ahead reveals: the fields set in one step, not one
        # frozen assignment each as the generated constructor does (a third of its time)
        self.__dict__.update(settled=settled, chains=chains, counts=counts, rest=rest, mines=mines, density=density,
                             given_mines_left=given_mines_left, undecided=undecided, mines_left=mines_left, cut_cells=cut_cells,
                             bases={}, _rules={})

    @classmethod
    def of_solve(cls, settled: Settled, chains, counts, rest: tuple, *, mines, density, cut_cells=frozenset()) -> Parts:
        """The parts of a solve of ``settled``, its cells left undecided and its mines left as it says."""
        system = settled.system
        given = None if system.mines_left is None else system.mines_left + len(settled.mine_cells)  # before settling
        return cls(settled, tuple(chains), tuple(counts), rest, mines, density, given, len(system.cells), system.mines_left,
                   cut_cells)

    @property
    def counted(self) -> bool:
        """Every chain counted (none cut short by a budget)."""
        return not any(count is None for count in self.counts)

    @remembered
    def rest_set(self) -> frozenset:
        """The cells no clue touches, as a set (made on first use)."""
        return frozenset(self.rest)

    @remembered
    def chain_of(self) -> dict:
        """Each chain cell's chain index (made on first use: most analyses are never revealed)."""
        return {c: i for i, chain in enumerate(self.chains) for box in chain.boxes for c in box.cells}

    def rules_of(self, index: int) -> list:
        """Chain ``index``'s rules over cells again (its boxes hold them by local index); made once
        per chain, as a look-ahead reveals the same chains for clue after clue."""
        rules = self._rules.get(index)
        if rules is None:
            chain = self.chains[index]
            rules = self._rules[index] = [
                Rule(frozenset(c for b in rule.boxes for c in chain.boxes[b].cells), rule.mines, rule.label)
                for rule in chain.rules
            ]
        return rules

    def forced_groups(self, denominator: int | None = None) -> list:
        """The cells settled before counting, as (cells, chance) groups: chances over ``denominator``
        when given, else Fractions."""
        settled, groups = self.settled, []
        if settled.safe_cells:
            groups.append((tuple(sorted(settled.safe_cells)), 0 if denominator else Fraction(0)))
        if settled.mine_cells:
            groups.append((tuple(sorted(settled.mine_cells)), denominator if denominator else Fraction(1)))
        return groups

    def groups(self, combination) -> list:
        """Every covered cell's chance as (cells, chance) groups, the chains' counts combined as
        ``combination`` (a :class:`~cspmines.engine.combine.Combination`) says: each box's, the settled
        cells', the rest's; over its common denominator when exact, as Fractions when chains were cut."""
        if self.cut_cells and combination.denominator:  # estimates follow: as Fractions, the way every inexact analysis has them
            chances, rest_chance, denominator = combination.box_probabilities, combination.rest_probability, None
        else:
            chances, rest_chance, denominator = combination.box_chances, combination.rest_chance, combination.denominator
        made = [(box.cells, p) for chain, ps in zip(self.chains, chances, strict=True) for box, p in zip(chain.boxes, ps, strict=True)]
        made += self.forced_groups(denominator)
        if self.rest:
            made.append((self.rest, rest_chance))
        return made

    def reports(self, cut: str = "budget") -> tuple:
        """A :class:`ChainReport` of each chain; one a budget cut short says which (``cut``)."""
        return tuple(_report(chain, count) if count is not None else _report_cut(chain, cut) for chain, count in zip(self.chains, self.counts, strict=True))


def _report(chain: Chain, count) -> ChainReport:
    nonzero = [k for k, w in enumerate(count.models) if w]
    return ChainReport(
        cells=chain.cells,
        clues=chain.labels,
        n_boxes=chain.n_boxes,
        mine_range=(nonzero[0], nonzero[-1]) if nonzero else (0, -1),
        layouts=count.total,
        stats=count.stats,
        chain=chain,
    )


def _report_cut(chain: Chain, cut: str) -> ChainReport:
    return ChainReport(
        cells=chain.cells,
        clues=chain.labels,
        n_boxes=chain.n_boxes,
        mine_range=(0, -1),
        layouts=0,
        exact=False,
        stats={"backend": None, "cut": cut},
        chain=chain,
    )
