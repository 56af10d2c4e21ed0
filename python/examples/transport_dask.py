"""Track-length tallies on a Dask cluster: a bed of non-overlapping balls (a jittered cubic lattice
filling a box), scattered once to the workers of a ``dask.distributed`` cluster; each task draws
its own chunk of isotropic uniform random lines through the box from its own seed (no ray array
travels), tallies every ball's path length from ``Scene.ray_spans`` (a track-length estimator),
and the tallies are summed.

It prints the mean chord through a ball against Cauchy's ``4r/3`` and the fraction of line length
inside balls against the packing fraction (Delesse, Rosiwal), each required within five standard
errors, lines per second per worker, and checks that the cluster's tallies equal those of the same
chunks run in this process, bit for bit. It exits 1 if any check fails.

    python python/examples/transport_dask.py                       # a LocalCluster of two workers
    python python/examples/transport_dask.py --scheduler tcp://host:8786
    python python/examples/transport_dask.py --small               # CI
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import raysweep as rs

RADIUS = 1.0
#: Lattice spacing over the radius: the balls fill (4π/3)/2.5³ ≈ 27 % of the box.
SPACING = 2.5


def bed(per_side: int, seed: int) -> tuple[rs.Scene, float, float]:
    """``per_side³`` balls of radius ``RADIUS``, each jittered inside its own lattice cell (so none
    overlap), filling the box ``[0, per_side·SPACING]³``; the scene, the box's side and the
    packing fraction."""
    rng = np.random.default_rng(seed)
    step = SPACING * RADIUS
    index = np.stack(np.meshgrid(*[np.arange(per_side)] * 3, indexing="ij"), axis=-1).reshape(-1, 3)
    room = (step - 2 * RADIUS) / 2
    centres = (index + 0.5) * step + rng.uniform(-room, room, index.shape)
    side = per_side * step
    fraction = len(centres) * 4.0 / 3.0 * np.pi * RADIUS**3 / side**3
    return rs.Scene(spheres=(centres, np.full(len(centres), RADIUS))), side, fraction


def lines(side: float, count: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` isotropic uniform random lines through the box ``[0, side]³`` (directions uniform
    on the sphere, positions uniform on the plane across them, kept where they cross the box):
    origins, directions, and the length of each inside the box."""
    rng = np.random.default_rng(seed)
    centre = np.full(3, side / 2)
    reach = side * np.sqrt(3) / 2
    origins, directions, lengths = [], [], []
    kept = 0
    while kept < count:
        d = rng.standard_normal((count, 3))
        d /= np.linalg.norm(d, axis=1, keepdims=True)
        # Two unit vectors across each direction, and a point on the disk of radius `reach`.
        a = np.where(np.abs(d[:, :1]) < 0.9, [[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]])
        u = np.cross(d, a)
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        v = np.cross(d, u)
        x, y = rng.uniform(-reach, reach, (2, count))
        o = centre + x[:, None] * u + y[:, None] * v
        # The line's length inside the box, by the slab test in float64.
        with np.errstate(divide="ignore", invalid="ignore"):
            t0 = (0.0 - o) / d
            t1 = (side - o) / d
        enter = np.nanmax(np.minimum(t0, t1), axis=1)
        leave = np.nanmin(np.maximum(t0, t1), axis=1)
        inside = leave > enter
        origins.append(o[inside])
        directions.append(d[inside])
        lengths.append((leave - enter)[inside])
        kept += int(inside.sum())
    return (np.concatenate(origins)[:count], np.concatenate(directions)[:count], np.concatenate(lengths)[:count])


def chunk(scene: rs.Scene, side: float, count: int, seed: int) -> dict:
    """One task: ``count`` lines from ``seed``; every ball's track length, and the sums the
    estimates need (per-line in-ball length and box length; chords' count, sum and sum of
    squares)."""
    start = time.perf_counter()
    o, d, box = lines(side, count, seed)
    spans = scene.ray_spans(o, d, threads=1)
    chords = spans.exit - spans.enter
    rows = np.repeat(np.arange(count), np.diff(spans.offsets))
    in_balls = np.bincount(rows, weights=chords, minlength=count)
    return {
        "tally": np.bincount(spans.body, weights=chords, minlength=len(scene)),
        "in_balls": in_balls,
        "box": box,
        "chords": (len(chords), float(chords.sum()), float((chords**2).sum())),
        "seconds": time.perf_counter() - start,
    }


def summary(results: list[dict], fraction: float) -> bool:
    """Prints the estimates against their expectations; whether both lie within five standard
    errors."""
    n, total, squares = (sum(r["chords"][k] for r in results) for k in range(3))
    mean = total / n
    error = np.sqrt((squares / n - mean**2) / n)
    x = np.concatenate([r["in_balls"] for r in results])
    y = np.concatenate([r["box"] for r in results])
    ratio = x.sum() / y.sum()
    ratio_error = np.sqrt(np.var(x - ratio * y) / len(x)) / y.mean()
    cauchy = 4.0 * RADIUS / 3.0
    ok_chord = abs(mean - cauchy) <= 5 * error
    ok_fraction = abs(ratio - fraction) <= 5 * ratio_error
    print(f"mean chord {mean:.5f} ± {error:.5f} against Cauchy's 4r/3 = {cauchy:.5f}: {'ok' if ok_chord else 'FAILED'}")
    print(f"line fraction in balls {ratio:.5f} ± {ratio_error:.5f} against the packing fraction {fraction:.5f}: {'ok' if ok_fraction else 'FAILED'}")
    return ok_chord and ok_fraction


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scheduler", help="a running scheduler's address (default: a LocalCluster of two workers)")
    parser.add_argument("--small", action="store_true", help="20³ balls, 8 chunks of 5000 lines")
    args = parser.parse_args()
    per_side, chunks, count = (20, 8, 5_000) if args.small else (47, 16, 50_000)

    from dask.distributed import Client, LocalCluster

    start = time.perf_counter()
    scene, side, fraction = bed(per_side, seed=1)
    print(f"{len(scene)} balls, packing fraction {fraction:.4f}, built in {time.perf_counter() - start:.2f} s")
    seeds = [1000 + k for k in range(chunks)]

    cluster = None if args.scheduler else LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with Client(args.scheduler or cluster) as client:
        workers = len(client.scheduler_info()["workers"])
        start = time.perf_counter()
        remote = client.scatter(scene, broadcast=True)
        futures = [client.submit(chunk, remote, side, count, seed, pure=False) for seed in seeds]
        results = client.gather(futures)
        wall = time.perf_counter() - start
    if cluster is not None:
        cluster.close()
    lines_total = chunks * count
    busy = sum(r["seconds"] for r in results)
    print(f"{lines_total} lines on {workers} workers in {wall:.2f} s: {count * chunks / busy:.0f} lines/s per worker")

    tally = np.sum([r["tally"] for r in results], axis=0)
    local = [chunk(scene, side, count, seed) for seed in seeds]
    same = tally.tobytes() == np.sum([r["tally"] for r in local], axis=0).tobytes()
    print(f"tallies of the cluster and of this process: {'the same bits' if same else 'DIFFERENT'}")
    print(f"track length per ball: mean {tally.mean():.3f}, least {tally.min():.3f}, most {tally.max():.3f}")
    ok = summary(results, fraction)
    return 0 if ok and same else 1


if __name__ == "__main__":
    sys.exit(main())
