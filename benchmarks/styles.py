"""Picture styles (issue 46): do the puzzles look like their photos?

For every photo of ``benchmarks/_photos.py`` (portraits, a pet, objects, a
landscape, text) x style x colours x size, makes the puzzle with
``rofl.make`` and measures, against the photo area-averaged to the grid
(:mod:`rofl.picture.measures`):

* SSIM in lightness (the figure of ``rofl make``'s stats);
* edge agreement: Canny's edges of the photo at grid scale against the
  grid's region boundaries, precision, recall and F1 (matched one to one
  within one cell);
* faces (portraits, rectangles): whether scikit-image's LBP frontal-face
  cascade, run on the puzzle's picture scaled up with nearest neighbour and
  softened, finds the face it finds in the photo (the box in ``_photos.py``);
  the column ``avg`` says the same of the photo area-averaged to the grid
  (the best a grid of that size can show);
* unique and line-solvable (``rofl.solve`` reads the clues and must end on
  the puzzle's grid), cells changed by refinement, processor time of
  ``make`` (not wall time: the machine these run on is shared).

Rectangles have N cells on their longer side (``--sizes``); hexagons a side
of ``--sides`` cells.  Styles are ``rofl.make(..., style=...)``'s when it has
the parameter; without it only ``photo`` (today's pipeline) is measured.

The summary compares each style with ``photo`` on the goals of issue 46:
black and white at 40-60 cells (faces found in at least half of the portrait
puzzles, edge F1 up 30% on average, SSIM down at most 0.02); 3-4 colours
(edge F1 up 15%, SSIM not lower); hexagons of side 12-20 (the same edge
gains); 100% unique and line-solvable, median cells changed <= 0.5%, and
time at 40 cells at most 1.5x ``photo``'s.

Usage::

    python benchmarks/styles.py [--styles photo,lines,poster,auto] [--photos a,b] [--colors 2,3,4]
                                [--sizes 30,40,50,60] [--sides 12,16,20] [--quick] [--no-faces]
                                [--tsv rows.tsv] [--write-docs]

``--quick`` runs 6 photos at 40 and 60 cells, 2 and 4 colours, hexagons of
side 16 (about a minute a style).  ``--write-docs`` writes section
``picture-styles`` of ``docs/benchmarks.md`` (``picture-styles-baseline``
when only ``photo`` is measured).
"""

from __future__ import annotations

import argparse
import functools
import inspect
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

print = functools.partial(print, flush=True)  # noqa: A001 - progress of a long run shows as it goes
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from _photos import BY_NAME, PHOTOS, Photo  # noqa: E402

import rofl  # noqa: E402
from rofl.picture import rgb8_to_lab  # noqa: E402
from rofl.picture.measures import (  # noqa: E402
    Face,
    edge_agreement,
    faces_kept,
    find_faces,
    hex_lightness_ssim,
    lightness_ssim,
)

STYLES = ("photo", "lines", "poster", "auto")
QUICK_PHOTOS = ("astronaut", "grace_hopper", "obama", "chelsea", "coffee", "text")


def has_styles() -> bool:
    """Whether this rofl's ``make`` takes ``style`` (a parameter of its own,
    or a field of its ``MakeOptions``)."""
    import dataclasses

    options = getattr(rofl, "MakeOptions", None) or getattr(__import__("rofl.maker").maker, "MakeOptions", None)
    if options is not None and "style" in {f.name for f in dataclasses.fields(options)}:
        return True
    return "style" in inspect.signature(rofl.make).parameters


@dataclass
class Row:
    photo: str
    kind: str
    style: str
    chosen: str
    shape: str
    colors: int
    size: int
    cells: int
    ssim: float
    precision: float
    recall: float
    f1: float
    face: str  # "yes", "no" or "" (no face to find)
    face_avg: str
    ok: bool
    changed_pct: float
    seconds: float


def face_in_grid(photo: Photo, res) -> Face:
    """The photo's face box in the frame of the (maybe trimmed) grid."""
    top, left, height, width = photo.face
    t, b, lft, r = res.stats.trimmed
    h, w = res.grid.shape
    full_h, full_w = h + t + b, w + lft + r
    return Face((top * full_h - t) / h, (left * full_w - lft) / w, height * full_h / h, width * full_w / w)


def run(photo: Photo, pixels: np.ndarray, style: str, colors: int, *, size: int | None, side: int | None,
        faces: bool) -> Row:  # fmt: skip
    kwargs = {"colors": colors}
    if has_styles():
        kwargs["style"] = style
    start = time.process_time()
    if side is not None:
        res = rofl.make(pixels, shape="hex", size=side, **kwargs)
    else:
        h, w = pixels.shape[:2]
        res = rofl.make(pixels, **({"width": size} if w >= h else {"height": size}), **kwargs)
    seconds = time.process_time() - start
    palette = res.palette.to_array()
    source = rgb8_to_lab(res.cells)[..., 0]
    final = rgb8_to_lab(palette)[:, 0][res.grid]
    ssim = hex_lightness_ssim(source, final, side) if side else lightness_ssim(source, final)
    edges = edge_agreement(source, final, side=side)
    solved = rofl.solve(res.puzzle)
    ok = solved.status == "solved" and bool((np.asarray(solved.grid).ravel() == res.grid.ravel()).all())
    face = face_avg = ""
    if faces and photo.face is not None and side is None:
        truth = face_in_grid(photo, res)
        face = "yes" if faces_kept([truth], find_faces(palette[res.grid])) else "no"
        face_avg = "yes" if faces_kept([truth], find_faces(res.cells)) else "no"
    return Row(
        photo=photo.name,
        kind=photo.kind,
        style=style,
        chosen=getattr(res.stats, "style", "photo"),
        shape="hex" if side else "rect",
        colors=colors,
        size=side if side else (size or 0),
        cells=int(res.grid.size),
        ssim=float("nan") if ssim is None else ssim,
        precision=edges.precision,
        recall=edges.recall,
        f1=edges.f1,
        face=face,
        face_avg=face_avg,
        ok=ok,
        changed_pct=res.stats.changed_pct,
        seconds=seconds,
    )


def photo_faces(photos: list[Photo]) -> list[str]:
    """Lines saying whether the cascade finds each portrait's face in the photo."""
    lines = []
    for photo in photos:
        if photo.face is None:
            continue
        found = faces_kept([Face(*photo.face)], find_faces(photo.load(), cells=False))
        lines.append(f"{photo.name}: {'found' if found else 'NOT found'}")
    return lines


# ---------------------------------------------------------------- tables


def _mean(values) -> float:
    values = [v for v in values if v == v]
    return statistics.fmean(values) if values else float("nan")


def _gain(new: float, old: float) -> str:
    return f"{100 * (new / old - 1):+.0f}%" if old > 0 else "n/a"


def _faces(rows: list[Row], column: str = "face") -> str:
    asked = [r for r in rows if getattr(r, column)]
    return f"{sum(getattr(r, column) == 'yes' for r in asked)}/{len(asked)}" if asked else "-"


def table(rows: list[Row], styles: list[str]) -> list[str]:
    """Per shape, colours and size: each style's means."""
    out = [
        "| shape | colours | size | style | SSIM | edge P | edge R | edge F1 | faces (avg photo) "
        "| solved | changed % (median) | CPU s (median) |",
        "| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    keys = sorted({(r.shape, r.colors, r.size) for r in rows}, key=lambda k: (k[0] != "rect", k[1], k[2]))
    for shape, colors, size in keys:
        for style in styles:
            sel = [r for r in rows if (r.shape, r.colors, r.size, r.style) == (shape, colors, size, style)]
            if not sel:
                continue
            out.append(
                f"| {shape} | {colors} | {size} | {style} | {_mean(r.ssim for r in sel):.3f} "
                f"| {_mean(r.precision for r in sel):.3f} | {_mean(r.recall for r in sel):.3f} "
                f"| {_mean(r.f1 for r in sel):.3f} | {_faces(sel)} ({_faces(sel, 'face_avg')}) "
                f"| {sum(r.ok for r in sel)}/{len(sel)} | {statistics.median(r.changed_pct for r in sel):.2f} "
                f"| {statistics.median(r.seconds for r in sel):.2f} |"
            )
    return out


def per_photo(rows: list[Row], styles: list[str], colors: int, size: int) -> list[str]:
    """SSIM / edge F1 of every photo at one rectangle configuration."""
    sel = [r for r in rows if r.shape == "rect" and r.colors == colors and r.size == size]
    if not sel:
        return []
    out = [
        f"Rectangles, {colors} colours, {size} cells: SSIM / edge F1 (face found) per photo",
        "",
        "| photo | kind | " + " | ".join(styles) + " |",
        "| --- | --- |" + " ---: |" * len(styles),
    ]
    for name in dict.fromkeys(r.photo for r in sel):
        cells = []
        for style in styles:
            hit = [r for r in sel if r.photo == name and r.style == style]
            if not hit:
                cells.append("-")
                continue
            r = hit[0]
            mark = {"yes": " (face)", "no": " (no face)", "": ""}[r.face]
            chosen = f" [{r.chosen}]" if r.style == "auto" else ""
            cells.append(f"{r.ssim:.2f} / {r.f1:.2f}{mark}{chosen}")
        out.append(f"| {name} | {sel[[r.photo for r in sel].index(name)].kind} | " + " | ".join(cells) + " |")
    return out


def goals(rows: list[Row], styles: list[str]) -> list[str]:
    """Each style against ``photo`` on the goals of issue 46."""
    out = []
    base = [r for r in rows if r.style == "photo"]
    if not base:
        return ["(no `photo` rows: no goals to compare)"]

    def pairs(style, test):
        """(photo row, style row) of the same case."""
        index = {(r.photo, r.shape, r.colors, r.size): r for r in base if test(r)}
        return [(index[k], r) for r in rows if r.style == style and test(r)
                for k in [(r.photo, r.shape, r.colors, r.size)] if k in index]  # fmt: skip

    groups = [
        ("black and white, 40-60 cells", lambda r: r.shape == "rect" and r.colors == 2 and 40 <= r.size <= 60, 30),
        ("3-4 colours, rectangles", lambda r: r.shape == "rect" and r.colors in (3, 4), 15),
        ("hexagons side 12-20, black and white", lambda r: r.shape == "hex" and r.colors == 2, 30),
        ("hexagons side 12-20, 3-4 colours", lambda r: r.shape == "hex" and r.colors in (3, 4), 15),
    ]
    out.append(
        "| style | cases | edge F1 photo → style | gain of the mean (goal) | mean of gains | SSIM photo → style "
        "(Δ) | faces found (photo's) |"
    )
    out.append("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for style in styles:
        if style == "photo":
            continue
        for label, test, goal in groups:
            p = pairs(style, test)
            if not p:
                continue
            f_old, f_new = _mean(a.f1 for a, _ in p), _mean(b.f1 for _, b in p)
            gains = _mean(b.f1 / a.f1 - 1 for a, b in p if a.f1 > 0)
            s_old, s_new = _mean(a.ssim for a, _ in p), _mean(b.ssim for _, b in p)
            faces = "-"
            if any(b.face for _, b in p):
                faces = f"{_faces([b for _, b in p])} ({_faces([a for a, _ in p])})"
            ok = "met" if (f_new / f_old - 1) * 100 >= goal else "not met"
            out.append(
                f"| {style} | {label} ({len(p)}) | {f_old:.3f} → {f_new:.3f} | {_gain(f_new, f_old)} "
                f"(≥ +{goal}%: {ok}) | {100 * gains:+.0f}% | {s_old:.3f} → {s_new:.3f} ({s_new - s_old:+.3f}) "
                f"| {faces} |"
            )
    if len(out) == 2:
        out = ["(only `photo` measured: nothing to compare with it)"]
    out.append("")
    for style in styles:
        sel = [r for r in rows if r.style == style]
        out.append(
            f"- {style}: {sum(r.ok for r in sel)}/{len(sel)} unique and line-solvable; cells changed median "
            f"{statistics.median(r.changed_pct for r in sel):.2f}%, worst {max(r.changed_pct for r in sel):.2f}%"
            f"{_time_ratio(pairs(style, lambda r: r.shape == 'rect' and r.size == 40))}"
        )
    return out


def _time_ratio(pairs: list[tuple[Row, Row]]) -> str:
    """The processor time of a style's ``make`` at 40 cells against
    ``photo``'s on the same cases (``(photo row, style row)`` pairs): the
    ratio of the medians (the goal's reading), and the median of the
    per-case ratios, in black and white and in colour."""
    if not pairs:
        return ""

    def ratio(sel):
        if not sel:
            return "-"
        medians = statistics.median(b.seconds for _, b in sel) / statistics.median(a.seconds for a, _ in sel)
        return f"{medians:.2f}x (per case {statistics.median(b.seconds / max(a.seconds, 1e-6) for a, b in sel):.2f}x)"

    bw, colour = [p for p in pairs if p[0].colors == 2], [p for p in pairs if p[0].colors > 2]
    return f"; processor time at 40 cells {ratio(pairs)} photo's: black and white {ratio(bw)}, colour {ratio(colour)}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--styles", default=",".join(STYLES))
    ap.add_argument("--photos", default="")
    ap.add_argument("--colors", default="2,3,4")
    ap.add_argument("--sizes", default="30,40,50,60")
    ap.add_argument("--sides", default="12,16,20")
    ap.add_argument("--quick", action="store_true", help="6 photos, 40 and 60 cells, 2 and 4 colours, side 16")
    ap.add_argument("--no-faces", action="store_true", help="skip the face cascade (the slowest measure)")
    ap.add_argument("--tsv", help="write every row to this file")
    ap.add_argument("--write-docs", action="store_true")
    args = ap.parse_args()
    styles = [s for s in args.styles.split(",") if s]
    if not has_styles():
        print(f"this rofl.make has no style parameter: measuring photo only (asked {','.join(styles)})")
        styles = ["photo"]
    if args.quick:
        args.photos = args.photos or ",".join(QUICK_PHOTOS)
        args.sizes, args.colors, args.sides = "40,60", "2,4", "16"
    photos = [BY_NAME[n] for n in args.photos.split(",")] if args.photos else list(PHOTOS)
    colors = [int(c) for c in args.colors.split(",") if c]
    sizes = [int(s) for s in args.sizes.split(",") if s]
    sides = [int(s) for s in args.sides.split(",") if s]
    faces = not args.no_faces

    rofl.make(photos[0].load(), width=20)  # compile or load the kernels outside the timings
    start = time.process_time()
    rows: list[Row] = []
    for photo in photos:
        pixels = photo.load()
        for colors_ in colors:
            cases = [(s, None) for s in sizes if colors_ != 3 or s == 40] + [(None, s) for s in sides]
            for size, side in cases:
                for style in styles:
                    row = run(photo, pixels, style, colors_, size=size, side=side, faces=faces)
                    rows.append(row)
                    print(
                        f"{photo.name:13} {row.shape} {colors_} {row.size:3} {style:7}→{row.chosen:7} "
                        f"SSIM {row.ssim:6.3f} edge P {row.precision:.2f} R {row.recall:.2f} F1 {row.f1:.3f} "
                        f"face {row.face or '-':3} (avg {row.face_avg or '-':3}) "
                        f"{'ok' if row.ok else 'NOT SOLVED'} changed {row.changed_pct:.2f}% {row.seconds:.2f} s"
                    )
    cpu = time.process_time() - start
    if args.tsv:
        fields = list(asdict(rows[0]))
        lines = ["\t".join(fields)] + ["\t".join(str(v) for v in asdict(r).values()) for r in rows]
        Path(args.tsv).write_text("\n".join(lines) + "\n", encoding="utf-8")
    face_lines = photo_faces(photos) if faces else []
    report = [
        f"{len(rows)} puzzles from {len(photos)} photos in {cpu:.0f} s of CPU.",
        "",
        *(["The face cascade on the photos themselves: " + "; ".join(face_lines) + ".", ""] if face_lines else []),
        *table(rows, styles),
        "",
        *per_photo(rows, styles, 2, 40),
        "",
        *per_photo(rows, styles, 4, 40),
        "",
        "Goals of issue 46, each style against `photo` on the same cases:",
        "",
        *goals(rows, styles),
    ]
    print("\n".join(report))
    if args.write_docs:
        from _docs import write_report

        write_report("picture-styles" if styles != ["photo"] else "picture-styles-baseline", report)


if __name__ == "__main__":
    main()
