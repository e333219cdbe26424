"""Steering the picture pipeline toward a grade
(:func:`rofl.refine.difficulty.pick_style`): which drawing's puzzle
``rofl make --difficulty`` keeps, and that ``make`` passes it the styles
auto may keep."""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pytest

import rofl
from rofl.refine.difficulty import (
    FAR_MARGIN,
    KEEP_CELLS,
    LAST_THRESHOLDS,
    SOLVES_PER_ROUND,
    STYLE_MARGIN,
    THRESHOLDS,
    Budget,
    likeness,
    pick_style,
)
from rofl.solver.grade import NAMES, Difficulty, Technique

LOW, MID, HIGH = (float(cut) for cut in THRESHOLDS[1:4])


@dataclass(frozen=True)
class _Stats:
    style: str
    difficulty: object
    changed_pct: float
    ssim: float
    edge_f1: float
    colors: int = 2
    threshold: float | None = None
    difficulty_note: str | None = None
    steered: int = 0
    cleanup: bool = False
    line_solves: int = 1000


@dataclass(frozen=True)
class _Made:
    """A stand-in for a MakeResult: the figures pick_style reads."""

    stats: _Stats
    grid: np.ndarray


def _made(style, grade, *, like=1.0, changed=0.5, score=10.0, threshold=None, side=30, note=None):
    difficulty = Difficulty(grade, NAMES[grade], 10, Technique.JOINING, (1, 1, 8, 0, 0), 0, 1, 1, 0, score)
    grid = np.zeros((side, side), dtype=np.uint8)
    grid[0, 0] = 1
    return _Made(
        _Stats(style, difficulty, changed, like / 2, like / 2, threshold=threshold, difficulty_note=note), grid
    )


def _pick(first, target, eligible, drawn, steered=None, plain=None, budget=None):
    """``drawn[(style, threshold)]``: the unsteered drawing, ``(style, "clean")`` with its specks repainted,
    ``(style, "smooth")`` smoothed (none by default); ``steered``: the same steered (default: as drawn)."""
    asked = []

    def made(name, cut=None, steered_=True, **kw):
        steered_ = kw.get("steered", steered_)
        key = (name, "clean") if kw.get("cleanup") else (name, "smooth") if kw.get("smooth") else (name, cut)
        asked.append((*key, steered_))
        found = drawn.get(key, _blank(name)) if key[1] in ("clean", "smooth") else drawn[key]
        return (steered or {}).get(key, found) if steered_ else found

    return pick_style(first, target, eligible, made, plain=plain, budget=budget), asked


def _blank(style, cut=None):
    return _made(style, 1, like=0.0, threshold=cut)


def _all(**given):
    """Every drawing pick_style asks for: the ones given, the rest drawing nothing."""
    drawn = {("lines", None): _blank("lines"), ("poster", None): _blank("poster"), ("photo", None): _blank("photo")}
    drawn.update({("photo", float(cut)): _blank("photo", float(cut)) for cut in THRESHOLDS + LAST_THRESHOLDS})
    drawn.update(given)
    return drawn


def test_a_grade_reached_keeps_autos_drawing_and_makes_nothing_more():
    first = _made("lines", 1)
    kept, asked = _pick(first, "easy", ("photo", "lines", "poster"), {})
    assert kept is first and asked == []


def test_the_drawing_closest_to_the_grade_within_the_margin():
    first = _made("lines", 4, like=1.1, score=80)
    photo = _made("photo", 2, like=1.0, score=15)
    poster = _made("poster", 1, like=1.1 - STYLE_MARGIN - 0.01, score=5)  # too far below lines' likeness
    kept, asked = _pick(first, "easy", ("photo", "lines", "poster"), _all() | {
        ("photo", None): photo, ("poster", None): poster})  # fmt: skip
    assert kept is photo
    assert ("photo", None, True) in asked and ("poster", None, True) not in asked
    # every other drawing is looked at unsteered: the other styles, every style with its specks repainted
    # (auto's first), and the photo at each threshold (none smoothed: photo is medium, not textured)
    unsteered = [(name, cut) for name, cut, steered in asked if not steered]
    assert set(unsteered) == {
        ("photo", None), ("poster", None), ("lines", "clean"), ("photo", "clean"), ("poster", "clean"),
        *(("photo", float(cut)) for cut in THRESHOLDS)}  # fmt: skip
    assert unsteered[2] == ("lines", "clean")
    # hard: the drawing that reaches hard, from above or below; one at the grade is not steered again
    at_cut = _made("photo", 3, like=1.0, threshold=MID)
    kept, asked = _pick(_made("lines", 4), "hard", ("photo", "lines", "poster"), _all() | {
        ("photo", MID): at_cut, ("poster", None): _made("poster", 2)})  # fmt: skip
    assert kept.stats.style == "photo" and kept.stats.threshold == MID and kept.stats.difficulty.grade == 3
    assert ("photo", MID, True) not in asked


def test_no_thresholds_when_a_style_auto_may_keep_has_the_grade():
    first = _made("lines", 4, like=1.1, score=80)
    kept, asked = _pick(first, "easy", ("photo", "lines"), _all() | {("photo", None): _made("photo", 1)})
    assert kept.stats.style == "photo" and kept.stats.difficulty.grade == 1
    assert asked == [("photo", None, False)]  # at the grade already: not steered again either


def test_thresholds_only_for_black_and_white_photos():
    first = _made("poster", 3)
    _, asked = _pick(first, "easy", ("poster", "lines"), _all())
    assert {(name, cut) for name, cut, _ in asked} == {("lines", None), ("poster", "clean"), ("lines", "clean")}


def test_ties_keep_the_likelier_picture_missed_grades_the_nearer_score():
    first = _made("lines", 4, like=1.1, score=90)
    kept, _ = _pick(first, "easy", ("photo", "lines"), _all() | {("photo", None): _made("photo", 4, score=50)})
    assert kept.stats.style == "photo"  # expert both, but nearer easy
    closer = _made("poster", 1, like=1.05)
    drawn = _all() | {("photo", None): _made("photo", 1, like=0.95), ("poster", None): closer}
    kept, _ = _pick(first, "easy", ("photo", "lines", "poster"), drawn)
    assert kept.stats.style == "poster"  # the likelier of two at the grade


def test_easy_keeps_its_limit_at_any_likeness_and_says_so():
    first = _made("lines", 3, like=1.1, changed=3.5)
    within = _made("photo", 1, like=1.1 - FAR_MARGIN + 0.05, changed=1.5, threshold=LOW)
    over = _made("photo", 2, like=1.05, changed=3.0)
    kept, _ = _pick(first, "easy", ("photo", "lines"), _all() | {("photo", LOW): within, ("photo", None): over})
    assert kept.stats.threshold == LOW and kept.stats.changed_pct == 1.5
    assert kept.stats.difficulty_note.startswith("difficulty: easy's 2% limit kept only by drawing the picture in ")
    assert f"threshold {LOW:.0f}" in kept.stats.difficulty_note and "\n" not in kept.stats.difficulty_note
    # no drawing within it: the one that passes it least, and one line says so
    kept, _ = _pick(first, "easy", ("photo", "lines"), _all() | {("photo", None): over})
    assert kept is not first and kept.stats.changed_pct == 3.0
    assert kept.stats.difficulty_note.startswith("difficulty: every drawing tried that keeps the picture's size")


def test_the_margin_is_measured_from_autos_puzzle_before_steering():
    # steering made auto's puzzle a little less like the picture: the margin is from the puzzle make gives without it
    first = _made("lines", 4, like=1.1, score=80)
    further = _made("photo", 1, like=1.0)  # within 0.2 of the steered 1.1, not of the plain 1.3
    kept, _ = _pick(first, "easy", ("photo", "lines"), _all() | {("photo", None): further}, plain=1.3)
    assert kept is first
    kept, _ = _pick(first, "easy", ("photo", "lines"), _all() | {("photo", None): further}, plain=1.1)
    assert kept.stats.style == "photo" and kept.stats.difficulty.grade == 1


def test_easy_refines_a_drawing_within_the_margin_again_before_going_further():
    # every drawing within the margin past 2% unsteered; steered (refined again, longer) one keeps within it
    first = _made("lines", 3, like=1.1, changed=3.5)
    faithful = _made("photo", 4, like=1.0, changed=2.2, score=60)
    kept_within = _made("photo", 3, like=1.0, changed=1.9, score=30)
    further = _made("photo", 1, like=0.8, changed=1.0, threshold=LOW)
    drawn = _all() | {("photo", None): faithful, ("photo", LOW): further}
    kept, asked = _pick(first, "easy", ("photo", "lines"), drawn, steered={("photo", None): kept_within})
    assert kept is kept_within and asked.count(("photo", None, True)) == 1
    assert kept.stats.difficulty_note is None
    # when that does not keep within it either, the limit binds: the drawing further, and one line says so
    kept, _ = _pick(first, "easy", ("photo", "lines"), drawn)
    assert kept.stats.threshold == LOW and "limit kept only by drawing" in kept.stats.difficulty_note


def test_easys_last_resort_is_the_photo_at_darker_thresholds():
    first = _made("lines", 3, like=1.1, changed=3.5)
    dark = float(LAST_THRESHOLDS[2])
    drawn = _all() | {("photo", None): _made("photo", 4, changed=3.0), ("photo", dark): _made(
        "photo", 2, like=0.8, changed=1.9, threshold=dark)}  # fmt: skip
    kept, asked = _pick(first, "easy", ("photo", "lines"), drawn)
    assert kept.stats.threshold == dark and kept.stats.changed_pct <= 2.0
    assert "limit kept only by drawing the picture in the photo style at threshold" in kept.stats.difficulty_note
    assert {("photo", float(cut), False) for cut in LAST_THRESHOLDS} <= set(asked)
    # not while a drawing at the usual thresholds keeps within it
    _, asked = _pick(first, "easy", ("photo", "lines"), drawn | {("photo", LOW): _made("photo", 4, changed=1.0)})
    assert not {("photo", float(cut), False) for cut in LAST_THRESHOLDS} & set(asked)
    # nor for hard
    _, asked = _pick(_made("lines", 1, like=1.1, changed=3.5), "hard", ("photo", "lines"), drawn)
    assert asked and not {("photo", float(cut), False) for cut in LAST_THRESHOLDS} & set(asked)


def test_easys_limit_takes_a_drawing_further_from_the_picture_only_when_it_is_easier():
    # hubble_deep_field at 30 cells, whole: auto's poster medium at 2.06%; the photo at a dark threshold keeps
    # within 2% but is expert and unlike the picture, so the faithful medium one is kept, and one line says so
    first = _made("poster", 2, like=1.0, changed=2.06, score=17.6)
    dark = float(LAST_THRESHOLDS[2])
    drawn = _all() | {("photo", None): _made("photo", 4, like=0.9, changed=2.5), ("photo", dark): _made(
        "photo", 4, like=0.7, changed=1.99, threshold=dark, score=95.0)}  # fmt: skip
    kept, _ = _pick(first, "easy", ("photo", "poster"), drawn)
    assert kept.stats.style == "poster" and kept.stats.changed_pct == 2.06
    assert kept.stats.difficulty_note.startswith("difficulty: easy's 2% limit passed (2.06% of the cells changed)")
    assert "\n" not in kept.stats.difficulty_note
    # at the same grade too: the likelier picture
    drawn[("photo", dark)] = _made("photo", 2, like=0.7, changed=1.99, threshold=dark, score=12.0)
    kept, _ = _pick(first, "easy", ("photo", "poster"), drawn)
    assert kept.stats.style == "poster" and kept.stats.changed_pct == 2.06
    # easier further away: easy's limit binds
    drawn[("photo", dark)] = _made("photo", 1, like=0.7, changed=1.99, threshold=dark)
    kept, _ = _pick(first, "easy", ("photo", "poster"), drawn)
    assert kept.stats.threshold == dark and "limit kept only by drawing" in kept.stats.difficulty_note


def test_drawings_of_nothing_or_shrunk_by_trim_are_not_taken():
    first = _made("lines", 4, like=1.0, score=80)
    shrunk = _made("photo", 1, like=1.0, threshold=HIGH, side=int(30 * KEEP_CELLS**0.5) - 1)
    kept, _ = _pick(first, "easy", ("photo", "lines"), _all() | {("photo", HIGH): shrunk})
    assert kept is first
    assert likeness(_blank("photo")) == 0.0 and likeness(first) == pytest.approx(1.0)


@pytest.mark.slow
def test_make_keeps_a_drawing_auto_may_keep():
    """End to end: the style kept is one of auto's, its likeness within the
    margin of auto's, and the puzzle line-solvable with the grade reported."""
    rng = np.random.default_rng(5)
    from scipy.ndimage import gaussian_filter

    picture = (gaussian_filter(rng.random((120, 120)), 4) * 255).astype(np.uint8)
    auto = rofl.make(picture, width=30, height=30)
    scores = dict(auto.stats.style_scores)
    for target in ("easy", "hard"):
        made = rofl.make(picture, width=30, height=30, difficulty=target)
        assert made.stats.style in scores and made.stats.style not in dict(auto.stats.style_dropped)
        assert made.stats.style_scores == auto.stats.style_scores
        assert rofl.solve(made.puzzle).status == "solved"
        assert made.stats.difficulty == rofl.grade(made.puzzle)
        if target == "easy":
            assert made.stats.changed_pct <= 2.0 + 1e-9
        if made.stats.difficulty_note is None or "likeness" not in made.stats.difficulty_note:
            assert likeness(made) >= likeness(auto) - STYLE_MARGIN - 1e-9


def test_easy_never_takes_a_drawing_further_than_twice_the_margin():
    # within 2% only in a drawing that no longer shows the photo: easy passes its limit instead, and says so
    first = _made("lines", 3, like=1.1, changed=3.5)
    dark = float(LAST_THRESHOLDS[2])
    noise = _made("photo", 1, like=1.1 - FAR_MARGIN - 0.05, changed=1.0, threshold=dark)
    over = _made("photo", 2, like=1.05, changed=3.0)
    kept, asked = _pick(first, "easy", ("photo", "lines"), _all() | {("photo", dark): noise, ("photo", None): over})
    assert ("photo", dark, False) in asked  # looked at, not taken
    assert kept.stats.changed_pct == 3.0 and kept.stats.style == "photo" and kept.stats.threshold is None
    assert kept.stats.difficulty_note.startswith("difficulty: every drawing tried that keeps the picture's size")


def test_the_effort_budget_stops_the_search_and_says_so():
    first = _made("lines", 4, like=1.1, score=80)
    # enough for three drawings: the rest are not made, and the note says the budget stopped the search
    budget = Budget(left=3 * first.stats.line_solves // SOLVES_PER_ROUND, reserve=0)
    kept, asked = _pick(first, "easy", ("photo", "lines", "poster"), _all(), budget=budget)
    assert len(asked) == 3 and budget.stopped
    assert kept.stats.difficulty_note.endswith(Budget().note()) and "\n" not in kept.stats.difficulty_note
    # the best drawing made before the budget ran out is kept, as drawn (not steered)
    drawn = _all() | {("poster", None): _made("poster", 2, like=1.05, score=15)}
    kept, asked = _pick(first, "easy", ("photo", "lines", "poster"), drawn, budget=Budget(left=300, reserve=0))
    assert kept.stats.style == "poster" and kept.stats.steered == 0 and ("poster", None, True) not in asked
    assert kept.stats.difficulty_note == f"difficulty: easy not reached; the puzzle is medium (2/5); {Budget().note()}"
    # a budget that lasts: every drawing made, no such note
    budget = Budget()
    kept, asked = _pick(first, "easy", ("photo", "lines", "poster"), _all(), budget=budget)
    assert len(asked) > 3 and not budget.stopped and Budget().note() not in (kept.stats.difficulty_note or "")


def test_a_drawing_with_its_specks_repainted_may_be_taken():
    # cleanup repaints isolated cells before refinement: fewer changes, often an easier puzzle
    first = _made("lines", 4, like=1.1, score=80)
    clean = _made("lines", 1, like=1.12)
    kept, asked = _pick(first, "easy", ("photo", "lines"), _all() | {("lines", "clean"): clean})
    assert kept.grid is clean.grid and ("lines", "clean", False) in asked
    assert not any(isinstance(cut, float) for _, cut, _ in asked)  # it has the grade: no thresholds
    # not again when the picture was cleaned up already
    cleaned = _made("lines", 4, like=1.1, score=80)
    cleaned = _Made(replace(cleaned.stats, cleanup=True), cleaned.grid)
    _, asked = _pick(cleaned, "easy", ("photo", "lines"), _all() | {("lines", "clean"): clean})
    assert not any(cut == "clean" for _, cut, _ in asked)


def test_drawings_leave_the_budgets_reserve_for_steering():
    first = _made("lines", 4, like=1.1, score=80)
    cost = first.stats.line_solves // SOLVES_PER_ROUND
    promising = _made("poster", 4, like=1.05, score=45)
    steered = _made("poster", 3, like=1.04, changed=1.5, score=30)
    drawn = _all() | {("poster", None): promising}
    # two drawings' worth above the reserve: two made, then the most promising steered with what is left
    budget = Budget(left=2 * cost + 500, reserve=500)
    kept, asked = _pick(first, "easy", ("photo", "lines", "poster"), drawn, {("poster", None): steered}, budget=budget)
    assert [a for a in asked if not a[2]] == [("photo", None, False), ("poster", None, False)]
    assert ("poster", None, True) in asked and kept.grid is steered.grid and kept.stats.difficulty.grade == 3
    assert budget.stopped and kept.stats.difficulty_note.endswith(Budget().note())


def _textured(**given):
    """Every drawing pick_style asks for expert (a textured picture), but the ones given."""
    drawn = {key: _made(key[0], 4, like=1.0, score=90, threshold=key[1]) for key in _all()}
    drawn.update(given)
    return drawn


def test_smoothed_drawings_to_ease_a_textured_picture_only():
    # easing (easy, medium) a picture whose every drawing so far is expert: every style smoothed is a drawing
    # too, after those repainted; hard never
    first = _made("lines", 4, like=1.1, score=80)
    smoothed = _made("lines", 1, like=1.0, changed=0.8, score=8)
    kept, asked = _pick(first, "easy", ("photo", "lines"), _textured() | {("lines", "smooth"): smoothed})
    assert kept.grid is smoothed.grid and ("lines", "smooth", False) in asked
    assert not any(isinstance(cut, float) for _, cut, _ in asked)  # it fits within the margin: no thresholds
    assert [cut for _, cut, _ in asked].index("smooth") > [cut for _, cut, _ in asked].index("clean")
    _, asked = _pick(first, "medium", ("photo", "lines"), _textured())
    assert ("lines", "smooth", False) in asked and ("photo", "smooth", False) in asked
    _, asked = _pick(_made("lines", 1, like=1.1), "hard", ("photo", "lines"), _textured())
    assert asked and not any(cut == "smooth" for _, cut, _ in asked)
    _, asked = _pick(_made("lines", 2, like=1.1, score=15), "medium", ("photo", "lines"), _textured())
    assert not any(cut == "smooth" for _, cut, _ in asked)  # medium from below hardens: no smoothing
    # a drawing within the margin below expert: not textured, the budget goes to steering it
    hard = _made("photo", 3, like=1.0, score=30)
    _, asked = _pick(first, "easy", ("photo", "lines"), _textured() | {("photo", None): hard})
    assert not any(cut == "smooth" for _, cut, _ in asked)
    # one below expert but further than the margin does not count
    far = _made("photo", 3, like=1.1 - STYLE_MARGIN - 0.05, score=30)
    _, asked = _pick(first, "easy", ("photo", "lines"), _textured() | {("photo", None): far})
    assert ("lines", "smooth", False) in asked


def test_easys_limit_binding_tries_the_photo_cleaned_at_every_threshold():
    # every drawing within the margin past 2%, even refined again: the photo at each threshold with its specks
    # repainted, before any drawing further than the margin
    first = _made("lines", 4, like=1.1, changed=3.5, score=90)
    drawn = _all() | {("photo", None): _made("photo", 4, like=1.0, changed=3.0, score=90)}
    wanted = float(LAST_THRESHOLDS[-1])
    cleaned = _made("photo", 3, like=1.0, changed=1.5, score=35, threshold=wanted)
    drawn[("photo", LOW)] = _made("photo", 1, like=0.8, changed=1.0, threshold=LOW)  # further than the margin
    asked = []

    def made(name, cut=None, steered=True, cleanup=False, smooth=False):
        asked.append((name, cut, cleanup, steered))
        if cleanup and cut is not None:
            return cleaned if cut == wanted else _blank(name, cut)
        return drawn.get((name, "clean") if cleanup else (name, cut), _blank(name, cut))

    kept = pick_style(first, "easy", ("photo", "lines"), made, plain=1.1, budget=Budget())
    assert kept.grid is cleaned.grid
    tried = [cut for name, cut, clean, steered in asked if clean and cut is not None and not steered]
    assert tried == [float(cut) for cut in (*THRESHOLDS, *reversed(LAST_THRESHOLDS))]
    assert "limit kept only" not in (kept.stats.difficulty_note or "")
    # not when a drawing within the margin keeps within the limit
    asked.clear()
    drawn[("poster", None)] = _made("poster", 4, like=1.0, changed=1.0, score=90)
    pick_style(first, "easy", ("photo", "lines", "poster"), made, plain=1.1, budget=Budget())
    assert not [cut for _, cut, clean, _ in asked if clean and cut is not None]


def test_a_steered_drawing_that_fell_below_the_margin_ranks_after_one_within_it():
    first = _made("lines", 4, like=1.1, changed=1.0, score=90)
    nearer = _made("photo", 3, like=0.95, score=40)  # within the margin (0.9) as drawn and steered
    slipped = _made("poster", 2, like=0.85, score=15)  # within it as drawn (0.95), below it steered
    drawn = _all() | {("photo", None): _made("photo", 4, like=0.95, score=50),
                      ("poster", None): _made("poster", 4, like=0.95, score=45)}  # fmt: skip
    kept, _ = _pick(first, "easy", ("photo", "lines", "poster"), drawn,
                    {("photo", None): nearer, ("poster", None): slipped})  # fmt: skip
    assert kept.grid is nearer.grid
