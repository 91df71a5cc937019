"""Pictures, chain statistics, bounded chains and `cspmines chains`."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
import pytest

from cspmines import InconsistentPositionError, Limit, Position, solve
from cspmines.bench import Suite
from cspmines.cli import main
from cspmines.studies.chains import chain_game, summarize_chains, zero_cut

from randompositions import random_position

DATA = Path(__file__).parent / "data"
SVG = "{http://www.w3.org/2000/svg}"


def test_positions_and_analyses_draw_themselves_without_the_presenters_imported():
    """No drawer slot filled by importing a presenter for its side effect: a fresh process that imports
    only the package draws, and has imported nothing of cspmines.present."""
    import subprocess
    import sys

    code = ("import sys, cspmines\n"
            "p = cspmines.Position.from_string('3x1x1\\n.1.')\n"
            "print(p._repr_svg_().startswith('<svg'), cspmines.solve(p)._repr_svg_().startswith('<svg'),"
            " any(name.startswith('cspmines.present') for name in sys.modules))")
    root = Path(__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, env={"PYTHONPATH": str(root), "PATH": ""})
    assert done.stdout.split() == ["True", "True", "False"], done.stderr


def test_position_and_analysis_draw_themselves():
    position = Position.from_file(DATA / "beginner-5-000.txt")
    tree = ElementTree.fromstring(position._repr_svg_())
    assert len(tree.findall(f"{SVG}rect")) == position.size
    analysis = solve(position)
    drawn = ElementTree.fromstring(analysis.picture(chains=True))
    letters = [t.text for t in drawn.findall(f"{SVG}text")]
    assert letters.count("S") == len(analysis.safe_cells)  # a letter per proved safe cell
    assert letters.count("M") == len(analysis.mine_cells)  # and per proved mine (no cross that reads as exploded)
    assert drawn.findall(f"{SVG}line")  # the component's outline
    assert not ElementTree.fromstring(analysis.picture()).findall(f"{SVG}line")
    assert analysis.picture(components=True) == analysis.picture(chains=True)  # the earlier name, the same picture
    html = analysis._repr_html_()
    assert "<svg" in html and "models" in html and "23" in html


def test_cli_writes_svg_and_png(tmp_path):
    svg, png = tmp_path / "a.svg", tmp_path / "a.png"
    assert main(["solve", str(DATA / "scatter15-2.txt"), "--svg", str(svg), "--png", str(png), "--outline", "--color", "never"]) == 0
    ElementTree.fromstring(svg.read_text())
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    "text, length",
    [("3x1x1\n.1.", 1), ("5x1x2\n.1.1.", 2), ("7x1x2\n.1.1.1.", 3), ("3x1x1\n1..", 0)],
)
def test_chain_length_is_the_cell_graph_diameter(text, length):
    (component,) = solve(Position.from_string(text), settle=False).components
    assert component.length == length


def test_chain_width_on_a_lattice():
    (component,) = solve(Position.from_file(DATA / "lattice15-2.txt"), settle=False).components
    # a 7x7 lattice of clues: the sweep keeps one row of rules open (8), influence crosses 7 steps
    assert (component.width, component.length) == (8, 7)


def test_bounded_chains_are_sound_approximations():
    rng = np.random.default_rng(99)
    for _ in range(150):
        position = random_position(rng, max_covered=14)
        if position.mines is None:
            continue
        try:
            exact = solve(position)
        except InconsistentPositionError:
            with pytest.raises(InconsistentPositionError):
                solve(position, limit=Limit(max_chain=1))
            continue
        cut = solve(position, limit=Limit(max_chain=1))
        assert set(cut.safe_cells) <= set(exact.safe_cells)  # relaxing never proves too much
        assert set(cut.mine_cells) <= set(exact.mine_cells)
        floats = cut.probabilities()
        assert np.all((floats[~np.isnan(floats)] >= 0) & (floats[~np.isnan(floats)] <= 1))
        if cut.approximate:  # exact only where the cut left every cell proved
            assert cut.model_count is None
            assert cut.inexact_cells == {c for c in position.covered_cells if c not in cut.safe_cells + cut.mine_cells}
        else:
            assert cut.model_count == exact.model_count


def test_bounded_chains_leave_short_chains_exact():
    position = Position.from_file(DATA / "lattice15-2.txt")
    assert solve(position, limit=Limit(max_chain=1000)).exact
    cut = solve(position, limit=Limit(max_chain=20))
    assert cut.approximate and cut.inexact_cells and all(c.n_boxes <= 20 for c in cut.components)


def test_zero_cut():
    assert zero_cut(Position.from_string("4x3\n....\n0000\n...."))
    assert zero_cut(Position.from_string("3x3\n.0.\n.0.\n.0."))
    assert not zero_cut(Position.from_string("3x3\n000\n...\n..."))  # an edge row cuts nothing off


def test_chain_game_surveys_every_position():
    record = chain_game(Suite.create(agents=["exact"], size="intermediate", games=1, seed=2), "exact", 0)
    assert record["positions"] == record["moves"]
    assert all({"cells", "boxes", "clues", "length", "width", "log10_layouts", "seconds"} <= set(c) for c in record["chains"])
    (summary,) = summarize_chains([record])
    assert summary["chains"] == len(record["chains"]) and summary["max_length"] >= summary["mean_length"]


def test_chains_cli(tmp_path, capsys):
    table, figure, out = tmp_path / "c.csv", tmp_path / "c.png", tmp_path / "c.jsonl"
    code = main(["chains", "--size", "9x9x10", "--games", "3", "--density-sweep", "0.1,0.2", "--csv", str(table),
                 "--plot", str(figure), "--out", str(out), "--quiet", "--json"])
    assert code == 0 and figure.stat().st_size > 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert [r["x"] for r in results] == [0.1, 0.2] and [r["mines"] for r in results] == [8, 16]
    assert len(out.read_text().splitlines()) == 6


def test_bounded_chains_under_a_budget_still_give_every_cell_a_value():
    position = Position.from_file(DATA / "lattice15-2.txt")
    analysis = solve(position, limit=Limit(max_chain=20, nodes=5))
    floats = analysis.probabilities()
    covered = position.grid == -1
    assert not np.isnan(floats[covered]).any() and not analysis.exact
    assert set(analysis.safe_cells) <= set(solve(position).safe_cells)


def test_the_box_diameter_equals_networkx_on_random_chains():
    import random

    import networkx as nx

    from cspmines.engine.chains import LocalRule, box_diameter

    rng = random.Random(7)
    for _ in range(2000):
        n = rng.randint(2, 40)
        rules = [LocalRule(tuple(sorted({i - 1, i} | {rng.randrange(n) for _ in range(rng.randint(0, 2))})), 1) for i in range(1, n)]
        order = list(range(n))
        rng.shuffle(order)
        rules = [LocalRule(tuple(sorted(order[b] for b in rule.boxes)), 1) for rule in rules]
        graph = nx.Graph()
        graph.add_nodes_from(range(n))
        for rule in rules:
            graph.add_edges_from((a, b) for i, a in enumerate(rule.boxes) for b in rule.boxes[i + 1:])
        assert box_diameter(n, rules) == nx.diameter(graph)
