"""Puzzle sheets and puzzle books as vector PDF, drawn with fpdf2.

:func:`puzzle_pdf` draws the layout of :func:`rofl.render.layout.sheet_layout`
(the one the PNG and SVG sheets use) on one A4 page: lines, bands and filled
cells as paths, clue numbers as text in Helvetica, one of the fonts every PDF
reader has, so no font is embedded and the sheet prints sharp at any size.
:func:`puzzle_book` puts several puzzles in one file, a page each, numbered,
and may end with pages of their solutions, six to a page.

Helvetica prints Windows-1252 only; for a title in another script, pass a
font file (:func:`rofl.render.fonts.load_font`): the PDF then embeds the
part of it the pages use, and prints the numbers and titles in it.

A sheet fills its page: it is drawn as large as fits the area that A4 and
US Letter paper share less margins (:data:`rofl.render.layout.PAGE_INCHES`),
portrait or landscape, whichever holds it larger, up to cells of
:data:`MAX_CELL_MM` (a 5x5 puzzle gets pencil-sized cells, not 4 cm
squares), and centred.  The title is set at :data:`TITLE_POINTS`, cut
short to the page's width.  A
book turns all its pages alike (:func:`book_orientation`).  An explicit
cell size prints at the PNG's and SVG's scale
(:data:`rofl.render.layout.BASE_DPI`) instead, shrunk only to fit.
"""

from __future__ import annotations

import contextlib
import gc
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from rofl._io import stamp_time
from rofl.formats.sheets import attach
from rofl.render.canvas import PdfCanvas, RectPdfCanvas, draw_hex_sheet, draw_sheet
from rofl.render.fonts import CORE_ENCODING, FontFile, quiet_fonttools, reason, sheet_covers, shown
from rofl.render.layout import (
    A4_POINTS,
    BASE_DPI,
    PAGE_INCHES,
    THIN,
    TITLE_EM,
    SheetOptions,
    check_solution,
    cut_short,
    difficulty_title,
    fill_runs,
    sheet_inputs,
    sheet_layout,
)

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rofl.board import BoardPuzzle
    from rofl.hexagon import HexPuzzle
    from rofl.puzzle import Puzzle

#: Largest cell of a sheet that fills its page, in millimetres.
MAX_CELL_MM = 12.0
#: Smallest cell that is comfortable to fill with a pencil, in millimetres:
#: what a long thin hidden text is wrapped to reach (``rofl hide``).
PENCIL_CELL_MM = 4.0
#: Size of a page-filling sheet's title, in points.
TITLE_POINTS = 16.0
#: Solutions on one answer page: columns and rows of pictures.
ANSWER_GRID = (2, 3)
#: Largest cell of an answer picture, in points (a small puzzle's solution
#: is not blown up to fill its place).
ANSWER_CELL = 12.0
#: Type sizes of the answer pages, in points: heading and labels.
ANSWER_HEADING = 16.0
ANSWER_LABEL = 10.0
#: The family name an embedded font is registered under.
EMBEDDED = "rofl-embedded"
#: Font file names fpdf2 accepts (it goes by the name).
FPDF_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc", ".woff", ".woff2")


def _metadata_text(text: str) -> str:
    # the document title is UTF-16 and holds any character, but not lone
    # surrogates (a title may come from any file) or control characters
    return "".join("\ufffd" if unicodedata.category(ch) in ("Cc", "Cs") else ch for ch in text)


def puzzle_pdf(puzzle: BoardPuzzle, **options: Any) -> bytes:
    """Draw ``puzzle``'s sheet, of either shape, as a one-page vector PDF.

    The same sheet as :func:`rofl.render.svg.puzzle_svg` draws, with the
    same arguments (``options``: :class:`~rofl.render.layout.SheetOptions`)
    but these: ``cell`` is a rectangle's cell size in layout
    pixels printed at 96 dpi (the page may scale it down; default: the sheet
    fills the page, see the module's docstring); the ``title`` prints with a
    stand-in for each character the font lacks
    (:func:`rofl.render.fonts.shown`), while the document's title metadata
    keeps it as given; ``font`` (a :class:`~rofl.render.fonts.FontFile`)
    prints numbers and title in that font, embedded (default Helvetica,
    which covers Windows-1252 and is not embedded).  A rectangle's solution
    sheet fills the grid with one rectangle per run of same-coloured cells;
    a hexagon's sheet is as large as fits the page, portrait or landscape.

    Returns
    -------
    bytes
        The PDF file: one A4 page.  Its creation date is the current time,
        or ``SOURCE_DATE_EPOCH`` when that is set.  A rectangle's puzzle is attached
        as ``puzzle.rofl`` (with the CRC-32 of ``solution`` when given), so
        rofl reads the sheet back (:mod:`rofl.formats.sheets`).

    Raises
    ------
    rofl.OptionError
        A cell smaller than :data:`rofl.render.layout.MIN_CELL`, a sheet
        larger than :data:`rofl.render.layout.MAX_SIDE` a side, a solution
        that does not fit the puzzle, or a font fpdf2 cannot embed.
    """
    return sheet_pdf(puzzle, SheetOptions(**options))


def sheet_pdf(puzzle: BoardPuzzle, options: SheetOptions) -> bytes:
    """:func:`puzzle_pdf` with its options as one value."""
    if puzzle.board.kind == "hexagon":
        return _hexagon_pdf(puzzle, options)
    puzzle = cast("Puzzle", puzzle)
    grid, title = sheet_inputs(puzzle, options.solution, options.title)
    with _Document(options.font) as doc:
        if title:
            doc.pdf.set_title(_metadata_text(title))
        doc.sheet_page(puzzle, grid, title, options.cell, letters=options.letters)
        attach(doc.pdf, puzzle, grid, "puzzle.rofl", _metadata_text(title) if title else None)
        return doc.output()


def _hexagon_pdf(puzzle, options: SheetOptions) -> bytes:
    """A hexagonal puzzle's PDF sheet: :func:`~rofl.render.hexlayout.hex_layout`
    as large as fits one A4 page, portrait or landscape, centred."""
    from rofl.render.hexlayout import hex_layout, hex_title, pdf_scale

    title = hex_title(puzzle, options.cell, options.title, ".pdf", options.font)
    sheet = hex_layout(puzzle, solution=options.solution, title=title, letters=options.letters)
    k, landscape = pdf_scale(sheet)
    with _Document(options.font) as doc:
        doc.pdf.add_page(orientation="L" if landscape else "P")
        page_w, page_h = sorted(A4_POINTS, reverse=landscape)
        origin = ((page_w - sheet.width * k) / 2, (page_h - sheet.height * k) / 2)
        draw_hex_sheet(sheet, puzzle.palette, PdfCanvas(doc.pdf, doc.family, k, origin, (sheet.left, sheet.top)))
        return doc.output()


def hex_sheet_cell_mm(puzzle: HexPuzzle, *, title: str | None = None) -> tuple[float, bool]:
    """How large :func:`puzzle_pdf` prints a hexagonal ``puzzle``'s cells:
    their width across (flat side to flat side) in millimetres, and whether
    the page is landscape."""
    from rofl.render.hexlayout import SQ3, R, hex_layout, pdf_scale

    k, landscape = pdf_scale(hex_layout(puzzle, title=title))
    return SQ3 * R * k * 25.4 / 72, landscape


def puzzle_book(
    puzzles: Sequence[Puzzle],
    *,
    solutions: Sequence | None = None,
    answers: Sequence | None = None,
    titles: Sequence[str | None] | None = None,
    cell: int | None = None,
    font: FontFile | None = None,
    document_title: str | None = None,
    letters: bool = False,
    difficulty: bool = False,
) -> bytes:
    """Several puzzles in one PDF: a page each, then optionally their solutions.

    Puzzle ``n`` is attached as ``puzzle-n.rofl`` (with the CRC-32 of its
    solution or answer picture when given): PDF viewers list the files, and
    each one saved from there is a puzzle rofl reads.

    Each puzzle's page is its sheet as :func:`puzzle_pdf` draws it, its
    title numbered (``"3. Astronaut"``, or ``"3"`` for a puzzle without a
    title) so that the answer pages can refer to it.

    Parameters
    ----------
    puzzles : sequence of Puzzle
        At least one.
    solutions : sequence of grids or None, optional
        Fill the grid of puzzle ``i``'s page with ``solutions[i]`` (solution
        sheets); None entries stay empty.
    answers : sequence of grids, optional
        After the puzzle pages, pages headed "Solutions" with every
        puzzle's picture, six to a page in puzzle order, each labelled with
        its number and title; one grid per puzzle, each must fit its clues.
    titles : sequence of str or None, optional
        Titles instead of the puzzles' own (None entries: the puzzle's).
    cell : int, optional
        Cell size of every sheet, as for :func:`puzzle_pdf`.
    font : FontFile, optional
        As for :func:`puzzle_pdf`.
    document_title : str, optional
        The PDF's title metadata (viewers show it); none by default.
    letters : bool
        Print each clue number with its colour's letter (``2a 3b``), as the
        key does, so a colour puzzle can be solved from a black-and-white print.
    difficulty : bool
        Print each puzzle's grade after its title (:func:`rofl.grade`).

    Raises
    ------
    rofl.OptionError
        No puzzle, lists of the wrong length, or as :func:`puzzle_pdf`.
    """
    from rofl.errors import OptionError

    n = len(puzzles)
    if n == 0:
        msg = "a puzzle book needs at least one puzzle"
        raise OptionError(msg)
    for name, values in (("solutions", solutions), ("answers", answers), ("titles", titles)):
        if values is not None and len(values) != n:
            msg = f"{name} has {len(values)} entries for {n} puzzles"
            raise OptionError(msg)
    fills = solutions if solutions is not None else [None] * n
    names = titles if titles is not None else [None] * n
    if difficulty:
        names = [difficulty_title(puzzle, name) for puzzle, name in zip(puzzles, names, strict=True)]
    labels, grids = [], []
    for number, (puzzle, fill, name) in enumerate(zip(puzzles, fills, names, strict=True), 1):
        grid, title = sheet_inputs(puzzle, fill, name)
        labels.append(f"{number}. {title}" if title else f"{number}")
        grids.append(grid)
    pictures = None if answers is None else [check_solution(p, a) for p, a in zip(puzzles, answers, strict=True)]

    with _Document(font) as doc:
        if document_title:
            doc.pdf.set_title(_metadata_text(document_title))
        turn = book_orientation(
            [doc.sheet_fit(puzzle, label, cell, letters) for puzzle, label in zip(puzzles, labels, strict=True)]
        )
        for number, (puzzle, grid, label) in enumerate(zip(puzzles, grids, labels, strict=True), 1):
            doc.sheet_page(puzzle, grid, label, cell, letters=letters, landscape=turn)
            picture = grid if grid is not None or pictures is None else pictures[number - 1]
            attach(doc.pdf, puzzle, picture, f"puzzle-{number}.rofl", _metadata_text(label))
        if pictures is not None:
            doc.answer_pages(list(zip(puzzles, pictures, labels, strict=True)))
        return doc.output()


def sheet_cell_mm(puzzle: Puzzle, *, title: str | None = None, letters: bool = False) -> float:
    """The cell size, in millimetres, of ``puzzle``'s page-filling PDF sheet
    (:func:`puzzle_pdf` without ``cell``), in the orientation that prints it larger."""
    with _Document(None) as doc:
        return max(doc.sheet_fit(puzzle, title, None, letters)) * 25.4 / 72


def book_orientation(fits: Sequence[tuple[float, float]]) -> bool:
    """Whether a book's pages are landscape, from each sheet's cell size in
    points portrait and landscape (:meth:`_Document.sheet_fit`): the
    orientation more sheets print larger in (sheets as large either way, a
    small puzzle's, have no say; portrait on a tie), so that a reader never
    turns the book between pages."""
    return sum(wide > tall for tall, wide in fits) > sum(tall > wide for tall, wide in fits)


def _close_fonts(pdf) -> None:
    """Close the font files of an fpdf2 document that will not be output.

    fpdf2 reads a font file lazily, keeping it open, and closes it once it
    has written the font into the PDF; a document given up on (a damaged
    font) would otherwise keep it open until some later garbage collection.
    """
    for face in pdf.fonts.values():
        close = getattr(face, "close", None)
        if close is not None:
            with contextlib.suppress(Exception):
                close()


def _cannot_embed(font: FontFile, exc: Exception) -> str:
    return f"{font.path}: fpdf2 cannot embed this font ({reason(exc)})"


class _Document:
    """One PDF under construction: pages are added by :meth:`sheet_page` and
    :meth:`answer_pages`, in one font."""

    def __init__(self, font: FontFile | None) -> None:
        from fpdf import FPDF

        from rofl.errors import OptionError

        pdf = FPDF(unit="pt", format="A4")
        pdf.core_fonts_encoding = CORE_ENCODING
        pdf.set_auto_page_break(False)
        pdf.set_margin(0)
        pdf.set_creation_date(stamp_time())  # fpdf2 always writes one
        pdf.set_creator("rofl")
        pdf.set_display_mode("fullpage")
        self.family = "helvetica"
        self.covers = sheet_covers(".pdf", font)
        self.font = font
        if font is not None:
            if Path(font.path).suffix.lower() not in FPDF_SUFFIXES:
                msg = f"{font.path}: fpdf2 embeds font files named {', '.join(FPDF_SUFFIXES)}; rename it"
                raise OptionError(msg)
            failure = None
            try:
                with quiet_fonttools():
                    pdf.add_font(EMBEDDED, fname=font.path)
            except Exception as exc:  # noqa: BLE001 - fpdf2 refuses fonts it cannot embed in many ways
                failure = _cannot_embed(font, exc)
            if failure is not None:
                _close_fonts(pdf)
                del pdf
                gc.collect()  # what fpdf2 had not registered yet: its file too
                raise OptionError(failure)
            self.family = EMBEDDED
        pdf.set_font(self.family, size=12)
        self.pdf = pdf
        self._widths: dict[str, float] = {}  # in em, whatever the size set

    def __enter__(self) -> _Document:
        return self

    def __exit__(self, *exc_info) -> None:
        # fpdf2 closes an embedded font's file once it is written; a
        # document given up on (a sheet too large, say) closes it here
        _close_fonts(self.pdf)

    def text_width(self, text: str, size: float) -> float:
        if text not in self._widths:
            self._widths[text] = self.pdf.get_string_width(text) / self.pdf.font_size_pt
        return self._widths[text] * size

    def output(self) -> bytes:
        """The PDF file (fpdf2 embeds the part of a font file the pages use here)."""
        if self.font is None:
            return bytes(self.pdf.output())
        from rofl.errors import OptionError

        try:
            with quiet_fonttools():
                return bytes(self.pdf.output())
        except Exception as exc:  # noqa: BLE001 - a damaged font fails fpdf2's subsetting in many ways
            failure = _cannot_embed(self.font, exc)
        raise OptionError(failure)

    def _layout(self, puzzle: Puzzle, title: str | None, cell: int | None, letters: bool, title_size=None):
        return sheet_layout(
            puzzle,
            cell=cell,
            title=shown(title, self.covers) if title else None,
            text_width=self.text_width,
            title_height=lambda text, size: TITLE_EM * size,
            letters=letters,
            title_size=title_size,
        )

    @staticmethod
    def _scale(layout, landscape: bool, fill: bool) -> float:
        """Points per layout pixel: as large as fits the printable area
        (turned with the page) up to :data:`MAX_CELL_MM` cells when the
        sheet fills its page, else at most the PNG's 96 dpi."""
        area_w, area_h = (72 * side for side in sorted(PAGE_INCHES, reverse=landscape))
        most = MAX_CELL_MM * 72 / 25.4 / layout.cell if fill else 72 / BASE_DPI
        return min(most, area_w / layout.width, area_h / layout.height)

    def sheet_fit(self, puzzle: Puzzle, title: str | None, cell: int | None, letters: bool) -> tuple[float, float]:
        """The cell size in points ``puzzle``'s sheet prints at, portrait and landscape."""
        layout = self._layout(puzzle, title, cell, letters)
        return tuple(self._scale(layout, turn, cell is None) * layout.cell for turn in (False, True))  # type: ignore[return-value]

    def sheet_page(
        self,
        puzzle: Puzzle,
        grid: np.ndarray | None,
        title: str | None,
        cell: int | None,
        *,
        letters: bool = False,
        landscape: bool | None = None,
    ) -> None:
        """Add a page with ``puzzle``'s sheet (filled with ``grid`` if given),
        landscape or portrait as given, else whichever prints it larger."""
        pdf = self.pdf
        fill = cell is None
        layout = self._layout(puzzle, title, cell, letters)
        if landscape is None:
            landscape = self._scale(layout, True, fill) > self._scale(layout, False, fill)
        scale = self._scale(layout, landscape, fill)
        if fill and layout.title:
            # a page-filling sheet's title is set again at TITLE_POINTS whatever
            # the scale (the pages of a book alike), cut short to the page's
            # width so that it cannot widen the sheet (and shrink it, and...)
            # (or larger than a small sheet's big clue numbers)
            points = max(TITLE_POINTS, 1.25 * layout.font_size * scale)
            area_w = 72 * sorted(PAGE_INCHES, reverse=landscape)[0]
            fitted = self._fit(shown(title or "", self.covers), points, area_w)  # whole, not as cut to fit the layout
            layout = self._layout(puzzle, fitted, cell, letters, max(1, round(points / scale)))
            scale = self._scale(layout, landscape, fill)
        w, h = layout.width, layout.height
        page_w, page_h = sorted(A4_POINTS, reverse=landscape)
        left, top = (page_w - w * scale) / 2, (page_h - h * scale) / 2

        pdf.add_page(orientation="L" if landscape else "P")
        canvas = RectPdfCanvas(pdf, self.family, scale, (left, top), self.text_width)
        draw_sheet(layout, puzzle.palette, grid, canvas)

    def answer_pages(self, items: list[tuple[Puzzle, np.ndarray, str]]) -> None:
        """Add portrait pages headed "Solutions" with the pictures of
        ``items`` (puzzle, solution, label), :data:`ANSWER_GRID` to a page,
        each as large as its place allows up to :data:`ANSWER_CELL` points a
        cell, under its label, framed by a thin line."""
        pdf = self.pdf
        page_w, page_h = A4_POINTS
        area_w, area_h = (72 * side for side in PAGE_INCHES)
        left, top = (page_w - area_w) / 2, (page_h - area_h) / 2
        columns, rows = ANSWER_GRID
        gap = 18.0
        body_top = top + ANSWER_HEADING * 2
        slot_w = (area_w - gap * (columns - 1)) / columns
        slot_h = (top + area_h - body_top - gap * (rows - 1)) / rows
        label_h = ANSWER_LABEL * 1.6
        per_page = columns * rows
        heading = shown("Solutions", self.covers)
        for at, (puzzle, grid, label) in enumerate(items):
            slot = at % per_page
            if slot == 0:
                pdf.add_page(orientation="P")
                pdf.set_font(self.family, size=ANSWER_HEADING)
                pdf.set_text_color(0, 0, 0)
                pdf.text(left, top + TITLE_EM * ANSWER_HEADING, heading)
            x = left + (slot % columns) * (slot_w + gap)
            y = body_top + (slot // columns) * (slot_h + gap)
            pdf.set_font(self.family, size=ANSWER_LABEL)
            pdf.set_text_color(0, 0, 0)
            pdf.text(x, y + TITLE_EM * ANSWER_LABEL, self._fit(shown(label, self.covers), ANSWER_LABEL, slot_w))
            c = min(ANSWER_CELL, slot_w / puzzle.width, (slot_h - label_h) / puzzle.height)
            y0 = y + label_h
            palette = puzzle.palette
            pdf.set_fill_color(*palette[0])
            pdf.rect(x, y0, puzzle.width * c, puzzle.height * c, style="F")
            for i, j, k, colour in fill_runs(grid):
                pdf.set_fill_color(*palette[colour])
                pdf.rect(x + j * c, y0 + i * c, (k - j) * c, c, style="F")
            pdf.set_draw_color(*THIN)
            pdf.set_line_width(0.5)
            pdf.rect(x, y0, puzzle.width * c, puzzle.height * c, style="D")

    def _fit(self, text: str, size: float, width: float) -> str:
        """``text``, cut short with an ellipsis when wider than ``width``
        points; a grade after a title (:func:`~rofl.render.layout.split_grade`)
        stays whole after the ellipsis when it fits alone."""
        ellipsis = "\u2026" if self.covers("\u2026") else "..."
        return cut_short(text, width, lambda shown: self.text_width(shown, size), ellipsis)
