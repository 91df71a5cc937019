"""The analysis after one more clue, re-solving only the chains the clue touches.

A look-ahead asks, for each cell it weighs and each clue that cell could
show, for the whole analysis of the board with that clue revealed. Most of
the board is unchanged by it: the clue's rule joins the chains of its
covered neighbours (and of the cell itself, which is now known safe), and
every other chain keeps its rules, so its counts. :func:`solve_revealed`
starts from the settled system, chains and counts that :func:`~cspmines.engine.solver.solve`
kept for the analysis in its engine's memory (the analysis names the engine that
solved it, and the same engine reveals), settles and splits only the touched part again,
counts only the chains that changed, and combines everything with the mine
total as a full solve does. The answer is the full solve's, exactly (the
tests compare the two on thousands of positions); where the first analysis
kept nothing to start from (a budget that ran out, cut chains), it is a full solve.

>>> from cspmines import Position, solve
>>> analysis = solve(Position.from_string("4x2x2\\n1...\\n1..."))
>>> after = solve_revealed(analysis, 3, 1)   # the cell at (0, 3) shows 1
>>> after.probabilities(exact=True).tolist() == solve(Position.from_string("4x2x2\\n1..1\\n1...")).probabilities(exact=True).tolist()
True
"""

from __future__ import annotations

from ..errors import InconsistentPositionError, MemoryBudgetError
from ..position import COVERED, FLAG, MINE, Position
from .chains import split_chains
from .combine import count_with_total
from .constraints import ConstraintSystem, Rule, Settled, rules_from_position, settle_forced
from .counting import Parts, count_chains
from .solver import combine_parts, exact_analysis, solve

__all__ = ["layouts_revealed", "solve_revealed"]


def solve_revealed(analysis, cell, clue: int):
    """The analysis of ``analysis.position`` with covered ``cell`` (a flat index or a ``(row, col)`` pair)
    showing ``clue``: what
    ``solve(that position, density=analysis.density, explain=False)`` returns, worked out by the
    engine that solved ``analysis`` (``analysis.engine``) from what it kept.

    Raises
    ------
    InconsistentPositionError
        No layout of the first position shows that clue there.

    Examples
    --------
    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("3x1x1\\n..."))
    >>> solve_revealed(analysis, 0, 1).safe_cells   # a 1 in the corner: its one neighbour is the mine
    (2,)
    >>> solve_revealed(analysis, 0, 2)
    Traceback (most recent call last):
    ...
    cspmines.errors.InconsistentPositionError: inconsistent position: clue 2 needs 2 more mines but has 1 covered neighbour; clue(s) at (0,0)
    """
    cell = analysis.position.index(cell)
    after = analysis.position._with_cell(cell, clue)
    engine = analysis.engine
    kept = engine.cache.kept.get(analysis)  # the parts of ``analysis`` if its engine kept them for one more clue
    if kept is None:
        return _solved_whole(analysis, after)
    try:
        return _update(engine, kept, after, cell, clue)
    except _Uncounted:  # a chain the clue made is past the memory allowance: the full solve says what it can
        return _solved_whole(analysis, after)


def _solved_whole(analysis, after: Position):
    """``after`` solved from scratch by the engine of ``analysis``, with its question (total or density)."""
    parts = analysis.parts
    return solve(after, engine=analysis.engine, mines=parts.mines, density=parts.density, explain=False)


def layouts_revealed(analysis, cell, clue: int) -> int:
    """The layouts of ``analysis.position`` in which covered ``cell`` (flat, or ``(row, col)``) is safe and
    shows ``clue``:
    ``solve_revealed(...).model_count`` (0 where none does), counted without making the analysis
    (no chance of any cell is worked out). Needs a mine total.

    >>> from cspmines import Position, solve
    >>> analysis = solve(Position.from_string("3x1x1\\n..."))
    >>> [layouts_revealed(analysis, 0, clue) for clue in (0, 1)]   # the corner safe: the mine beside it or not
    [1, 1]
    """
    cell = analysis.position.index(cell)
    engine = analysis.engine
    kept = engine.cache.kept.get(analysis)
    if kept is None or kept.density is not None:
        try:
            return _counted(solve_revealed(analysis, cell, clue))
        except InconsistentPositionError:
            return 0
    after = analysis.position._with_cell(cell, clue)
    try:
        parts = _parts_after(engine, kept, after, cell, clue)
    except InconsistentPositionError:
        return 0
    except _Uncounted:
        return _counted(solve_revealed(analysis, cell, clue))
    assert parts.mines_left is not None  # kept without a density: a total
    return count_with_total(parts.counts, rest_size=len(parts.rest), mines_left=parts.mines_left)


def _parts_after(engine, kept: Parts, after: Position, cell: int, clue: int) -> Parts:
    """The parts of ``after`` (covered ``cell`` of the board ``kept`` was solved for, showing ``clue``):
    the chains the clue touches settled, split and counted again by ``engine``, every other chain as
    kept (every chain in the board's order, the cells off the front, the settled cells, and what is left
    to place). Raises InconsistentPositionError where no layout shows it."""
    base = kept.bases.get(cell)
    if base is None:
        base = kept.bases[cell] = _Base(kept, after, cell)
    need = clue - base.known
    if not 0 <= need <= base.covered:
        rules_from_position(after)  # raises, naming the clue as a full solve does
    if base.mine:
        raise InconsistentPositionError(f"cell {cell} is a mine in every layout")
    settled = kept.settled
    # the new rule over the neighbours still undecided, the forced ones taken out as settling does
    cells = base.cells
    need -= base.forced_mines
    if not 0 <= need <= len(cells):
        raise InconsistentPositionError(f"clue {clue} at cell {cell} cannot be met")
    if base.error is not None:
        raise InconsistentPositionError(base.error)
    rules = base.rules
    if cells:
        rules = rules.copy()
        rules.insert(base.place, Rule(cells, need, cell))  # clue order, as a full solve has them: its chains come out the same
    local_cells = base.local_cells
    local = settle_forced(ConstraintSystem._checked_already(tuple(rules), local_cells, None))  # its cells are its rules'
    if any(rule.mines in (0, len(rule.cells)) for rule in local.system.rules):
        # settling met a contradiction (a cell forced both ways, a rule that cannot be met) and kept
        # the system as it was: forced cells are sound, so no layout shows this clue
        raise InconsistentPositionError(f"clue {clue} at cell {cell} contradicts the clues around it")
    undecided = kept.undecided - 1 - len(local.safe_cells) - len(local.mine_cells) + (cell in settled.safe_cells)
    mines_left = None if kept.mines_left is None else kept.mines_left - len(local.mine_cells)
    if mines_left is not None and not 0 <= mines_left <= undecided:
        raise InconsistentPositionError(f"{mines_left} mines are left for {undecided} covered cells")
    fresh = split_chains(local.system, engine.cache)
    chains = base.unchanged + list(fresh)
    counts = base.unchanged_counts + count_chains(engine.counter, fresh, engine.cache)
    if any(count is None for count in counts):
        raise _Uncounted
    order = sorted(range(len(chains)), key=lambda i: chains[i].boxes[0].cells[0])
    # the system's rules now live in the chains: the settled system is the first solve's
    now = Settled(settled.system, (settled.safe_cells - {cell}) | local.safe_cells, settled.mine_cells | local.mine_cells)
    return Parts(now, tuple(chains[i] for i in order), tuple(counts[i] for i in order), base.rest, kept.mines, kept.density,
                 kept.given_mines_left, undecided, mines_left)


class _Base:
    """What a clue at ``cell`` changes in a kept solve whatever the clue (a look-ahead reveals each
    clue of a cell in turn): the cell's neighbours, the kept chains it touches, their rules without
    it, the cells it takes off the rest, the chains it leaves alone."""

    def __init__(self, kept, after: Position, cell: int):
        settled = kept.settled
        flat = after.grid.ravel()
        around = after.neighbours(cell)
        covered = [n for n in around if flat[n] == COVERED]
        self.known = sum(1 for n in around if flat[n] in (FLAG, MINE))
        self.covered = len(covered)
        self.mine = cell in settled.mine_cells
        self.forced_mines = sum(1 for n in covered if n in settled.mine_cells)
        cells = self.cells = frozenset(n for n in covered if n not in settled.mine_cells and n not in settled.safe_cells)
        touched = cells | {cell}
        hit = {kept.chain_of[c] for c in touched if c in kept.chain_of}
        rules = []
        self.error = None
        for index in sorted(hit):
            for rule in kept.rules_of(index):
                if cell in rule.cells:  # the cell is safe now: it leaves its rules
                    if len(rule.cells) == 1:
                        if rule.mines:
                            self.error = f"cell {cell} is a mine in every layout"
                        continue
                    rule = Rule(rule.cells - {cell}, rule.mines, rule.label)
                rules.append(rule)
        rules.sort(key=lambda rule: rule.label)
        self.rules = rules
        self.place = sum(1 for rule in rules if rule.label < cell)  # where the new rule goes in clue order
        self.local_cells = tuple(sorted(frozenset().union(cells, *(rule.cells for rule in rules))))
        gone = kept.rest_set.intersection(touched)  # cells no clue touched that this one does
        rest = kept.rest
        if gone:  # a few cells out of hundreds: list.remove runs in C
            kept_rest = list(rest)
            for c in gone:
                kept_rest.remove(c)
            rest = tuple(kept_rest)
        self.rest = rest
        unchanged = [i for i in range(len(kept.chains)) if i not in hit]
        self.unchanged = [kept.chains[i] for i in unchanged]
        self.unchanged_counts = [kept.counts[i] for i in unchanged]


def _counted(analysis) -> int:
    """The analysis's layout count; MemoryBudgetError where the allowance cut it (never None for a count)."""
    if analysis.model_count is None:
        raise MemoryBudgetError("one more clue's layouts could not be counted within the memory allowance")
    return analysis.model_count


class _Uncounted(Exception):
    """A chain the new clue made could not be counted within the memory allowance."""


def _update(engine, kept: Parts, after: Position, cell: int, clue: int):
    """The analysis of ``after`` (``cell`` showing ``clue``) from the parts ``kept``, kept in turn."""
    parts = _parts_after(engine, kept, after, cell, clue)
    combination = combine_parts(parts)
    if combination.model_count == 0:
        raise InconsistentPositionError("no mine layout fits (explain=False: clues not named)")
    analysis = exact_analysis(after, parts, combination, engine)
    engine.cache.kept[analysis] = parts
    return analysis
