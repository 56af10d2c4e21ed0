"""Proximity in bulk from Python against scipy's k-d tree over the balls' centres, in one run.

Standard workload (the crate's ``benches/benches/bulk.rs``): 10^5 balls of radius 1 whose
centres are uniform in a cube they fill to 10 % (overlaps allowed), and 10^6 points in the cube:
the centres of a 100^3 grid (in the grid's order) or uniform points (in no order). For each width
it prints, per point (median of ``--repeats`` runs), with the ratio to scipy:

- ``Scene.nearest(points, threads=1)`` against ``cKDTree.query(points, workers=1)`` over the
  centres (the same ball: every radius is 1);
- ``Scene.within(points, 2, threads=1)`` against ``cKDTree.query_ball_point(points, 3,
  workers=1)``;
- both on two threads against one.

scipy's tree is built once, in float64 (it has no other width), outside the timing, as the scene
is.

    python python/benchmarks/proximity.py             # from the repository's root
    python python/benchmarks/proximity.py --points 100000 --repeats 3
"""

from __future__ import annotations

import argparse

import numpy as np
import scipy
from scipy.spatial import cKDTree

import raysweep as rs
from timing import median_time


def workload(balls: int, side_points: int, seed: int = 1):
    """Centres of ``balls`` unit balls filling 10 % of a cube, and the two sets of points."""
    rng = np.random.default_rng(seed)
    side = (balls * 4.0 / 3.0 * np.pi / 0.1) ** (1.0 / 3.0)
    centres = rng.uniform(0, side, (balls, 3))
    axis = (np.arange(side_points) + 0.5) / side_points * side
    grid = np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), -1).reshape(-1, 3)
    random = rng.uniform(0, side, (len(grid), 3))
    return centres, {"grid": grid, "random": random}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--balls", type=int, default=100_000)
    parser.add_argument("--side", type=int, default=100, help="points per axis of the grid (side^3 points)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    centres, sets = workload(args.balls, args.side)
    tree = cKDTree(centres)
    print(f"raysweep {rs.__version__}, scipy {scipy.__version__}, numpy {np.__version__}")
    print(f"{args.balls} balls, {len(sets['grid'])} points; ns per point, median of {args.repeats}")
    for dtype in (np.float32, np.float64):
        scene = rs.Scene(spheres=(centres.astype(dtype), np.ones(len(centres), dtype)))
        for name, points in sets.items():
            p = points.astype(dtype)
            n = len(p)
            per = 1e9 / n
            rows = [
                ("nearest", lambda: scene.nearest(p, threads=1), lambda: tree.query(points, workers=1),
                 lambda: scene.nearest(p, threads=2)),
                ("within 2", lambda: scene.within(p, 2.0, threads=1),
                 lambda: tree.query_ball_point(points, 3.0, workers=1), lambda: scene.within(p, 2.0, threads=2)),
            ]
            for query, ours, theirs, two in rows:
                t_ours = median_time(ours, args.repeats)[0] * per
                t_theirs = median_time(theirs, args.repeats)[0] * per
                t_two = median_time(two, args.repeats)[0] * per
                print(
                    f"{np.dtype(dtype).name:8} {name:7} {query:9} raysweep {t_ours:7.0f}  scipy {t_theirs:7.0f}"
                    f"  ratio {t_ours / t_theirs:5.2f}   two threads {t_ours / t_two:4.2f} x one"
                )


if __name__ == "__main__":
    main()
