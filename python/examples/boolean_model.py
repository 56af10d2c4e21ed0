"""The chords of a Boolean model (overlapping balls) in a periodic box, from ``union_spans``,
against its closed forms; and its voxel image from ``Grid.occupancy``.

Balls of radius ``r`` whose centres are a Poisson process of density ``lam`` (here ``N`` uniform
centres in a cube of side ``L``, periodic) overlap freely: the solid is their union. Its void
fraction is ``1 - phi = exp(-lam v)`` (``v`` a ball's volume), and along any line the void chords
are exponential with mean ``1 / (lam pi r^2)`` = ``4 (1 - phi) / s`` with ``s = lam 4 pi r^2 (1 -
phi)`` (Torquato, "Random Heterogeneous Materials", 2002, sections 2.2.4 and 3.1): a line leaves
the solid into void that ends at the next ball the line meets. The solid chords' mean is ``4 phi /
s``. One span per ball (``ray_spans``) overlaps where balls overlap; the chords are the union's
intervals (``union_spans``), merged exactly.

Each of 32 realisations is walked by rays from random points in random directions, 40 box
lengths each through the periodic medium. A
phase's mean chord is its length along the segments over the number of its chords that start on
them (every union interval entered starts a solid chord and ends a void one), which the
segments' ends do not bias; the void chords whose both ends lie on a segment, each weighted
against the odds that a chord of its length does, give the distribution, whose survival
``P(chord > x)`` must be ``exp(-x / mean)``. The voxel image's solid
fraction (``Grid.occupancy``, 128^3 cells) must agree with ``phi`` to a few voxels' worth of
sampling. Where porespy is installed, its voxel void chords (``apply_chords`` on that image) are
printed beside the closed form: they see the medium at the voxels' resolution and lose the
chords that touch the image's faces, the long ones most.

The example fails if a mean chord is more than five statistical errors (over the 32
realisations) from its closed form, if the survival of void chords departs from the exponential
by more than five errors at the mean and at twice it, or if the image's solid
fraction is off by more than 0.01.

    python python/examples/boolean_model.py [--small]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import raysweep as rs

RADIUS = 1.0
SIDE = 20.0
WALK = 40.0
PHI = 0.3
BATCHES = 32


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="fewer rays and voxels (CI)")
    args = parser.parse_args()
    rays_per_batch = 64 if args.small else 1024
    cells = 64 if args.small else 128
    rng = np.random.default_rng(2026)

    density = -np.log(1.0 - PHI) / (4.0 / 3.0 * np.pi * RADIUS**3)
    count = int(round(density * SIDE**3))
    lam = count / SIDE**3
    phi = 1.0 - np.exp(-lam * 4.0 / 3.0 * np.pi * RADIUS**3)
    s = lam * 4.0 * np.pi * RADIUS**2 * (1.0 - phi)
    void_mean, solid_mean = 4.0 * (1.0 - phi) / s, 4.0 * phi / s
    print(f"{count} overlapping balls of radius {RADIUS} in a periodic box of side {SIDE}: phi = {phi:.4f}")

    start = time.perf_counter()
    void_means, solid_means, voids = [], [], []
    for _ in range(BATCHES):
        # A realisation of its own for each batch: the errors hold the realisations' spread.
        centres = rng.uniform(0.0, SIDE, (count, 3))
        box = rs.PeriodicScene(rs.Scene(spheres=(centres, np.full(count, RADIUS))), ([0.0] * 3, [SIDE] * 3))
        o = rng.uniform(0.0, SIDE, (rays_per_batch, 3))
        d = rng.standard_normal((rays_per_batch, 3))
        union = box.union_spans(o, d / np.linalg.norm(d, axis=1)[:, None], WALK * SIDE)
        solid = float(union.sum().sum())
        entered = int(np.count_nonzero(union.enter > 0.0))  # chords that start on a segment
        void_means.append((rays_per_batch * WALK * SIDE - solid) / entered)
        solid_means.append(solid / entered)
        # The gaps between a row's intervals: its whole void chords.
        voids.append(np.concatenate([enter[1:] - exit[:-1] for enter, exit in map(union.row, range(rays_per_batch))]))
    seconds = time.perf_counter() - start
    failed = False
    for name, batch, want in [("void", void_means, void_mean), ("solid", solid_means, solid_mean)]:
        mean, err = float(np.mean(batch)), float(np.std(batch) / np.sqrt(BATCHES))
        ok = abs(mean - want) <= 5 * err
        failed |= not ok
        print(f"mean {name} chord {mean:.4f} +- {err:.4f}, closed form {want:.4f}{'' if ok else '  FAILED'}")
    # A chord of length x lies whole on a segment of length W with odds (W - x) / W: each one
    # counts 1 / (W - x), undoing the bias against long chords.
    for x in (void_mean, 2.0 * void_mean):
        batch = [float(np.sum((v > x) / (WALK * SIDE - v)) / np.sum(1.0 / (WALK * SIDE - v))) for v in voids]
        survive, err = float(np.mean(batch)), float(np.std(batch) / np.sqrt(BATCHES))
        want = float(np.exp(-x / void_mean))
        ok = abs(survive - want) <= 5 * err
        failed |= not ok
        print(f"P(void chord > {x:.3f}) = {survive:.4f} +- {err:.4f}, exponential {want:.4f}{'' if ok else '  FAILED'}")
    print(f"{BATCHES} realisations, {BATCHES * rays_per_batch} rays of {WALK} box lengths: {seconds:.2f} s")

    grid = rs.Grid([0.0] * 3, [SIDE / cells] * 3, [cells] * 3)
    start = time.perf_counter()
    image = grid.occupancy(box)
    seconds = time.perf_counter() - start
    fraction = float(image.mean())
    ok = abs(fraction - phi) <= 0.01
    failed |= not ok
    print(f"voxel image {cells}^3 by Grid.occupancy: solid fraction {fraction:.4f} in {seconds:.3f} s{'' if ok else '  FAILED'}")
    try:
        import porespy as ps  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        print("porespy is not installed: its voxel chords are left out")
    else:
        # porespy's chords along axis 0 of the void voxels, one line in two, those touching the
        # image's faces removed (as porespy advises), each its voxels times their size.
        chords = ps.filters.apply_chords(~image, spacing=1, axis=0, trim_edges=True, label=True)
        lengths = np.bincount(chords.ravel())[1:] * (SIDE / cells)
        lengths = lengths[lengths > 0]
        print(
            f"porespy's voxel void chords ({len(lengths)} of the last realisation's image): mean "
            f"{lengths.mean():.4f}, {lengths.mean() / void_mean - 1.0:+.1%} off the closed form {void_mean:.4f}"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
