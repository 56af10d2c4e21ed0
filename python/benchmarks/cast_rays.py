"""First hits from Python against the Rust crate on the same scene and rays, in one run.

Standard workload: 10^5 balls of radius 1 whose centres are uniform in a cube they fill to 10 %
(overlaps allowed), 10^6 rays from uniform points inside it, isotropic, unbounded. For each width
it prints, per ray (median of ``--repeats`` runs):

- ``Scene.cast_rays`` from Python on one thread, and on every core;
- the crate's ``Scene::cast_rays`` on the same balls and rays (``benches/src/bin/cast_rays_file.rs``,
  built by cargo in the release profile, as a user's crate is), with the ratio;
- beside them, when installed, Open3D's ``RaycastingScene`` on the balls tessellated (80 and 320
  triangles each): time per ray, build time and memory per ball, and how many rays it sends to a
  wrong first ball or misses, against raysweep's ``float64`` answers; and a numpy brute force over
  10^3 balls.

With ``--camera``, the rays are a pinhole camera's instead (``rays`` rounded to a square, row
after row, from a cube's side in front of the cube's centre looking at it, as the crate's
``benches/ray_batch.rs``): neighbouring rows are traced together in packets, in the crate and
from Python alike.

    python python/benchmarks/cast_rays.py             # from the repository's root
    python python/benchmarks/cast_rays.py --rays 100000 --repeats 3
    python python/benchmarks/cast_rays.py --camera --repeats 3
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import raysweep as rs
from timing import median_time

ROOT = Path(__file__).resolve().parents[2]


def workload(balls: int, rays: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Centres and radii of ``balls`` unit balls filling 10 % of a cube, and ``rays`` isotropic
    rays from uniform points inside it."""
    rng = np.random.default_rng(seed)
    side = (balls * 4.0 / 3.0 * np.pi / 0.1) ** (1.0 / 3.0)
    centres = rng.uniform(0, side, (balls, 3))
    origins = rng.uniform(0, side, (rays, 3))
    directions = rng.standard_normal((rays, 3))
    return centres, np.ones(balls), origins, directions


def camera(balls: int, rays: int) -> tuple[np.ndarray, np.ndarray]:
    """A pinhole camera's ``side²`` rays (``side`` the square root of ``rays``), row after row,
    from a cube's side in front of the centre of the cube of :func:`workload`'s balls."""
    side = (balls * 4.0 / 3.0 * np.pi / 0.1) ** (1.0 / 3.0)
    n = int(round(rays**0.5))
    at = ((np.arange(n) + 0.5) / n * 2 - 1) * 0.6
    x, y = np.meshgrid(at, at)
    directions = np.stack([x.ravel(), y.ravel(), np.ones(n * n)], axis=1)
    origins = np.tile([side / 2, side / 2, -side / 2], (n * n, 1))
    return origins, directions


def rust_ns_per_ray(centres, radii, origins, directions, width: str, repeats: int) -> float:
    """The crate's ``Scene::cast_rays``, ns per ray, from the same values."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, values in (("centres", centres), ("radii", radii), ("origins", origins), ("directions", directions)):
            np.ascontiguousarray(values, "<f8").tofile(os.path.join(tmp, name))
        out = subprocess.run(
            ["cargo", "run", "-q", "--release", "-p", "raysweep-benches", "--bin", "cast_rays_file", "--", tmp, width, str(repeats)],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout.split()
    return float(out[0])


def icosphere(subdivisions: int) -> tuple[np.ndarray, np.ndarray]:
    """A unit sphere of 20·4^subdivisions triangles (80 at 1, 320 at 2)."""
    t = (1 + 5**0.5) / 2
    v = [(-1, t, 0), (1, t, 0), (-1, -t, 0), (1, -t, 0), (0, -1, t), (0, 1, t), (0, -1, -t), (0, 1, -t),
         (t, 0, -1), (t, 0, 1), (-t, 0, -1), (-t, 0, 1)]
    f = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4), (11, 10, 2), (10, 7, 6),
         (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8), (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10),
         (8, 6, 7), (9, 8, 1)]
    vertices = [np.array(p, float) / np.linalg.norm(p) for p in v]
    for _ in range(subdivisions):
        middle: dict = {}

        def mid(a: int, b: int) -> int:
            key = (min(a, b), max(a, b))
            if key not in middle:
                m = vertices[a] + vertices[b]
                vertices.append(m / np.linalg.norm(m))
                middle[key] = len(vertices) - 1
            return middle[key]

        f = [t for a, b, c in f for t in ((a, mid(a, b), mid(a, c)), (b, mid(b, c), mid(a, b)),
                                          (c, mid(a, c), mid(b, c)), (mid(a, b), mid(b, c), mid(a, c)))]
    return np.array(vertices), np.array(f)


def open3d_row(centres, origins, directions, exact, subdivisions: int, repeats: int) -> None:
    """Open3D's ``RaycastingScene`` on the balls tessellated, against raysweep's answers."""
    import open3d as o3d

    vertices, faces = icosphere(subdivisions)
    n = len(centres)
    all_vertices = (vertices[None, :, :] + centres[:, None, :]).reshape(-1, 3).astype(np.float32)
    all_faces = (faces[None, :, :] + (np.arange(n) * len(vertices))[:, None, None]).reshape(-1, 3).astype(np.uint32)
    start = time.perf_counter()
    scene = o3d.t.geometry.RaycastingScene(nthreads=1)
    scene.add_triangles(o3d.core.Tensor(all_vertices), o3d.core.Tensor(all_faces))
    units = directions / np.linalg.norm(directions, axis=1, keepdims=True)
    rays = o3d.core.Tensor(np.hstack([origins, units]).astype(np.float32))
    scene.cast_rays(rays[:1], nthreads=1)  # builds the hierarchy
    build = time.perf_counter() - start
    answers = {}

    def run():
        answers["a"] = scene.cast_rays(rays, nthreads=1)

    per_ray = median_time(run, repeats)[0] / len(origins) * 1e9
    ids = answers["a"]["primitive_ids"].numpy().astype(np.int64)
    t_hit = answers["a"]["t_hit"].numpy()
    body = np.where(ids == o3d.t.geometry.RaycastingScene.INVALID_ID, -1, ids // len(faces))
    wrong = np.count_nonzero(body != exact.body)
    lost = np.count_nonzero((body < 0) & (exact.body >= 0))
    same = (body == exact.body) & (body >= 0)
    off = np.count_nonzero(np.abs(t_hit[same] - exact.distance[same]) > 1e-6 * np.maximum(1, exact.distance[same]))
    memory = (all_vertices.nbytes + all_faces.nbytes) / n
    print(f"  Open3D, {len(faces)} triangles per ball: {per_ray:.0f} ns per ray; build {build / n * 1e6:.1f} us and "
          f"{memory / 1e3:.1f} kB (mesh) per ball; wrong first ball {100 * wrong / len(origins):.2f} % "
          f"(of which lost hits {100 * lost / len(origins):.2f} %); on the right ball, the distance off by more than "
          f"1e-6 (relative) on {100 * off / max(1, np.count_nonzero(same)):.1f} % of rays (the facets)")


def numpy_row(centres, origins, directions, repeats: int) -> None:
    """The textbook ray-sphere formula over every ball, vectorised with numpy, at 10^3 balls."""
    c = centres[:1000]
    units = directions / np.linalg.norm(directions, axis=1, keepdims=True)
    o = origins[:2000]
    u = units[:2000]

    def run():
        f = o[:, None, :] - c[None, :, :]
        b = np.einsum("ijk,ik->ij", f, u)
        disc = b * b - (np.einsum("ijk,ijk->ij", f, f) - 1.0)
        t = np.where(disc >= 0, -b - np.sqrt(np.maximum(disc, 0)), np.inf)
        t = np.where(t >= 0, t, np.where(disc >= 0, 0.0, np.inf))
        return t.min(axis=1)

    print(f"  numpy brute force over 10^3 balls: {median_time(run, repeats)[0] / len(o) * 1e9:.0f} ns per ray")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--balls", type=int, default=100_000)
    parser.add_argument("--rays", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--camera", action="store_true", help="a camera's rays, in rows")
    args = parser.parse_args()
    centres, radii, origins, directions = workload(args.balls, args.rays)
    if args.camera:
        origins, directions = camera(args.balls, args.rays)
    print(f"{args.balls} balls, {len(origins)} {'camera ' if args.camera else ''}rays, {os.cpu_count()} cores")
    exact = None
    for dtype, width in ((np.float32, "f32"), (np.float64, "f64")):
        c, r = centres.astype(dtype), radii.astype(dtype)
        start = time.perf_counter()
        scene = rs.Scene(spheres=(c, r))
        build = time.perf_counter() - start
        memory = scene.hierarchy_bytes / len(scene) + (c.itemsize * 4)
        print(f"{width}: raysweep builds in {build / len(scene) * 1e9:.0f} ns per ball (every core), "
              f"{memory:.0f} bytes per ball (hierarchy and ball)")
        o, d = origins.astype(dtype), directions.astype(dtype)
        one = median_time(lambda: scene.cast_rays(o, d, threads=1), args.repeats)[0] / len(o) * 1e9
        every = median_time(lambda: scene.cast_rays(o, d), args.repeats)[0] / len(o) * 1e9
        rust = rust_ns_per_ray(centres, radii, origins, directions, width, args.repeats)
        print(f"{width}: Python one thread {one:.0f} ns per ray, the crate {rust:.0f} ({one / rust:.3f} of it); "
              f"every core {every:.0f} ({one / every:.2f}x one thread)")
        if dtype == np.float64:
            exact = scene.cast_rays(o, d)
    try:
        for subdivisions in (1, 2):
            open3d_row(centres, origins, directions, exact, subdivisions, args.repeats)
    except ImportError:
        print("  (Open3D not installed: its rows left out)")
    numpy_row(centres, origins, directions, args.repeats)


if __name__ == "__main__":
    main()
