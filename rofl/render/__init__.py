"""Showing puzzles and pictures: terminal text, images, sheets.

Its modules load on first use: ``rofl.render.svg.puzzle_svg`` works after
``import rofl`` alone."""

from rofl._lazy import submodules

__getattr__ = submodules(__name__)
