"""The ``exact`` agent: plays on the exact engine, and guesses by exact look-ahead.

One module per subject:

* :mod:`~cspmines.agents.exact.options`: :class:`ExactOptions`, every rule's switch and weight, each declared
  once (:mod:`~cspmines.agents.exact.declared`);
* :mod:`~cspmines.agents.exact.player`: :class:`ExactAgent`, proofs kept, the engine called, the guessing rules;
* :mod:`~cspmines.agents.exact.guesses`: :class:`Guess` and :class:`Reason`, what a guess reports;
* :mod:`~cspmines.agents.exact.candidates`: which cells a guess weighs;
* :mod:`~cspmines.agents.exact.lookahead`: what opening a cell leads to, clue by clue;
* :mod:`~cspmines.agents.exact.fifty_fifty` and :mod:`~cspmines.agents.exact.hotspots`: 50/50s, forced and forming;
* :mod:`~cspmines.agents.exact.endgame`: the exhaustive search once few layouts remain;
* :mod:`~cspmines.agents.exact.objectives`: play for the fewest openings or the fewest mines set off;
* :mod:`~cspmines.agents.exact.corners`: Hill's corner habits, research switches.

>>> from cspmines.agents import make_agent
>>> agent = make_agent("exact:lookahead=3,endgame=0")
>>> agent.options.lookahead, agent.options.searches_endgame
(3, False)
"""

from .options import ExactOptions, OptionError
from .player import ExactAgent, Guess, Reason, single_clue_deductions

__all__ = ["ExactAgent", "ExactOptions", "Guess", "OptionError", "Reason", "single_clue_deductions"]
