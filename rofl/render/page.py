"""A puzzle as one self-contained HTML page to solve by hand in a browser.

The page holds the clues, the palette, the board (a rectangle's size, or a
hexagon's side) and the title as JSON in a
``<script type="application/json">`` element; its script (``page.js``) and
style sheet (``page.css``), shipped beside this module, are inlined, so the
file works opened from disk without a network.

The solution is not in the page.  It tells a solved grid by deriving the
clues of the player's cells and comparing them with the puzzle's: any grid
that has every clue counts as solved, and for rofl's puzzles, which have
one solution, that grid is the picture (a ``?`` group matches a run of
any colour of its set).  For Check and Reveal the page works the solution
out with its own line solver; puzzles line logic cannot finish (files from
other tools) keep a Check of the lines alone.

A rectangle's cells are drawn on canvases and its clues in two HTML bands
that never let numbers overlap (a clue bar shows the clues a band has no
room for), so that a 100x100 board stays quick; a hexagon is SVG laid out
as its sheet is (:mod:`rofl.render.hexlayout`); the rest of the page is the
same.  The page is made for phones too, prints like a sheet (a print style
sheet, the cells fitted to A4 by the script), and carries what Python works
out better than the page could: colour names, whether clues need letters
(:mod:`rofl.picture.legibility`) and the tint of unknown cells.
"""

from __future__ import annotations

import html
import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from rofl.hexagon import HexPuzzle
    from rofl.puzzle import Puzzle

#: ``format`` and ``version`` of the embedded JSON, for anyone reading it back.
PAGE_FORMAT = "rofl-page"
PAGE_VERSION = 1

_TEMPLATE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="rofl {version}">
<title>{title}</title>
<style>
{css}</style>
</head>
<body>
<header>
<h1>{title}</h1>
<p class="meta">{size}</p>
{difficulty}</header>
<main>
<div class="toolbar" role="toolbar" aria-label="Tools">
<div id="tools" class="tools" role="group" aria-label="Paint colour or mark empty"></div>
<button type="button" id="undo" aria-label="Undo (Ctrl+Z)" title="Undo (Ctrl+Z)">&#x21b6;<span class="wide">\
 Undo</span></button>
<button type="button" id="redo" aria-label="Redo (Ctrl+Y)" title="Redo (Ctrl+Y)">&#x21b7;<span class="wide">\
 Redo</span></button>
<button type="button" id="check" title="Check the grid: outline the wrong cells">Check</button>
<button type="button" id="hint" aria-label="Hint: {hint_lines} that decides new cells (H)" \
title="Hint: {hint_lines} that decides new cells (H)">Hint</button>
<button type="button" id="apply" hidden aria-label="Fill the hinted cells (H)" title="Fill the hinted cells (H)">\
Apply</button>
<button type="button" id="more" class="more-tools" aria-expanded="false" aria-controls="extra" \
aria-label="More tools" title="More tools">&#x22ef;</button>
<span id="extra" class="extra">\
<button type="button" id="touchmode" class="for-touch" aria-pressed="false" \
aria-label="Scroll mode: dragging scrolls the board, a tap paints">Scroll</button>\
<span class="zoom" role="group" aria-label="Zoom">\
<button type="button" id="zoomout" aria-label="Zoom out">&minus;</button>\
<button type="button" id="zoomfit" aria-label="Fit the window" title="Fit the window">&#x2922;</button>\
<button type="button" id="zoomin" aria-label="Zoom in">+</button></span>
<span class="counters"><span class="sr">Progress: </span><span id="progress" class="progress" \
title="Cells decided">0%</span>
<span id="timer" class="timer" role="timer" aria-label="Time spent" \
title="Time spent: starts at your first move">0:00</span></span></span>
</div>
<details class="options">
<summary>Options</summary>
<p><label><input type="checkbox" id="opt-mistakes"> Show mistakes as I go</label></p>
<p><label><input type="checkbox" id="opt-cross"> Cross out the rest of a line when its clue is complete</label></p>
<p class="multi-only"><label><input type="checkbox" id="opt-letters"> Letters on the clues ({letters_why})</label></p>
<p><button type="button" id="reveal">Reveal solution&hellip;</button>
<button type="button" id="clear" title="Clear the grid and the timer (undoable)">Clear grid</button></p>
<p id="logic-note" hidden>Line logic cannot finish this puzzle, so the page does not know its solution: \
Check only finds the lines that cannot match their clues, and there is nothing to reveal.</p>
</details>
<p id="status" role="status" aria-live="polite"></p>
<div id="bar" class="bar"><span id="where" aria-live="polite"></span><span id="barclues" class="barclues"></span></div>
<div id="board" tabindex="0" \
aria-label="{board_label}. Arrow keys move, Shift+arrows paint a run, Space paints, full stop marks empty, \
Delete clears{strike_keys}."></div>
<div id="key" class="key" role="group" aria-label="Colours"></div>
<noscript><p>This page needs JavaScript to play.</p></noscript>
<details class="help">
<summary>How to play</summary>
<ul>
{help}</ul>
</details>
</main>
<script type="application/json" id="rofl-puzzle">{data}</script>
<script>
{js}</script>
</body>
</html>
"""

#: The help of the rectangular page.
_GRID_HELP = """\
<li>Each number is a run of that many filled cells in its row (read left to right) or column (top to bottom), \
in that order; runs of the same colour have at least one empty cell between them, runs of different colours \
may touch. A &ldquo;0&rdquo; means the line is empty.</li>
<li class="for-mouse">Left button: paint with the selected tool. Right button (or Shift-click): mark a cell \
known empty. A click on a cell the tool already made clears it. Dragging paints a straight line and leaves \
other work alone; <kbd>Alt</kbd>+drag fills a rectangle.</li>
<li class="for-touch">Touch: tap or drag to paint with the selected colour; choose &times; to mark cells \
empty. Two fingers on the grid zoom. Scroll switches to scrolling: then a drag scrolls and a pinch \
zooms the board, and a tap paints one cell. Dragging the clues always scrolls.</li>
<li>Zoom: &minus; and + (or <kbd>Ctrl</kbd>+wheel, or the <kbd>+</kbd> and <kbd>-</kbd> keys); &#x2922; fits \
the window. Clues stay in view while the grid scrolls.</li>
<li>Keys: <kbd>1</kbd>&ndash;<kbd>9</kbd> pick a colour, <kbd>[</kbd> and <kbd>]</kbd> step through every \
colour, <kbd>X</kbd> switches between painting and marking, <kbd>Ctrl</kbd>+<kbd>Z</kbd> undoes, \
<kbd>Ctrl</kbd>+<kbd>Y</kbd> redoes, <kbd>H</kbd> hints; on the grid (<kbd>Tab</kbd> to it) the arrow keys \
move, <kbd>Space</kbd> paints, <kbd>.</kbd> marks, <kbd>Delete</kbd> clears.</li>
<li>A clue turns grey when its line&rsquo;s painted cells match it; a full line that cannot match is shown \
in red with &#x2717;. Click a clue number to strike it out for yourself (click again to bring it back).</li>
<li>Check outlines the cells that are wrong, in red; Options can show them as you play, cross out the rest of \
a finished line, or reveal the solution. The page works the solution out with line logic; for puzzles that \
line logic cannot finish, Check lists the lines that cannot be completed as they stand.</li>
<li>Hint (<kbd>H</kbd>) shows a row or column whose clue, with the marks already in it, decides more \
cells: they get a dashed outline and a marker (&#x25cf; paint, &times; empty). Press Hint again, or Apply, \
to fill them (Undo takes them back). In colour puzzles a hint may also use the colours that crossing lines \
rule out of its cells (those lines are outlined). A hint follows from your marks, so after a mistake it names \
a line that can no longer be completed; when line logic decides nothing more, it says so. <kbd>Esc</kbd> \
hides a hint.</li>
<li>The timer starts at your first move. The percentage counts the cells decided. Progress, time, tool and \
options are kept in this browser (local storage) and come back when the page is opened again.</li>
"""

#: The help of the hexagonal page.
_HEX_HELP = """\
<li>Each number is a run of that many filled cells along its line, in that order: rows read left to right, \
diagonals top to bottom. A row's clue stands to its left, a rising diagonal's (/) beyond its top end and a \
falling diagonal's (\\) beyond its bottom end, each on its line's axis with a grey guide to the board. Runs of \
the same colour have at least one empty cell between them, runs of different colours may touch. A \
&ldquo;?&rdquo; on a hatched box is a run of one of several colours (the clue does not say which). \
A &ldquo;0&rdquo; means the line is empty.</li>
<li class="for-mouse">Left button: paint with the selected tool. Right button (or Shift-click): mark a cell \
known empty. A click on a cell the tool already made clears it. Dragging paints a straight run along the row or \
the diagonal you move along most, and leaves other work alone.</li>
<li class="for-touch">Touch: tap or drag to paint with the selected colour; choose &times; to mark cells \
empty. Two fingers on the board zoom. Scroll switches to scrolling: then a drag scrolls and a pinch \
zooms the board, and a tap paints one cell.</li>
<li>Zoom: &minus; and + (or <kbd>Ctrl</kbd>+wheel, or the <kbd>+</kbd> and <kbd>-</kbd> keys); &#x2922; fits \
the window.</li>
<li>Keys: <kbd>1</kbd>&ndash;<kbd>9</kbd> pick a colour, <kbd>[</kbd> and <kbd>]</kbd> step through every \
colour, <kbd>X</kbd> switches between painting and marking, <kbd>Ctrl</kbd>+<kbd>Z</kbd> undoes, \
<kbd>Ctrl</kbd>+<kbd>Y</kbd> redoes, <kbd>H</kbd> hints; on the board (<kbd>Tab</kbd> to it) the left and \
right arrows move along the row, up and down to the row above or below, <kbd>Space</kbd> paints, \
<kbd>.</kbd> marks, <kbd>Delete</kbd> clears.</li>
<li>The lines through the cell under the pointer are tinted, their guides blue. A clue turns grey when its \
line&rsquo;s painted cells match it; a full line that cannot match gets a red guide and &#x2717;. Click a clue \
number to strike it out for yourself (click again to bring it back).</li>
<li>Check outlines the cells that are wrong, in red; Options can show them as you play, cross out the rest of \
a finished line, or reveal the solution. The page works the solution out with line logic; for puzzles that \
line logic cannot finish, Check lists the lines that cannot be completed as they stand.</li>
<li>Hint (<kbd>H</kbd>) shows a line whose clue, with the marks already in it, decides more cells: they get a \
dashed ring and a marker (&#x25cf; paint, &times; empty). Press Hint again, or Apply, to fill them (Undo takes \
them back). In colour puzzles a hint may also use the colours that crossing lines rule out of its cells (their \
guides are dashed). A hint follows from your marks, so after a mistake it names a line that can no longer be \
completed; when line logic decides nothing more, it says so. <kbd>Esc</kbd> hides a hint.</li>
<li>The timer starts at your first move. The percentage counts the cells decided. Progress, time, tool and \
options are kept in this browser (local storage) and come back when the page is opened again.</li>
"""


@cache
def _asset(name: str) -> str:
    text = resources.files("rofl.render").joinpath(name).read_text(encoding="utf-8")
    # the assets are ours, but a stray closing tag would end the inline element early
    closing = "</script" if name.endswith(".js") else "</style"
    if closing in text.lower():  # pragma: no cover - a packaging mistake, not user input
        msg = f"rofl/render/{name} contains {closing!r} and cannot be inlined"
        raise RuntimeError(msg)
    return text


def _script_json(value: object) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` (so no ``</script>`` or ``<!--``)."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _clues(lines) -> list:
    """Clues as JSON: ``[length, colour]`` groups, a ``?`` group's colour as the sorted list of its colours."""
    return [[[n, sorted(c) if isinstance(c, frozenset) else c] for n, c in line] for line in lines]


#: Tints an unknown cell may take (with a hatch over it, page.js), lightest first:
#: neutral greys, then a blue-grey and a green-grey for palettes full of greys.
UNKNOWN_TINTS = ("#ffffff", "#f2f2f2", "#e4e4e4", "#d6d6d6", "#c8c8c8", "#e6ecf5", "#e8f0e4")


#: ΔE2000 from every ink colour that an unknown cell's tint needs to count as distinct.
UNKNOWN_DELTA_E = 20.0


def unknown_tint(palette_hex: list[str]) -> str:
    """The tint of the page's unknown cells: the first of :data:`UNKNOWN_TINTS`
    at least :data:`UNKNOWN_DELTA_E` (ΔE2000) from every ink colour (palette
    index 1 and up: what a painted cell shows), else the farthest from its
    nearest one, so that no painted cell is taken for an unknown one (the
    page hatches unknown cells too).  Cells marked empty show the background
    with a cross."""
    import numpy as np

    from rofl.picture import colour

    def lab(codes):
        return colour.rgb8_to_lab(np.array([[int(c[k : k + 2], 16) for k in (1, 3, 5)] for c in codes], np.uint8))

    nearest = colour.delta_e(lab(UNKNOWN_TINTS), lab(palette_hex[1:])).min(axis=1)
    enough = min(UNKNOWN_DELTA_E, float(nearest.max()))
    return next(t for t, d in zip(UNKNOWN_TINTS, nearest, strict=True) if d >= enough)


def page_data(puzzle: Puzzle | HexPuzzle, title: str, letters: bool | None = None) -> dict:
    """The JSON the page embeds: the board, palette (``"#rrggbb"``, index 0 background), clues and title.

    Also, worked out here so that the page need not: ``names``, each palette
    colour's name (:func:`rofl.picture.legibility.colour_name`) for screen
    readers and the printed key; ``letters``, whether the clues carry letters
    (``letters``, or when None, :func:`~rofl.picture.legibility.needs_letters`),
    with ``confusions`` saying why; and ``unknown``, the tint of unknown cells
    (:func:`unknown_tint`).

    A rectangle gives ``width``, ``height``, ``rows`` and ``cols``; a
    hexagon ``shape: "hexagon"``, ``side`` and the clues of its three
    directions, ``rows``, ``falling`` and ``rising``, in the order of
    :class:`~rofl.hexagon.Hexagon` (the page rebuilds the cells and lines
    from the side).  A ``?`` group's colour is the list of colours it may take.
    """
    from rofl.picture.legibility import colour_name, confusions

    palette = puzzle.palette.hex()
    rgb = list(puzzle.palette.colors)
    confused = [str(c) for c in confusions(rgb)] if len(palette) > 2 else []
    common = {
        "format": PAGE_FORMAT,
        "version": PAGE_VERSION,
        "title": title,
        "palette": palette,
        "names": [colour_name(c) for c in rgb],
        "letters": bool(confused) if letters is None else bool(letters),
        "confusions": confused,
        "unknown": unknown_tint(palette),
    }
    if puzzle.board.kind == "hexagon":
        return common | {
            "shape": "hexagon",
            "side": puzzle.side,
            "rows": _clues(puzzle.rows),
            "falling": _clues(puzzle.falling),
            "rising": _clues(puzzle.rising),
        }
    return common | {
        "width": puzzle.width,
        "height": puzzle.height,
        "rows": _clues(puzzle.rows),
        "cols": _clues(puzzle.cols),
    }


#: Extensions a page is written under.
SUFFIXES = (".html", ".htm")

#: Most cells a rectangle's page holds: 512 x 512.  The browser paints every
#: cell and lays out every clue; a 2048 x 2048 page did not load in Chromium
#: within 120 s (issue 40).  ``benchmarks/page_load.py`` times the loads
#: (docs/benchmarks.md, "Loading pages in a browser"; docs/formats.md,
#: "Output limits").
MAX_PAGE_CELLS = 512 * 512
#: Largest side of a hexagon's page: that of its sheet
#: (:data:`rofl.render.hexlayout.MAX_SHEET_SIDE`, ``rofl make --shape hex``'s
#: largest).  A hexagon's page draws an SVG polygon per cell, slower to load
#: than a rectangle's canvas.
MAX_PAGE_SIDE = 128


def check_page_size(puzzle: Puzzle | HexPuzzle) -> None:
    """Refuse a rectangle of more than :data:`MAX_PAGE_CELLS` cells, or a
    hexagon of a side over :data:`MAX_PAGE_SIDE`, before the page is made.

    Raises
    ------
    LimitError
        (a :class:`~rofl.errors.FormatError`: the puzzle, not an option, is too large)
    """
    from rofl.errors import LimitError

    if puzzle.board.kind == "hexagon":
        if puzzle.side > MAX_PAGE_SIDE:
            msg = f"a page holds a hexagon of side {MAX_PAGE_SIDE} at most, which a browser still loads; "
            msg += f"this one has side {puzzle.side}"
            raise LimitError(msg)
        return
    cells = puzzle.width * puzzle.height
    if cells > MAX_PAGE_CELLS:
        msg = f"a page holds at most {MAX_PAGE_CELLS:,} cells (512 x 512), which a browser still loads; "
        msg += f"this puzzle, {puzzle.width}x{puzzle.height}, has {cells:,} (print it with rofl sheet)"
        raise LimitError(msg)


def check_page_path(path) -> None:
    """Raise :class:`~rofl.errors.OptionError` unless ``path`` names an HTML file."""
    from pathlib import Path

    from rofl.errors import OptionError

    suffix = Path(path).suffix
    if suffix.lower() not in SUFFIXES:
        msg = f"{path}: a page is written as .html or .htm, not {suffix or '(no extension)'!r}"
        raise OptionError(msg)


def _difficulty_element(puzzle: Puzzle | HexPuzzle) -> str:
    """The page's line naming the puzzle's grade (:func:`rofl.grade`), or
    nothing for a puzzle rofl does not grade; its figures (steps, hardest
    technique) are ``wide``: a phone's one-line header leaves them out, so
    that the title keeps its room."""
    from rofl.solver.grade import grade_shown

    found, _ = grade_shown(puzzle)
    if found is None:
        return ""
    figures = html.escape(f", {found.steps} steps, hardest: {found.hardest.label}")
    text = f'Difficulty: {html.escape(found.name)} ({found.grade}/5<span class="wide">{figures}</span>)'
    return f'<p class="meta" id="difficulty">{text}</p>\n'


def puzzle_page(
    puzzle: Puzzle | HexPuzzle, *, title: str | None = None, letters: bool | None = None, difficulty: bool = False
) -> str:
    """One self-contained HTML5 page to solve ``puzzle`` by hand.

    Inline CSS and JavaScript, no network, no solution in the file (the page
    compares the clues of the player's grid with the puzzle's, and finds
    the solution for Check by line logic; see the module docstring).  Progress is kept in the browser's local storage
    under a hash of the clues.  A hexagonal puzzle is drawn as on its
    sheet (:mod:`rofl.render.hexlayout`), in SVG.

    Parameters
    ----------
    puzzle : Puzzle or HexPuzzle
    title : str, optional
        Shown as the page's heading and window title; defaults to
        ``puzzle.meta["title"]``, else ``"Nonogram WxH"`` (``"Hexagonal
        nonogram, side S"``).  HTML-escaped.
    letters : bool, optional
        Print each colour clue with its colour's letter (``2a 3b``), as
        sheets do with ``--letters``.  None (the default): when two ink
        colours are close in lightness or under a simulated colour vision
        deficiency (:func:`rofl.picture.legibility.needs_letters`).
    difficulty : bool
        Add a line naming the puzzle's grade (:func:`rofl.grade`) under its size.

    Returns
    -------
    str
        The page, UTF-8 text.

    Raises
    ------
    PuzzleError
        A rectangular puzzle with ``?`` groups, which the page's grid does
        not draw yet.
    LimitError
        More than :data:`MAX_PAGE_CELLS` cells.
    """
    from rofl._version import __version__
    from rofl.errors import PuzzleError

    check_page_size(puzzle)

    hexagon = puzzle.board.kind == "hexagon"
    if hexagon:
        default = f"Hexagonal nonogram, side {puzzle.side}"
        size = f"hexagon of side {puzzle.side}, {puzzle.n_cells} cells"
    else:
        if puzzle.has_color_sets:
            msg = "the page draws groups of unknown colour ('?') on hexagonal boards only"
            raise PuzzleError(msg)
        default = f"Nonogram {puzzle.width}\u00d7{puzzle.height}"
        size = f"{puzzle.width} \u00d7 {puzzle.height}"
    if not title:
        title = puzzle.meta.get("title") or default
    if puzzle.n_colors > 2:
        # as rofl counts them (make -c, the page command's summary): the background is one
        size += f", {puzzle.n_colors} colours"
    data = page_data(puzzle, title, letters)
    if data["confusions"]:
        letters_why = html.escape("turned on: " + "; ".join(data["confusions"]))
    else:
        letters_why = "a, b, c: for grey prints and colour-blind readers"
    return _TEMPLATE.format(
        version=html.escape(__version__),
        title=html.escape(title, quote=True),
        size=size,
        difficulty=_difficulty_element(puzzle) if difficulty else "",
        hint_lines="a line" if hexagon else "a row or column",
        board_label="Puzzle board of hexagonal cells" if hexagon else "Puzzle grid",
        strike_keys=(
            ", R, F and S strike the next number of the row's, falling or rising diagonal's clue"
            if hexagon
            else ", R and C strike the next number of the row's or column's clue"
        ),
        letters_why=letters_why,
        help=_HEX_HELP if hexagon else _GRID_HELP,
        css=_asset("page.css"),
        data=_script_json(data),
        js=_asset("page.js"),
    )
