#!/usr/bin/env bash
# Regenerate the sample puzzles from the sample pictures (run from anywhere).
# EXT=.rofl (default) or EXT=.json chooses the puzzle format.
set -euo pipefail
cd "$(dirname "$0")"
ext="${EXT:-.rofl}"
rofl make astronaut.jpg -o "astronaut$ext" -w 40 -c 6 -q
rofl make rocket.jpg -o "rocket$ext" -w 40 -c 4 -q
rofl make chelsea.jpg -o "chelsea$ext" -w 45 -c 5 -q
rofl make coffee.jpg -o "coffee$ext" -w 45 -c 3 -q
rofl make camera.jpg -o "camera$ext" -w 40 -q
rofl make horse.png -o "horse$ext" -w 30 -q
