"""Pictures of a solve: step PNGs and animations (``rofl solve --steps/--gif``)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageSequence

from rofl.errors import OptionError, UsageError
from rofl.formats import open_puzzle
from rofl.puzzle import Palette, Puzzle
from rofl.render import animation
from rofl.render.animation import Painter, Style, animation_bytes, choose_cell, write_steps
from rofl.solver.trace import trace_solve
from tests.places import DATA_DIR, SAMPLES
from tests.solver.test_trace import BACKTRACKS


def cell_colours(image: Image.Image, puzzle: Puzzle, painter: Painter) -> np.ndarray:
    """(H, W, 3) RGB at the centre of every cell of a frame."""
    rgb = np.asarray(image.convert("RGB"))
    cell = painter.style.cell
    ys = np.arange(puzzle.height) * cell + cell // 2
    xs = np.arange(puzzle.width) * cell + cell // 2 + painter.left
    return rgb[np.ix_(ys, xs)]


def drawn(puzzle: Puzzle, grid: np.ndarray) -> np.ndarray:
    return puzzle.palette.to_array()[grid]


@pytest.mark.parametrize("ext", [".gif", ".png", ".webp"])
def test_animation_frames_first_open_last_the_solution(ext):
    puzzle = open_puzzle(SAMPLES / "horse.rofl").puzzle
    trace = trace_solve(puzzle)
    painter = Painter(puzzle, Style(choose_cell(puzzle, max_size=200)))
    fmt = animation.ANIMATION_FORMATS[ext]
    data = animation_bytes(trace.frames("sweep"), painter, fmt, delay=70, last_delay=1500)
    image = Image.open(io.BytesIO(data))
    assert image.format == fmt and image.n_frames == trace.frame_count("sweep")
    shown = [frame.copy() for frame in ImageSequence.Iterator(image)]
    first, last = cell_colours(shown[0], puzzle, painter), cell_colours(shown[-1], puzzle, painter)
    # the first frame: nothing known, so no cell in a puzzle colour
    assert not any((first == colour).all(axis=-1).any() for colour in puzzle.palette.colors)
    assert np.array_equal(last, drawn(puzzle, trace.solution))
    if fmt == "GIF":
        durations = [frame.info["duration"] for frame in ImageSequence.Iterator(Image.open(io.BytesIO(data)))]
        assert durations[0] == 70 and durations[-1] == 1500


def test_step_pictures_of_a_search_labelled_highlighted_and_ending_solved(tmp_path):
    trace = trace_solve(BACKTRACKS)
    painter = Painter(BACKTRACKS, Style(20))
    paths = write_steps(tmp_path / "steps", trace.frames(), painter)
    assert [p.name for p in paths] == [f"step-{i:04d}.png" for i in range(len(trace.steps) + 1)]
    frames = list(trace.frames())
    for path, frame in zip(paths, frames, strict=True):
        with Image.open(path) as image:
            image.load()
        assert image.mode == "P" and image.size == (animation.LABEL_WIDTH, 7 * 20 + 1 + animation.LABEL_HEIGHT)
        rgb = np.asarray(image.convert("RGB"))
        highlight = np.asarray(painter.palette[3 * painter.highlight : 3 * painter.highlight + 3])
        marked = (rgb == highlight).all(axis=-1)
        last = frame.number == frame.count - 1
        assert marked.any() == bool((frame.lines or frame.cells) and not last)  # the last: the bare picture
        for spot in () if last else frame.cells:  # a probed or guessed cell is framed
            r, c = divmod(spot, BACKTRACKS.width)
            assert marked[r * 20 : (r + 1) * 20 + 1, painter.left + c * 20 : painter.left + (c + 1) * 20 + 1].any()
    with Image.open(paths[-1]) as last:
        last.load()
    assert np.array_equal(cell_colours(last, BACKTRACKS, painter), drawn(BACKTRACKS, trace.solution))


def test_a_line_frame_outlines_its_line_only():
    puzzle = open_puzzle(DATA_DIR / "pzl" / "kolobok.pzl").puzzle
    painter = Painter(puzzle, Style(8, label=False))
    frame = list(trace_solve(puzzle).frames())[5]
    (line,) = frame.lines
    rgb = np.asarray(painter.draw(frame).convert("RGB"))
    highlight = np.asarray(painter.palette[3 * painter.highlight : 3 * painter.highlight + 3])
    ys, xs = np.nonzero((rgb == highlight).all(axis=-1))
    if line < puzzle.height:
        assert ys.min() >= line * 8 and ys.max() <= (line + 1) * 8
    else:
        col = line - puzzle.height
        assert xs.min() >= col * 8 and xs.max() <= (col + 1) * 8
    # the highlight is a colour the puzzle does not use
    assert tuple(highlight) not in puzzle.palette.colors


def test_cell_size_fits_the_caps():
    big = Puzzle.from_grid(np.zeros((100, 60), dtype=np.uint8), Palette.black_white())
    assert choose_cell(big) == 8  # 800 px / 100 cells
    assert choose_cell(big, scale=3) == 3 and choose_cell(big, scale=50) == 8
    small = Puzzle.from_grid(np.zeros((5, 5), dtype=np.uint8), Palette.black_white())
    assert choose_cell(small) == animation.LARGEST_CELL
    # many frames: the cell shrinks until every frame fits in memory
    cell = choose_cell(big, frames=10_000)
    assert cell < 8 and 10_000 * (60 * cell + 1) * (100 * cell + 1 + 16) <= animation.MAX_ANIMATION_PIXELS
    with pytest.raises(OptionError, match="raise --max-size"):
        choose_cell(big, max_size=99)


def test_animation_paths():
    assert animation.check_animation_path("a.GIF") == "GIF"
    assert animation.check_animation_path("a.apng") == "PNG"
    with pytest.raises(UsageError, match=r"\.gif, \.png, \.apng, \.webp"):
        animation.check_animation_path("a.jpg")


def test_steps_folder_with_step_pictures_is_refused(tmp_path):
    (tmp_path / "step-0000.png").write_bytes(b"")
    with pytest.raises(UsageError, match="already holds step pictures"):
        animation.check_steps_folder(tmp_path)
    (tmp_path / "file").write_text("")
    with pytest.raises(UsageError, match="not a folder"):
        animation.check_steps_folder(tmp_path / "file")


@pytest.mark.parametrize("ext", [".gif", ".webp"])
def test_frames_times_pixels_stay_bounded_at_one_pixel_a_cell(tmp_path, monkeypatch, ext):
    # cells of one pixel cannot shrink further: 2048 x 2048 with 300 frames held
    # 2.7 GB (issue 40); the frames are then fewer, each sharing more steps
    puzzle = open_puzzle(SAMPLES / "horse.rofl").puzzle
    trace = trace_solve(puzzle)
    asked = trace.frame_count("line", 300)
    painter = Painter(puzzle, Style(1))
    frame = painter.width * painter.height * (3 if ext == ".webp" else 1)
    monkeypatch.setattr(animation, "MAX_ANIMATION_PIXELS", 10 * frame)
    count = animation.animate_solve(puzzle, tmp_path / f"a{ext}", trace=trace, max_frames=300)
    assert asked > 10 and count == 10
    with Image.open(tmp_path / f"a{ext}") as image:
        assert image.n_frames == 10 and image.size == (painter.width, painter.height)
    monkeypatch.setattr(animation, "MAX_ANIMATION_PIXELS", frame)
    with pytest.raises(OptionError, match="cannot hold two frames"):
        animation.animate_solve(puzzle, tmp_path / f"b{ext}", trace=trace)
