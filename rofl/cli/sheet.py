"""``rofl sheet``: printable sheets of puzzles, empty or with their solutions,
one puzzle to a file or several in a PDF puzzle book."""

from __future__ import annotations

import click

from rofl._words import plural
from rofl.cli._app import main
from rofl.cli._files import check_drawable, check_parent, refuse_overwrite
from rofl.cli._options import (
    budget_option,
    check_cell,
    check_sheet_name,
    checked_by,
    choice_option,
    files_argument,
    flag_option,
    output_option,
)
from rofl.cli._show import say


@main.command()
@files_argument("puzzle_files", "PUZZLE...")
@output_option("Sheet to write: .png, .pdf or .svg (the extension chooses).", callback=checked_by(check_sheet_name))
@flag_option("--solution", "Fill the grid with the solution (solving the puzzle if need be).")
@flag_option(
    "--answers",
    "PDF: after the puzzle pages, pages with every puzzle's solution, six to a page.",
)
@click.option(
    "--cell",
    type=int,
    callback=checked_by(check_cell),
    metavar="PIXELS",
    help="Cell size at 96 dpi (default: 26, 22 beyond 80 cells, 18 beyond 160; a PDF fills its page).",
)
@flag_option(
    "--letters",
    "Print each clue with its colour's letter (2a 3b), to solve a colour puzzle from a black-and-white print.",
)
@click.option("--title", help="Title above the grid (default: the puzzle's title; '' for none).")
@flag_option(
    "--difficulty",
    "Print the puzzle's grade after its title (rofl.grade: easy, medium, hard, expert, needs guessing).",
)
@choice_option(
    "--order",
    ("files", "difficulty"),
    "A book's pages in the order of the files, or easiest first.",
)
@click.option(
    "--font",
    type=click.Path(dir_okay=False),
    metavar="FILE",
    help="TrueType or OpenType font for numbers and titles (.png, .pdf), for titles in any script.",
)
@budget_option("With --solution or --answers: seconds per puzzle for line logic and the search together.")
def sheet(
    puzzle_files: tuple[str, ...],
    output: str,
    solution: bool,
    answers: bool,
    cell: int | None,
    letters: bool,
    title: str | None,
    difficulty: bool,
    order: str,
    font: str | None,
    budget: float,
) -> None:
    """Write a printable sheet of PUZZLE: the grid with its clues.

    PUZZLE is any puzzle file rofl reads (.rofl, .json, .xml, .non, .nin,
    .g, .notmine, ..., or a sheet rofl drew).  OUT's extension picks the
    format: PNG (96 dpi, or denser when a large puzzle needs it to fit the
    page), PDF (vector, one A4 page that also prints on Letter, the sheet
    as large as fits, portrait or landscape) or SVG (vector, sized in
    millimetres at the PNG's scale).  Every sheet carries its puzzle, so
    rofl reads it back as that puzzle.  A colour puzzle's sheet has a key
    naming each colour and the background ("blank"); --letters adds each
    colour's letter to its clue numbers for black-and-white printers.

    A hexagonal puzzle (.clues) prints as PNG, PDF or SVG too: clues on
    each line's axis beyond the board (rows left, rising diagonals top,
    falling diagonals bottom), ? groups as hatched boxes; no --cell, no book.

    Several PUZZLEs make a puzzle book: one PDF, a page per puzzle, each
    title numbered; --answers adds pages with the solutions, six to a page.

    With --solution the cells are filled with the solution: the one the
    file stores, else the one the solver proves (line logic, then a
    complete search within --budget).  A puzzle with several solutions, none,
    or none found in time is an error and nothing is written.
    """
    from rofl._io import atomic_write
    from rofl.errors import UsageError
    from rofl.render.sheet import check_sheet_path, sheet_bytes

    suffix = check_sheet_path(output)
    book = len(puzzle_files) > 1 or answers
    if book and suffix != ".pdf":
        what = "several puzzles" if len(puzzle_files) > 1 else "--answers"
        msg = f"{output}: {what} need a .pdf output (a page per puzzle), not {suffix!r}"
        raise UsageError(msg)
    if answers and solution:
        msg = "--answers adds pages of solutions after the puzzles; --solution fills the puzzles' own grids: choose one"
        raise UsageError(msg)
    if title is not None and len(puzzle_files) > 1:
        msg = "--title names one sheet; in a book every page takes its puzzle's title"
        raise UsageError(msg)
    chosen = _font(font, suffix)
    check_parent(output)
    refuse_overwrite([*puzzle_files, font], [("-o", output)])

    puzzles, grids = _read(puzzle_files, book=book, solved=solution or answers, budget=budget)
    _warn_unprintable(puzzles, title, suffix, chosen)
    ordered = order == "difficulty" and book
    if difficulty or ordered:
        from rofl.cli._show import graded_or_warned

        grades = [graded_or_warned(puzzle, name) for puzzle, name in zip(puzzles, puzzle_files, strict=True)]
        if ordered:
            puzzles, grids = _easiest_first(puzzles, grids, grades)

    if book:
        from rofl.render.pdf import puzzle_book

        data = puzzle_book(
            puzzles,
            solutions=None if answers else grids,
            answers=grids if answers else None,
            titles=None if title is None else [title],
            cell=cell,
            font=chosen,
            letters=letters,
            difficulty=difficulty,
        )
    else:
        data = sheet_bytes(
            puzzles[0], suffix, solution=grids[0], cell=cell, title=title, font=chosen, letters=letters,
            difficulty=difficulty,
        )  # fmt: skip
    atomic_write(output, data)
    _say_written(output, puzzles, book=book, answers=answers, solution=solution)


def _read(files: tuple[str, ...], *, book: bool, solved: bool, budget: float) -> tuple[list, list]:
    """The puzzles of ``files`` and their solutions (``solved``: --solution, --answers) or None, each checked
    for what the sheet or book can draw before any is solved."""
    from rofl.decode import check_stored_crc
    from rofl.errors import FormatError
    from rofl.formats import open_puzzle

    puzzles, grids = [], []
    for file in files:
        opened = open_puzzle(file)
        hexagonal = opened.puzzle.board.kind == "hexagon"  # drawn by rofl.render.hexsvg, ? groups included
        if hexagonal and book:  # a sheet of its own, not a page of a book
            msg = f"{opened.name}: a puzzle book takes rectangular puzzles only; this one is hexagonal"
            msg += " (rofl sheet draws it on a sheet of its own)"
            raise FormatError(msg)
        check_drawable(opened, "sheet", hexagon=not book, color_sets=hexagonal and not book)
        if hexagonal:  # before a solution is looked for
            from rofl.render.hexlayout import check_hex_sheet

            check_hex_sheet(opened.puzzle, f"{opened.name}: a hexagonal sheet")
        else:
            from rofl.render.layout import check_numbers

            check_numbers(opened.puzzle, f"{opened.name}: a sheet")
        puzzles.append(opened.puzzle)
        if solved:
            grids.append(_solution(file, opened, budget))
        else:
            check_stored_crc(opened, budget=budget)
            grids.append(None)
    return puzzles, grids


def _say_written(output: str, puzzles: list, *, book: bool, answers: bool, solution: bool) -> None:
    """The line saying what was written: a book's puzzles and pages, or a sheet's puzzle."""
    if book:
        from rofl.render.pdf import ANSWER_GRID

        per_page = ANSWER_GRID[0] * ANSWER_GRID[1]
        pages = len(puzzles) + (-(-len(puzzles) // per_page) if answers else 0)
        what = plural(len(puzzles), "puzzle") + (" and their solutions" if answers else "")
        say(f"{output}: {what}, {plural(pages, 'page')}")
    else:
        puzzle = puzzles[0]
        what = "solution sheet" if solution else "sheet"
        size = puzzle.board.size_text() if puzzle.board.kind == "rectangle" else f"side {puzzle.board.side} hexagonal"
        say(f"{output}: {what} of a {size} puzzle, {puzzle.n_colors} colours")


def _font(path: str | None, suffix: str):
    """The ``--font`` file, read and checked (before any puzzle is solved)."""
    if path is None:
        return None
    from rofl.errors import UsageError
    from rofl.render.fonts import load_font
    from rofl.render.sheet import SVG_FONT

    if suffix == ".svg":
        msg = f"--font: {SVG_FONT}"
        raise UsageError(msg)
    return load_font(path)


def _solution(file: str, opened, budget: float):
    """The picture the file stores, else the one the solver proves."""
    if opened.solution is not None:
        return opened.solution  # the readers check that a stored solution fits the clues
    from rofl.decode import solve_picture

    return solve_picture(opened.puzzle, crc32=opened.crc32, where=file, budget=budget)


def _easiest_first(puzzles: list, grids: list, grades: list) -> tuple[list, list]:
    """The puzzles (and their grids) easiest first by their ``grades``
    (:func:`rofl.grade`); the files' order among equals, ungraded puzzles
    (None) last."""

    def key(index: int) -> tuple[int, float]:
        found = grades[index]
        return (6, 0.0) if found is None else (found.grade, found.score)

    order = sorted(range(len(puzzles)), key=key)
    return [puzzles[i] for i in order], [grids[i] for i in order]


def _warn_unprintable(puzzles: list, title: str | None, suffix: str, font) -> None:
    """Warn when a title has characters the sheet's font cannot print."""
    if suffix == ".svg":
        return
    from rofl.render.fonts import missing, sheet_covers

    covers = sheet_covers(suffix, font)
    titles = [title] if title is not None else [p.meta.get("title") for p in puzzles]
    lacking = "".join(dict.fromkeys("".join(missing(t, covers) for t in titles if t)))
    if not lacking:
        return
    shown = " ".join(repr(ch)[1:-1] for ch in lacking[:12]) + (" ..." if len(lacking) > 12 else "")
    whose = f"the font {font.name!r}" if font is not None else "the built-in font"
    hint = "" if font is not None else "; --font FILE.ttf names a font that has them"
    say(f"warning: {whose} lacks characters of the title ({shown}): printed plainer or as '?'{hint}", err=True)
