"""Pictures into grids of palette indices, and pixel art both ways.

The first half of :func:`rofl.make`'s data flow, one module per stage::

    picture file ──load──▶ pixels ──fit──▶ cell colours ──quantise (+dither)──▶ grid + palette + cost ──cleanup──▶ grid

* :mod:`.load`: any file Pillow reads, or an array, as sRGB-encoded pixels
  (:func:`load_pixels`, :func:`open_picture`).
* :mod:`.fit`: which part of the picture becomes how many cells
  (:func:`fit`), averaged in linear light (:func:`cell_colors`, for a
  board of either shape: it asks the geometry, :meth:`Geometry.average`
  or :meth:`HexGeometry.average`).
* :mod:`.hexfit`: the same for a hexagonal board: the largest centred
  part of the picture (:func:`hex_fit`), each hexagon averaged in linear
  light.
* :mod:`.colour`: sRGB, linear light, CIELAB and ΔE2000, and the colour
  options (:func:`parse_color`, :func:`parse_palette`).
* :mod:`.quantise`: a threshold or a k-means palette in CIELAB whose
  colours stay ``min_delta_e`` (ΔE2000) apart, and the cost of every colour
  for every cell (:func:`quantise`).
* :mod:`.dither`: ordered and Floyd–Steinberg dithering, for :func:`quantise`.
* :mod:`.style`: how the picture is drawn into cells before quantising
  (``photo``, ``lines``, ``poster``: :func:`style_cells`), for both shapes.
* :mod:`.subject`: a crop to the picture's subject (a face, else the
  salient part: :func:`crop_to_subject`).
* :mod:`.cleanup`: isolated cells repainted (:func:`remove_isolated`), speckle evened out (:func:`smooth`).
* :mod:`.pixelart`: pictures whose pixels already are the cells
  (``rofl encode`` / ``decode`` and the Pillow plugin).
* :mod:`.measures`: how much a grid looks like its picture (lightness
  SSIM, edge F1, faces found), for ``rofl make``'s stats and the benchmarks.

The package sits above the puzzle model and beside :mod:`rofl.refine`: it
imports neither the refinement, the formats, the renderers nor the CLI.
A bad option (an unknown mode or dither, a colour that is not one) raises
:class:`rofl.errors.OptionError`; a picture that cannot be read raises
:class:`rofl.errors.ImageError`.
"""

from __future__ import annotations

from rofl.picture.cleanup import remove_isolated, smooth
from rofl.picture.colour import (
    delta_e,
    grey_of_lightness,
    lab_to_rgb8,
    lightness_of_grey,
    linear_to_srgb,
    parse_color,
    parse_palette,
    rgb8_to_lab,
    srgb_to_linear,
)
from rofl.picture.dither import DITHER_WARNING, DITHERS, check_dither
from rofl.picture.fit import DEFAULT_SIDE, MAX_CELLS, MODES, Geometry, area_weights, cell_colors, fit
from rofl.picture.hexfit import DEFAULT_HEX_SIDE, MAX_HEX_SIDE, HexGeometry, hex_cell_colors, hex_fit
from rofl.picture.load import load_pixels, open_picture, picture_size, source_name
from rofl.picture.pixelart import grid_from_image, image_from_grid
from rofl.picture.quantise import (
    MAX_SPACING,
    MIN_DELTA_E,
    Quantised,
    check_min_delta_e,
    closest_pair,
    kmeans_lab,
    lloyd,
    pairwise_delta_e,
    quantise,
    spacing_table,
)
from rofl.picture.style import STYLES, StyledCells, check_style, style_cells
from rofl.picture.subject import CROPS, check_crop, crop_to_subject

__all__ = [
    "DEFAULT_HEX_SIDE",
    "DEFAULT_SIDE",
    "MAX_HEX_SIDE",
    "HexGeometry",
    "hex_cell_colors",
    "hex_fit",
    "DITHERS",
    "DITHER_WARNING",
    "MAX_CELLS",
    "MAX_SPACING",
    "MIN_DELTA_E",
    "MODES",
    "CROPS",
    "STYLES",
    "StyledCells",
    "check_crop",
    "check_style",
    "crop_to_subject",
    "style_cells",
    "Geometry",
    "Quantised",
    "area_weights",
    "cell_colors",
    "check_dither",
    "check_min_delta_e",
    "closest_pair",
    "delta_e",
    "fit",
    "grey_of_lightness",
    "grid_from_image",
    "image_from_grid",
    "kmeans_lab",
    "lab_to_rgb8",
    "lightness_of_grey",
    "linear_to_srgb",
    "lloyd",
    "load_pixels",
    "open_picture",
    "parse_color",
    "pairwise_delta_e",
    "parse_palette",
    "picture_size",
    "quantise",
    "remove_isolated",
    "rgb8_to_lab",
    "smooth",
    "source_name",
    "spacing_table",
    "srgb_to_linear",
]


from rofl._lazy import submodules  # noqa: E402 -- the rest of the package loads on first use

__getattr__ = submodules(__name__)
