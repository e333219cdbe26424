"""webpbn XML (``.xml``): the flag sample and the quirks of real files."""

from __future__ import annotations

import numpy as np

from rofl.formats import read_puzzle, webpbn
from rofl.puzzle import Palette, Puzzle
from tests.formats.textcases import BW, DATA, FLAG, FLAG_PALETTE, read


def test_flag_xml_sample():
    puzzle, grid = read_puzzle(DATA / "flag.xml")
    assert puzzle == Puzzle.from_grid(FLAG, FLAG_PALETTE)
    assert np.array_equal(grid, FLAG)  # the goal, not the 'saved' image
    assert puzzle.meta["notes"] == "A small colour picture & its goal."
    assert puzzle.meta["licence"] == "(c) 2026 the rofl authors, CC0"
    assert puzzle.meta["id"] == "#1 (v.1)"


def test_xml_is_found_by_its_content(tmp_path):
    path = tmp_path / "flag.txt"
    path.write_bytes(b"\n  " + (DATA / "flag.xml").read_bytes())
    assert read_puzzle(path)[0] == read_puzzle(DATA / "flag.xml")[0]


def test_xml_with_goal_only_gets_its_clues_from_the_goal():
    text = """<puzzleset><puzzle><solution><image>|.X|\n|XX|</image></solution></puzzle></puzzleset>"""
    puzzle, grid = read(webpbn, text)
    assert puzzle == Puzzle.from_grid(np.array([[0, 1], [1, 1]]), BW)
    assert np.array_equal(grid, [[0, 1], [1, 1]])


def test_xml_puzzleset_metadata_and_first_puzzle():
    text = """<puzzleset><author>Set Author</author><title>A series</title>
    <puzzle><title>One</title><clues type="rows"><line><count>1</count></line></clues>
    <clues type="columns"><line><count>1</count></line></clues></puzzle>
    <puzzle><title>Two</title></puzzle></puzzleset>"""
    puzzle, _ = read(webpbn, text)
    assert puzzle.meta["title"] == "One" and puzzle.meta["author"] == "Set Author"
    assert puzzle.rows == (((1, 1),),)


def test_xml_lone_zero_count_is_an_empty_line():
    text = """<puzzleset><puzzle><clues type="rows"><line><count>0</count></line><line><count>1</count></line>
    </clues><clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>"""
    assert read(webpbn, text)[0].rows == ((), ((1, 1),))


def test_xml_undeclared_css_colour_and_background_attribute():
    text = """<puzzleset><puzzle backgroundcolor="yellow" defaultcolor="navy">
    <clues type="rows"><line><count>1</count><count color="red">1</count></line></clues>
    <clues type="columns"><line><count>1</count></line><line><count color="red">1</count></line></clues>
    </puzzle></puzzleset>"""
    puzzle, _ = read(webpbn, text)
    assert puzzle.palette == Palette(["#ffff00", "#000080", "#ff0000"])
