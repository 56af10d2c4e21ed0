"""A random packing of balls in a periodic box: chord lengths from rays that wrap, and the pair
distribution of the centres out to two box lengths, from ``rs.Scene(..., period=...)``.

Equal balls (radius ``r``) are placed in a cube of side ``L`` by random sequential addition with
periodic boundaries. No ball overlaps another, so the solid fraction is ``phi = N (4/3) pi r^3 /
L^3`` and the surface per volume ``s = N 4 pi r^2 / L^3`` exactly. For isotropic uniform random
lines (Torquato, "Random Heterogeneous Materials", 2002, section 2.2.4; Cauchy's formula) the mean
chord of a ball is ``4r/3`` and the mean chord of the void ``4 (1 - phi) / s``.

Rays from random points in random directions walk 40 box lengths through the periodic medium
(``ray_spans``): every chord is whole, none trimmed at the box's faces (porespy's
``apply_chords(trim_edges=True)`` must drop those, which biases its distribution against long
chords). A phase's mean chord is its length along the segments over the number of its chords
that start on them (each ball entered starts a solid chord and ends a void one), which the
segments' ends do not bias. The pair distribution ``g(d)`` of
the centres comes from ``within`` around each centre out to ``2L``, four times what a half-box
cutoff allows (freud's AABBQuery refuses ``r_max`` beyond half the box). Each centre's own
images lie at exactly ``L``, ``sqrt(2) L``, ``sqrt(3) L`` and ``2L``: all 32 must be listed, with
the ball itself.

The example fails if a mean chord is more than five statistical errors (from 32 batches of rays)
from its closed form, if any pair of centres is closer than contact, if a centre's own images are
not all listed, or if ``g`` over ``[1.5L, 2L]`` is more than five errors from 1.

    python python/examples/periodic.py [--small]
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
BATCHES = 32
#: How far the pair distribution reaches, in box lengths: two, where each centre's own images
#: along the axes lie exactly (``within`` lists them, whatever the centre's coordinates).
REACH = 2.0


def packing(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` centres in ``[0, SIDE)^3``, each at least ``2r`` from every image of the others."""
    centres = np.empty((0, 3))
    while len(centres) < n:
        c = rng.uniform(0.0, SIDE, 3)
        d = np.abs(centres - c)
        d = np.minimum(d, SIDE - d)
        if not len(centres) or np.min(np.einsum("ij,ij->i", d, d)) >= (2 * RADIUS) ** 2:
            centres = np.vstack([centres, c])
    return centres


def mean_and_error(sums: np.ndarray, counts: np.ndarray) -> tuple[float, float]:
    means = sums / counts
    return float(means.mean()), float(means.std(ddof=1) / np.sqrt(len(means)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="200 balls and 1000 rays (for CI)")
    args = parser.parse_args()
    balls, rays = (200, 1000) if args.small else (400, 4000)
    rng = np.random.default_rng(7)
    centres = packing(rng, balls)
    scene = rs.Scene(spheres=(centres, RADIUS), period=(np.zeros(3), np.full(3, SIDE)))
    volume = SIDE**3
    phi = balls * 4 / 3 * np.pi * RADIUS**3 / volume
    s = balls * 4 * np.pi * RADIUS**2 / volume
    print(f"{balls} balls of radius {RADIUS} in a periodic cube of side {SIDE}: solid fraction {phi:.4f}")

    # Chords along rays that wrap through the medium.
    origins = rng.uniform(0.0, SIDE, (rays, 3))
    directions = rng.standard_normal((rays, 3))
    started = time.perf_counter()
    spans = scene.ray_spans(origins, directions, WALK * SIDE)
    elapsed = time.perf_counter() - started
    print(f"{rays} rays of {WALK:.0f} box lengths: {len(spans.body)} spans in {elapsed:.2f} s")
    # The spans are clamped to each segment: their lengths are the solid along it.
    batch = np.repeat(np.arange(rays), np.diff(spans.offsets)) % BATCHES
    inside = np.bincount(batch, spans.exit - spans.enter, BATCHES)
    entered = np.bincount(batch[spans.enter > 0.0], minlength=BATCHES)
    walked = np.bincount(np.arange(rays) % BATCHES, minlength=BATCHES) * WALK * SIDE
    solid, void = (inside, entered), (walked - inside, entered)
    ok = True
    for name, (sums, counts), want in (("solid", solid, 4 * RADIUS / 3), ("void", void, 4 * (1 - phi) / s)):
        mean, error = mean_and_error(sums, counts)
        off = (mean - want) / error
        print(f"  mean {name} chord {mean:.4f} ± {error:.4f}, closed form {want:.4f} ({off:+.1f} errors)")
        ok &= abs(off) <= 5.0

    # The pair distribution out to two box lengths, over the other centres' images.
    reach = REACH * SIDE
    started = time.perf_counter()
    near = scene.within(centres, reach - RADIUS)
    elapsed = time.perf_counter() - started
    at = np.repeat(np.arange(balls), np.diff(near.offsets))
    other = near.body != at
    own = np.bincount(at[~other], minlength=balls)
    if np.any(own != 33):
        print(f"  own images listed: {np.unique(own)}, not 33 (the ball and 32 images) for every centre")
        ok = False
    d = np.linalg.norm(centres[near.body] + near.image * SIDE - centres[at], axis=1)[other]
    d = d[d < reach]
    bins = np.linspace(0.0, reach, 80)
    counts, _ = np.histogram(d, bins)
    density = (balls - 1) / volume
    shells = 4 / 3 * np.pi * np.diff(bins**3)
    g = counts / (balls * density * shells)
    far = bins[:-1] >= 1.5 * SIDE
    g_far = counts[far].sum() / (balls * density * shells[far].sum())
    g_error = g_far * np.sqrt(2 / counts[far].sum())
    below = int(np.sum(d < 2 * RADIUS * (1 - 1e-12)))
    print(
        f"pair distribution out to {reach} ({REACH} box lengths): {len(near.body)} pairs in {elapsed:.2f} s; "
        f"pairs below contact {below}, g just past contact {g[np.searchsorted(bins, 2 * RADIUS)]:.2f}, "
        f"g over [1.5L, {REACH}L] {g_far:.4f} ± {g_error:.4f}"
    )
    ok &= below == 0 and abs(g_far - 1) <= 5 * g_error
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
