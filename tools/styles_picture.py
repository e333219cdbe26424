"""The README's comparison picture: a photo, today's puzzle and the default (``auto``) one.

Writes ``docs/styles-coffee.png``: ``samples/coffee.jpg``, the puzzle the
``photo`` style makes of it (rofl's pipeline before styles), and the one
``rofl make samples/coffee.jpg -o coffee.rofl`` makes (``auto``), black and
white at 40 cells, each labelled with its style, SSIM and edge F1.

Usage::

    python tools/styles_picture.py [PICTURE] [-o docs/styles-coffee.png] [-c 2] [-w 40]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from PIL import Image, ImageDraw  # noqa: E402

import rofl  # noqa: E402

TILE = 8  # pixels per cell
LABEL = 18  # pixels of text under a panel


def panels(picture: Path, colors: int, width: int) -> list[tuple[str, Image.Image]]:
    """(label, picture) of the photo and of the puzzle of each style compared."""
    out = []
    for style in ("photo", "auto"):
        res = rofl.make(picture, colors=colors, width=width, style=style, trim=False)
        s = res.stats
        name = "today (photo)" if style == "photo" else f"auto: {s.style}"
        grid = res.palette.to_array()[res.grid]
        img = Image.fromarray(np.repeat(np.repeat(grid, TILE, axis=0), TILE, axis=1))
        out.append((f"{name}, SSIM {s.ssim:.2f}, edge F1 {s.edge_f1:.2f}", img))
        photo = Image.fromarray(res.source_image(TILE))
    return [("photo", photo), *out]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("picture", nargs="?", default=str(ROOT / "samples" / "coffee.jpg"))
    parser.add_argument("-o", "--output", default=str(ROOT / "docs" / "styles-coffee.png"))
    parser.add_argument("-c", "--colors", type=int, default=2)
    parser.add_argument("-w", "--width", type=int, default=40)
    args = parser.parse_args()
    shown = panels(Path(args.picture), args.colors, args.width)
    gap = TILE
    w = sum(img.width for _, img in shown) + gap * (len(shown) - 1)
    h = max(img.height for _, img in shown) + LABEL
    sheet = Image.new("RGB", (w, h), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    x = 0
    for label, img in shown:
        sheet.paste(img, (x, 0))
        draw.text((x + 2, img.height + 3), label, fill=(0, 0, 0))
        x += img.width + gap
    sheet.save(args.output, optimize=True)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
