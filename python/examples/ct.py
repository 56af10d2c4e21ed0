"""Tomography with raysweep from Python: the 3D Shepp-Logan phantom (Kak and Slaney, "Principles of
Computerized Tomographic Imaging", 1988, p. 102; the Rust ``ct`` example's ellipsoids), its exact
parallel-beam projections from ``Scene.ray_spans`` chords (``Σ density × chord``), and a
reconstruction on an ``n³`` ``Grid`` over ``[-1, 1]³`` by CGLS (conjugate gradients on the normal
equations, Hestenes and Stiefel 1952) with ``Grid.project`` and ``Grid.backproject`` as the
operator and its exact adjoint, matrix free.

It prints the relative RMS error against the voxelised phantom (each voxel's mean density over
``SUB³`` points in it, from ``Scene.containing``) after each iteration, and fails (exit 1) unless
the last error is at most half the first (CGLS converges to the least-squares image, whose
distance from the voxelised phantom levels off where the data no longer tell voxels apart). With matplotlib installed
it writes the middle slice to ``ct-slice.png``.

    python python/examples/ct.py            # 64³, 60 angles
    python python/examples/ct.py --small    # 32³, 30 angles (CI)
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import raysweep as rs

# (semi-axes, centre, rotation about z in degrees, density): Kak and Slaney's table.
PHANTOM = [
    ((0.69, 0.92, 0.9), (0.0, 0.0, 0.0), 0.0, 2.0),
    ((0.6624, 0.874, 0.88), (0.0, 0.0, 0.0), 0.0, -0.98),
    ((0.41, 0.16, 0.21), (-0.22, 0.0, -0.25), 108.0, -0.02),
    ((0.31, 0.11, 0.22), (0.22, 0.0, -0.25), 72.0, -0.02),
    ((0.21, 0.25, 0.5), (0.0, 0.35, -0.25), 0.0, 0.02),
    ((0.046, 0.046, 0.046), (0.0, 0.1, -0.25), 0.0, 0.02),
    ((0.046, 0.023, 0.02), (-0.08, -0.65, -0.25), 0.0, 0.01),
    ((0.046, 0.023, 0.02), (0.06, -0.65, -0.25), 90.0, 0.01),
    ((0.056, 0.04, 0.1), (0.06, -0.105, 0.625), 90.0, 0.02),
    ((0.056, 0.056, 0.1), (0.0, 0.1, 0.625), 0.0, -0.02),
]


def phantom() -> tuple[rs.Scene, np.ndarray]:
    """The phantom's ellipsoids as a scene, and their densities by body id."""
    semi = np.array([p[0] for p in PHANTOM])
    centres = np.array([p[1] for p in PHANTOM])
    angles = np.radians([p[2] for p in PHANTOM])
    c, s = np.cos(angles), np.sin(angles)
    rotations = np.zeros((len(PHANTOM), 3, 3))
    rotations[:, 0, 0], rotations[:, 0, 1] = c, -s
    rotations[:, 1, 0], rotations[:, 1, 1] = s, c
    rotations[:, 2, 2] = 1.0
    return rs.Scene(ellipsoids=(centres, semi, rotations)), np.array([p[3] for p in PHANTOM])


def beams(angles: int, detector: int) -> tuple[np.ndarray, np.ndarray]:
    """Parallel beams: for each angle θ over half a turn, a detector of ``detector²`` lines across
    ``[-0.9, 0.9]²`` (rows off the voxels' planes), along ``(-sin θ, cos θ, 0)`` from two units
    back."""
    theta = np.radians(np.arange(angles) * 180.0 / angles)
    offsets = 0.9 * (-1.0 + (np.arange(detector) + 0.5) * 2.0 / detector)
    t, v, s = (a.ravel() for a in np.meshgrid(theta, offsets, offsets, indexing="ij"))
    origins = np.stack([s * np.cos(t) + 2.0 * np.sin(t), s * np.sin(t) - 2.0 * np.cos(t), v], axis=1)
    directions = np.stack([-np.sin(t), np.cos(t), np.zeros_like(t)], axis=1)
    return origins, directions


#: Points per voxel along each axis for the voxelised phantom.
SUB = 2


def sums_by_row(offsets: np.ndarray, values: np.ndarray) -> np.ndarray:
    """The sum of each CSR row's values."""
    rows = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    return np.bincount(rows, weights=values, minlength=len(offsets) - 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="32³ voxels and 30 angles")
    parser.add_argument("--iterations", type=int, default=8)
    args = parser.parse_args()
    n, angles = (32, 30) if args.small else (64, 60)

    scene, density = phantom()
    origins, directions = beams(angles, n)
    start = time.perf_counter()
    spans = scene.ray_spans(origins, directions)
    measured = sums_by_row(spans.offsets, density[spans.body] * (spans.exit - spans.enter))
    print(f"{len(origins)} exact projections from ray_spans in {time.perf_counter() - start:.2f} s")

    grid = rs.Grid([-1.0, -1.0, -1.0], [2.0 / n] * 3, [n, n, n])
    axis = -1.0 + (np.arange(n * SUB) + 0.5) * 2.0 / (n * SUB)
    points = np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), axis=-1).reshape(-1, 3)
    inside = scene.containing(points)
    fine = sums_by_row(inside.offsets, density[inside.body]).reshape(n, SUB, n, SUB, n, SUB)
    truth = fine.mean(axis=(1, 3, 5))

    def project(x: np.ndarray) -> np.ndarray:
        return grid.project(x, origins, directions)

    def adjoint(y: np.ndarray) -> np.ndarray:
        return grid.backproject(y, origins, directions)

    # CGLS from zero.
    x = np.zeros((n, n, n))
    r = measured.copy()
    s = adjoint(r)
    p = s.copy()
    gamma = float(np.vdot(s, s))
    errors = []
    start = time.perf_counter()
    for k in range(args.iterations):
        q = project(p)
        alpha = gamma / float(np.vdot(q, q))
        x += alpha * p
        r -= alpha * q
        s = adjoint(r)
        gamma, previous = float(np.vdot(s, s)), gamma
        p = s + (gamma / previous) * p
        errors.append(float(np.linalg.norm(x - truth) / np.linalg.norm(truth)))
        print(f"iteration {k + 1}: relative RMS error {errors[-1]:.4f}")
    took = time.perf_counter() - start
    print(f"{2 * args.iterations} projections of {n}³ voxels in {took:.2f} s ({took / (2 * args.iterations):.3f} s each)")

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, panes = plt.subplots(1, 2, figsize=(8, 4))
        for pane, image, title in zip(panes, (truth, x), ("phantom", "CGLS")):
            pane.imshow(image[:, :, n // 2 + n // 8].T, origin="lower", cmap="gray", vmin=0.95, vmax=1.05)
            pane.set_title(title)
        fig.savefig("ct-slice.png", dpi=100)
        print("wrote ct-slice.png")
    except ImportError:
        pass

    if not errors[-1] <= 0.5 * errors[0]:
        print("FAILED: the error did not fall to half its first value", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
