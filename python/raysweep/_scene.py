"""``raysweep.Scene``: many bodies, every query over arrays of rays or points."""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence, overload

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._periodic import PeriodicScene
from ._raysweep import _Scene
from ._results import Bodies, Crossings, Floats, Hits, Ints, Nearest, Spans, UnionSpans


class Spheres(NamedTuple):
    """A scene's spheres as given, with their body ids (``Scene.spheres``)."""

    #: ``(n, D)``.
    centers: Floats
    #: ``(n,)``.
    radii: Floats
    #: ``(n,)`` ``int64``: each sphere's body id.
    ids: Ints


class Ellipsoids(NamedTuple):
    """A scene's ellipsoids as given, with their body ids (``Scene.ellipsoids``)."""

    #: ``(n, D)``.
    centers: Floats
    #: ``(n, D)``.
    semi_axes: Floats
    #: ``(n, D, D)`` (the identity for an axis-aligned one), or ``None`` where every ellipsoid
    #: is axis-aligned.
    rotations: Optional[Floats]
    #: ``(n,)`` ``int64``.
    ids: Ints


class Boxes(NamedTuple):
    """A scene's boxes as given, with their body ids (``Scene.boxes``)."""

    #: ``(n, D)``.
    mins: Floats
    #: ``(n, D)``.
    maxs: Floats
    #: ``(n,)`` ``int64``.
    ids: Ints


def _pair(value: Any, name: str, sizes: tuple[int, ...]) -> tuple:
    """A tuple of one of ``sizes`` lengths: the arrays describing one kind of body (what
    ``Scene.spheres`` and its like give back, without the ids, is one)."""
    if isinstance(value, (Spheres, Ellipsoids, Boxes)):
        value = tuple(value)[:-1]
    if not isinstance(value, (tuple, list)) or len(value) not in sizes:
        shapes = " or ".join(str(s) for s in sizes)
        raise ValueError(f"{name} must be a tuple of {shapes} arrays")
    return tuple(value)


def _body_arrays(
    width: np.dtype, dim: int, spheres: Optional[tuple], ellipsoids: Optional[tuple], boxes: Optional[tuple], query: bool
) -> dict[str, Any]:
    """The arrays of each kind of body, as the compiled module takes them (``query``: lists take
    ``width``, as in a query, not ``float64``)."""

    def rows(value: Any, name: str) -> np.ndarray:
        return _arrays.rows(value, width, dim, name, query)

    args: dict[str, Any] = {}
    if spheres is not None:
        centers = rows(spheres[0], "sphere centers")
        radii = spheres[1]
        if np.ndim(radii) == 0:
            radii = np.full(len(centers), _arrays.per_row(radii, width, "sphere radii")[0])
        args["spheres"] = (centers, _arrays.column(radii, width, "sphere radii", query))
    if ellipsoids is not None:
        rotations = ellipsoids[2] if len(ellipsoids) == 3 else None
        if rotations is not None:
            rotations = _arrays.as_array(rotations, width, "ellipsoid rotations", query)
            if rotations.ndim != 3 or rotations.shape[1:] != (dim, dim):
                raise ValueError(
                    f"ellipsoid rotations must have shape (n, {dim}, {dim}): they have {rotations.shape}"
                )
        args["ellipsoids"] = (
            rows(ellipsoids[0], "ellipsoid centers"),
            rows(ellipsoids[1], "ellipsoid semi_axes"),
            rotations,
        )
    if boxes is not None:
        args["boxes"] = (rows(boxes[0], "box mins"), rows(boxes[1], "box maxs"))
    return args


class Scene:
    """Spheres, ellipsoids and axis-aligned boxes, with a hierarchy that answers every query
    exactly as the loop over the bodies would.

    ``spheres = (centers, radii)``, ``ellipsoids = (centers, semi_axes[, rotations])`` and
    ``boxes = (mins, maxs)``, each optional: centers, semi-axes and bounds of shape ``(n, D)``,
    radii of shape ``(n,)`` (or one radius for all), rotations of shape ``(n, D, D)`` (local axis
    ``i`` of ellipsoid ``k`` is ``rotations[k][:, i]``; ``None`` for axis-aligned ellipsoids).
    Body ids: the spheres ``0..n_s``, then the ellipsoids, then the boxes.

    The width (``float32`` or ``float64``) comes from the arrays' dtype (lists and integers are
    ``float64``), the dimension (2 or 3) from their last axis; ``dtype`` and ``dim`` set them
    for a scene without bodies. A bad body raises ``ValueError`` naming its row.

    With ``period=(min, size)`` (and ``periodic``, which axes repeat: ``None`` for every axis),
    the bodies stand for the same bodies repeated on the lattice of that box without end: the
    result is a :class:`PeriodicScene`, whose answers name each body's image too.

    >>> import numpy as np
    >>> import raysweep as rs
    >>> scene = rs.Scene(
    ...     spheres=(np.array([[0.0, 0.0, 5.0]]), np.array([1.0])),
    ...     boxes=(np.array([[-1.0, -1.0, 9.0]]), np.array([[1.0, 1.0, 10.0]])),
    ... )
    >>> len(scene), scene.dim, scene.dtype
    (2, 3, dtype('float64'))
    >>> rs.Scene(spheres=([[0.0, 0.0]], [-1.0]))
    Traceback (most recent call last):
    ...
    ValueError: spheres[0]: the radius is negative: -1
    """

    _inner: _Scene
    _dtype: np.dtype
    _dim: int

    # The constructor is `__new__` alone (no `__init__`), so that a type checker takes its
    # overloads: a `Scene`, or with a period a `PeriodicScene`.
    @overload
    def __new__(
        cls,
        spheres: Optional[tuple[Any, ...]] = None,
        ellipsoids: Optional[tuple[Any, ...]] = None,
        boxes: Optional[tuple[Any, ...]] = None,
        *,
        dtype: Optional[npt.DTypeLike] = None,
        dim: Optional[int] = None,
        period: None = None,
        periodic: None = None,
    ) -> Scene: ...

    @overload
    def __new__(  # type: ignore[misc]
        cls,
        spheres: Optional[tuple[Any, ...]] = None,
        ellipsoids: Optional[tuple[Any, ...]] = None,
        boxes: Optional[tuple[Any, ...]] = None,
        *,
        dtype: Optional[npt.DTypeLike] = None,
        dim: Optional[int] = None,
        period: tuple[npt.ArrayLike, npt.ArrayLike],
        periodic: Optional[Sequence[bool]] = None,
    ) -> PeriodicScene: ...

    def __new__(
        cls,
        spheres: Optional[tuple[Any, ...]] = None,
        ellipsoids: Optional[tuple[Any, ...]] = None,
        boxes: Optional[tuple[Any, ...]] = None,
        *,
        dtype: Optional[npt.DTypeLike] = None,
        dim: Optional[int] = None,
        period: Optional[tuple[npt.ArrayLike, npt.ArrayLike]] = None,
        periodic: Optional[Sequence[bool]] = None,
    ) -> Any:
        if period is not None:
            return PeriodicScene(Scene(spheres, ellipsoids, boxes, dtype=dtype, dim=dim), period, periodic)
        if periodic is not None:
            raise ValueError("periodic says which axes of a period repeat: give period=(min, size) too")
        scene = super().__new__(cls)
        scene._build(spheres, ellipsoids, boxes, dtype, dim)
        return scene

    def _build(
        self,
        spheres: Optional[tuple[Any, ...]],
        ellipsoids: Optional[tuple[Any, ...]],
        boxes: Optional[tuple[Any, ...]],
        dtype: Optional[npt.DTypeLike],
        dim: Optional[int],
    ) -> None:
        spheres = None if spheres is None else _pair(spheres, "spheres", (2,))
        ellipsoids = None if ellipsoids is None else _pair(ellipsoids, "ellipsoids", (2, 3))
        boxes = None if boxes is None else _pair(boxes, "boxes", (2,))
        named: dict[str, Any] = {}
        for kind, parts, names in (
            ("spheres", spheres, ("centers", "radii")),
            ("ellipsoids", ellipsoids, ("centers", "semi_axes", "rotations")),
            ("boxes", boxes, ("mins", "maxs")),
        ):
            for part, name in zip(parts or (), names):
                named[f"{kind} {name}"] = part
        default: np.dtype = np.dtype(np.float64)
        if dtype is not None:
            default = np.dtype(dtype)
            if default not in _arrays.WIDTHS.values():
                raise TypeError(f"raysweep computes in float32 or float64, not {default}")
            named["dtype"] = np.empty(0, default)
        width = _arrays.common_width(named, default)
        dims = {
            np.shape(v)[-1]
            for k, v in named.items()
            if k.endswith(("centers", "mins")) and np.ndim(v) == 2
        }
        if dim is not None:
            dims.add(dim)
        if len(dims) > 1:
            raise ValueError(f"bodies of different dimensions in one scene: {sorted(dims)}")
        self_dim = dims.pop() if dims else 3
        if self_dim not in (2, 3):
            raise ValueError(f"a scene is in 2 or 3 dimensions, not {self_dim}")

        args = _body_arrays(width, self_dim, spheres, ellipsoids, boxes, query=False)
        self._set(_Scene(width.name, self_dim, **args))

    @classmethod
    def _wrap(cls, inner: _Scene) -> "Scene":
        scene = object.__new__(cls)
        scene._set(inner)
        return scene

    def _set(self, inner: _Scene) -> None:
        self._inner = inner
        # Fixed for the scene's life: read once, not on every call.
        self._dtype = np.dtype(inner.dtype)
        self._dim = inner.dim

    def __len__(self) -> int:
        return len(self._inner)

    def __repr__(self) -> str:
        return f"raysweep.Scene({len(self)} bodies, dim={self.dim}, dtype={self.dtype.name})"

    def __reduce__(self) -> tuple:
        return (_restore_scene, (self.dtype.name, self.dim, self._inner.state()))

    @property
    def dim(self) -> int:
        """The dimension: 2 or 3."""
        return self._dim

    @property
    def dtype(self) -> np.dtype:
        """The width: ``float32`` or ``float64``."""
        return self._dtype

    @property
    def hierarchy_bytes(self) -> int:
        """The memory the scene's hierarchy holds, beyond its bodies, in bytes."""
        return self._inner.hierarchy_bytes

    @property
    def nbytes(self) -> int:
        """The memory the scene holds, its bodies and its hierarchy, in bytes."""
        return self._inner.nbytes

    @property
    def spheres(self) -> Spheres:
        """The spheres as given (``centers``, ``radii``), with their body ids; ``Scene(spheres=
        scene.spheres)`` takes it back.

        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=([[0.0, 0.0], [3.0, 0.0]], [1.0, 0.5]), boxes=([[5.0, 5.0]], [[6.0, 6.0]]))
        >>> s = scene.spheres
        >>> s.centers.tolist(), s.radii.tolist(), s.ids.tolist(), scene.boxes.ids.tolist()
        ([[0.0, 0.0], [3.0, 0.0]], [1.0, 0.5], [0, 1], [2])
        """
        ids, centers, radii = self._inner.parts()[0]
        return Spheres(centers, radii, ids)

    @property
    def ellipsoids(self) -> Ellipsoids:
        """The ellipsoids as given (``centers``, ``semi_axes``, ``rotations``: ``None`` where
        every one is axis-aligned, else the identity for those that are), with their body ids."""
        ids, centers, semi_axes, rotations = self._inner.parts()[1]
        return Ellipsoids(centers, semi_axes, rotations, ids)

    @property
    def boxes(self) -> Boxes:
        """The boxes as given (``mins``, ``maxs``), with their body ids."""
        ids, mins, maxs = self._inner.parts()[2]
        return Boxes(mins, maxs, ids)

    def push(
        self,
        spheres: Optional[tuple[Any, ...]] = None,
        ellipsoids: Optional[tuple[Any, ...]] = None,
        boxes: Optional[tuple[Any, ...]] = None,
    ) -> Ints:
        """Adds bodies, given as the constructor takes them (in the scene's width: lists take
        it, a float array of the other width raises ``TypeError``), and returns their ids
        (``int64``): numbered after the existing bodies, spheres first, then ellipsoids, then
        boxes. Every query is exact at once. A few bodies are inserted into the hierarchy where
        they add least (``Scene::push``); many (a quarter of the scene or more), or bodies of a
        kind the scene does not hold yet, rebuild it. Queries running meanwhile answer for the
        scene as it was; an instanced scene built from it keeps it as it was.

        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=([[0.0, 0.0, 5.0]], [1.0]))
        >>> scene.push(spheres=([[0.0, 0.0, 2.0]], [0.5])).tolist()
        [1]
        >>> scene.cast_rays([[0.0, 0.0, 0.0]], [[0.0, 0.0, 1.0]]).body.tolist()
        [1]
        """
        spheres = None if spheres is None else _pair(spheres, "spheres", (2,))
        ellipsoids = None if ellipsoids is None else _pair(ellipsoids, "ellipsoids", (2, 3))
        boxes = None if boxes is None else _pair(boxes, "boxes", (2,))
        args = _body_arrays(self.dtype, self.dim, spheres, ellipsoids, boxes, query=True)
        count = sum(len(arrays[0]) for arrays in args.values())
        first = self._inner.push(**args)
        return np.arange(first, first + count, dtype=np.int64)

    def _rays(self, origins: npt.ArrayLike, directions: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        return _arrays.rays(origins, directions, self.dtype, self.dim)

    def _points(self, points: npt.ArrayLike) -> np.ndarray:
        return _arrays.rows(points, self.dtype, self.dim, "points")

    def cast_rays(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> Hits:
        """The first body each ray hits within ``max_distance`` (a scalar or one per ray).

        Directions need not be unit; distances are along the unit direction. A ray starting
        inside a body hits it at distance 0.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=(np.array([[0.0, 0.0, 5.0], [0.0, 0.0, 9.0]]), np.ones(2)))
        >>> hits = scene.cast_rays(np.zeros((2, 3)), np.array([[0.0, 0.0, 2.0], [1.0, 0.0, 0.0]]))
        >>> hits.distance.tolist(), hits.body.tolist()
        ([4.0, inf], [0, -1])
        >>> hits.point[0].tolist(), hits.normal[0].tolist()
        ([0.0, 0.0, 4.0], [0.0, 0.0, -1.0])
        """
        o, d = self._rays(origins, directions)
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.cast_rays(o, d, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads))
        return Hits(*found)

    def cast_spheres(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> Hits:
        """The first body a ball of ``radius`` (a scalar or one per row), its centre moving from
        each origin along each direction, touches within ``max_distance``: the distance its centre
        travels, and the contact point and normal on the body.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(boxes=(np.array([[-1.0, -1.0, 5.0]]), np.array([[1.0, 1.0, 6.0]])))
        >>> scene.cast_spheres(np.zeros((1, 3)), np.array([[0.0, 0.0, 1.0]]), 0.5).distance.tolist()
        [4.5]
        """
        o, d = self._rays(origins, directions)
        r = _arrays.per_row(radius, self.dtype, "radius")
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.cast_rays(
            o, d, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads), radius=r
        )
        return Hits(*found)

    def next_crossing(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        after: npt.ArrayLike = -np.inf,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> Crossings:
        """Where each ray next crosses a body's surface beyond the distance ``after`` (a scalar
        or one per ray; the default, ``-inf``, gives the first crossing ahead), entering or
        leaving it, within ``max_distance``: of the ends of every body's span along the line
        (``enter < exit``), the one with the smallest distance ``d`` such that
        ``after < d <= max_distance`` and ``d >= 0``, the lowest body on ties. Passing the last
        answer's ``distance`` as ``after`` walks the crossings in order (surface-tracking
        transport: the distance to the next boundary). The crate's ``Scene::next_crossing``.

        >>> import raysweep as rs
        >>> discs = rs.Scene(spheres=([[2.0, 0.0], [3.0, 0.0]], [1.0, 1.0]))
        >>> o, d = [[0.0, 0.0]], [[1.0, 0.0]]
        >>> first = discs.next_crossing(o, d)
        >>> first.distance.tolist(), first.body.tolist(), first.entering.tolist()
        ([1.0], [0], [True])
        >>> discs.next_crossing(o, d, after=first.distance).distance.tolist()
        [2.0]
        """
        o, d = self._rays(origins, directions)
        since = _arrays.per_row(after, self.dtype, "after")
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        found = self._inner.next_crossing(o, d, since, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads))
        return Crossings(*found)

    def hits_any(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> npt.NDArray[np.bool_]:
        """Whether each ray hits any body within ``max_distance`` (shadow and visibility rays):
        a boolean array, faster than :meth:`cast_rays` where the nearest body does not matter.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=(np.array([[0.0, 0.0, 5.0]]), np.ones(1)))
        >>> scene.hits_any(np.zeros((2, 3)), np.eye(3)[[2, 0]], max_distance=10.0).tolist()
        [True, False]
        """
        o, d = self._rays(origins, directions)
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        return self._inner.hits_any(o, d, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads))

    def ray_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: Optional[npt.ArrayLike] = None,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> Spans:
        """Every body each whole line (both ways from the origin) crosses, with where it enters
        and leaves it, in CSR form (chord lengths: ``exit - enter``). With ``max_distance`` (a
        scalar or one per ray), the segment ``[0, max_distance]`` of each ray instead: only the
        spans that meet it, each clamped to it (``enter`` below 0 raised to 0, ``exit`` beyond
        ``max_distance`` lowered to it), sorted by ``enter`` then ``body``, as :meth:`Grid.walk`
        covers its segment; a negative ``max_distance`` gives no spans, ``inf`` the half-line.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=(np.array([[0.0, 0.0, 5.0], [0.0, 0.0, -5.0]]), np.array([1.0, 2.0])))
        >>> spans = scene.ray_spans(np.zeros((1, 3)), np.array([[0.0, 0.0, 1.0]]))
        >>> spans.offsets.tolist(), spans.body.tolist(), spans.enter.tolist(), spans.exit.tolist()
        ([0, 2], [1, 0], [-7.0, 4.0], [-3.0, 6.0])
        >>> segment = scene.ray_spans([[0.0, 0.0, 5.0]], [[0.0, 0.0, 1.0]], max_distance=0.5)
        >>> segment.body.tolist(), segment.enter.tolist(), segment.exit.tolist()
        ([0], [0.0], [0.5])
        """
        o, d = self._rays(origins, directions)
        found = self._inner.spans(
            o,
            d,
            _arrays.mask(mask, len(self)),
            _arrays.threads(threads),
            max_distance=self._segment(max_distance),
        )
        return Spans(*found)

    def sphere_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        radius: npt.ArrayLike,
        max_distance: Optional[npt.ArrayLike] = None,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> Spans:
        """Every body a ball of ``radius`` moving along each whole line touches, with where its
        centre starts and stops touching it, in CSR form; with ``max_distance``, only along the
        segment ``[0, max_distance]`` of the centre's path, clamped, as for :meth:`ray_spans`.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=(np.array([[0.0, 0.0, 5.0]]), np.ones(1)))
        >>> spans = scene.sphere_spans(np.zeros((1, 3)), np.array([[0.0, 0.0, 1.0]]), 1.0)
        >>> spans.enter.tolist(), spans.exit.tolist()
        ([3.0], [7.0])
        """
        o, d = self._rays(origins, directions)
        r = _arrays.per_row(radius, self.dtype, "radius")
        found = self._inner.spans(
            o,
            d,
            _arrays.mask(mask, len(self)),
            _arrays.threads(threads),
            radius=r,
            max_distance=self._segment(max_distance),
        )
        return Spans(*found)

    def union_spans(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: Optional[npt.ArrayLike] = None,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> UnionSpans:
        """The intervals of the union of the bodies along each whole line, in increasing order,
        in CSR form: where the line runs inside at least one body (the chords of overlapping
        grains, of a Boolean model's solid phase). With ``max_distance``, of the segment
        ``[0, max_distance]``, clamped, as :meth:`ray_spans` is. Exactly :meth:`ray_spans`'s
        spans merged, two that touch or overlap into one interval, each end with its bits.

        >>> import raysweep as rs
        >>> grains = rs.Scene(spheres=([[2.0, 0.0], [3.0, 0.0], [8.0, 0.0]], [1.0, 1.0, 1.0]))
        >>> union = grains.union_spans([[0.0, 0.0]], [[1.0, 0.0]])
        >>> union.enter.tolist(), union.exit.tolist()
        ([1.0, 7.0], [4.0, 9.0])
        >>> grains.union_spans([[0.0, 0.0]], [[1.0, 0.0]], 8.0).exit.tolist()
        [4.0, 8.0]
        """
        o, d = self._rays(origins, directions)
        found = self._inner.union_spans(
            o, d, self._segment(max_distance), _arrays.mask(mask, len(self)), _arrays.threads(threads)
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
        """The intervals of the union of :meth:`sphere_spans`'s spans, as :meth:`union_spans`
        merges :meth:`ray_spans`'s: where a ball of ``radius`` moving along each line overlaps at
        least one body, so that the gaps between them are where it passes freely (the chords a
        probe of that radius finds in a porous medium). Each end exactly a sphere span's.

        >>> import raysweep as rs
        >>> grains = rs.Scene(spheres=([[2.0, 0.0], [5.5, 0.0]], [1.0, 1.0]))
        >>> probe = grains.union_sphere_spans([[-2.0, 0.0]] * 2, [[1.0, 0.0]] * 2, [0.5, 0.75])
        >>> probe.offsets.tolist()  # radius 0.5 passes the gap of 1.5; 0.75 touches both there
        [0, 2, 3]
        >>> probe.enter.tolist(), probe.exit.tolist()
        ([2.5, 6.0, 2.25], [5.5, 9.0, 9.25])
        """
        o, d = self._rays(origins, directions)
        found = self._inner.union_spans(
            o,
            d,
            self._segment(max_distance),
            _arrays.mask(mask, len(self)),
            _arrays.threads(threads),
            radius=_arrays.per_row(radius, self.dtype, "radius"),
        )
        return UnionSpans(*found)

    def _segment(self, max_distance: Optional[npt.ArrayLike]) -> Optional[np.ndarray]:
        return None if max_distance is None else _arrays.per_row(max_distance, self.dtype, "max_distance")

    def containing(
        self, points: npt.ArrayLike, mask: Optional[npt.ArrayLike] = None, threads: Optional[int] = None
    ) -> Bodies:
        """The bodies containing each point (boundaries included), in CSR form.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=(np.array([[0.0, 0.0], [1.0, 0.0]]), np.ones(2)))
        >>> found = scene.containing(np.array([[0.5, 0.0], [3.0, 0.0]]))
        >>> found.offsets.tolist(), found.body.tolist()
        ([0, 2, 2], [0, 1])
        """
        p = self._points(points)
        found = self._inner.containing(p, _arrays.mask(mask, len(self)), _arrays.threads(threads))
        return Bodies(*found)

    def nearest(
        self,
        points: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> Nearest:
        """The body nearest to each point (the smallest signed distance, negative inside: a point
        inside several bodies gets the one it is deepest in), among those whose signed distance is
        at most ``max_distance``; the lowest id on ties.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=(np.array([[0.0, 0.0, 0.0], [5.0, 0.0, 0.0]]), np.ones(2)))
        >>> near = scene.nearest(np.array([[3.0, 0.0, 0.0], [0.5, 0.0, 0.0]]))
        >>> near.body.tolist(), near.signed_distance.tolist()
        ([1, 0], [1.0, -0.5])
        """
        p = self._points(points)
        reach = _arrays.per_row(max_distance, self.dtype, "max_distance")
        value, body, point, normal = self._inner.nearest(
            p, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads)
        )
        return Nearest(body, value, point, normal)

    def within(
        self,
        points: npt.ArrayLike,
        distance: npt.ArrayLike,
        mask: Optional[npt.ArrayLike] = None,
        threads: Optional[int] = None,
    ) -> Bodies:
        """The bodies whose signed distance from each point is at most ``distance`` (a scalar or
        one per point; 0: the bodies containing it; negative: those it is at least that deep in),
        in CSR form, increasing ids.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=(np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [9.0, 0.0, 0.0]]), np.ones(3)))
        >>> scene.within(np.array([[0.5, 0.0, 0.0]]), 1.5).body.tolist()
        [0, 1]
        """
        p = self._points(points)
        reach = _arrays.per_row(distance, self.dtype, "distance")
        found = self._inner.within(p, reach, _arrays.mask(mask, len(self)), _arrays.threads(threads))
        return Bodies(*found)


def _restore_scene(dtype: str, dim: int, state: bytes) -> Scene:
    """The scene a pickle holds: its bodies, with the hierarchy rebuilt."""
    return Scene._wrap(_Scene.restore(dtype, dim, state))
