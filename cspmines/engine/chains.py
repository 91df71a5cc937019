"""Boxes and chains: the chains of influence.

Cells covered by exactly the same rules are interchangeable, so they are
grouped into a :class:`Box`; counting then runs over boxes with binomial
weights. networkx splits the graph of rules and boxes into connected
:class:`Chain` objects that can be counted independently.

Examples
--------
>>> from cspmines import Position
>>> from cspmines.engine.constraints import ConstraintSystem
>>> system = ConstraintSystem.from_position(Position.from_string("5x1x2\\n.1.1."))
>>> [c.n_cells for c in split_chains(system)]
[3]
>>> split_chains(system)[0].boxes
(Box(cells=(0,), rules=(0,)), Box(cells=(2,), rules=(0, 1)), Box(cells=(4,), rules=(1,)))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import native
from .cache import Cache, Hashed, remembered

if TYPE_CHECKING:
    import networkx as nx
from .constraints import ConstraintSystem

__all__ = ["Box", "LocalRule", "Chain", "Component", "box_diameter", "chains_of", "group_boxes", "shape", "split_chains"]


@dataclass(frozen=True)
class Box:
    """Cells that share the same set of rules (indices into the chain's rules)."""

    cells: tuple
    rules: tuple

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class LocalRule:
    """A rule inside one chain: ``mines`` mines among the cells of ``boxes``."""

    boxes: tuple
    mines: int
    label: object = None


@dataclass(frozen=True, eq=False)
class Chain:
    """One chain of influence: boxes joined by the rules that cover them.

    Attributes
    ----------
    boxes : tuple of Box
    rules : tuple of LocalRule
        Rules with their box indices local to this chain.
    """

    boxes: tuple
    rules: tuple

    @property
    def cells(self) -> tuple:
        """Every cell of the chain, box by box."""
        return tuple(cell for box in self.boxes for cell in box.cells)

    @remembered
    def box_cells(self) -> tuple:
        """Each box's cells, box by box (made once: a look-ahead reads a kept chain's for clue after clue)."""
        return tuple(box.cells for box in self.boxes)

    @remembered
    def n_cells(self) -> int:
        return sum(len(box.cells) for box in self.boxes)

    @property
    def n_boxes(self) -> int:
        return len(self.boxes)

    @remembered
    def structure(self) -> tuple:
        """What the chain is apart from its cells and mines: each box's size and rules, each
        rule's boxes (local numbering). Components of one structure are counted in the same order."""
        return tuple((len(box.cells), box.rules) for box in self.boxes), tuple(rule.boxes for rule in self.rules)

    @property
    def n_rules(self) -> int:
        return len(self.rules)

    @property
    def labels(self) -> tuple:
        """The labels (clue cells) of the chain's rules."""
        return tuple(rule.label for rule in self.rules)

    @remembered
    def box_graph(self) -> nx.Graph:
        """Boxes joined when some rule covers both."""
        # networkx is imported where first needed: importing it takes about half of a cold start
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(range(self.n_boxes))
        for rule in self.rules:
            boxes = rule.boxes
            graph.add_edges_from((a, b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
        return graph

    @remembered
    def length(self) -> int:
        """The diameter of the cell graph (cells joined when a rule covers both): how far
        influence travels along the chain. Cells of one box are one step apart, so it is
        the box graph's diameter, or 1 for a lone box of several cells."""
        if self.n_boxes > 1:
            compiled = native.kernel("box_diameter")
            if compiled is not None:  # the same number, by a search from every box in C
                return compiled(self.n_boxes, [rule.boxes for rule in self.rules])
            return box_diameter(self.n_boxes, self.rules)
        return 1 if self.n_cells > 1 else 0


#: The earlier name of :class:`Chain`, kept for code written against it.
Component = Chain


def box_diameter(n_boxes: int, rules) -> int:
    """The diameter of the box graph (boxes joined when a rule covers both), exactly, by bounding
    eccentricities (Takes and Kosters' BoundingDiameters, as networkx's ``usebounds``): each
    breadth-first search bounds every box's eccentricity from below and above, and a box that
    cannot raise the largest eccentricity found is never searched from. On plain lists it is four
    to five times networkx's own on the small graphs of chains, with the same answers (a test
    compares them on thousands of graphs).

    >>> box_diameter(4, [LocalRule((0, 1), 1), LocalRule((1, 2), 1), LocalRule((2, 3), 1)])
    3
    """
    adjacency = _box_adjacency(n_boxes, rules)
    lower = [0] * n_boxes
    upper = [n_boxes] * n_boxes
    candidates = set(range(n_boxes))
    longest, bound = 0, n_boxes  # the diameter lies in [longest, bound]
    from_upper = True
    while candidates and longest < bound:
        # alternate: the box that could be farthest, then the most central
        box = max(candidates, key=lambda w: (upper[w], -w)) if from_upper else min(candidates, key=lambda w: (lower[w], w))
        from_upper = not from_upper
        distance, eccentricity = _eccentricity_from(adjacency, box)
        longest, bound = max(longest, eccentricity), min(bound, 2 * eccentricity)
        candidates.discard(box)
        _tighten_bounds(candidates, distance, eccentricity, lower, upper, longest)
    return longest


def _box_adjacency(n_boxes: int, rules) -> list[tuple]:
    """Each box's neighbours: the other boxes some rule covers with it."""
    around: list[set] = [set() for _ in range(n_boxes)]
    for rule in rules:
        for box in rule.boxes:
            around[box].update(rule.boxes)
    return [tuple(b for b in around[a] if b != a) for a in range(n_boxes)]


def _eccentricity_from(adjacency: list[tuple], start: int) -> tuple[list, int]:
    """A breadth-first search from ``start``: every box's distance from it (-1 when unreached) and
    the farthest distance."""
    distance = [-1] * len(adjacency)
    distance[start] = 0
    frontier, depth = [start], 0
    while frontier:
        reached = []
        for a in frontier:
            for b in adjacency[a]:
                if distance[b] < 0:
                    distance[b] = depth + 1
                    reached.append(b)
        if reached:
            depth += 1
        frontier = reached
    return distance, depth


def _tighten_bounds(candidates: set, distance: list, eccentricity: int, lower: list, upper: list, longest: int) -> None:
    """Bound each candidate's eccentricity by its distance from a box of ``eccentricity`` (the
    triangle inequality), and drop the candidates that cannot beat ``longest``."""
    for w in list(candidates):
        d = distance[w]
        lower[w] = max(lower[w], d, eccentricity - d)
        upper[w] = min(upper[w], eccentricity + d)
        if upper[w] <= longest:  # its eccentricity cannot be the diameter's
            candidates.discard(w)


def group_boxes(system: ConstraintSystem) -> list[tuple[tuple, tuple]]:
    """Group the constrained cells into boxes: ``(cells, rule indices)`` pairs.

    >>> from cspmines.engine.constraints import Rule
    >>> group_boxes(ConstraintSystem((Rule({0, 1}, 1), Rule({1, 2}, 1)), (0, 1, 2), 1))
    [((0,), (0,)), ((1,), (0, 1)), ((2,), (1,))]
    """
    signature: dict[int, list[int]] = {}
    for index, rule in enumerate(system.rules):
        for cell in rule.cells:
            signature.setdefault(cell, []).append(index)
    boxes: dict[tuple, list[int]] = {}
    for cell in sorted(signature):
        boxes.setdefault(tuple(signature[cell]), []).append(cell)
    return [(tuple(cells), rules) for rules, cells in boxes.items()]


def _without_duplicate_rules(system: ConstraintSystem) -> ConstraintSystem:
    """Keep the first of rules with the same cells and mines: clues around one
    covered pocket often repeat each other, and every rule costs the counter."""
    seen = set()
    kept = []
    for rule in system.rules:
        key = (rule.cells, rule.mines)
        if key not in seen:
            seen.add(key)
            kept.append(rule)
    if len(kept) == len(system.rules):
        return system
    return ConstraintSystem._checked_already(tuple(kept), system.cells, system.mines_left)  # fewer rules of a checked system


def split_chains(system: ConstraintSystem, cache: Cache | None = None) -> tuple[Chain, ...]:
    """The independent chains of a system, in the order of their first cell.

    Each chain's boxes and rules are renumbered locally, so backends see
    only one chain and never the grid. With a ``cache`` (an engine's), a
    split met lately is not worked out again and its chains are the same objects.

    >>> from cspmines import Position
    >>> from cspmines.engine.constraints import ConstraintSystem
    >>> left, right = split_chains(ConstraintSystem.from_position(Position.from_string("5x2\\n1...1\\n.....")))
    >>> left.cells, right.cells   # the two 1s share no cell: two chains
    ((1, 5, 6), (3, 8, 9))
    """
    system = _without_duplicate_rules(system)
    rules = system.rules
    key = Hashed(tuple([(rule.cells, rule.label) for rule in rules]))  # a list made first: quicker than a generator
    recent = None if cache is None else cache.splits
    layout = None if recent is None else recent.get(key)
    if layout is None:
        layout = [(*chain, {}) for chain in _split_layout(system)]
        if recent is not None:
            recent.put(key, layout)
    chains = []
    all_mines = [rule.mines for rule in rules]
    for boxes, rule_ids, members, structure, made in layout:
        mines = tuple(map(all_mines.__getitem__, rule_ids))
        chain = made.get(mines)
        if chain is None:
            chain = Chain(
                boxes=boxes,
                rules=tuple(LocalRule(boxes_of, rules[r].mines, rules[r].label) for r, boxes_of in zip(rule_ids, members, strict=True)),
            )
            chain.__dict__["structure"] = structure  # known already: spare the remembered properties their work
            chain.__dict__["n_cells"] = sum(size for size, _ in structure[0])
            if len(made) < _VARIANTS:
                made[mines] = chain
        chains.append(chain)
    return tuple(chains)


#: The chains kept for each split, one per mines of its rules (a look-ahead's clues give a few each): a
#: chain met again is the same object, with what was worked out on it (its count, its order).
_VARIANTS = 16


# How recent systems split, by their rules' cells and labels (the mines play no part), is kept in
# the cache an engine hands down (:class:`cspmines.engine.cache.Cache`, ``splits``): the look-ahead solves the
# board with each clue a cell can show, the same rules each time but one rule's mines, so the same
# chains.


def _split_layout(system: ConstraintSystem) -> list[tuple]:
    """The chains of ``system`` as (boxes, the system's rule indices, each rule's local boxes,
    structure), in the order of their first cell."""
    compiled = native.kernel("split_rules")
    if compiled is not None:  # the same chains, boxes and numbering, grouped and joined in C
        layout = []
        for box_cells, box_rules, rule_ids, rule_boxes in compiled([rule.cells for rule in system.rules]):
            local_boxes = tuple(map(Box, box_cells, box_rules))
            layout.append((local_boxes, rule_ids, rule_boxes, (tuple(zip(map(len, box_cells), box_rules, strict=True)), rule_boxes)))
        return layout
    boxes = group_boxes(system)
    boxes_of_rule: dict[int, list[int]] = {}
    for b, (_cells, rules) in enumerate(boxes):
        for r in rules:
            boxes_of_rule.setdefault(r, []).append(b)
    layout = []
    for box_ids in _joined(len(boxes), boxes_of_rule.values()):
        rule_ids = tuple(sorted({r for b in box_ids for r in boxes[b][1]}))
        local_rule = {r: i for i, r in enumerate(rule_ids)}
        local_box = {b: i for i, b in enumerate(box_ids)}
        members: dict[int, list[int]] = {r: [] for r in rule_ids}
        for b in box_ids:
            for r in boxes[b][1]:
                members[r].append(local_box[b])
        local_boxes = tuple(Box(boxes[b][0], tuple(local_rule[r] for r in boxes[b][1])) for b in box_ids)
        rule_boxes = tuple(tuple(members[r]) for r in rule_ids)
        structure = (tuple((len(box.cells), box.rules) for box in local_boxes), rule_boxes)
        layout.append((local_boxes, rule_ids, rule_boxes, structure))
    layout.sort(key=lambda chain: chain[0][0].cells[0])
    return layout


def _joined(n: int, groups) -> list[list[int]]:
    """The classes of 0..n-1 when each group's members are joined (each class in increasing
    order): a union-find on a plain list, each root the class's lowest member, several times
    cheaper than a general one on the few dozen boxes of a chain."""
    parent = list(range(n))
    for group in groups:
        root = None
        for member in group:
            while parent[member] != member:  # path halving
                parent[member] = member = parent[parent[member]]
            if root is None:
                root = member
            elif member != root:
                if member < root:
                    member, root = root, member
                parent[member] = root
    classes: dict[int, list[int]] = {}
    for member in range(n):
        top = member
        while parent[top] != top:
            top = parent[top]
        parent[member] = top
        classes.setdefault(top, []).append(member)
    return list(classes.values())


def shape(chain: Chain) -> tuple:
    """What a chain's counts depend on, the key its counts and forward passes are remembered by: each
    box's size and rules, each rule's boxes and mines (in the chain's local numbering; not the cells
    or the clues' labels).

    >>> left, right = chains_of(__import__("cspmines").Position.from_string("7x2\\n1.....1\\n......."))
    >>> shape(left) == shape(right)   # a 1 in either corner: one shape
    True
    """
    return chain.structure, tuple([rule.mines for rule in chain.rules])


def chains_of(position) -> tuple[Chain, ...]:
    """The independent chains of a position's clues (:func:`split_chains` of its system):
    the short way to a chain for examples and studies.

    >>> from cspmines import Position
    >>> [c.cells for c in chains_of(Position.from_string("4x1\\n.1.1"))]   # both 1s see cell 2: one chain
    [(0, 2)]
    """
    return split_chains(ConstraintSystem.from_position(position))
