"""``raysweep.odl``: ODL's ray transform computed by raysweep's exact projector.

:class:`RayTransform` is an ODL ``RayTransform`` (so every ODL solver, functional and diagnostic
takes it) whose forward projection is :meth:`raysweep.Grid.project` and whose adjoint is
:meth:`raysweep.Grid.backproject` scaled by ODL's weightings: each ray's line integral through
the image with pixels (voxels) as ODL's ``DiscretizedSpace`` lays them out, exact to the last
bits, in 2D and in 3D, on the CPU's cores. ODL has no other 3D projector on a CPU (ASTRA's CPU
code is 2D only).

The rays come from the geometry itself: for each point of the geometry's partition (angles and
detector parameters), the line through ``geometry.det_point_position`` along
``geometry.det_to_src``. So any ODL geometry whose rays are lines works: parallel beams in 2D and
3D, fan beams, cone beams, helical cone beams. The whole line is integrated, as ASTRA does.

The adjoint: ODL's spaces are weighted (the image space by the cell volume, the projection space
by the partition's cell size when the image space is weighted by its cell volume), so the adjoint
of ``A`` in those inner products is ``(w_proj / w_image) Aᵀ``; ``Aᵀ`` is the back projection,
computed exactly, so ODL's ``OperatorTest`` finds the adjoint identity to rounding.

This module needs ODL (``pip install odl``, version 1.0 or later: a ``RayTransform`` that takes a
back end through ``impl``); ``import raysweep`` does not import it. ODL (odlgroup.github.io/odl)
is released under the MPL 2.0.
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

try:
    import odl
except ImportError as err:  # pragma: no cover - the message is the point
    raise ImportError("raysweep.odl needs ODL: pip install odl") from err

from ._arrays import threads as _threads
from ._grid import Grid

_tomo = getattr(odl, "tomo", None) or getattr(getattr(odl, "applications", None), "tomo", None)
if _tomo is None or not hasattr(_tomo, "RayTransform"):  # pragma: no cover
    raise ImportError(f"raysweep.odl needs ODL's tomography package; ODL {odl.__version__} has none")

__all__ = ["RayTransform"]


def _rays(geometry: Any, grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """Each ray of ``geometry``'s partition (in C order over its shape) as an origin outside the
    grid and a unit direction from the source's side towards the detector, in ``float64``."""
    mesh = geometry.partition.meshgrid
    m = geometry.motion_partition.ndim
    mparam = mesh[0] if m == 1 else tuple(mesh[:m])
    dparam = mesh[m] if len(mesh) - m == 1 else tuple(mesh[m:])
    shape = geometry.partition.shape
    dim = geometry.ndim
    point = np.broadcast_to(geometry.det_point_position(mparam, dparam), shape + (dim,))
    to_src = np.broadcast_to(geometry.det_to_src(mparam, dparam), shape + (dim,))
    point = np.asarray(point, dtype=np.float64).reshape(-1, dim)
    to_src = np.asarray(to_src, dtype=np.float64).reshape(-1, dim)
    # Back along the line from the detector point until past the grid: from there, the
    # direction towards the detector crosses the whole grid.
    lo = grid.min.astype(np.float64)
    hi = lo + grid.cell_size.astype(np.float64) * np.asarray(grid.cells, dtype=np.float64)
    centre, radius = 0.5 * (lo + hi), 0.5 * float(np.linalg.norm(hi - lo))
    back = np.linalg.norm(point - centre, axis=1) + 2.0 * radius + 1.0
    origins = point + to_src * back[:, None]
    return origins, -to_src


class _Backend:
    """ODL's back-end protocol (``call_forward``, ``call_backward``) on a :class:`raysweep.Grid`;
    :class:`RayTransform` makes a subclass that carries the thread count."""

    threads: Optional[int] = None

    def __init__(self, geometry: Any, vol_space: Any, proj_space: Any) -> None:
        self.geometry, self.vol_space, self.proj_space = geometry, vol_space, proj_space
        dtype = np.dtype(vol_space.dtype)
        self.grid = Grid(
            np.asarray(vol_space.min_pt, dtype=dtype),
            np.asarray(vol_space.cell_sides, dtype=dtype),
            list(vol_space.shape),
        )
        origins, directions = _rays(geometry, self.grid)
        self.origins, self.directions = origins.astype(dtype), directions.astype(dtype)
        self.scale = float(_weight(proj_space)) / float(_weight(vol_space))

    def call_forward(self, x: Any, out: Any = None, **kwargs: Any) -> Any:
        volume = np.asarray(x.asarray(), dtype=self.vol_space.dtype)
        sums = self.grid.project(
            volume, self.origins, self.directions, threads=_threads(self.threads)
        )
        return _store(self.proj_space, sums.reshape(self.proj_space.shape), out)

    def call_backward(self, x: Any, out: Any = None, **kwargs: Any) -> Any:
        values = np.asarray(x.asarray(), dtype=self.proj_space.dtype).reshape(-1)
        volume = self.grid.backproject(
            values, self.origins, self.directions, threads=_threads(self.threads)
        )
        if self.scale != 1.0:
            volume *= volume.dtype.type(self.scale)
        return _store(self.vol_space, volume, out)


def _weight(space: Any) -> float:
    """A space's constant weight (1 where it is unweighted)."""
    if not space.is_weighted:
        return 1.0
    const = getattr(space.weighting, "const", None)
    if const is None:
        raise ValueError(f"raysweep.odl takes spaces of constant weight, not {space.weighting}")
    return float(const)


def _store(space: Any, array: np.ndarray, out: Any) -> Any:
    """``array`` as an element of ``space``, written into ``out`` where one is given."""
    if out is None:
        return space.element(array)
    out[:] = array
    return out


class RayTransform(_tomo.RayTransform):  # type: ignore[misc, name-defined]
    """ODL's ``RayTransform`` from ``space`` (a 2D or 3D ``DiscretizedSpace`` of ``float32`` or
    ``float64``) to the projection space of ``geometry`` (any ODL tomography geometry whose rays
    are lines), computed by raysweep: exact line integrals forward, their exact adjoint under ODL's
    weightings backward, on ``threads`` threads (``None``: every core).

    >>> import numpy as np, odl
    >>> import raysweep.odl
    >>> tomo = odl.applications.tomo
    >>> space = odl.uniform_discr([-1, -1], [1, 1], [4, 4], dtype="float64")
    >>> geometry = tomo.Parallel2dGeometry(
    ...     odl.uniform_partition(-np.pi / 8, 7 * np.pi / 8, 4), odl.uniform_partition(-2, 2, 8))
    >>> op = raysweep.odl.RayTransform(space, geometry)
    >>> sino = op(space.one())
    >>> float(sino.asarray()[0, 3])  # at angle 0 (the first angle), 0.25 off the centre: the chord
    2.0
    """

    def __init__(self, space: Any, geometry: Any, threads: Optional[int] = None, **kwargs: Any):
        if "impl" in kwargs:
            raise ValueError("raysweep.odl.RayTransform computes with raysweep: do not pass impl")
        if not isinstance(space, odl.DiscretizedSpace):
            raise ValueError(f"space must be an ODL DiscretizedSpace, not {type(space).__name__}")
        if space.ndim not in (2, 3):
            raise ValueError(f"space must be 2D or 3D: it is {space.ndim}D")
        if np.dtype(space.dtype) not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise ValueError(f"space must be of float32 or float64: it is {space.dtype}")
        if not space.is_uniform:
            raise ValueError("space must be uniformly discretized (equal cells on each axis)")
        _threads(threads)
        backend = type("RaysweepBackend", (_Backend,), {"threads": threads})
        super().__init__(space, geometry, impl=backend, **kwargs)
