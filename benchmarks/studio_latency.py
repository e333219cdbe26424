"""Preview latency of ``rofl studio`` (prints figures; not a test).

The studio's app runs in this process (Starlette's test client: the same
ASGI app ``rofl studio`` serves, without the network); its worker process
is warm (kernels loaded) before timing starts.  For each sample photo and
each size (cells on the longer side) and colour count, the time from
sending ``POST /preview`` to its answer: the whole of a preview as the page
waits for it (making by ``rofl.maker.make``, the comparison picture, the
check by line logic, the file), each with a new seed so no answer comes from
the studio's cache.  Then a superseded run: a 100-cell preview is asked for
and, 0.3 s later, a 40-cell one; the second one's latency includes
stopping the first.

Usage::

    python benchmarks/studio_latency.py [--cells 20,40,100] [--colors 2,4] [--repeat 2] [--write-docs]

``--write-docs`` writes the figures into section ``studio-latency`` of
``docs/benchmarks.md``.

Goal (issue 44): a 40-cell preview within 1 s of the last change on the
2-core machine.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import threading
import time
from pathlib import Path

print = functools.partial(print, flush=True)  # noqa: A001 - progress of a long run shows as it goes
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

PHOTOS = ("astronaut.jpg", "camera.jpg", "chelsea.jpg", "coffee.jpg")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", default="20,40,100")
    parser.add_argument("--colors", default="2,4")
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--write-docs", action="store_true")
    args = parser.parse_args()
    from starlette.testclient import TestClient

    from rofl.studio.app import create_app

    app = create_app(token="bench")
    seed = 0
    with TestClient(app) as client:
        ids = {}
        for name in PHOTOS:
            with open(ROOT / "samples" / name, "rb") as f:
                answer = client.post("/bench/photos", files=[("photo", (name, f.read(), "image/jpeg"))])
            ids[name] = answer.json()["photos"][0]["id"]

        def preview(photo: str, options: dict) -> tuple[float, dict]:
            start = time.perf_counter()
            answer = client.post("/bench/preview", json={"photo": ids[photo], "options": options}).json()
            return time.perf_counter() - start, answer

        preview(PHOTOS[0], {"width": 12})  # waits for the warm-up
        lines: list[str] = []

        def say(line: str) -> None:
            print(line)
            lines.append(line)

        say("cells colours   median    worst   (make's own time, median)  changed % median")
        for cells in map(int, args.cells.split(",")):
            for k in map(int, args.colors.split(",")):
                walls, makes, changed = [], [], []
                for photo in PHOTOS:
                    for _ in range(args.repeat):
                        seed += 1
                        wall, answer = preview(photo, {"width": cells, "height": cells, "colors": k, "seed": seed})
                        assert "error" not in answer, answer
                        walls.append(wall)
                        makes.append(answer["seconds"])
                        changed.append(answer["changed_pct"])
                say(
                    f"{cells:5d} {k:7d}  {statistics.median(walls):6.2f} s {max(walls):6.2f} s   "
                    f"({statistics.median(makes):.2f} s)                  {statistics.median(changed):.2f}"
                )
        for photo in PHOTOS:
            seed += 1
            first: dict = {}
            big = threading.Thread(
                target=lambda p=photo, s=seed, f=first: f.update(preview(p, {"width": 100, "seed": s})[1])
            )
            big.start()
            time.sleep(0.3)
            wall, answer = preview(photo, {"width": 40, "seed": seed})
            big.join()
            say(
                f"superseded: {photo}: 100 cells asked, 0.3 s later 40: the 40-cell preview in {wall:.2f} s "
                f"(the first answered {'superseded' if first.get('superseded') else 'in full'})"
            )

    if args.write_docs:
        from _docs import stamp, write_section

        write_section("studio-latency", "\n".join([stamp(), "", "```text", *lines, "```"]))


if __name__ == "__main__":
    main()
