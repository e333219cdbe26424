"""Reading a PDF sheet back, for the tests of sheets and puzzle books.

The page is read back with pypdf: a small interpreter of the content stream
collects every text, filled rectangle, framed rectangle and stroked line with
its colour, in points from the page's top left corner.  The grid is found
from the lines alone (every line ends on the grid's right or bottom edge),
the clue numbers by where they stand, as for the SVG.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from rofl.puzzle import Puzzle


def expected_clues(puzzle: Puzzle):
    """Every row's and column's numbers with the colour they print in: the
    exact colour of their group (a colour puzzle's box around the digits,
    or black digits on white), an empty line's 0 black."""
    colours = puzzle.palette.hex()

    def shown(clue):
        if not clue:
            return [(0, "#000000")]  # an empty line prints a black 0
        return [(n, colours[c]) for n, c in clue]

    return [shown(c) for c in puzzle.rows], [shown(c) for c in puzzle.cols]


HELVETICA_DIGIT = 0.556  # advance of every digit in Helvetica, in em
A4 = (595.28, 841.89)


def _hex(values) -> str:
    if len(values) == 1:  # gray
        values = values * 3
    return "#{:02x}{:02x}{:02x}".format(*(round(float(v) * 255) for v in values))


def _string(operand) -> str:
    raw = operand.get_original_bytes() if hasattr(operand, "get_original_bytes") else bytes(operand)
    return raw.decode("windows-1252")


def read_pdf(data: bytes, index: int | None = None) -> dict:
    """Page ``index`` of a PDF (None: the only page of a one-page PDF):
    its size, texts, filled rectangles (``rects``), stroked rectangles
    (``frames``) and lines.  Text in an embedded font is decoded through
    the font's ToUnicode map (by pypdf); ``embedded`` says whether it was."""
    import io

    import pypdf
    from pypdf.generic import ContentStream

    reader = pypdf.PdfReader(io.BytesIO(data))
    if index is None:
        assert len(reader.pages) == 1
        index = 0
    page = reader.pages[index]
    assert "/XObject" not in page["/Resources"]  # no image: all vector
    fonts = page["/Resources"].get("/Font", {})
    core = {name: fonts[name].get_object().get("/BaseFont") == "/Helvetica" for name in fonts}
    width, height = float(page.mediabox.width), float(page.mediabox.height)
    state = {"fill": "#000000", "stroke": "#000000", "width": 1.0}
    stack, path, texts, rects, frames, lines = [], [], [], [], [], []
    size = x = y = 0.0
    font = None
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        op = op.decode()
        if op == "q":
            stack.append(dict(state))
        elif op == "Q":
            state = stack.pop()
        elif op in ("rg", "g"):
            state["fill"] = _hex(operands)
        elif op in ("RG", "G"):
            state["stroke"] = _hex(operands)
        elif op == "w":
            state["width"] = float(operands[0])
        elif op == "Tf":
            font, size = operands[0], float(operands[1])
        elif op == "BT":
            x = y = 0.0
        elif op == "Td":
            x, y = x + float(operands[0]), y + float(operands[1])
        elif op == "Tj":
            text = _string(operands[0]) if core[font] else None  # decoded below
            texts.append({"x": x, "y": height - y, "size": size, "fill": state["fill"], "text": text})
        elif op == "re":
            rx, ry, rw, rh = (float(v) for v in operands)
            path.append(("re", rx, height - max(ry, ry + rh), abs(rw), abs(rh)))
        elif op == "f":
            rects.extend({"x": p[1], "y": p[2], "w": p[3], "h": p[4], "fill": state["fill"]} for p in path)
            path = []
        elif op in ("m", "l"):
            path.append((op, float(operands[0]), height - float(operands[1])))
        elif op == "S":
            if path and path[0][0] == "re":
                frames.extend({"x": p[1], "y": p[2], "w": p[3], "h": p[4], "stroke": state["stroke"]} for p in path)
            for (_, x1, y1), (b, x2, y2) in zip(path, path[1:], strict=False):
                assert b == "l"
                lines.append({"x1": x1, "y1": y1, "x2": x2, "y2": y2, "stroke": state["stroke"], "w": state["width"]})
            path = []
        else:
            assert op in ("J", "ET", "gs"), op  # nothing else is drawn
    embedded = not all(core.values())
    if embedded:
        # pypdf reports each shown string once, in order (and blank pieces between)
        decoded: list[str] = []
        page.extract_text(visitor_text=lambda text, *_: decoded.append(text.strip()) if text.strip() else None)
        assert len(decoded) == len(texts)
        for t, text in zip(texts, decoded, strict=True):
            t["text"] = text
    return {
        "reader": reader,
        "width": width,
        "height": height,
        "texts": texts,
        "rects": rects,
        "frames": frames,
        "lines": lines,
        "embedded": embedded,
    }


def pdf_grid(page: dict, puzzle: Puzzle) -> tuple[float, float, float]:
    """The grid's top left corner and its cell size, in points, from the lines."""
    xs = [v for line in page["lines"] if line["x1"] == line["x2"] for v in (line["x1"],)]
    ys = [v for line in page["lines"] if line["y1"] == line["y2"] for v in (line["y1"],)]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    cell = (right - left) / puzzle.width
    assert (bottom - top) / puzzle.height == pytest.approx(cell, abs=0.02)  # square cells (to the 0.01 pt written)
    return left, top, cell


def clue_box(page: dict, text: dict) -> dict | None:
    """The framed box a clue number stands in (the smallest filled rectangle
    around the middle of its first digit that has a frame, in any font), or None."""
    x, y = text["x"] + 0.2 * text["size"], text["y"] - 0.35 * text["size"]
    framed = {(round(f["x"], 2), round(f["y"], 2), round(f["w"], 2), round(f["h"], 2)) for f in page["frames"]}
    around = [
        r
        for r in page["rects"]
        if r["x"] <= x <= r["x"] + r["w"]
        and r["y"] <= y <= r["y"] + r["h"]
        and (round(r["x"], 2), round(r["y"], 2), round(r["w"], 2), round(r["h"], 2)) in framed
    ]
    return min(around, key=lambda r: r["w"] * r["h"], default=None)


def pdf_clues(page: dict, puzzle: Puzzle):
    """Every row's and column's numbers as ``(number, "#rrggbb")``, as :func:`read_clues`
    (the title, in a larger font, is left out), the colour being their box's
    (:func:`clue_box`) or else their own; also checks that columns' numbers
    are centred on them and rows' right-aligned."""
    x0, y0, cell = pdf_grid(page, puzzle)
    rows: list[list] = [[] for _ in range(puzzle.height)]
    cols: list[list] = [[] for _ in range(puzzle.width)]
    texts = [t for t in page["texts"] if t["y"] < y0 + puzzle.height * cell]  # the key stands below the grid
    size = min(t["size"] for t in texts)
    assert sum(t["size"] != size for t in texts) <= 1  # a title at most
    for t in texts:
        if t["size"] != size:
            continue
        assert t["text"].isdigit()
        box = clue_box(page, t)
        fill = t["fill"] if box is None else box["fill"]
        right = t["x"] + HELVETICA_DIGIT * t["size"] * len(t["text"])
        assert 0 <= t["x"] and right <= page["width"] and 0 <= t["y"] <= page["height"]  # on the page
        if right <= x0:
            i = math.floor((t["y"] - y0) / cell)
            assert 0 <= i < puzzle.height, t
            rows[i].append((t["x"], int(t["text"]), fill, right))
        else:
            assert t["y"] <= y0, t
            centre = (t["x"] + right) / 2
            j = math.floor((centre - x0) / cell)
            assert 0 <= j < puzzle.width, t
            assert centre == pytest.approx(x0 + (j + 0.5) * cell, abs=0.02)
            cols[j].append((-t["y"], int(t["text"]), fill))
    # every row's last number ends at the same place, just left of the grid
    ends = [max(line)[3] for line in rows]
    assert max(ends) - min(ends) < 0.05 and x0 - cell < min(ends) <= max(ends) < x0
    return [[(n, fill) for _, n, fill, *_ in sorted(line)] for line in rows], [
        [(n, fill) for _, n, fill in sorted(line, reverse=True)] for line in cols
    ]


def pdf_fills(page: dict, puzzle: Puzzle) -> np.ndarray:
    """The colour every cell ends up painted, as :func:`read_fills`."""
    x0, y0, cell = pdf_grid(page, puzzle)
    painted = np.full((puzzle.height, puzzle.width), "", dtype=object)
    for r in page["rects"]:
        if r["y"] > y0 + puzzle.height * cell:
            continue  # a swatch of the key, below the grid
        if r["x"] < x0 - 0.01 or r["y"] < y0 - 0.01:
            framed = any(abs(f["x"] - r["x"]) + abs(f["y"] - r["y"]) < 0.02 for f in page["frames"])
            assert r["fill"] == "#eeeeee" or framed  # a band behind the clues, or a clue's box
            continue
        edges = [(r["x"] - x0) / cell, (r["y"] - y0) / cell, r["w"] / cell, r["h"] / cell]
        for v in edges:
            assert v == pytest.approx(round(v), abs=0.01)  # whole cells
        j, i, w, h = (round(v) for v in edges)
        painted[i : i + h, j : j + w] = r["fill"]
    return painted


def check_pdf_sheet(data: bytes, puzzle: Puzzle, solution: np.ndarray | None) -> dict:
    page = read_pdf(data)
    assert pdf_clues(page, puzzle) == expected_clues(puzzle)
    if solution is None:
        _, y0, cell = pdf_grid(page, puzzle)
        boxes = {id(clue_box(page, t)) for t in page["texts"]} - {id(None)}
        above = [r for r in page["rects"] if r["y"] < y0 + puzzle.height * cell]
        assert all(r["fill"] == "#eeeeee" or id(r) in boxes for r in above)  # bands and clue boxes
    else:
        np.testing.assert_array_equal(pdf_fills(page, puzzle), np.array(puzzle.palette.hex())[solution])
    return page
