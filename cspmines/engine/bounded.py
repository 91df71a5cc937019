"""Bounded chains: cut long chains of influence into pieces, an approximation (seed 001, section 4).

A chain of more than ``max_boxes`` boxes is cut, along the counting
order (which sweeps along the front), into pieces of at most ``max_boxes``
boxes. Rules that straddle two pieces are dropped, so a piece's cells answer
to their local rules only, and cells left with no rule join the
unconstrained rest. Dropping rules only adds layouts: every cell the cut
system proves safe or a mine is truly so, and every other probability is an
estimate.

>>> from cspmines import Position
>>> from cspmines.engine.chains import chains_of
>>> (chain,) = chains_of(Position.from_string("9x2x4\\n.1.1.1.1.\\n........."))
>>> pieces, orphans = bound_chains([chain], max_boxes=3)
>>> chain.n_boxes, [p.n_boxes for p in pieces], len(orphans)   # boxes left with no rule join the rest
(7, [2, 3], 4)
"""

from __future__ import annotations

from .backends.ordering import greedy_order
from .chains import Box, Chain, LocalRule

__all__ = ["bound_chains"]


def bound_chains(chains, *, max_boxes: int) -> tuple[list, list]:
    """(the chains, long ones cut into pieces; cells left with no rule)."""
    if max_boxes < 1:
        raise ValueError(f"max_chain must be at least 1 box, got {max_boxes}")
    kept, orphans = [], []
    for chain in chains:
        if chain.n_boxes <= max_boxes:
            kept.append(chain)
            continue
        order = greedy_order(chain)
        piece_of = {b: index // max_boxes for index, b in enumerate(order)}
        for piece in range(-(-len(order) // max_boxes)):
            boxes = [b for b in order if piece_of[b] == piece]
            rules = [r for r, rule in enumerate(chain.rules) if all(piece_of[b] == piece for b in rule.boxes)]
            local_rule = {r: i for i, r in enumerate(rules)}
            new_boxes = []
            for b in boxes:
                own = tuple(local_rule[r] for r in chain.boxes[b].rules if r in local_rule)
                if own:
                    new_boxes.append((b, Box(chain.boxes[b].cells, own)))
                else:
                    orphans.extend(chain.boxes[b].cells)
            if not new_boxes:
                continue
            renumber = {b: i for i, (b, _box) in enumerate(new_boxes)}
            kept.append(
                Chain(
                    boxes=tuple(box for _b, box in new_boxes),
                    rules=tuple(
                        LocalRule(tuple(renumber[b] for b in chain.rules[r].boxes), chain.rules[r].mines, chain.rules[r].label)
                        for r in rules
                    ),
                )
            )
    return kept, orphans
