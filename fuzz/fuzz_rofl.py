"""Coverage-guided fuzzing of the ROFL reader (atheris / libFuzzer).

    PYTHONPATH=. python fuzz/fuzz_rofl.py fuzz/corpus spec/vectors -atheris_runs=200000

Every input goes through the whole reading path -- parse, solve, Pillow
open + load -- and may only fail with rofl's own errors (or Pillow's "not
an image").  Anything else, or an accepted file that does not survive a
write/read round trip, is a crash: libFuzzer stops and saves the input.
The seeds are the test vectors; inputs with new coverage land in the first
directory, whose files are copied to ``tests/data/rofl-hostile`` for replay
under pytest (``tests/formats/test_rofl_hostile.py``).

Version 2 (spec/ROFL.md section 13): an accepted hexagon or puzzle with
colour sets also goes through its ``.clues`` text and back, and the solve
has a budget (a search out of budget is not a crash).  The version-2
readers are fuzzed by ``fuzz_formats.py`` too (its ``fuzz.rofl`` target,
seeded with every vector).

Last run (2026-11-21): 2,000,000 executions in 484 s, 0 crashes, 249
corpus files.  The version-2 vectors (hexagons, colour sets) and 4 seeded
mutations of each were added to the replayed corpus by hand on 2026-11-25.
With version 2 through ``.clues`` (2026-11-29): 2,029,352 executions in 2
runs, one timeout (a side-960 hexagon header: issue 40's defect 7), 485
corpus files.
How to run it: docs/fuzzing.md.
"""

from __future__ import annotations

import io
import sys

import atheris

with atheris.instrument_imports(include=["rofl"]):
    import rofl  # noqa: F401  (registers the Pillow plugin)
    from rofl.decode import solve_picture
    from rofl.errors import FormatError, RoflError, UnsolvableError
    from rofl.formats import clues
    from rofl.formats import rofl as codec

from PIL import Image

# keep each input cheap: the codec's own limit (2**24 cells) is fine for a
# file, but not for 10**5 executions
codec_limit = 1 << 16
#: Seconds of solving an input may take (a search over budget is "not decoded", no crash).
BUDGET = 0.2


def one_input(data: bytes) -> None:
    try:
        parsed = codec.parse(data, where="fuzz")
    except FormatError:
        return
    puzzle = parsed.puzzle
    # an accepted file round-trips byte for byte in its own form
    again = codec.dumps(puzzle, extended=parsed.extended or None)
    if parsed.crc32 is None and not parsed.skipped:
        assert again == data, "write(read(b)) != b"
    assert codec.loads(again) == puzzle, "read(write(p)) != p"
    hexagonal = not hasattr(puzzle, "width")  # version 2: a HexPuzzle (spec/ROFL.md section 13)
    if hexagonal or puzzle.color_sets is not None:
        # version 2's shapes and colour sets have one text form that holds them all: .clues
        assert clues.loads(clues.dumps(puzzle)) == puzzle, "the .clues text of an accepted puzzle reads back different"
    if puzzle.n_cells > codec_limit:
        return
    try:
        grid = solve_picture(puzzle, crc32=parsed.crc32, budget=BUDGET)
    except (UnsolvableError, FormatError):
        grid = None
    if grid is not None:
        assert puzzle.is_solution(grid), "decoded a picture that breaks the clues"
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.load()
    except RoflError as exc:
        # Pillow refuses a hexagon from its header: no rectangular picture
        assert grid is None or (hexagonal and "hexagonal" in str(exc)), "Pillow failed where solve_picture succeeded"
        return
    assert grid is not None, "Pillow decoded a file solve_picture refused"


def main() -> None:
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
