"""Steering the picture pipeline toward a grade
(:func:`rofl.refine.difficulty.pick_style`): which style's puzzle
``rofl make --difficulty`` keeps, and that ``make`` passes it the styles
auto may keep."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

import rofl
from rofl.refine.difficulty import STYLE_MARGIN, pick_style
from rofl.solver.grade import NAMES


def _made(style: str, grade: int, changed: float = 0.5, score: float = 10.0) -> SimpleNamespace:
    """A stand-in for a MakeResult: the figures pick_style reads."""
    difficulty = SimpleNamespace(grade=grade, name=NAMES[grade], score=score)
    return SimpleNamespace(stats=SimpleNamespace(style=style, difficulty=difficulty, changed_pct=changed))


def _pick(first, target, scores, others):
    asked = []

    def made(name):
        asked.append(name)
        return others[name]

    return pick_style(first, target, scores, tuple(scores), made), asked


def test_a_grade_reached_keeps_autos_style_and_makes_nothing_more():
    first = _made("lines", 1)
    kept, asked = _pick(first, "easy", {"photo": 1.0, "lines": 1.1, "poster": 1.05}, {})
    assert kept is first and asked == []


def test_the_style_closest_to_the_grade_within_the_margin():
    scores = {"photo": 1.0, "lines": 1.1, "poster": 1.1 - STYLE_MARGIN - 0.01}
    first = _made("lines", 4, score=80)
    others = {"photo": _made("photo", 2, score=15), "poster": _made("poster", 1, score=5)}
    kept, asked = _pick(first, "easy", scores, others)
    assert asked == ["photo"]  # poster's likeness is too far below lines'
    assert kept is others["photo"]
    # hard: the style that reaches hard, from above or below
    others = {"photo": _made("photo", 3), "poster": _made("poster", 2)}
    kept, _ = _pick(_made("lines", 4), "hard", {**scores, "poster": 1.05}, others)
    assert kept is others["photo"]


def test_ties_keep_the_likelier_picture_and_easy_stays_within_its_limit():
    scores = {"photo": 1.0, "lines": 1.1}
    first = _made("lines", 4, score=90)
    kept, _ = _pick(first, "easy", scores, {"photo": _made("photo", 4, score=50)})
    assert kept is first
    # a picture whose changes pass easy's limit gives way to one within it, even a harder one
    first = _made("lines", 3, changed=3.5)
    within = _made("photo", 4, changed=1.5)
    kept, _ = _pick(first, "easy", scores, {"photo": within})
    assert kept is within


@pytest.mark.slow
def test_make_keeps_a_style_auto_may_keep():
    """End to end: the style kept is one of auto's, its likeness within the
    margin of auto's, and the puzzle line-solvable with the grade reported."""
    rng = np.random.default_rng(5)
    from scipy.ndimage import gaussian_filter

    picture = (gaussian_filter(rng.random((120, 120)), 4) * 255).astype(np.uint8)
    auto = rofl.make(picture, width=30, height=30)
    scores = dict(auto.stats.style_scores)
    for target in ("easy", "hard"):
        made = rofl.make(picture, width=30, height=30, difficulty=target)
        assert made.stats.style in scores
        assert scores[made.stats.style] >= scores[auto.stats.style] - STYLE_MARGIN
        assert made.stats.style_scores == auto.stats.style_scores
        assert made.stats.style not in dict(auto.stats.style_dropped)
        assert made.stats.style_dropped == auto.stats.style_dropped
        # the report's style line says when the style is not auto's likeliest
        taken = made.stats.style != auto.stats.style
        assert (f"style: {made.stats.style} (auto, for the difficulty: " in made.stats.report()) == taken
        assert rofl.solve(made.puzzle).status == "solved"
        assert made.stats.difficulty == rofl.grade(made.puzzle)
