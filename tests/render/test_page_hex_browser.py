"""The hexagonal page in a real browser: Playwright driving the system Chromium,
as ``test_page_browser.py`` does (the same fixture and the same skip or
failure when no browser is there).

A side-3 puzzle is played to the end by clicks, by drags along each of the
three directions, by hints, and with ``?`` groups; Check, undo and redo,
progress, the timer, reloading and a phone's touch screen are covered.
"""

from __future__ import annotations

import numpy as np
import pytest

from rofl.hexagon import Hexagon, HexPuzzle
from rofl.puzzle import Palette
from tests.render import test_page_browser
from tests.render.test_page_browser import PHONE, centre, page_opener, reload_saved, state, status, write_pages

browser = test_page_browser.browser  # the Chromium fixture, shared

BOARD = Hexagon.of(3)
# the three lines through the centre: line-solvable, a five-cell run in each direction
STAR = np.array([int(q == 0 or r == 0 or s == 0) for q, r, s in BOARD.coords])
ROW = [7, 8, 9, 10, 11]  # row 3, left to right
FALLING = [0, 4, 9, 14, 18]  # falling diagonal 3, top to bottom
RISING = [2, 5, 9, 13, 16]  # rising diagonal 3, top to bottom
COLOURS = Palette(["#ffffff", "#000000", "#d02030", "#3050d0"])
# the star in three colours (row red, falling blue, rising black), every other group's colour a '?'
PAINTED = np.array([2 if r == 0 else 3 if q == 0 else 1 if s == 0 else 0 for q, r, s in BOARD.coords])
PAINTED[9] = 1


def solution_states(cells) -> list[int]:
    return [int(v) if v else -1 for v in cells]


@pytest.fixture(scope="module")
def hex_pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hex-pages")
    plain = HexPuzzle.from_cells(3, PAINTED, COLOURS)
    made = {
        "star": HexPuzzle.from_cells(3, STAR),
        "question": plain.with_unknown_colors(np.arange(plain.n_groups) % 2 == 0),
    }
    return write_pages(folder, made)


@pytest.fixture
def open_hex(browser, hex_pages, request, tmp_path_factory):
    """open_hex(name, phone=False): a fresh context (its own storage) showing a hexagonal test page."""
    yield from page_opener(browser, hex_pages, request, tmp_path_factory, "hex-page-screenshots")


def drag(page, cells: list[int], *, wobble: float = 0.0) -> None:
    """Press on the first cell, move over the others (off their centres by ``wobble`` px), release on the last."""
    page.mouse.move(*centre(page, cells[0]))
    page.mouse.down()
    for i in cells[1:]:
        x, y = centre(page, i)
        page.mouse.move(x, y + wobble, steps=3)
    page.mouse.up()


def grid(page) -> list[int]:
    return state(page)["grid"]


# ------------------------------------------------------------------ board


def test_the_board_is_drawn_with_clues_on_three_axes(open_hex):
    page = open_hex("star")
    assert page.locator("#board svg.hex g.cell").count() == 19
    assert page.locator("#board g.clue").count() == 15  # five lines in each of three directions
    for kind in ("row", "falling", "rising"):
        assert page.locator(f"g.clue.{kind}").count() == 5
    # the clue of the middle row, and its label for screen readers
    middle = page.locator("g.clue.row").nth(2)
    assert middle.locator(".n text").all_text_contents() == ["5"]
    assert middle.get_attribute("aria-label") == "row 3: 5"
    assert page.locator("g.clue.rising").nth(0).get_attribute("aria-label").startswith("rising diagonal 1: 1, 1")
    # the cells are hexagons the size the window allows, no smaller than a finger
    box = page.locator("#cell-9 .hexagon").evaluate("p => p.getBoundingClientRect().toJSON()")
    assert 30 <= box["width"] <= 60 and box["height"] > box["width"]  # pointy top
    page.mouse.move(*centre(page, 9))
    assert page.locator("#where").text_content() == "row 3, cell 3"
    # the lines through the cell under the pointer are highlighted: three clues, their cells
    assert page.locator("g.clue.hl").count() == 3
    assert page.locator("g.cell.hl").count() == 13


# ------------------------------------------------------------------ mouse


def test_click_paint_mark_clear_undo_and_redo(open_hex):
    page = open_hex("star")
    page.click("#cell-9")
    page.click("#cell-1", button="right")
    assert grid(page)[9] == 1 and grid(page)[1] == -1
    assert "f" in page.locator("#cell-9").get_attribute("class")
    assert page.locator("#cell-1 .mark").text_content() == "\u00d7"
    page.click("#cell-9")  # the tool's own cell: cleared
    assert grid(page)[9] == 0
    page.keyboard.press("Control+z")
    assert grid(page)[9] == 1
    page.click("#undo")
    assert grid(page)[1] == 0
    page.click("#redo")
    page.keyboard.press("Control+y")
    assert grid(page)[1] == -1 and grid(page)[9] == 0


def test_play_to_the_end_by_clicks(open_hex):
    page = open_hex("star")
    s = state(page)
    assert not s["running"] and s["seconds"] == 0 and page.locator("#timer").text_content() == "0:00"
    assert page.locator("#progress").text_content() == "0%"
    painted = [i for i, v in enumerate(STAR) if v]
    for n, i in enumerate(painted):
        page.click(f"#cell-{i}")
        if n == 0:
            assert state(page)["running"]  # the timer starts at the first move
            assert page.locator("#progress").text_content() == f"{100 // 19}%"
    s = state(page)
    assert s["solved"] and not s["running"] and not s["revealed"]
    assert status(page).startswith("Solved in")
    assert page.locator("#progress").text_content() == "100%"
    assert page.locator("g.clue.done").count() == 15
    page.click("#cell-1")  # an edit after the end
    s = state(page)
    assert not s["solved"] and s["running"] and status(page).startswith("Back to playing")


def test_play_to_the_end_by_a_drag_in_each_direction(open_hex):
    page = open_hex("star")
    drag(page, ROW, wobble=6)  # a little off the row's centre line: still the row
    assert [i for i, v in enumerate(grid(page)) if v] == ROW
    drag(page, FALLING)  # down and to the right
    assert [i for i, v in enumerate(grid(page)) if v] == sorted(set(ROW + FALLING))
    drag(page, RISING[::-1])  # up and to the right, from the bottom end
    s = state(page)
    assert s["solved"] and s["grid"] == [1 if v else 0 for v in STAR]
    # each drag is one step back and forth
    page.keyboard.press("Control+z")
    assert [i for i, v in enumerate(grid(page)) if v] == sorted(set(ROW + FALLING))
    page.keyboard.press("Control+y")
    assert state(page)["solved"]
    # a drag from a painted cell clears its run; the crossing runs stay
    drag(page, [7, 8])
    assert grid(page)[7:10] == [0, 0, 1]


def test_a_drag_past_the_edge_stops_there_and_marks_with_the_right_button(open_hex):
    page = open_hex("star")
    page.mouse.move(*centre(page, 9))
    page.mouse.down(button="right")
    x, y = centre(page, 11)
    page.mouse.move(x + 150, y, steps=5)  # well beyond the board's right corner
    page.mouse.up(button="right")
    assert [i for i, v in enumerate(grid(page)) if v] == [9, 10, 11] and grid(page)[9] == -1


# ---------------------------------------------------------- check, hints


def test_check_finds_a_wrong_cell(open_hex):
    page = open_hex("star")
    assert state(page)["lineSolvable"]
    page.click("#cell-0")  # right
    page.click("#cell-1")  # wrong: the star leaves it empty
    page.click("#cell-3", button="right")  # right
    page.click("#check")
    assert state(page)["mistakes"] == [1]
    assert "1 cell is wrong" in status(page)
    assert "mistake" in page.locator("#cell-1").get_attribute("class")
    assert page.locator("#cell-1 .ring").evaluate("p => getComputedStyle(p).stroke") != "none"
    page.click("#cell-1")  # cleared: its outline goes
    assert "mistake" not in page.locator("#cell-1").get_attribute("class")
    page.click("#check")
    assert state(page)["mistakes"] == [] and "No mistakes so far" in status(page)
    # a full line that cannot match is flagged without Check
    for i in (12, 15):
        page.click(f"#cell-{i}", button="right")
    page.click("#cell-13", button="right")
    page.click("#cell-14", button="right")  # row 4 (clue 2) all marked empty
    row4 = page.locator("g.clue.row").nth(3)
    assert "wrong" in row4.get_attribute("class") and row4.locator(".flag").is_visible()


def test_hints_fill_cells_then_solve_the_puzzle(open_hex):
    page = open_hex("star")
    page.click("#hint")
    # the line whose clue decides the most cells: the middle row (rows before diagonals on a tie)
    assert status(page).startswith("Row 3: 5 cells follow from its clue")
    assert "hint-head" in page.locator("g.clue.row").nth(2).get_attribute("class")
    assert page.locator("g.cell.hint-fill").count() == 5 and page.locator("#cell-7 .mark").text_content() == "\u25cf"
    page.click("#apply")
    assert [grid(page)[i] for i in ROW] == [1] * 5
    assert page.locator("g.cell.hint-fill").count() == 0 and page.locator("#cell-7 .mark").text_content() == ""
    page.focus("#board")
    for _ in range(40):
        if state(page)["solved"]:
            break
        page.keyboard.press("h")
    s = state(page)
    assert s["solved"] and not s["revealed"]
    assert [max(v, 0) for v in s["grid"]] == STAR.tolist()  # solved once the painted cells match


def test_options_and_reveal(open_hex):
    page = open_hex("star")
    page.click(".options summary")
    page.check("#opt-mistakes")  # show mistakes as I go
    page.click("#cell-1")
    assert state(page)["mistakes"] == [1]
    page.keyboard.press("Control+z")
    assert state(page)["mistakes"] == []
    page.check("#opt-cross")  # cross out the rest of a finished line
    page.click("#cell-0")
    page.click("#cell-2")  # row 1 (1 1) done: its middle cell crossed, in the same step
    assert grid(page)[:3] == [1, -1, 1]
    page.keyboard.press("Control+z")
    assert grid(page)[:3] == [1, 0, 0]
    page.once("dialog", lambda d: d.accept())
    page.click("#reveal")
    s = state(page)
    assert s["solved"] and s["revealed"] and s["grid"] == solution_states(STAR)
    assert status(page) == "Solution revealed."


# ------------------------------------------------------------- save, keys


def test_reload_restores_the_saved_state(open_hex):
    page = open_hex("star")
    page.click("#cell-9")
    page.click("#cell-1", button="right")
    page.keyboard.press("x")
    first = page.locator("g.clue.falling .n").first
    first.click()  # struck out for the player's own bookkeeping
    assert "struck" in first.get_attribute("class")
    page.click("#zoomin")
    before = state(page)
    reload_saved(page)
    after = state(page)
    for name in ("grid", "tool", "struck", "cell", "progress"):
        assert after[name] == before[name], name
    assert after["grid"][9] == 1 and after["grid"][1] == -1 and after["tool"] == -1 and after["struck"] == ["f0.0"]
    assert "struck" in page.locator("g.clue.falling .n").first.get_attribute("class")
    assert page.locator("#cell-1 .mark").text_content() == "\u00d7"
    assert page.locator("#timer").text_content() != ""


def test_keyboard_moves_along_rows_and_between_them(open_hex):
    page = open_hex("star")
    page.focus("#board")
    assert "cur" in page.locator("#cell-0").get_attribute("class")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")  # cell 1 (q 1, row 1) down: cell 5 or 4, the nearer its column
    at = page.locator("#board").get_attribute("aria-activedescendant")
    assert at in ("cell-4", "cell-5")
    page.keyboard.press("Space")
    assert grid(page)[int(at.split("-")[1])] == 1
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # to the bottom row, down a zigzag
    bottom = int(page.locator("#board").get_attribute("aria-activedescendant").split("-")[1])
    assert bottom in (16, 17, 18)
    page.keyboard.press(".")
    assert grid(page)[bottom] == -1
    assert page.locator("#where").text_content().startswith("row 5, cell ")


# -------------------------------------------------------- '?' clue groups


def test_a_puzzle_with_question_marks_is_played_to_the_end(open_hex):
    page = open_hex("question")
    texts = page.locator("g.clue .n text").all_text_contents()
    assert any(t.endswith("?") for t in texts) and any(not t.endswith("?") for t in texts)
    assert page.locator("g.clue .n .hatch").count() == sum(t.endswith("?") for t in texts)
    assert "of any colour" in page.content()
    assert state(page)["lineSolvable"]
    for i, colour in enumerate(PAINTED):
        if colour:
            page.keyboard.press(str(colour))
            page.click(f"#cell-{i}")
    s = state(page)
    assert s["solved"] and s["grid"] == [int(v) for v in PAINTED]
    # a '?' group takes any colour of its set: a wrong colour where a '?' stands is caught by the lines it crosses
    page.keyboard.press("1")
    page.click("#cell-7")  # red to black: row 3 starts with a '?' group
    page.click("#cell-7")  # the tool's own cell: cleared
    page.keyboard.press("2")
    page.click("#cell-7")
    assert state(page)["solved"]
    page.keyboard.press("3")
    page.click("#cell-7")
    page.click("#check")
    assert state(page)["mistakes"] == [7]


# ------------------------------------------------------------------ phone


def test_phone_touch_paints_and_the_board_fits_the_width(open_hex):
    page = open_hex("question", phone=True)
    width = PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.locator("#board svg").bounding_box()
    assert board["x"] >= 0 and board["x"] + board["width"] <= width
    assert page.locator("#cell-9 .hexagon").evaluate("p => p.getBoundingClientRect().width") >= 30  # a finger's
    assert "Tap" in status(page)
    page.tap("#cell-9")
    assert grid(page)[9] == 1
    cdp = page.context.new_cdp_session(page)

    def touch(kind, *points):
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": kind, "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]},
        )

    # a finger dragged down the falling diagonal paints it, and the page does not scroll
    scroll = page.evaluate("[window.scrollY, document.getElementById('board').scrollTop]")
    page.keyboard.press("3")
    path = [centre(page, i) for i in FALLING]
    touch("touchStart", path[0])
    for a, b in zip(path, path[1:], strict=False):
        for t in (0.5, 1.0):
            touch("touchMove", (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    touch("touchEnd")
    assert [grid(page)[i] for i in FALLING] == [3, 3, 1, 3, 3]  # the centre was painted already
    assert page.evaluate("[window.scrollY, document.getElementById('board').scrollTop]") == scroll
    # two fingers zoom and leave no paint behind
    before = state(page)
    p, q = centre(page, 8), centre(page, 10)
    touch("touchStart", p)
    touch("touchStart", p, q)
    for t in range(1, 6):
        touch("touchMove", (p[0] - 8 * t, p[1]), (q[0] + 8 * t, q[1]))
    touch("touchEnd")
    after = state(page)
    assert after["cell"] > before["cell"] and after["grid"] == before["grid"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # the board scrolls, not the page


# ---------------------------------------------------------- accessibility


@pytest.mark.parametrize("name", ["star", "question"])
def test_axe_finds_no_violations(open_hex, name):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python not installed")
    page = open_hex(name)
    page.click("#cell-0")
    page.click(".options summary")
    page.click("details.help summary")
    results = axe.Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    # a hint on show, a struck number, Check's outline on a cell
    page.click("#hint")
    page.locator("g.clue .n").first.click()
    page.click("#cell-1", button="right")
    page.click("#check")
    page.focus("#board")  # the keyboard cursor: aria-activedescendant names a cell
    assert page.locator("#board").get_attribute("aria-activedescendant") == "cell-0"
    results = axe.Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
