"""Difficulty from the command line and the library: ``rofl make
--difficulty``, the lines of ``info`` and ``solve``, sheets, books, the
page, the batch summary and ``rofl bench``."""

from __future__ import annotations

import re

import numpy as np
import pytest
from PIL import Image

import rofl
from rofl.batch.tasks import make_task, options_key, solve_task
from rofl.errors import OptionError
from rofl.maker import MakeOptions
from rofl.refine.difficulty import EASY_LIMIT, STYLE_MARGIN, likeness, steer
from rofl.render.page import puzzle_page
from rofl.render.sheet import sheet_bytes
from tests.clirun import run, usage_error_line
from tests.places import SAMPLES

LINE = re.compile(r"difficulty: [1-5]/5 (easy|medium|hard|expert|needs guessing) \(\d+ steps, hardest: [a-z ]+, ")


def test_info_and_solve_print_the_grade():
    info = run("info", SAMPLES / "camera.rofl")
    assert info.exit_code == 0 and LINE.search(info.output), info.output
    solved = run("solve", SAMPLES / "camera.rofl")
    assert solved.exit_code == 0 and LINE.search(solved.output)
    line_only = run("solve", "--line-only", SAMPLES / "camera.rofl")
    assert line_only.exit_code == 0 and LINE.search(line_only.output)
    grade = rofl.grade(rofl.open_puzzle(SAMPLES / "camera.rofl").puzzle)
    assert f"difficulty: {grade.summary()}" in info.output


def test_two_solutions_need_guessing():
    shown = run("info", SAMPLES / "two-ways.non")
    assert "difficulty: 5/5 needs guessing" in shown.output
    # solve says it too, after the line that says what was proved, with and without --line-only
    for args in ([], ["--line-only"]):
        solved = run("solve", *args, SAMPLES / "two-ways.non")
        assert solved.exit_code in (3, 5), solved.output
        lines = solved.output.strip().splitlines()
        assert lines[-2].startswith(("multiple: ", "stalled: ")), solved.output
        assert lines[-1].startswith("difficulty: 5/5 needs guessing ("), solved.output


def test_a_puzzle_line_logic_stalls_on_is_graded_expert_by_solve_line_only(tmp_path):
    """Rows 2, (empty), 1 1 and every column 1: line logic stalls, probing finishes it."""
    probing = tmp_path / "probing.non"
    probing.write_text("width 4\nheight 3\nrows\n2\n0\n1,1\ncolumns\n1\n1\n1\n1\n")
    shown = run("solve", "--line-only", probing)
    assert shown.exit_code == 5, shown.output
    assert shown.output.strip().splitlines()[-1].startswith("difficulty: 4/5 expert ("), shown.output
    assert "difficulty: 4/5 expert (" in run("solve", probing).output


def test_no_grade_for_clues_without_a_solution(tmp_path):
    """info and solve say the clues have no solution and print no grade."""
    contradiction = tmp_path / "none.non"
    contradiction.write_text("width 2\nheight 2\nrows\n2\n0\ncolumns\n2\n0\n")
    for args in (["info"], ["solve"], ["solve", "--line-only"]):
        shown = run(*args, contradiction)
        assert "difficulty" not in shown.output and "no solution" in shown.output, shown.output


def test_make_difficulty_reports_the_grade(tmp_path):
    out = tmp_path / "easy.rofl"
    made = run("make", SAMPLES / "camera.jpg", "-o", out, "-w", 20, "--difficulty", "easy")
    assert made.exit_code == 0, made.output
    steered = re.search(r"difficulty: 1/5 easy \(.*\); (\d+) cells changed to steer it", made.output)
    assert steered, made.output
    # the changed line counts steering's cells too, and says so
    changed = re.search(r"changed: (\d+) cells \([\d.]+%\) in all, to make it unique and steer it;", made.output)
    assert changed and int(changed.group(1)) >= 0, made.output
    assert "to make it unique;" not in made.output
    assert rofl.solve(rofl.open_puzzle(out).puzzle).status == "solved"


def test_bad_difficulty(tmp_path):
    usage_error_line(
        run("make", SAMPLES / "camera.jpg", "-o", tmp_path / "x.rofl", "--difficulty", "trivial"), "--difficulty"
    )
    with pytest.raises(OptionError, match="difficulty must be one of easy, medium, hard, expert"):
        rofl.make(SAMPLES / "camera.jpg", width=10, difficulty="trivial")
    with pytest.raises(OptionError, match="rectangular puzzles only"):
        rofl.make(SAMPLES / "camera.jpg", shape="hex", size=4, difficulty="easy")
    usage_error_line(
        run("make", SAMPLES / "camera.jpg", "-o", tmp_path / "x.clues", "--shape", "hex", "--difficulty", "easy"),
        "rectangular",
    )
    # '?' groups, which rofl.grade does not grade: the grade reached would not be the puzzle's
    out = tmp_path / "unknown.rofl"
    shown = run("make", SAMPLES / "coffee.jpg", "-o", out, "-c", 3, "--unknown-colours", 0.3, "--difficulty", "easy")
    usage_error_line(shown, "--difficulty", "--unknown-colours")
    assert not out.exists()
    # a batch too, before any work: no picture failed one by one, no folder or summary
    batch = tmp_path / "hexagons"
    pictures = (SAMPLES / "camera.jpg", SAMPLES / "rocket.jpg")
    usage_error_line(run("make", *pictures, "-o", f"{batch}/", "--shape", "hex", "--difficulty", "easy"), "rectangular")
    assert not batch.exists()


def _noise(seed: int, n: int = 24) -> np.ndarray:
    """A blurred random picture: a puzzle with some difficulty in it."""
    from scipy.ndimage import gaussian_filter

    rng = np.random.default_rng(seed)
    return (gaussian_filter(rng.random((n * 4, n * 4)), 5) * 255).astype(np.uint8)


def test_steering_stays_within_its_limits_and_line_solvable():
    picture = _noise(1)
    base = rofl.make(picture, width=24, height=24)
    start = rofl.grade(base.puzzle)
    easier = steer(base.grid, base.palette, base.quantised, "easy", cost=base.cost)
    assert easier.difficulty.score <= start.score
    assert np.count_nonzero(easier.grid != base.quantised) <= max(
        EASY_LIMIT * base.grid.size, np.count_nonzero(base.grid != base.quantised)
    )
    assert rofl.solve(rofl.Puzzle.from_grid(easier.grid, base.palette)).status == "solved"
    # a note when easy is missed, or when refinement's changes pass easy's limit even after steering gave
    # back what it could (then steering adds none)
    passed = np.count_nonzero(easier.grid != base.quantised) > int(EASY_LIMIT * base.grid.size)
    assert not passed or np.count_nonzero(easier.grid != base.quantised) <= np.count_nonzero(
        base.grid != base.quantised
    )
    assert (easier.difficulty.grade <= 1 and not passed) == (easier.note is None)
    assert passed == (easier.note or "").startswith("difficulty: refinement alone changed ")
    harder = steer(base.grid, base.palette, base.quantised, "expert", cost=base.cost)
    assert harder.difficulty.score >= start.score
    # beyond refinement's changes (steering may put back one a move made needless: a cell of room back)
    assert np.count_nonzero(harder.grid != base.quantised) <= np.count_nonzero(base.grid != base.quantised) + max(
        1, int(0.005 * base.grid.size)
    )
    assert rofl.solve(rofl.Puzzle.from_grid(harder.grid, base.palette)).status == "solved"
    if harder.note:
        assert harder.note.startswith("difficulty: expert not reached within ")
    same = steer(base.grid, base.palette, base.quantised, start.name, cost=base.cost) if start.grade < 5 else None
    if same is not None and start.grade <= 4:
        assert same.added == 0 and same.note is None


def test_a_steering_stopped_by_its_work_says_so_not_the_cells():
    """With room left in its cells, a steering that runs out of work names
    its work limit and the share changed, not a cell limit it never reached."""
    base = rofl.make(_noise(1), width=24, height=24)
    start = rofl.grade(base.puzzle)
    target = "easy" if start.grade > 1 else "expert"
    stopped = steer(base.grid, base.palette, base.quantised, target, cost=base.cost, max_work=1)
    changed = np.count_nonzero(stopped.grid != base.quantised) / base.grid.size
    assert stopped.difficulty.grade == start.grade  # one round of work: no move judged to the end
    assert stopped.note is not None and "the steering's work limit" in stopped.note, stopped.note
    assert f"({changed:.1%} of the cells changed)" in stopped.note


def test_the_effort_budget_stops_make_and_says_so_in_one_line(tmp_path, monkeypatch):
    """A budget of one grader round: steering stops after its first step, the
    puzzle is still unique and line-solvable with its grade reported, and
    one line of ``rofl make``'s report says the budget stopped the search."""
    from rofl.refine import difficulty

    monkeypatch.setattr(difficulty, "MAKE_WORK", 1)
    picture = tmp_path / "noise.png"
    Image.fromarray(_noise(4)).save(picture)  # hard (27.1) in the photo style
    out = tmp_path / "easy.rofl"
    made = run("make", picture, "-o", out, "-w", 24, "-H", 24, "--style", "photo", "--difficulty", "easy")
    assert made.exit_code == 0, made.output
    said = [line for line in made.output.splitlines() if "effort budget" in line]
    assert len(said) == 1 and said[0].startswith("difficulty: ") and said[0].endswith(difficulty.Budget().note())
    puzzle = rofl.open_puzzle(out).puzzle
    assert rofl.solve(puzzle).status == "solved"  # line logic alone: unique
    assert f"difficulty: {rofl.grade(puzzle).summary()}" in made.output
    # without the cap the same make steers further: the budget is what stopped it
    monkeypatch.undo()
    free = rofl.make(_noise(4), width=24, height=24, style="photo", difficulty="easy")
    assert "effort budget" not in (free.stats.difficulty_note or "")
    assert free.stats.difficulty.score < rofl.grade(puzzle).score


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_easy_is_no_harder_than_hard(seed):
    picture = _noise(seed, 30)
    easy = rofl.make(picture, width=30, height=30, difficulty="easy")
    hard = rofl.make(picture, width=30, height=30, difficulty="hard")
    assert easy.stats.difficulty.score <= hard.stats.difficulty.score
    assert easy.stats.difficulty.grade <= hard.stats.difficulty.grade
    for made in (easy, hard):
        assert rofl.solve(made.puzzle).status == "solved"
        assert made.stats.difficulty == rofl.grade(made.puzzle)


@pytest.mark.slow
@pytest.mark.parametrize("picture", ["camera.jpg", "horse.png", "coffee.jpg", "rocket.jpg"])
def test_easy_grades_lower_than_hard_on_the_sample_photos(picture):
    """--difficulty ordering on real pictures (the benchmark's 22 photos in
    docs/benchmarks.md): easy a lower grade than hard, within easy's 2%, both
    line-solvable."""
    for width in (20, 30):
        easy = rofl.make(SAMPLES / picture, width=width, difficulty="easy")
        hard = rofl.make(SAMPLES / picture, width=width, difficulty="hard")
        assert easy.stats.difficulty.grade < hard.stats.difficulty.grade, (width, easy.stats, hard.stats)
        assert easy.stats.n_changed <= int(EASY_LIMIT * easy.grid.size)
        for made in (easy, hard):
            assert rofl.solve(made.puzzle).status == "solved"


@pytest.mark.slow
def test_a_textured_photo_eases_through_a_smoothed_drawing():
    """The cat's fur at 50 cells: every drawing is expert, even steered within
    2%; easy takes the lines drawing smoothed (picture.smooth) and steers it to
    a lower grade than hard's, within 2% and the likeness margin, and says how
    it was drawn."""
    import skimage.data

    photo = skimage.data.chelsea()
    plain = rofl.make(photo, width=50, height=50, mode="crop")
    easy = rofl.make(photo, width=50, height=50, mode="crop", difficulty="easy")
    hard = rofl.make(photo, width=50, height=50, mode="crop", difficulty="hard")
    assert easy.stats.smoothed and not hard.stats.smoothed and not plain.stats.smoothed
    assert easy.stats.difficulty.grade < hard.stats.difficulty.grade
    assert easy.stats.n_changed <= int(EASY_LIMIT * easy.grid.size)
    assert likeness(easy) >= likeness(plain) - STYLE_MARGIN
    assert "drawn smoothed" in easy.stats.report() and "drawn smoothed" not in hard.stats.report()
    for made in (easy, hard):
        assert rofl.solve(made.puzzle).status == "solved"
        assert made.stats.difficulty == rofl.grade(made.puzzle)


def test_sheet_book_and_page_show_the_grade(tmp_path):
    puzzle = rofl.open_puzzle(SAMPLES / "horse.rofl").puzzle
    grade = rofl.grade(puzzle)
    svg = sheet_bytes(puzzle, ".svg", difficulty=True).decode()
    assert f"({grade.name}, {grade.grade}/5)" in svg
    assert f"({grade.name}, " not in sheet_bytes(puzzle, ".svg").decode()
    shown = puzzle_page(puzzle, difficulty=True)
    assert 'id="difficulty"' in shown and f"Difficulty: {grade.name}" in shown
    assert 'id="difficulty"' not in puzzle_page(puzzle)
    page = tmp_path / "p.html"
    assert run("page", SAMPLES / "horse.rofl", "-o", page, "--difficulty").exit_code == 0
    assert f"Difficulty: {grade.name}" in page.read_text(encoding="utf-8")
    book = tmp_path / "book.pdf"
    files = [SAMPLES / "camera.rofl", SAMPLES / "horse.rofl"]
    made = run("sheet", *files, "-o", book, "--difficulty", "--order", "difficulty")
    assert made.exit_code == 0, made.output
    sheet = tmp_path / "one.svg"
    assert run("sheet", files[1], "-o", sheet, "--difficulty").exit_code == 0
    assert f"({grade.name}, {grade.grade}/5)" in sheet.read_text(encoding="utf-8")


def test_a_book_sorted_and_titled_by_difficulty_grades_each_puzzle_once(tmp_path, monkeypatch):
    """The command grades to order the book (and to warn), its titles show
    the same grade: rofl.grade runs once a puzzle, not once for each."""
    import rofl.solver.grade as graded

    calls = []
    real = graded.grade
    monkeypatch.setattr(graded, "grade", lambda puzzle: calls.append(puzzle) or real(puzzle))
    graded.grade_shown.cache_clear()  # an earlier test may have graded these puzzles
    files = (SAMPLES / "rocket.rofl", SAMPLES / "two-ways.non", SAMPLES / "horse.rofl")
    assert run("sheet", *files, "-o", tmp_path / "b.pdf", "--difficulty", "--order", "difficulty").exit_code == 0
    assert len(calls) == len(files) == len(set(calls))
    graded.grade_shown.cache_clear()


def test_a_title_cut_short_on_a_pdf_keeps_its_grade():
    """A page-filling PDF sheet cuts a long title to the page's width: the
    ellipsis goes before the grade, not over it (a book's pages alike)."""
    from tests.pdfread import read_pdf

    puzzle = rofl.open_puzzle(SAMPLES / "horse.rofl").puzzle
    grade = rofl.grade(puzzle)
    long = "A horse standing in a field near the barn at dusk, " * 4
    title = max(read_pdf(sheet_bytes(puzzle, ".pdf", title=long, difficulty=True))["texts"], key=lambda t: t["size"])
    assert title["text"].startswith("A horse standing") and "\u2026" in title["text"], title
    assert title["text"].endswith(f"\u2026 ({grade.name}, {grade.grade}/5)"), title
    plain = max(read_pdf(sheet_bytes(puzzle, ".pdf", title=long))["texts"], key=lambda t: t["size"])
    assert plain["text"].endswith("\u2026") and "(" not in plain["text"], plain


def test_easiest_first_in_a_book():
    from rofl.cli.sheet import _easiest_first

    puzzles = [rofl.open_puzzle(SAMPLES / name).puzzle for name in ("two-ways.non", "camera.rofl", "horse.rofl")]
    ordered, tags = _easiest_first(puzzles, ["a", "b", "c"], [rofl.grade(p) for p in puzzles])
    grades = [rofl.grade(p) for p in ordered]
    assert [(g.grade, g.score) for g in grades] == sorted((g.grade, g.score) for g in grades)
    assert tags[-1] == "a"  # needs guessing: last


def test_a_sheet_book_or_page_says_when_a_puzzle_is_not_graded(tmp_path):
    """Asked for grades, a puzzle rofl does not grade (no solution, '?'
    groups) gets a warning line, not silence; it is drawn without one, last
    in a book ordered by difficulty."""
    contradiction = tmp_path / "none.non"
    contradiction.write_text('title "None"\nwidth 2\nheight 2\nrows\n2\n0\ncolumns\n2\n0\n')
    book = tmp_path / "book.pdf"
    made = run("sheet", contradiction, SAMPLES / "horse.rofl", "-o", book, "--difficulty", "--order", "difficulty")
    assert made.exit_code == 0, made.output
    assert made.stderr == f"warning: {contradiction}: not graded (the clues have no solution), so no grade is shown\n"
    from tests.pdfread import read_pdf

    titles = [max(read_pdf(book.read_bytes(), i)["texts"], key=lambda t: t["size"])["text"] for i in (0, 1)]
    assert titles[0].startswith("1. horse (") and titles[1] == "2. None", titles
    for command, out in (("sheet", tmp_path / "flower.svg"), ("page", tmp_path / "flower.html")):
        shown = run(command, SAMPLES / "hex-flower.clues", "-o", out, "--difficulty")
        assert shown.exit_code == 0 and out.exists(), shown.output
        assert shown.stderr.startswith("warning: ") and "'?' groups" in shown.stderr, shown.stderr
        assert len(shown.stderr.splitlines()) == 1
    assert run("sheet", SAMPLES / "horse.rofl", "-o", tmp_path / "h.svg", "--difficulty").stderr == ""


def test_batch_rows_and_bench_rows_have_the_grade():
    data = (SAMPLES / "camera.jpg").read_bytes()
    _, row = make_task(data, "camera.jpg", MakeOptions(width=16))
    assert row["grade"] in range(1, 6) and row["difficulty"] and row["difficulty_score"] is not None
    steered = make_task(data, "camera.jpg", MakeOptions(width=16, difficulty="easy"))[1]
    assert steered["key"] != row["key"]
    assert options_key(MakeOptions(width=16), ".rofl", data) == row["key"]
    bench = solve_task((SAMPLES / "camera.rofl").read_bytes(), "camera.rofl", 1.0)
    assert bench["grade"] == rofl.grade(rofl.open_puzzle(SAMPLES / "camera.rofl").puzzle).grade
    assert bench["difficulty"]


@pytest.mark.slow
def test_easy_keeps_its_limit_or_says_so():
    """Easy never passes 2% in silence: a field of specks (many 2x2 swaps
    open) needs more changed to be unique; easy refines it again, longer
    (never keeping more changes than make without it), and a line says it is
    still over; the puzzle unique and line-solvable."""
    rng = np.random.default_rng(0)
    specks = np.where(rng.random((24, 24)) < 0.08, 0, 255).astype(np.uint8)
    plain = rofl.make(specks, width=24, height=24, style="photo", trim=False)
    easy = rofl.make(specks, width=24, height=24, style="photo", trim=False, difficulty="easy")
    assert rofl.solve(easy.puzzle).status == "solved"
    assert plain.stats.n_changed > int(EASY_LIMIT * plain.grid.size)
    assert easy.stats.n_changed <= plain.stats.n_changed
    assert easy.stats.difficulty_note.startswith("difficulty: refinement alone changed ")
    assert "\n" not in easy.stats.difficulty_note
    # within the limit: a picture easy eases stays within it, or says the grade was out of reach
    easy = rofl.make(_noise(3, 30), width=30, height=30, style="photo", difficulty="easy")
    assert easy.stats.n_changed <= int(EASY_LIMIT * easy.grid.size)
    assert (easy.stats.difficulty.grade == 1) == (easy.stats.difficulty_note is None)
