"""Coverage-guided fuzzing of every other puzzle reader (atheris / libFuzzer).

    PYTHONPATH=. python fuzz/fuzz_formats.py --seeds fuzz/seeds-formats
    PYTHONPATH=. python fuzz/fuzz_formats.py fuzz/corpus-formats fuzz/seeds-formats \\
        -atheris_runs=1000000 -timeout=20 -rss_limit_mb=3000

Targets: the text formats (corpus JSON, NotMine, webpbn XML, .non, .nin,
.g, .mk, .cwd, .sav, .gno, TAAI, .pzl, .clues with hexagons and ``?``
groups), ROFL of both versions, the sheets (a PNG's rofl chunk, an SVG's
metadata, a PDF book's attachments), the sniffing that tells an SVG sheet
from other text, a batch's summary read back to resume (JSON and CSV) and
a NotMine cipher given to ``rofl reveal``.  How to run it: docs/fuzzing.md.  An input is a selector byte and a file
(``tests/formats/hostile.py``, which holds the check each input must pass:
only rofl's own errors, a writer's output read back, a decoded picture that
meets the clues, metadata that prints).  Anything else, a timeout or an
input over the memory limit, is a crash: libFuzzer stops and saves it;
copy it to ``tests/data/hostile/`` (named after what it shows) to replay it
under pytest (``tests/formats/test_hostile_formats.py``).

``--seeds DIR`` writes the seeds (generated, not kept in git): the sample files of ``tests/data/formats``,
``samples/``, sheets and a book rofl draws, and a cipher, each behind its
selector byte.

Without atheris, ``--plain N`` runs N inputs of a simple mutation fuzzer
(byte flips, inserts, deletions, splices and repeats of the seeds), in one
process.

Last run (2026-11-25): 2,468,382 executions in 901 s, 0 crashes, 661
corpus inputs (docs/benchmarks.md, "Fuzzing the readers").  With issue
40's targets (2026-11-29): 3,084,233 executions in 3 runs, one crash (a
summary row with extra CSV fields, fixed), 773 corpus inputs.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))


def make_seeds(directory: Path) -> int:
    """Write the seed files into ``directory``; return how many."""
    import numpy as np

    from rofl.formats import notmine, open_puzzle, write_puzzle
    from rofl.puzzle import Palette, Puzzle
    from rofl.render.pdf import puzzle_book
    from rofl.render.sheet import sheet_bytes
    from tests.formats.hostile import TARGETS

    directory.mkdir(parents=True, exist_ok=True)
    # by extension for the readers, by name for the other targets
    selector = {name.rsplit(".", 1)[-1]: i for i, (name, how) in enumerate(TARGETS) if how == "open"}
    selector.update({name: i for i, (name, how) in enumerate(TARGETS) if how != "open"})
    files: list[tuple[int, bytes]] = []
    folders = (REPO / "tests" / "data" / "formats", REPO / "tests" / "data" / "pzl", REPO / "samples")
    for path in [p for folder in folders for p in sorted(folder.iterdir())]:
        suffix = path.suffix.lstrip(".")
        if suffix in selector:
            files.append((selector[suffix], path.read_bytes()))
    grid = np.zeros((6, 5), np.uint8)
    grid[1:5, 1:4] = 1
    grid[2, 2] = 2
    puzzle = Puzzle.from_grid(grid, Palette(["#ffffff", "#000000", "#d03030"]), meta={"title": "fuzz \u00e9"})
    for suffix in ("png", "svg"):
        files.append((selector[suffix], sheet_bytes(puzzle, f".{suffix}")))
    files.append((selector["pdf"], puzzle_book([puzzle, puzzle])))
    bw = (grid > 0).astype(np.uint8)
    small = Puzzle.from_grid(bw, Palette.black_white())
    for suffix in [name.rsplit(".", 1)[-1] for name, how in TARGETS if how == "open"]:
        if suffix not in ("png", "svg", "pdf", "txt", "json"):
            path = directory / f"tmp.{suffix}"
            try:
                write_puzzle(path, small, bw)
            except Exception:  # noqa: BLE001,S112 - a format rofl reads only
                continue
            files.append((selector[suffix], path.read_bytes()))
            path.unlink()
    field = notmine.Field.from_picture(bw.astype(bool))
    files.append((selector["cipher"], notmine.dumps(field).encode()))
    files.extend(_issue40_seeds(selector, files))
    for i, (number, data) in enumerate(files):
        (directory / f"seed-{i:03d}-{TARGETS[number][0]}").write_bytes(bytes([number]) + data)
    open_puzzle  # noqa: B018 - imported to fail early when rofl cannot read files
    return len(files)


def _issue40_seeds(selector: dict[str, int], files: list[tuple[int, bytes]]) -> list[tuple[int, bytes]]:
    """Seeds of the targets issue 40 added: ROFL files of both versions (the
    spec's vectors), their ``.clues`` text (hexagons, ``?`` groups, colour
    sets), what the sheets' sniffing sees and batch summaries."""
    import json

    from rofl.batch.summary import BENCH_COLUMNS, MAKE_COLUMNS, csv_text, json_text
    from rofl.errors import RoflError
    from rofl.formats import clues
    from rofl.formats import rofl as codec

    out = []
    for path in sorted((REPO / "spec" / "vectors").glob("*.rofl")):
        data = path.read_bytes()
        if len(data) > 20_000:
            continue
        out.append((selector["rofl"], data))
        try:
            puzzle = codec.loads(data)
        except RoflError:
            continue
        out.append((selector["clues"], clues.dumps(puzzle).encode()))
    svg = [data for number, data in files if number == selector["svg"]]
    xml = [data for number, data in files if number == selector["xml"]]
    for data in svg[:1] + xml[:1]:
        out.append((selector["sniff"], data))
        out.append((selector["sniff"], b"<?xml version='1.0'?>\n" + b"<!-- a -->" * 8 + data[data.find(b"<svg") :]))
    out.append((selector["sniff"], b"<!DOCTYPE svg [<!ENTITY a 'b'>]>\n<!---->\n<svg/>"))
    row = {"picture": "a.png", "output": "out/a.rofl", "width": 5, "status": "made", "key": "00", "ssim": 0.5}
    bench = {"file": "x.non", "format": "non", "line_solvable": True, "result": "unique", "seconds": 0.1}
    out.append((selector["summary.json"], json_text([row], MAKE_COLUMNS).encode()))
    out.append((selector["summary.json"], json_text([bench], BENCH_COLUMNS, budget=1.0).encode()))
    out.append((selector["summary.csv"], csv_text([row], MAKE_COLUMNS).encode()))
    out.append((selector["summary.csv"], csv_text([bench], BENCH_COLUMNS).encode()))
    out.append((selector["summary.json"], json.dumps({"rows": [[[[{"a": [1]}]]]]}).encode()))
    return out


# what hostile text is made of: long numbers, section starts, references, the
# line breaks the readers split on, undecodable bytes, an escaped surrogate
_TOKENS = (b"9" * 40, b"[", b"&#", b"\r", b"\f", "\u2028".encode(), b"\xff", b"\n\n\n", b"-1", b"0", b"\\ud800")


def mutate(data: bytes, seeds: list[bytes], rng: random.Random) -> bytes:
    """One input of the plain mutation fuzzer: a few random edits of ``data``."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        at = rng.randrange(len(out) + 1)
        if op == 0 and out:
            out[min(at, len(out) - 1)] ^= 1 << rng.randrange(8)
        elif op == 1:
            out[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        elif op == 2:
            del out[at : at + rng.randint(1, 16)]
        elif op == 3:
            other = rng.choice(seeds)
            start = rng.randrange(len(other) + 1)
            out[at:at] = other[start : start + rng.randint(1, 64)]
        elif op == 4 and out:
            piece = out[at : at + rng.randint(1, 8)]
            out[at:at] = piece * rng.randint(2, 64)
        elif op == 5:
            out[at:at] = rng.choice(_TOKENS)
        else:
            out = out[: rng.randint(1, max(1, len(out)))]
    return bytes(out) if out else data[:1]


def plain(runs: int, seed_dir: Path, crash_dir: Path) -> None:
    """``runs`` inputs of the plain mutation fuzzer; crashes are saved into ``crash_dir``."""
    import hashlib
    import traceback

    from tests.formats.hostile import check

    seeds = [p.read_bytes() for p in sorted(seed_dir.iterdir())]
    rng = random.Random(31)
    start, crashes = time.monotonic(), 0
    for n in range(1, runs + 1):
        data = mutate(rng.choice(seeds), seeds, rng)
        try:
            check(data)
        except Exception:  # noqa: BLE001 - a crash: saved and counted
            crashes += 1
            crash_dir.mkdir(parents=True, exist_ok=True)
            (crash_dir / f"crash-{hashlib.sha1(data).hexdigest()}").write_bytes(data)
            traceback.print_exc(limit=3)
        if n % 10000 == 0:
            print(f"{n} runs, {crashes} crashes, {time.monotonic() - start:.0f} s", flush=True)
    print(f"done: {runs} runs, {crashes} crashes, {time.monotonic() - start:.0f} s")


def main() -> None:
    if sys.argv[1:2] == ["--seeds"]:
        print(f"{make_seeds(Path(sys.argv[2]))} seeds")
        return
    if sys.argv[1:2] == ["--plain"]:
        plain(int(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]) if len(sys.argv) > 4 else Path("fuzz/crashes"))
        return
    import atheris

    with atheris.instrument_imports(include=["rofl"]):
        import rofl  # noqa: F401
        from rofl.batch import summary  # noqa: F401
        from rofl.formats import (  # noqa: F401
            _text,
            clues,
            gnonograms,
            mk,
            nin,
            non,
            notmine,
            olsak,
            open_puzzle,  # noqa: F401  (instruments the readers)
            pzl,
            sheets,
            taai,
            tatham,
            webpbn,
        )
        from rofl.formats import rofl as codec  # noqa: F401
    from tests.formats.hostile import check

    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
