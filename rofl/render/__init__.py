"""Showing puzzles and pictures: terminal text, images, sheets."""
