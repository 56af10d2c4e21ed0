"""raysweep's ``Grid.project`` and ``Grid.backproject`` against ASTRA's CPU projector ``line`` (the
astra-toolbox package, float32), on the same rays: a 2D parallel beam through an ``N × N`` image of
unit pixels, 180 angles over half a turn, a detector of ``1.5 N`` unit pixels. ASTRA's CPU code
runs on one thread; raysweep on one and on two. Then ODL's CGLS, 20 iterations at 256², 180
angles, through ``raysweep.odl.RayTransform`` and through ODL's own ``RayTransform(impl='astra_cpu')``.

The rays are ASTRA's: for angle θ and detector pixel ``j`` (its centre ``u`` from the middle), the
line through ``u·(cos θ, sin θ)`` along ``(sin θ, −cos θ)`` in ASTRA's coordinates (``x`` along the
image's columns, ``y`` up its rows), given to raysweep in the grid's (rows down, columns across).
The script checks that both give the same sinogram to ASTRA's accuracy before it times them.

    pip install astra-toolbox odl
    python python/benchmarks/projectors.py            # N = 256 and 512
    python python/benchmarks/projectors.py --quick    # N = 128, one repeat
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import astra
import numpy as np

import raysweep as rs

ANGLES = 180


def rays(n: int, dtype: type) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ASTRA's parallel geometry's rays as raysweep origins and directions in the grid's axes
    (row down from the image's top, column across), and the angles."""
    detectors = 3 * n // 2
    theta = np.linspace(0, np.pi, ANGLES, endpoint=False)
    u = np.arange(detectors) - (detectors - 1) / 2.0
    s, c = np.sin(theta)[:, None], np.cos(theta)[:, None]
    # ASTRA's world: the detector point and the ray's direction.
    px, py = u[None, :] * c, u[None, :] * s
    dx, dy = np.broadcast_to(s, px.shape), np.broadcast_to(-c, px.shape)
    far = 2.0 * n
    ox, oy = px - far * dx, py - far * dy
    # Grid axes: row = n/2 − y, column = x + n/2.
    origins = np.stack([n / 2 - oy, ox + n / 2], axis=-1).reshape(-1, 2)
    directions = np.stack([-dy, dx], axis=-1).reshape(-1, 2)
    return origins.astype(dtype), directions.astype(dtype), theta


def best(run, repeats: int) -> float:
    """The least wall time of ``repeats`` runs of ``run``, in seconds."""
    times = []
    for _ in range(repeats):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return min(times)


def projectors(n: int, repeats: int) -> None:
    rng = np.random.default_rng(n)
    image = rng.random((n, n)).astype(np.float32)
    o64, d64, theta = rays(n, np.float64)
    count = len(o64)
    vol_geom = astra.create_vol_geom(n, n)
    proj_geom = astra.create_proj_geom("parallel", 1.0, 3 * n // 2, theta)
    proj_id = astra.create_projector("line", proj_geom, vol_geom)
    sino_id, astra_sino = astra.create_sino(image, proj_id)
    astra.data2d.delete(sino_id)
    grid = rs.Grid([0.0, 0.0], [1.0, 1.0], [n, n])
    ours = grid.project(image.astype(np.float64), o64, d64, threads=1).reshape(astra_sino.shape)
    error = np.abs(ours - astra_sino).max() / np.abs(astra_sino).max()
    assert error < 0.05, f"not the same rays: the sinograms differ by {error:.3g}"

    def astra_forward() -> None:
        sid, _ = astra.create_sino(image, proj_id)
        astra.data2d.delete(sid)

    def astra_back() -> None:
        bid, _ = astra.create_backprojection(astra_sino, proj_id)
        astra.data2d.delete(bid)

    ns = 1e9 / count
    print(f"\n{n}² image, {ANGLES} angles × {3 * n // 2} detector pixels = {count} rays "
          f"(largest difference from ASTRA's sinogram: {error:.2e} of its largest value)")
    print("| ns per ray | forward | back projection |")
    print("|---|---|---|")
    fa, ba = best(astra_forward, repeats) * ns, best(astra_back, repeats) * ns
    print(f"| ASTRA `line` (float32, one thread) | {fa:.0f} | {ba:.0f} |")
    for dtype in (np.float32, np.float64):
        g = rs.Grid(np.zeros(2, dtype), np.ones(2, dtype), [n, n])
        o, d = o64.astype(dtype), d64.astype(dtype)
        v = image.astype(dtype)
        values = astra_sino.reshape(-1).astype(dtype)
        for threads in (1, 2):
            f = best(lambda: g.project(v, o, d, threads=threads), repeats) * ns
            b = best(lambda: g.backproject(values, o, d, threads=threads), repeats) * ns
            print(f"| raysweep {np.dtype(dtype).name}, {threads} thread{'s' * (threads > 1)} "
                  f"| {f:.0f} ({f / fa:.2f} x) | {b:.0f} ({b / ba:.2f} x) |")
    astra.projector.delete(proj_id)


def cgls(repeats: int) -> None:
    import odl

    import raysweep.odl

    tomo = odl.applications.tomo
    n = 256
    print(f"\nODL CGLS, 20 iterations, {n}², {ANGLES} angles (seconds)")
    for dtype in ("float32", "float64"):
        space = odl.uniform_discr([-n / 2] * 2, [n / 2] * 2, [n, n], dtype=dtype)
        geometry = tomo.parallel_beam_geometry(space, num_angles=ANGLES)
        phantom = odl.core.phantom.shepp_logan(space, modified=True)
        ops = [("raysweep.odl", raysweep.odl.RayTransform(space, geometry))]
        if dtype == "float32":  # ASTRA takes float32 only
            ops.insert(0, ("ODL astra_cpu (ASTRA kernel linear)",
                           tomo.RayTransform(space, geometry, impl="astra_cpu")))
        for name, op in ops:
            data = op(phantom)

            def run() -> None:
                x = space.zero()
                odl.solvers.conjugate_gradient_normal(op, x, data, niter=20)

            print(f"| {name}, {dtype} | {best(run, repeats):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="N = 128, one repeat, no CGLS")
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"ASTRA {astra.__version__}, raysweep {rs.__version__}")
    if args.quick:
        projectors(128, 1)
        return
    for n in (256, 512):
        projectors(n, 5)
    cgls(2)


if __name__ == "__main__":
    main()
