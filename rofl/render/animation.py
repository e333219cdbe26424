"""Pictures of a solve in progress: ``rofl solve --steps DIR`` and ``--gif FILE``.

Each :class:`~rofl.solver.trace.Frame` of a :class:`~rofl.solver.trace.Trace`
becomes one palette-mode picture: the cells known so far in their colours,
the open cells hatched in two greys (no puzzle colour is a hatch, so they
read as open whatever the palette), the lines the step solved outlined and
the cell it probed or guessed framed, in a highlight colour chosen far from
every colour of the puzzle, and a strip below with the frame's number and
what happened.

:func:`write_steps` writes the frames as PNG files into a folder,
:func:`write_animation` as one animated GIF, APNG (``.png``/``.apng``) or
WebP file, by extension.  Every frame shares one palette, and Pillow
writes a GIF or APNG frame as the rectangle that changed since the one
before (from the old highlight to the label strip: often most of the
frame, but mostly unchanged pixels, a few kilobytes compressed).  Pillow
builds an animation from all its frames in memory, so the picture size is
capped by :data:`MAX_ANIMATION_PIXELS` over all frames: the cell size
shrinks to fit, and once cells are one pixel, the frames are fewer
(:func:`frames_that_fit`).
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rofl.errors import OptionError, UsageError
from rofl.palette import RGB
from rofl.puzzle import Puzzle
from rofl.solver.trace import DEFAULT_MAX_FRAMES, Frame

#: Largest side of a frame in pixels unless asked otherwise (``--max-size``).
DEFAULT_MAX_SIZE = 800
#: Cell side in pixels when the puzzle is small (a 5x5 puzzle is not drawn
#: as a 40-pixel stamp); larger puzzles get smaller cells, down to 1.
LARGEST_CELL = 24
#: Most pixels of all the frames of one animation together: Pillow keeps
#: every frame in memory while it writes the file (256 MB of palette pixels).
MAX_ANIMATION_PIXELS = 256 * 1024 * 1024
#: The extensions :func:`write_animation` writes, and Pillow's format for each.
ANIMATION_FORMATS = {".gif": "GIF", ".png": "PNG", ".apng": "PNG", ".webp": "WEBP"}
#: Height of the label strip under the grid, and the least width that shows a label.
LABEL_HEIGHT = 16
LABEL_WIDTH = 280

# The drawing colours after the puzzle's own (palette indices n, n + 1...).
_OPEN_LIGHT: RGB = (226, 226, 226)
_OPEN_DARK: RGB = (170, 170, 170)
_GRID: RGB = (128, 128, 128)
_STRIP: RGB = (250, 250, 250)
_TEXT: RGB = (20, 20, 20)
# candidates for the highlight: the one farthest from every puzzle colour wins
_HIGHLIGHTS: tuple[RGB, ...] = ((255, 0, 200), (255, 40, 0), (0, 200, 255), (0, 220, 0), (255, 150, 0), (120, 0, 255))


@dataclass(frozen=True)
class Style:
    """How frames are drawn.

    Attributes
    ----------
    cell : int
        Side of a cell in pixels.
    label : bool
        Whether a strip with the frame's label is drawn under the grid.
    """

    cell: int
    label: bool = True


def choose_cell(puzzle: Puzzle, scale: int | None = None, max_size: int = DEFAULT_MAX_SIZE, frames: int = 1) -> int:
    """The cell side in pixels: ``scale`` if given, else the largest up to
    :data:`LARGEST_CELL` that keeps the grid within ``max_size`` pixels a
    side; either way no more than fits ``frames`` frames in
    :data:`MAX_ANIMATION_PIXELS`.

    Raises
    ------
    OptionError
        A ``scale`` or ``max_size`` below 1, or a puzzle whose grid is larger
        than ``max_size`` even at one pixel per cell.
    """
    if max_size < 1:
        msg = f"--max-size must be at least 1 pixel, not {max_size}"
        raise OptionError(msg)
    side = max(puzzle.width, puzzle.height)
    if side > max_size:
        msg = (
            f"a {puzzle.width}x{puzzle.height} puzzle is {side} pixels across at one pixel per cell, "
            f"more than --max-size {max_size}; raise --max-size"
        )
        raise OptionError(msg)
    if scale is not None:
        if scale < 1:
            msg = f"--scale must be at least 1 pixel per cell, not {scale}"
            raise OptionError(msg)
        cell = min(scale, max_size // side)
    else:
        cell = max(1, min(LARGEST_CELL, max_size // side))
    per_frame = MAX_ANIMATION_PIXELS // max(frames, 1)
    while cell > 1 and _size(puzzle, Style(cell))[0] * _size(puzzle, Style(cell))[1] > per_frame:
        cell -= 1
    return cell


def _size(puzzle: Puzzle, style: Style) -> tuple[int, int]:
    """(width, height) of a frame in pixels."""
    width = puzzle.width * style.cell + 1
    height = puzzle.height * style.cell + 1
    if style.label:
        return max(width, LABEL_WIDTH), height + LABEL_HEIGHT
    return width, height


class Painter:
    """Draws the frames of one puzzle in one style (the palette is fixed once)."""

    def __init__(self, puzzle: Puzzle, style: Style) -> None:
        self.puzzle = puzzle
        self.style = style
        colours = list(puzzle.palette.colors)
        n = len(colours)
        self.open_light, self.open_dark, self.grid_colour, self.strip, self.text, self.highlight = range(n, n + 6)
        colours += [_OPEN_LIGHT, _OPEN_DARK, _GRID, _STRIP, _TEXT, _highlight(puzzle.palette.colors)]
        self.palette = [channel for rgb in colours for channel in rgb]
        self.width, self.height = _size(puzzle, style)
        self.left = (self.width - (puzzle.width * style.cell + 1)) // 2
        # the hatch of open cells: diagonal stripes, fixed to the picture
        cell = style.cell
        ys, xs = np.mgrid[0 : puzzle.height * cell, 0 : puzzle.width * cell]
        self.hatch = np.where((xs + ys) % 4 == 0, self.open_dark, self.open_light).astype(np.uint8)
        self.font = _font()

    def draw(self, frame: Frame):
        """``frame`` as a palette-mode :class:`PIL.Image.Image`."""
        from PIL import Image, ImageDraw

        puzzle, cell = self.puzzle, self.style.cell
        grid = frame.grid
        cells = np.repeat(np.repeat(np.maximum(grid, 0).astype(np.uint8), cell, axis=0), cell, axis=1)
        open_px = np.repeat(np.repeat(grid < 0, cell, axis=0), cell, axis=1)
        cells = np.where(open_px, self.hatch, cells)
        board = np.full((puzzle.height * cell + 1, puzzle.width * cell + 1), self.grid_colour, dtype=np.uint8)
        board[: puzzle.height * cell, : puzzle.width * cell] = cells
        if cell >= 5:  # lines between cells, where there is room for them
            board[::cell, :] = self.grid_colour
            board[:, ::cell] = self.grid_colour
        canvas = np.full((self.height, self.width), self.strip, dtype=np.uint8)
        canvas[: board.shape[0], self.left : self.left + board.shape[1]] = board
        image = Image.fromarray(canvas, "P")
        image.putpalette(self.palette)
        draw = ImageDraw.Draw(image)
        thick = 1 if cell < 6 else 2
        # the last frame is the finished picture: no step outlined on it
        last = frame.number == frame.count - 1
        for line in () if last else frame.lines:
            if line < puzzle.height:
                box = (0, line * cell, puzzle.width * cell, (line + 1) * cell)
            else:
                col = line - puzzle.height
                box = (col * cell, 0, (col + 1) * cell, puzzle.height * cell)
            self._outline(draw, box, thick)
        for spot in () if last else frame.cells:
            r, c = divmod(spot, puzzle.width)
            self._outline(draw, (c * cell, r * cell, (c + 1) * cell, (r + 1) * cell), max(thick, 2))
        if self.style.label:
            top = puzzle.height * cell + 1
            text = f"{frame.number}/{frame.count - 1}  {frame.label}"
            if frame.depth:
                text += f"  (guesses: {frame.depth})"
            draw.text((3, top + 2), text, fill=self.text, font=self.font)
        return image

    def _outline(self, draw, box: tuple[int, int, int, int], thick: int) -> None:
        x0, y0, x1, y1 = box
        x0 += self.left
        x1 += self.left
        draw.rectangle((x0, y0, x1, y1), outline=self.highlight, width=thick)


def _highlight(colours: Sequence[RGB]) -> RGB:
    def distance(candidate: RGB) -> int:
        return min(sum((a - b) ** 2 for a, b in zip(candidate, rgb, strict=True)) for rgb in colours)

    return max(_HIGHLIGHTS, key=distance)


def _font():
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size=11)
    except TypeError:  # Pillow without FreeType: its bitmap font
        return ImageFont.load_default()


# ------------------------------------------------------------------ files


def check_animation_path(path: str | Path) -> str:
    """The Pillow format of an animation file by its extension.

    Raises
    ------
    UsageError
        An extension other than ``.gif``, ``.png``, ``.apng``, ``.webp``,
        or ``.webp`` when Pillow was built without WebP.
    """
    from PIL import features

    suffix = Path(path).suffix.lower()
    fmt = ANIMATION_FORMATS.get(suffix)
    if fmt is None:
        known = ", ".join(ANIMATION_FORMATS)
        msg = f"{path}: an animation is written as {known} (by extension), not {suffix or 'no extension'!r}"
        raise UsageError(msg)
    if fmt == "WEBP" and not features.check("webp"):
        msg = f"{path}: this Pillow cannot write WebP; write .gif or .png (APNG)"
        raise UsageError(msg)
    return fmt


def check_steps_folder(directory: str | Path) -> None:
    """Refuse a ``--steps`` folder that is a file or already holds step
    pictures (an earlier run's, which a shorter run would leave mixed with
    its own), before any work is done.

    Raises
    ------
    UsageError
    """
    folder = Path(directory)
    if folder.exists() and not folder.is_dir():
        msg = f"--steps {folder}: not a folder"
        raise UsageError(msg)
    if folder.is_dir() and any(folder.glob("step-*.png")):
        msg = f"--steps {folder}: the folder already holds step pictures (step-*.png); name a new or empty folder"
        raise UsageError(msg)


def write_steps(directory: str | Path, frames: Iterable[Frame], painter: Painter) -> list[Path]:
    """Write each frame as ``DIR/step-0000.png``, ``step-0001.png``...
    (atomically, each); the folder is created.  Returns the paths.

    Raises
    ------
    UsageError
        See :func:`check_steps_folder`.
    """
    from rofl._io import atomic_write

    check_steps_folder(directory)
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for frame in frames:
        path = folder / f"step-{frame.number:04d}.png"
        buffer = io.BytesIO()
        painter.draw(frame).save(buffer, format="PNG")
        atomic_write(path, buffer.getvalue())
        paths.append(path)
    return paths


def animation_bytes(frames: Iterable[Frame], painter: Painter, fmt: str, delay: int, last_delay: int) -> bytes:
    """The frames as one animated ``fmt`` file (``"GIF"``, ``"PNG"``, ``"WEBP"``).

    Parameters
    ----------
    delay, last_delay : int
        Milliseconds each frame is shown, and the last one (the solution).
    """
    images = [painter.draw(frame) for frame in frames]
    if delay < 1 or last_delay < 1:
        msg = f"frame delays must be at least 1 ms, not {min(delay, last_delay)}"
        raise OptionError(msg)
    durations = [delay] * (len(images) - 1) + [last_delay]
    buffer = io.BytesIO()
    options: dict = {"save_all": True, "append_images": images[1:], "duration": durations, "loop": 0}
    if fmt == "WEBP":
        options["lossless"] = True
        images = [image.convert("RGB") for image in images]
        options["append_images"] = images[1:]
    elif fmt == "PNG":
        options["optimize"] = True
    images[0].save(buffer, format=fmt, **options)
    return buffer.getvalue()


def write_animation(
    path: str | Path, frames: Iterable[Frame], painter: Painter, *, delay: int = 100, last_delay: int = 2000
) -> None:
    """Write the frames as an animation (atomically), in the format the extension names."""
    from rofl._io import atomic_write

    fmt = check_animation_path(path)
    atomic_write(path, animation_bytes(frames, painter, fmt, delay, last_delay))


def animate_solve(
    puzzle: Puzzle,
    path: str | Path,
    *,
    trace=None,
    per: str = "line",
    max_frames: int = DEFAULT_MAX_FRAMES,
    delay: int = 100,
    last_delay: int = 2000,
    scale: int | None = None,
    max_size: int = DEFAULT_MAX_SIZE,
    budget: float | None = 10.0,
) -> int:
    """Trace the solve of ``puzzle`` (unless ``trace`` is given) and write
    it as an animation to ``path``; the number of frames.  The options are
    those of :meth:`~rofl.solver.trace.Trace.frames`, :func:`choose_cell`
    and :func:`write_animation`."""
    from rofl.solver.trace import trace_solve

    fmt = check_animation_path(path)
    if trace is None:
        trace = trace_solve(puzzle, time_budget=budget)
    count = trace.frame_count(per, max_frames)
    painter = Painter(puzzle, Style(choose_cell(puzzle, scale, max_size, frames=count)))
    fit = frames_that_fit(painter, fmt)
    if count > fit:  # cells of one pixel and still too many pixels: fewer frames share the steps
        max_frames = fit
        count = trace.frame_count(per, max_frames)
    write_animation(path, trace.frames(per, max_frames), painter, delay=delay, last_delay=last_delay)
    return count


def frames_that_fit(painter: Painter, fmt: str) -> int:
    """How many frames of ``painter``'s size an animation in ``fmt`` may hold:
    their pixels (three bytes each for WebP, which Pillow takes as RGB) within
    :data:`MAX_ANIMATION_PIXELS`.  :func:`choose_cell` shrinks the cells to
    fit the frames asked for; at one pixel a cell, this bounds the frames.

    Raises
    ------
    OptionError
        Not even two frames (the first and the solution) fit.
    """
    per_pixel = 3 if fmt == "WEBP" else 1
    fit = MAX_ANIMATION_PIXELS // (painter.width * painter.height * per_pixel)
    if fit < 2:
        msg = (
            f"an animation of frames of {painter.width}x{painter.height} pixels cannot hold two frames within "
            f"{MAX_ANIMATION_PIXELS // (1 << 20)} M pixels; lower --max-size or --scale"
        )
        raise OptionError(msg)
    return fit
