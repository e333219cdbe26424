"""``rofl page`` in a real browser: Playwright for Python driving the system Chromium.

The V8 tests (test_page.py) cover the page's logic; these cover the page
itself: its DOM, clicks and right-clicks, drags, touch on a phone-sized
screen, Check, reload, print layout, keyboard, and an axe-core audit.  They
read the page's own state through ``RoflPageState()`` and take a screenshot
of every page of a failing test (its path is printed).

Playwright cannot download its browser here, so it drives Debian's
``chromium`` package.  Without Playwright or a Chromium the tests skip with
one reason; with ``ROFL_REQUIRE_BROWSER=1`` (``.ci/run`` sets it) they fail
instead, so CI cannot pass without running them.
"""

from __future__ import annotations

import os
import shutil

import numpy as np
import pytest

from rofl.formats import read_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render.page import puzzle_page
from tests.places import SAMPLES

# line-solvable: rows [1 1] [5] [5] [3] [1]
HEART = np.array(
    [
        [0, 1, 0, 1, 0],
        [1, 1, 1, 1, 1],
        [1, 1, 1, 1, 1],
        [0, 1, 1, 1, 0],
        [0, 0, 1, 0, 0],
    ],
    np.uint8,
)
# two solutions: line logic decides nothing
DIAGONAL = np.eye(2, dtype=np.uint8)
# one row of eleven colours, for the keys past 9
RAINBOW = np.arange(1, 12, dtype=np.uint8).reshape(1, 11)
RAINBOW_PALETTE = Palette(
    ["#ffffff"] + [f"#{(40 + 18 * k):02x}{(200 - 15 * k):02x}{(60 + 17 * k):02x}" for k in range(11)]
)
# a taller one that scrolls on a phone
BAND = np.kron(np.array([[1, 0, 1, 1, 0, 1, 0, 0, 1, 1]], np.uint8), np.ones((30, 3), np.uint8))

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _chromium() -> str:
    """The system Chromium, or a skip (a failure under ROFL_REQUIRE_BROWSER) saying what is missing."""
    missing = None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing = "Playwright for Python is not installed (pip install playwright)"
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if missing is None and path is None:
        missing = "no chromium on PATH (apt-get install chromium)"
    if missing is not None:
        if os.environ.get("ROFL_REQUIRE_BROWSER"):
            pytest.fail(f"browser tests required but {missing}")
        pytest.skip(missing)
    return path


@pytest.fixture(scope="module")
def browser():
    path = _chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
        b = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The test puzzles as pages on disk: name -> file:// URL."""
    folder = tmp_path_factory.mktemp("pages")
    made = {
        "heart": Puzzle.from_grid(HEART),
        "diagonal": Puzzle.from_grid(DIAGONAL),
        "rainbow": Puzzle.from_grid(RAINBOW, RAINBOW_PALETTE),
        "band": Puzzle.from_grid(BAND),
        "horse": read_puzzle(SAMPLES / "horse.rofl")[0],
    }
    return write_pages(folder, made)


def write_pages(folder, made: dict) -> dict[str, str]:
    """Each puzzle of ``made`` (name -> puzzle) as a page in ``folder``: name -> file:// URL.
    Beside them an empty page, ``blank.html`` (:func:`reload_saved`'s probe)."""
    urls = {}
    for name, puzzle in made.items():
        path = folder / f"{name}.html"
        path.write_text(puzzle_page(puzzle, title=name), encoding="utf-8")
        urls[name] = path.as_uri()
    (folder / BLANK).write_text("<!doctype html><title>blank</title>", encoding="utf-8")
    return urls


#: An empty page beside the test pages (the same origin, so the same localStorage)
BLANK = "blank.html"

# What a saved puzzle must hold for a reload to find it: the cells, tool, struck clues and options of each key
# saved (not the time, which a save when the page is hidden moves on).
_HOLDS_SAVED = """want => Object.keys(want).every(key => {
    let got;
    try { got = JSON.parse(localStorage.getItem(key) || "null"); } catch (e) { return false; }
    return got !== null && got.cells === want[key].cells && got.tool === want[key].tool
        && JSON.stringify(got.struck) === JSON.stringify(want[key].struck)
        && JSON.stringify(got.options) === JSON.stringify(want[key].options);
})"""


def reload_saved(page) -> None:
    """Reload ``page`` once another page of its context reads what it saved,
    and wait for the reloaded page's script.  A page's localStorage writes
    reach the browser process asynchronously: a reload into a new renderer
    on a loaded machine can read the store before they land (CI once
    reloaded a page that restored nothing at all)."""
    saved = page.evaluate(
        "() => Object.fromEntries(Object.keys(localStorage).map(k => [k, JSON.parse(localStorage.getItem(k))]))"
    )
    assert saved, "the page saved nothing"
    probe = page.context.new_page()
    try:
        probe.goto(page.url.rsplit("/", 1)[0] + "/" + BLANK)
        probe.wait_for_function(_HOLDS_SAVED, arg=saved, timeout=10_000)
    finally:
        probe.close()
    page.reload()
    page.wait_for_function("typeof RoflPageState === 'function'")


@pytest.fixture
def open_page(browser, pages, request, tmp_path_factory):
    """open_page(name, phone=False): a fresh context (its own storage) showing a test puzzle."""
    yield from page_opener(browser, pages, request, tmp_path_factory, "page-screenshots")


def page_opener(browser, urls: dict[str, str], request, tmp_path_factory, shots: str):
    """The body of a page-opening fixture: yields ``open_(name, phone=False,
    width=None)``, which shows ``urls[name]`` in a fresh context; afterwards
    screenshots every page into a ``shots`` folder if the test failed, and
    fails on any script error a page raised."""
    opened = []
    failed_before = request.session.testsfailed

    def open_(name: str, *, phone: bool = False, width: int | None = None):
        viewport = dict(PHONE if phone else DESKTOP)
        if width:
            viewport["width"] = width
        context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(urls[name])
        page.wait_for_function("typeof RoflPageState === 'function'")
        page.errors = errors
        opened.append(page)
        return page

    yield open_
    if request.session.testsfailed > failed_before:
        folder = tmp_path_factory.mktemp(shots, numbered=True)
        for n, page in enumerate(opened):
            shot = folder / f"{request.node.name}-{n}.png"
            page.screenshot(path=str(shot), full_page=True)
            print(f"screenshot: {shot}")
    for page in opened:
        assert not page.errors, page.errors
        page.context.close()


def state(page) -> dict:
    return page.evaluate("RoflPageState()")


def centre(page, i: int) -> tuple[float, float]:
    """The centre of cell ``i`` on the screen, scrolled into view (a rectangle's cells are drawn on a canvas)."""
    box = page.evaluate("i => RoflPageCellBox(i)", i)
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def click(page, i: int, button: str = "left") -> None:
    page.mouse.click(*centre(page, i), button=button)


def tap(page, i: int) -> None:
    page.touchscreen.tap(*centre(page, i))


def status(page) -> str:
    return page.locator("#status").inner_text()


def solution_states(grid: np.ndarray) -> list[int]:
    return [int(v) if v else -1 for v in grid.ravel()]


# ----------------------------------------------------------------- mouse


def test_click_paint_mark_clear_and_undo(open_page):
    page = open_page("heart")
    click(page, 1)
    click(page, 0, button="right")
    assert state(page)["grid"][:2] == [-1, 1]
    click(page, 1)  # the tool's own cell: cleared
    assert state(page)["grid"][1] == 0
    page.keyboard.press("Control+z")
    assert state(page)["grid"][1] == 1
    page.click("#redo")
    assert state(page)["grid"][1] == 0


def test_drags_paint_straight_lines_and_alt_rectangles(open_page):
    page = open_page("heart")
    page.mouse.move(*centre(page, 5))
    page.mouse.down()
    page.mouse.move(*centre(page, 7), steps=4)
    page.mouse.move(*centre(page, 8), steps=2)  # a little down-right: still the row
    page.mouse.up()
    assert state(page)["grid"][5:10] == [1, 1, 1, 1, 0]
    page.keyboard.down("Alt")
    page.mouse.move(*centre(page, 11))
    page.mouse.down()
    page.mouse.move(*centre(page, 18), steps=4)
    page.mouse.up()
    page.keyboard.up("Alt")
    grid = np.array(state(page)["grid"]).reshape(5, 5)
    assert (grid[2:4, 1:4] == 1).all() and grid[2, 0] == 0 and grid[4].tolist() == [0] * 5
    page.keyboard.press("Control+z")  # the rectangle is one step
    assert np.array(state(page)["grid"]).reshape(5, 5)[2:4].sum() == 0


# ------------------------------------------------------------------ check


def test_check_outlines_a_run_one_cell_off(open_page):
    page = open_page("heart")
    assert state(page)["lineSolvable"]
    # row 4's clue is 3; painted one cell too far left it still fits its row
    for i in (15, 16, 17):
        click(page, i)
    page.click("#check")
    assert state(page)["mistakes"] == [15]
    assert "1 cell is wrong" in status(page)
    click(page, 15)  # cleared: its outline goes
    assert state(page)["mistakes"] == []
    # show mistakes as I go
    page.click(".options summary")
    page.check("#opt-mistakes")
    click(page, 20, button="right")  # marked empty where the solution paints? no: (4, 0) is empty
    click(page, 22, button="right")  # (4, 2) is painted in the solution
    assert state(page)["mistakes"] == [22]
    page.keyboard.press("Control+z")
    assert state(page)["mistakes"] == []


def test_reveal_asks_first(open_page):
    page = open_page("heart")
    page.click(".options summary")
    page.once("dialog", lambda d: d.dismiss())
    page.click("#reveal")
    assert not state(page)["solved"]
    page.once("dialog", lambda d: d.accept())
    page.click("#reveal")
    s = state(page)
    assert s["solved"] and s["revealed"] and s["grid"] == solution_states(HEART)
    assert status(page) == "Solution revealed."


def test_puzzles_line_logic_cannot_finish_keep_the_line_check(open_page):
    page = open_page("diagonal")
    assert not state(page)["lineSolvable"]
    assert page.locator("#reveal").is_disabled() and page.locator("#opt-mistakes").is_disabled()
    page.click(".options summary")
    assert page.locator("#logic-note").is_visible()
    click(page, 0)
    click(page, 1)
    page.click("#check")
    assert "Line logic cannot finish this puzzle" in status(page)
    assert "row 1" in status(page)


# ------------------------------------------------- solving, timer, reload


def test_solve_to_the_end_then_edit(open_page):
    page = open_page("heart")
    s = state(page)
    assert not s["running"] and s["seconds"] == 0  # no move yet
    for i, v in enumerate(HEART.ravel()):
        if v:
            click(page, i)
        if i == 0:
            assert state(page)["running"] is False  # a click on nothing... (cell 0 is empty in HEART)
        if i == 1:
            assert state(page)["running"]
    s = state(page)
    assert s["solved"] and not s["running"] and s["progress"] < 100
    assert status(page).startswith("Solved in")
    assert page.locator("#progress").inner_text() == "100%"
    assert "is-solved" in page.locator("body").get_attribute("class")
    click(page, 1)  # an edit after the end
    s = state(page)
    assert not s["solved"] and s["running"]
    assert status(page).startswith("Back to playing")
    assert "is-solved" not in (page.locator("body").get_attribute("class") or "")


def test_reload_keeps_cells_tool_options_and_struck_clues(open_page):
    page = open_page("rainbow")
    page.keyboard.press("3")
    click(page, 2)
    page.keyboard.press("x")
    page.click(".options summary")
    page.check("#opt-cross")
    page.locator(".cc .n").first.click()  # strike column 1's number
    page.click("#zoomin")
    before = state(page)
    reload_saved(page)
    after = state(page)
    for name in ("grid", "tool", "struck", "cell"):
        assert after[name] == before[name], name
    assert after["tool"] == -1 and after["struck"] == ["c0.0"] and after["grid"][2] == 3
    assert page.locator("#opt-cross").is_checked()
    assert "struck" in page.locator(".cc .n").first.get_attribute("class")


def test_a_page_that_found_nothing_saved_writes_nothing_before_the_first_move(open_page):
    """A reload whose read of the store came before the last page's write
    reached it finds nothing; it must not then overwrite that write with an
    empty grid, not at start and not when it is hidden or left."""
    page = open_page("rainbow")
    stored = "() => Object.keys(localStorage).length"
    assert page.evaluate(stored) == 0
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.evaluate("window.dispatchEvent(new Event('pagehide'))")
    assert page.evaluate(stored) == 0
    click(page, 2)
    assert page.evaluate(stored) == 1
    saved = page.evaluate("() => JSON.parse(localStorage.getItem(Object.keys(localStorage)[0]))")
    assert saved["cells"] and saved["v"] == 1


def test_a_page_that_found_its_state_saves_when_hidden(open_page):
    page = open_page("rainbow")
    click(page, 2)
    reload_saved(page)
    key = page.evaluate("() => Object.keys(localStorage)[0]")
    spoil = (
        "k => localStorage.setItem(k, JSON.stringify(Object.assign(JSON.parse(localStorage.getItem(k)), {time: -1})))"
    )
    page.evaluate(spoil, key)
    page.evaluate("window.dispatchEvent(new Event('pagehide'))")  # the time it counted, written back
    assert page.evaluate("k => JSON.parse(localStorage.getItem(k)).time", key) >= 0


def test_cross_the_rest_of_a_finished_line(open_page):
    page = open_page("heart")
    page.click(".options summary")
    page.check("#opt-cross")
    click(page, 22)  # row 5 is [1]: done, the rest crossed; column 3 is not done
    assert state(page)["grid"][20:25] == [-1, -1, 1, -1, -1]
    page.keyboard.press("Control+z")  # one step
    assert state(page)["grid"][20:25] == [0] * 5


def test_keys_reach_colours_past_nine(open_page):
    page = open_page("rainbow")
    page.keyboard.press("9")
    page.keyboard.press("]")
    assert state(page)["tool"] == 10
    page.keyboard.press("]")
    page.keyboard.press("]")  # past the last colour: the marker
    assert state(page)["tool"] == -1
    page.keyboard.press("[")
    assert state(page)["tool"] == 11
    assert page.locator(".tool[aria-pressed=true]").get_attribute("aria-label").startswith("Paint colour 11")


# --------------------------------------------------------- zoom, keyboard


def test_zoom_buttons_and_ctrl_wheel(open_page):
    page = open_page("band")
    start = state(page)["cell"]
    page.click("#zoomin")
    assert state(page)["cell"] > start
    page.mouse.move(*centre(page, 0))
    page.keyboard.down("Control")
    page.mouse.wheel(0, 200)
    page.keyboard.up("Control")
    page.wait_for_timeout(50)
    assert state(page)["cell"] < start + 6
    for _ in range(10):
        page.click("#zoomin")
    assert state(page)["cell"] >= 48
    assert page.evaluate("RoflPageCellBox(0)")["width"] >= 48
    page.click("#zoomfit")
    assert state(page)["cell"] == start


def test_keyboard_reaches_every_cell_with_a_visible_cursor(open_page):
    page = open_page("heart")
    page.focus("#board")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    cursor = page.locator("#cell-cursor")
    assert cursor.evaluate("c => getComputedStyle(c).outlineStyle") == "solid"
    box, cell = cursor.bounding_box(), page.evaluate("RoflPageCellBox(6)")
    assert abs(box["x"] - cell["x"]) < 1 and abs(box["y"] - cell["y"]) < 1  # over cell 6
    assert page.locator("#board").get_attribute("aria-activedescendant") == "cell-cursor"
    assert cursor.get_attribute("aria-label") == "row 2, column 2: unknown"
    page.keyboard.press("Space")
    page.keyboard.press("ArrowRight")
    page.keyboard.press(".")
    assert state(page)["grid"][6:8] == [1, -1]
    assert "row 2, column 3: marked empty" in page.locator("#where").inner_text()


# ------------------------------------------------------------------ phone


def test_phone_touch_paints_zooms_and_scrolls(open_page):
    page = open_page("band", phone=True)
    shown = "li => getComputedStyle(li).display"
    assert (
        page.locator("li.for-touch").evaluate(shown) != "none"
        and page.locator("li.for-mouse").evaluate(shown) == "none"
    )
    assert "Tap" in status(page)
    tap(page, 0)
    assert state(page)["grid"][0] == 1
    cdp = page.context.new_cdp_session(page)

    def touch(kind, *points):
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": kind, "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]},
        )

    # a drag paints a straight run (paint mode)
    a, b = centre(page, 30), centre(page, 32)
    touch("touchStart", a)
    for t in (0.3, 0.6, 1.0):
        touch("touchMove", (a[0] + (b[0] - a[0]) * t, a[1]))
    touch("touchEnd")
    assert state(page)["grid"][30:33] == [1, 1, 1]
    # two fingers zoom, and leave no paint behind
    before = state(page)
    p, q = centre(page, 61), centre(page, 63)
    touch("touchStart", p)
    touch("touchStart", p, q)
    for t in range(1, 6):
        touch("touchMove", (p[0] - 8 * t, p[1]), (q[0] + 8 * t, q[1]))
    touch("touchEnd")
    after = state(page)
    assert after["cell"] > before["cell"] and after["grid"] == before["grid"]
    page.click("#more")  # a phone folds the zoom away
    page.click("#zoomin")
    assert state(page)["cell"] >= 28
    # scroll mode: a drag scrolls the board, a tap paints one cell
    page.click("#touchmode")
    assert state(page)["touchMode"] == "scroll"
    page.evaluate("b => { b.scrollTop = 0; b.scrollLeft = 0; }", page.locator("#board").element_handle())
    box = page.locator("#board").bounding_box()
    c = (box["x"] + 0.7 * box["width"], box["y"] + 0.7 * box["height"])  # a cell: the grid outgrew the board
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).matches('canvas.cells')", list(c))
    touch("touchStart", c)
    for t in range(1, 8):
        touch("touchMove", (c[0], c[1] - 25 * t))
        page.wait_for_timeout(16)  # a finger's pace: the browser turns it into a scroll
    touch("touchEnd")
    page.wait_for_timeout(300)
    assert page.evaluate("document.getElementById('board').scrollTop") > 50
    assert state(page)["grid"] == after["grid"]
    tap(page, 4)
    assert state(page)["grid"][4] == 1


@pytest.mark.parametrize("width", [320, 390])
def test_narrow_screens_do_not_overflow(open_page, width):
    page = open_page("band", phone=True, width=width)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    board = page.locator("#board").bounding_box()
    assert board["x"] + board["width"] <= width
    # the clue bands stay in view while the grid scrolls
    page.click("#more")  # a phone folds the zoom away
    page.click("#zoomin")
    page.evaluate("b => { b.scrollLeft = 200; b.scrollTop = 300; }", page.locator("#board").element_handle())
    head = page.locator(".rc").nth(12).bounding_box()
    assert head["x"] >= board["x"] - 1


# ------------------------------------------------------ print, accessibility


def test_print_layout_hides_the_controls(open_page):
    page = open_page("heart")
    click(page, 6)
    page.emulate_media(media="print")
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
    assert not page.locator(".toolbar").is_visible() and not page.locator(".options").is_visible()
    assert page.locator("#board").evaluate("b => getComputedStyle(b).overflow") == "visible"
    assert page.locator("canvas.cells").is_visible()


@pytest.mark.parametrize("name", ["heart", "rainbow"])
def test_axe_finds_no_violations(open_page, name):
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python not installed")
    page = open_page(name)
    click(page, 0)
    page.click(".options summary")
    page.click("details.help summary")
    results = axe.Axe().run(page)
    assert results.violations_count == 0, results.generate_report()
    # solved: every clue greyed as done, one struck out, Check's outline on a cell
    page.once("dialog", lambda d: d.accept())
    page.click("#reveal")
    page.locator(".rc .n").first.click()
    click(page, 1, button="right")  # painted in both pictures: marked empty is wrong
    page.click("#check")
    assert state(page)["mistakes"]
    results = axe.Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


def test_axe_with_the_keyboard_cursor_on_the_board(open_page):
    """The cursor names its cell with aria-activedescendant, which only some
    roles allow: the board has one."""
    axe = pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python not installed")
    page = open_page("heart")
    page.focus("#board")
    page.keyboard.press("ArrowRight")
    assert page.locator("#board").get_attribute("aria-activedescendant")
    results = axe.Axe().run(page)
    assert results.violations_count == 0, results.generate_report()


@pytest.mark.slow
def test_hints_solve_a_sample_to_the_end(open_page):
    page = open_page("horse")
    page.focus("#board")
    for _ in range(2000):
        if state(page)["solved"]:
            break
        page.keyboard.press("h")  # shows a hint, then fills it
    s = state(page)
    assert s["solved"] and not s["revealed"] and s["lineSolvable"]
    assert status(page).startswith("Solved in")
    # one cell off, and Check names it
    page.keyboard.press("Control+z")
    wrong = next(i for i, v in enumerate(s["grid"]) if v == -1)
    click(page, wrong, button="right")  # unmarked
    click(page, wrong)  # painted where the picture is empty
    page.click("#check")
    assert state(page)["mistakes"] == [wrong]
