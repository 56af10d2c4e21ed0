"""``raysweep.InstancedScene``: scenes placed at offsets, every body translated exactly."""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._raysweep import _InstancedScene
from ._results import (
    InstanceBodies,
    InstanceCrossings,
    InstanceHits,
    InstanceNearest,
    InstanceSpans,
    Ints,
    UnionSpans,
)
from ._scene import Scene


class InstancedScene:
    """Scenes placed many times: instance ``i`` is ``scenes[scene_of[i]]`` with every body
    translated by ``offsets[i]`` exactly (in real arithmetic), and every query answers what the
    loop over every ``(instance, body)`` pair answers against those bodies: the first hit with
    the lowest ``(instance, body)`` on equal distances; spans by ``enter``, then ``(instance,
    body)``; ``containing`` in increasing ``(instance, body)``. A body is stored once per scene
    however often the scene is placed, so a reactor core of 250 000 pebbles of 60 000 bodies each
    fits in tens of megabytes.

    ``scenes``: a list of :class:`Scene` of one width and dimension, placed as they are now (a
    later push to one leaves this instanced scene as it was); ``scene_of``: ``(n,)`` integers,
    the scene of each instance; ``offsets``: ``(n, D)`` in the scenes' width (lists take it),
    finite. Where every scene holds one kind of body (balls, say) the instanced scene is the
    crate's over that kind; scenes of different kinds are placed as mixed scenes.

    >>> import numpy as np
    >>> import raysweep as rs
    >>> pebble = rs.Scene(spheres=([[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [3.0, 0.025]))
    >>> core = rs.InstancedScene([pebble], [0, 0], [[0.0, 0.0, 0.0], [6.0, 0.0, 0.0]])
    >>> hits = core.cast_rays([[6.0, 0.0, -10.0]], [[0.0, 0.0, 1.0]])
    >>> hits.instance.tolist(), hits.body.tolist(), hits.distance.tolist()
    ([1], [0], [7.0])
    """

    _inner: _InstancedScene
    _dtype: np.dtype
    _dim: int
    _scenes: list[Scene]
    _scene_of: Ints

    def __init__(self, scenes: Sequence[Scene], scene_of: npt.ArrayLike, offsets: npt.ArrayLike) -> None:
        scenes = list(scenes)
        if not scenes:
            raise ValueError("an instanced scene needs at least one scene")
        for k, scene in enumerate(scenes):
            if not isinstance(scene, Scene):
                raise ValueError(f"scenes[{k}] is not a raysweep.Scene: {type(scene).__name__}")
        first = scenes[0]
        for k, scene in enumerate(scenes):
            if (scene.dtype, scene.dim) != (first.dtype, first.dim):
                raise ValueError(
                    f"scenes[{k}] is {scene.dtype} in {scene.dim} dimensions, scenes[0] {first.dtype} in {first.dim}"
                )
        which = np.asarray(scene_of)
        if which.dtype.kind not in "iu" or which.ndim != 1:
            raise ValueError(f"scene_of must be an array of integers of shape (n,): it is {which.dtype} {which.shape}")
        which = np.require(which.astype(np.int64), requirements=["C", "A"])
        at = _arrays.rows(offsets, first.dtype, first.dim, "offsets")
        # Each scene as it is now, kept for pickling (a push to the caller's scene changes a
        # copy); a scene listed twice is one object, which pickle sends once.
        kept: dict[int, Scene] = {}
        self._scenes = [kept.setdefault(id(s), Scene._wrap(s._inner.snapshot())) for s in scenes]
        self._scene_of = which
        self._inner = _InstancedScene([s._inner for s in self._scenes], which, at)
        self._dtype, self._dim = np.dtype(self._inner.dtype), self._inner.dim

    def __len__(self) -> int:
        return len(self._inner)

    def __repr__(self) -> str:
        return (
            f"raysweep.InstancedScene({len(self)} instances of {len(self._scenes)} scenes, "
            f"dim={self.dim}, dtype={self.dtype.name})"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # Each scene travels once (pickle keeps one copy of an object met twice), the instances
        # as two arrays; the hierarchy is rebuilt on arrival.
        return (InstancedScene, (self._scenes, self._scene_of, self.offsets))

    @property
    def dim(self) -> int:
        """The dimension: 2 or 3."""
        return self._dim

    @property
    def dtype(self) -> np.dtype:
        """The width: ``float32`` or ``float64``."""
        return self._dtype

    @property
    def scenes(self) -> list[Scene]:
        """The scenes placed, as they were when this instanced scene was built."""
        return list(self._scenes)

    @property
    def scene_of(self) -> Ints:
        """``(n,)`` ``int64``: the scene of each instance."""
        return self._scene_of.copy()

    @property
    def offsets(self) -> npt.NDArray[np.floating[Any]]:
        """``(n, D)``: each instance's offset."""
        return self._inner.offsets

    @property
    def nbytes(self) -> int:
        """The memory the instances and the hierarchy over them hold, in bytes (the scenes' own
        not counted: see :attr:`Scene.nbytes`)."""
        return self._inner.nbytes

    @property
    def hierarchy_bytes(self) -> int:
        """The memory the hierarchy over the instances holds, in bytes (the scenes' own not
        counted)."""
        return self._inner.hierarchy_bytes

    def _rays(self, origins: npt.ArrayLike, directions: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        return _arrays.rays(origins, directions, self.dtype, self.dim)

    def cast_rays(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> InstanceHits:
        """The first body of any instance each ray hits within ``max_distance`` (a scalar or one
        per ray); ``mask`` is a boolean array over the instances.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> core = rs.InstancedScene([ball], [0, 0, 0], [[0.0, 0.0], [4.0, 0.0], [8.0, 0.0]])
        >>> hits = core.cast_rays([[-5.0, 0.0]], [[1.0, 0.0]], mask=[False, True, True])
        >>> hits.instance.tolist(), hits.distance.tolist(), hits.point.tolist()
        ([1], [8.0], [[3.0, 0.0]])
        """
        o, d = self._rays(origins, directions)
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.cast_rays(o, d, reach, _arrays.mask(mask, len(self), "instance"), _arrays.threads(threads))
        return InstanceHits(*found)

    def cast_spheres(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> InstanceHits:
        """The first body of any instance a ball of ``radius`` (a scalar or one per row), its
        centre moving along each ray, touches within ``max_distance``.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> core = rs.InstancedScene([ball], [0], [[4.0, 0.0]])
        >>> core.cast_spheres([[-5.0, 0.0]], [[1.0, 0.0]], 0.5).distance.tolist()
        [7.5]
        """
        o, d = self._rays(origins, directions)
        r = _arrays.per_row(radius, self.dtype, "radius")
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.cast_rays(
            o, d, reach, _arrays.mask(mask, len(self), "instance"), _arrays.threads(threads), radius=r
        )
        return InstanceHits(*found)

    def next_crossing(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        after: npt.ArrayLike = -np.inf,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> InstanceCrossings:
        """Where each ray next crosses the surface of a body of an instance beyond ``after``, as
        :meth:`Scene.next_crossing`; the lowest ``(instance, body)`` on ties, ``mask`` over the
        instances.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> core = rs.InstancedScene([ball], [0, 0], [[3.0, 0.0], [6.0, 0.0]])
        >>> exit = core.next_crossing([[0.0, 0.0]], [[1.0, 0.0]], after=2.0)
        >>> exit.instance.tolist(), exit.distance.tolist(), exit.entering.tolist()
        ([0], [4.0], [False])
        """
        o, d = self._rays(origins, directions)
        since = _arrays.per_row(after, self.dtype, "after")
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.next_crossing(
            o, d, since, reach, _arrays.mask(mask, len(self), "instance"), _arrays.threads(threads)
        )
        return InstanceCrossings(*found)

    def hits_any(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> npt.NDArray[np.bool_]:
        """Whether each ray hits any body of any instance within ``max_distance``.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> core = rs.InstancedScene([ball], [0], [[4.0, 0.0]])
        >>> core.hits_any([[-5.0, 0.0], [-5.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]]).tolist()
        [True, False]
        """
        o, d = self._rays(origins, directions)
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        return self._inner.hits_any(o, d, reach, _arrays.mask(mask, len(self), "instance"), _arrays.threads(threads))

    def ray_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: Optional[npt.ArrayLike] = None,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> InstanceSpans:
        """Every body of every instance each whole line crosses, with where it enters and leaves
        it, in CSR form; with ``max_distance``, the segment ``[0, max_distance]`` of each ray,
        each span clamped to it, as :meth:`Scene.ray_spans` does.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> core = rs.InstancedScene([ball], [0, 0], [[4.0, 0.0], [8.0, 0.0]])
        >>> spans = core.ray_spans([[0.0, 0.0]], [[1.0, 0.0]])
        >>> spans.instance.tolist(), spans.enter.tolist(), spans.sum().tolist()
        ([0, 1], [3.0, 7.0], [4.0])
        """
        return self._spans(origins, directions, None, max_distance, mask, threads)

    def sphere_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: npt.ArrayLike,
        max_distance: Optional[npt.ArrayLike] = None,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> InstanceSpans:
        """Every body of every instance a ball of ``radius`` (a scalar or one per row) moving
        along each whole line touches, with where its centre starts and stops touching it, in
        CSR form; with ``max_distance``, only along the segment ``[0, max_distance]``, clamped,
        as :meth:`Scene.sphere_spans` does.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> core = rs.InstancedScene([ball], [0], [[4.0, 0.0]])
        >>> spans = core.sphere_spans([[0.0, 0.0]], [[1.0, 0.0]], 1.0)
        >>> spans.enter.tolist(), spans.exit.tolist()
        ([2.0], [6.0])
        """
        r = _arrays.per_row(radius, self.dtype, "radius")
        return self._spans(origins, directions, r, max_distance, mask, threads)

    def _spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: Optional[np.ndarray],
        max_distance: Optional[npt.ArrayLike],
        mask: Optional[npt.ArrayLike],
        threads: Optional[int],
    ) -> InstanceSpans:
        o, d = self._rays(origins, directions)
        segment = None if max_distance is None else _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.spans(
            o,
            d,
            _arrays.mask(mask, len(self), "instance"),
            _arrays.threads(threads),
            radius=radius,
            max_distance=segment,
        )
        return InstanceSpans(*found)

    def union_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: Optional[npt.ArrayLike] = None,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> UnionSpans:
        """The intervals of the union of every instance's bodies along each whole line (or the
        segment ``[0, max_distance]``, clamped), as :meth:`Scene.union_spans`: exactly
        :meth:`ray_spans`'s spans merged.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> pair = rs.InstancedScene([ball], [0, 0], [[4.0, 0.0], [5.0, 0.0]])
        >>> union = pair.union_spans([[0.0, 0.0]], [[1.0, 0.0]])
        >>> union.enter.tolist(), union.exit.tolist()
        ([3.0], [6.0])
        """
        o, d = self._rays(origins, directions)
        segment = None if max_distance is None else _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.union_spans(
            o, d, segment, _arrays.mask(mask, len(self), "instance"), _arrays.threads(threads)
        )
        return UnionSpans(*found)

    def union_sphere_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: npt.ArrayLike,
        max_distance: Optional[npt.ArrayLike] = None,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> UnionSpans:
        """The intervals of the union of :meth:`sphere_spans`'s spans, as
        :meth:`Scene.union_sphere_spans`: where a ball of ``radius`` moving along each line
        overlaps at least one instance's body.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> pair = rs.InstancedScene([ball], [0, 0], [[4.0, 0.0], [5.0, 0.0]])
        >>> union = pair.union_sphere_spans([[0.0, 0.0]], [[1.0, 0.0]], 0.5)
        >>> union.enter.tolist(), union.exit.tolist()
        ([2.5], [6.5])
        """
        o, d = self._rays(origins, directions)
        segment = None if max_distance is None else _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.union_spans(
            o,
            d,
            segment,
            _arrays.mask(mask, len(self), "instance"),
            _arrays.threads(threads),
            radius=_arrays.per_row(radius, self.dtype, "radius"),
        )
        return UnionSpans(*found)

    def containing(
        self,
        points: npt.ArrayLike,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> InstanceBodies:
        """The ``(instance, body)`` pairs whose translated body contains each point (boundaries
        included), in CSR form, in increasing order.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> core = rs.InstancedScene([ball], [0, 0], [[0.0, 0.0], [1.5, 0.0]])
        >>> found = core.containing([[0.75, 0.0]])
        >>> found.instance.tolist(), found.body.tolist()
        ([0, 1], [0, 0])
        """
        p = _arrays.rows(points, self.dtype, self.dim, "points")
        found = self._inner.containing(p, _arrays.mask(mask, len(self), "instance"), _arrays.threads(threads))
        return InstanceBodies(*found)

    def nearest(
        self,
        points: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> InstanceNearest:
        """The ``(instance, body)`` nearest to each point (the smallest signed distance, negative
        inside; the lowest ``(instance, body)`` on ties) among those within ``max_distance`` (a
        scalar or one per point), each body translated exactly by its instance's offset, as
        :meth:`Scene.nearest`; ``mask`` over the instances.

        >>> import raysweep as rs
        >>> pebble = rs.Scene(spheres=([[0.0, 0.0], [0.0, 0.0]], [1.0, 0.25]))
        >>> core = rs.InstancedScene([pebble], [0, 0], [[0.0, 0.0], [4.0, 0.0]])
        >>> near = core.nearest([[3.0, 0.0], [4.0, 0.0]])
        >>> near.instance.tolist(), near.body.tolist(), near.signed_distance.tolist()
        ([1, 1], [0, 0], [0.0, -1.0])
        """
        p = _arrays.rows(points, self.dtype, self.dim, "points")
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.nearest(p, reach, _arrays.mask(mask, len(self), "instance"), _arrays.threads(threads))
        value, instance, body, point, normal = found
        return InstanceNearest(instance, body, value, point, normal)

    def within(
        self,
        points: npt.ArrayLike,
        distance: npt.ArrayLike,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> InstanceBodies:
        """The ``(instance, body)`` pairs whose signed distance from each point is at most
        ``distance`` (a scalar or one per point), in CSR form, in increasing order, as
        :meth:`Scene.within`; ``mask`` over the instances.

        >>> import raysweep as rs
        >>> ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
        >>> core = rs.InstancedScene([ball], [0, 0, 0], [[0.0, 0.0], [3.0, 0.0], [9.0, 0.0]])
        >>> core.within([[1.5, 0.0]], 0.5).instance.tolist()
        [0, 1]
        """
        p = _arrays.rows(points, self.dtype, self.dim, "points")
        reach = _arrays.per_row(distance, self.dtype, "distance")
        found = self._inner.within(p, reach, _arrays.mask(mask, len(self), "instance"), _arrays.threads(threads))
        return InstanceBodies(*found)
