"""Sheets that carry their puzzle: the PNG, SVG and PDF files rofl draws.

Every sheet rofl writes (``rofl sheet``, ``--sheet``, :func:`rofl.render.sheet.sheet_bytes`,
:func:`rofl.render.pdf.puzzle_book`) holds, next to the drawing, the puzzle
it shows as a ROFL file (:mod:`rofl.formats.rofl`: clues, palette, metadata,
and the CRC-32 of the picture when the sheet shows the solution).  So any
rofl command reads a sheet back as that very puzzle, exactly: ``rofl solve
sheet.png``, ``rofl reveal secret.pdf``, ``rofl convert sheet.svg out.non``.
Nothing is read from the drawing itself.

Where the ROFL file goes (``spec/ROFL.md``, "ROFL inside other files")
    PNG
        A private ancillary chunk of type ``roFl`` (safe to copy) before the
        image data, holding the ROFL file's bytes.
    SVG
        ``<metadata><rofl:puzzle xmlns:rofl="urn:x-rofl:puzzle"
        encoding="base64">...</rofl:puzzle></metadata>``: the ROFL file in
        base64 (RFC 4648; white space inside is ignored).
    PDF
        An attached file (an embedded file in the document's
        ``/EmbeddedFiles`` name tree) whose name ends in ``.rofl``, MIME type
        ``application/x-rofl``; PDF viewers list it with the attachments.  A
        puzzle book attaches one per puzzle (``puzzle-1.rofl``...).

Reading
    A file is a sheet by its signature (PNG, ``%PDF-``) or its root element
    (``<svg>``).  A puzzle book's puzzle ``N`` is its attachment
    ``puzzle-N.rofl`` (``number=N``; ``book.pdf#N`` on the command line).
    A sheet with no puzzle in it (a picture, or a sheet some other program
    drew), a book read without a number, or a damaged puzzle is one
    :class:`~rofl.errors.FormatError`.  PNG is read with
    Pillow (chunk CRCs checked), SVG with defusedxml, PDF with pypdf.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import functools
import io
import re
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

from rofl.errors import FormatError, LimitError, RoflError, shown
from rofl.formats._format import Format, sign_of
from rofl.formats._text import parse_xml, pick_numbered

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from rofl.formats.rofl import RoflFile
    from rofl.puzzle import Puzzle

#: What each kind of sheet is called in reports (``rofl info``).
NAMES = {"png": "PNG sheet", "svg": "SVG sheet", "pdf": "PDF sheet"}
#: The first bytes of a PNG and of a PDF file (their signs' ``magic``).
PNG_SIGNATURE = sign_of(NAMES["png"]).magic
PDF_SIGNATURE = sign_of(NAMES["pdf"]).magic
#: The PNG chunk type: ancillary, private, safe to copy.
PNG_CHUNK = b"roFl"
SVG_NAMESPACE = "urn:x-rofl:puzzle"
MIME_TYPE = "application/x-rofl"

#: How far into a file its SVG root element is looked for.
_SVG_PROLOGUE_BYTES = 4096
# the root element's name: ``<svg`` or ``<prefix:svg``, then a space, ``/`` or ``>``
_SVG_NAME = re.compile(rb"<(?:[\w.-]+:)?svg[\s/>]")
_XML_SPACE = b" \t\r\n\f\v"


def kind(data: bytes) -> str | None:
    """``"png"``, ``"svg"`` or ``"pdf"`` when ``data`` is a file of that
    kind (whether or not it carries a puzzle), else None."""
    if data.startswith(PNG_SIGNATURE):
        return "png"
    if data.startswith(PDF_SIGNATURE):
        return "pdf"
    if is_svg(data):
        return "svg"
    return None


def is_svg(data: bytes) -> bool:
    """Whether ``data`` is an SVG file: its root element, within the first
    4096 bytes, after an XML declaration, processing instructions, comments
    and a DOCTYPE.

    The prologue is scanned item by item, each skipped with one ``find``: a
    regular expression of alternatives under a repetition backtracked
    exponentially over runs of comments (issue 40), so none is used.
    """
    head = data.removeprefix(b"\xef\xbb\xbf")[:_SVG_PROLOGUE_BYTES]
    pos = _skip_prologue(head)
    return pos is not None and _SVG_NAME.match(head, pos) is not None


def _skip_prologue(head: bytes) -> int | None:
    """Where the root element may start in ``head``: past white space, ``<?...?>``,
    ``<!--...-->`` and ``<!DOCTYPE ...>`` (an internal subset ``[...]`` included);
    None when one of them is not closed."""
    pos, end = 0, len(head)
    while pos < end:
        if head[pos] in _XML_SPACE:
            pos += 1
        elif head.startswith(b"<?", pos):
            pos = head.find(b"?>", pos + 2)
            if pos < 0:
                return None
            pos += 2
        elif head.startswith(b"<!--", pos):
            pos = head.find(b"-->", pos + 4)
            if pos < 0:
                return None
            pos += 3
        elif head.startswith(b"<!DOCTYPE", pos):
            pos = _skip_doctype(head, pos + len(b"<!DOCTYPE"))
            if pos is None:
                return None
        else:
            return pos
    return pos


def _skip_doctype(head: bytes, pos: int) -> int | None:
    """Past the ``>`` that closes a DOCTYPE whose name starts at ``pos``: the
    first ``>``, or after an internal subset ``[``, the first ``]`` that
    white space and ``>`` follow."""
    stop = min((i for i in (head.find(b">", pos), head.find(b"[", pos)) if i >= 0), default=-1)
    if stop < 0:
        return None
    if head[stop : stop + 1] == b">":
        return stop + 1
    pos = stop + 1
    while True:
        close = head.find(b"]", pos)
        if close < 0:
            return None
        after = close + 1
        while after < len(head) and head[after] in _XML_SPACE:
            after += 1
        if head[after : after + 1] == b">":
            return after + 1
        pos = close + 1


# ------------------------------------------------------------------ writing


def rofl_bytes(puzzle: Puzzle, solution: np.ndarray | None = None) -> bytes:
    """The ROFL file a sheet carries: ``puzzle`` with its metadata and, when
    the sheet shows ``solution``, that picture's CRC-32."""
    from rofl.formats import rofl

    return rofl.write_bytes(puzzle, solution)


def png_info(puzzle: Puzzle, solution: np.ndarray | None = None):
    """A :class:`PIL.PngImagePlugin.PngInfo` holding the ``roFl`` chunk (pass it as ``pnginfo``)."""
    from PIL.PngImagePlugin import PngInfo

    info = PngInfo()
    info.add(PNG_CHUNK, rofl_bytes(puzzle, solution))
    return info


def svg_metadata(puzzle: Puzzle, solution: np.ndarray | None = None) -> str:
    """The ``<metadata>`` element of an SVG sheet, base64 in lines of 76 characters."""
    text = base64.encodebytes(rofl_bytes(puzzle, solution)).decode("ascii").strip()
    return f'<metadata><rofl:puzzle xmlns:rofl="{SVG_NAMESPACE}" encoding="base64">\n{text}\n</rofl:puzzle></metadata>'


def attach(pdf, puzzle: Puzzle, solution: np.ndarray | None, name: str, description: str | None) -> None:
    """Attach ``puzzle`` to the fpdf2 document ``pdf`` as the file ``name``."""
    from rofl._io import stamp_time

    pdf.embed_file(
        bytes=rofl_bytes(puzzle, solution),
        basename=name,
        modification_date=stamp_time(),
        mime_type=MIME_TYPE,
        desc=description or "the puzzle of this sheet, as a ROFL file",
    )


# ------------------------------------------------------------------ reading


def extract(data: bytes, *, where: str = "<sheet>", number: int | None = None) -> bytes:
    """The ROFL file that the sheet ``data`` carries: puzzle ``number`` of a
    PDF book (its attachment ``puzzle-<number>.rofl``), or the only one.

    Raises
    ------
    FormatError
        Not a PNG, SVG or PDF file, a damaged one, one with no puzzle, no
        puzzle ``number``, or several puzzles and no ``number``.
    """
    found = kind(data)
    if found == "png":
        puzzles = dict(enumerate(_png_puzzles(data, where), 1))
    elif found == "svg":
        puzzles = dict(enumerate(_svg_puzzles(data, where), 1))
    elif found == "pdf":
        puzzles = _pdf_puzzles(data, where)  # number -> a loader: only the one asked for is decompressed
    else:
        msg = f"{where}: not a PNG, SVG or PDF sheet"
        raise FormatError(msg)
    article = "an" if found == "svg" else "a"
    if not puzzles:
        msg = (
            f"{where}: {article} {found.upper()} file with no rofl puzzle in it "
            "(only the sheets rofl draws carry one; `rofl make` turns a picture into a puzzle)"
        )
        raise FormatError(msg)
    what = "a puzzle book" if found == "pdf" else f"{article} {found.upper()} file"
    chosen = pick_numbered(puzzles, number, where, what=what)
    return chosen(where) if callable(chosen) else chosen


def read_file(data: bytes, *, where: str = "<sheet>", number: int | None = None) -> RoflFile:
    """The :mod:`rofl.formats` reader: the ROFL file the sheet carries
    (puzzle ``number`` of a PDF book), parsed."""
    from rofl.formats import rofl

    return rofl.parse(extract(data, where=where, number=number), where=f"{where}: its ROFL puzzle")


def _png_puzzles(data: bytes, where: str) -> list[bytes]:
    # Pillow's PNG reader itself rather than Image.open, which hides why a
    # file is refused: only the chunks before the image data are read (CRCs
    # checked), never the pixels
    from PIL.PngImagePlugin import PngImageFile

    try:
        with PngImageFile(io.BytesIO(data)) as image:
            chunks = list(image.private_chunks)
    except Exception as exc:  # noqa: BLE001 - Pillow reports damaged PNG files in many ways
        msg = f"{where}: damaged PNG: {exc or type(exc).__name__}"
        raise FormatError(msg) from None
    return [chunk[1] for chunk in chunks if chunk[0] == PNG_CHUNK]


def _svg_puzzles(data: bytes, where: str) -> list[bytes]:
    root = parse_xml(data, where)
    out = []
    for element in root.iter(f"{{{SVG_NAMESPACE}}}puzzle"):
        encoding = element.get("encoding", "base64")
        if encoding != "base64":
            msg = f"{where}: <rofl:puzzle encoding={encoding!r}>: only base64 is defined"
            raise FormatError(msg)
        text = re.sub(r"\s+", "", "".join(element.itertext()))
        try:
            out.append(base64.b64decode(text, validate=True))
        except (binascii.Error, ValueError) as exc:
            msg = f"{where}: <rofl:puzzle> is not base64 ({exc})"
            raise FormatError(msg) from None
    return out


def _pdf_puzzles(data: bytes, where: str) -> dict[int, Callable[[str], bytes]]:
    """Number -> loader of every ``.rofl`` attachment: ``puzzle-N.rofl``
    is number ``N``, others (``puzzle.rofl``...) take the next free numbers
    in name order.

    Only the names are read here: a loader decompresses its attachment
    when called, so that opening ``book.pdf#1`` of a book of 40 large
    attachments decompresses one (issue 31: all of them took 2.6 GB).
    """
    from pypdf import PdfReader

    try:
        with _quiet_pypdf():
            reader = PdfReader(io.BytesIO(data))
            _check_pdf_offsets(reader, data, where)
            entries = sorted(
                (
                    entry
                    for entry in reader.attachment_list
                    if isinstance(entry.name, str) and entry.name.lower().endswith(".rofl")
                ),
                key=lambda entry: entry.name,
            )
    except RoflError:
        raise
    except Exception as exc:  # noqa: BLE001 - pypdf reports damaged PDF files in many ways
        msg = f"{where}: damaged PDF: {_pypdf_message(exc)}"
        raise FormatError(msg) from None
    numbered: dict[int, Callable[[str], bytes]] = {}
    others = []
    for entry in entries:
        found = _BOOK_NAME.fullmatch(entry.name.lower())
        if found and int(found.group(1)) not in numbered:
            numbered[int(found.group(1))] = functools.partial(_attachment, entry)
        else:
            others.append(functools.partial(_attachment, entry))
    free = (n for n in range(1, len(entries) + 2) if n not in numbered)
    for load in others:
        numbered[next(free)] = load
    return dict(sorted(numbered.items()))


# what PDF counts as whitespace (ISO 32000-1, 7.2.2), which pypdf skips a byte at a time
_PDF_WHITESPACE = b"\x00\t\n\x0c\r "


def _check_pdf_offsets(reader, data: bytes, where: str) -> None:
    """Refuse, before pypdf parses them, the objects it would read in
    quadratic time: offsets that point into long runs of whitespace (in the
    file or in an object stream), and object streams of more than
    :data:`~rofl.formats._limits.MAX_OBJECT_STREAM_BYTES`.

    Raises
    ------
    FormatError, LimitError
    """
    from rofl.formats._limits import MAX_OBJECT_STREAM_BYTES

    for generation in reader.xref.values():
        for number, offset in generation.items():
            if isinstance(offset, int):
                _check_offset(data, offset, where, f"object {number}")
    total = 0
    for number in sorted({stream for stream, _ in reader.xref_objStm.values()}):
        stream = reader.get_object(number)
        content = stream.get_data()
        total += len(content)
        if total > MAX_OBJECT_STREAM_BYTES:
            msg = f"{where}: the PDF's object streams hold more than {MAX_OBJECT_STREAM_BYTES} bytes"
            raise LimitError(msg)
        first = stream.get("/First")
        if not isinstance(first, int) or not 0 <= first <= len(content):
            continue  # pypdf refuses or ignores such a stream itself
        index = content[:first].split()
        for offset in index[1::2]:
            if offset.isdigit():
                _check_offset(content, first + int(offset), where, f"an object of object stream {number}")


def _check_offset(content: bytes, at: int, where: str, what: str) -> None:
    from rofl.formats._limits import MAX_PDF_WHITESPACE

    ahead = content[at : at + MAX_PDF_WHITESPACE + 1]
    if len(ahead) > MAX_PDF_WHITESPACE and not ahead.strip(_PDF_WHITESPACE):
        msg = f"{where}: damaged PDF: {what} starts after more than {MAX_PDF_WHITESPACE} bytes of whitespace"
        raise FormatError(msg)


def _pypdf_message(exc: Exception) -> str:
    """What went wrong in pypdf, in one line without a Python repr: pypdf's
    own errors up to the first object they print (``IndirectObject(4, 0,
    140640311987472)`` names an address, ``{...}`` a whole dictionary), and
    for a Python error inside pypdf (``'NullObject' object has no attribute
    'lower'``) only its kind."""
    from pypdf.errors import PyPdfError

    text = " ".join(str(exc).split())
    if isinstance(exc, PyPdfError) and text:
        text = _PDF_REPR.split(text, maxsplit=1)[0].rstrip(" :,")
        if text:
            return text[:200]
    return f"its structure is not what PDF defines ({type(exc).__name__} in pypdf)"


# where a pypdf message starts printing an object
_PDF_REPR = re.compile(r"[{\[<]|\b[A-Za-z]+Object\(| at 0x")


def _attachment(entry, where: str) -> bytes:
    """The content of one embedded file, decompressed under pypdf's own output
    caps (75 MB a stream) and refused beyond :data:`~rofl.formats._limits.MAX_ATTACHMENT_BYTES`."""
    from rofl.formats._limits import MAX_ATTACHMENT_BYTES

    try:
        with _quiet_pypdf():
            content = entry.content
    except Exception as exc:  # noqa: BLE001 - as above
        msg = f"{where}: damaged PDF attachment {shown(entry.name)}: {_pypdf_message(exc)}"
        raise FormatError(msg) from None
    if len(content) > MAX_ATTACHMENT_BYTES:
        name, size = shown(entry.name), len(content)
        msg = f"{where}: attachment {name} is {size} bytes; rofl reads at most {MAX_ATTACHMENT_BYTES}"
        raise LimitError(msg)
    return content


_BOOK_NAME = re.compile(r"puzzle-([1-9][0-9]{0,8})\.rofl")


@contextlib.contextmanager
def _quiet_pypdf():
    """pypdf logs what it repairs and warns about oddities: rofl reports one error or nothing;
    and it runs no program."""
    import logging  # here: every file without a magic number is sniffed for SVG

    from pypdf import apply_configuration

    logger = logging.getLogger("pypdf")  # its modules log under it, at its level unless they set their own
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        # no other program is run on a file (pypdf would run jbig2dec on a JBIG2 stream)
        with warnings.catch_warnings(), apply_configuration(jbig2dec_binary=None):
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


# ------------------------------------------------------------------ declaration

#: The three kinds of sheet (read only: the renderer draws them).
FORMATS = tuple(Format(name, read_file, many=True, colour=True, carries_rofl=True) for name in NAMES.values())
