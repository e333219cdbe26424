"""The hand-over's figures in the docs are the code's (``search.HANDOVER_NODES``,
``HANDOVER_NODES_FIRST``, ``HANDOVER_SECONDS``, ``HANDOVER_CELLS``): the guide said 1000 nodes, about a
second, two rounds after the code moved to 8000 and then 6400 nodes."""

from __future__ import annotations

import re

from rofl.solver import search
from tests.places import REPO


def _text(name: str) -> str:
    return " ".join((REPO / "docs" / name).read_text(encoding="utf-8").split())  # lines joined


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def test_the_guide_gives_the_hand_over_of_the_code():
    guide = _text("guide.md")
    said = re.search(
        r"hands a puzzle of at most ([\d,]+) cells over to the SAT solver "
        r"after ([\d,]+) search nodes or ([\d.]+) s of CPU",
        guide,
    )
    assert said, "the guide's --engine sat paragraph no longer says when the search hands over"
    assert _number(said[1]) == search.HANDOVER_CELLS
    assert _number(said[2]) == search.HANDOVER_NODES
    assert _number(said[3]) == search.HANDOVER_SECONDS
    first = re.search(r"With `--first-only` it hands over after ([\d,]+) search nodes", guide)
    assert first and _number(first[1]) == search.HANDOVER_NODES_FIRST


def test_the_design_gives_the_hand_over_of_the_code():
    design = _text("design.md")
    nodes = re.findall(r"([\d,]+) nodes \(`search\.HANDOVER_NODES`", design)
    nodes += re.findall(r"has not decided after ([\d,]+) nodes goes to the SAT solver", design)
    seconds = re.findall(
        r"([\d.]+) CPU seconds for puzzles whose nodes are slow \(`search\.HANDOVER_SECONDS`\)", design
    )
    cells = re.findall(r"more than ([\d,]+) cells \(`HANDOVER_CELLS`\)", design)
    assert len(nodes) == 2 and len(seconds) == 1 and len(cells) == 1
    assert {_number(n) for n in nodes} == {search.HANDOVER_NODES}
    assert _number(seconds[0]) == search.HANDOVER_SECONDS
    assert _number(cells[0]) == search.HANDOVER_CELLS
    first = re.findall(r"hands over after ([\d,]+) nodes in place of [\d,]+ \(`search\.HANDOVER_NODES_FIRST`\)", design)
    first += re.findall(r"\(a search for a first solution after ([\d,]+)\)", design)
    assert len(first) == 2 and {_number(n) for n in first} == {search.HANDOVER_NODES_FIRST}
