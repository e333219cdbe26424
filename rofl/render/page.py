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

A rectangle is drawn as an HTML table, a hexagon as SVG laid out as its
sheet is (:mod:`rofl.render.hexlayout`); the rest of the page is the same.
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
<button type="button" id="touchmode" class="for-touch" aria-pressed="false" \
aria-label="Scroll mode: dragging scrolls the board, a tap paints">Scroll</button>
<button type="button" id="undo" aria-label="Undo (Ctrl+Z)" title="Undo (Ctrl+Z)">&#x21b6;<span class="wide">\
 Undo</span></button>
<button type="button" id="redo" aria-label="Redo (Ctrl+Y)" title="Redo (Ctrl+Y)">&#x21b7;<span class="wide">\
 Redo</span></button>
<button type="button" id="check" title="Check the grid: outline the wrong cells">Check</button>
<button type="button" id="hint" aria-label="Hint: {hint_lines} that decides new cells (H)" \
title="Hint: {hint_lines} that decides new cells (H)">Hint</button>
<button type="button" id="apply" hidden aria-label="Fill the hinted cells (H)" title="Fill the hinted cells (H)">\
Apply</button>
<span class="zoom" role="group" aria-label="Zoom">\
<button type="button" id="zoomout" aria-label="Zoom out">&minus;</button>\
<button type="button" id="zoomfit" aria-label="Fit the window" title="Fit the window">&#x2922;</button>\
<button type="button" id="zoomin" aria-label="Zoom in">+</button></span>
<span class="counters"><span class="sr">Progress: </span><span id="progress" class="progress" \
title="Cells decided">0%</span>
<span id="timer" class="timer" role="timer" aria-label="Time spent" \
title="Time spent: starts at your first move">0:00</span></span>
</div>
<details class="options">
<summary>Options</summary>
<p><label><input type="checkbox" id="opt-mistakes"> Show mistakes as I go</label></p>
<p><label><input type="checkbox" id="opt-cross"> Cross out the rest of a line when its clue is complete</label></p>
<p><button type="button" id="reveal">Reveal solution&hellip;</button>
<button type="button" id="clear" title="Clear the grid and the timer (undoable)">Clear grid</button></p>
<p id="logic-note" hidden>Line logic cannot finish this puzzle, so the page does not know its solution: \
Check only finds the lines that cannot match their clues, and there is nothing to reveal.</p>
</details>
<p id="status" role="status" aria-live="polite"></p>
<div id="board" tabindex="0" \
aria-label="{board_label}. Arrow keys move, Space paints, full stop marks empty, Delete clears."></div>
<p id="where" aria-live="polite"></p>
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


def page_data(puzzle: Puzzle | HexPuzzle, title: str) -> dict:
    """The JSON the page embeds: the board, palette (``"#rrggbb"``, index 0 background), clues and title.

    A rectangle gives ``width``, ``height``, ``rows`` and ``cols``; a
    hexagon ``shape: "hexagon"``, ``side`` and the clues of its three
    directions, ``rows``, ``falling`` and ``rising``, in the order of
    :class:`~rofl.hexagon.Hexagon` (the page rebuilds the cells and lines
    from the side).  A ``?`` group's colour is the list of colours it may take.
    """
    from rofl.hexagon import HexPuzzle

    if isinstance(puzzle, HexPuzzle):
        return {
            "format": PAGE_FORMAT,
            "version": PAGE_VERSION,
            "title": title,
            "shape": "hexagon",
            "side": puzzle.side,
            "palette": puzzle.palette.hex(),
            "rows": _clues(puzzle.rows),
            "falling": _clues(puzzle.falling),
            "rising": _clues(puzzle.rising),
        }
    return {
        "format": PAGE_FORMAT,
        "version": PAGE_VERSION,
        "title": title,
        "width": puzzle.width,
        "height": puzzle.height,
        "palette": puzzle.palette.hex(),
        "rows": _clues(puzzle.rows),
        "cols": _clues(puzzle.cols),
    }


#: Extensions a page is written under.
SUFFIXES = (".html", ".htm")


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
    nothing for a puzzle rofl does not grade."""
    from rofl.errors import PuzzleError, UnsolvableError
    from rofl.solver.grade import grade_shown

    try:
        found = grade_shown(puzzle)
    except (PuzzleError, UnsolvableError):
        return ""
    text = f"Difficulty: {found.name} ({found.grade}/5, {found.steps} steps, hardest: {found.hardest.label})"
    return f'<p class="meta" id="difficulty">{html.escape(text)}</p>\n'


def puzzle_page(puzzle: Puzzle | HexPuzzle, *, title: str | None = None) -> str:
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

    Returns
    -------
    str
        The page, UTF-8 text.

    Raises
    ------
    PuzzleError
        A rectangular puzzle with ``?`` groups, which the page's table does
        not draw yet.
    """
    from rofl._version import __version__
    from rofl.errors import PuzzleError
    from rofl.hexagon import HexPuzzle

    hexagon = isinstance(puzzle, HexPuzzle)
    if isinstance(puzzle, HexPuzzle):
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
        size += f", {puzzle.n_colors - 1} colours"
    return _TEMPLATE.format(
        version=html.escape(__version__),
        title=html.escape(title, quote=True),
        size=size,
        difficulty=_difficulty_element(puzzle),
        hint_lines="a line" if hexagon else "a row or column",
        board_label="Puzzle board of hexagonal cells" if hexagon else "Puzzle grid",
        help=_HEX_HELP if hexagon else _GRID_HELP,
        css=_asset("page.css"),
        data=_script_json(page_data(puzzle, title)),
        js=_asset("page.js"),
    )
