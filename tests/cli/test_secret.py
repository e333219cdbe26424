"""``rofl hide`` / ``rofl reveal`` end to end, and the puzzle sheet."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from rofl.formats import notmine, read_puzzle
from rofl.formats import rofl as codec
from rofl.puzzle import Palette, Puzzle
from rofl.render.pdf import PENCIL_CELL_MM
from rofl.render.sheet import puzzle_sheet
from rofl.secret import hide as hide_text
from rofl.secret import read_text, wrap
from tests.clirun import one_error_line, run, usage_error_line
from tests.pdfread import check_pdf_sheet

SECRET = 'P@ss w0rd "quoted" \\ back~'


def test_hide_writes_puzzle_sheet_and_cipher(tmp_path):
    out, sheet = tmp_path / "s.json", tmp_path / "s.png"
    result = run("hide", SECRET, "-o", str(out), "--sheet", str(sheet), "--cipher")
    assert result.exit_code == 0, result.output
    cipher = result.stdout.strip()  # stderr says what was written
    assert cipher.startswith("NotMine{ ") and result.stdout.count("\n") == 1
    puzzle, solution = read_puzzle(out)
    assert read_text(solution) == SECRET
    with Image.open(sheet) as image:
        assert image.format == "PNG" and image.size[0] > puzzle.width * 10
    for source in (str(out), cipher):
        shown = run("reveal", source)
        assert shown.exit_code == 0
        assert shown.output == SECRET + "\n"
    shown = run("reveal", input=cipher + "\n")
    assert shown.output == SECRET + "\n"
    shown = run("reveal", "-", input=cipher)
    assert shown.output == SECRET + "\n"


def test_hide_reads_stdin_without_its_trailing_newline(tmp_path):
    for given, secret in [("pw\n", "pw"), ("pw\r\n", "pw"), ("pw", "pw"), (" pw \n", " pw ")]:
        out = tmp_path / "p.notmine"
        result = run("hide", "-o", str(out), input=given)
        assert result.exit_code == 0, result.output
        assert run("reveal", str(out)).output == secret + "\n"


@pytest.mark.parametrize("suffix", [".rofl", ".json", ".xml", ".non"])
def test_reveal_reads_any_recognisable_puzzle_from_stdin(tmp_path, suffix):
    out = tmp_path / f"p{suffix}"
    assert run("hide", "Tr0ub4dor&3", "-o", str(out)).exit_code == 0
    shown = run("reveal", input=out.read_bytes())
    if suffix == ".non":  # no signature: only a file name says what it is
        assert shown.exit_code == 1 and "not a puzzle" in shown.output
    else:
        assert shown.output == "Tr0ub4dor&3\n"
        assert run("reveal", str(out)).output == "Tr0ub4dor&3\n"


@pytest.mark.parametrize(
    ("args", "input", "message"),
    [
        (["hide", "héllo"], None, "character 2 of the secret ('é', U+00E9) cannot be hidden"),
        (["hide"], "two\r\nlines\n", "character 4 of the secret ('\\r', U+000D)"),
        (["hide"], "\n", "the secret is empty"),
    ],
)
def test_bad_secrets_write_nothing(tmp_path, args, input, message):
    out, sheet = tmp_path / "s.json", tmp_path / "s.png"
    result = run(*args, "-o", str(out), "--sheet", str(sheet), "--cipher", input=input)
    usage_error_line(result, message)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["hide", "x"], "nothing to write"),
        (["hide", "x", "-o", "s.bmp", "--sheet", "s.png"], "cannot write puzzles with extension '.bmp'"),
        (["hide", "x", "--sheet", "s.jpg", "-o", "s.json"], "a sheet is written as .png, .pdf or .svg"),
    ],
)
def test_bad_options_write_nothing(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    usage_error_line(run(*args), message)
    assert list(tmp_path.iterdir()) == []


def test_reveal_refuses_what_hides_nothing(tmp_path):
    line = one_error_line(run("reveal", "NotMine{ 2, 8, NONOGRAM }"))
    assert line.startswith("Error: a 8x2 picture is not a rofl hidden text")
    one_error_line(run("reveal", "NotMine{ 2, 8, NONO\x01GRAM }"), "content character 5")
    line = one_error_line(run("reveal", input="hello"))
    assert line.startswith("Error: standard input: not a puzzle (neither a NotMine cipher nor a ROFL")
    one_error_line(run("reveal", str(tmp_path / "missing.rofl")), "missing.rofl")


def test_sheet_pdf(tmp_path):
    sheet = tmp_path / "s.pdf"
    result = run("hide", "pdf", "--sheet", sheet)
    assert result.exit_code == 0, result.output
    data = sheet.read_bytes()
    puzzle = hide_text("pdf")[0]
    # one page with the title and the puzzle's clues, no cell filled in
    page = check_pdf_sheet(data, puzzle, None)
    assert "Solve me" in [t["text"] for t in page["texts"]]
    # the puzzle travels inside as puzzle.rofl, so reveal reads the sheet back
    attached = dict(page["reader"].attachments)
    assert list(attached) == ["puzzle.rofl"]
    back = codec.parse(attached["puzzle.rofl"][0]).puzzle
    assert (back.rows, back.cols, back.palette) == (puzzle.rows, puzzle.cols, puzzle.palette)
    assert run("reveal", sheet).output == "pdf\n"


def cell_mm(sheet, puzzle) -> float:
    from tests.pdfread import pdf_grid, read_pdf

    return pdf_grid(read_pdf(sheet.read_bytes()), puzzle)[2] * 25.4 / 72


@pytest.mark.parametrize(
    ("text", "lines", "least_mm"),
    [
        ("P@ss w0rd", ["P@ss ", "w0rd"], PENCIL_CELL_MM),  # wrapped after the word: 4.3 mm
        ("Hi", ["Hi"], PENCIL_CELL_MM),
        # 4 mm is out of reach (even 4 characters a line print 3.5 mm, not the 1.77 mm of one line)
        ("correct horse", ["corr", "ect ", "hors", "e"], 3.5),
    ],
)
def test_hide_wraps_the_text_to_fill_the_page(tmp_path, text, lines, least_mm):
    sheet, out = tmp_path / "s.pdf", tmp_path / "s.rofl"
    assert run("hide", text, "--sheet", sheet, "-o", out).exit_code == 0
    puzzle, _ = read_puzzle(out)  # the solution is not stored: it is the secret
    assert wrap(text, max(map(len, lines))) == lines
    wrapped = hide_text(text, max(map(len, lines)))[0]
    assert (puzzle.rows, puzzle.cols) == (wrapped.rows, wrapped.cols)
    assert cell_mm(sheet, puzzle) >= least_mm
    assert run("reveal", sheet).output == text + "\n"


def test_bad_width_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for width in ("0", "two"):
        usage_error_line(run("hide", "x", "-o", "s.json", "--width", width), "Invalid value for '--width'")
    usage_error_line(run("hide", "x", "-o", "s.json", "--width", "1025"), "width of a hidden text", "1 to 1024")
    assert list(tmp_path.iterdir()) == []


def test_hide_width_option_and_newlines(tmp_path):
    sheet, out = tmp_path / "s.pdf", tmp_path / "s.rofl"
    assert run("hide", "correct horse", "--width", "16", "--sheet", sheet, "-o", out).exit_code == 0
    puzzle, _ = read_puzzle(out)
    assert (puzzle.width, puzzle.height) == (119, 15)  # one line, as before wrapping
    assert 1.7 < cell_mm(sheet, puzzle) < 1.8
    # newlines from standard input stay, each in a box of its own at the end of its line
    assert run("hide", "-o", out, "--width", "8", input="two\nlines\n\n").exit_code == 0
    assert run("reveal", out).output == "two\nlines\n\n"  # the secret "two\nlines\n", then reveal's newline
    assert read_puzzle(out)[0].height == 2 * 13 + 2  # "two⏎", "lines⏎"


def test_rofl_file_round_trip(tmp_path):
    out = tmp_path / "secret.rofl"
    assert run("hide", SECRET, "-o", str(out)).exit_code == 0
    assert run("reveal", str(out)).output == SECRET + "\n"
    assert run("reveal", input=out.read_bytes()).output == SECRET + "\n"


def test_cipher_is_the_picture():
    puzzle, grid = hide_text("ab")
    cipher = run("hide", "ab", "--cipher").output
    field = notmine.loads(cipher)
    np.testing.assert_array_equal(field.picture, grid.astype(bool))


# ------------------------------------------------------------------ sheet


def dark(image: Image.Image, box) -> int:
    return int((np.asarray(image.crop(box).convert("L")) < 128).sum())


def test_sheet_layout_and_clues():
    grid = np.array([[1, 1, 0, 1], [0, 0, 0, 0], [1, 1, 1, 1]], dtype=np.uint8)
    puzzle = Puzzle.from_grid(grid, Palette.black_white())
    image = puzzle_sheet(puzzle, cell=20, title="Test")
    assert image.mode == "RGB"
    width, height = image.size
    assert width > 4 * 20 and height > 3 * 20
    # the grid sits in the bottom right corner, one cell from the edges; its cells are empty
    x1, y1 = width - 20, height - 20
    x0, y0 = x1 - 4 * 20, y1 - 3 * 20
    assert dark(image, (x0 + 3, y0 + 3, x0 + 17, y0 + 17)) == 0
    # row 1 has clue "2 1": two numbers left of the grid; row 2 is empty: a single 0, less ink
    assert dark(image, (20, y0 + 2, x0 - 2, y0 + 18)) > dark(image, (20, y0 + 22, x0 - 2, y0 + 38)) > 0
    # column 3 has clue "1": ink above it
    assert dark(image, (x0 + 42, 20, x0 + 58, y0 - 2)) > 0


def test_sheet_colours_and_sizes():
    palette = Palette(["#ffffff", "#000000", "#ff0000", "#ffff00"])
    puzzle = Puzzle.from_grid(np.array([[1, 2, 3], [3, 0, 2]]), palette)
    image = puzzle_sheet(puzzle)
    pixels = np.asarray(image).reshape(-1, 3)
    assert ((pixels[:, 0] > 200) & (pixels[:, 1] < 80) & (pixels[:, 2] < 80)).any()  # red numbers
    empty = Puzzle.from_grid(np.zeros((2, 2), dtype=np.uint8))
    assert puzzle_sheet(empty).size[0] > 0
    from rofl.errors import OptionError

    with pytest.raises(OptionError, match="too small"):
        puzzle_sheet(empty, cell=3)
    big = Puzzle.from_grid(np.zeros((1, 2000), dtype=np.uint8))
    with pytest.raises(OptionError, match="too large"):
        puzzle_sheet(big, cell=20)


def test_hide_says_what_it_wrote_on_stderr(tmp_path):
    # issue 41: `hide -o ... --sheet ...` printed nothing; standard output stays the cipher's alone
    puzzle, sheet = tmp_path / "s.rofl", tmp_path / "s.png"
    result = run("hide", "hi", "-o", puzzle, "--sheet", sheet)
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert result.stderr.startswith(f"wrote {puzzle}, {sheet} (")
    assert "hi" not in result.stderr.replace(str(tmp_path), "")  # the secret is not said
    ciphered = run("hide", "hi", "--cipher", "-o", tmp_path / "t.rofl")
    assert ciphered.stderr.startswith("wrote ") and "wrote" not in ciphered.stdout
