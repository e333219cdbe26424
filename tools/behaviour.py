"""Record what every ``rofl`` command does, and compare two records.

This is the acceptance check of a behaviour-preserving change (issue 26):
record the code before the change, record it after, compare.  Every command
must print the same text, exit with the same status and write the same
files on the shipped samples and on the puzzle corpus.

    python tools/behaviour.py record before.json --checkout /work/main
    python tools/behaviour.py record after.json
    python tools/behaviour.py compare before.json after.json

What is run
    A fixed list of *cases*, built here from the input files only (never from
    rofl's own tables, so that the list is the same for any version of the
    code).  A case is one or more ``rofl`` command lines run one after the
    other in a fresh temporary directory that holds copies of the case's
    inputs, so that later steps read what earlier ones wrote (``convert``
    there and back, ``hide`` then ``reveal``...).  The sample cases cover
    every command and the options that change what it does, on the pictures
    and puzzles in ``samples/`` and a few small puzzles written here
    (ambiguous, unsolvable, a tournament file, garbage); error cases check
    that messages stay the same.  For each corpus puzzle (``--corpus``, in
    sorted order): ``info --budget 1``, ``solve --budget 1``, ``convert`` to
    ``.rofl``, ``convert`` to one text format, chosen in turn so that all
    writers see the corpus (the black-and-white-only ones only get
    black-and-white puzzles), and ``info --no-solve`` of the ROFL file
    written.

How it is run
    ``record`` starts one worker process (this script, ``_worker``) per batch
    (the samples, then the corpus) with ``PYTHONPATH`` set to the checkout and
    a fixed environment (``SOURCE_DATE_EPOCH``, ``PYTHONHASHSEED``, ``TZ``,
    ``COLUMNS``, a numba cache outside the checkout).  The worker imports
    ``rofl.cli.main``, the only piece of rofl it uses, and calls it for each
    step through click's ``CliRunner`` with ``prog_name="rofl"``: the same
    parsing, output and exit status as the installed command with its output
    piped, without paying rofl's start-up (about 1.5 s with numba) per step.
    Warnings are reset around each step, as a fresh process would have them.

What is recorded, and what is masked
    For each step: the command line, standard input, exit status, standard
    output and standard error, and the type and message of an exception that
    escaped the command (a traceback's line numbers would change with any
    edit, so it is not kept).  For each case: every file that is new or
    changed in its directory at the end, by name and sha256, with the text
    of small text files, the size and mode of pictures and the page count
    and text of PDFs, for a readable diff.  Masked, because they vary from
    run to run and say nothing of behaviour: timings (``0.49 s``, ``12 ms``),
    tqdm progress bars, the temporary directory and the checkout's path, and
    memory addresses.  Progress bars are removed whole: whether one shows
    depends on time (``delay=1.0``), and a bar that ``rofl make`` restarts
    with ``tqdm.reset()`` is drawn at once and never wiped (``reset`` ignores
    the delay and restarts the clock ``close`` checks), so the next message
    follows it on the same line.  PDFs need no masking: with
    ``SOURCE_DATE_EPOCH`` set rofl dates them with it, and fpdf2 derives the
    ``/ID`` from the content, so the bytes are stable (without it both the
    ``/CreationDate`` and the ``/ID`` change every second).

Time-dependent results
    A search that runs out of its time budget (wall-clock seconds) gives an
    answer that depends on the machine's speed and load.  A step that reports
    an exhausted budget (``solve`` exit status 4, or the budget messages of
    ``info``, ``decode``, ``encode --search`` and ``sheet --solution``) is
    marked ``volatile``; ``compare`` skips a step that is volatile in either
    record and says how many it skipped.  On the corpus these were 30 to 51
    puzzles (3 webpbn survey puzzles, the rest TAAI tournament puzzles that
    line logic leaves mostly undetermined), in ``info`` and ``solve``: the
    more load, the more of them.  Nothing else varied:
    records made twice, in a shuffled case order (``--shuffle``) and with
    another ``PYTHONHASHSEED`` (``--env``) were the same.

Run time
    About 3.5 minutes on the shared two-core development machine for the
    samples and the whole corpus (about 70 s of CPU; the rest is waiting for
    the CPU, and the 1 s search budgets of the 30-50 corpus puzzles that line
    logic leaves open, which count wall-clock time).  The first record of a
    checkout compiles its numba kernels, 1-3 minutes more; the compiled code
    is kept under ``$TMPDIR/rofl-behaviour-numba``, not in the checkout.  All
    five corpus commands are cheap, so none had to be left out.
"""

from __future__ import annotations

import argparse
import base64
import difflib
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FORMAT_VERSION = 1
REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "samples"
CORPUS = Path("/work/shared/corpus")

#: The fixed environment of a worker (besides PYTHONPATH and the numba cache).
FIXED_ENV = {
    "SOURCE_DATE_EPOCH": "1700000000",
    "PYTHONHASHSEED": "0",
    "TZ": "UTC",
    "LC_ALL": "C.UTF-8",
    "LANG": "C.UTF-8",
    "COLUMNS": "80",
    "LINES": "24",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONIOENCODING": "utf-8",
}

# ---------------------------------------------------------------- the cases
#
# A case is a dict:
#   name    unique, stable: how compare pairs the cases of two records
#   inputs  {name in the case directory: {"path": file} or {"text": content}}
#   steps   [{"argv": [...], "stdin": text (optional)}]; "{out}" in an argument
#           is replaced by the previous step's standard output, stripped, and
#           "stdin_file" names a file of the directory to feed as input.
#           :func:`_case` also takes a step as a command line without the
#           "rofl", split as the shell would, or as an argv list.

PICTURES = ("astronaut.jpg", "camera.jpg", "chelsea.jpg", "coffee.jpg", "horse.png", "rocket.jpg")
PUZZLES = (
    "astronaut.rofl",
    "camera.rofl",
    "chelsea.rofl",
    "coffee.rofl",
    "horse.rofl",
    "rocket.rofl",
    "hands-up.json",
)
#: Every extension ``rofl convert`` writes at c7de0f9, and which hold colour.
WRITABLE = {
    ".json": True,
    ".rofl": True,
    ".notmine": False,
    ".xml": True,
    ".non": True,
    ".nin": False,
    ".g": True,
    ".mk": False,
    ".cwd": False,
    ".sav": False,
    ".gno": False,
}
COMMANDS = ("convert", "decode", "encode", "hide", "info", "make", "page", "reveal", "sheet", "solve")
TEXTS = ("HELLO", "Hi there!", "a", "The quick brown fox jumps over 13 lazy dogs.")

#: Small puzzles written for the cases: ambiguous, unsolvable, several in a
#: file, and files that are not puzzles at all.
SYNTHETIC = {
    "ambiguous.json": json.dumps(
        {
            "id": "ambiguous",
            "title": "Two ways",
            "width": 2,
            "height": 2,
            "colors": ["#ffffff", "#000000"],
            "rows": [[[1, 1]], [[1, 1]]],
            "cols": [[[1, 1]], [[1, 1]]],
            "solution": None,
        }
    ),
    "none.json": json.dumps(
        {
            "id": "none",
            "width": 3,
            "height": 3,
            "colors": ["#ffffff", "#000000"],
            "rows": [[[1, 1], [1, 1]], [], [[1, 1]]],
            "cols": [[[2, 1]], [], [[1, 1]]],
            "solution": None,
        }
    ),
    "colour.json": json.dumps(
        {
            "id": "colour",
            "title": "Flag",
            "author": "rofl tests",
            "width": 3,
            "height": 2,
            "colors": ["#ffffff", "#ff0000", "#0000ff"],
            "rows": [[[1, 1], [1, 2]], [[2, 2]]],
            "cols": [[[1, 1]], [[1, 2]], [[2, 2]]],
            "solution": ["102", "022"],
        }
    ),
    "tournament.txt": "$1\n2\n4\n4\n4\n2\n1\t1\t1\n5\n3\n3\n1\t1\n$2\n1\n1\n1\n1\n",
    "garbage.rofl": "ROFL\x00\x07this is not a puzzle\n",
    "garbage.json": "{not json at all",
    "garbage.xml": "<?xml version='1.0'?><puzzleset><puzzle><clues/></puzzle>",
    "garbage.non": "width 3\nheight two\nrows\n1\n",
    "garbage.png": "not a PNG file, just text",
    "notes.txt": "hello, I am not a puzzle\n",
    "empty.rofl": "",
}


def _case(name: str, inputs: dict, *steps: str | list | dict) -> dict:
    """A case; a step is a command line as the shell would split it, an argv list, or a step dict."""

    def step(s):
        if isinstance(s, str):
            return {"argv": shlex.split(s)}
        return s if isinstance(s, dict) else {"argv": s}

    return {"name": name, "inputs": inputs, "steps": [step(s) for s in steps]}


def _sample(*names: str) -> dict:
    return {n: {"path": str(SAMPLES / n)} for n in names}


def _synthetic(*names: str) -> dict:
    return {n: {"text": SYNTHETIC[n]} for n in names}


def _inputs(*names: str) -> dict:
    out = {}
    for n in names:
        out.update(_synthetic(n) if n in SYNTHETIC else _sample(n))
    return out


def sample_cases() -> list[dict]:
    """The cases on ``samples/`` and the synthetic puzzles, every command."""
    cases = [_case("help", {}, "--help", "-h", "--version", "frobnicate", "")]
    cases += [_case(f"help/{c}", {}, f"{c} --help") for c in COMMANDS]
    with_synthetic = (*PUZZLES, "ambiguous.json", "none.json", "colour.json")
    with_colour = (*PUZZLES, "colour.json")

    # info and solve
    cases += [_case(f"info/{p}", _inputs(p), f"info {p}", f"info --no-solve {p}") for p in with_synthetic]
    tournament = ("info tournament.txt#1", "info tournament.txt#2", "info tournament.txt#3", "info tournament.txt")
    cases.append(_case("info/tournament", _inputs("tournament.txt"), *tournament))
    cases += [_case(f"solve/{p}", _inputs(p), f"solve {p}", f"solve --line-only {p}") for p in with_synthetic]
    for p in ("horse.rofl", "coffee.rofl", "hands-up.json", "ambiguous.json"):
        firsts = [f"solve {p} --first x{ext}" for ext in (".png", ".json", ".rofl", ".gif")]
        colours = (f"solve --color {p}", f"solve --line-only --color {p}", f"solve --no-color {p}")
        cases.append(_case(f"solve-out/{p}", _inputs(p), *firsts, f"solve {p} --solutions sols", *colours))
    bad_solve = ("--first x.unknown", "--budget 0", "--budget x")
    cases.append(_case("solve-errors", _inputs("horse.rofl"), *(f"solve horse.rofl {o}" for o in bad_solve), "solve ."))

    # decode and encode
    decodes = ("", "-o big.gif --scale 3", "-o out.jpg", "-o out.bmp --budget 5")
    cases += [_case(f"decode/{p}", _inputs(p), *(f"decode {p} {o}" for o in decodes)) for p in with_colour]
    ambiguous = ("ambiguous.json", "ambiguous.json --first -o a.png", "none.json", "none.json --first")
    cases.append(_case("decode/ambiguous", _inputs("ambiguous.json", "none.json"), *(f"decode {o}" for o in ambiguous)))
    bad_decode = ("horse.rofl -o x.unknown", "horse.rofl --scale 0", "horse.rofl --scale 65", "missing.rofl")
    cases.append(_case("decode-errors", _inputs("horse.rofl"), *(f"decode {o}" for o in bad_decode)))
    for p in ("horse.rofl", "camera.rofl", "coffee.rofl", "astronaut.rofl", "colour.json"):
        encodes = (
            "",
            "-o crc.rofl --crc --title T --author A --licence L",
            "-o nocrc.rofl --no-crc",
            "-o search.rofl --search --budget 5",
        )
        steps = (f"decode {p} -o cells.png", *(f"encode cells.png {o}" for o in encodes))
        back = ("info crc.rofl", f"decode crc.rofl -o {Path(p).stem}-back.png")
        cases.append(_case(f"encode/{p}", _inputs(p), *steps, *back))
    horse = ("", "--search --budget 5 -o s.rofl", "--background '#000000' -o b.rofl", "--background nonsense -o c.rofl")
    cases.append(_case("encode/horse.png", _inputs("horse.png"), *(f"encode horse.png {o}" for o in horse)))
    amb = ("decode ambiguous.json --first -o amb.png", "encode amb.png", "encode amb.png --search --budget 5 -o s.rofl")
    cases.append(_case("encode/ambiguous", _inputs("ambiguous.json"), *amb))
    bad_encode = ("encode garbage.png", "encode missing.png", "encode coffee.jpg")
    cases.append(_case("encode-errors", _inputs("garbage.png", "coffee.jpg"), *bad_encode))

    # convert: every sample puzzle into every writable format, and back
    for p, ext in ((p, ext) for p in with_colour for ext in WRITABLE):
        back = (f"convert out{ext} back.json", f"convert out{ext} back.rofl", f"info --no-solve out{ext}")
        cases.append(_case(f"convert/{p}/{ext}", _inputs(p), f"convert {p} out{ext}", *back))
    tournament = ("tournament.txt#1 one.json", "tournament.txt#2 two.xml", "tournament.txt all.json")
    cases.append(_case("convert/tournament", _inputs("tournament.txt"), *(f"convert {o}" for o in tournament)))
    bad_convert = (
        "horse.rofl x.foo",
        "missing.rofl x.json",
        "garbage.rofl x.json",
        "garbage.json x.rofl",
        "garbage.xml x.rofl",
        "garbage.non x.rofl",
        "notes.txt x.rofl",
        "empty.rofl x.json",
        "horse.rofl nodir/x.json",
        "horse.rofl",
    )
    garbage = ("horse.rofl", "garbage.rofl", "garbage.json", "garbage.xml", "garbage.non", "notes.txt", "empty.rofl")
    cases.append(_case("convert-errors", _inputs(*garbage), *(f"convert {o}" for o in bad_convert)))

    # sheet, and reading sheets back
    for p in with_colour:
        sheets = [
            (f"sheet {p} -o sheet{ext}", f"sheet {p} --solution -o solved{ext}") for ext in (".png", ".svg", ".pdf")
        ]
        back = (
            "info sheet.png",
            "solve sheet.svg",
            "convert sheet.pdf from-sheet.json",
            "decode solved.png",
            "decode solved.png -o decoded.png",
        )
        cases.append(_case(f"sheet/{p}", _inputs(p), *(s for pair in sheets for s in pair), *back))
    title = "--title 'A horse, ¿qué? 馬'"
    sheet_options = (
        "coffee.rofl --cell 10 -o small.png",
        "coffee.rofl --cell 40 --title '' -o untitled.svg",
        f"horse.rofl {title} -o t.png",
        f"horse.rofl {title} -o t.pdf",
        f"horse.rofl {title} -o t.svg",
        "coffee.rofl horse.rofl hands-up.json -o book.pdf",
        "coffee.rofl horse.rofl hands-up.json --answers -o answers.pdf",
    )
    bad_sheet = (
        "coffee.rofl horse.rofl -o book.png",
        "coffee.rofl --answers --solution -o x.pdf",
        "coffee.rofl horse.rofl --title X -o x.pdf",
        "coffee.rofl --font nofont.ttf -o x.svg",
        "coffee.rofl --font nofont.ttf -o x.png",
        "coffee.rofl -o x.gif",
        "ambiguous.json --solution -o amb.png",
        "coffee.rofl -o nodir/x.png",
    )
    books = ("info book.pdf#2", "decode answers.pdf#3 -o third.png", "info book.pdf#9")
    cases.append(
        _case(
            "sheet-options",
            _inputs("coffee.rofl", "horse.rofl", "hands-up.json", "ambiguous.json"),
            *(f"sheet {o}" for o in sheet_options),
            *books,
            *(f"sheet {o}" for o in bad_sheet),
        )
    )

    # page
    cases += [_case(f"page/{p}", _inputs(p), f"page {p}", f"page {p} -o x.htm --title 'Solve me'") for p in with_colour]
    cases.append(_case("page-errors", _inputs("horse.rofl"), "page horse.rofl -o x.txt", "page missing.rofl"))

    # hide and reveal
    for i, text in enumerate(TEXTS):
        said = shlex.quote(text)
        steps = [
            f"hide {said} -o s.rofl --sheet s.png",
            "reveal s.rofl",
            "reveal s.png",
            f"hide {said} --cipher",
            ["reveal", "{out}"],
            {"argv": ["reveal"], "stdin_file": "s.rofl"},
            {"argv": ["reveal", "-"], "stdin_file": "s.png"},
        ]
        for ext in (".json", ".notmine", ".xml", ".non", ".nin", ".g"):
            steps += [f"hide {said} -o s{ext}", f"reveal s{ext}"]
        for ext in (".svg", ".pdf"):
            steps += [f"hide {said} --sheet s{ext}", f"reveal s{ext}"]
        cases.append(_case(f"hide/{i}", {}, *steps))
    stdin = (
        {"argv": ["hide", "-o", "a.rofl"], "stdin": "from stdin\n"},
        "reveal a.rofl",
        {"argv": ["hide", "-o", "b.rofl"], "stdin": "crlf\r\n"},
        "reveal b.rofl",
        {"argv": ["reveal"], "stdin": "NotMine{not a real cipher}"},
        {"argv": ["reveal"], "stdin": "hello"},
    )
    cases.append(_case("hide-stdin", {}, *stdin))
    bad_hide = (
        "HELLO",
        "héllo -o x.rofl",
        "'' -o x.rofl",
        f"{'x' * 300} -o x.rofl",
        "'tab\there' -o x.rofl",
        "HELLO -o x.mk",
        "HELLO -o x.foo",
        "HELLO --sheet x.gif",
    )
    bad_reveal = ("reveal horse.rofl", "reveal missing.rofl")
    cases.append(_case("hide-errors", _inputs("horse.rofl"), *(f"hide {o}" for o in bad_hide), *bad_reveal))

    # make
    for pic in PICTURES:
        stem = Path(pic).stem
        cases += [
            _case(f"make/{pic}/default", _inputs(pic), f"make {pic} -o {stem}.rofl", f"solve {stem}.rofl"),
            _case(f"make/{pic}/c4w40", _inputs(pic), f"make {pic} -c 4 -w 40 -o c4.json"),
            _case(f"make/{pic}/bw30", _inputs(pic), f"make {pic} -w 30 -o bw.non"),
        ]
    outputs = (
        "-c 3 -w 30 -o c.rofl --preview p.png --compare cmp.png --sheet s.pdf --page p.html",
        "-w 25 -o c.xml --sheet s.svg -q",
        "-w 25 -o c.g --sheet s.png --title Cup",
    )
    cases.append(_case("make/coffee.jpg/outputs", _inputs("coffee.jpg"), *(f"make coffee.jpg {o}" for o in outputs)))
    hexagons = {  # a hexagon's pipeline: one that needs no change, one that does, colour, effort 0
        "hex12": "coffee.jpg --shape hex --size 12 -o h.rofl",
        "hex30": "coffee.jpg --shape hex --size 30 -o h.rofl --preview h.png",
        "hex-c3": "chelsea.jpg --shape hex --size 20 -c 3 -o h.rofl",
        "hex-effort0": "camera.jpg --shape hex --size 24 --effort 0 -o h.rofl",
    }
    for label, opts in hexagons.items():
        pic = opts.split()[0]
        cases.append(_case(f"make/{pic}/{label}", _inputs(pic), f"make {opts}", "info h.rofl"))
    options = {
        "dither-ordered": "-w 30 --dither ordered",
        "dither-fs": "-w 30 -c 3 --dither floyd-steinberg",
        "cleanup": "-w 30 --cleanup",
        "effort0": "-w 30 --effort 0",
        "effort2": "-w 30 --effort 2",
        "seed1": "-w 30 --seed 1",
        "crop": "-w 20 -H 25 --mode crop",
        "pad": "-w 20 -H 25 --mode pad",
        "fit": "-w 20 -H 25",
        "height": "-H 20",
        "palette": "-w 25 --palette '#fff,#000,#f00'",
        "background": "-w 25 -c 3 --background '#ffffff'",
        "threshold": "-w 25 --threshold 100",
        "notmine": "-w 20 -o x.notmine",
        "nin": "-w 20 -o x.nin",
    }
    for label, opts in options.items():
        out = "" if "-o" in opts else " -o x.rofl"
        cases.append(_case(f"make/chelsea.jpg/{label}", _inputs("chelsea.jpg"), f"make chelsea.jpg {opts}{out}"))
    bad_make = (
        "coffee.jpg -c 4 -o x.nin",
        "coffee.jpg -c 3 --threshold 100 -o x.rofl",
        "coffee.jpg -c 4 --palette '#fff,#000' -o x.rofl",
        "coffee.jpg --palette '#fff,nocolour' -o x.rofl",
        "coffee.jpg --background nocolour -o x.rofl",
        "coffee.jpg -w 0 -o x.rofl",
        "coffee.jpg -c 1 -o x.rofl",
        "coffee.jpg --dither bogus -o x.rofl",
        "coffee.jpg -o nodir/x.rofl",
        "coffee.jpg -o x.foo",
        "coffee.jpg -o x.rofl --preview x.txt",
        "coffee.jpg -o x.rofl --sheet x.gif",
        "coffee.jpg -o x.rofl --page x.txt",
        "coffee.jpg",
        "missing.jpg -o x.rofl",
        "garbage.png -o x.rofl",
        "notes.txt -o x.rofl",
    )
    cases.append(
        _case("make-errors", _inputs("coffee.jpg", "garbage.png", "notes.txt"), *(f"make {o}" for o in bad_make))
    )

    # errors every command shares
    errors = (
        "info missing.rofl",
        "info garbage.rofl",
        "info garbage.json",
        "info empty.rofl",
        "info notes.txt",
        "solve garbage.rofl",
        "decode garbage.json",
        "sheet garbage.rofl -o x.png",
        "page garbage.json",
        "reveal garbage.rofl",
        "info",
        "info a b",
        "info --budget -1 garbage.rofl",
    )
    inputs = _inputs("garbage.rofl", "garbage.json", "empty.rofl", "notes.txt")
    cases.append(_case("errors/missing-and-garbage", inputs, *errors))
    return cases


def corpus_files(corpus: Path, limit: int | None) -> list[Path]:
    """The corpus puzzles in sorted order (the first ``limit`` of them)."""
    files = sorted(p for p in corpus.rglob("*.json") if p.is_file())
    return files if limit is None else files[:limit]


def corpus_cases(corpus: Path, limit: int | None) -> list[dict]:
    """Five steps for each corpus puzzle: info, solve, two conversions, and info of the ROFL file written."""
    colour_exts = [e for e, colour in WRITABLE.items() if colour and e not in (".json", ".rofl")]
    bw_exts = [e for e in WRITABLE if e not in (".json", ".rofl")]
    cases = []
    for i, path in enumerate(corpus_files(corpus, limit)):
        rel = path.relative_to(corpus).as_posix()
        name = Path(rel).name
        colours = len(json.loads(path.read_text(encoding="utf-8")).get("colors", ())) or 2
        exts = bw_exts if colours <= 2 else colour_exts
        ext = exts[i % len(exts)]
        cases.append(
            _case(
                f"corpus/{rel}",
                {name: {"path": str(path)}},
                ["info", "--budget", "1", name],
                ["solve", "--budget", "1", name],
                ["convert", name, "out.rofl"],
                ["convert", name, "out" + ext],
                ["info", "--no-solve", "out.rofl"],
            )
        )
    return cases


# ---------------------------------------------------------------- masking

# A tqdm bar: "{desc}: {percent}%|{bar}| {n}/{total} [{elapsed}<{remaining}, {rate}]",
# written after a carriage return; a bar that closes with leave=False is wiped
# by "\r<spaces>\r".  (A bar drawn by reset() is never wiped: the next message
# follows it on the same line.)
_TQDM_BAR = re.compile(r"\r?[^\r\n|]*: *\d+%\|[^|\r\n]*\|[^\r\n\[]*\[[^\]\r\n]*\]")
_TQDM_WIPE = re.compile(r"\r *(?=\r)|\r")
_MASKS = (
    (re.compile(r"\b\d+(?:\.\d+)? ?ms\b"), "<time> ms"),
    (re.compile(r"\b\d+\.\d{2} s\b"), "<time> s"),
    (re.compile(r"\b0x[0-9a-fA-F]{6,}\b"), "0x<address>"),
)
#: Messages of a search that ran out of time: the step depends on the machine.
_BUDGET = re.compile(
    r"^budget: no answer within|search budget|could not prove the picture unique within|not decoded within",
    re.MULTILINE,
)


def mask(text: str, paths: dict[str, str]) -> str:
    """``text`` without what varies from run to run (see the module docstring)."""
    for path, label in sorted(paths.items(), key=lambda kv: -len(kv[0])):
        if path:
            text = text.replace(path, label)
    text = _TQDM_WIPE.sub("", _TQDM_BAR.sub("", text))
    for pattern, repl in _MASKS:
        text = pattern.sub(repl, text)
    return text


# ---------------------------------------------------------------- the worker

TEXT_SUFFIXES = {".json", ".xml", ".non", ".nin", ".g", ".mk", ".cwd", ".sav", ".gno", ".notmine", ".svg", ".txt"}
MAX_TEXT = 64 * 1024


def describe_file(path: Path) -> dict:
    """What a case wrote to ``path``: sha256, size, and something readable."""
    data = path.read_bytes()
    out: dict = {"sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES or suffix in (".html", ".htm"):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = None
        if text is not None and len(text) <= MAX_TEXT:
            out["text"] = text
        elif text is not None:
            out["lines"] = text.count("\n")
    elif suffix == ".pdf":
        out.update(_pdf_summary(data))
    elif data[:4] == b"ROFL":
        out["base64"] = base64.b64encode(data[:4096]).decode("ascii")
    else:
        try:
            from PIL import Image

            with Image.open(path) as im:
                out["image"] = f"{im.format} {im.mode} {im.size[0]}x{im.size[1]}"
        except Exception:  # noqa: BLE001 - not a picture Pillow reads: the hash says it all
            pass
    return out


def _pdf_summary(data: bytes) -> dict:
    import io

    try:
        from pypdf import PdfReader

        reader = PdfReader(io.BytesIO(data))
        texts = [page.extract_text() for page in reader.pages]
        return {"pages": len(texts), "text": "\n\f\n".join(texts)[:MAX_TEXT]}
    except Exception as exc:  # noqa: BLE001 - a PDF pypdf cannot read is itself worth recording
        return {"pdf_error": f"{type(exc).__name__}: {exc}"}


def run_case(case: dict, runner, main, checkout: str) -> dict:
    """Run the steps of ``case`` in a fresh directory; the record of it."""
    import warnings

    started = time.perf_counter()
    home = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="rofl-behaviour-") as tmp:
        paths = {tmp: "<tmp>", os.path.realpath(tmp): "<tmp>", checkout: "<checkout>", str(REPO): "<tools-repo>"}
        before = {}
        for name, source in case["inputs"].items():
            target = Path(tmp, name)
            target.parent.mkdir(parents=True, exist_ok=True)
            if "path" in source:
                shutil.copyfile(source["path"], target)
            else:
                target.write_bytes(source["text"].encode("utf-8"))
            before[name] = hashlib.sha256(target.read_bytes()).hexdigest()
        steps = []
        previous = ""
        os.chdir(tmp)
        try:
            for step in case["steps"]:
                argv = [a.replace("{out}", previous.strip()) for a in step["argv"]]
                stdin = step.get("stdin")
                if "stdin_file" in step:
                    stdin = Path(step["stdin_file"]).read_bytes() if Path(step["stdin_file"]).exists() else b""
                # catch_warnings() restores the filters afterwards and makes
                # Python forget which warnings it showed: each step starts
                # with the warnings of a fresh process
                with warnings.catch_warnings():
                    # CliRunner forces help to 80 columns; a terminal of COLUMNS=80
                    # gives click 78, as the installed command would have
                    result = runner.invoke(
                        main, argv, input=stdin, prog_name="rofl", catch_exceptions=True, terminal_width=78
                    )
                previous = result.stdout
                exception = None
                if result.exception is not None and not isinstance(result.exception, SystemExit):
                    exception = mask(f"{type(result.exception).__name__}: {result.exception}", paths)
                record = {
                    "argv": argv if "{out}" not in " ".join(step["argv"]) else step["argv"],
                    "exit": result.exit_code,
                    "stdout": mask(result.stdout, paths),
                    "stderr": mask(result.stderr, paths),
                }
                if "stdin" in step:
                    record["stdin"] = step["stdin"]
                if "stdin_file" in step:
                    record["stdin_file"] = step["stdin_file"]
                if exception is not None:
                    record["exception"] = exception
                steps.append(record)
        finally:
            os.chdir(home)
        files = {}
        for path in sorted(Path(tmp).rglob("*")):
            if path.is_file():
                rel = path.relative_to(tmp).as_posix()
                entry = describe_file(path)
                if before.get(rel) != entry["sha256"]:
                    files[rel] = entry
    for s in steps:
        if (s["exit"] == 4 and s["argv"][:1] == ["solve"]) or _BUDGET.search(s["stdout"] + s["stderr"]):
            s["volatile"] = True
    return {"name": case["name"], "steps": steps, "files": files, "seconds": round(time.perf_counter() - started, 3)}


def worker(cases_path: str, results_path: str) -> int:
    """Run the cases of ``cases_path`` in this process; write their records."""
    from click.testing import CliRunner

    from rofl.cli import main

    checkout = os.environ["PYTHONPATH"]
    cases = json.loads(Path(cases_path).read_text(encoding="utf-8"))
    runner = CliRunner()
    # Compile or load the numba kernels before the first recorded case.
    warm = {
        "name": "warm-up",
        "inputs": _inputs("hands-up.json", "ambiguous.json"),
        "steps": [{"argv": ["solve", "hands-up.json"]}, {"argv": ["solve", "ambiguous.json"]}],
    }
    run_case(warm, runner, main, checkout)
    records = []
    started = time.perf_counter()
    for i, case in enumerate(cases, 1):
        records.append(run_case(case, runner, main, checkout))
        if i % 50 == 0 or i == len(cases):
            print(f"  {i}/{len(cases)} cases, {time.perf_counter() - started:.0f} s", file=sys.__stderr__, flush=True)
    Path(results_path).write_text(json.dumps(records), encoding="utf-8")
    return 0


# ---------------------------------------------------------------- record


def run_batch(cases: list[dict], checkout: Path, label: str, env_extra: dict[str, str]) -> list[dict]:
    """Run ``cases`` in one worker process against the code in ``checkout``."""
    cache = Path(tempfile.gettempdir(), "rofl-behaviour-numba", hashlib.sha256(str(checkout).encode()).hexdigest()[:16])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "NUMBA_"))}
    env.update(FIXED_ENV, PYTHONPATH=str(checkout), NUMBA_CACHE_DIR=str(cache))
    env.update(env_extra)
    with tempfile.TemporaryDirectory(prefix="rofl-behaviour-batch-") as tmp:
        cases_path, results_path = Path(tmp, "cases.json"), Path(tmp, "results.json")
        cases_path.write_text(json.dumps(cases), encoding="utf-8")
        print(f"{label}: {len(cases)} cases", file=sys.stderr, flush=True)
        done = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "_worker", str(cases_path), str(results_path)],
            env=env,
            cwd=tmp,
            check=False,
        )
        if done.returncode != 0 or not results_path.exists():
            msg = f"{label}: the worker failed (exit status {done.returncode})"
            raise SystemExit(msg)
        return json.loads(results_path.read_text(encoding="utf-8"))


def _git_head(checkout: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(checkout), "describe", "--always", "--dirty"], capture_output=True, text=True, check=False
    )
    return done.stdout.strip()


def record(
    out: Path,
    checkout: Path,
    corpus: Path,
    limit: int | None,
    *,
    only: str | None = None,
    env_extra: dict[str, str] | None = None,
    shuffle: int | None = None,
) -> int:
    """Run every case against ``checkout`` and write the records to ``out``.

    ``only`` keeps the cases whose name it matches; ``env_extra`` adds to
    (or overrides) the workers' fixed environment; ``shuffle`` runs the
    cases of each batch in an order shuffled with that seed (the record
    keeps the usual order), to find state that leaks from case to case.
    """
    import random

    started = time.perf_counter()
    env_extra = env_extra or {}
    batches = [("samples", sample_cases())]
    if limit != 0:
        batches.append(("corpus", corpus_cases(corpus, limit)))
    inputs = {}
    records = []
    for label, cases in batches:
        if only:
            cases = [c for c in cases if re.search(only, c["name"])]
        if not cases:
            continue
        for case in cases:
            for source in case["inputs"].values():
                if "path" in source:
                    inputs[source["path"]] = hashlib.sha256(Path(source["path"]).read_bytes()).hexdigest()
        order = list(range(len(cases)))
        if shuffle is not None:
            random.Random(shuffle).shuffle(order)
        done = run_batch([cases[i] for i in order], checkout, label, env_extra)
        by_name = {r["name"]: r for r in done}
        records += [by_name[c["name"]] for c in cases]
    names = [r["name"] for r in records]
    if len(names) != len(set(names)):
        msg = "two cases have the same name"
        raise SystemExit(msg)
    seconds = time.perf_counter() - started
    document = {
        "format": FORMAT_VERSION,
        "checkout": str(checkout),
        "git": _git_head(checkout),
        "seconds": round(seconds, 1),
        "env": {**FIXED_ENV, **env_extra},
        "shuffle": shuffle,
        "inputs": {_input_name(p): h for p, h in sorted(inputs.items())},
        "cases": records,
    }
    out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    steps = [s for r in records for s in r["steps"]]
    volatile = sum(1 for s in steps if s.get("volatile"))
    print(
        f"{out}: {len(records)} cases, {len(steps)} commands ({volatile} of them time-dependent) in {seconds:.0f} s",
        file=sys.stderr,
    )
    return 0


def _input_name(path: str) -> str:
    """An input's name without the directory it lives in on this machine."""
    p = Path(path)
    for root, label in ((SAMPLES, "samples"), (CORPUS, "corpus")):
        if p.is_relative_to(root):
            return f"{label}/{p.relative_to(root).as_posix()}"
    return path


# ---------------------------------------------------------------- compare

MAX_DIFF_LINES = 12


def _short_diff(a: str, b: str) -> list[str]:
    if "\n" not in a.strip() and "\n" not in b.strip() and len(a) < 200 and len(b) < 200:
        return [f"    - {a!r}", f"    + {b!r}"]
    diff = list(difflib.unified_diff(a.splitlines(), b.splitlines(), "A", "B", n=1, lineterm=""))[2:]
    more = len(diff) - MAX_DIFF_LINES
    return ["    " + line for line in diff[:MAX_DIFF_LINES]] + ([f"    ... {more} more lines"] if more > 0 else [])


def _value_text(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def compare_case(a: dict, b: dict) -> tuple[list[str], int]:
    """The differences between two records of one case, as report lines
    (each difference a line that starts with ``@``, followed by its short
    diff), and how many time-dependent steps were skipped."""
    out = []
    skipped = 0
    if len(a["steps"]) != len(b["steps"]):
        out.append(f"@ {len(a['steps'])} steps in A, {len(b['steps'])} in B")
    for i, (sa, sb) in enumerate(zip(a["steps"], b["steps"], strict=False), 1):
        if sa.get("volatile") or sb.get("volatile"):
            skipped += 1
            continue
        command = " ".join(["rofl", *sa["argv"]])
        for field in ("argv", "stdin", "stdin_file", "exit", "stdout", "stderr", "exception"):
            va, vb = sa.get(field), sb.get(field)
            if va != vb:
                out.append(f"@ step {i} `{command[:100]}`: {field}")
                out += _short_diff(_value_text(va or ""), _value_text(vb or ""))
    fa, fb = a["files"], b["files"]
    for name in sorted(set(fa) | set(fb)):
        if name not in fa or name not in fb:
            out.append(f"@ file {name}: written only in {'B' if name in fb else 'A'}")
            continue
        if fa[name]["sha256"] == fb[name]["sha256"]:
            continue
        out.append(f"@ file {name}: contents ({fa[name]['size']} -> {fb[name]['size']} bytes)")
        for key in sorted((set(fa[name]) | set(fb[name])) - {"sha256", "size"}):
            va, vb = fa[name].get(key), fb[name].get(key)
            if va != vb:
                out.append(f"    {key}:")
                out += ["  " + line for line in _short_diff(_value_text(va or ""), _value_text(vb or ""))]
    return out, skipped


def compare(path_a: Path, path_b: Path) -> int:
    """Print every difference between two records; 1 if there is any."""
    a = json.loads(path_a.read_text(encoding="utf-8"))
    b = json.loads(path_b.read_text(encoding="utf-8"))
    lines = []
    n = 0
    for name in sorted(set(a["inputs"]) | set(b["inputs"])):
        if a["inputs"].get(name) != b["inputs"].get(name):
            lines.append(f"input {name}: {'differs' if name in a['inputs'] and name in b['inputs'] else 'only in one'}")
            n += 1
    cases_a = {c["name"]: c for c in a["cases"]}
    cases_b = {c["name"]: c for c in b["cases"]}
    skipped = compared = steps = 0
    for name in sorted(set(cases_a) | set(cases_b), key=_case_order(a, b)):
        if name not in cases_a or name not in cases_b:
            lines.append(f"case {name}: only in {'B' if name in cases_b else 'A'}")
            n += 1
            continue
        found, skips = compare_case(cases_a[name], cases_b[name])
        compared += 1
        skipped += skips
        steps += len(cases_a[name]["steps"]) - skips
        for line in found:
            if line.startswith("@"):
                lines.append(f"{name}: {line[2:]}")
                n += 1
            else:
                lines.append(line)
    note = f"; {skipped} time-dependent commands skipped" if skipped else ""
    if lines:
        print("\n".join(lines))
        print(f"{n} differences between {path_a} and {path_b} ({compared} cases compared{note})")
        return 1
    print(f"same behaviour: {compared} cases, {steps} commands{note}")
    return 0


def _case_order(a: dict, b: dict):
    """Cases in the order of the records (A's, then any that only B has)."""
    order = {}
    for c in a["cases"] + b["cases"]:
        order.setdefault(c["name"], len(order))
    return order.__getitem__


# ---------------------------------------------------------------- main


def _corpus_limit(value: str) -> int | None:
    if value == "all":
        return None
    n = int(value)
    if n < 0:
        msg = "--corpus takes a number >= 0 or 'all'"
        raise argparse.ArgumentTypeError(msg)
    return n


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Record what every rofl command does; compare two records.")
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="run the cases against a checkout and write a JSON record")
    rec.add_argument("outfile", type=Path)
    rec.add_argument("--checkout", type=Path, default=REPO, help="repository whose rofl/ is run (default: this one)")
    rec.add_argument(
        "--corpus",
        type=_corpus_limit,
        default=None,
        metavar="N|all",
        help="first N corpus puzzles (sorted), 0 for none (default: all)",
    )
    rec.add_argument("--corpus-dir", type=Path, default=CORPUS, help=f"default: {CORPUS}")
    rec.add_argument("--only", metavar="REGEX", help="only the cases whose name matches (for debugging)")
    rec.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change the workers' environment (e.g. PYTHONHASHSEED=1), to look for nondeterminism",
    )
    rec.add_argument(
        "--shuffle",
        type=int,
        metavar="SEED",
        help="run the cases in a shuffled order, to look for state leaking from case to case",
    )
    cmp = sub.add_parser("compare", help="print every difference between two records; exit 1 if any")
    cmp.add_argument("a", type=Path)
    cmp.add_argument("b", type=Path)
    work = sub.add_parser("_worker", help=argparse.SUPPRESS)
    work.add_argument("cases")
    work.add_argument("results")
    args = parser.parse_args(argv)
    if args.command == "record":
        checkout = args.checkout.resolve()
        if not (checkout / "rofl" / "cli").is_dir():
            parser.error(f"{checkout}: no rofl/cli package there")
        env_extra = dict(item.partition("=")[::2] for item in args.env)
        return record(
            args.outfile,
            checkout,
            args.corpus_dir,
            args.corpus,
            only=args.only,
            env_extra=env_extra,
            shuffle=args.shuffle,
        )
    if args.command == "compare":
        return compare(args.a, args.b)
    return worker(args.cases, args.results)


if __name__ == "__main__":
    sys.exit(main())
