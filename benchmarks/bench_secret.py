"""How long hiding and revealing take, by secret length (prints a table).

    PYTHONPATH=. python benchmarks/bench_secret.py [--write-docs]

``--write-docs`` also writes the table into ``docs/benchmarks.md``.
"""

from __future__ import annotations

import argparse
import random
import time

from _docs import stamp, write_section

from rofl.secret import ALPHABET, hide, reveal


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-docs", action="store_true", help="write the table into docs/benchmarks.md")
    args = parser.parse_args()
    rng = random.Random(0)
    hide("warm up the compiled solver")
    lines = ["| characters | puzzle | hide | reveal |", "|---|---|---|---|"]
    print("\n".join(lines))
    for n in (1, 8, 16, 32, 64, 256, 1024):
        texts = ["".join(rng.choice(ALPHABET) for _ in range(n)) for _ in range(5)]
        t0 = time.perf_counter()
        puzzles = [hide(t)[0] for t in texts]
        t1 = time.perf_counter()
        assert [reveal(p) for p in puzzles] == texts
        t2 = time.perf_counter()
        size = f"{puzzles[0].width}×{puzzles[0].height}"
        lines.append(f"| {n} | {size} | {(t1 - t0) / 5 * 1e3:.1f} ms | {(t2 - t1) / 5 * 1e3:.1f} ms |")
        print(lines[-1])
    if args.write_docs:
        write_section("secret", "\n".join([stamp(), "", *lines]))


if __name__ == "__main__":
    main()
