"""What the queries return: named tuples of numpy arrays, one row per ray or point, or CSR rows
where a ray or point has several answers."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

class Hits(NamedTuple):
    """First hits, one per ray: a miss has ``distance = inf``, ``body = -1`` and NaN ``point``
    and ``normal``."""

    #: ``(n,)``: how far each ray travels along its unit direction to the hit.
    distance: np.ndarray
    #: ``(n,)`` ``int64``: the body hit.
    body: np.ndarray
    #: ``(n, D)``: the contact point (the origin where the ray starts inside).
    point: np.ndarray
    #: ``(n, D)``: the body's outward unit normal there.
    normal: np.ndarray


class Spans(NamedTuple):
    """Where each whole line crosses bodies, in CSR form: row ``i``'s spans are entries
    ``offsets[i]:offsets[i + 1]``, sorted by ``enter``, then ``body``."""

    #: ``(n + 1,)`` ``int64``.
    offsets: np.ndarray
    #: ``int64``: the body crossed.
    body: np.ndarray
    #: Where the line enters it (negative behind the origin).
    enter: np.ndarray
    #: Where it leaves it.
    exit: np.ndarray


class Bodies(NamedTuple):
    """Body ids per point, in CSR form: row ``i``'s are ``body[offsets[i]:offsets[i + 1]]``, in
    increasing order."""

    #: ``(n + 1,)`` ``int64``.
    offsets: np.ndarray
    #: ``int64``.
    body: np.ndarray


class Nearest(NamedTuple):
    """The body nearest to each point; where there is none within ``max_distance``, ``body =
    -1``, ``signed_distance = inf`` and NaN ``point`` and ``normal``."""

    #: ``(n,)`` ``int64``.
    body: np.ndarray
    #: ``(n,)``: negative inside the body (minus the depth).
    signed_distance: np.ndarray
    #: ``(n, D)``: the nearest point of the body's surface.
    point: np.ndarray
    #: ``(n, D)``: the outward unit normal there.
    normal: np.ndarray


class Walk(NamedTuple):
    """The cells each ray crosses, in order along it, in CSR form: row ``i``'s cells are entries
    ``offsets[i]:offsets[i + 1]``."""

    #: ``(n + 1,)`` ``int64``.
    offsets: np.ndarray
    #: ``(m, D)`` ``int64``: the cell's index on each axis.
    cell: np.ndarray
    #: Where the ray enters the cell (the previous cell's ``exit``, the same bits).
    enter: np.ndarray
    #: Where it leaves it.
    exit: np.ndarray


class Impacts(NamedTuple):
    """The first impact of each pair of balls; ``time = inf`` and NaN ``point`` and ``normal``
    where there is none."""

    #: ``(n,)``.
    time: np.ndarray
    #: ``(n, D)``: the contact point, on the other ball at that time.
    point: np.ndarray
    #: ``(n, D)``: the other ball's outward unit normal there.
    normal: np.ndarray
