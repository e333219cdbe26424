"""Sheets carry their puzzle: every PNG, SVG and PDF sheet rofl draws reads
back as exactly the puzzle it shows (rofl.formats.sheets, spec section 10)."""

from __future__ import annotations

import base64
import io
import re
import zlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from rofl.errors import FormatError
from rofl.formats import find_format, open_puzzle, read_puzzle, sheets
from rofl.formats import rofl as codec
from rofl.puzzle import Palette, Puzzle
from rofl.render.pdf import puzzle_book
from rofl.render.sheet import sheet_bytes
from rofl.secret import hide
from tests.clirun import one_error_line, run, usage_error_line
from tests.mangle import edits, mangle
from tests.places import REPO

KINDS = [".png", ".svg", ".pdf"]
PALETTE = Palette(["#ffffff", "#000000", "#c80000", "#0040ff"])
PLUS = np.array([[0, 1, 0], [1, 1, 1], [0, 1, 0]], dtype=np.uint8)


def puzzle_of(grid, **meta) -> Puzzle:
    k = max(2, int(grid.max()) + 1)
    return Puzzle.from_grid(grid, Palette(PALETTE.colors[:k]), meta=meta)


def same(a: Puzzle, b: Puzzle) -> bool:
    return a.rows == b.rows and a.cols == b.cols and a.palette == b.palette and dict(a.meta) == dict(b.meta)


grids = st.integers(1, 3).flatmap(
    lambda k: st.tuples(st.integers(1, 9), st.integers(1, 9)).flatmap(
        lambda shape: st.lists(st.integers(0, k), min_size=shape[0] * shape[1], max_size=shape[0] * shape[1]).map(
            lambda cells: np.array(cells, dtype=np.uint8).reshape(shape)
        )
    )
)


@pytest.mark.parametrize("suffix", KINDS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(grid=grids, title=st.text(max_size=12))
def test_a_sheet_reads_back_as_its_puzzle(suffix, grid, title):
    puzzle = puzzle_of(grid, title=title) if title else puzzle_of(grid)
    data = sheet_bytes(puzzle, suffix)
    assert find_format(data, f"x{suffix}").name == sheets.NAMES[suffix[1:]]
    opened = open_puzzle(data, name="any.name")
    back, solution = opened.puzzle, opened.solution  # found by its content
    assert solution is None
    expected = codec.loads(codec.write_bytes(puzzle))  # what ROFL keeps of the metadata
    assert same(back, expected)


@pytest.mark.parametrize("suffix", KINDS)
def test_a_solution_sheet_carries_the_pictures_crc(suffix):

    puzzle = puzzle_of(PLUS)
    for shown, crc in ((None, None), (PLUS, codec.picture_crc(PLUS))):
        data = sheet_bytes(puzzle, suffix, solution=shown)
        info = codec.parse(sheets.extract(data, where="s"))
        assert info.crc32 == crc and same(info.puzzle, puzzle)


def test_each_kind_keeps_the_rofl_file_where_the_spec_says():
    puzzle = puzzle_of(PLUS, title="plus")
    rofl_file = codec.write_bytes(puzzle)
    png = sheet_bytes(puzzle, ".png")
    with Image.open(io.BytesIO(png)) as image:
        assert (b"roFl", rofl_file) in image.private_chunks
    assert png.index(b"roFl") < png.index(b"IDAT")
    svg = sheet_bytes(puzzle, ".svg").decode()
    found = re.search(r'<rofl:puzzle xmlns:rofl="urn:x-rofl:puzzle" encoding="base64">(.*?)</rofl:puzzle>', svg, re.S)
    assert found and base64.b64decode(re.sub(r"\s", "", found.group(1))) == rofl_file
    assert "<metadata>" in svg
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(sheet_bytes(puzzle, ".pdf")))
    assert dict(reader.attachments) == {"puzzle.rofl": [rofl_file]}
    (embedded,) = reader.attachment_list
    assert "application/x-rofl" in str(embedded.subtype)


def test_the_spec_example_is_the_plus_sign():
    spec = (REPO / "spec" / "ROFL.md").read_text(encoding="utf-8")
    snippet = re.search(r"```xml\n\s*(<metadata>.*?</metadata>)\n\s*```", spec, re.S).group(1)
    svg = f'<svg xmlns="http://www.w3.org/2000/svg">{snippet}</svg>'.encode()
    back = sheets.read_file(svg, where="spec").puzzle
    assert same(back, puzzle_of(PLUS))


def test_a_book_attaches_every_puzzle_and_is_refused_as_one():
    from pypdf import PdfReader

    a, b = puzzle_of(PLUS, title="plus"), puzzle_of(np.eye(4, dtype=np.uint8))
    data = puzzle_book([a, b], answers=[PLUS, np.eye(4, dtype=np.uint8)])
    attached = dict(PdfReader(io.BytesIO(data)).attachments)
    assert sorted(attached) == ["puzzle-1.rofl", "puzzle-2.rofl"]
    first, second = (codec.parse(attached[f"puzzle-{n}.rofl"][0]) for n in (1, 2))
    assert same(first.puzzle, a) and same(second.puzzle, b)
    assert first.crc32 == codec.picture_crc(PLUS)  # the answer pages show the pictures
    with pytest.raises(FormatError, match="2 puzzles in one file"):
        sheets.read_file(data, where="book.pdf")


def test_pdf_sheets_stay_reproducible(monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    puzzle = puzzle_of(PLUS)
    assert sheet_bytes(puzzle, ".pdf") == sheet_bytes(puzzle, ".pdf")
    assert b"D:20231114221320Z" in sheet_bytes(puzzle, ".pdf")  # the attachment's date too


# ---------------------------------------------------------------- hostile


def _png(*chunks: tuple[bytes, bytes]) -> bytes:
    def chunk(cid, data):
        return len(data).to_bytes(4, "big") + cid + data + zlib.crc32(cid + data).to_bytes(4, "big")

    ihdr = chunk(b"IHDR", (1).to_bytes(4, "big") * 2 + b"\x08\x00\x00\x00\x00")
    idat = chunk(b"IDAT", zlib.compress(b"\x00\x00"))
    return sheets.PNG_SIGNATURE + ihdr + b"".join(chunk(*c) for c in chunks) + idat + chunk(b"IEND", b"")


def _pdf(*objects: bytes) -> bytes:
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)


def _catalog(names: bytes) -> bytes:
    return b"<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles " + names + b" >> >>"


PAGES = b"<< /Type /Pages /Kids [] /Count 0 >>"
ROFL_PLUS = codec.write_bytes(puzzle_of(PLUS))
B64 = base64.b64encode(ROFL_PLUS).decode()


def _svg(body: str, head: str = "") -> bytes:
    return f'{head}<svg xmlns="http://www.w3.org/2000/svg" xmlns:rofl="urn:x-rofl:puzzle">{body}</svg>'.encode()


def _bad_crc(data: bytes) -> bytes:
    at = data.index(b"roFl") + 4
    return data[:at] + bytes([data[at] ^ 1]) + data[at + 1 :]


HOSTILE = [
    ("x.png", _png(), "PNG file with no rofl puzzle"),
    ("x.png", _png((b"roFl", b"ROFL junk")), "its ROFL puzzle"),
    ("x.png", _png((b"roFl", ROFL_PLUS), (b"roFl", ROFL_PLUS)), "2 puzzles in one file"),
    ("x.png", _png((b"roFl", ROFL_PLUS))[:40], "damaged PNG"),
    ("x.png", _bad_crc(_png((b"roFl", ROFL_PLUS))), "damaged PNG"),
    ("x.png", sheets.PNG_SIGNATURE, "damaged PNG"),
    ("x.svg", _svg(""), "SVG file with no rofl puzzle"),
    ("x.svg", _svg("<rofl:puzzle>not base64!</rofl:puzzle>"), "not base64"),
    ("x.svg", _svg(f'<rofl:puzzle encoding="hex">{B64}</rofl:puzzle>'), "only base64"),
    ("x.svg", _svg(f"<rofl:puzzle>{B64}</rofl:puzzle>" * 2), "2 puzzles in one file"),
    ("x.svg", _svg(f"<rofl:puzzle>{B64[:-1]}</rofl:puzzle>"), "not base64"),
    ("x.svg", _svg(f"<rofl:puzzle>{base64.b64encode(b'ROFL').decode()}</rofl:puzzle>"), "its ROFL puzzle"),
    ("x.svg", _svg("<a>&lol;</a>", '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY lol "lol">]>'), "entities"),
    ("x.svg", _svg("<unclosed>"), "not well-formed"),
    ("x.svg", _svg("", '<?xml version="1.0" encoding="UTF-R8"?>'), "unknown encoding"),
    ("x.pdf", b"%PDF-1.4 junk", "damaged PDF"),
    ("x.pdf", _pdf(b"<< /Type /Catalog /Pages 2 0 R >>", PAGES), "PDF file with no rofl puzzle"),
    ("x.pdf", _pdf(_catalog(b"3 0 R"), PAGES, b"<< /Kids [3 0 R] >>"), "no rofl puzzle"),  # a loop
    ("x.pdf", _pdf(_catalog(b"3 0 R"), PAGES, b"<< /Kids [4 0 R] >>", b"<< /Kids [3 0 R] >>"), "no rofl puzzle"),
    ("x.pdf", _pdf(_catalog(b"<< /Kids [" * 3000 + b"]>>" * 3000), PAGES), "PDF"),
    ("x.pdf", _pdf(_catalog(b"<< /Names [(a.rofl) 3 0 R] >>"), PAGES, b"<< /EF << /F 3 0 R >> >>"), "damaged PDF"),
    (
        "x.pdf",
        _pdf(
            _catalog(b"<< /Names [(a.rofl) 3 0 R] >>"),
            PAGES,
            b"<< /Type /Filespec /F (a.rofl) /EF << /F 4 0 R >> >>",
            b"<< /Length 4 >>\nstream\nROFL\nendstream",
        ),
        "its ROFL puzzle",
    ),
]


@pytest.mark.parametrize(("name", "data", "message"), HOSTILE, ids=[f"{h[0]}-{i}" for i, h in enumerate(HOSTILE)])
def test_hostile_sheets_are_one_format_error(tmp_path, name, data, message):
    with pytest.raises(FormatError) as caught:
        open_puzzle(data, name=name)
    assert message in str(caught.value) and str(caught.value).startswith(name)
    path = tmp_path / name
    path.write_bytes(data)
    one_error_line(run("info", path), name, message)


@pytest.mark.parametrize("suffix", KINDS)
def test_every_truncation_of_a_sheet_is_its_puzzle_or_one_format_error(suffix):
    puzzle = puzzle_of(PLUS)
    data = sheet_bytes(puzzle, suffix)
    for end in range(len(data)):
        try:
            back = open_puzzle(data[:end], name=f"x{suffix}").puzzle
        except FormatError:
            continue
        assert same(back, puzzle)


def test_a_picture_is_not_a_puzzle_and_says_how_to_make_one(tmp_path):
    photo = REPO / "samples" / "coffee.jpg"
    one_error_line(run("solve", photo), "unknown puzzle format", "sheets rofl draws")
    png = tmp_path / "photo.png"
    Image.open(photo).save(png)
    one_error_line(run("solve", png), "no rofl puzzle", "rofl make")


# ---------------------------------------------------------------- commands


def test_a_hidden_text_reads_back_from_its_sheet(tmp_path):
    secret = "Tr0ub4dor&3"
    for suffix in KINDS:
        sheet = tmp_path / f"secret{suffix}"
        assert run("hide", secret, "--sheet", sheet).exit_code == 0
        shown = run("reveal", sheet)
        assert shown.exit_code == 0 and shown.output == secret + "\n", shown.output
        assert run("reveal", input=sheet.read_bytes()).output == secret + "\n"  # from standard input too


def test_commands_read_sheets(tmp_path):
    made = tmp_path / "s.rofl"
    sheet = tmp_path / "s.svg"
    assert run("make", REPO / "samples" / "horse.png", "-w", "12", "-o", made, "--sheet", sheet, "-q").exit_code == 0
    original = codec.load(made)
    info = run("info", sheet)
    assert info.exit_code == 0 and "SVG sheet carrying a" in info.output and "line logic: solved" in info.output
    assert run("convert", sheet, tmp_path / "s.non").exit_code == 0
    converted, _ = read_puzzle(tmp_path / "s.non")
    assert converted.rows == original.rows and converted.cols == original.cols
    assert run("sheet", sheet, "-o", tmp_path / "again.pdf", "--solution").exit_code == 0
    again = codec.parse(sheets.extract((tmp_path / "again.pdf").read_bytes()))
    assert same(again.puzzle, original) and again.crc32 is not None
    decoded = run("decode", tmp_path / "again.pdf", "-o", tmp_path / "picture.png")
    assert decoded.exit_code == 0, decoded.output
    assert run("solve", "--line-only", tmp_path / "again.pdf").exit_code == 0


def test_decode_will_not_replace_the_png_sheet_it_reads(tmp_path):
    sheet = tmp_path / "s.png"
    sheet.write_bytes(sheet_bytes(hide("pw")[0], ".png"))
    before = sheet.read_bytes()
    usage_error_line(run("decode", sheet), "would replace the sheet", "-o")
    assert sheet.read_bytes() == before


_SHEETS = {suffix: sheet_bytes(puzzle_of(PLUS, title="plus"), suffix) for suffix in KINDS}
_SPLICES = [b"\x00", b"\xff", b"<", b">", b"&", b"obj", b"endobj", b"stream", b"/Kids [", b"R", b"roFl", b"=", b"\n"]


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(KINDS),
    edits(_SPLICES),
)
def test_mangled_sheets_are_their_puzzle_or_one_format_error(suffix, changes):
    """Cut, splice and overwrite a sheet anywhere: it reads as a puzzle or
    as one FormatError naming the file -- never another exception."""
    data = mangle(_SHEETS[suffix], changes)
    try:
        puzzle = open_puzzle(data, name=f"x{suffix}").puzzle
    except FormatError as exc:
        assert str(exc).startswith(f"x{suffix}: ") and "\n" not in str(exc)
        return
    assert isinstance(puzzle, Puzzle)


def test_puzzle_writers_point_to_rofl_sheet_for_sheets(tmp_path):
    made = tmp_path / "s.rofl"
    made.write_bytes(ROFL_PLUS)
    for suffix in KINDS:
        usage_error_line(run("convert", made, tmp_path / f"s{suffix}"), "cannot write puzzles", "`rofl sheet`")
    usage_error_line(run("convert", made, tmp_path / "s.txt"), "cannot write puzzles")


# ---------------------------------------------------------------- issue 40: PDFs pypdf reads slowly


def objstm_pdf(pad: int = 1, *, raw_pad: int = 0, names: bytes = b"", filespec: bytes = b"") -> bytes:
    """A book of one puzzle whose catalogue, name tree and file
    specification live in an object stream (``/Type /ObjStm``, written as
    PDF 1.5 writers do), each object's offset pointing at ``pad`` spaces
    before it; ``raw_pad`` spaces before the attachment's stream object in
    the file itself, where the cross-reference points."""
    rofl = (REPO / "samples" / "rocket.rofl").read_bytes()
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R /Names 3 0 R >>",
        2: b"<< /Type /Pages /Kids [] /Count 0 >>",
        3: b"<< /EmbeddedFiles 4 0 R >>",
        4: names or b"<< /Names [(puzzle-1.rofl) 5 0 R] >>",
        5: filespec or b"<< /Type /Filespec /F (puzzle-1.rofl) /UF (puzzle-1.rofl) /EF << /F 6 0 R >> >>",
    }
    body, offsets = b"", []
    for number in sorted(objects):
        offsets.append(len(body))
        body += b" " * pad + objects[number] + b"\n"
    index = b" ".join(b"%d %d" % pair for pair in zip(sorted(objects), offsets, strict=True)) + b"\n"
    packed = zlib.compress(index + body, 9)
    out = bytearray(b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n")
    at = {7: len(out)}
    out += b"7 0 obj\n<< /Type /ObjStm /N 5 /First %d /Length %d /Filter /FlateDecode >>\nstream\n" % (
        len(index),
        len(packed),
    )
    out += packed + b"\nendstream\nendobj\n"
    at[6] = len(out)
    out += b" " * raw_pad + b"6 0 obj\n<< /Type /EmbeddedFile /Length %d >>\nstream\n" % len(rofl)
    out += rofl + b"\nendstream\nendobj\n"
    rows = [b"\x00\x00\x00\x00\x00\xff\xff"]
    rows += [b"\x02" + (7).to_bytes(4, "big") + (n - 1).to_bytes(2, "big") for n in sorted(objects)]
    rows += [b"\x01" + at[n].to_bytes(4, "big") + b"\x00\x00" for n in (6, 7)]
    rows.append(b"\x01" + len(out).to_bytes(4, "big") + b"\x00\x00")
    xref = b"".join(rows)
    start = len(out)
    out += b"8 0 obj\n<< /Type /XRef /Size 9 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n" % len(xref)
    out += xref + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % start
    return bytes(out)


def test_a_book_in_an_object_stream_reads():
    opened = open_puzzle(objstm_pdf(pad=1), name="book.pdf")
    assert opened.puzzle == read_puzzle(REPO / "samples" / "rocket.rofl")[0]


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("pdf", "message"),
    [
        # 287 kB that inflate to 70 MB of spaces took 44 s (this one 20 MB)
        (lambda: objstm_pdf(pad=4_000_000), "object streams hold more than 16777216 bytes"),
        # offsets into whitespace: pypdf skips it a byte at a time, once per object
        (lambda: objstm_pdf(pad=300_000), "starts after more than 64 bytes of whitespace"),
        (lambda: objstm_pdf(raw_pad=300_000), "object 6 starts after more than 64 bytes of whitespace"),
    ],
)
def test_pdfs_that_pypdf_would_read_for_long_are_refused(pdf, message):
    with pytest.raises(FormatError, match=message):
        open_puzzle(pdf(), name="objstm4.pdf")


@pytest.mark.parametrize(
    ("pdf", "message"),
    [
        (objstm_pdf(filespec=b"<< /Type /Filespec /F (puzzle-1.rofl) /EF 3 0 R >>"), "No /(U)F key found"),
        (objstm_pdf(filespec=b"<< /F (puzzle-1.rofl) /EF << /F 1 0 R >> >>"), "(AttributeError in pypdf)"),
        (objstm_pdf(names=b"<< /Names [null 5 0 R] >>"), "no rofl puzzle in it"),
    ],
)
def test_a_damaged_pdf_is_named_without_python_reprs(pdf, message):
    # issue 40: "No /(U)F key found in file dictionary: {'/EmbeddedFiles': IndirectObject(4, 0, 1406...)}"
    with pytest.raises(FormatError) as caught:
        open_puzzle(pdf, name="bad.pdf")
    text = str(caught.value)
    assert message in text
    assert "Object(" not in text and " at 0x" not in text and "{" not in text and "'NullObject'" not in text, text
