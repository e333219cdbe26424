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

import sys
from pathlib import Path

import numpy as np
from _children import REPO, compare

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
    sheet = ["sheet", str(folder / "dots.non"), "-o"]
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
        "sheet .svg, 2048x2048 random dots (4 MB file)": [*sheet, str(folder / "s.svg")],
        "sheet .pdf, 2048x2048 random dots (4 MB file)": [*sheet, str(folder / "s.pdf")],
        "studio: 200 MiB upload, room for 1 MiB": [*py, STUDIO],
    }  # fmt: skip


if __name__ == "__main__":
    compare(__doc__, cases, "bounded-io", cpu_limit=900)
