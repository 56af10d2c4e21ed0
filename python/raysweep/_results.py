"""What the queries return: named tuples of numpy arrays, one row per ray or point, or CSR rows
where a ray or point has several answers.

A CSR answer's row ``i`` is entries ``offsets[i]:offsets[i + 1]`` of its other arrays; ``row(i)``
gives them, and ``sum(values)`` adds up one value per entry row by row (``0`` for an empty row),
in float64, entry after entry, rounded once to the answer's width (float64 for the body lists).
"""

from __future__ import annotations

import operator
from typing import Any, NamedTuple, Optional

import numpy as np
import numpy.typing as npt

from . import _arrays

#: A float array in the answer's width (``float32`` or ``float64``).
Floats = npt.NDArray[np.floating[Any]]
#: Ids and offsets.
Ints = npt.NDArray[np.int64]


def _row(offsets: Ints, i: Any) -> slice:
    """The entries of row ``i`` (negative counts from the end, as for a list)."""
    rows = len(offsets) - 1
    try:
        k = operator.index(i)
    except TypeError:
        raise TypeError(f"a row index is an integer, not {i!r}") from None
    if not -rows <= k < rows:
        raise IndexError(f"row {k} of {rows}")
    k %= rows
    return slice(int(offsets[k]), int(offsets[k + 1]))


def _sum(offsets: Ints, values: npt.ArrayLike, width: np.dtype, name: str = "values") -> Floats:
    """One sum per row of ``values`` (one per entry, real numbers), in float64 entry after entry,
    rounded once to ``width``."""
    array = np.asarray(values)
    entries = int(offsets[-1])
    if array.shape != (entries,):
        raise ValueError(f"{name} must have shape ({entries},), one per entry: it has {array.shape}")
    if array.dtype.kind not in "fiub":
        raise ValueError(f"{name} is not an array of real numbers (dtype {array.dtype})")
    weights = array.astype(np.float64)
    bad = np.flatnonzero(~np.isfinite(weights))
    if len(bad):
        raise ValueError(f"{name}[{bad[0]}] is not finite: {_arrays.spelled(weights[bad[0]])}")
    rows = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
    sums = np.bincount(rows, weights=weights, minlength=len(offsets) - 1)
    return sums.astype(width)


def _span_sum(offsets: Ints, enter: Floats, exit: Floats, values: Optional[npt.ArrayLike]) -> Floats:
    """A span list's per-row sums: of ``exit - enter`` (formed in float64), or of ``values``, in
    the spans' width."""
    if values is None:
        return _sum(offsets, exit.astype(np.float64) - enter, enter.dtype, "lengths")
    return _sum(offsets, values, enter.dtype)


class Hits(NamedTuple):
    """First hits, one per ray: a miss has ``distance = inf``, ``body = -1`` and NaN ``point``
    and ``normal``."""

    #: ``(n,)``: how far each ray travels along its unit direction to the hit.
    distance: Floats
    #: ``(n,)`` ``int64``: the body hit.
    body: Ints
    #: ``(n, D)``: the contact point (the origin where the ray starts inside).
    point: Floats
    #: ``(n, D)``: the body's outward unit normal there.
    normal: Floats


class Spans(NamedTuple):
    """Where each line (or segment) crosses bodies, in CSR form: row ``i``'s spans are entries
    ``offsets[i]:offsets[i + 1]``, sorted by ``enter``, then ``body``."""

    #: ``(n + 1,)`` ``int64``.
    offsets: Ints
    #: ``int64``: the body crossed.
    body: Ints
    #: Where the line enters it (negative behind the origin, for the whole line).
    enter: Floats
    #: Where it leaves it.
    exit: Floats

    def row(self, i: int) -> tuple[Ints, Floats, Floats]:
        """Row ``i``'s ``(body, enter, exit)``.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=([[0.0, 5.0], [0.0, 9.0]], [1.0, 1.0]))
        >>> body, enter, exit = scene.ray_spans([[0.0, 0.0]], [[0.0, 1.0]]).row(0)
        >>> body.tolist(), enter.tolist(), exit.tolist()
        ([0, 1], [4.0, 8.0], [6.0, 10.0])
        """
        at = _row(self.offsets, i)
        return self.body[at], self.enter[at], self.exit[at]

    def sum(self, values: Optional[npt.ArrayLike] = None) -> Floats:
        """Per-row sums of ``exit - enter`` (the length inside bodies: total chord), or of
        ``values`` (one per span, e.g. an attenuation coefficient times the span's length); 0
        for an empty row. Summed in float64 in entry order, rounded once to the width.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=([[0.0, 5.0], [0.0, 9.0]], [1.0, 1.0]))
        >>> scene.ray_spans([[0.0, 0.0], [5.0, 0.0]], [[0.0, 1.0], [0.0, 1.0]]).sum().tolist()
        [4.0, 0.0]
        """
        return _span_sum(self.offsets, self.enter, self.exit, values)


class UnionSpans(NamedTuple):
    """The intervals of the union of the bodies along each line (or segment), in CSR form: row
    ``i``'s are entries ``offsets[i]:offsets[i + 1]``, in increasing order, apart (two spans that
    touch or overlap are one interval); each end is an end of a body's span, with its bits."""

    #: ``(n + 1,)`` ``int64``.
    offsets: Ints
    #: Where the line enters the union.
    enter: Floats
    #: Where it leaves it.
    exit: Floats

    def row(self, i: int) -> tuple[Floats, Floats]:
        """Row ``i``'s ``(enter, exit)``.

        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=([[0.0, 5.0], [0.0, 6.0], [0.0, 9.0]], [1.0, 1.0, 0.5]))
        >>> enter, exit = scene.union_spans([[0.0, 0.0]], [[0.0, 1.0]]).row(0)
        >>> enter.tolist(), exit.tolist()
        ([4.0, 8.5], [7.0, 9.5])
        """
        at = _row(self.offsets, i)
        return self.enter[at], self.exit[at]

    def sum(self, values: Optional[npt.ArrayLike] = None) -> Floats:
        """Per-row sums of ``exit - enter`` (the length inside the union: a phase's chord total),
        or of ``values`` (one per interval); 0 for an empty row. Summed in float64 in entry
        order, rounded once to the width.

        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=([[0.0, 5.0], [0.0, 6.0]], [1.0, 1.0]))
        >>> scene.union_spans([[0.0, 0.0]], [[0.0, 1.0]]).sum().tolist()
        [3.0]
        """
        return _span_sum(self.offsets, self.enter, self.exit, values)


class Bodies(NamedTuple):
    """Body ids per point, in CSR form: row ``i``'s are ``body[offsets[i]:offsets[i + 1]]``, in
    increasing order."""

    #: ``(n + 1,)`` ``int64``.
    offsets: Ints
    #: ``int64``.
    body: Ints

    def row(self, i: int) -> Ints:
        """Row ``i``'s bodies.

        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=([[0.0, 0.0], [1.0, 0.0]], [1.0, 1.0]))
        >>> scene.containing([[0.5, 0.0]]).row(0).tolist()
        [0, 1]
        """
        return self.body[_row(self.offsets, i)]

    def sum(self, values: npt.ArrayLike) -> Floats:
        """Per-row sums of ``values`` (one per entry: ``per_body[found.body]``, say); 0 for an
        empty row. Summed in float64 in entry order; float64.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> scene = rs.Scene(spheres=([[0.0, 0.0], [1.0, 0.0]], [1.0, 1.0]))
        >>> found = scene.containing([[0.5, 0.0], [9.0, 0.0]])
        >>> found.sum(np.array([2.0, 3.0])[found.body]).tolist()
        [5.0, 0.0]
        """
        return _sum(self.offsets, values, np.dtype(np.float64))


class Nearest(NamedTuple):
    """The body nearest to each point; where there is none within ``max_distance``, ``body =
    -1``, ``signed_distance = inf`` and NaN ``point`` and ``normal``."""

    #: ``(n,)`` ``int64``.
    body: Ints
    #: ``(n,)``: negative inside the body (minus the depth).
    signed_distance: Floats
    #: ``(n, D)``: the nearest point of the body's surface.
    point: Floats
    #: ``(n, D)``: the outward unit normal there.
    normal: Floats


class Walk(NamedTuple):
    """The cells each ray crosses, in order along it, in CSR form: row ``i``'s cells are entries
    ``offsets[i]:offsets[i + 1]``."""

    #: ``(n + 1,)`` ``int64``.
    offsets: Ints
    #: ``(m, D)`` ``int64``: the cell's index on each axis.
    cell: Ints
    #: Where the ray enters the cell (the previous cell's ``exit``, the same bits).
    enter: Floats
    #: Where it leaves it.
    exit: Floats

    def row(self, i: int) -> tuple[Ints, Floats, Floats]:
        """Row ``i``'s ``(cell, enter, exit)``.

        >>> import raysweep as rs
        >>> walk = rs.Grid([0.0, 0.0], [1.0, 1.0], [2, 2]).walk([[-1.0, 0.5]], [[1.0, 0.0]])
        >>> cell, enter, exit = walk.row(0)
        >>> cell.tolist(), enter.tolist(), exit.tolist()
        ([[0, 0], [1, 0]], [1.0, 2.0], [2.0, 3.0])
        """
        at = _row(self.offsets, i)
        return self.cell[at], self.enter[at], self.exit[at]

    def sum(self, values: Optional[npt.ArrayLike] = None) -> Floats:
        """Per-row sums of ``exit - enter`` (the length of the ray inside the grid), or of
        ``values`` (one per entry: ``volume[tuple(walk.cell.T)] * (walk.exit - walk.enter)`` is
        a line integral); 0 for an empty row. Summed in float64 in entry order, rounded once to
        the width.

        >>> import raysweep as rs
        >>> walk = rs.Grid([0.0, 0.0], [1.0, 1.0], [2, 2]).walk([[-1.0, 0.5]], [[1.0, 0.0]])
        >>> walk.sum().tolist()
        [2.0]
        """
        return _span_sum(self.offsets, self.enter, self.exit, values)


class Impacts(NamedTuple):
    """The first impact of each pair of balls; ``time = inf`` and NaN ``point`` and ``normal``
    where there is none."""

    #: ``(n,)``.
    time: Floats
    #: ``(n, D)``: the contact point, on the other ball at that time.
    point: Floats
    #: ``(n, D)``: the other ball's outward unit normal there.
    normal: Floats


class InstanceHits(NamedTuple):
    """First hits in an instanced scene, one per ray: a miss has ``distance = inf``, ``instance
    = body = -1`` and NaN ``point`` and ``normal``."""

    #: ``(n,)``: how far each ray travels along its unit direction to the hit.
    distance: Floats
    #: ``(n,)`` ``int64``: the instance hit.
    instance: Ints
    #: ``(n,)`` ``int64``: the body of that instance's scene.
    body: Ints
    #: ``(n, D)``: the contact point, in the instanced scene's coordinates.
    point: Floats
    #: ``(n, D)``: the body's outward unit normal there.
    normal: Floats


class InstanceSpans(NamedTuple):
    """Where each line (or segment) crosses the bodies of an instanced scene, in CSR form,
    sorted by ``enter``, then ``(instance, body)``."""

    #: ``(n + 1,)`` ``int64``.
    offsets: Ints
    #: ``int64``.
    instance: Ints
    #: ``int64``.
    body: Ints
    #: Where the line enters the body.
    enter: Floats
    #: Where it leaves it.
    exit: Floats

    def row(self, i: int) -> tuple[Ints, Ints, Floats, Floats]:
        """Row ``i``'s ``(instance, body, enter, exit)``."""
        at = _row(self.offsets, i)
        return self.instance[at], self.body[at], self.enter[at], self.exit[at]

    def sum(self, values: Optional[npt.ArrayLike] = None) -> Floats:
        """Per-row sums of ``exit - enter``, or of ``values`` (one per span); 0 for an empty
        row. Summed in float64 in entry order, rounded once to the width."""
        return _span_sum(self.offsets, self.enter, self.exit, values)


class InstanceBodies(NamedTuple):
    """``(instance, body)`` pairs per point, in CSR form, in increasing order."""

    #: ``(n + 1,)`` ``int64``.
    offsets: Ints
    #: ``int64``.
    instance: Ints
    #: ``int64``.
    body: Ints

    def row(self, i: int) -> tuple[Ints, Ints]:
        """Row ``i``'s ``(instance, body)``."""
        at = _row(self.offsets, i)
        return self.instance[at], self.body[at]

    def sum(self, values: npt.ArrayLike) -> Floats:
        """Per-row sums of ``values`` (one per entry); 0 for an empty row. Summed in float64 in
        entry order; float64."""
        return _sum(self.offsets, values, np.dtype(np.float64))


class PeriodicHits(NamedTuple):
    """First hits in a periodic scene, one per ray: a miss has ``distance = inf``, ``body = -1``,
    ``image`` -1 on every axis and NaN ``point`` and ``normal``."""

    #: ``(n,)``: how far each ray travels along its unit direction to the hit.
    distance: Floats
    #: ``(n,)`` ``int64``: the body hit.
    body: Ints
    #: ``(n, D)`` ``int64``: the image it was hit in (the body translated by ``image * size``).
    image: Ints
    #: ``(n, D)``: the contact point, in the medium.
    point: Floats
    #: ``(n, D)``: the body's outward unit normal there.
    normal: Floats


class PeriodicSpans(NamedTuple):
    """Where each segment crosses the bodies of a periodic scene, in CSR form, sorted by
    ``enter``, then ``(body, image)``."""

    #: ``(n + 1,)`` ``int64``.
    offsets: Ints
    #: ``int64``.
    body: Ints
    #: ``(m, D)`` ``int64``: the image of the body crossed.
    image: Ints
    #: Where the segment enters the body.
    enter: Floats
    #: Where it leaves it.
    exit: Floats

    def row(self, i: int) -> tuple[Ints, Ints, Floats, Floats]:
        """Row ``i``'s ``(body, image, enter, exit)``."""
        at = _row(self.offsets, i)
        return self.body[at], self.image[at], self.enter[at], self.exit[at]

    def sum(self, values: Optional[npt.ArrayLike] = None) -> Floats:
        """Per-row sums of ``exit - enter``, or of ``values`` (one per span); 0 for an empty
        row. Summed in float64 in entry order, rounded once to the width."""
        return _span_sum(self.offsets, self.enter, self.exit, values)


class PeriodicBodies(NamedTuple):
    """``(body, image)`` pairs per point, in CSR form, in increasing order."""

    #: ``(n + 1,)`` ``int64``.
    offsets: Ints
    #: ``int64``.
    body: Ints
    #: ``(m, D)`` ``int64``.
    image: Ints

    def row(self, i: int) -> tuple[Ints, Ints]:
        """Row ``i``'s ``(body, image)``."""
        at = _row(self.offsets, i)
        return self.body[at], self.image[at]

    def sum(self, values: npt.ArrayLike) -> Floats:
        """Per-row sums of ``values`` (one per entry); 0 for an empty row. Summed in float64 in
        entry order; float64."""
        return _sum(self.offsets, values, np.dtype(np.float64))


class InstanceNearest(NamedTuple):
    """The ``(instance, body)`` nearest to each point: where there is none within
    ``max_distance``, ``instance = body = -1``, ``signed_distance = inf``, NaN ``point`` and
    ``normal``."""

    #: ``(n,)`` ``int64``.
    instance: Ints
    #: ``(n,)`` ``int64``: the body in its instance's scene.
    body: Ints
    #: ``(n,)``: negative inside.
    signed_distance: Floats
    #: ``(n, D)``: the nearest surface point of the translated body.
    point: Floats
    #: ``(n, D)``: the outward unit normal there.
    normal: Floats


class PeriodicNearest(NamedTuple):
    """The ``(body, image)`` nearest to each point: where there is none within reach, ``body =
    -1``, ``image`` -1 on every axis, ``signed_distance = inf``, NaN ``point`` and ``normal``."""

    #: ``(n,)`` ``int64``.
    body: Ints
    #: ``(n, D)`` ``int64``.
    image: Ints
    #: ``(n,)``: negative inside.
    signed_distance: Floats
    #: ``(n, D)``: the nearest surface point, in the medium.
    point: Floats
    #: ``(n, D)``: the outward unit normal there.
    normal: Floats


class Crossings(NamedTuple):
    """Next crossings, one per ray (:meth:`Scene.next_crossing`): where the ray crosses a body's
    surface beyond ``after``; a row with none has ``distance = inf``, ``body = -1``,
    ``entering`` false and NaN ``point`` and ``normal``."""

    #: ``(n,)``: how far along the unit direction the crossing lies (an end of the body's span).
    distance: Floats
    #: ``(n,)`` ``int64``: the body crossed.
    body: Ints
    #: ``(n,)`` ``bool``: whether the ray enters the body there (else it leaves it).
    entering: npt.NDArray[np.bool_]
    #: ``(n, D)``: the ray's point at ``distance``, rounded once.
    point: Floats
    #: ``(n, D)``: the body's outward unit normal there.
    normal: Floats


class InstanceCrossings(NamedTuple):
    """Next crossings in an instanced scene, as :class:`Crossings` with the instance."""

    #: ``(n,)``: how far along the unit direction the crossing lies.
    distance: Floats
    #: ``(n,)`` ``int64``: the instance crossed (``-1`` for none).
    instance: Ints
    #: ``(n,)`` ``int64``: the body of its scene.
    body: Ints
    #: ``(n,)`` ``bool``: whether the ray enters the body there.
    entering: npt.NDArray[np.bool_]
    #: ``(n, D)``: the ray's point at ``distance``.
    point: Floats
    #: ``(n, D)``: the translated body's outward unit normal there.
    normal: Floats


class PeriodicCrossings(NamedTuple):
    """Next crossings in a periodic scene, as :class:`Crossings` with the image."""

    #: ``(n,)``: how far along the unit direction the crossing lies.
    distance: Floats
    #: ``(n,)`` ``int64``: the body crossed (``-1`` for none).
    body: Ints
    #: ``(n, D)`` ``int64``: the image it is crossed in.
    image: Ints
    #: ``(n,)`` ``bool``: whether the ray enters the body there.
    entering: npt.NDArray[np.bool_]
    #: ``(n, D)``: the ray's point at ``distance``.
    point: Floats
    #: ``(n, D)``: the translated body's outward unit normal there.
    normal: Floats
