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

from __future__ import annotations as _annotations

from typing import Any as _Any
from typing import Optional as _Optional

import numpy as _np

try:
    import odl as _odl
except ImportError as err:  # pragma: no cover - the message is the point
    raise ImportError("raysweep.odl needs ODL: pip install odl") from err

from ._arrays import threads as _threads
from ._grid import Grid as _Grid

_tomo = getattr(_odl, "tomo", None) or getattr(getattr(_odl, "applications", None), "tomo", None)
if _tomo is None or not hasattr(_tomo, "RayTransform"):  # pragma: no cover
    raise ImportError(f"raysweep.odl needs ODL's tomography package; ODL {_odl.__version__} has none")

__all__ = ["RayTransform"]

#: The back-end registry of ODL's ``RayTransform`` (``impl='...'`` looks names up there; without
#: ``impl`` it takes the last entry).
_IMPLS = getattr(getattr(_tomo, "operators", None), "ray_trafo", None)


def _rays(geometry: _Any, grid: _Grid) -> tuple[_np.ndarray, _np.ndarray]:
    """Each ray of ``geometry``'s partition (in C order over its shape) as an origin outside the
    grid and a unit direction from the source's side towards the detector, in ``float64``."""
    mesh = geometry.partition.meshgrid
    m = geometry.motion_partition.ndim
    mparam = mesh[0] if m == 1 else tuple(mesh[:m])
    dparam = mesh[m] if len(mesh) - m == 1 else tuple(mesh[m:])
    shape = geometry.partition.shape
    dim = geometry.ndim
    point = _np.broadcast_to(geometry.det_point_position(mparam, dparam), shape + (dim,))
    to_src = _np.broadcast_to(geometry.det_to_src(mparam, dparam), shape + (dim,))
    point = _np.asarray(point, dtype=_np.float64).reshape(-1, dim)
    to_src = _np.asarray(to_src, dtype=_np.float64).reshape(-1, dim)
    # Back along the line from the detector point until past the grid: from there, the
    # direction towards the detector crosses the whole grid.
    lo = grid.min.astype(_np.float64)
    hi = lo + grid.cell_size.astype(_np.float64) * _np.asarray(grid.cells, dtype=_np.float64)
    centre, radius = 0.5 * (lo + hi), 0.5 * float(_np.linalg.norm(hi - lo))
    back = _np.linalg.norm(point - centre, axis=1) + 2.0 * radius + 1.0
    origins = point + to_src * back[:, None]
    return origins, -to_src


class _Backend:
    """ODL's back-end protocol (``call_forward``, ``call_backward``) on a :class:`raysweep.Grid`;
    :class:`RayTransform` makes a subclass that carries the thread count."""

    threads: _Optional[int] = None

    def __init__(self, geometry: _Any, vol_space: _Any, proj_space: _Any) -> None:
        self.geometry, self.vol_space, self.proj_space = geometry, vol_space, proj_space
        dtype = _np.dtype(vol_space.dtype)
        self.grid = _Grid(
            _np.asarray(vol_space.min_pt, dtype=dtype),
            _np.asarray(vol_space.cell_sides, dtype=dtype),
            list(vol_space.shape),
        )
        origins, directions = _rays(geometry, self.grid)
        self.origins, self.directions = origins.astype(dtype), directions.astype(dtype)
        self.scale = float(_weight(proj_space)) / float(_weight(vol_space))

    def call_forward(self, x: _Any, out: _Any = None, **kwargs: _Any) -> _Any:
        volume = _np.asarray(x.asarray(), dtype=self.vol_space.dtype)
        sums = self.grid.project(
            volume, self.origins, self.directions, threads=_threads(self.threads)
        )
        return _store(self.proj_space, sums.reshape(self.proj_space.shape), out)

    def call_backward(self, x: _Any, out: _Any = None, **kwargs: _Any) -> _Any:
        values = _np.asarray(x.asarray(), dtype=self.proj_space.dtype).reshape(-1)
        volume = self.grid.backproject(
            values, self.origins, self.directions, threads=_threads(self.threads)
        )
        if self.scale != 1.0:
            volume *= volume.dtype.type(self.scale)
        return _store(self.vol_space, volume, out)


def _weight(space: _Any) -> float:
    """A space's constant weight (1 where it is unweighted)."""
    if not space.is_weighted:
        return 1.0
    const = getattr(space.weighting, "const", None)
    if const is None:
        raise ValueError(f"raysweep.odl takes spaces of constant weight, not {space.weighting}")
    return float(const)


def _store(space: _Any, array: _np.ndarray, out: _Any) -> _Any:
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

    def __init__(self, space: _Any, geometry: _Any, threads: _Optional[int] = None, **kwargs: _Any):
        """The ray transform of ``space`` along ``geometry``'s rays.

        Parameters
        ----------
        space : odl.DiscretizedSpace
            The image space: 2D or 3D, uniform, ``float32`` or ``float64``; each cell is a
            pixel (voxel) of :class:`raysweep.Grid`.
        geometry : odl.applications.tomo.Geometry
            Any ODL geometry whose rays are lines (parallel, fan, cone, helical cone beams).
        threads : int, optional
            Threads for the projection and back projection: ``None`` or ``-1`` every core, else
            1 to 4096; every count gives the same bits.
        **kwargs
            Passed on to ODL's ``RayTransform`` (``proj_space``, ...), except ``impl``: this
            operator always computes with raysweep (``odl...RayTransform(space, geometry,
            impl='raysweep')`` is the same operator on every core).
        """
        if "impl" in kwargs:
            raise ValueError("raysweep.odl.RayTransform computes with raysweep: do not pass impl")
        if not isinstance(space, _odl.DiscretizedSpace):
            raise ValueError(f"space must be an ODL DiscretizedSpace, not {type(space).__name__}")
        if space.ndim not in (2, 3):
            raise ValueError(f"space must be 2D or 3D: it is {space.ndim}D")
        if _np.dtype(space.dtype) not in (_np.dtype(_np.float32), _np.dtype(_np.float64)):
            raise ValueError(f"space must be of float32 or float64: it is {space.dtype}")
        if not space.is_uniform:
            raise ValueError("space must be uniformly discretized (equal cells on each axis)")
        _threads(threads)
        backend = type("RaysweepBackend", (_Backend,), {"threads": threads})
        super().__init__(space, geometry, impl=backend, **kwargs)


def _register() -> None:
    """``'raysweep'`` among ODL's ray-transform back ends, first, so that ODL's default (the last
    entry, ASTRA's where it is installed) stays what it was; where ODL has no other back end,
    raysweep's is the only one, and so the default."""
    impls = getattr(_IMPLS, "RAY_TRAFO_IMPLS", None)
    if impls is None or "raysweep" in impls:  # pragma: no cover - another ODL layout
        return
    impls["raysweep"] = _Backend
    impls.move_to_end("raysweep", last=False)


_register()
