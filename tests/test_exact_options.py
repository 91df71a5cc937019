"""The exact agent's options, each declared once: its check and its documentation drive the
validation, the docstrings, the docs table and the reading of agent specs."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from cspmines.agents import make_agent
from cspmines.agents.exact.declared import count, declared
from cspmines.agents.exact.options import ExactOptions, Objective, OptionError, ResearchSwitches, Spreads, options_table

DOCS = Path(__file__).resolve().parent.parent / "docs" / "agents.md"
RESEARCH = {each.name for each in dataclasses.fields(ResearchSwitches)}
TUNED = {each.name for each in dataclasses.fields(ExactOptions)} - {"research"}


def test_a_field_without_its_check_and_documentation_is_refused():
    with pytest.raises(TypeError, match="Bare.size is declared without its check and documentation"):

        @declared
        @dataclasses.dataclass(frozen=True)
        class Bare:
            size: int = 3

    @declared
    @dataclasses.dataclass(frozen=True)
    class Declared:
        size: int = count(3, doc="How many.")

    assert "size : int\n        How many." in Declared.__doc__


def test_every_option_is_documented_in_the_docstrings():
    for cls, names in ((ExactOptions, TUNED), (ResearchSwitches, RESEARCH)):
        documented = set(re.findall(r"^    (\w+) : ", cls.__doc__, flags=re.M))
        assert documented == names | ({"research"} if cls is ExactOptions else set())


def test_the_docs_tables_are_the_declared_ones_and_list_every_option():
    docs = DOCS.read_text()
    tuned, research = options_table(), options_table(research=True)
    assert tuned in docs and research in docs, "docs/agents.md: paste options_table() and options_table(research=True)"
    listed = set(re.findall(r"^\| `(\w+)` \|", f"{tuned}\n{research}", flags=re.M))
    assert listed == set(ExactOptions.names()) == TUNED | RESEARCH
    assert set(re.findall(r"^\| `(\w+)` \|", research, flags=re.M)) == RESEARCH


def test_research_switches_are_set_by_their_own_names_in_the_same_spec():
    options = make_agent("exact:lookahead=4,dominance=true,first_corner=0.01,corners=2,space=8,reuse=1").options
    assert options.lookahead == 4
    assert options.research == ResearchSwitches(first_corner=0.01, corners=2, dominance=True, space=8, reuse=True)
    assert options == ExactOptions.parse("lookahead=4,dominance=true,first_corner=0.01,corners=2,space=8,reuse=1")
    assert options.with_changes(dominance=False).research.dominance is False
    assert options.with_changes(research=ResearchSwitches(), linked=True).research == ResearchSwitches(linked=True)
    for bad in ("corners=-1", "first_corner=1", "dominance=maybe", "space=1.5"):
        with pytest.raises(OptionError, match=bad.split("=")[0]):
            ExactOptions.parse(bad)


def test_enum_options_are_their_enums_and_read_from_their_words():
    assert ExactOptions().objective is Objective.AUTO and ExactOptions().spreads is Spreads.OFF_FRONT
    for word in Objective.words():
        assert ExactOptions.parse(f"objective={word}").objective is Objective(word)
    for word in Spreads.words():
        assert make_agent(f"exact:spreads={word}").options.spreads is Spreads(word)
    assert ExactOptions(objective="mines").objective_for("classic") is Objective.MINES
    assert ExactOptions().objective_for("score") is Objective.MINES
    with pytest.raises(OptionError, match="it takes one of auto, win, openings, mines"):
        ExactOptions.parse("objective=draw")


@pytest.mark.parametrize("name", sorted(TUNED | RESEARCH))
def test_every_option_reads_its_own_default_from_a_spec_and_refuses_nonsense(name):
    default = getattr(ExactOptions(), name) if name in TUNED else getattr(ResearchSwitches(), name)
    word = "none" if default is None else str(default).lower()  # True -> true; a number or a word as it is
    assert ExactOptions.parse(f"{name}={word}") == ExactOptions()
    if name != "backend":  # a backend's name is checked where the engine is asked for it
        with pytest.raises(OptionError, match=f"exact option {name}=.* is invalid: it takes"):
            ExactOptions.parse(f"{name}=-7.5x")


@pytest.mark.parametrize("command", ["move", "bench"])
def test_help_lists_every_option_at_its_default(command, capsys):
    from cspmines.cli import main

    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for name in ExactOptions.names():
        assert re.search(rf"\b{name}=\S", text), name
    assert "lookahead=30" in text and "objective=auto" in text and "dominance=false" in text


def test_the_stage_counts_flagged_cells_as_not_yet_opened():
    """The engine's view of a position flags the mines the agent proved; they are not opened, so they keep the
    board in its opening: half of this board (its flag) is unopened, the share at which the opening's weight holds."""
    from cspmines import Position

    flagged = Position.from_string("2x1x1\nF1")
    assert ExactOptions.parse("early_progress=0.2,early_share=0.5").at_stage(flagged).progress == 0.2
    assert ExactOptions.parse("early_progress=0.2,early_share=0.51").at_stage(flagged).progress == ExactOptions().progress
