"""Voxelising a scene from Python: ``Grid.occupancy`` against the numpy ball-stamp loop a user
writes by hand, in one run, on the same balls and cells.

Workload (issue "What a Python tomography and porous-media user tripped over"): a Boolean model
of 2,000 overlapping balls of one radius, centres uniform in the unit cube, the radius giving a
solid fraction of 0.30 (``1 - exp(-n v) = 0.3``), on a grid of 256^3 cells over the cube. The
stamp loop takes each ball's box of cells and ORs ``|centre - c|^2 <= r^2`` into the image (in
float64; its answer is checked against ``occupancy``'s, and cells whose centre lies within
1e-12 of a surface may differ). Printed: seconds per image (median of ``--repeats``), one thread
and every core for ``occupancy``, one thread for numpy; and the ratio.

    python python/benchmarks/occupancy.py            # from the repository's root
    python python/benchmarks/occupancy.py --cells 128 --repeats 3
"""

from __future__ import annotations

import argparse

import numpy as np

import raysweep as rs
from timing import median_time


def stamp(centers: np.ndarray, radius: float, n: int) -> np.ndarray:
    """The ball-stamp loop over a grid of ``n^3`` unit-cube cells: each ball's box of cells, the
    squared distance of their centres, ORed into the image."""
    image = np.zeros((n, n, n), dtype=bool)
    h = 1.0 / n
    axis = (np.arange(n) + 0.5) * h
    for c in centers:
        lo = np.clip(np.floor((c - radius) / h - 0.5).astype(int), 0, n - 1)
        hi = np.clip(np.ceil((c + radius) / h - 0.5).astype(int) + 1, 0, n)
        x, y, z = (axis[lo[a] : hi[a]] - c[a] for a in range(3))
        inside = (x[:, None, None] ** 2 + y[None, :, None] ** 2 + z[None, None, :] ** 2) <= radius * radius
        image[lo[0] : hi[0], lo[1] : hi[1], lo[2] : hi[2]] |= inside
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cells", type=int, default=256)
    parser.add_argument("--balls", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    n, count = args.cells, args.balls
    rng = np.random.default_rng(1)
    centers = rng.uniform(0.0, 1.0, (count, 3))
    radius = float((3.0 * -np.log(0.7) / (4.0 * np.pi * count)) ** (1.0 / 3.0))
    scene = rs.Scene(spheres=(centers, np.full(count, radius)))
    grid = rs.Grid([0.0] * 3, [1.0 / n] * 3, [n] * 3)
    one, image = median_time(lambda: grid.occupancy(scene, threads=1), args.repeats)
    every, _ = median_time(lambda: grid.occupancy(scene), args.repeats)
    numpy, stamped = median_time(lambda: stamp(centers, radius, n), args.repeats)
    differ = int(np.count_nonzero(image != stamped))
    print(f"{count} balls of radius {radius:.5f} on {n}^3 cells: solid fraction {image.mean():.4f}, cells that differ {differ}")
    print("| | seconds | ratio to numpy |")
    print("|---|---|---|")
    print(f"| Grid.occupancy, 1 thread | {one:.4f} | {one / numpy:.3f} |")
    print(f"| Grid.occupancy, every core | {every:.4f} | {every / numpy:.3f} |")
    print(f"| numpy ball stamp, 1 thread | {numpy:.4f} | 1 |")


if __name__ == "__main__":
    main()
