"""Neighbours in a periodic box from Python against freud's AABBQuery, in one run.

Workload: 10^5 equal balls of radius 1, centres uniform in a periodic cube they fill to 10 %
(overlaps allowed). For each ball, every ball whose surface is within ``d`` of its own: in
raysweep ``within(centres, d + 1)`` on the periodic scene (the signed distance from a centre to
a ball, ``|c - c'| - 1``, at most ``d + 1``), one thread; in freud ``AABBQuery(box,
centres).query(centres, r_max=d + 2)`` to a neighbour list, one thread. freud takes float32
points and refuses an ``r_max`` beyond half the box; raysweep answers in float32 and float64
alike, at any distance. Both lists hold every ball itself too. Prints the median of
``--repeats`` runs per ball, and freud's version.

    python python/benchmarks/periodic.py             # from the repository's root
    python python/benchmarks/periodic.py --balls 10000 --repeats 3
"""

from __future__ import annotations

import argparse

import freud
import numpy as np

import raysweep as rs
from timing import median_time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--balls", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    side = (args.balls * 4.0 / 3.0 * np.pi / 0.1) ** (1.0 / 3.0)
    centres = rng.uniform(-side / 2, side / 2, (args.balls, 3))
    freud.parallel.set_num_threads(1)
    box = freud.box.Box.cube(side)
    points = centres.astype(np.float32)
    tree = freud.locality.AABBQuery(box, points)
    print(f"{args.balls} balls of radius 1 in a periodic cube of side {side:.1f}; freud {freud.__version__}")
    print("d      width    raysweep within   freud AABBQuery   ratio   neighbours a ball")
    for d in (1.0, 4.0):
        def freud_run() -> int:
            found = tree.query(points, {"r_max": d + 2.0, "exclude_ii": False}).toNeighborList()
            return len(found)

        t_freud, n_freud = median_time(freud_run, args.repeats)
        for width in (np.float32, np.float64):
            scene = rs.Scene(
                spheres=(centres.astype(width), width(1.0)),
                period=(np.full(3, -side / 2, width), np.full(3, side, width)),
            )
            at = centres.astype(width)
            t_ours, found = median_time(lambda: scene.within(at, d + 1.0, threads=1), args.repeats)
            per = 1e9 / args.balls
            print(
                f"{d:<6} {np.dtype(width).name:<8} {t_ours * per:>10.0f} ns      {t_freud * per:>10.0f} ns"
                f"      {t_ours / t_freud:>5.2f}   {len(found.body) / args.balls:.1f} ({n_freud / args.balls:.1f} in freud)"
            )


if __name__ == "__main__":
    main()
