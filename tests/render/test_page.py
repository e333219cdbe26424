"""``rofl page``: the HTML page, its JavaScript logic run in V8, and the command.

The page's logic (clues of a line, line status, the solved check, line
deductions and hints, the storage key, strokes) runs here for real in V8 (mini-racer, else ``node``)
and is compared with rofl's Python reference: ``Puzzle.from_grid``,
``Puzzle.is_solution`` and the brute-force line solver in ``tests/naive.py``.
"""

from __future__ import annotations

import html
import json
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from rofl.formats import read_puzzle, write_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render.page import _asset, page_data, puzzle_page
from rofl.solver import solve, solve_line
from tests.clirun import one_error_line, run, usage_error_line
from tests.naive import brute_line, clue_of, fillings, propagate
from tests.places import CORPUS, REPO, SAMPLES, needs_corpus

CORPUS_FILES = sorted(CORPUS.glob("*/*.json"))
PAGE_JS = REPO / "rofl" / "render" / "page.js"

BW = Palette.black_white()
COLOURS = Palette(["#ffffff", "#000000", "#d03030", "#3050d0", "#f0e060"])
HOSTILE = "</script><script>alert(1)</script> \"quoted\" 'single' & &amp; <!-- -->"


# ------------------------------------------------------------ a JS engine


class _MiniRacer:
    def __init__(self, source: str) -> None:
        from py_mini_racer import MiniRacer

        self.ctx = MiniRacer()
        self.ctx.eval(source)

    def call(self, name: str, *args):
        payload = json.dumps(list(args))
        return json.loads(self.ctx.eval(f"JSON.stringify(RoflPage.{name}.apply(null, {payload}))"))

    def close(self) -> None:
        pass


_NODE_LOOP = """
const readline = require("readline");
require(process.argv[1]);
const rl = readline.createInterface({ input: process.stdin });
rl.on("line", (line) => {
  const [name, args] = JSON.parse(line);
  process.stdout.write(JSON.stringify(RoflPage[name].apply(null, args)) + "\\n");
});
"""


class _Node:
    """One long-lived ``node`` reading calls as JSON lines (for machines without mini-racer)."""

    def __init__(self, node: str) -> None:
        self.proc = subprocess.Popen(
            [node, "-e", _NODE_LOOP, str(PAGE_JS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def call(self, name: str, *args):
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([name, list(args)]) + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


@pytest.fixture(scope="module")
def js():
    try:
        engine = _MiniRacer(PAGE_JS.read_text(encoding="utf-8"))
    except ImportError:
        node = shutil.which("node")
        if node is None:
            pytest.skip("neither mini-racer (pip install mini-racer) nor node is available to run page.js")
        engine = _Node(node)
    yield engine
    engine.close()


# --------------------------------------------------------- references


def states(line) -> list[int]:
    return [int(v) for v in line]


def py_clue(cells) -> list[list[int]]:
    """The clue the player's cells show: dots (-1) and unknowns (0) are background."""
    return [list(g) for g in clue_of([max(0, int(v)) for v in cells])]


def py_fits(cells, clue, n_colors: int) -> bool:
    """Whether the line can still get ``clue``, by listing every filling (tests/naive.py)."""
    everything = (1 << n_colors) - 1
    masks = [everything if v == 0 else 1 if v == -1 else 1 << v for v in cells]
    return brute_line(masks, tuple(map(tuple, clue)), n_colors) is not None


def py_status(cells, clue) -> str:
    """The page's line status, written out from its definition."""
    if py_clue(cells) == [list(g) for g in clue]:
        return "done"
    if 0 not in list(cells):
        return "wrong"
    want: dict[int, int] = {}
    have: dict[int, int] = {}
    for n, c in clue:
        want[c] = want.get(c, 0) + n
    for v in cells:
        if v > 0:
            have[v] = have.get(v, 0) + 1
    if any(have[c] > want.get(c, 0) for c in have):
        return "wrong"
    return "wrong" if all(have.get(c, 0) >= n for c, n in want.items()) else "open"


def fnv1a64(text: str) -> str:
    h = 0xCBF29CE484222325
    for byte in text.encode("ascii"):
        h = ((h ^ byte) * 0x100000001B3) % 2**64
    return f"{h:016x}"


def clue_key(puzzle: Puzzle) -> tuple:
    return (puzzle.width, puzzle.height, puzzle.n_colors, puzzle.rows, puzzle.cols)


def player_view(grid: np.ndarray) -> list[int]:
    """A grid as the page stores it: flat, row-major."""
    return [int(v) for v in np.asarray(grid).ravel()]


# ------------------------------------------------------------ strategies


@st.composite
def player_lines(draw, max_len: int = 7, max_colors: int = 4):
    n_colors = draw(st.integers(2, max_colors))
    n = draw(st.integers(1, max_len if n_colors <= 3 else 5))
    cells = draw(st.lists(st.integers(-1, n_colors - 1), min_size=n, max_size=n))
    return n_colors, cells


@st.composite
def grids(draw, max_side: int = 9):
    palette = draw(st.sampled_from([BW, COLOURS]))
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    # background-heavy so that empty lines ("0") turn up often
    values = st.sampled_from([0, 0, 0, *range(1, len(palette))])
    grid = draw(arrays(np.uint8, (h, w), elements=values))
    return palette, grid


# ------------------------------------------------------ logic against Python


@given(player_lines())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_line_clue_is_the_python_clue(js, line):
    _, cells = line
    assert js.call("lineClue", cells) == py_clue(cells)


@given(player_lines(), st.data())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_line_fits_agrees_with_brute_force(js, line, data):
    n_colors, cells = line
    f, by_clue = fillings(len(cells), n_colors)
    # a clue some filling of this line has (often the line's own), or one that cannot fit
    choice = data.draw(st.sampled_from(["own", "any", "too long"]))
    if choice == "own":
        clue = py_clue(data.draw(st.sampled_from(list(f)), label="filling"))
    elif choice == "any":
        clue = [list(g) for g in data.draw(st.sampled_from(sorted(by_clue)), label="clue")]
    else:
        clue = [[len(cells) + 1, 1]]
    expected = py_fits(cells, clue, n_colors)
    assert js.call("lineFits", cells, clue) is expected


@given(player_lines(), st.data())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_line_status(js, line, data):
    n_colors, cells = line
    f, by_clue = fillings(len(cells), n_colors)
    clue = [list(g) for g in data.draw(st.sampled_from(sorted(by_clue)), label="clue")]
    status = js.call("lineStatus", cells, clue)
    assert status == py_status(cells, clue)
    # the page never calls a line wrong that could still be completed
    if status == "wrong":
        assert not py_fits(cells, clue, n_colors)
    if 0 not in cells:
        assert status in ("done", "wrong")


def test_line_status_examples(js):
    assert js.call("lineStatus", [0, 0, 0], []) == "done"  # a "0" line is grey at once
    assert js.call("lineStatus", [-1, -1, -1], []) == "done"
    assert js.call("lineStatus", [1, 0, 0], []) == "wrong"  # ink in an empty line
    assert js.call("lineStatus", [1, 1, 0, 0], [[2, 1]]) == "done"  # unknowns may stay unknown
    assert js.call("lineStatus", [1, 0, 1, 0], [[2, 1]]) == "wrong"  # as much ink as the clue, wrong place
    assert js.call("lineStatus", [1, 0, 0, 0], [[2, 1]]) == "open"
    assert js.call("lineStatus", [1, -1, 1, -1], [[2, 1]]) == "wrong"  # full
    assert js.call("lineStatus", [2, 2, 0, 0], [[2, 1]]) == "wrong"  # a colour the clue lacks
    assert js.call("lineStatus", [1, 2, 0], [[1, 1], [1, 2]]) == "done"  # colours may touch


@given(grids(), st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_solved_check_agrees_with_is_solution(js, case, data):
    palette, grid = case
    puzzle = Puzzle.from_grid(grid, palette)
    spec = page_data(puzzle, "t")
    assert js.call("isSolved", spec, player_view(grid)) is True
    report = js.call("gridReport", spec, player_view(grid))
    assert report["solved"] is True and not report["wrong"] and not report["unfit"]
    # the player's version: some cells changed, unknowns shown as dots or left unknown
    player = grid.astype(np.int64)
    flips = data.draw(st.lists(st.tuples(st.integers(0, grid.shape[0] - 1), st.integers(0, grid.shape[1] - 1))))
    for r, c in flips:
        player[r, c] = data.draw(st.integers(0, len(palette) - 1))
    dots = data.draw(arrays(bool, grid.shape)) & (player == 0)
    shown = np.where(dots, -1, player)
    expected = puzzle.is_solution(player.astype(np.uint8))
    assert js.call("isSolved", spec, player_view(shown)) is expected
    report = js.call("gridReport", spec, player_view(shown))
    assert report["solved"] is expected
    assert len(report["rows"]) == puzzle.height and len(report["cols"]) == puzzle.width
    for i, status in enumerate(report["rows"]):
        assert status == py_status(shown[i], puzzle.rows[i])
        assert (f"row {i + 1}" in report["unfit"]) is not py_fits_long(shown[i], puzzle.rows[i], len(palette))
    for j, status in enumerate(report["cols"]):
        assert status == py_status(shown[:, j], puzzle.cols[j])
    assert report["wrong"] == [
        *(f"row {i + 1}" for i, s in enumerate(report["rows"]) if s == "wrong"),
        *(f"column {j + 1}" for j, s in enumerate(report["cols"]) if s == "wrong"),
    ]


def py_fits_long(cells, clue, n_colors: int) -> bool:
    """:func:`py_fits` for lines too long to list: by placements of the groups."""
    from tests.naive import placements

    fixed = [int(v) for v in cells]
    for filling in placements(len(fixed), clue):
        if all(v == 0 or (v == -1 and f == 0) or v == f for v, f in zip(fixed, filling, strict=True)):
            return True
    return False


@pytest.mark.parametrize("palette", [BW, COLOURS], ids=["bw", "colour"])
def test_hundred_by_hundred(js, palette):
    rng = np.random.default_rng(7)
    grid = rng.choice(len(palette), size=(100, 100), p=[0.5, *[0.5 / (len(palette) - 1)] * (len(palette) - 1)])
    grid[13] = 0  # an empty row and column among the rest
    grid[:, 71] = 0
    puzzle = Puzzle.from_grid(grid.astype(np.uint8), palette)
    spec = page_data(puzzle, "big")
    assert spec["rows"][13] == [] and spec["cols"][71] == []
    assert js.call("isSolved", spec, player_view(grid)) is True
    # every cell decided (background marked as dots), one of them wrongly
    shown = np.where(grid == 0, -1, grid)
    shown[50, 50] = -1 if shown[50, 50] > 0 else 1
    report = js.call("gridReport", spec, player_view(shown))
    assert report["solved"] is False
    assert report["unfit"] == ["row 51", "column 51"]
    assert report["wrong"] == ["row 51", "column 51"]  # no unknown cell left: full and wrong


def test_one_by_one(js):
    for value in (0, 1):
        puzzle = Puzzle.from_grid(np.array([[value]], np.uint8))
        spec = page_data(puzzle, "dot")
        assert js.call("isSolved", spec, [value]) is True
        assert js.call("isSolved", spec, [1 - value]) is False
        assert js.call("isSolved", spec, [-1]) is (value == 0)


# -------------------------------------------------- key, storage, strokes


@given(grids(max_side=6), grids(max_side=6))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_storage_key_is_a_hash_of_the_clues(js, a, b):
    pa, pb = Puzzle.from_grid(a[1], a[0]), Puzzle.from_grid(b[1], b[0])
    da, db = page_data(pa, "one title"), page_data(pb, "another")
    fields = [da["width"], da["height"], len(da["palette"]), da["rows"], da["cols"]]
    canonical = json.dumps(fields, separators=(",", ":"))
    key = js.call("storageKey", da)
    assert key == "rofl-page:" + fnv1a64(canonical)
    same_clues = clue_key(pa) == clue_key(pb)
    assert (key == js.call("storageKey", db)) is same_clues  # the title plays no part


def test_fnv1a64_known_values(js):
    # the published FNV-1a 64 test vectors
    assert js.call("fnv1a64", "") == "cbf29ce484222325"
    assert js.call("fnv1a64", "a") == "af63dc4c8601ec8c"
    assert js.call("fnv1a64", "foobar") == "85944171f73967e8"


@given(grids(max_side=6), st.data())
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_saved_cells_round_trip(js, case, data):
    palette, grid = case
    cells = data.draw(st.lists(st.integers(-1, len(palette) - 1), min_size=grid.size, max_size=grid.size))
    text = js.call("encodeCells", cells)
    assert len(text) == len(cells)
    assert js.call("decodeCells", text, len(cells), len(palette)) == cells
    assert js.call("decodeCells", text + ".", len(cells), len(palette)) is None
    # a saved colour the puzzle lacks: the saved grid is ignored
    assert js.call("decodeCells", text, len(cells), 1) == (None if any(v > 0 for v in cells) else cells)


def test_decode_refuses_junk(js):
    assert js.call("decodeCells", None, 3, 2) is None
    assert js.call("decodeCells", "1x.", 3, 2) is None
    assert js.call("decodeCells", "0..", 3, 2) is None  # "0" is no colour
    assert js.call("decodeCells", "12-.", 4, 3) == [1, 2, -1, 0]


@given(st.integers(0, 20), st.integers(0, 20), st.integers(0, 20), st.integers(0, 20))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_strokes_are_straight(js, r0, c0, r1, c1):
    path = [tuple(p) for p in js.call("strokeCells", r0, c0, r1, c1)]
    assert path[0] == (r0, c0)
    horizontal = abs(c1 - c0) >= abs(r1 - r0)
    if horizontal:
        assert path[-1] == (r0, c1) and all(r == r0 for r, _ in path)
    else:
        assert path[-1] == (r1, c0) and all(c == c0 for _, c in path)
    assert len(path) == max(abs(c1 - c0), abs(r1 - r0)) + 1
    assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in zip(path, path[1:], strict=False))


def test_stroke_rules(js):
    # a click on a cell the tool already made clears it; otherwise the tool's state
    assert js.call("strokeTarget", 0, 2) == 2
    assert js.call("strokeTarget", 2, 2) == 0
    assert js.call("strokeTarget", -1, -1) == 0
    assert js.call("strokeTarget", 1, -1) == -1
    # painting from an unknown cell fills unknown cells only: dots and other colours stay
    assert [js.call("strokeChanges", s, 0, 1) for s in (0, -1, 1, 2)] == [True, False, False, False]
    # clearing a run clears that run's state only
    assert [js.call("strokeChanges", s, 1, 0) for s in (0, -1, 1, 2)] == [False, False, True, False]
    # marking from a painted cell takes cells like it, and unknowns
    assert [js.call("strokeChanges", s, 1, -1) for s in (0, -1, 1, 2)] == [True, False, True, False]


def test_format_time_and_text_colour(js):
    assert [js.call("formatTime", s) for s in (0, 9.9, 61, 3599, 3600, 36061)] == [
        "0:00",
        "0:09",
        "1:01",
        "59:59",
        "1:00:00",
        "10:01:01",
    ]
    assert js.call("textOn", "#ffffff") == "#000000"
    assert js.call("textOn", "#f0e060") == "#000000"
    assert js.call("textOn", "#000000") == "#ffffff"
    assert js.call("textOn", "#3050d0") == "#ffffff"


# ------------------------------------------------------------- the HTML


class _Page(HTMLParser):
    """Checks nesting and collects the scripts, the title and the h1."""

    VOID = {"meta", "link", "br", "hr", "img", "input"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.scripts: list[tuple[dict, str]] = []
        self.text: dict[str, str] = {}
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag not in self.VOID:
            self.stack.append(tag)
        if tag == "script":
            self.scripts.append((dict(attrs), ""))

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes <{self.stack[-1] if self.stack else None}>"
        self.stack.pop()

    def handle_data(self, data):
        if self.stack and self.stack[-1] == "script":
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)
        if self.stack and self.stack[-1] in ("title", "h1"):
            self.text[self.stack[-1]] = self.text.get(self.stack[-1], "") + data


def parse(page: str) -> _Page:
    parser = _Page()
    parser.feed(page)
    parser.close()
    assert parser.stack == [], parser.stack
    return parser


def embedded(parser: _Page) -> dict:
    (data,) = [text for attrs, text in parser.scripts if attrs.get("type") == "application/json"]
    return json.loads(data)


#: What page_data works out from the palette for the page (names, letters, the unknown cells' tint).
DERIVED = {"names", "letters", "confusions", "unknown"}


@pytest.mark.parametrize("palette", [BW, COLOURS], ids=["bw", "colour"])
def test_page_embeds_the_clues_not_the_solution(palette):
    rng = np.random.default_rng(3)
    grid = rng.integers(0, len(palette), size=(7, 11)).astype(np.uint8)
    grid[2] = 0
    puzzle = Puzzle.from_grid(grid, palette, meta={"title": "Seven by eleven"})
    page = puzzle_page(puzzle)
    assert page.startswith("<!DOCTYPE html>")
    parser = parse(page)
    data = embedded(parser)
    assert set(data) == {"format", "version", "title", "width", "height", "palette", "rows", "cols"} | DERIVED
    assert (data["width"], data["height"], data["title"]) == (11, 7, "Seven by eleven")
    assert data["palette"] == palette.hex()
    back = Puzzle(data["width"], data["height"], data["palette"], data["rows"], data["cols"])
    assert back == puzzle
    assert data["rows"][2] == []
    assert parser.text["title"] == parser.text["h1"] == "Seven by eleven"
    # the script is page.js itself, so what the tests run is what the page runs
    (script,) = [text for attrs, text in parser.scripts if not attrs]
    assert script.strip() == _asset("page.js").strip()
    # self-contained: nothing is loaded from anywhere
    assert not [(tag, attrs) for tag, attrs in parser.tags if "src" in attrs or "href" in attrs]
    assert "http:" not in page and "https:" not in page and "@import" not in page and "url(" not in page


def test_hexagon_page_embeds_the_clues_not_the_solution():
    from rofl.hexagon import Hexagon, HexPuzzle

    board = Hexagon.of(3)
    solution = np.array([[0, 1, 2, 3][(q - r) % 4] if q * r != 1 else 0 for q, r, _ in board.coords])
    plain = HexPuzzle.from_cells(3, solution, COLOURS, meta={"title": "Hex"})
    puzzle = plain.with_unknown_colors(np.arange(plain.n_groups) % 3 == 0)
    assert puzzle.has_color_sets
    page = puzzle_page(puzzle)
    parser = parse(page)
    data = embedded(parser)
    assert (
        set(data) == {"format", "version", "title", "shape", "side", "palette", "rows", "falling", "rising"} | DERIVED
    )
    assert (data["format"], data["version"], data["shape"], data["side"]) == ("rofl-page", 1, "hexagon", 3)
    assert data["palette"] == COLOURS.hex()
    # '?' groups as the list of their colours; the clues rebuild the puzzle
    assert [1, [1, 2, 3, 4]] in [g for line in data["rows"] + data["falling"] + data["rising"] for g in line]
    back = HexPuzzle(data["side"], data["palette"], data["rows"], data["falling"], data["rising"])
    assert back == puzzle
    assert parser.text["title"] == parser.text["h1"] == "Hex"
    assert "hexagon of side 3, 19 cells, 5 colours" in page  # as rofl counts them: the background is one
    # no solution: nothing but the clues, and no trace of the cells in any encoding
    (script,) = [text for attrs, text in parser.scripts if not attrs]
    assert script.strip() == _asset("page.js").strip()
    for encoded in ("".join(map(str, solution)), json.dumps(solution.tolist()), ",".join(map(str, solution))):
        assert encoded not in page
    # the help and the hint speak of lines, not rows and columns
    assert "Hint: a line that decides new cells (H)" in page and "rising diagonal" in page
    assert "Puzzle board of hexagonal cells" in page and "Alt</kbd>+drag" not in page
    assert parse(puzzle_page(HexPuzzle.from_cells(2, np.ones(7, np.int64)))).text["title"] == (
        "Hexagonal nonogram, side 2"
    )


def test_rectangular_page_refuses_question_marks():
    from rofl.errors import PuzzleError

    puzzle = Puzzle.from_grid(np.array([[1, 2], [2, 0]], np.uint8), COLOURS)
    with pytest.raises(PuzzleError, match="hexagonal boards only"):
        puzzle_page(puzzle.with_unknown_colors(np.arange(puzzle.n_groups) == 0))


def test_rectangular_page_speaks_of_rows_and_columns():
    page = puzzle_page(Puzzle.from_grid(np.eye(3, dtype=np.uint8)))
    assert "Hint: a row or column that decides new cells (H)" in page
    assert 'aria-label="Puzzle grid. Arrow keys move' in page and "<kbd>Alt</kbd>+drag fills a rectangle" in page
    assert "diagonal" not in page.split("<script")[0]


def test_default_title_is_the_size():
    puzzle = Puzzle.from_grid(np.eye(3, dtype=np.uint8))
    parser = parse(puzzle_page(puzzle))
    assert parser.text["title"] == "Nonogram 3\u00d73"
    assert parse(puzzle_page(puzzle, title="Mine")).text["h1"] == "Mine"


def test_hostile_title_is_escaped():
    puzzle = Puzzle.from_grid(np.eye(4, dtype=np.uint8), meta={"title": HOSTILE})
    for page in (puzzle_page(puzzle), puzzle_page(Puzzle.from_grid(np.eye(4, dtype=np.uint8)), title=HOSTILE)):
        assert "<script>alert" not in page
        assert page.count("<script") == 2 and page.count("</script>") == 2
        assert "<!-- -->" not in page
        parser = parse(page)
        assert parser.text["title"] == parser.text["h1"] == HOSTILE
        data = embedded(parser)
        assert data["title"] == HOSTILE
    # the attribute-safe escape (quotes) is used
    assert html.escape(HOSTILE, quote=True) in puzzle_page(puzzle)


# ------------------------------------------------------------ the command


@pytest.mark.parametrize("suffix", [".rofl", ".json", ".notmine"])
def test_cli_writes_a_page(tmp_path, suffix):
    grid = np.array([[1, 0, 1], [1, 1, 1], [0, 0, 0]], np.uint8)
    puzzle = Puzzle.from_grid(grid)
    source = tmp_path / f"p{suffix}"
    write_puzzle(source, puzzle, grid)
    out = tmp_path / "page.html"
    result = run("page", source, "-o", out, "--title", "Tiny")
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"{out}: 3x3")
    data = embedded(parse(out.read_text(encoding="utf-8")))
    assert data["title"] == "Tiny"
    read, _ = read_puzzle(source)
    assert data["rows"] == [[list(g) for g in line] for line in read.rows]
    assert data["cols"] == [[list(g) for g in line] for line in read.cols]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([source.name, "page.html"])  # no temporary left


def test_cli_default_output_and_htm(tmp_path):
    source = tmp_path / "cross.rofl"
    write_puzzle(source, Puzzle.from_grid(np.eye(5, dtype=np.uint8)))
    assert run("page", source).exit_code == 0
    assert (tmp_path / "cross.html").is_file()
    assert run("page", source, "-o", tmp_path / "X.HTM").exit_code == 0
    assert (tmp_path / "X.HTM").is_file()


def test_cli_writes_atomically(tmp_path, monkeypatch):
    import rofl._io

    source = tmp_path / "p.rofl"
    write_puzzle(source, Puzzle.from_grid(np.eye(5, dtype=np.uint8)))
    out = tmp_path / "page.html"
    out.write_text("old page")
    written = []
    real = rofl._io.atomic_write

    def spy(path, data, **kwargs):
        written.append(Path(path))
        real(path, data, **kwargs)

    monkeypatch.setattr(rofl._io, "atomic_write", spy)
    # a failure before writing leaves the old page whole
    (tmp_path / "junk.rofl").write_bytes(b"ROFL\x00\xff\xff junk")
    one_error_line(run("page", tmp_path / "junk.rofl", "-o", out))
    assert out.read_text() == "old page" and written == []
    assert run("page", source, "-o", out).exit_code == 0
    assert written == [out] and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["junk.rofl", "p.rofl", "page.html"]


@pytest.mark.parametrize("name", ["page.txt", "page", "page.html.bak", "page.svg"])
def test_cli_refuses_other_extensions(tmp_path, name):
    source = tmp_path / "p.rofl"
    write_puzzle(source, Puzzle.from_grid(np.eye(2, dtype=np.uint8)))
    line = usage_error_line(run("page", source, "-o", tmp_path / name))
    assert ".html or .htm" in line and name in line
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("missing.rofl", None),
        ("junk.rofl", b"ROFL\x01\x02"),
        ("binary.json", bytes(range(256)) * 4),
        ("truncated.json", b'{"width": 3, "height":'),
        ("puzzle.xyz", b"hello"),
        ("cipher.notmine", b"NotMine{ 99999999999, 2, !! }"),
    ],
)
def test_cli_unreadable_puzzle_is_one_error_line(tmp_path, name, content):
    source = tmp_path / name
    if content is not None:
        source.write_bytes(content)
    line = one_error_line(run("page", source, "-o", tmp_path / "out.html"))
    assert name in line
    assert not (tmp_path / "out.html").exists()


def test_cli_help_lists_page():
    result = run("--help")
    assert result.exit_code == 0 and "page" in result.output


# ---------------------------------------------------------------- corpus


@pytest.mark.slow
@needs_corpus
def test_corpus_solutions_are_solved_in_the_page(js):
    keys = set()
    checked = 0
    for path in CORPUS_FILES:
        puzzle, solution = read_puzzle(path)
        data = embedded(parse(puzzle_page(puzzle)))
        assert Puzzle(data["width"], data["height"], data["palette"], data["rows"], data["cols"]) == puzzle, path
        keys.add(js.call("storageKey", data))
        if solution is None:
            continue
        assert js.call("isSolved", data, player_view(solution)) is True, path
        wrong = solution.copy()
        wrong[0, 0] = (int(wrong[0, 0]) + 1) % puzzle.n_colors
        assert js.call("isSolved", data, player_view(wrong)) is False, path
        checked += 1
    assert checked > 0
    distinct = {clue_key(read_puzzle(f)[0]) for f in CORPUS_FILES}
    assert len(keys) == len(distinct)  # one key per distinct puzzle: no collisions


# ------------------------------------------------------------------ hints
#
# lineDeductions against every filling of short lines (tests/naive.py) and
# against rofl's compiled line solver on long ones; hint against a Python
# reference step, and applied over and over from empty, correct, wrong and
# stuck grids.


def player_masks(cells, n_colors: int) -> list[int]:
    """A player's line as solver masks: unknown = any colour, dot = background, painted = its colour."""
    everything = (1 << n_colors) - 1
    return [everything if v == 0 else 1 if v == -1 else 1 << int(v) for v in cells]


def mask_states(masks, n_colors: int) -> list[list[int]]:
    return [[c for c in range(n_colors) if int(m) >> c & 1] for m in masks]


def py_deductions(cells, clue, n_colors: int) -> list[list[int]] | None:
    """What each cell of a player's line can still be, by listing every filling."""
    got = brute_line(player_masks(cells, n_colors), tuple(map(tuple, clue)), n_colors)
    return None if got is None else mask_states(got, n_colors)


def truth_states(grid) -> np.ndarray:
    """A picture as a finished player's grid: background marked with dots."""
    grid = np.asarray(grid, dtype=np.int64)
    return np.where(grid == 0, -1, grid)


def player_lines_of(puzzle: Puzzle, shown: np.ndarray):
    """Every line as (kind, index, view into ``shown``, clue, flat indices), rows first."""
    h, w = shown.shape
    for r in range(h):
        yield "row", r, shown[r, :], puzzle.rows[r], r * w + np.arange(w)
    for c in range(w):
        yield "column", c, shown[:, c], puzzle.cols[c], np.arange(h) * w + c


def named_line(puzzle: Puzzle, shown: np.ndarray, where: dict):
    """The cells and the clue of the line a hint names."""
    k = where["index"]
    return (shown[k], puzzle.rows[k]) if where["kind"] == "row" else (shown[:, k], puzzle.cols[k])


def forced_states(view, masks) -> list[tuple[int, int]]:
    """(position, page state) of the unknown cells that the masks decide."""
    out = []
    for i, m in enumerate(int(v) for v in masks):
        if view[i] == 0 and m & (m - 1) == 0:
            out.append((i, -1 if m == 1 else m.bit_length() - 1))
    return out


def py_hint(puzzle: Puzzle, shown: np.ndarray) -> dict | None:
    """The page's hint, from its definition, with rofl's line solver."""
    best = py_hint_whole_cells(puzzle, shown)
    if best is None and puzzle.n_colors > 2:
        return py_deep_hint(puzzle, shown)
    return best


def py_hint_whole_cells(puzzle: Puzzle, shown: np.ndarray) -> dict | None:
    """py_hint without the reasoning over colours ruled out (deepHint)."""
    best = None
    for kind, index, view, clue, flat in player_lines_of(puzzle, shown):
        got = solve_line(np.array(player_masks(view, puzzle.n_colors)), clue)
        if got is None:
            return {"contradiction": {"kind": kind, "index": index}}
        forced = [[int(flat[i]), s] for i, s in forced_states(view, got)]
        if forced and (best is None or len(forced) > len(best["cells"])):
            best = {"line": {"kind": kind, "index": index}, "cells": forced}
    return best


def py_deep_hint(puzzle: Puzzle, shown: np.ndarray) -> dict | None:
    """The page's deepHint, from its definition: masks narrowed line by line
    from a queue, with rofl's line solver."""
    h, w = shown.shape
    flat = np.asarray(shown, dtype=np.int64).reshape(-1)
    masks = np.array(player_masks(flat, puzzle.n_colors), dtype=np.int64)
    narrowed_by: list[list[int]] = [[] for _ in range(h * w)]
    lines = [(puzzle.rows[r], [r * w + c for c in range(w)]) for r in range(h)]
    lines += [(puzzle.cols[c], [r * w + c for r in range(h)]) for c in range(w)]

    def named(line: int) -> dict:
        return {"kind": "row", "index": line} if line < h else {"kind": "column", "index": line - h}

    queue = list(range(h + w))
    queued = set(queue)
    while queue:
        line = queue.pop(0)
        queued.discard(line)
        clue, idx = lines[line]
        got = solve_line(masks[idx], clue)
        using = [named(o) for o in sorted({other for cell in idx for other in narrowed_by[cell] if other != line})]
        if got is None:
            return {"contradiction": named(line), "using": using}
        decided = []
        for cell, new in zip(idx, (int(v) for v in got), strict=True):
            if new == masks[cell]:
                continue
            masks[cell] = new
            narrowed_by[cell].append(line)
            if flat[cell] == 0 and new & (new - 1) == 0:
                decided.append([cell, -1 if new == 1 else new.bit_length() - 1])
            crossing = h + cell % w if line < h else cell // w
            if crossing not in queued:
                queued.add(crossing)
                queue.append(crossing)
        if decided:
            return {"line": named(line), "cells": decided, "using": using}
    return None


def masks_fixpoint(puzzle: Puzzle, shown: np.ndarray) -> tuple[str, np.ndarray]:
    """What line logic over what each cell can still be (rofl's solver, as the
    hints reason in colour) decides from a player's marks, as a player's grid."""
    from rofl.solver import LineSolver, masks_to_grid

    start = np.array(player_masks(np.asarray(shown).reshape(-1), puzzle.n_colors), dtype=np.int64)
    result = LineSolver(cache_mb=0).solve(puzzle, start=start.reshape(shown.shape))
    single = (result.masks & (result.masks - 1)) == 0
    grid = masks_to_grid(result.masks).astype(np.int64)
    return result.status, np.where(single, np.where(grid == 0, -1, grid), 0)


def py_fixpoint(puzzle: Puzzle, shown: np.ndarray) -> tuple[str, np.ndarray]:
    """What a player reaches by line logic alone, sweeping the lines in order (not the hint's order).

    Deductions only grow as cells are decided, so the end does not depend on
    the order: "solved", "stalled" or "contradiction".
    """
    shown = np.array(shown, dtype=np.int64)
    changed = True
    while changed:
        changed = False
        for _, _, view, clue, _ in player_lines_of(puzzle, shown):
            got = solve_line(np.array(player_masks(view, puzzle.n_colors)), clue)
            if got is None:
                return "contradiction", shown
            for i, state in forced_states(view, got):
                view[i] = state
                changed = True
    return ("solved" if np.all(shown != 0) else "stalled"), shown


def follow_hints(js, puzzle: Puzzle, shown: np.ndarray, truth: np.ndarray | None = None):
    """Ask the page for hints and fill what they say until it has none.

    Returns the last answer (None or a contradiction), the grid reached and
    the number of hints applied.  With ``truth``, every filled cell is checked
    against it as it is filled.
    """
    spec = page_data(puzzle, "hints")
    shown = np.array(shown, dtype=np.int64)
    flat = shown.reshape(-1)
    for steps in range(shown.size + 1):
        answer = js.call("hint", spec, player_view(shown))
        if answer is None or "contradiction" in answer:
            return answer, shown, steps
        assert answer["cells"], answer
        for i, state in answer["cells"]:
            assert flat[i] == 0, (answer, i)  # only unknown cells are filled
            if truth is not None:
                assert truth.reshape(-1)[i] == state, (answer, i)
            flat[i] = state
    pytest.fail("more hints than cells")


@st.composite
def lines_with_clues(draw):
    n_colors, cells = draw(player_lines())
    n = len(cells)
    f, by_clue = fillings(n, n_colors)
    choice = draw(st.sampled_from(["revealed", "revealed", "marks", "any", "too long"]))
    if choice == "revealed":
        # some cells of a filling shown: the line can always be completed
        filling = f[draw(st.integers(0, len(f) - 1), label="filling")]
        shown = draw(st.lists(st.booleans(), min_size=n, max_size=n), label="shown")
        cells = [(-1 if v == 0 else int(v)) if s else 0 for v, s in zip(filling, shown, strict=True)]
        clue = py_clue(filling)
    elif choice == "marks":
        clue = py_clue(cells)  # the clue the marks already show: the unknowns can only be empty
    elif choice == "any":
        clue = [list(g) for g in draw(st.sampled_from(sorted(by_clue)), label="clue")]
    else:
        clue = [[n + 1, 1]]
    return n_colors, cells, clue


@given(lines_with_clues())
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_line_deductions_agree_with_brute_force(js, case):
    n_colors, cells, clue = case
    got = js.call("lineDeductions", cells, clue, n_colors)
    assert got == py_deductions(cells, clue, n_colors)
    assert (got is not None) is js.call("lineFits", cells, clue)


@pytest.mark.slow
@given(st.data())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_line_deductions_agree_with_the_line_solver(js, data):
    n_colors = data.draw(st.sampled_from([2, 3, 5, 11]), label="colours")
    n = data.draw(st.integers(1, 70), label="cells")
    ink = st.sampled_from([0, 0, *range(1, n_colors)])
    filling = data.draw(st.lists(ink, min_size=n, max_size=n), label="filling")
    # each cell unknown (most), shown as in the filling, or set to any state (a mistake, maybe)
    how = data.draw(st.lists(st.sampled_from("uuuuussx"), min_size=n, max_size=n), label="how")
    other = data.draw(st.lists(st.integers(-1, n_colors - 1), min_size=n, max_size=n), label="other")
    cells = [
        0 if h == "u" else (-1 if v == 0 else v) if h == "s" else o for h, v, o in zip(how, filling, other, strict=True)
    ]
    clue = py_clue(filling)
    want = solve_line(np.array(player_masks(cells, n_colors)), clue)
    got = js.call("lineDeductions", cells, clue, n_colors)
    assert got == (None if want is None else mask_states(want, n_colors))


def test_line_deductions_examples(js):
    # the overlap rule: a 7 in 10 cells covers cells 3-6 wherever it lies
    got = js.call("lineDeductions", [0] * 10, [[7, 1]], 2)
    assert [i for i, s in enumerate(got) if s == [1]] == [3, 4, 5, 6]
    # a painted cell next to the wall: the 3 starts there, the rest is empty
    assert js.call("lineDeductions", [1, 0, 0, 0, 0, 0], [[3, 1]], 2) == [[1], [1], [1], [0], [0], [0]]
    # a dot splits the line: the 3 cannot fit before it
    assert js.call("lineDeductions", [0, 0, -1, 0, 0, 0], [[3, 1]], 2) == [[0], [0], [0], [1], [1], [1]]
    # groups of different colours may touch, of one colour may not
    assert js.call("lineDeductions", [0, 0, 0], [[2, 1], [1, 2]], 3) == [[1], [1], [2]]
    assert js.call("lineDeductions", [0, 0, 0], [[2, 1], [1, 1]], 3) is None
    assert js.call("lineDeductions", [0, 0, 0, 0], [[2, 1], [1, 1]], 3) == [[1], [1], [0], [1]]
    # an empty clue empties the line; ink in it cannot be completed
    assert js.call("lineDeductions", [0, -1, 0], [], 2) == [[0], [0], [0]]
    assert js.call("lineDeductions", [0, 2, 0], [], 3) is None


@given(grids(), st.data())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_hint_is_the_reference_step(js, case, data):
    palette, grid = case
    puzzle = Puzzle.from_grid(grid, palette)
    truth = truth_states(grid)
    # most cells unknown, some shown as in the picture, a few set to anything (mistakes, often)
    how = data.draw(arrays(np.uint8, grid.shape, elements=st.sampled_from(b"uuuuusssx")), label="how")
    other = data.draw(arrays(np.int64, grid.shape, elements=st.integers(-1, len(palette) - 1)), label="other")
    shown = np.where(how == ord("u"), 0, np.where(how == ord("s"), truth, other))
    answer = js.call("hint", page_data(puzzle, "t"), player_view(shown))
    assert answer == py_hint(puzzle, shown)
    if answer is not None and "using" in answer:  # reasoning over colours ruled out
        assert len(palette) > 2 and py_hint_whole_cells(puzzle, shown) is None
    if answer is not None and "contradiction" in answer:
        line, clue = named_line(puzzle, shown, answer["contradiction"])
        if "using" in answer:
            # the marks have no completion at all, though each line alone has one
            assert answer["using"] and py_fits_long(line, clue, len(palette))
            assert masks_fixpoint(puzzle, shown)[0] == "contradiction"
        else:
            assert not py_fits_long(line, clue, len(palette))


@given(grids(), st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_hints_from_right_marks_are_right(js, case, data):
    # marks that agree with a picture: every hinted cell agrees with it too
    # (the picture is one completion of each line), and no line is ever
    # called impossible; the hints end where rofl's line logic ends (which
    # rules colours out of cells), in any order
    palette, grid = case
    puzzle = Puzzle.from_grid(grid, palette)
    truth = truth_states(grid)
    shown = np.where(data.draw(arrays(bool, grid.shape), label="shown"), truth, 0)
    answer, reached, _ = follow_hints(js, puzzle, shown, truth)
    assert answer is None
    status, fixpoint = masks_fixpoint(puzzle, shown)
    np.testing.assert_array_equal(reached, fixpoint)
    assert status != "contradiction"
    if palette is BW:  # deciding a cell is all that line logic can do in black and white
        assert py_fixpoint(puzzle, shown)[0] == status
        np.testing.assert_array_equal(py_fixpoint(puzzle, shown)[1], reached)
        line_status, masks = propagate(puzzle, np.array([player_masks(r, 2) for r in shown]))
        assert line_status == status
        np.testing.assert_array_equal(np.where(masks == 3, 0, np.where(masks == 1, -1, 1)), reached)
    if status == "solved":
        np.testing.assert_array_equal(reached, truth)


# a picture line logic solves: a boat, in black and white and in three colours
BOAT = np.array(
    [
        [0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 1, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 1, 1, 1, 0, 0, 0],
        [0, 0, 0, 0, 1, 1, 1, 1, 0, 0],
        [0, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
        [0, 1, 1, 1, 1, 1, 1, 1, 1, 0],
        [0, 0, 1, 1, 1, 1, 1, 1, 0, 0],
    ],
    np.uint8,
)
BOAT_COLOURS = BOAT * np.array([[2]] * 5 + [[3]] * 3, np.uint8)  # red sail, blue hull
BOAT_COLOURS[0:5, 4] = 1  # black mast
# unique, but line logic alone stalls: it needs reasoning across lines
STUCK = np.array(
    [[1, 1, 0, 1, 0], [1, 0, 1, 1, 1], [0, 0, 0, 0, 1], [0, 1, 1, 1, 0], [1, 0, 0, 0, 1]],
    np.uint8,
)


# three colours, unique and solved by rofl's line logic, but no line decides
# a whole cell from nothing: the lines must first rule colours out of cells
RULED_OUT = np.array(
    [[1, 0, 0, 2, 1, 2], [2, 1, 0, 1, 2, 0], [0, 0, 1, 1, 1, 0], [0, 0, 1, 0, 0, 0], [2, 0, 0, 0, 2, 2]],
    np.uint8,
)
THREE = Palette(["#ffffff", "#000000", "#d03030"])


def test_colour_hints_use_the_colours_lines_rule_out(js):
    puzzle = Puzzle.from_grid(RULED_OUT, THREE)
    empty = np.zeros(RULED_OUT.shape, np.int64)
    assert solve(puzzle).status == "solved"  # the premise
    assert py_hint_whole_cells(puzzle, empty) is None and py_fixpoint(puzzle, empty)[0] == "stalled"
    first = js.call("hint", page_data(puzzle, "t"), player_view(empty))
    assert first == py_deep_hint(puzzle, empty)
    assert first["cells"] and first["using"]  # the lines that ruled colours out of its cells
    assert first["line"] not in first["using"]
    answer, reached, steps = follow_hints(js, puzzle, empty, truth_states(RULED_OUT))
    assert answer is None and steps >= 2
    np.testing.assert_array_equal(reached, truth_states(RULED_OUT))
    # a wrong mark: hints build on it and end where the reference ends
    for r, c in np.ndindex(RULED_OUT.shape):
        for wrong in (-1, 1, 2):
            if wrong == truth_states(RULED_OUT)[r, c]:
                continue
            start = empty.copy()
            start[r, c] = wrong
            answer, reached, _ = follow_hints(js, puzzle, start)
            assert answer == py_hint(puzzle, reached)
            assert masks_fixpoint(puzzle, start)[0] == ("stalled" if answer is None else "contradiction")


def test_hints_solve_colour_puzzles_rofl_makes(js):
    # the README's promise: a puzzle rofl make writes is solved to the end by
    # Hint and Apply, even where whole cells alone stall (the cat in three
    # colours at 20 cells needs colours ruled out many times)
    import rofl

    # (min_delta_e=0: the cat's three close browns; distinct ones would make two colours;
    # the photo style: auto's poster drawing of it happens to be solved by whole cells)
    made = rofl.make(str(SAMPLES / "chelsea.jpg"), width=20, height=20, colors=3, min_delta_e=0, style="photo")
    puzzle, truth = made.puzzle, truth_states(made.grid)
    empty = np.zeros(made.grid.shape, np.int64)
    assert py_fixpoint(puzzle, empty)[0] == "stalled"  # whole cells alone do not get there
    answer, reached, steps = follow_hints(js, puzzle, empty, truth)
    assert answer is None
    np.testing.assert_array_equal(reached, truth)


def test_colour_hints_find_mistakes_only_the_ruled_out_colours_show(js):
    # every line accepts the wrong dot at (1, 1) on its own, and no line
    # decides a whole cell; the colours the rows rule out of column 2 show
    # that it cannot be completed
    grid = np.array([[0, 0, 2, 0, 2], [2, 1, 0, 0, 0], [0, 0, 2, 2, 0], [2, 2, 0, 0, 1]], np.uint8)
    puzzle = Puzzle.from_grid(grid, THREE)
    start = np.zeros(grid.shape, np.int64)
    start[1, 1] = -1
    assert py_hint_whole_cells(puzzle, start) is None
    answer = js.call("hint", page_data(puzzle, "t"), player_view(start))
    rows = [{"kind": "row", "index": r} for r in (0, 2, 3)]
    assert answer == {"contradiction": {"kind": "column", "index": 1}, "using": rows} == py_hint(puzzle, start)
    assert py_fits_long(start[:, 1], puzzle.cols[1], 3)
    assert masks_fixpoint(puzzle, start)[0] == "contradiction"


@pytest.mark.parametrize(("grid", "palette"), [(BOAT, BW), (BOAT_COLOURS, COLOURS)], ids=["bw", "colour"])
def test_hints_solve_a_line_solvable_picture(js, grid, palette):
    puzzle = Puzzle.from_grid(grid, palette)
    truth = truth_states(grid)
    empty = np.zeros(grid.shape, np.int64)
    assert py_fixpoint(puzzle, empty)[0] == "solved"  # the premise
    answer, reached, steps = follow_hints(js, puzzle, empty, truth)
    assert answer is None
    np.testing.assert_array_equal(reached, truth)
    assert js.call("isSolved", page_data(puzzle, "t"), player_view(reached)) is True
    assert steps >= 3
    # the first hint: the line whose clue forces the most cells (the full row 6), rows before columns
    first = js.call("hint", page_data(puzzle, "t"), player_view(empty))
    assert first["line"] == {"kind": "row", "index": 5}
    assert first["cells"] == [[50 + c, int(truth[5, c])] for c in range(10)]


def test_hints_stop_where_line_logic_stops(js):
    puzzle = Puzzle.from_grid(STUCK)
    empty = np.zeros(STUCK.shape, np.int64)
    assert propagate(puzzle)[0] == "stalled"
    answer, reached, _ = follow_hints(js, puzzle, empty, truth_states(STUCK))
    assert answer is None
    assert 0 < np.count_nonzero(reached == 0) < STUCK.size  # some cells found, not all
    np.testing.assert_array_equal(reached, py_fixpoint(puzzle, empty)[1])
    # two solutions (the diagonals): nothing at all follows from one line
    two = Puzzle.from_grid(np.eye(2, dtype=np.uint8))
    assert js.call("hint", page_data(two, "t"), [0, 0, 0, 0]) is None
    # a finished grid has nothing left to say
    assert js.call("hint", page_data(puzzle, "t"), player_view(truth_states(STUCK))) is None


@pytest.mark.parametrize(("grid", "palette"), [(BOAT, BW), (BOAT_COLOURS, COLOURS)], ids=["bw", "colour"])
def test_a_wrong_mark_ends_in_a_contradiction_or_a_stall(js, grid, palette):
    # Line logic solves these pictures from nothing, so each has one
    # solution and no grid holding a wrong mark can ever be solved.  Hints
    # may fill more wrong cells (they follow from the mark), but they end
    # in a line that cannot be completed (named, never the cell), or in a
    # stall: exactly where rofl's line logic from the same marks ends.
    puzzle = Puzzle.from_grid(grid, palette)
    truth = truth_states(grid)
    spec = page_data(puzzle, "t")
    ends = {"contradiction": 0, "stalled": 0}
    for r in range(grid.shape[0]):
        for c in range(grid.shape[1]):
            for wrong in (-1, *range(1, len(palette))):
                if wrong == truth[r, c]:
                    continue
                start = np.zeros(grid.shape, np.int64)
                start[r, c] = wrong
                answer, reached, _ = follow_hints(js, puzzle, start)
                status, fixpoint = masks_fixpoint(puzzle, start)
                assert js.call("isSolved", spec, player_view(reached)) is False
                if answer is None:
                    assert status == "stalled", (r, c, wrong)
                    np.testing.assert_array_equal(reached, fixpoint)
                else:
                    assert status == "contradiction", (r, c, wrong)
                    assert answer == py_hint(puzzle, reached)
                ends[status] += 1
    assert ends["contradiction"] > 0


@pytest.mark.slow
@needs_corpus
def test_corpus_hints_agree_with_the_solutions(js):
    # real puzzles up to 25x25: hints from an empty grid fill only right
    # cells, and end where rofl's own line logic ends
    checked = solved = ruled_out = 0
    for path in CORPUS_FILES:
        puzzle, solution = read_puzzle(path)
        if solution is None or puzzle.width * puzzle.height > 625:
            continue
        empty = np.zeros((puzzle.height, puzzle.width), np.int64)
        answer, reached, _ = follow_hints(js, puzzle, empty, truth_states(solution))
        assert answer is None, path
        assert (solve(puzzle).status == "solved") is bool(np.all(reached != 0)), path
        np.testing.assert_array_equal(reached, masks_fixpoint(puzzle, empty)[1])
        solved += bool(np.all(reached != 0))
        # colour puzzles that whole cells alone leave unsolved
        ruled_out += bool(np.all(reached != 0)) and py_fixpoint(puzzle, empty)[0] == "stalled"
        checked += 1
    assert checked > 0 and solved > 0 and ruled_out > 0


def test_page_has_the_hint_buttons():
    page = puzzle_page(Puzzle.from_grid(BOAT))
    buttons = {attrs.get("id"): attrs for tag, attrs in parse(page).tags if tag == "button"}
    assert "hint" in buttons and "(H)" in buttons["hint"]["title"]
    assert "hidden" in buttons["apply"]  # shown with a hint that fills cells
    assert "<kbd>H</kbd> hints" in page


def test_the_colour_count_is_the_one_rofl_gives(tmp_path):
    """A `-c 3` puzzle is "3 colours" on its page, as in `rofl page`'s summary (the background is one)."""
    from click.testing import CliRunner

    from rofl.cli import main
    from rofl.formats import write_puzzle

    puzzle = Puzzle.from_grid(np.array([[1, 2, 0], [2, 1, 1]], np.uint8), Palette(["#ffffff", "#ff0000", "#0000ff"]))
    assert "3 \u00d7 2, 3 colours" in puzzle_page(puzzle)
    path = tmp_path / "p.rofl"
    write_puzzle(path, puzzle)
    result = CliRunner().invoke(main, ["page", str(path), "-o", str(tmp_path / "p.html")])
    assert result.exit_code == 0 and ", 3 colours," in result.output
