"""``rofl page``: the HTML page, its JavaScript logic run in V8, and the command.

The page's logic (clues of a line, line status, the solved check, the
storage key, strokes) runs here for real in V8 (mini-racer, else ``node``)
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
from clirun import one_error_line, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from naive import brute_line, clue_of, fillings
from places import CORPUS

from rofl.formats import read_puzzle, write_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render.page import _asset, page_data, puzzle_page

CORPUS_FILES = sorted(CORPUS.glob("*/*.json"))
PAGE_JS = Path(__file__).resolve().parents[1] / "rofl" / "render" / "page.js"

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
    from naive import placements

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
    assert set(data) == {"format", "version", "title", "width", "height", "palette", "rows", "cols"}
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
    line = one_error_line(run("page", source, "-o", tmp_path / name))
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


@pytest.mark.skipif(not CORPUS_FILES, reason=f"the puzzle corpus is not at {CORPUS}")
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
