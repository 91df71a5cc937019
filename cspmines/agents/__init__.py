"""Agents: the exact player, the seeds' algorithms as baselines, and a random floor.

>>> from cspmines.agents import agent_names
>>> agent_names()
('exact', 'greedy', 'knowledge-base', 'partition', 'random', 'risk-score', 'set-theory', 'single-point')
"""

from .advice import GameOverError, Suggestion, suggest
from .base import RULES, Action, Agent, UnknownAgentError
from .exact import ExactAgent
from .greedy import GreedyAgent
from .knowledgebase import KnowledgeBaseAgent
from .partition import PartitionAgent
from .random import RandomAgent
from .registry import agent_names, make_agent, register_agent
from .riskscore import RiskScoreAgent
from .settheory import SetTheoryAgent
from .singlepoint import SinglePointAgent

__all__ = [
    "Action",
    "Agent",
    "GameOverError",
    "Suggestion",
    "suggest",
    "RULES",
    "UnknownAgentError",
    "agent_names",
    "make_agent",
    "register_agent",
    "ExactAgent",
    "GreedyAgent",
    "KnowledgeBaseAgent",
    "PartitionAgent",
    "RandomAgent",
    "RiskScoreAgent",
    "SetTheoryAgent",
    "SinglePointAgent",
]

for _agent in (
    ExactAgent,
    GreedyAgent,
    KnowledgeBaseAgent,
    PartitionAgent,
    RandomAgent,
    RiskScoreAgent,
    SetTheoryAgent,
    SinglePointAgent,
):
    register_agent(_agent.name, _agent)
