"""A whole pebble-bed reactor core from Python, as instances: one kind of fuel pebble (a graphite
ball of radius 3 cm holding 12 000 TRISO particles of five concentric spheres in a fuel zone of
radius 2.5 cm: 60 002 bodies) placed at every pebble's position in a cylindrical core. The full
core, 250 000 pebbles, holds 1.5·10^10 bodies, each traced as if it had been translated exactly,
while memory holds one pebble and the instances.

Both packings are random sequential addition done with raysweep itself: candidates drawn in
batches, those clear of the balls kept so far found with ``Scene.nearest``, the batch's own
conflicts with ``Scene.within``, the survivors added with ``Scene.push``.

For each core it prints the time to build it (the pebble's scene and the instanced scene; the
packing apart), the memory, first hits per second on one thread for rays from outside the core
along lines that cross it, and, from ``InstancedScene.ray_spans`` along isotropic uniform random
lines, the fraction of the lines' length within the core that lies in fuel kernels against its
expectation, the kernels' volume fraction of the core (Delesse; Cauchy-Crofton makes the ratio of
the lines' totals unbiased for it). It exits 1 if the two differ by more than five standard
errors.

    python python/examples/pebble_bed.py            # 1 000, 10 000 and 250 000 pebbles
    python python/examples/pebble_bed.py --small    # 300 and 3 000 (CI)
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from typing import Callable

import numpy as np
import numpy.typing as npt

import raysweep as rs

#: The pebble's radius, cm.
PEBBLE = 3.0
#: The fuel zone's radius.
FUEL_ZONE = 2.5
#: TRISO particles in a pebble (HTR-PM: about 12 000).
PARTICLES = 12_000
#: A particle's five spheres, innermost first: the kernel, then the outer radii of the buffer,
#: the inner pyrolytic carbon, the silicon carbide and the outer pyrolytic carbon.
SHELLS = np.array([0.025, 0.0345, 0.0385, 0.042, 0.046])
#: The packing fraction of the pebbles in the core (random sequential addition jams near 0.38).
PACKING = 0.30
#: Rays timed per core, and lines for the kernel fraction.
RAYS = 200_000
LINES = 4_000

Points = npt.NDArray[np.float64]


def pack(rng: np.random.Generator, count: int, radius: float, draw: Callable[[int], Points]) -> Points:
    """``count`` centres of balls of ``radius``, none overlapping or touching, drawn by
    ``draw(n)`` (``n`` candidates at a time) and kept in order if clear of those kept before."""
    kept = rs.Scene(dtype=np.float64, dim=3)
    while len(kept) < count:
        candidates = draw(max(1024, min(16_384, count // 8)))
        if len(kept):
            near = kept.nearest(candidates, max_distance=radius)
            candidates = candidates[near.body < 0]
        # The batch's own pairs closer than two radii: each candidate against those before it.
        close = rs.Scene(spheres=(candidates, radius)).within(candidates, radius)
        accepted = np.zeros(len(candidates), bool)
        for i in range(len(candidates)):
            others = close.row(i)
            accepted[i] = not accepted[others[others < i]].any()
        new = candidates[accepted][: count - len(kept)]
        kept.push(spheres=(new, np.full(len(new), radius)))
    return np.asarray(kept.spheres.centers, np.float64)


def pebble(seed: int) -> tuple[Points, npt.NDArray[np.float64]]:
    """One pebble centred at the origin: the pebble (body 0), its fuel zone (body 1), then each
    particle's five spheres, kernel first (body ``2 + 5k``); centres and radii."""
    rng = np.random.default_rng(seed)
    reach = FUEL_ZONE - SHELLS[-1]

    def in_ball(n: int) -> Points:
        p = rng.uniform(-reach, reach, (2 * n, 3))
        return p[np.linalg.norm(p, axis=1) <= reach][:n]

    particles = pack(rng, PARTICLES, float(SHELLS[-1]), in_ball)
    centres = np.concatenate([np.zeros((2, 3)), np.repeat(particles, len(SHELLS), axis=0)])
    radii = np.concatenate([[PEBBLE, FUEL_ZONE], np.tile(SHELLS, PARTICLES)])
    return centres, radii


class Core:
    """A cylindrical core (axis ``z`` from 0 to ``height``) packed with ``count`` pebbles to
    :data:`PACKING`, as tall as HTR-PM's is for its diameter (11 m by 3 m)."""

    def __init__(self, count: int, seed: int) -> None:
        volume = count * 4.0 / 3.0 * np.pi * PEBBLE**3 / PACKING
        aspect = 11.0 / 3.0
        self.radius = float(np.cbrt(volume / (2.0 * np.pi * aspect)))
        self.height = 2.0 * self.radius * aspect
        rng = np.random.default_rng(seed)
        reach = self.radius - PEBBLE

        def in_cylinder(n: int) -> Points:
            p = rng.uniform([-reach, -reach, PEBBLE], [reach, reach, self.height - PEBBLE], (2 * n, 3))
            return p[np.hypot(p[:, 0], p[:, 1]) <= reach][:n]

        self.centres = pack(rng, count, PEBBLE, in_cylinder)

    def lines(self, rng: np.random.Generator, n: int) -> tuple[Points, Points, Points]:
        """``n`` isotropic uniform random lines that cross the core: origins outside its bounding
        ball, unit directions, and where each enters and leaves the cylinder ``(n, 2)``."""
        centre = np.array([0.0, 0.0, self.height / 2])
        reach = np.hypot(self.radius, self.height / 2)
        found_o, found_d, found_c = [], [], []
        count = 0
        while count < n:
            u = rng.standard_normal((n, 3))
            u /= np.linalg.norm(u, axis=1, keepdims=True)
            helper = np.where(np.abs(u[:, :1]) < 0.9, [[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]])
            e1 = np.cross(u, helper)
            e1 /= np.linalg.norm(e1, axis=1, keepdims=True)
            e2 = np.cross(u, e1)
            a, b = rng.uniform(-reach, reach, (2, n))
            disc = a * a + b * b <= reach * reach
            o = centre + e1 * a[:, None] + e2 * b[:, None] - u * (1.01 * reach)
            chord = self.chord(o, u)
            keep = disc & (chord[:, 0] < chord[:, 1])
            found_o.append(o[keep])
            found_d.append(u[keep])
            found_c.append(chord[keep])
            count += int(keep.sum())
        return tuple(np.concatenate(x)[:n] for x in (found_o, found_d, found_c))  # type: ignore[return-value]

    def chord(self, o: Points, u: Points) -> Points:
        """Where each line ``o + t·u`` enters and leaves the cylinder (enter ≥ exit: misses)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            t0, t1 = -o[:, 2] / u[:, 2], (self.height - o[:, 2]) / u[:, 2]
            enter, exit = np.minimum(t0, t1), np.maximum(t0, t1)
            a = u[:, 0] ** 2 + u[:, 1] ** 2
            b = o[:, 0] * u[:, 0] + o[:, 1] * u[:, 1]
            c = o[:, 0] ** 2 + o[:, 1] ** 2 - self.radius**2
            root = np.sqrt(np.maximum(b * b - a * c, 0.0))
            hit = b * b - a * c >= 0
            enter = np.where(hit, np.maximum(enter, (-b - root) / a), np.inf)
            exit = np.where(hit, np.minimum(exit, (-b + root) / a), -np.inf)
        return np.stack([enter, exit], axis=1)


def run(body: rs.Scene, count: int, seed: int) -> bool:
    """One core of ``count`` pebbles: built, timed, checked; whether the kernel fraction agrees."""
    start = time.perf_counter()
    core = Core(count, seed)
    placed = time.perf_counter() - start
    start = time.perf_counter()
    scene = rs.InstancedScene([body], np.zeros(count, np.int64), core.centres)
    built = time.perf_counter() - start

    rng = np.random.default_rng(seed + 1)
    origins, directions, _ = core.lines(rng, RAYS)
    start = time.perf_counter()
    hits = scene.cast_rays(origins, directions, threads=1)
    per_second = RAYS / (time.perf_counter() - start)

    origins, directions, chords = core.lines(rng, LINES)
    spans = scene.ray_spans(origins, directions)
    kernel = (spans.body >= 2) & ((spans.body - 2) % len(SHELLS) == 0)
    inside = spans.sum(np.where(kernel, spans.exit - spans.enter, 0.0))
    lengths = chords[:, 1] - chords[:, 0]
    fraction = inside.sum() / lengths.sum()
    spread = ((inside - fraction * lengths) ** 2).sum()
    error = np.sqrt(spread / (LINES * (LINES - 1))) / lengths.mean()
    cylinder = np.pi * core.radius**2 * core.height
    expected = count * PARTICLES * 4.0 / 3.0 * np.pi * SHELLS[0] ** 3 / cylinder
    sigmas = (fraction - expected) / error

    bodies = count * len(body)
    memory = body.nbytes + scene.nbytes
    print(f"{count:>7} pebbles, {bodies:.2e} bodies (core {core.radius / 50:.2f} m across, {core.height / 100:.2f} m tall)")
    print(f"  pebbles placed in {placed:.2f} s, instanced scene built in {built:.3f} s")
    print(f"  memory {memory / 1e6:.1f} MB: {memory / count:.1f} bytes per pebble, {memory / bodies:.2e} per body")
    print(
        f"  first hits: {per_second:.0f} rays per second on one thread "
        f"({100 * (hits.instance >= 0).mean():.1f} % of rays hit)"
    )
    print(
        f"  kernel fraction along {LINES} lines: {fraction:.6f} ± {error:.6f}, expected {expected:.6f} "
        f"({sigmas:+.2f} standard errors)"
    )
    return bool(abs(sigmas) <= 5.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="two small cores (CI)")
    args = parser.parse_args()
    sizes = [300, 3_000] if args.small else [1_000, 10_000, 250_000]
    start = time.perf_counter()
    centres, radii = pebble(1)
    packed = time.perf_counter() - start
    start = time.perf_counter()
    body = rs.Scene(spheres=(centres, radii))
    print(
        f"one pebble: {len(body)} bodies ({PARTICLES} particles of {len(SHELLS)} spheres), packed in "
        f"{packed:.2f} s, its scene built in {time.perf_counter() - start:.3f} s"
    )
    agree = all([run(body, count, 10 + k) for k, count in enumerate(sizes)])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"peak memory of the process: {peak / 1e6:.0f} MB")
    if not agree:
        print("the kernel fraction disagrees with the kernels' volume fraction")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
