"""``rofl solve --steps DIR`` and ``--gif FILE``: what is written, and what is refused."""

from __future__ import annotations

import shutil

import numpy as np
from PIL import Image

from rofl.formats import write_puzzle
from tests.clirun import run, usage_error_line
from tests.places import DATA_DIR, SAMPLES
from tests.solver.test_trace import BACKTRACKS


def n_frames(path) -> int:
    with Image.open(path) as image:
        return image.n_frames


def test_steps_and_gif_of_a_puzzle_that_needs_search(tmp_path):
    source = tmp_path / "p.json"
    write_puzzle(source, BACKTRACKS)
    steps, gif = tmp_path / "steps", tmp_path / "solve.gif"
    result = run("solve", source, "--no-color", "--steps", steps, "--gif", gif, "--max-frames", 1000)
    assert result.exit_code == 3, result.output  # two solutions: the trace shows the first it meets
    pictures = sorted(steps.glob("step-*.png"))
    assert len(pictures) == n_frames(gif) > 20
    assert f"{steps}: {len(pictures)} step pictures" in result.output
    assert f"{gif}: {len(pictures)} frames" in result.output and "the last is one of its solutions" in result.output
    with Image.open(pictures[-1]) as last:
        assert last.size[0] >= 5 * 24  # the default cell of a small puzzle


def test_frames_are_capped_and_sweeps_are_fewer(tmp_path):
    puzzle = SAMPLES / "camera.rofl"
    result = run("solve", puzzle, "--steps", tmp_path / "a", "--max-frames", 10)
    assert result.exit_code == 0, result.output
    assert len(list((tmp_path / "a").iterdir())) == 10
    result = run("solve", puzzle, "--steps", tmp_path / "b", "--steps-per", "sweep")
    line = run("solve", puzzle, "--steps", tmp_path / "c")
    assert result.exit_code == line.exit_code == 0
    assert 2 < len(list((tmp_path / "b").iterdir())) < len(list((tmp_path / "c").iterdir()))


def test_colour_pzl_example_animates_as_apng_and_webp(tmp_path):
    for name in ("k.png", "k.webp"):
        out = tmp_path / name
        result = run("solve", DATA_DIR / "pzl" / "kolobok.pzl", "--gif", out, "--steps-per", "sweep", "--scale", 4)
        assert result.exit_code == 0, result.output
        with Image.open(out) as image:
            assert image.n_frames > 5 and image.size[1] == 50 * 4 + 1 + 16


def test_line_only_ends_where_line_logic_stalls(tmp_path):
    from tests.solver.test_trace import PROBES

    source = tmp_path / "p.non"
    write_puzzle(source, PROBES)
    result = run("solve", source, "--line-only", "--gif", tmp_path / "a.gif")
    assert result.exit_code == 5
    assert "the last is where the trace stopped (stalled)" in result.output


def test_refusals(tmp_path):
    bad_ext = run("solve", SAMPLES / "horse.rofl", "--gif", tmp_path / "a.jpg")
    usage_error_line(bad_ext, "an animation is written as .gif")
    folder = tmp_path / "old"
    folder.mkdir()
    (folder / "step-0003.png").write_bytes(b"x")
    usage_error_line(run("solve", SAMPLES / "horse.rofl", "--steps", folder), "already holds step pictures")
    # the input itself (a ROFL file that happens to be named .gif) is never written over
    source = tmp_path / "horse.gif"
    shutil.copy(SAMPLES / "horse.rofl", source)
    before = source.read_bytes()
    usage_error_line(run("solve", source, "--gif", source), "is the input")
    assert source.read_bytes() == before
    usage_error_line(run("solve", SAMPLES / "horse.rofl", "--gif", tmp_path / "a.gif", "--max-frames", 1))
    usage_error_line(run("solve", SAMPLES / "horse.rofl", "--gif", tmp_path / "a.gif", "--delay", 0))
    usage_error_line(run("solve", SAMPLES / "horse.rofl", "--gif", tmp_path / "a.gif", "--max-size", 10), "--max-size")
    assert not (tmp_path / "a.gif").exists()
    usage_error_line(run("solve", SAMPLES / "horse.rofl", "--gif", tmp_path / "no" / "a.gif"), "does not exist")


def test_make_gif_shows_the_made_puzzle_solved(tmp_path):
    from rofl.formats import open_puzzle

    picture = tmp_path / "p.png"
    grid = np.zeros((10, 10), dtype=np.uint8)
    grid[2:8, 3:7] = 255
    grid[4, :] = 255
    Image.fromarray(grid).save(picture)
    result = run("make", picture, "-o", tmp_path / "p.json", "--gif", tmp_path / "p.gif", "-w", 10, "-q")
    assert result.exit_code == 0, result.output
    made = open_puzzle(tmp_path / "p.json")
    height, width = made.solution.shape
    with Image.open(tmp_path / "p.gif") as image:
        image.seek(image.n_frames - 1)
        last = np.asarray(image.convert("RGB"))
    cell = 24  # the default cell of a small puzzle
    left = (last.shape[1] - (width * cell + 1)) // 2
    centres = last[cell // 2 : height * cell : cell, left + cell // 2 : left + width * cell : cell]
    assert np.array_equal(centres, made.puzzle.palette.to_array()[made.solution])
    bad = run("make", picture, "-o", tmp_path / "q.json", "--gif", tmp_path / "q.jpg", "-q")
    usage_error_line(bad, "--gif", "an animation is written as")
    assert not (tmp_path / "q.json").exists()


def test_the_steps_of_an_ambiguous_puzzle_end_on_one_of_its_solutions(tmp_path):
    # issue 41: it said "the last is the solution" of a puzzle with two
    result = run("solve", SAMPLES / "two-ways.non", "--steps", tmp_path / "steps", "--no-color")
    assert result.exit_code == 3, result.output
    assert "the last is one of its solutions (the puzzle has more than one)" in result.output
    assert "the last is the solution" not in result.output
