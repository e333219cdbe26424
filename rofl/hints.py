"""What ``rofl make`` and the studio suggest after making a puzzle: one line each, or nothing.

Each function looks at a :class:`rofl.maker.MakeResult` and the
:class:`rofl.maker.MakeOptions` it was made with, and returns the hint's
text (``"hint: ..."``) or ``None``; the command line prints the lines on
standard error, the studio shows them under its preview.

* :func:`likeness_hint`: the puzzle looks little like the picture
  (SSIM, edge F1), its colours do not follow the picture's
  (:func:`lost_colours`), or a portrait's face is lost (:func:`lost_face`);
  the other styles, sizes and colour counts measured against it.
* :func:`letters_hint`: ink colours a reader may mix up.
* :func:`changed_hint`: refinement changed many cells; what usually helps.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict
from typing import Any

#: Above this share of changed cells (%), :func:`changed_hint` suggests what could help.
HINT_CHANGED_PCT = 2.0
#: A size, colour count or style :func:`likeness_hint` names scores at least this much higher.
HINT_GAIN = 0.05
#: Below this colour likeness (:func:`rofl.picture.legibility.colour_likeness`)
#: of a colour puzzle, :func:`lost_colours` says its colours do not follow
#: the picture's.  Chosen on the 16 photos of ``benchmarks/_photos.py`` at 30,
#: 40 and 50 cells in 3 and 4 colours (docs/guide.md): the cat 0.42-0.46
#: (4 browns: "camouflage"), every other colour photo 0.53 and more; as
#: hexagons of side 12-20, the cat 0.20-0.35, the others 0.57 and more.
COLOUR_LIKENESS = 0.5
#: Below this lightness SSIM over the face and the head around it
#: (:func:`rofl.picture.subject.face_likeness`), :func:`lost_face` says a
#: portrait's face is lost.  Chosen on the portraits of
#: ``benchmarks/_photos.py`` at 30, 40 and 50 cells (docs/guide.md; the
#: cascade finds 6 of the 7 faces): in black and white 0.18-0.60 (the
#: astronaut 0.55-0.60, Grace Hopper 0.48-0.51), in 3 colours 0.67-0.86,
#: in 4 colours 0.73-0.87.
FACE_LIKENESS = 0.65
#: Faces narrower than this many cells are not judged: a grid cannot draw them.
FACE_CELLS = 4


def make_hints(result: Any, options: Any, *, more_colours: bool, letters: bool) -> list[str]:
    """``rofl make``'s hints, in the order it prints them: likeness, letters, changed cells.

    ``more_colours``: the output could hold more colours (no ``--palette``,
    a colour format); ``letters``: the sheets already print letters
    (``--letters``), so no letters hint."""
    found = [
        likeness_hint(result, options, more_colours=more_colours),
        letters_hint(result.puzzle, letters=letters),
        changed_hint(result.stats, options),
    ]
    return [line for line in found if line is not None]


def letters_hint(puzzle: Any, *, letters: bool) -> str | None:
    """Which ink colours a reader may mix up (rofl.picture.legibility: lightness, simulated colour
    blindness), unless ``letters`` (``--letters``) already prints the clues with letters."""
    if letters or puzzle.n_colors <= 2:
        return None
    from rofl.picture.legibility import confusions

    found = confusions([puzzle.palette[k] for k in range(puzzle.n_colors)])
    if not found:
        return None
    return f"hint: {'; '.join(map(str, found))}: pages print the clues with letters, --letters gives sheets them too"


def changed_hint(stats: Any, options: Any) -> str | None:
    """When refinement changed more than :data:`HINT_CHANGED_PCT` of the cells
    (``stats``, a :class:`rofl.maker.MakeStats`), what usually gives a cleaner
    puzzle with these ``options`` (a :class:`rofl.maker.MakeOptions`): only
    options the style drawn takes (``--threshold`` is the photo style's)."""
    if stats.changed_pct <= HINT_CHANGED_PCT:
        return None
    hexagon = options.shape == "hex"
    tips = ["fewer cells (--size)" if hexagon else "fewer cells (-w/-H)"]
    if not (options.cleanup or hexagon):
        tips.append("--cleanup")
    if stats.colors == 2 and options.threshold is None and stats.style == "photo":
        tips.append("another --threshold")  # the photo style's option: lines and poster refuse it
    listed = f"{', '.join(tips[:-1])} or {tips[-1]} usually give" if len(tips) > 1 else f"{tips[0]} usually gives"
    return (
        f"hint: {stats.changed_pct:.1f}% of the cells had to change: at this size the picture is "
        f"mostly fine texture that line logic cannot pin down; {listed} a cleaner puzzle"
    )


def likeness_hint(result: Any, made_with: Any, *, more_colours: bool) -> str | None:
    """When the grid of ``result`` (a :class:`rofl.maker.MakeResult`, made
    with ``made_with``, a :class:`rofl.maker.MakeOptions`) looks little like
    the picture, a hint that says why and names what measures better; else None.

    The first of these that holds decides:

    * its SSIM is under :data:`rofl.maker.RECOGNISABLE_SSIM`, or SSIM +
      edge F1 (the score ``style="auto"`` ranks by) under
      :data:`rofl.maker.LIKENESS_SCORE`: the hint names the other styles,
      the next size and 4 colours (when ``more_colours``) that score better
      (:func:`rofl.maker.likeness`, before refinement, on the picture as
      ``result`` loaded and cropped it), best first, and says so when even
      the best stays under the level; or, when none does, that nothing it
      tried scores better, with each one's figure;
    * a colour puzzle's colours do not follow the picture's
      (:func:`lost_colours`): it names the larger palettes and the next size
      whose colour likeness reaches :data:`COLOUR_LIKENESS`, or says that
      none does;
    * a portrait's face is lost (:func:`lost_face`; judged under 4 colours
      only): it names 4 colours when their face likeness reaches
      :data:`FACE_LIKENESS` (no style or size of a black-and-white grid
      keeps a face that 4 colours lose).

    The last two make each try (:func:`rofl.make` without refinement's
    search, a tenth of a second or so each) and measure it as the puzzle."""
    from rofl.maker import LIKENESS_SCORE, RECOGNISABLE_SSIM, style_score

    stats = result.stats
    if stats.ssim is None:
        return None
    score = style_score(stats.ssim, stats.edge_f1)
    if stats.ssim < RECOGNISABLE_SSIM or score < LIKENESS_SCORE:
        return _score_hint(result, made_with, score, more_colours=more_colours)
    n = max(stats.colors, stats.colors_asked or 0)  # a palette may hold fewer colours than asked
    colours = lost_colours(result)
    if colours is not None:
        tries = [(f"more colours (-c {k})", {"colors": k}) for k in (n + 1, n + 2) if more_colours and k <= 64]
        tries.append(_more_cells(stats, _size_options(made_with)))
        better = _made(result, made_with, tries, _colour_measure, max(COLOUR_LIKENESS, colours + HINT_GAIN))
        if better:
            tips = f"; try {_listed(better, 'colour likeness', _MADE)}"
        else:  # say what was tried, and promise nothing
            flags = [label[label.index("(") + 1 : -1] for label, _ in tries]  # "more cells (-w 50)": "-w 50"
            tips = f"; {', '.join(flags[:-1])}{' and ' if len(flags) > 1 else ''}{flags[-1]} follow them no better"
        return (
            f"hint: the puzzle's colours follow the picture's poorly (colour likeness {colours:.2f} < "
            f"{COLOUR_LIKENESS}: shades of one hue, features of another colour take it){tips}"
        )
    face = lost_face(result) if n < 4 else None  # 4 colours keep faces: the remedy it names
    if face is None:
        return None
    tries = [("more colours (-c 4)", {"colors": 4, "threshold": None})] if more_colours else []
    made = _made(result, made_with, tries, _face_measure, -1.0)
    better = [(figure, label) for figure, label in made if figure >= FACE_LIKENESS]
    if better:
        tips = "try " + _listed(better, "face likeness", _MADE)
    elif made:  # measured, and no better: say so with its figure
        tips = f"{made[0][1]} keeps it no better ({made[0][0]:.2f}, {_MADE})"
    else:
        tips = "black and white seldom keeps a face"
    return (
        f"hint: the face may be lost (face likeness {face:.2f} < {FACE_LIKENESS}: SSIM over the face and the head "
        f"around it); {tips}"
    )


def _score_hint(result: Any, made_with: Any, score: float, *, more_colours: bool) -> str:
    """:func:`likeness_hint` for a puzzle whose SSIM or SSIM + edge F1 (``score``) is low."""
    from rofl.maker import LIKENESS_SCORE, RECOGNISABLE_SSIM

    stats = result.stats
    low_ssim = stats.ssim < RECOGNISABLE_SSIM
    # what likeness takes of the options, on the picture loaded (and cropped) once
    measured = ("width", "height", "colors", "palette", "background", "threshold", "mode", "dither", "min_delta_e")
    options = {name: value for name, value in asdict(made_with).items() if name in measured}
    options.update(shape=made_with.shape, size=made_with.size, style=made_with.style, effort=made_with.effort)
    tries = [_more_cells(stats, options)]
    better = []
    if stats.style_scores:  # auto measured the other styles already
        dropped = dict(stats.style_dropped)  # auto found them unrecognisable: no tip
        better += [(sc, f"--style {n}") for n, sc in stats.style_scores if n != stats.style and n not in dropped]
    elif options["threshold"] is None and options["dither"] == "none":
        tries += [(f"--style {name}", {"style": name}) for name in ("lines", "photo", "poster") if name != stats.style]
    if more_colours and stats.colors_asked is not None and stats.colors_asked <= stats.colors < 4:
        tries.append(("more colours (-c 4)", {"colors": 4, "threshold": None}))
    if _draft(stats, made_with):  # measuring the tries would take seconds: name them
        labels = [label for label, _ in tries]
        tips = f"{', '.join(labels[:-1])}{' or ' if len(labels) > 1 else ''}{labels[-1]} may score better"
        tips += " (not measured at --effort 0 on a grid this large)"
        if better := [(sc, label) for sc, label in better if sc >= score + HINT_GAIN]:
            tips = f"try {_listed(better, 'SSIM + edge F1')}; {tips}"
    else:
        tips = _tried(better + _measured(result.pixels, options, tries), score)
    if low_ssim:
        why = f"the puzzle looks little like the picture (SSIM {stats.ssim:.3f} < {RECOGNISABLE_SSIM})"
    else:
        why = (
            f"the puzzle may be hard to make out (SSIM {stats.ssim:.2f} + edge F1 {stats.edge_f1:.2f} = {score:.3f} "
            f"< {LIKENESS_SCORE})"
        )
    return f"hint: {why}; {tips}"


def _tried(tried: list[tuple[float, str]], score: float) -> str:
    """:func:`_score_hint`'s advice from the tries measured, ``(score, label)``."""
    from rofl.maker import LIKENESS_SCORE

    better = [(sc, label) for sc, label in tried if sc >= score + HINT_GAIN]
    if not better:  # say what was tried, as measured, and promise nothing
        figures = ", ".join(f"{label}: {sc:.2f}" for sc, label in sorted(tried, key=lambda m: -m[0]))
        return f"nothing tried scores better ({figures}; SSIM + edge F1, measured before refinement)"
    tips = "try " + _listed(better, "SSIM + edge F1")
    if max(sc for sc, _ in better) < LIKENESS_SCORE:  # better, and still under the level: say so
        tips += f"; none reaches {LIKENESS_SCORE}, so it may stay hard to make out"
    return tips


def _draft(stats: Any, made_with: Any) -> bool:
    """Whether the puzzle was made at effort 0 on a large grid (more than
    ``LARGE_CELLS`` cells), where :func:`likeness_hint` names other sizes,
    colour counts and styles without measuring them: each would take
    seconds (on uniform noise at 200x200, 4 colours 2.9 s and 250 cells
    0.7 s, where the whole make in black and white takes about 8 s;
    docs/decisions.md, "At scale")."""
    from rofl.refine.passes import LARGE_CELLS

    cells = stats.width * stats.height if stats.side is None else 3 * stats.side * (stats.side - 1) + 1
    return made_with.effort == 0 and cells > LARGE_CELLS


def _listed(better: list[tuple[float, str]], measure: str, when: str = "before refinement") -> str:
    """The three best tries as ``label: figure`` joined by "or", and what the figures measure."""
    better = sorted(better, key=lambda m: -m[0])
    return " or ".join(f"{label}: {sc:.2f}" for sc, label in better[:3]) + f" ({measure}, measured {when})"


def lost_colours(result: Any) -> float | None:
    """The colour likeness (:func:`rofl.picture.legibility.colour_likeness`)
    of a colour puzzle (3 colours or more) when it is under
    :data:`COLOUR_LIKENESS`; else None (black and white, a grey picture)."""
    if result.stats.colors < 3:
        return None
    found = _colour_measure(result)
    return found if found is not None and found < COLOUR_LIKENESS else None


def _colour_measure(result: Any) -> float | None:
    from rofl.picture import rgb8_to_lab
    from rofl.picture.legibility import colour_likeness

    return colour_likeness(rgb8_to_lab(result.cells), rgb8_to_lab(result.palette.to_array())[result.grid])


def lost_face(result: Any) -> float | None:
    """The face likeness of a rectangular ``result`` (:func:`rofl.picture.subject.face_likeness`
    of the largest face the cascade finds in the part of the picture it
    shows) when it is under :data:`FACE_LIKENESS`; else None (no face, a
    face under :data:`FACE_CELLS` cells wide, a hexagon, a result built by
    hand).  A few hundredths to a few tenths of a second."""
    found = _face_measure(result)
    return found if found is not None and found < FACE_LIKENESS else None


def _face_measure(result: Any) -> float | None:
    if result.side is not None or result.pixels is None:
        return None
    from rofl.picture import rgb8_to_lab
    from rofl.picture.subject import LOOK_PIXELS, face_boxes, face_likeness

    h, w = result.grid.shape
    scale = max(1, -(-LOOK_PIXELS // max(h, w)))  # pixels per cell: the picture at about LOOK_PIXELS
    faces = face_boxes(result.source_image(scale), smallest=FACE_CELLS * scale)
    if not faces:
        return None
    box = tuple(v / scale for v in faces[0])
    source = rgb8_to_lab(result.cells)[..., 0]
    final = rgb8_to_lab(result.palette.to_array())[result.grid][..., 0]
    return face_likeness(source, final, box)


def _size_options(made_with: Any) -> dict[str, Any]:
    """What :func:`_more_cells` reads of the options."""
    return {"width": made_with.width, "height": made_with.height}


#: How :func:`_made` makes its tries, as the hint says it.
_MADE = "on puzzles made with --effort 0"


def _made(result: Any, made_with: Any, tries: list, measure: Any, least: float) -> list[tuple[float, str]]:
    """The tries (label, changed options) whose puzzle, made from the picture
    ``result`` was made from with refinement's first pass only (``effort=0``,
    no steering), ``measure`` (a function of a result) finds at ``least``:
    as (figure, label)."""
    from dataclasses import replace

    from rofl.errors import RoflError
    from rofl.maker import make

    if result.pixels is None:
        return []
    found = []
    for label, change in tries:
        options = replace(made_with, **change, effort=0.0, crop="none", difficulty=None)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the run itself has said what there is to say
                figure = measure(make(result.pixels, options))
        except RoflError:
            continue
        if figure is not None and figure >= least:
            found.append((figure, label))
    return found


def _more_cells(stats: Any, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The next size up (a quarter more cells a side, at least 5 or 10 more), as a label and the options it changes."""
    if stats.side is not None:
        bigger = max(stats.side + 5, (stats.side * 5 + 3) // 4)
        return (f"more cells (--size {bigger})", {"size": bigger})
    side = max(stats.width + sum(stats.trimmed[2:]), stats.height + sum(stats.trimmed[:2]))
    bigger = max(side + 10, (side * 5 + 3) // 4)
    name = "height" if options["height"] is not None and options["width"] is None else "width"
    return (
        f"more cells ({'-H' if name == 'height' else '-w'} {bigger})",
        {"width": None, "height": None, name: bigger},
    )


def _measured(image: Any, options: dict[str, Any], tries: list) -> list[tuple[float, str]]:
    """The likeness score of each of the tries (label, changed options) that can be made, as (score, label)."""
    from rofl.errors import RoflError
    from rofl.maker import likeness

    found = []
    for label, change in tries:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # the run itself has said what there is to say
                _, better = likeness(image, **{**options, **change})
        except RoflError:
            continue
        found.append((better, label))
    return found
