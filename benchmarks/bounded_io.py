"""What the hostile inputs of session 10's audit cost (prints figures; not a test).

Usage::

    python benchmarks/bounded_io.py [--against CHECKOUT] [--write-docs]

Each case runs in a child process of this checkout (and, with ``--against``,
of another one, e.g. main: ``git worktree add /tmp/rofl-main main``, with the
compiled extension copied in) and prints its exit status (or what it
answered), CPU seconds and peak resident memory (``resource.getrusage`` of
the child):

* the first answer of a tournament run (:func:`rofl.batch.tournament.run_tournament`,
  ``--budget 0.01``) of a 30 MB file of 63 puzzles of 2048 x 2048 (60 numbers
  a line), and of a 3.5 MB file of 5139 puzzles of 25 x 25;
* ``rofl bench --tournament --answers`` of 8 empty puzzles of 2048 x 2048
  (64 kB of clues, 64 MB of answers);
* ``rofl solve --line-only --budget 1`` of a 2048 x 2048 triangle with 5 %
  of its cells flipped (line logic alone takes some 35 s);
* ``rofl sheet`` of a 2048 x 2048 puzzle of random dots (a 4 MB ``.non``,
  2.1 million clue numbers) as SVG and PDF;
* a 200 MiB upload to the studio (uvicorn, as ``rofl studio`` serves it,
  in the same process as the client, which streams the body in chunks
  without a length) when it has room for 1 MiB more photos.

``--write-docs`` writes the table into section ``bounded-io`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _docs import stamp, write_section

REPO = Path(__file__).resolve().parent.parent
TOURNAMENT = Path("/work/shared/tournaments/taai2011.txt")

FIRST_ANSWER = """
import sys, time
from rofl.batch.tournament import run_tournament
rows = run_tournament(sys.argv[1], budget=0.01)
row = next(rows)
print("first answer: $%d %s" % (row.label, row.status))
"""

STUDIO = r"""
import http.client, json, socket, threading, time
import uvicorn
import rofl.studio.app as app
app.MAX_HELD_BYTES = 1 << 20
token = "t" * 24
server = uvicorn.Server(uvicorn.Config(app.create_app(token=token, warm=False), log_level="warning", lifespan="on"))
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True).start()
while not server.started:
    time.sleep(0.05)
client = http.client.HTTPConnection("127.0.0.1", sock.getsockname()[1], timeout=600)
client.putrequest("POST", f"/{token}/photos")
client.putheader("Content-Type", "multipart/form-data; boundary=x")
client.putheader("Transfer-Encoding", "chunked")
client.endheaders()
head = b'--x\r\nContent-Disposition: form-data; name="photo"; filename="big.png"\r\n\r\n'
for part in [head, *[bytes(1 << 20)] * 200, b"\r\n--x--\r\n"]:
    client.send(b"%x\r\n" % len(part) + part + b"\r\n")
client.send(b"0\r\n\r\n")
answer = client.getresponse()
print(answer.status, json.loads(answer.read())["error"])
server.should_exit = True
"""


def cases(folder: Path) -> dict[str, list[str]]:
    sys.path.insert(0, str(REPO))
    from rofl.formats import write_puzzle
    from rofl.palette import Palette
    from rofl.puzzle import Puzzle

    # 63 puzzles of 2048 x 2048, 60 numbers a line: 30 MB, within the 262,144 lines rofl reads
    line = "\t".join(["1"] * 60) + "\n"
    with open(folder / "big.txt", "w") as f:
        for label in range(1, 64):
            f.write(f"${label}\n" + line * 4096)
    # 5139 puzzles of 25 x 25 (taai2011's first, again and again): the most lines rofl reads
    body = TOURNAMENT.read_text().split("$")[1].split("\n", 1)[1].rstrip("\n")
    with open(folder / "many.txt", "w") as f:
        for label in range(1, 262144 // 51):
            f.write(f"${label}\n{body}\n")
    with open(folder / "empty.txt", "w") as f:
        for label in range(1, 9):
            f.write(f"${label}\n" + "0\n" * 4096)
    rng = np.random.default_rng(3)
    i, j = np.indices((2048, 2048))
    slow = (j <= i) ^ (rng.random((2048, 2048)) < 0.05)
    write_puzzle(folder / "slow.non", Puzzle.from_grid(slow.astype(np.uint8), Palette.black_white()))
    dots = (np.random.default_rng(1).random((2048, 2048)) < 0.5).astype(np.uint8)
    write_puzzle(folder / "dots.non", Puzzle.from_grid(dots, Palette.black_white()))
    py = [sys.executable, "-c"]
    return {
        "tournament, 63 puzzles of 2048x2048 (30 MB): first answer": [*py, FIRST_ANSWER, str(folder / "big.txt")],
        "tournament, 5139 puzzles of 25x25 (3.5 MB): first answer": [*py, FIRST_ANSWER, str(folder / "many.txt")],
        "bench --tournament --answers, 8 empty puzzles of 2048x2048": [
            "bench", "--tournament", str(folder / "empty.txt"), "--answers", str(folder / "answers.txt"),
        ],
        "solve --line-only --budget 1, 2048x2048 (line logic 35 s)": [
            "solve", "--line-only", "--budget", "1", "--no-color", str(folder / "slow.non"),
        ],
        "sheet .svg, 2048x2048 random dots (4 MB file)": ["sheet", str(folder / "dots.non"), "-o", str(folder / "s.svg")],
        "sheet .pdf, 2048x2048 random dots (4 MB file)": ["sheet", str(folder / "dots.non"), "-o", str(folder / "s.pdf")],
        "studio: 200 MiB upload, room for 1 MiB": [*py, STUDIO],
    }  # fmt: skip


def measure(checkout: Path, args: list[str]) -> tuple[str, float, float]:
    """(exit status or what the child printed, CPU seconds, peak MB) of ``rofl ARGS``
    (or of ``python -c ...`` when ``args`` start with the interpreter) run from ``checkout``."""
    script = (
        "import resource, subprocess, sys\n"
        "argv = sys.argv[1:] if sys.argv[1] == sys.executable else [sys.executable, '-m', 'rofl', *sys.argv[1:]]\n"
        "p = subprocess.run(argv, capture_output=True, text=True)\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "said = p.stdout.strip().splitlines()[-1] if argv[1] == '-c' and p.returncode == 0 else ''\n"
        "print(u.ru_utime + u.ru_stime, u.ru_maxrss, p.returncode, said)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(checkout))
    run = [sys.executable, "-c", script, *args]
    out = subprocess.run(run, capture_output=True, text=True, env=env, cwd=checkout, check=True)
    cpu, peak, status, said = (out.stdout.strip().split(maxsplit=3) + [""])[:4]
    return said or f"exit {status}", float(cpu), int(peak) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another checkout to measure too (before)")
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    options = parser.parse_args()
    checkouts = ([("before", options.against)] if options.against else []) + [("after", REPO)]
    resource.setrlimit(resource.RLIMIT_CPU, (900, 900))
    header = "| case | " + " | ".join(f"{label}: answer, CPU, peak" for label, _ in checkouts) + " |"
    lines = [header, "|---|" + "---|" * len(checkouts)]
    with tempfile.TemporaryDirectory() as folder:
        for name, args in cases(Path(folder)).items():
            cells = []
            for label, checkout in checkouts:
                said, cpu, peak = measure(checkout, args)
                print(f"{name:60s} {label:6s} {said[:60]:60s} {cpu:6.1f} s CPU {peak:7.0f} MB peak", flush=True)
                cells.append(f"{said}, {cpu:.1f} s, {peak:.0f} MB")
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
    if options.write_docs:
        write_section("bounded-io", "\n".join([stamp(), "", *lines]))


if __name__ == "__main__":
    main()
