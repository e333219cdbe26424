"""The gallery of picture styles: ``docs/gallery.md`` and ``docs/gallery/*.png``.

For every photo of ``benchmarks/_photos.py``, one composite PNG: the photo,
then the puzzle of each style (``photo`` is today's pipeline; ``lines``,
``poster`` and ``auto`` when ``rofl.make`` takes ``style``), in rows for
black and white and 4 colours at 30 and 50 cells on the longer side, each
under its SSIM and edge F1 (:mod:`rofl.picture.measures`).  The page lists
the composites with a table of the figures, so what the measures say can be
checked by eye.

Usage::

    python tools/gallery.py [--photos a,b] [--styles photo,lines,poster,auto] [--tile 150]
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

print = functools.partial(print, flush=True)  # noqa: A001 - progress shows as it goes
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import numpy as np  # noqa: E402
from _photos import BY_NAME, PHOTOS, Photo  # noqa: E402
from PIL import Image, ImageDraw, ImageFont  # noqa: E402
from styles import STYLES, has_styles  # noqa: E402

import rofl  # noqa: E402
from rofl.picture import rgb8_to_lab  # noqa: E402
from rofl.picture.measures import edge_f1, lightness_ssim  # noqa: E402

OUT = ROOT / "docs" / "gallery"
PAGE = ROOT / "docs" / "gallery.md"
ROWS = ((2, 30), (2, 50), (4, 30), (4, 50))
LABEL = 16  # pixels of text above a tile


def make(pixels: np.ndarray, style: str, colors: int, size: int):
    """The puzzle, its picture (uint8 RGB, one pixel per cell), SSIM and edge F1."""
    h, w = pixels.shape[:2]
    kwargs = {"colors": colors, **({"width": size} if w >= h else {"height": size})}
    if has_styles():
        kwargs["style"] = style
    res = rofl.make(pixels, **kwargs)
    palette = res.palette.to_array()
    source = rgb8_to_lab(res.cells)[..., 0]
    final = rgb8_to_lab(palette)[:, 0][res.grid]
    return res, palette[res.grid], lightness_ssim(source, final), edge_f1(source, final)


def tile(picture: np.ndarray, side: int) -> Image.Image:
    """``picture`` scaled up by a whole factor (nearest neighbour) to at most ``side`` pixels."""
    k = max(1, side // max(picture.shape[:2]))
    return Image.fromarray(np.repeat(np.repeat(picture, k, axis=0), k, axis=1))


def composite(photo: Photo, styles: list[str], side: int) -> tuple[Image.Image, list[tuple]]:
    """The photo's composite and its figures: ``(colours, size, style, chosen, ssim, f1)`` rows."""
    pixels = photo.load()
    font = ImageFont.load_default(size=12)
    h, w = pixels.shape[:2]
    scale = side / max(h, w)
    shot = Image.fromarray(pixels).resize((max(1, round(w * scale)), max(1, round(h * scale))), Image.LANCZOS)
    cols = 1 + len(styles)
    cell_w, cell_h = side + 8, side + LABEL + 8
    sheet = Image.new("RGB", (cols * cell_w + 60, len(ROWS) * cell_h), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    figures = []
    for i, (colors, size) in enumerate(ROWS):
        y = i * cell_h
        draw.text((4, y + LABEL + side // 2 - 12), f"{'b&w' if colors == 2 else f'{colors} col.'}\n{size} cells",
                  fill=(0, 0, 0), font=font)  # fmt: skip
        if i == 0:
            draw.text((60, y + 2), "photo", fill=(0, 0, 0), font=font)
            sheet.paste(shot, (60, y + LABEL))
        for j, style in enumerate(styles, start=1):
            res, picture, ssim, f1 = make(pixels, style, colors, size)
            chosen = getattr(res.stats, "style", "photo")
            name = "today" if style == "photo" else style if style != "auto" else f"auto: {chosen}"
            x = 60 + j * cell_w
            draw.text((x, y + 2), f"{name}  {ssim:.2f}/{f1:.2f}", fill=(0, 0, 0), font=font)
            sheet.paste(tile(picture, side), (x, y + LABEL))
            figures.append((colors, size, style, chosen, ssim, f1))
    return sheet, figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", default="")
    ap.add_argument("--styles", default=",".join(STYLES))
    ap.add_argument("--tile", type=int, default=150, help="pixels on a tile's longer side")
    args = ap.parse_args()
    styles = [s for s in args.styles.split(",") if s] if has_styles() else ["photo"]
    photos = [BY_NAME[n] for n in args.photos.split(",")] if args.photos else list(PHOTOS)
    OUT.mkdir(parents=True, exist_ok=True)
    page = [
        "# Gallery: picture styles",
        "",
        "Written by `python tools/gallery.py`: every photo of `benchmarks/_photos.py`",
        "(sources and licences in `benchmarks/data/photos/README.md`) beside its puzzles, black and",
        "white and 4 colours, 30 and 50 cells on the longer side. Above each puzzle: its style",
        "(`today` is the pipeline before issue 46's styles; `auto: X` is the style `auto` picked),",
        "then SSIM / edge F1 against the photo at the grid's size (`rofl.picture.measures`; see",
        "[benchmarks.md](benchmarks.md#picture-styles)).",
        "",
    ]
    for photo in photos:
        sheet, figures = composite(photo, styles, args.tile)
        path = OUT / f"{photo.name}.png"
        sheet.save(path, optimize=True)
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} kB")
        page += [f"## {photo.name} ({photo.kind})", "", f"![{photo.name}](gallery/{photo.name}.png)", ""]
        page += ["| colours | cells | " + " | ".join(styles) + " |", "| ---: | ---: |" + " ---: |" * len(styles)]
        for colors, size in ROWS:
            cells = []
            for style in styles:
                (_, _, _, chosen, ssim, f1) = next(f for f in figures if f[:3] == (colors, size, style))
                cells.append(f"{ssim:.2f} / {f1:.2f}" + (f" ({chosen})" if style == "auto" else ""))
            page.append(f"| {colors} | {size} | " + " | ".join(cells) + " |")
        page.append("")
        page.append(f"Source: {photo.source}; licence: {photo.licence}.")
        page.append("")
    PAGE.write_text("\n".join(page), encoding="utf-8")
    total = sum(p.stat().st_size for p in OUT.glob("*.png"))
    print(f"wrote {PAGE.relative_to(ROOT)}; {len(photos)} pictures, {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
