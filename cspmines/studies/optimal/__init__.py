"""Optimal play on whole small boards: the exact best-play win probability of an empty board under three
first-click rules, beside each agent's win rate on the same boards (``cspmines optimal``).

* :mod:`~cspmines.studies.optimal.rules`: the first-click rules, the layouts each draws from, the distinct cells;
* :mod:`~cspmines.studies.optimal.optimum`: each first cell's value, and each rule's optimum (:func:`board_optimum`);
"""

from .optimum import BoardOptimum, FirstCell, RuleValue, board_optimum
from .rules import FirstClickRule

__all__ = ["BoardOptimum", "FirstCell", "FirstClickRule", "RuleValue", "board_optimum"]
