"""What hostile inputs of issue 40 cost (prints figures; not a test).

Usage::

    python benchmarks/hostile_inputs.py [--against CHECKOUT] [--write-docs]

Each case runs ``rofl`` in a child process of this checkout (and, with
``--against``, of another one, e.g. main: ``git archive main | tar -x -C
/tmp/rofl-main``) and prints its CPU seconds and peak resident memory
(``resource.getrusage`` of the child), with its exit status:

* ``rofl make`` of 64 Mpx pictures, rofl's limit: a 16-bit grey PNG, a
  floating-point TIFF and an 8-bit RGB PNG (a few hundred kB each);
* ``rofl info --no-solve`` of a 1 MB ``.clues`` of ``?`` groups (64 colours);
* ``rofl info --no-solve`` of a PDF book whose object stream inflates to
  20 MB of spaces (the issue's ``objstm4.pdf`` was 70 MB: 44 s).

``--write-docs`` writes the table into section ``hostile-inputs`` of
``docs/benchmarks.md``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from _children import REPO, compare
from PIL import Image


def cases(folder: Path) -> dict[str, list[str]]:
    side = 8000
    grey = np.zeros((side, side), np.uint16)
    grey[2000:6000, 2000:6000] = 60000
    Image.fromarray(grey).save(folder / "big16.png")
    del grey
    floats = np.zeros((side, side), np.float32)
    floats[2000:6000, 2000:6000] = 1.0
    Image.fromarray(floats).save(folder / "bigf.tif", compression="tiff_adobe_deflate")
    del floats
    rgb = np.zeros((side, side, 3), np.uint8)
    rgb[2000:6000, 2000:6000] = 200
    Image.fromarray(rgb).save(folder / "big8.png")
    del rgb
    palette = " ".join(f"#{i * 1000:06x}" for i in range(64))
    row = "1? " * 300
    lines = ["rofl clues 1", "rectangle 600 600", f"colours {palette}", "rows", *[row] * 600, "columns", *[row] * 600]
    (folder / "unknown.clues").write_text("\n".join(lines) + "\n")
    sys.path.insert(0, str(REPO))
    from tests.formats.test_sheet_puzzles import objstm_pdf

    (folder / "objstm.pdf").write_bytes(objstm_pdf(pad=4_000_000))
    out = str(folder / "out.rofl")
    return {
        "make 64 Mpx 16-bit PNG": ["make", str(folder / "big16.png"), "-o", out, "-w", "20", "-q"],
        "make 64 Mpx float TIFF": ["make", str(folder / "bigf.tif"), "-o", out, "-w", "20", "-q"],
        "make 64 Mpx 8-bit RGB PNG": ["make", str(folder / "big8.png"), "-o", out, "-w", "20", "-q"],
        "info 1 MB .clues of ? groups": ["info", "--no-solve", str(folder / "unknown.clues")],
        "info PDF, 20 MB object stream": ["info", "--no-solve", str(folder / "objstm.pdf")],
    }


if __name__ == "__main__":
    compare(__doc__, cases, "hostile-inputs", cpu_limit=600)
