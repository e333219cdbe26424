"""How long hiding and revealing take, by secret length (prints a table)."""

from __future__ import annotations

import random
import time

from rofl.secret import ALPHABET, hide, reveal


def main() -> None:
    rng = random.Random(0)
    hide("warm up the compiled solver")
    print(f"{'chars':>6} {'puzzle':>9} {'hide ms':>8} {'reveal ms':>10}")
    for n in (1, 8, 16, 32, 64, 256, 1024):
        texts = ["".join(rng.choice(ALPHABET) for _ in range(n)) for _ in range(5)]
        t0 = time.perf_counter()
        puzzles = [hide(t)[0] for t in texts]
        t1 = time.perf_counter()
        assert [reveal(p) for p in puzzles] == texts
        t2 = time.perf_counter()
        size = f"{puzzles[0].width}x{puzzles[0].height}"
        print(f"{n:>6} {size:>9} {(t1 - t0) / 5 * 1e3:>8.1f} {(t2 - t1) / 5 * 1e3:>10.1f}")


if __name__ == "__main__":
    main()
