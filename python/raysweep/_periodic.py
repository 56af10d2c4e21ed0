"""``raysweep.PeriodicScene``: a scene's bodies repeated on a lattice without end."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._raysweep import _PeriodicScene, _Scene
from ._results import (
    Floats,
    Ints,
    PeriodicBodies,
    PeriodicCrossings,
    PeriodicHits,
    PeriodicNearest,
    PeriodicSpans,
    UnionSpans,
)


def _images(columns: Sequence[np.ndarray]) -> Ints:
    """The image's ``D`` id columns as one ``(n, D)`` array."""
    return np.stack(columns, axis=1) if len(columns[0]) else np.empty((0, len(columns)), np.int64)


class PeriodicScene:
    """A scene's bodies repeated on a lattice without end: a periodic box of particles, a porous
    sample's periodic representative volume, a reactor lattice. Image ``k`` (an integer vector,
    zero on the axes that do not repeat) holds every body translated by ``k * size`` exactly,
    and every query answers what the loop over every ``(body, image)`` pair answers against those
    bodies: the first hit with the lowest ``(body, image)`` on equal distances (images compared
    lexicographically); spans by ``enter``, then ``(body, image)``; ``containing`` and ``within``
    in increasing ``(body, image)``, at any distance (beyond half the box too). No body is
    copied, whatever the distance asked or the segment's length. Every answer names its image
    in an ``image`` column of shape ``(n, D)`` (``int64``).

    ``rs.Scene(..., period=(min, size), periodic=None)`` builds one from bodies as
    :class:`Scene` takes them; ``PeriodicScene(scene, period, periodic)`` from a scene's bodies
    as they are now. ``min`` and ``size`` have ``D`` entries each (the box ``min..min + size``;
    ``min`` places the lattice of boxes, it does not move the bodies), finite, ``size`` above 0
    on every repeating axis; ``periodic``: ``D`` booleans, which axes repeat (``None``: every
    axis). A ray is followed at most ``2**20`` boxes along each axis from its origin's
    (``docs/periodic.md``).

    >>> import raysweep as rs
    >>> box = rs.Scene(spheres=([[2.0, 2.0]], [1.0]), period=([0.0, 0.0], [4.0, 4.0]))
    >>> hits = box.cast_rays([[3.5, 2.0]], [[1.0, 0.0]])
    >>> hits.distance.tolist(), hits.body.tolist(), hits.image.tolist()
    ([1.5], [0], [[1, 0]])
    >>> near = box.within([[0.0, 0.0]], 6.0)  # images beyond half the box
    >>> len(near.body), near.image.tolist()[:3]
    (12, [[-2, -1], [-2, 0], [-1, -2]])
    >>> rs.Scene(spheres=([[2.0, 2.0]], [1.0]), period=([0.0, 0.0], [4.0, 0.0]))
    Traceback (most recent call last):
    ...
    ValueError: period: the period on axis 1 is not strictly positive: 0
    """

    _inner: _PeriodicScene
    _scene: Any
    _min: Floats
    _size: Floats
    _axes: tuple[bool, ...]

    def __init__(self, scene: Any, period: tuple[npt.ArrayLike, npt.ArrayLike], periodic: Optional[Sequence[bool]] = None) -> None:
        # A raysweep.Scene, known by what it holds (importing `_scene` here would make a circle:
        # it builds periodic scenes).
        if not isinstance(getattr(scene, "_inner", None), _Scene):
            raise ValueError(f"scene is not a raysweep.Scene: {type(scene).__name__}")
        if not isinstance(period, (tuple, list)) or len(period) != 2:
            raise ValueError("period must be a pair (min, size) of arrays of D values")
        dim, width = scene.dim, scene.dtype
        lo = _arrays.as_array(period[0], width, "period min")
        size = _arrays.as_array(period[1], width, "period size")
        for name, array in (("period min", lo), ("period size", size)):
            if array.shape != (dim,):
                raise ValueError(f"{name} must have shape ({dim},): it has {array.shape}")
        axes = (True,) * dim if periodic is None else tuple(periodic)
        if len(axes) != dim or not all(isinstance(a, (bool, np.bool_)) for a in axes):
            raise ValueError(f"periodic must be {dim} booleans, or None for every axis: {periodic!r}")
        self._scene = type(scene)._wrap(scene._inner.snapshot())
        self._inner = _PeriodicScene(self._scene._inner, lo, size, [bool(a) for a in axes])
        self._min, self._size, self._axes = lo, size, tuple(bool(a) for a in axes)

    def __len__(self) -> int:
        return len(self._inner)

    def __repr__(self) -> str:
        return (
            f"raysweep.PeriodicScene({len(self)} bodies, dim={self.dim}, dtype={self.dtype.name}, "
            f"size={self._size.tolist()}, periodic={list(self._axes)})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (PeriodicScene, (self._scene, (self._min, self._size), self._axes))

    @property
    def dim(self) -> int:
        """The dimension: 2 or 3."""
        return self._scene.dim

    @property
    def dtype(self) -> np.dtype:
        """The width: ``float32`` or ``float64``."""
        return self._scene.dtype

    @property
    def scene(self) -> Any:
        """The bodies as a plain :class:`Scene` (image zero), as they are now: a copy, which
        bodies pushed to it do not reach this one."""
        return type(self._scene)._wrap(self._scene._inner.snapshot())

    def push(
        self,
        spheres: Optional[tuple[Any, ...]] = None,
        ellipsoids: Optional[tuple[Any, ...]] = None,
        boxes: Optional[tuple[Any, ...]] = None,
    ) -> Ints:
        """Adds bodies (each standing for all its images), given as :meth:`Scene.push` takes
        them, and returns their ids (``int64``), numbered after the existing bodies as
        :meth:`Scene.push` numbers them. Every query is exact at once, as if the periodic scene
        were built anew: a few bodies are inserted into the hierarchy where they add least
        (``PeriodicScene::push``); many (a quarter of the scene or more), or bodies of a kind it
        does not hold yet, rebuild it. Queries running meanwhile answer for the scene as it
        was. Interrupted (Ctrl-C), nothing is added. Packing a periodic box:

        >>> import raysweep as rs
        >>> box = rs.Scene(spheres=([[1.0, 1.0]], [0.5]), period=([0.0, 0.0], [4.0, 4.0]))
        >>> ball = [[3.9, 1.0]]
        >>> box.containing(ball).body.tolist()  # is the ball's centre free?
        []
        >>> box.push(spheres=(ball, [0.5])).tolist()
        [1]
        >>> hit = box.cast_rays([[-2.0, 1.0]], [[1.0, 0.0]])  # its image at x = -0.1
        >>> hit.body.tolist(), hit.image.tolist()
        ([1], [[-1, 0]])
        """
        before = self._scene._inner.snapshot()
        ids: Ints = self._scene.push(spheres, ellipsoids, boxes)
        try:
            self._inner.push(self._scene._inner)
        except BaseException:
            self._scene = type(self._scene)._wrap(before)
            raise
        return ids

    @property
    def period(self) -> tuple[Floats, Floats]:
        """``(min, size)``: the box the lattice is drawn from."""
        return self._min.copy(), self._size.copy()

    @property
    def periodic(self) -> tuple[bool, ...]:
        """Which axes repeat."""
        return self._axes

    @property
    def hierarchy_bytes(self) -> int:
        """The memory the hierarchy over the bodies holds, in bytes (one, whatever the
        distances asked)."""
        return self._inner.hierarchy_bytes

    def _rays(self, origins: npt.ArrayLike, directions: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        return _arrays.rays(origins, directions, self.dtype, self.dim)

    def _points(self, points: npt.ArrayLike) -> np.ndarray:
        return _arrays.rows(points, self.dtype, self.dim, "points")

    def _hits(self, found: tuple) -> PeriodicHits:
        d = self.dim
        return PeriodicHits(found[0], found[1], _images(found[2 : 2 + d]), found[2 + d], found[3 + d])

    def cast_rays(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> PeriodicHits:
        """The first ``(body, image)`` each ray hits within ``max_distance`` (a scalar or one per
        ray), as :meth:`Scene.cast_rays`; a ray along a channel that misses every body ends
        ``2**20`` boxes out with a miss.

        >>> import raysweep as rs
        >>> lattice = rs.Scene(spheres=([[0.0, 0.0, 0.0]], [0.5]), period=([0.0] * 3, [2.0] * 3))
        >>> hits = lattice.cast_rays([[0.0, 0.0, 1.0], [0.0, 1.0, 1.0]], [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]])
        >>> hits.body.tolist(), hits.distance.tolist()
        ([-1, -1], [inf, inf])
        >>> lattice.cast_rays([[1.0, 0.0, 0.0]], [[1.0, 0.0, 0.0]]).image.tolist()
        [[1, 0, 0]]
        """
        o, d = self._rays(origins, directions)
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.cast_rays(o, d, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads))
        return self._hits(found)

    def cast_spheres(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> PeriodicHits:
        """The first ``(body, image)`` a ball of ``radius`` moving along each ray touches within
        ``max_distance``, as :meth:`Scene.cast_spheres`.

        >>> import raysweep as rs
        >>> lattice = rs.Scene(spheres=([[0.0, 0.0]], [0.5]), period=([0.0, 0.0], [2.0, 2.0]))
        >>> hits = lattice.cast_spheres([[1.0, 1.0]], [[1.0, 0.0]], 0.75)
        >>> hits.distance.tolist(), hits.image.tolist()
        ([0.25], [[1, 0]])
        """
        o, d = self._rays(origins, directions)
        r = _arrays.per_row(radius, self.dtype, "radius")
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.cast_rays(
            o, d, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads), radius=r
        )
        return self._hits(found)

    def next_crossing(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        after: npt.ArrayLike = -np.inf,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> PeriodicCrossings:
        """Where each ray next crosses the surface of a ``(body, image)`` beyond ``after``, as
        :meth:`Scene.next_crossing`; the lowest ``(body, image)`` on ties. A ray along a channel
        that crosses nothing ends ``2**20`` boxes out with none; each call walks the images from
        the ray's origin, so a long flight continued by ``after`` costs more at each step.

        >>> import raysweep as rs
        >>> lattice = rs.Scene(spheres=([[2.0, 2.0]], [1.0]), period=([0.0, 0.0], [4.0, 4.0]))
        >>> nxt = lattice.next_crossing([[0.0, 2.0]], [[1.0, 0.0]], after=3.0)
        >>> nxt.distance.tolist(), nxt.image.tolist(), nxt.entering.tolist()
        ([5.0], [[1, 0]], [True])
        """
        o, d = self._rays(origins, directions)
        since = _arrays.per_row(after, self.dtype, "after")
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.next_crossing(o, d, since, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads))
        distance, body, *rest = found
        image, (entering, point, normal) = _images(rest[: self.dim]), rest[self.dim :]
        return PeriodicCrossings(distance, body, image, entering, point, normal)

    def hits_any(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> npt.NDArray[np.bool_]:
        """Whether each ray hits any ``(body, image)`` within ``max_distance``.

        >>> import raysweep as rs
        >>> lattice = rs.Scene(spheres=([[0.0, 0.0]], [0.5]), period=([0.0, 0.0], [2.0, 2.0]))
        >>> lattice.hits_any([[1.0, 1.0], [1.0, 0.0]], [[1.0, 0.0], [1.0, 0.0]]).tolist()
        [False, True]
        """
        o, d = self._rays(origins, directions)
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        return self._inner.hits_any(o, d, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads))

    def ray_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> PeriodicSpans:
        """Every ``(body, image)`` the segment ``[0, max_distance]`` of each ray crosses (a
        finite scalar or one per ray, required: a whole line crosses infinitely many), each span
        clamped to the segment, in CSR form: chords that wrap through any number of boxes, none
        trimmed at the box's faces. An infinite ``max_distance`` raises ``ValueError``.

        >>> import raysweep as rs
        >>> lattice = rs.Scene(spheres=([[2.0, 2.0]], [1.0]), period=([0.0, 0.0], [4.0, 4.0]))
        >>> spans = lattice.ray_spans([[0.0, 2.0]], [[1.0, 0.0]], 10.0)
        >>> spans.image[:, 0].tolist(), spans.enter.tolist(), spans.exit.tolist()
        ([0, 1, 2], [1.0, 5.0, 9.0], [3.0, 7.0, 10.0])
        """
        return self._spans(origins, directions, None, max_distance, mask, threads)

    def sphere_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: npt.ArrayLike,
        max_distance: npt.ArrayLike,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> PeriodicSpans:
        """Every ``(body, image)`` a ball of ``radius`` (a scalar or one per row) touches while
        its centre travels the segment ``[0, max_distance]`` of each ray (finite, required),
        with where its centre starts and stops touching it, clamped to the segment, in CSR form.

        >>> import raysweep as rs
        >>> lattice = rs.Scene(spheres=([[2.0, 2.0]], [1.0]), period=([0.0, 0.0], [4.0, 4.0]))
        >>> spans = lattice.sphere_spans([[0.0, 2.0]], [[1.0, 0.0]], 0.5, 6.0)
        >>> spans.image[:, 0].tolist(), spans.enter.tolist(), spans.exit.tolist()
        ([0, 1], [0.5, 4.5], [3.5, 6.0])
        """
        r = _arrays.per_row(radius, self.dtype, "radius")
        return self._spans(origins, directions, r, max_distance, mask, threads)

    def _spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: Optional[np.ndarray],
        max_distance: npt.ArrayLike,
        mask: Optional[npt.ArrayLike],
        threads: Optional[int],
    ) -> PeriodicSpans:
        o, d = self._rays(origins, directions)
        end = self._finite(max_distance)
        found = self._inner.spans(o, d, end, _arrays.mask(mask, len(self)), _arrays.threads(threads), radius=radius)
        k = self.dim
        return PeriodicSpans(found[0], found[1], _images(found[2 : 2 + k]), found[2 + k], found[3 + k])

    def union_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> UnionSpans:
        """The intervals of the union of every ``(body, image)`` along the segment ``[0,
        max_distance]`` of each ray (finite, required), clamped, in increasing order: the chords
        of overlapping grains through a periodic sample, across the box's faces (an interval
        that runs through a face is one). Exactly :meth:`ray_spans`'s spans merged.

        >>> import raysweep as rs
        >>> box = rs.Scene(spheres=([[0.5, 2.0], [3.5, 2.0]], [1.0, 1.0]))
        >>> lattice = rs.PeriodicScene(box, ([0.0, 0.0], [4.0, 4.0]))
        >>> union = lattice.union_spans([[0.0, 2.0]], [[1.0, 0.0]], 8.0)
        >>> union.enter.tolist(), union.exit.tolist()
        ([0.0, 2.5, 6.5], [1.5, 5.5, 8.0])
        """
        o, d = self._rays(origins, directions)
        end = self._finite(max_distance)
        found = self._inner.union_spans(o, d, end, _arrays.mask(mask, len(self)), _arrays.threads(threads))
        return UnionSpans(*found)

    def union_sphere_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: npt.ArrayLike,
        max_distance: npt.ArrayLike,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> UnionSpans:
        """The intervals of the union of :meth:`sphere_spans`'s spans over every ``(body,
        image)`` along the segment ``[0, max_distance]`` (finite, required), clamped, as
        :meth:`Scene.union_sphere_spans`: where a ball of ``radius`` moving along each ray
        overlaps at least one body, across the box's faces.

        >>> import raysweep as rs
        >>> box = rs.Scene(spheres=([[0.5, 2.0], [3.5, 2.0]], [1.0, 1.0]))
        >>> lattice = rs.PeriodicScene(box, ([0.0, 0.0], [4.0, 4.0]))
        >>> union = lattice.union_sphere_spans([[0.0, 2.0]], [[1.0, 0.0]], 0.25, 8.0)
        >>> union.enter.tolist(), union.exit.tolist()
        ([0.0, 2.25, 6.25], [1.75, 5.75, 8.0])
        """
        o, d = self._rays(origins, directions)
        end = self._finite(max_distance)
        found = self._inner.union_spans(
            o,
            d,
            end,
            _arrays.mask(mask, len(self)),
            _arrays.threads(threads),
            radius=_arrays.per_row(radius, self.dtype, "radius"),
        )
        return UnionSpans(*found)

    def _finite(self, max_distance: npt.ArrayLike) -> np.ndarray:
        """A span query's ``max_distance``, refused where infinite."""
        end = _arrays.per_row(max_distance, self.dtype, "max_distance")
        infinite = np.flatnonzero(np.isinf(end))
        if len(infinite):
            raise ValueError(
                f"max_distance[{infinite[0]}] is infinite: a periodic medium's segment must be "
                "finite (a whole line crosses infinitely many bodies)"
            )
        return end

    def containing(
        self, points: npt.ArrayLike, mask: Optional[npt.ArrayLike] = None, threads: Optional[int] = None
    ) -> PeriodicBodies:
        """The ``(body, image)`` pairs containing each point (boundaries included), in CSR form.

        >>> import raysweep as rs
        >>> lattice = rs.Scene(spheres=([[0.0, 0.0]], [1.0]), period=([0.0, 0.0], [2.0, 2.0]))
        >>> lattice.containing([[1.0, 0.0]]).image.tolist()
        [[0, 0], [1, 0]]
        """
        found = self._inner.containing(self._points(points), _arrays.mask(mask, len(self)), _arrays.threads(threads))
        return PeriodicBodies(found[0], found[1], _images(found[2:]))

    def nearest(
        self,
        points: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> PeriodicNearest:
        """The ``(body, image)`` nearest to each point (the smallest signed distance, then the
        lowest ``(body, image)``) among those within ``max_distance``, as :meth:`Scene.nearest`.

        >>> import raysweep as rs
        >>> lattice = rs.Scene(spheres=([[0.0, 0.0]], [1.0]), period=([0.0, 0.0], [4.0, 4.0]))
        >>> near = lattice.nearest([[3.5, 3.5]])
        >>> near.body.tolist(), near.image.tolist(), round(float(near.signed_distance[0]), 6)
        ([0], [[1, 1]], -0.292893)
        """
        p = self._points(points)
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.nearest(p, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads))
        d = self.dim
        return PeriodicNearest(found[1], _images(found[2 : 2 + d]), found[0], found[2 + d], found[3 + d])

    def within(
        self,
        points: npt.ArrayLike,
        distance: npt.ArrayLike,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> PeriodicBodies:
        """The ``(body, image)`` pairs whose signed distance from each point is at most
        ``distance`` (a scalar or one per point), at any distance, beyond half the box too, in
        CSR form, in increasing ``(body, image)``. Each image in reach is one query of the
        bodies, so the time grows as ``(2 * distance / size) ** D``.

        >>> import raysweep as rs
        >>> lattice = rs.Scene(spheres=([[0.0, 0.0]], [0.25]), period=([0.0, 0.0], [1.0, 1.0]))
        >>> len(lattice.within([[0.5, 0.5]], 2.0).body)
        16
        """
        p = self._points(points)
        reach = _arrays.per_row(distance, self.dtype, "distance")
        found = self._inner.within(p, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads))
        return PeriodicBodies(found[0], found[1], _images(found[2:]))
