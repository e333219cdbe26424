"""``rofl make`` from the command line: outputs, reports and one-line errors."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest
from PIL import Image

from rofl.formats import read_puzzle
from rofl.maker import MakeProgress
from rofl.render.page import page_data
from rofl.solver import solve
from tests.clirun import one_error_line, run, usage_error_line


@pytest.fixture(scope="module")
def picture(tmp_path_factory):
    import skimage.data

    p = tmp_path_factory.mktemp("pic") / "coffee.jpg"
    Image.fromarray(skimage.data.coffee()).save(p)
    return p


def test_make_json_preview_compare(picture, tmp_path):
    out, prev, comp = tmp_path / "c.json", tmp_path / "p.png", tmp_path / "c.png"
    r = run("make", picture, "-o", out, "-w", 20, "-c", 3, "--preview", prev, "--compare", comp)
    assert r.exit_code == 0, r.output
    assert "changed:" in r.output and f"wrote {out}, {prev}, {comp}\n" in r.output
    puzzle, solution = read_puzzle(out)
    assert puzzle.width == 20 and puzzle.n_colors == 3
    result = solve(puzzle)
    assert result.status == "solved" and (result.grid == solution).all()
    with Image.open(prev) as im:
        assert im.width % 20 == 0 and im.height % puzzle.height == 0
        cell = im.width // 20
        rgb = np.asarray(im.convert("RGB"))[::cell, ::cell]
        assert (rgb == puzzle.palette.to_array()[solution]).all()
    with Image.open(comp) as im:
        assert im.width > 3 * 20 * 4


def test_quiet_prints_nothing(picture, tmp_path):
    r = run("make", picture, "-o", tmp_path / "c.json", "-w", 10, "-q", "--dither", "ordered")
    assert r.exit_code == 0 and r.output == ""


def test_dither_warns(picture, tmp_path):
    r = run("make", picture, "-o", tmp_path / "c.json", "-w", 10, "--dither", "floyd-steinberg")
    assert r.exit_code == 0
    assert "warning: dithering multiplies clues" in r.output


# options click refuses: its usage banner, then one Error: line (exit status 2)
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["-c", "1"], ["--colors"]),
        (["-c", "99"], ["--colors"]),
        (["-w", "0"], ["--width"]),
        (["-H", "5000"], ["--height"]),
        (["--mode", "zoom"], ["--mode"]),
        (["--dither", "noise"], ["--dither"]),
        (["--palette", "#fff,#000", "-c", "3"], ["contradicts"]),
        (["-c", "3", "--threshold", "100"], ["--threshold"]),
        (["--palette", "#fff,#000,#f00", "--threshold", "100"], ["--threshold", "3 colours"]),
        (["--threshold", "300"], ["--threshold"]),
        (["--preview", "x.nope"], ["--preview"]),
        (["--effort", "-1"], ["--effort"]),
        (["--effort", "lots"], ["--effort"]),
        (["--seed", "-3"], ["--seed"]),
        (["--palette", "#fff"], ["--palette", "at least 2 colours"]),
        (["--palette", "#fff,#nothex"], ["--palette", "not a colour"]),
        (["--threshold", "nan"], ["--threshold", "not a finite number"]),
        (["--threads", "0"], ["--threads"]),
        (["--threads", "two"], ["--threads"]),
    ],
)
def test_bad_options_usage_error(picture, tmp_path, args, words):
    usage_error_line(run("make", picture, "-o", tmp_path / "x.json", *args), *words)


# values only the library can judge, during the work: usage errors all the same
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--background", "#123456"], ["white or black"]),
        (["--background", "nocolour"], ["background: 'nocolour' is not a colour"]),
    ],
)
def test_bad_values_judged_by_the_library_are_usage_errors(picture, tmp_path, args, words):
    usage_error_line(run("make", picture, "-o", tmp_path / "x.json", *args), *words)


def test_bad_output_extension(picture, tmp_path):
    usage_error_line(run("make", picture, "-o", tmp_path / "x.txt"), "extension")


@pytest.mark.parametrize("name", ["x.nin", "x.notmine"])
@pytest.mark.parametrize("args", [["-c", "3"], ["--palette", "#fff,#000,#f00"]])
def test_colour_into_a_black_and_white_format_is_refused_before_the_work(picture, tmp_path, name, args):
    usage_error_line(run("make", picture, "-o", tmp_path / name, *args), "black-and-white puzzles only", "3 colours")
    assert list(tmp_path.iterdir()) == []


def test_colour_into_non(picture, tmp_path):
    """.non holds colour puzzles in Nonny's extension."""
    out = tmp_path / "x.non"
    r = run("make", picture, "-o", out, "-w", 12, "-c", 3, "-q")
    assert r.exit_code == 0, r.output
    puzzle, goal = read_puzzle(out)
    assert puzzle.n_colors == 3 and goal is None
    assert out.read_text().count("\ncolor ") >= 2
    assert solve(puzzle).status == "solved"


def test_make_sheet_and_page(picture, tmp_path):
    out, sheet, page = tmp_path / "p.rofl", tmp_path / "s.svg", tmp_path / "p.html"
    r = run("make", picture, "-o", out, "-w", 12, "--sheet", sheet, "--page", page)
    assert r.exit_code == 0, r.output
    assert f"wrote {out}, {sheet}, {page}\n" in r.output
    assert sheet.read_text().startswith("<?xml") and "<svg" in sheet.read_text()
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    data = json.loads(re.search(r'<script type="application/json" id="rofl-puzzle">(.*?)</script>', html, re.S)[1])
    assert data == page_data(read_puzzle(out)[0], data["title"])  # the clues of the puzzle just made


def test_bad_page_name_is_refused_before_the_work(picture, tmp_path):
    usage_error_line(run("make", picture, "-o", tmp_path / "x.rofl", "--page", tmp_path / "x.txt"), "--page", ".html")
    assert list(tmp_path.iterdir()) == []


def test_black_and_white_text_formats(picture, tmp_path):
    for name in ("x.non", "x.nin", "x.xml", "x.g", "x.gno"):
        r = run("make", picture, "-o", tmp_path / name, "-w", "12", "-q")
        assert r.exit_code == 0, r.output
        assert run("solve", tmp_path / name, "--line-only").exit_code == 0


def test_gnonograms_size_warning(picture, tmp_path):
    r = run("make", picture, "-o", tmp_path / "x.gno", "-w", "60", "--no-trim")
    assert r.exit_code == 0, r.output
    assert f"warning: {tmp_path / 'x.gno'}: Gnonograms opens puzzles of 5 to 54 rows and columns only" in r.output
    assert "warning:" not in run("make", picture, "-o", tmp_path / "y.gno", "-w", "60", "-q").output
    assert "warning:" not in run("make", picture, "-o", tmp_path / "z.gno", "-w", "30").output


def test_missing_output_directory(picture, tmp_path):
    usage_error_line(run("make", picture, "-o", tmp_path / "no" / "x.json"), "does not exist")
    usage_error_line(
        run("make", picture, "-o", tmp_path / "x.json", "--compare", tmp_path / "no" / "c.png"), "--compare"
    )


def test_missing_output(picture):
    usage_error_line(run("make", picture), "-o")


def test_unreadable_inputs(tmp_path):
    one_error_line(run("make", tmp_path / "missing.png", "-o", tmp_path / "x.json"), "missing.png")
    text = tmp_path / "text.png"
    text.write_text("not a picture at all")
    one_error_line(run("make", text, "-o", tmp_path / "x.json"), "text.png", "not a picture")
    buf = io.BytesIO()
    Image.fromarray(np.random.default_rng(0).integers(0, 255, (50, 50, 3), dtype=np.uint8)).save(buf, "PNG")
    trunc = tmp_path / "trunc.png"
    trunc.write_bytes(buf.getvalue()[:200])
    one_error_line(run("make", trunc, "-o", tmp_path / "x.json"), "trunc.png", "cannot decode")
    assert not (tmp_path / "x.json").exists()


def test_make_rofl(picture, tmp_path):
    from rofl.formats import rofl as codec

    out = tmp_path / "c.rofl"
    r = run("make", picture, "-o", out, "-w", 16, "-q")
    assert r.exit_code == 0 and r.output == ""
    stored = codec.read(out)
    result = solve(stored.puzzle)
    assert result.status == "solved" and stored.crc32 == codec.picture_crc(result.grid)
    assert stored.puzzle.meta["title"] == "coffee"


def test_effort_and_seed(picture, tmp_path):
    # --effort 0 stops after the greedy pass; the default polishes, which
    # never changes more cells; the same seed gives the same puzzle.
    reports = {}
    for args in (["--effort", "0"], [], ["--seed", "0"], ["--effort", "2", "--seed", "5"]):
        out = tmp_path / f"p{len(reports)}.json"
        r = run("make", picture, "-o", out, "-w", "60", *args)
        assert r.exit_code == 0, r.output
        changed = int(r.output.split("changed: ")[1].split()[0])
        puzzle, _ = read_puzzle(out)
        assert solve(puzzle).status == "solved"
        reports[" ".join(args)] = (changed, puzzle, r.output)
    assert reports["--effort 0"][0] > 0  # something to polish
    assert "repair attempts" not in reports["--effort 0"][2]
    assert "repair attempts" in reports[""][2]
    assert reports[""][0] <= reports["--effort 0"][0]
    assert reports["--effort 2 --seed 5"][0] <= reports["--effort 0"][0]
    assert reports[""][1] == reports["--seed 0"][1]


def test_hint_when_many_cells_change(tmp_path):
    # scattered specks, like a star field: line logic can place few of them
    specks = np.where(np.random.default_rng(5).random((40, 40)) < 0.1, 0, 255).astype(np.uint8)
    p = tmp_path / "specks.png"
    Image.fromarray(specks).save(p)
    r = run("make", p, "-o", tmp_path / "n.json", "--effort", "0")
    assert r.exit_code == 0, r.output
    changed = float(r.output.split("changed: ")[1].split("(")[1].split("%")[0])
    assert changed > 2.0
    assert "hint:" in r.output and "--cleanup" in r.output and "--threshold" in r.output
    quiet = run("make", p, "-o", tmp_path / "n.json", "--effort", "0", "-q")
    assert quiet.output == ""


def test_effort_1_and_more_moves_changes(tmp_path):
    # Below 1, polishing only; from 1 on (the default) relocation too.
    specks = np.where(np.random.default_rng(9).random((40, 40)) < 0.1, 0, 255).astype(np.uint8)
    p = tmp_path / "specks.png"
    Image.fromarray(specks).save(p)
    changed = {}
    for effort in ("0.99", "1"):
        out = tmp_path / f"e{effort}.rofl"
        r = run("make", p, "-o", out, "--effort", effort, "--no-trim")
        assert r.exit_code == 0, r.output
        assert ("changes moved" in r.output) == (effort == "1")
        changed[effort] = int(r.output.split("changed: ")[1].split()[0])
        puzzle, _ = read_puzzle(out)
        assert solve(puzzle).status == "solved"
    assert changed["1"] < changed["0.99"]


def test_no_hint_for_a_smooth_picture(picture, tmp_path):
    # in colour: in black and white the coffee looks little like its photo at
    # any size (issue 46), and the hint says so
    r = run("make", picture, "-o", tmp_path / "c.json", "-w", "30", "-c", "4")
    assert r.exit_code == 0 and "hint:" not in r.output


class _FakeBar:
    def __init__(self, log, total, desc, unit, delay, leave, disable):
        self.log, self.total, self.desc, self.n = log, total, desc, 0
        log.append(("open", desc, total))

    def update(self, k):
        self.n += k

    def reset(self, total=None):
        self.total, self.n = total, 0
        self.log.append(("reset", self.desc, total))

    def close(self):
        self.log.append(("close", self.desc, self.n))


def test_one_bar_per_stage():
    from rofl.cli.make import _StageBars

    log = []
    bars = _StageBars(lambda **kw: _FakeBar(log, **kw), quiet=False)
    bars.show(MakeProgress("refining", "cell", 0, 50))
    bars.show(MakeProgress("refining", "cell", 50, 50))
    bars.show(MakeProgress("checking changes", "change", 0, 20))
    bars.show(MakeProgress("checking changes", "change", 19, 20))
    bars.show(MakeProgress("checking changes", "change", 0, 7))  # the next pass
    bars.show(MakeProgress("polishing", "try", 3, 30))
    bars.close()
    assert log == [
        ("open", "refining", 50),
        ("close", "refining", 50),
        ("open", "checking changes", 20),
        ("reset", "checking changes", 7),
        ("close", "checking changes", 0),
        ("open", "polishing", 30),
        ("close", "polishing", 3),
    ]
    quiet = _StageBars(lambda **kw: _FakeBar(log, **kw), quiet=True)
    quiet.show(MakeProgress("refining", "cell", 0, 5))
    assert len(log) == 7


def test_the_refining_bar_never_starts_over():
    # undetermined cells after each greedy round; a plateau move may add some
    from rofl.cli.make import _StageBars
    from rofl.maker import _refine_callbacks

    log = []
    bars = _StageBars(lambda **kw: _FakeBar(log, **kw), quiet=False)
    callbacks = _refine_callbacks(bars.show)
    shown = []
    for undetermined in (50, 40, 45, 42, 30, 0):
        callbacks["progress"](undetermined)
        shown.append(bars.bar.n)
    assert shown == [0, 10, 10, 10, 20, 50]
    callbacks["revert_progress"](0, 5)
    callbacks["progress"](0)  # refine's closing call comes after the later stages: ignored
    bars.close()
    assert log == [
        ("open", "refining", 50),
        ("close", "refining", 50),
        ("open", "checking changes", 5),
        ("close", "checking changes", 0),
    ]


def test_no_bar_off_a_terminal(capsys):
    """A log or a pipe gets the report lines only: a bar's carriage returns
    there once put 'refining: ...' in front of the report's first line."""
    import time

    from tqdm import tqdm

    from rofl.cli.make import _StageBars

    bars = _StageBars(tqdm, quiet=False)
    bars.show(MakeProgress("refining", "cell", 1, 50))
    time.sleep(1.1)  # past the bar's one-second delay
    bars.show(MakeProgress("refining", "cell", 40, 50))
    bars.close()
    assert capsys.readouterr().err == ""


def test_threads_make_the_same_puzzle_and_are_for_one_picture(picture, tmp_path):
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    assert run("make", picture, "-w", "30", "-o", one, "--threads", "1", "-q").exit_code == 0
    assert run("make", picture, "-w", "30", "-o", two, "--threads", "2", "-q").exit_code == 0
    assert one.read_bytes() == two.read_bytes()
    batch = run("make", picture, picture, "-o", f"{tmp_path / 'dir'}/", "--threads", "2")
    usage_error_line(batch, "--threads is for one picture", "-j/--jobs")
