"""Optimal play on whole small boards: the exact best-play win probability of an empty board under three
first-click rules, beside each agent's win rate on the same boards (``cspmines optimal``).

* :mod:`~cspmines.studies.optimal.rules`: the first-click rules, the layouts each draws from, the distinct cells;
* :mod:`~cspmines.studies.optimal.optimum`: each first cell's value, and each rule's optimum (:func:`board_optimum`);
* :mod:`~cspmines.studies.optimal.rates`: an agent's win rate on the same boards under the same rule (:func:`agent_rate`);
* :mod:`~cspmines.studies.optimal.table`: the table computed into a folder as JSON lines, resumable (:func:`run_table`);
* :mod:`~cspmines.studies.optimal.report` and :mod:`~cspmines.studies.optimal.figures`: its report and figures.

The table computed with ``cspmines optimal`` (4x4 whole, 5x5 and 6x6 as far as reached) is bundled:
:func:`bundled_table` reads it.
"""

from .optimum import BoardOptimum, FirstCell, RuleValue, board_optimum
from .rates import AgentRate, agent_rate
from .rules import FirstClickRule
from .table import TablePlan, bundled_table, read_table, run_table

__all__ = ["AgentRate", "BoardOptimum", "FirstCell", "FirstClickRule", "RuleValue", "TablePlan", "agent_rate", "board_optimum",
           "bundled_table", "read_table", "run_table"]
