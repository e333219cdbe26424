"""What every puzzle file reader must survive: the check that the fuzzer
(``fuzz/fuzz_formats.py``) runs on each input and that
``tests/formats/test_hostile_formats.py`` replays on the saved corpus.

An input is one selector byte (which target reads it, :data:`TARGETS`) and
the file's bytes.  Reading, solving briefly, writing back in the same format
and printing the metadata may fail only with rofl's own errors.
"""

from __future__ import annotations

#: (name a file is opened under, how) -- the extension picks the format
#: when the bytes have no signature; "cipher" is a NotMine cipher given to
#: ``rofl reveal``.
TARGETS = (
    ("fuzz.json", "open"),
    ("fuzz.notmine", "open"),
    ("fuzz.xml", "open"),
    ("fuzz.non", "open"),
    ("fuzz.nin", "open"),
    ("fuzz.g", "open"),
    ("fuzz.mk", "open"),
    ("fuzz.cwd", "open"),
    ("fuzz.sav", "open"),
    ("fuzz.gno", "open"),
    ("fuzz.txt", "open"),  # a TAAI tournament file (sniffed)
    ("fuzz.png", "open"),  # a PNG sheet's rofl chunk
    ("fuzz.svg", "open"),  # an SVG sheet's metadata
    ("fuzz.pdf", "open"),  # a PDF book's attachments
    ("cipher", "reveal"),
    # added later: corpus files keep their target (their selector byte is below 15)
    ("fuzz.pzl", "open"),  # Izaron's nonograms_solver
    ("fuzz.clues", "open"),  # rofl's clue text: hexagons, '?' groups
    # added for issue 40: ROFL itself (version 2: hexagons, colour sets), the
    # sniffing of sheets (is it an SVG?) and a batch's summary read back to resume
    ("fuzz.rofl", "open"),
    ("sniff", "sniff"),
    ("summary.json", "summary"),
    ("summary.csv", "summary"),
)

#: Puzzles larger than this are read but not solved (keeps each input cheap).
SOLVE_CELLS = 1 << 12


def check(data: bytes) -> None:
    """Run ``data`` (selector byte + file) through its target; raise only RoflError."""
    import numpy as np

    from rofl.cli._show import printable
    from rofl.decode import solve_picture
    from rofl.errors import FormatError, RoflError
    from rofl.formats import open_puzzle

    if not data:
        return
    name, how = TARGETS[data[0] % len(TARGETS)]
    body = data[1:]
    if how == "sniff":
        from rofl.formats import sheets

        assert sheets.kind(body) in (None, "png", "svg", "pdf")
        return
    if how == "summary":
        _check_summary(body, name)
        return
    if how == "reveal":
        from rofl.formats import notmine
        from rofl.secret import reveal

        try:
            text = body.decode("ascii")
        except UnicodeDecodeError:
            return
        try:
            reveal(notmine.read_bytes(text, where="cipher")[0])
        except RoflError:
            pass
        return
    if name == "fuzz.txt":  # a tournament's run: every puzzle, each built when it is reached
        _check_tournament(body)
    try:
        opened = open_puzzle(body, name=name, number=1 if name.endswith((".pdf", ".txt")) else None)
    except RoflError:
        return
    puzzle = opened.puzzle
    for key, value in opened.metadata.items():
        printable(f"{key}: {value}").encode("utf-8")  # never a surrogate
    if opened.solution is not None:
        assert puzzle.is_solution(np.asarray(opened.solution)), "a stored solution that breaks the clues"
    if opened.format.write is not None:
        try:
            again = opened.format.write(puzzle, opened.solution)
        except RoflError:
            again = None
        if again is not None:
            try:
                back = open_puzzle(again, name=name).puzzle
            except FormatError as exc:
                msg = f"the writer's own output is refused: {exc}"
                raise AssertionError(msg) from None
            assert back.n_colors == puzzle.n_colors, "the written puzzle reads back different"
    cells = puzzle.n_cells if not hasattr(puzzle, "width") else puzzle.width * puzzle.height  # a hexagon
    if cells <= SOLVE_CELLS:
        try:
            grid = solve_picture(puzzle, crc32=opened.crc32, budget=0.05)
        except RoflError:
            return
        assert puzzle.is_solution(grid), "decoded a picture that breaks the clues"


def _check_tournament(body: bytes) -> None:
    """Every puzzle of a tournament file (:func:`rofl.formats.taai.iter_all`):
    only rofl's errors, whether the whole file is checked or a puzzle is built."""
    from rofl.errors import RoflError
    from rofl.formats import taai

    try:
        for _label, puzzle in taai.iter_all(body, where="fuzz.txt"):
            assert puzzle.n_colors == 2, "a tournament puzzle that is not black and white"
    except RoflError:
        pass


def _check_summary(body: bytes, name: str) -> None:
    """A batch summary read back: rows of plain values only, that write again."""
    import tempfile
    from pathlib import Path

    from rofl.batch.summary import BENCH_COLUMNS, MAKE_COLUMNS, json_text, read_rows

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(body)
        rows = read_rows(path)
    for row in rows:
        assert isinstance(row, dict), "a summary row that is not a mapping"
        for key, value in row.items():
            assert isinstance(key, str), "a summary column that is not a name"
            assert value is None or isinstance(value, (str, int, float, bool)), "a summary value that is not plain"
    json_text(rows, MAKE_COLUMNS)
    json_text(rows, BENCH_COLUMNS)
