"""Picture → puzzle: the whole of ``rofl make``.

:func:`make` chains the picture pipeline (:mod:`rofl.picture`) and the
refinement (:mod:`rofl.refine`): load, fit and average the cells in linear
light, quantise, optionally clean up, then change as few and as little
visible cells as possible until the line solver, reading the clues alone,
proves the puzzle solved and unique.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from rofl._words import plural
from rofl.palette import Palette
from rofl.picture.measures import edge_f1, hex_lightness_ssim, lightness_ssim
from rofl.puzzle import Puzzle


@dataclass(frozen=True)
class MakeOptions:
    """Everything that decides the puzzle :func:`make` makes of a picture.

    ``rofl.make``, ``rofl make`` and a batch (:func:`rofl.batch.make_many`)
    take the same value; two runs with equal options on the same picture
    give the same puzzle.  ``rofl.make(picture, width=30)`` builds one from
    its keywords: ``MakeOptions(width=30)``.

    Attributes
    ----------
    width, height : int, optional
        Grid size in cells; with one of them the other keeps the picture's
        aspect ratio; with neither the longer side gets 40 cells (smaller
        pictures keep one cell per pixel).
    colors : int
        2 for black and white; 3-64 for a colour puzzle with a palette found
        by k-means in CIELAB.
    palette : str or sequence of colours, optional
        ``"#fff,#000,#f00"``: use these colours (``colors`` is ignored).
    background : colour, optional
        Palette index 0; default the colour covering the most cells (in
        black and white the lighter one, so that the clues count the dark
        cells, as shading them draws the picture).
        Transparent pixels are composited onto it (onto white by default).
    threshold : float, optional
        Black-and-white threshold, sRGB grey 0-255; default Otsu's.
    mode : {"fit", "crop", "pad"}
        How the picture fills width x height when both are given.
    dither : {"none", "ordered", "floyd-steinberg"}
        Dithering warns (``UserWarning``): it multiplies clues and ambiguity.
    cleanup : bool
        Repaint isolated single cells before refinement.
    min_delta_e : float
        The least ΔE2000 between any two colours of an automatic palette,
        the background included; a picture without that many distinct
        colours gets fewer (``stats.colors_asked`` keeps the number asked
        for).  0 turns the constraint off.  A given ``palette`` is used as
        given (a ``UserWarning`` says when two of its colours are closer).
        See :func:`rofl.picture.quantise`.
    trim : bool
        Leave out blank border rows and columns (all background after
        quantisation and clean-up) before refinement, and any that
        refinement blanked after it, so the puzzle may be smaller than
        ``width`` x ``height``; ``stats.trimmed`` says how many.  A blank
        picture is kept whole.
    effort : float
        How hard refinement works, after its greedy pass, on changing fewer
        cells: about ``effort`` local repair attempts per changed cell, then,
        from 1 on, up to ``int(effort)`` passes that move changes elsewhere
        (see :func:`rofl.refine.refine`'s ``polish`` and ``relocate``), and
        from 2 on they also swap two nearby changes for one elsewhere
        (``pairs``).  0 stops after the greedy pass and the revert pass, and
        on a grid of 20,000 to 100,000 cells trades changed cells for time
        (:func:`rofl.refine.refine`'s ``quick``); 1 is the default; 2 and
        more take longer for a few changes fewer.
    seed : int
        Seed of that search: the same picture, options and seed always give
        the same puzzle.
    shape : {"rect", "hex"}
        ``"hex"`` makes a :class:`~rofl.hexagon.HexPuzzle`: the largest
        hexagon centred on the picture (:func:`rofl.picture.hex_fit`), each
        cell the area average of its hexagon in linear light, quantised as
        a rectangle's cells, then refined by :func:`rofl.refine.refine` over its board.
        ``width``, ``height``, ``mode="pad"``, ``dither`` and ``cleanup``
        do not apply to it (:class:`OptionError`); ``trim`` is ignored (a
        hexagon has no border rows to leave out); ``effort`` above 0 puts
        back the changes later ones made unnecessary.
    size : int, optional
        The hexagon's side in cells (1-128; default
        :data:`rofl.picture.DEFAULT_HEX_SIDE`); only with ``shape="hex"``.
    style : {"auto", "photo", "lines", "poster"}
        How the picture is drawn into cells before quantising
        (:mod:`rofl.picture.style`): ``photo`` area-averages it; ``lines``
        draws edges and thin dark features as ink one cell wide (XDoG);
        ``poster`` smooths regions flat (a median filter) and outlines
        strong edges.  ``auto`` quantises ``photo``, ``lines`` and ``poster`` (black
        and white) or ``photo`` and ``poster`` (colour; ``lines`` in colour
        never measured better) and keeps the one with the higher
        :func:`style_score`; with a ``threshold`` or a ``dither`` it is
        ``photo``, the only style that takes them.
    crop : {"none", "auto"}
        ``auto`` cuts the picture to its subject first
        (:func:`rofl.picture.crop_to_subject`: a face, else the salient part).
    difficulty : {"easy", "medium", "hard", "expert"}, optional
        Steer the refined puzzle toward this grade of :func:`rofl.grade`
        (:func:`rofl.refine.difficulty.steer`): easier ones may change more
        cells, up to 2% in all (refined again with ``effort`` 8 when
        refinement alone passes that), harder ones at most 0.5% beyond the
        fewest; with ``style="auto"`` another drawing (a style auto could
        keep, one with its isolated cells repainted, to ease a textured
        picture one smoothed, or the photo style at another threshold) may
        be taken when it comes closer, its likeness
        within 0.2 of the puzzle made without ``difficulty`` unless easy's
        limit needs one further, never more than 0.4
        (:func:`rofl.refine.difficulty.pick_style`); all within an effort
        budget of 200,000 grader rounds (about 10 s at 50 cells,
        :data:`rofl.refine.difficulty.MAKE_WORK`);
        ``stats.difficulty`` is the grade reached and ``stats.difficulty_note``
        says when the one asked for was out of reach, or the budget stopped
        the search.  Rectangles only.
    """

    width: int | None = None
    height: int | None = None
    colors: int = 2
    palette: str | None = None
    background: str | None = None
    threshold: float | None = None
    mode: str = "fit"
    dither: str = "none"
    cleanup: bool = False
    min_delta_e: float = 20.0
    trim: bool = True
    effort: float = 1.0
    seed: int = 0
    shape: str = "rect"
    size: int | None = None
    style: str = "auto"
    crop: str = "none"
    difficulty: str | None = None


@dataclass(frozen=True)
class MakeProgress:
    """One step of :func:`make`'s work, given to its ``progress`` callback.

    ``stage`` is ``"refining"`` (``done`` of ``total`` undetermined cells
    determined, the most so far), ``"checking changes"`` (changes tried in
    the current pass that puts back unneeded ones), ``"polishing"`` (repair
    attempts) or ``"moving changes"`` (changes tried in the current pass
    that moves them elsewhere, ``effort`` 1 and more); ``unit`` names what
    is counted.  A stage may start over from 0 with each pass.
    """

    stage: str
    unit: str
    done: int
    total: int


def _refine_callbacks(progress: Callable[[MakeProgress], None] | None) -> dict[str, Any]:
    """The refinement's callbacks (:func:`rofl.refine.refine`) as events of one ``progress``."""
    if progress is None:
        return {}
    first: list[int] = []
    best = [0]

    def refining(undetermined: int) -> None:
        if not first:
            first.append(undetermined)
        # a move on a plateau may leave a few more cells undetermined for a
        # while: the most determined so far, rather than a count going back
        best[0] = max(best[0], first[0] - undetermined)
        progress(MakeProgress("refining", "cell", best[0], first[0]))

    def stage(name: str, unit: str) -> Callable[[int, int], None]:
        return lambda done, total: progress(MakeProgress(name, unit, done, total))

    return {
        "progress": refining,
        "revert_progress": stage("checking changes", "change"),
        "polish_progress": stage("polishing", "try"),
        "relocate_progress": stage("moving changes", "change"),
    }


@dataclass(frozen=True)
class MakeStats:
    """Figures of one :func:`make` run.

    Attributes
    ----------
    width, height, colors : int
        Grid size and palette size.
    n_changed : int
        Cells refinement changed (final grid vs quantised grid).
    changed_pct : float
        The same as a percentage of all cells.
    mean_delta_e : float
        Mean ΔE2000 between each cell's final colour and its area-averaged
        source colour (what the solver's picture looks like vs the photo).
    mean_delta_e_quantised : float
        The same for the quantised grid before refinement.
    clues : int
        Clue numbers (groups) over all rows and columns.
    ones_share : float
        Share of the clue numbers equal to 1 (0-1): a rough measure of
        fiddliness.
    sweeps, line_solves, iterations : int
        Difficulty of the final solve (generations of line logic), work
        spent by refinement, refinement rounds.
    seconds, refine_seconds : float
        Wall time of the whole run and of the refinement.  Compiling the
        kernels (a fresh install's first run) or loading them from numba's
        cache comes before the clock starts (:func:`rofl.kernels.ready`),
        so it is in neither.
    threshold : float or None
        Black-and-white threshold used (sRGB grey level 0-255).
    polish_rounds : int
        Local repair attempts made by polishing (``effort``).
    relocated : int
        Changes moved elsewhere, each letting another one go back (``effort``
        1 and more).
    colors_asked : int or None
        Colours asked for; more than ``colors`` when the picture does not
        hold that many colours ``min_delta_e`` apart.
    min_delta_e : float
        The least ΔE2000 asked for between two palette colours.
    palette_delta_e : float or None
        The least ΔE2000 between two colours of the palette used.
    ssim : float or None
        Recognisability: the structural similarity (SSIM, -1 to 1) of the
        final grid's lightness (L*) to the picture's at the grid's size;
        None for a grid under 3 cells on a side.  Below
        :data:`RECOGNISABLE_SSIM` the picture is hard to make out.
    edge_f1 : float or None
        Edge agreement (0-1): how well the final grid's region boundaries
        follow the picture's edges at the grid's size
        (:func:`rofl.picture.measures.edge_f1`).
    trimmed : (top, bottom, left, right) ints
        Blank border rows and columns left out (``trim``).
    side : int or None
        A hexagonal puzzle's side (``width`` and ``height`` are then its
        middle row's cells and its rows, ``2 * side - 1`` each); None for
        a rectangle.
    style : str
        The style the picture was drawn in (``style="auto"`` names the one
        it picked): ``"photo"``, ``"lines"`` or ``"poster"``.
    style_scores : tuple of (style, score)
        With ``style="auto"``, every candidate's :func:`style_score` (before
        refinement); empty otherwise.
    style_dropped : tuple of (style, reason)
        With ``style="auto"``, the candidates it did not keep whatever their
        score, and why (a blank grid, an SSIM under
        :data:`RECOGNISABLE_SSIM` where the photo style's is not, or an
        inked grid of a flat picture's noise, :data:`NOISE_DELTA_E`).
    """

    width: int
    height: int
    colors: int
    n_changed: int
    changed_pct: float
    mean_delta_e: float
    mean_delta_e_quantised: float
    clues: int
    ones_share: float
    sweeps: int
    line_solves: int
    iterations: int
    seconds: float
    refine_seconds: float
    threshold: float | None = None
    polish_rounds: int = 0
    relocated: int = 0
    colors_asked: int | None = None
    min_delta_e: float = 0.0
    palette_delta_e: float | None = None
    ssim: float | None = None
    edge_f1: float | None = None
    trimmed: tuple[int, int, int, int] = (0, 0, 0, 0)
    side: int | None = None
    style: str = "photo"
    style_scores: tuple[tuple[str, float], ...] = ()
    style_dropped: tuple[tuple[str, str], ...] = ()
    #: the grade reached with ``difficulty`` (:func:`rofl.grade`), else None
    difficulty: Any = None
    #: cells ``difficulty`` changed beyond refinement's, and the one line
    #: saying when the grade asked for was out of reach
    steered: int = 0
    difficulty_note: str | None = None
    #: isolated cells were repainted before refinement (``cleanup``, asked
    #: for or taken by ``difficulty`` as another drawing)
    cleanup: bool = False
    #: the drawing was smoothed before refinement (:func:`rofl.picture.smooth`,
    #: taken by ``difficulty`` as another drawing)
    smoothed: bool = False

    @property
    def fewer_colours(self) -> str | None:
        """One line saying the palette has fewer colours than asked, or None."""
        if self.colors_asked is None or self.colors >= self.colors_asked:
            return None
        return (
            f"colours: {self.colors} of the {self.colors_asked} asked for; the picture holds no more "
            f"that are ΔE2000 {self.min_delta_e:g} apart"
        )

    def report(self) -> str:
        """The figures as a few lines of text (what ``rofl make`` prints)."""
        top, bottom, left, right = self.trimmed
        if self.side is None:
            shape = f"{self.width}x{self.height}"
        else:
            shape = f"hexagon of side {self.side} ({3 * self.side * (self.side - 1) + 1} cells)"
        lines = [
            f"puzzle: {shape}, {self.colors} colours, {plural(self.clues, 'clue')} "
            f"({self.ones_share:.0%} of them 1s), solved by line logic in {plural(self.sweeps, 'sweep')}",
        ]
        if self.style_scores:
            dropped = dict(self.style_dropped)
            others = ", ".join(
                f"{name} {score:.2f}" + (f" (dropped: {dropped[name]})" if name in dropped else "")
                for name, score in self.style_scores
                if name != self.style
            )
            kept = dict(self.style_scores)[self.style]
            best = max((score for name, score in self.style_scores if name not in dropped), default=kept)
            why = "auto" if kept >= best else "auto, for the difficulty"  # pick_style took a less likely one
            lines.append(f"style: {self.style} ({why}: likeness {kept:.2f}; {others})")
        else:
            lines.append(f"style: {self.style}")
        if self.fewer_colours:
            lines.append(self.fewer_colours)
        if top + bottom + left + right:
            lines.append(
                f"trimmed: {plural(top + bottom, 'blank row')} and {plural(left + right, 'blank column')} "
                f"(top {top}, bottom {bottom}, left {left}, right {right})"
            )
        why = "to make it unique" if self.difficulty is None else "in all, to make it unique and steer it"
        lines.append(
            f"changed: {plural(self.n_changed, 'cell')} ({self.changed_pct:.2f}%) {why}; "
            f"mean ΔE2000 vs the picture {self.mean_delta_e:.2f} (quantised {self.mean_delta_e_quantised:.2f})"
        )
        likeness = []
        if self.ssim is not None:
            likeness.append(f"SSIM {self.ssim:.2f} in lightness vs the picture at this size")
        if self.edge_f1 is not None:
            likeness.append(f"edge F1 {self.edge_f1:.2f}")
        if self.palette_delta_e is not None:
            likeness.append(f"closest colours ΔE2000 {self.palette_delta_e:.1f}")
        if likeness:
            lines.append("likeness: " + "; ".join(likeness))
        timing = f"time: {self.seconds:.2f} s ("
        timing += f"refinement {self.refine_seconds:.2f} s, {plural(self.iterations, 'round')}"
        if self.polish_rounds:
            timing += f", {plural(self.polish_rounds, 'repair attempt')}"
        if self.relocated:
            timing += f", {plural(self.relocated, 'change')} moved"
        timing += f", {self.line_solves} line solves)"
        if self.threshold is not None and self.style != "lines":  # lines cuts the ink's share, not grey
            timing += f"; threshold {self.threshold:.0f}/255"
        lines.append(timing)
        if self.difficulty is not None:
            drawn = "; drawn with isolated cells repainted (cleanup)" if self.cleanup else ""
            drawn += "; drawn smoothed (cells most of whose neighbours differ repainted)" if self.smoothed else ""
            lines.append(f"difficulty: {self.difficulty.summary()}; {self.steered} cells changed to steer it{drawn}")
        if self.difficulty_note:
            lines.append(self.difficulty_note)
        return "\n".join(lines)


@dataclass(eq=False)
class MakeResult:
    """What :func:`make` produced.

    Attributes
    ----------
    puzzle : Puzzle
        Uniquely solvable by line logic; its solution is ``grid``.
    grid : (H, W) uint8 array
        The final picture (palette indices).
    quantised : (H, W) uint8 array
        The picture before refinement (after dithering and clean-up).
    changed : (H, W) bool array
        Cells where ``grid`` differs from ``quantised``.
    palette : Palette
    cells : (H, W, 3) uint8 array
        The area-averaged sRGB colour of the picture in every cell.
    cost : (H, W, K) float64 array
        The cost array given to the refinement.
    stats : MakeStats
    refinement : rofl.refine.Refinement
        The refinement's own record (evaluations, fallback lines...).
    side : int or None
        A hexagonal puzzle's side; then ``puzzle`` is a
        :class:`~rofl.hexagon.HexPuzzle` and ``grid``, ``quantised``,
        ``changed``, ``cells`` and ``cost`` hold one entry per cell in the
        board's order (``(n_cells,)``, ``(n_cells, 3)``, ``(n_cells, K)``).
    """

    puzzle: Puzzle
    grid: np.ndarray
    quantised: np.ndarray
    changed: np.ndarray
    palette: Palette
    cells: np.ndarray
    cost: np.ndarray
    stats: MakeStats
    refinement: Any = field(default=None, repr=False)
    side: int | None = None
    _pixels: np.ndarray | None = field(default=None, repr=False)
    _geometry: Any = field(default=None, repr=False)
    _background: tuple[int, int, int] = field(default=(255, 255, 255), repr=False)
    _trimmed: tuple[int, int, int, int] = field(default=(0, 0, 0, 0), repr=False)

    @property
    def pixels(self) -> np.ndarray | None:
        """The picture as it was made from: loaded, and cropped by ``crop``
        (``None`` for a result built by hand).  :func:`likeness` takes it
        instead of loading the picture again."""
        return self._pixels

    def source_image(self, cell: float) -> np.ndarray:
        """The part of the picture the grid shows, area-averaged to ``cell`` pixels per cell.

        For a hexagonal puzzle ``cell`` is the pixels per cell circumradius,
        and the picture under the board's outline box is shown, grey outside
        the board (:func:`rofl.render.preview.hex_image`'s size).

        Returns
        -------
        (H * cell, W * cell, 3) uint8 array
        """
        from rofl.picture import Geometry, cell_colors, linear_to_srgb

        if self.side is not None:
            return self._hex_source_image(cell)

        if self._pixels is None or self._geometry is None:
            return np.repeat(np.repeat(self.cells, cell, axis=0), cell, axis=1)
        g = self._geometry
        fine = Geometry(
            g.box,
            (g.size[0] * cell, g.size[1] * cell),
            (g.grid[0] * cell, g.grid[1] * cell),
            (g.offset[0] * cell, g.offset[1] * cell),
        )
        lin = cell_colors(self._pixels, fine, self._background)
        top, _, left, _ = self._trimmed
        h, w = self.grid.shape
        lin = lin[top * cell : (top + h) * cell, left * cell : (left + w) * cell]
        return np.clip(np.rint(linear_to_srgb(lin) * 255), 0, 255).astype(np.uint8)

    def _hex_source_image(self, radius: float) -> np.ndarray:
        from rofl.picture import Geometry, cell_colors, linear_to_srgb
        from rofl.picture.hexfit import board_extent, owner_of

        ew, eh = board_extent(self.side)
        pw, ph = int(np.ceil(ew * radius)), int(np.ceil(eh * radius))
        lin = cell_colors(self._pixels, Geometry(self._geometry.box, (pw, ph), (pw, ph), (0, 0)), self._background)
        out = np.clip(np.rint(linear_to_srgb(lin) * 255), 0, 255).astype(np.uint8)
        x, y = np.meshgrid((np.arange(pw) + 0.5) / radius - ew / 2, (np.arange(ph) + 0.5) / radius - eh / 2)
        out[owner_of(x, y, self.side) < 0] = 128
        return out


#: The shapes :func:`make` builds.
SHAPES = ("rect", "hex")


def make(
    image: Any,
    options: MakeOptions | None = None,
    *,
    title: str | None = None,
    solver: Any = None,
    progress: Callable[[MakeProgress], None] | None = None,
    threads: int | None = None,
    **fields: Any,
) -> MakeResult:
    """Turn a picture into a nonogram that line logic solves to exactly one picture.

    ``make(picture, width=30, colors=3)`` and
    ``make(picture, MakeOptions(width=30, colors=3))`` are the same call: the
    keywords after ``progress`` are the fields of :class:`MakeOptions`, and
    with ``options`` they replace its fields.

    Parameters
    ----------
    image : path, bytes, PIL.Image.Image or numpy array
        See :func:`rofl.picture.load_pixels`.
    options : MakeOptions, optional
        The options as one value (default: the defaults; each field is
        documented in :class:`MakeOptions`).
    title : str, optional
        Stored in ``puzzle.meta["title"]``; default the file name.
    solver : rofl.LineSolver, optional
        Reused across calls (its line cache speeds up batches).
    progress : callable(MakeProgress), optional
        Called as the refinement works, with the stage and how far it is
        (:class:`MakeProgress`).
    threads : int, optional
        Threads refinement may work in (:func:`rofl.refine.refine`; by
        default the processors this process may use, at most 4).  The
        puzzle does not depend on it: only how soon it is ready.
    **fields
        Fields of :class:`MakeOptions` (each documented there).

    Returns
    -------
    MakeResult

    Raises
    ------
    ImageError
        The picture cannot be read.
    OptionError
        An invalid option (``threads`` included).
    TypeError
        A keyword that is not a field of :class:`MakeOptions`.
    """
    from rofl.refine.refinement import check_threads

    o = replace(options or MakeOptions(), **fields)
    return _make(image, o, title=title, solver=solver, progress=progress, threads=check_threads(threads))


def _make(
    image: Any,
    o: MakeOptions,
    *,
    title: str | None,
    solver: Any,
    progress: Any,
    budget: Any = None,
    smooth: bool = False,
    threads: int | None = None,
) -> MakeResult:
    """:func:`make` with its options as one value: the one pipeline of both
    shapes, in named steps; what differs per shape is asked of its
    :class:`_Shape` (fitting, clean-up and trimming, the refinement's
    options, the board, the measures).  ``budget`` is the effort budget of
    ``difficulty`` (:class:`rofl.refine.difficulty.Budget`) the other
    drawings share with the first (a new one when not given); ``smooth``
    smooths the drawing before clean-up (:func:`rofl.picture.smooth`: a
    drawing ``difficulty`` may take, :func:`_other_style`)."""
    from rofl import kernels, picture

    shape = _shape_of(o)  # every option checked, before any work
    if o.difficulty is not None and budget is None:
        from rofl.refine.difficulty import Budget

        budget = Budget()
    # compiling or loading the kernels (once a process, in refinement) stops the clock
    clock = kernels.Stopwatch()
    bg_rgb = picture.parse_color(o.background, "background") if o.background not in (None, "auto") else (255, 255, 255)
    pixels = picture.crop_to_subject(picture.load_pixels(image), o.crop, background=bg_rgb)
    geometry = shape.fit(picture.picture_size(pixels))
    if o.dither != "none":
        warnings.warn(picture.DITHER_WARNING, UserWarning, stacklevel=3)
    chosen = _styled(
        pixels, geometry, o.style, bg_rgb, shape=shape,
        colors=o.colors, palette=o.palette, background=o.background, threshold=o.threshold, dither=o.dither,
        min_delta_e=o.min_delta_e, quick=_quick_styles(o.effort, o.shape, geometry),
    )  # fmt: skip
    cells = _Cells(
        chosen.quantised.grid, chosen.quantised.cost, chosen.lab, chosen.photo, drawn=chosen.style != "photo"
    )
    if smooth:
        cells.grid = picture.smooth(cells.grid)
    cells = shape.prepare(cells)
    refine_clock = kernels.Stopwatch()
    res = _refined(cells, chosen.quantised.palette, shape, solver, progress, threads)
    refine_seconds = refine_clock.seconds()
    # easy may refine again from the same cells (after_refinement sets ``final`` on the cells it is given)
    prepared = cells.cut((slice(None), slice(None))) if o.difficulty == "easy" and o.shape == "rect" else None
    cells = shape.after_refinement(cells, np.asarray(res.grid, dtype=np.uint8))
    plain = _plain_likeness(cells, chosen.quantised, shape) if o.difficulty is not None else None
    if prepared is not None and _easy_over_limit(cells, o):  # refinement's every pass, longer, may keep within it
        from rofl.refine.difficulty import EASY_EFFORT

        longer = _PIPELINES[o.shape](replace(o, effort=EASY_EFFORT))
        again = _refined(prepared, chosen.quantised.palette, longer, solver, progress, threads)
        retried = shape.after_refinement(prepared, np.asarray(again.grid, dtype=np.uint8))
        if _changed_share(retried) < _changed_share(cells):
            res, cells = again, retried
        refine_seconds = refine_clock.seconds()
    steering = {}
    if o.difficulty is not None:  # other drawings may follow auto's (_other_style)
        steering = _steered(cells, chosen.quantised.palette, o, budget, first=bool(chosen.eligible))
    puzzle = shape.board(cells.final).puzzle(cells.final, chosen.quantised.palette, meta=_meta(image, title))
    result = _finish(
        puzzle, cells, chosen.quantised, res, shape,
        shape_stats={"style": chosen.style, "style_scores": chosen.scores, "style_dropped": chosen.dropped,
                     "cleanup": o.cleanup, "smoothed": smooth,
                     **shape.stats(cells, res), **steering},
        seconds=clock.seconds(), refine_seconds=refine_seconds, min_delta_e=o.min_delta_e,
        pixels=pixels, geometry=geometry, background=bg_rgb,
    )  # fmt: skip
    if o.difficulty is not None and chosen.eligible:  # auto: photo alone may take another threshold
        result = _other_style(result, pixels, o, chosen, solver, clock, plain, budget, threads)
    return result


@dataclass(eq=False)
class _Cells:
    """The cells on their way through :func:`_make`: the quantised grid and
    its cost, the picture's CIELAB and linear-light colours (one more axis),
    the refined grid once there is one (``final``), and the blank border
    lines left out (a rectangle's ``trim``)."""

    grid: np.ndarray
    cost: np.ndarray
    lab: np.ndarray
    linear: np.ndarray
    final: Any = None
    trimmed: tuple[int, int, int, int] = (0, 0, 0, 0)
    drawn: bool = False

    def cut(self, crop: tuple[slice, ...]) -> _Cells:
        """The same cells cut to ``crop``."""
        final = None if self.final is None else self.final[crop]
        return _Cells(
            self.grid[crop], self.cost[crop], self.lab[crop], self.linear[crop], final, self.trimmed, self.drawn
        )

    def edges(self) -> np.ndarray | None:
        """The picture's edges a drawing keeps a margin beside when trimmed (None: not a drawing)."""
        from rofl.picture.measures import picture_edges

        return picture_edges(self.lab[..., 0]) if self.drawn else None


class _Rectangle:
    """What :func:`_make` does for a rectangle: fit ``width`` x ``height``
    cells, clean up and trim blank border lines, refine with every pass the
    effort pays for."""

    side = None

    def __init__(self, o: MakeOptions) -> None:
        from rofl import picture

        picture.check_dither(o.dither)
        self.o = o

    def fit(self, image_size: tuple[int, int]) -> Any:
        from rofl import picture

        return picture.fit(image_size, self.o.width, self.o.height, self.o.mode)

    @staticmethod
    def quantised(cells: np.ndarray, **options: Any) -> Any:
        """:func:`rofl.picture.quantise` of the ``(H, W, 3)`` cell colours."""
        from rofl import picture

        return picture.quantise(cells, **options)

    def prepare(self, cells: _Cells) -> _Cells:
        """Clean-up, then the blank border lines left out (``trim``)."""
        from rofl import picture

        if self.o.cleanup:
            cells.grid = picture.remove_isolated(cells.grid, cells.cost)
        if not self.o.trim:
            return cells
        crop, trimmed = _blank_border(cells.grid, cells.edges())
        cells = cells.cut(crop)
        cells.trimmed = trimmed
        return cells

    def refine_options(self) -> dict[str, Any]:
        effort = self.o.effort
        # effort 0 on a large grid trades changed cells for time (refine's quick)
        options = {"polish": effort, "seed": self.o.seed, "relocate": int(effort), "pairs": effort >= 2}
        return {**options, "quick": effort == 0}

    def after_refinement(self, cells: _Cells, final: np.ndarray) -> _Cells:
        """Refinement may blank a border line; leaving it out keeps the
        puzzle unique and line-solvable (an empty line only fixes its cells
        blank)."""
        cells.final = final
        if not self.o.trim:
            return cells
        crop, again = _blank_border(final, cells.edges())
        trimmed = tuple(a + b for a, b in zip(cells.trimmed, again, strict=True))
        cells = cells.cut(crop)
        cells.trimmed = trimmed
        return cells

    @staticmethod
    def board(final: np.ndarray) -> Any:
        from rofl.puzzle import Rectangle

        return Rectangle(final.shape[1], final.shape[0])

    def likeness(self, lab_l: np.ndarray, final_l: np.ndarray) -> tuple[float | None, float | None]:
        """SSIM and edge F1 of the final grid's lightness against the picture's."""
        return lightness_ssim(lab_l, final_l), edge_f1(lab_l, final_l)

    @staticmethod
    def stats(cells: _Cells, res: Any) -> dict[str, Any]:
        h, w = cells.final.shape
        return {
            "width": w, "height": h, "trimmed": cells.trimmed,
            "polish_rounds": int(res.polish_rounds), "relocated": int(res.relocated),
        }  # fmt: skip

    @staticmethod
    def result_fields(cells: _Cells) -> dict[str, Any]:
        return {"_trimmed": cells.trimmed}


class _Hexagon:
    """What :func:`_make` does for a hexagon: the largest hexagon of side
    ``size`` centred on the picture; no clean-up or trimming; the revert
    pass only with ``effort`` above 0 (polishing and relocation are a
    rectangle's)."""

    def __init__(self, o: MakeOptions) -> None:
        from rofl import picture

        self.o = o
        self.side = picture.hexfit.check_side(picture.DEFAULT_HEX_SIDE if o.size is None else o.size)

    def fit(self, image_size: tuple[int, int]) -> Any:
        from rofl import picture

        return picture.hex_fit(image_size, self.side)

    @staticmethod
    def quantised(cells: np.ndarray, **options: Any) -> Any:
        """:func:`rofl.picture.quantise` of the ``(n_cells, 3)`` cell colours
        as one row of a grid, back as one entry per cell."""
        from rofl import picture

        q = picture.quantise(cells[None], **options)
        return replace(q, grid=q.grid[0], cost=q.cost[0], lab=q.lab[0])

    @staticmethod
    def prepare(cells: _Cells) -> _Cells:
        return cells

    def refine_options(self) -> dict[str, Any]:
        return {"revert": self.o.effort > 0}

    @staticmethod
    def after_refinement(cells: _Cells, final: np.ndarray) -> _Cells:
        cells.final = final
        return cells

    def board(self, final: np.ndarray) -> Any:
        from rofl.hexagon import Hexagon

        return Hexagon.of(self.side)

    def likeness(self, lab_l: np.ndarray, final_l: np.ndarray) -> tuple[float | None, float | None]:
        return hex_lightness_ssim(lab_l, final_l, self.side), edge_f1(lab_l, final_l, side=self.side)

    def stats(self, cells: _Cells, res: Any) -> dict[str, Any]:
        return {"width": 2 * self.side - 1, "height": 2 * self.side - 1, "side": self.side}

    def result_fields(self, cells: _Cells) -> dict[str, Any]:
        return {"side": self.side}


#: What :func:`_make` asks of each shape it makes.
_Shape = _Rectangle | _Hexagon
#: Each of :data:`SHAPES` and its part of the pipeline.
_PIPELINES: dict[str, type[_Rectangle] | type[_Hexagon]] = {"rect": _Rectangle, "hex": _Hexagon}


def _shape_of(o: MakeOptions) -> _Shape:
    """Check every option of ``o`` (:class:`OptionError`) and return its shape's part of the pipeline."""
    from rofl import picture
    from rofl.errors import OptionError

    check_shape(o)
    picture.check_style(o.style)
    picture.check_crop(o.crop)
    shape = _PIPELINES[o.shape](o)
    if not 0 <= o.effort <= 1000:  # also refuses NaN
        msg = f"effort must be between 0 and 1000, not {o.effort!r}"
        raise OptionError(msg)
    return shape


def _refined(cells: _Cells, palette: Any, shape: _Shape, solver: Any, progress: Any, threads: int | None) -> Any:
    """The refinement of the cells (:func:`rofl.refine.refine`) with the
    shape's options, ``progress`` as the refinement's callbacks, in
    ``threads`` threads."""
    from rofl.refine import refine

    return refine(
        cells.grid, palette, board=shape.board(cells.grid), cost=cells.cost, solver=solver, **shape.refine_options(),
        threads=threads, **_refine_callbacks(progress),
    )  # fmt: skip


def _steered(cells: _Cells, palette: Any, o: MakeOptions, budget: Any, *, first: bool) -> dict[str, Any]:
    """The refined grid steered toward ``o.difficulty`` (a rectangle's
    :func:`rofl.refine.difficulty.steer`): ``cells.final`` replaced, and
    the stats it adds.  ``first``: auto's drawing, which other drawings may
    follow (:data:`rofl.refine.difficulty.FIRST_WORK`)."""
    from rofl.refine.difficulty import FIRST_WORK, MAX_WORK, steer

    work = FIRST_WORK if first else MAX_WORK
    steered = steer(
        cells.final, palette, cells.grid, o.difficulty, cost=cells.cost, seed=o.seed, budget=budget, max_work=work
    )
    cells.final = steered.grid
    return {"difficulty": steered.difficulty, "steered": steered.added, "difficulty_note": steered.note}


def _easy_over_limit(cells: _Cells, o: MakeOptions) -> bool:
    """Whether ``difficulty="easy"`` finds refinement's changes past its
    limit (:data:`rofl.refine.difficulty.EASY_LIMIT`) but not past
    :data:`~rofl.refine.difficulty.EASY_AGAIN`, at an effort below
    :data:`~rofl.refine.difficulty.EASY_EFFORT` (a rectangle's)."""
    from rofl.refine.difficulty import EASY_AGAIN, EASY_EFFORT, EASY_LIMIT

    if o.difficulty != "easy" or o.shape != "rect" or o.effort >= EASY_EFFORT:
        return False
    changed = np.count_nonzero(cells.final != cells.grid)
    return int(EASY_LIMIT * cells.final.size) < changed <= int(EASY_AGAIN * cells.final.size)


def _changed_share(cells: _Cells) -> float:
    """The share of the refined cells (``final``) that differ from the drawing (``grid``)."""
    return np.count_nonzero(cells.final != cells.grid) / max(1, cells.final.size)


def _plain_likeness(cells: _Cells, q: Any, shape: _Shape) -> float:
    """The likeness (SSIM + edge F1; 0 for a one-colour grid, or one too
    small for SSIM, as :func:`rofl.refine.difficulty.likeness`) of the
    refined cells before steering: the puzzle ``make`` gives without
    ``difficulty``, which :func:`rofl.refine.difficulty.pick_style` measures
    its margin from."""
    final = cells.final
    if not final.size or (final == final.flat[0]).all():
        return 0.0
    ssim, edge = shape.likeness(cells.lab[..., 0], _palette_lab(q)[final][..., 0])
    return 0.0 if ssim is None or edge is None else style_score(ssim, edge)


def _other_style(
    result: MakeResult,
    pixels: np.ndarray,
    o: MakeOptions,
    chosen: Any,
    solver: Any,
    clock,
    plain: float | None,
    budget: Any,
    threads: int | None,
) -> MakeResult:
    """The picture pipeline steers too: another drawing ``auto`` would take
    (another style, or the photo style at another threshold) may reach the
    grade (:func:`rofl.refine.difficulty.pick_style`), its likeness within
    the margin of ``plain`` (auto's puzzle before steering)."""
    from rofl.refine.difficulty import pick_style

    def made(
        name: str, threshold: float | None = None, steered: bool = True, cleanup: bool = False, smooth: bool = False
    ) -> MakeResult:
        # the picture cut to its subject already: no crop again
        again = replace(
            o, style=name, crop="none", threshold=threshold, difficulty=o.difficulty if steered else None,
            cleanup=o.cleanup or cleanup,
        )  # fmt: skip
        title = result.puzzle.meta.get("title")
        other = _make(
            pixels, again, title=title, solver=solver, progress=None, budget=budget, smooth=smooth, threads=threads
        )
        return replace(other, stats=replace(other.stats, style_scores=chosen.scores, style_dropped=chosen.dropped))

    result = pick_style(result, o.difficulty, chosen.eligible, made, plain=plain, budget=budget)
    return replace(result, stats=replace(result.stats, seconds=clock.seconds()))  # every style's


def _check_difficulty(difficulty: str, shape: str) -> None:
    """Refuse a ``difficulty`` that is not a grade's name, or one asked of a hexagon."""
    from rofl.errors import OptionError
    from rofl.refine.difficulty import target_grade

    target_grade(difficulty)
    if shape != "rect":
        msg = "difficulty: rofl steers rectangular puzzles only (grade a hexagon with rofl info)"
        raise OptionError(msg)


#: How :func:`check_shape` names the options in its messages (``rofl make``
#: gives its own flags).
OPTION_NAMES = {
    "hex": "a hexagonal puzzle", "size": "size", "width": "width", "height": "height", "mode": "mode='pad'",
    "dither": "dither", "cleanup": "cleanup",
}  # fmt: skip


def check_shape(options: MakeOptions, names: dict[str, str] | None = None) -> None:
    """Refuse a shape rofl does not make, ``size`` for a rectangle, and the
    options a hexagon does not take (``difficulty`` too): the one check of
    :func:`make` and ``rofl make`` (a batch's too), before any work, with
    the options called by ``names`` (:data:`OPTION_NAMES` by default).

    Raises
    ------
    OptionError
    """
    from rofl.errors import OptionError

    names = {**OPTION_NAMES, **(names or {})}
    if options.shape not in SHAPES:
        msg = f"shape must be one of {', '.join(SHAPES)}, not {options.shape!r}"
        raise OptionError(msg)
    if options.difficulty is not None:
        _check_difficulty(options.difficulty, options.shape)
    if options.shape == "rect":
        if options.size is not None:
            msg = (
                f"{names['size']} is the side of a hexagon: use {names['width']} and {names['height']} for a rectangle"
            )
            raise OptionError(msg)
        return
    bad = hex_refused(
        width=options.width, height=options.height, mode=options.mode, dither=options.dither, cleanup=options.cleanup
    )
    if bad:
        msg = (
            f"{names['hex']} takes its size from {names['size']} (its side), and no {', '.join(names[b] for b in bad)}"
        )
        raise OptionError(msg)


def hex_refused(*, width: int | None, height: int | None, mode: str, dither: str, cleanup: bool) -> list[str]:
    """The parameters of :func:`make` given that a hexagonal puzzle does not
    take (``"width"``, ``"height"``, ``"mode"`` for ``"pad"``, ``"dither"``,
    ``"cleanup"``), in that order; the command line names its options after them."""
    given = {
        "width": width is not None,
        "height": height is not None,
        "mode": mode == "pad",
        "dither": dither != "none",
        "cleanup": bool(cleanup),
    }
    return [name for name, used in given.items() if used]


@dataclass(eq=False)
class _Styled:
    """One style's cells, quantised: a candidate of ``style="auto"``."""

    style: str
    quantised: Any  # rofl.picture.Quantised, of the shape's cells
    photo: np.ndarray  # the plain area averages, linear light
    lab: np.ndarray  # their CIELAB
    ssim: float | None = None
    edge_f1: float | None = None
    scores: tuple[tuple[str, float], ...] = ()
    dropped: tuple[tuple[str, str], ...] = ()
    eligible: tuple[str, ...] = ()  # the styles auto may keep (not dropped), of several

    @property
    def score(self) -> float:
        """What ``auto`` keeps the highest of (docs/guide.md#styles)."""
        return style_score(self.ssim, self.edge_f1)


def style_score(ssim: float | None, edge_f1: float | None) -> float:
    """The score ``style="auto"`` ranks the styles by: SSIM (large regions,
    -1 to 1) plus the edge F1 (outlines and features, 0 to 1), each
    counted as 0 when it cannot be measured."""
    return (ssim or 0.0) + (edge_f1 or 0.0)


def _styled(
    pixels: np.ndarray, geometry: Any, style: str, bg_rgb: tuple[int, int, int], *, shape: _Shape, colors: int,
    palette: Any, background: Any, threshold: float | None, dither: str, min_delta_e: float, measure: bool = False,
    quick: bool = False,
) -> _Styled:  # fmt: skip
    """The cells of ``style`` quantised; for ``"auto"``, those of the style
    that scores best (:func:`style_score`), measured by the ``shape``'s
    likeness.  A hexagon's cells are quantised as one row of a grid and
    come back as one entry per cell (:meth:`_Hexagon.quantised`).  With
    ``quick`` (:func:`_quick_styles`), ``auto`` drops the candidates
    :func:`_quick_skipped` names before following their edges."""
    from rofl import picture

    n = len(picture.parse_palette(palette)) if palette is not None else colors
    if style != "auto":
        names = (style,)
    elif threshold is not None or dither != "none":
        names = ("photo",)  # a threshold or a dither is the photo style's option
    else:
        names = ("photo", "lines", "poster") if n == 2 else ("photo", "poster")
    if len(names) == 1 and names[0] != "photo" and (threshold is not None or dither != "none"):
        from rofl.errors import OptionError

        msg = f"threshold and dither apply to the photo style, not {names[0]!r}"
        raise OptionError(msg)
    candidates: list[_Styled] = []
    scores = []
    styled = picture.style.draw_styles(pixels, geometry, names, colors=n, background=bg_rgb)
    lab = _lab_of(styled[names[0]].photo)  # the plain area averages: every style's
    quantised = {}  # a colour poster quantises the photo's cells: once
    for number, name in enumerate(names):
        drawn = styled[name]
        cut = threshold if threshold is not None else drawn.threshold
        key = (id(drawn.cells), cut)
        if key not in quantised:
            with warnings.catch_warnings():
                if number:
                    warnings.simplefilter("ignore")  # the first candidate has warned about the palette
                quantised[key] = shape.quantised(
                    drawn.cells, colors=colors, palette=palette, background=background, threshold=cut,
                    dither=dither, min_delta_e=min_delta_e,
                )  # fmt: skip
        candidates.append(_Styled(name, quantised[key], drawn.photo, lab))
    before, skipped = _quick_skipped(candidates, styled, shape) if quick and len(names) > 1 else ({}, {})
    for candidate in candidates:
        q, drawn = candidate.quantised, styled[candidate.style]
        followed = drawn.follow and candidate.style not in skipped
        if followed:
            grid = picture.style.follow_edges(q.grid, lab, _palette_lab(q), side=shape.side, keep=drawn.thin)
            candidate.quantised = q = replace(q, grid=grid)
        if candidate.style in before and not followed:  # measured by _quick_skipped, the same cells
            candidate.ssim, candidate.edge_f1 = before[candidate.style]
        elif len(names) > 1 or measure:
            candidate.ssim, candidate.edge_f1 = shape.likeness(lab[..., 0], _palette_lab(q)[q.grid][..., 0])
        if len(names) > 1 or measure:
            scores.append((candidate.style, round(candidate.score, 4)))
    dropped_early = tuple(skipped.items())
    best, dropped = _pick([c for c in candidates if c.style not in skipped])
    dropped = tuple(sorted(dropped + dropped_early, key=lambda d: names.index(d[0])))
    best.scores, best.dropped = tuple(scores), dropped
    if len(names) > 1:
        best.eligible = tuple(c.style for c in candidates if c.style not in dict(dropped))
    return best


def _quick_styles(effort: float, shape: str, geometry: Any) -> bool:
    """Whether ``style="auto"`` draws its candidates the quick way
    (:func:`_quick_skipped`): at effort 0 on a rectangle whose grid
    refinement's quick regime takes (more than ``LARGE_CELLS`` cells, at
    most ``QUICK_MOST_CELLS``; docs/decisions.md, "At scale")."""
    from rofl.refine.passes import LARGE_CELLS, QUICK_MOST_CELLS

    if effort != 0 or shape != "rect":
        return False
    width, height = geometry.grid
    return LARGE_CELLS < width * height <= QUICK_MOST_CELLS


def _quick_skipped(
    candidates: list[_Styled], styled: dict[str, Any], shape: _Shape
) -> tuple[dict[str, tuple[float, float]], dict[str, str]]:
    """``style="auto"`` at effort 0 on a large grid (``quick``): every
    candidate's SSIM and edge F1 before following edges, and the candidates
    whose edges are not followed and which are dropped, by name, with the
    reason -- those whose score before
    following the picture's edges (:func:`rofl.picture.style.follow_edges`,
    most of a candidate's cost there) is more than their style's
    :data:`QUICK_FOLLOW_GAIN` under the best candidate's, so that
    following them would have to gain more than it does on any picture
    measured to catch up (docs/decisions.md, "At scale")."""
    before = {}
    for c in candidates:
        q = c.quantised
        before[c.style] = shape.likeness(c.lab[..., 0], _palette_lab(q)[q.grid][..., 0])
    best = max(style_score(*m) for m in before.values())
    skipped = {}
    for c in candidates:
        score, gain = style_score(*before[c.style]), QUICK_FOLLOW_GAIN.get(c.style)
        if styled[c.style].follow and gain is not None and score < best - gain:
            skipped[c.style] = f"scored before following edges, over {gain} under the best: not followed at --effort 0"
    return before, skipped


def _pick(candidates: list[_Styled]) -> tuple[_Styled, tuple[tuple[str, str], ...]]:
    """The candidate ``style="auto"`` keeps, and those it drops whatever
    their score with the reason (what ``rofl make``'s ``style:`` line
    says): the highest :func:`style_score`
    among those a person can make out.  A blank grid scores well against a
    picture whose features are below the measures' notice (a thin line,
    which SSIM and Canny at grid scale hardly see), but it is no picture;
    and a drawing whose SSIM falls under :data:`RECOGNISABLE_SSIM` where
    the photo style's does not has lost the picture's large regions, however
    well it follows its edges (the coffee in black and white).  But where
    every inked candidate only splits the picture's noise (:func:`_ink_step`
    under :data:`NOISE_DELTA_E`: a flat field, whose noise the photo style's
    threshold splits), the picture has nothing to draw and the blank grid is
    kept."""
    inked = [c for c in candidates if np.unique(c.quantised.grid).size > 1]
    steps = [_ink_step(c) for c in inked]
    if inked and len(inked) < len(candidates) and max(steps) < NOISE_DELTA_E:
        blank = next(c for c in candidates if c not in inked)
        why = "it splits a flat picture's noise (ΔE {:.1f} < {} between what its colours draw)"
        return blank, tuple((c.style, why.format(step, NOISE_DELTA_E)) for c, step in zip(inked, steps, strict=True))
    inked = inked or candidates
    floor = RECOGNISABLE_SSIM if (candidates[0].ssim or 0.0) >= RECOGNISABLE_SSIM else -1.0
    clear = [c for c in inked if (c.ssim or 0.0) >= floor] or inked
    dropped = tuple(
        (c.style, "a blank grid" if c not in inked else f"SSIM {c.ssim or 0:.2f} < {RECOGNISABLE_SSIM}: unlike")
        for c in candidates
        if c not in clear
    )
    return max(clear, key=lambda c: c.score), dropped  # the first of equals: photo before the others


def _ink_step(candidate: _Styled) -> float:
    """The largest CIELAB distance (ΔE76) between the picture's mean colours
    over the cells of two of the candidate's grid colours: how different the
    parts of the picture its colours tell apart are."""
    grid = candidate.quantised.grid.ravel()
    lab = candidate.lab.reshape(-1, 3)
    counts = np.bincount(grid)
    used = np.flatnonzero(counts)
    means = np.stack([np.bincount(grid, lab[:, k])[used] / counts[used] for k in range(3)], axis=1)
    return float(np.sqrt(((means[:, None] - means[None]) ** 2).sum(axis=-1)).max())


def likeness(
    image: Any, *, width: int | None = None, height: int | None = None, colors: int = 2, palette: Any = None,
    background: Any = None, threshold: float | None = None, mode: str = "fit", dither: str = "none",
    min_delta_e: float = 20.0, shape: str = "rect", size: int | None = None, style: str = "auto", crop: str = "none",
    effort: float = 1.0,
) -> tuple[str, float]:  # fmt: skip
    """How much the puzzle :func:`make` would make with these options looks like
    the picture, measured before refinement (which changes under 1% of the
    cells): the style it would use and its :func:`style_score`.  A few
    tenths of a second: ``rofl make``'s hint compares other options with it.
    ``effort`` matters only as ``make``'s does to ``auto`` (:func:`_quick_styles`).

    Raises
    ------
    ImageError, OptionError
        As :func:`make`.
    """
    from rofl import picture

    o = MakeOptions(width=width, height=height, mode=mode, dither=dither, shape=shape, size=size)
    check_shape(o)
    picture.check_style(style)
    picture.check_crop(crop)
    bg_rgb = picture.parse_color(background, "background") if background not in (None, "auto") else (255, 255, 255)
    pixels = picture.crop_to_subject(picture.load_pixels(image), crop, background=bg_rgb)
    board_shape = _PIPELINES[shape](o)
    geometry = board_shape.fit(picture.picture_size(pixels))
    chosen = _styled(
        pixels, geometry, style, bg_rgb, shape=board_shape, colors=colors,
        palette=palette, background=background, threshold=threshold, dither=dither, min_delta_e=min_delta_e,
        measure=True, quick=_quick_styles(effort, shape, geometry),
    )  # fmt: skip
    return chosen.style, chosen.score


def _lab_of(linear: np.ndarray) -> np.ndarray:
    """CIELAB of linear-light cells (as :func:`rofl.picture.quantise` computes it)."""
    from skimage.color import rgb2lab

    from rofl import picture

    return rgb2lab(picture.linear_to_srgb(linear))


def _meta(image: Any, title: str | None) -> dict[str, str]:
    """The made puzzle's metadata: its origin, and its title (default: the file name)."""
    from rofl import picture

    meta = {"origin": "rofl make"}
    name = title if title is not None else picture.source_name(image)
    if name:
        meta["title"] = name
    return meta


def _palette_lab(q) -> np.ndarray:
    from rofl import picture

    return picture.rgb8_to_lab(q.palette.to_array())


def _finish(
    puzzle, cells: _Cells, q, res, shape: _Shape, *, shape_stats, seconds, refine_seconds, min_delta_e, pixels,
    geometry, background,
) -> MakeResult:  # fmt: skip
    """The :class:`MakeResult` of either shape: the figures both report, and
    the arrays (``cells.final``, ``cells.grid``: the refined and quantised
    cells, of the grid's shape or one per hexagon; ``cells.lab``,
    ``cells.cost``, ``cells.linear`` with one more axis)."""
    from rofl import picture

    final, grid, lab = cells.final, cells.grid, cells.lab
    de = picture.delta_e(lab, _palette_lab(q))  # (..., K)
    lengths = np.asarray(puzzle.lengths)
    changed = final != grid
    ssim, edge = shape.likeness(lab[..., 0], _palette_lab(q)[final][..., 0])
    stats = MakeStats(
        colors=len(q.palette),
        n_changed=int(changed.sum()),
        changed_pct=100.0 * float(changed.sum()) / final.size,
        mean_delta_e=float(np.take_along_axis(de, final[..., None].astype(np.intp), axis=-1).mean()),
        mean_delta_e_quantised=float(np.take_along_axis(de, grid[..., None].astype(np.intp), axis=-1).mean()),
        clues=int(lengths.size),
        ones_share=float((lengths == 1).mean()) if lengths.size else 0.0,
        sweeps=int(res.sweeps),
        line_solves=int(res.line_solves),
        iterations=int(res.iterations),
        seconds=seconds,
        refine_seconds=refine_seconds,
        threshold=q.threshold,
        colors_asked=q.asked,
        min_delta_e=float(min_delta_e),
        palette_delta_e=picture.closest_pair(q.palette.to_array())[2],
        ssim=ssim,
        edge_f1=edge,
        **shape_stats,
    )
    return MakeResult(
        puzzle=puzzle,
        grid=final,
        quantised=np.asarray(grid, dtype=np.uint8),
        changed=changed,
        palette=q.palette,
        cells=np.clip(np.rint(picture.linear_to_srgb(cells.linear) * 255), 0, 255).astype(np.uint8),
        cost=cells.cost,
        stats=stats,
        refinement=res,
        _pixels=pixels,
        _geometry=geometry,
        _background=background,
        **shape.result_fields(cells),
    )


def _blank_border(
    grid: np.ndarray, edges: np.ndarray | None = None
) -> tuple[tuple[slice, slice], tuple[int, int, int, int]]:
    """The slices of ``grid`` without its blank (all index 0) border rows and
    columns, and how many it leaves out: ``(top, bottom, left, right)``.
    A blank grid is kept whole.  With ``edges`` (the picture's, a drawing's
    grid), one blank line is kept beside a line left at the border that
    crosses an edge of the picture: the boundary drawn there stays one."""
    rows = np.flatnonzero((grid != 0).any(axis=1))
    cols = np.flatnonzero((grid != 0).any(axis=0))
    if not rows.size:
        return (slice(None), slice(None)), (0, 0, 0, 0)
    h, w = grid.shape
    top, bottom, left, right = int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1
    if edges is not None:
        top -= int(top > 0 and edges[top].any())
        bottom += int(bottom < h and edges[bottom - 1].any())
        left -= int(left > 0 and edges[:, left].any())
        right += int(right < w and edges[:, right - 1].any())
    return (slice(top, bottom), slice(left, right)), (top, h - bottom, left, w - right)


#: Below this :func:`style_score` (SSIM + edge F1) of the final grid, ``rofl
#: make`` says the puzzle looks little like its picture and names the
#: styles, sizes and colour counts that score better.  Chosen on the cases of
#: issue 46 at 40 cells (docs/guide.md#styles), before refinement: in black
#: and white the chelsea hexagon of side 12 scores 1.03, the coffee 1.05, the
#: cat 0.97, the rocket 0.68, text 0.49, the astronaut 1.37 (its face fades
#: into white), the camera man 1.34; the rocket in 4 colours 1.12; and no
#: hint for the coffee in 3 colours (1.53), the cat (1.51), the astronaut
#: (1.57) in 4, the horse sample (1.73).
LIKENESS_SCORE = 1.4

#: Below this SSIM (:func:`lightness_ssim`), ``rofl make`` says the picture
#: will be hard to make out and suggests more cells or colours.  Chosen on
#: examples (docs/guide.md): the samples made as regenerate.sh makes them
#: score 0.5 and more, coffee in black and white at 60 cells 0.33; a
#: black-and-white cat at 30-60 cells 0.27-0.28, a random texture 0.28, less.
RECOGNISABLE_SSIM = 0.3

#: Where the picture's mean colours over the cells of a grid's colours are
#: all closer than this (ΔE76, a just-noticeable difference), the grid's ink
#: splits noise, not a picture: ``style="auto"`` keeps a blank drawing over
#: it (:func:`_pick`).  A flat grey field with sensor noise split at Otsu's
#: threshold: 0.4-0.6 (SSIM 0.01 at 30 cells, 0.12 as a hexagon of side
#: 10); a disc 4 L* darker than its field: 3.6.
NOISE_DELTA_E = 2.3

#: ``style="auto"`` at effort 0 on a large grid (:func:`_quick_skipped`)
#: follows the edges of a ``lines`` or ``poster`` candidate only where its
#: score before that is within this of the best candidate's.  Following the
#: edges raised the score, at 200 cells in black and white, by at most 0.05
#: (lines) and 0.30 (poster, the chelsea cat) on the samples, 0.11 and 0.75
#: on uniform noise, whose poster drawing, a median of noise, is blank
#: until then (docs/decisions.md, "At scale").
QUICK_FOLLOW_GAIN = {"lines": 0.15, "poster": 0.4}
