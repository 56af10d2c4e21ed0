"""``raysweep.sphere_time_of_impact``: when pairs of moving balls first touch."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._raysweep import sphere_time_of_impact as _impacts
from ._results import Impacts


def sphere_time_of_impact(
    centers: npt.ArrayLike,
    radii: npt.ArrayLike,
    velocities: npt.ArrayLike,
    other_centers: npt.ArrayLike,
    other_radii: npt.ArrayLike,
    other_velocities: npt.ArrayLike,
    max_time: npt.ArrayLike = np.inf,
    threads: Optional[int] = None,
) -> Impacts:
    """For each row ``i``, the first time in ``[0, max_time]`` at which ball ``i`` (``centers[i]``,
    ``radii[i]``, moving with ``velocities[i]``) touches other ball ``i``, with the contact point
    and the other ball's outward normal there, as the other ball is at that time.

    A pair already touching or overlapping at time 0 has an impact at time 0 only while the gap
    is closing (decided exactly), so a pair that has just bounced is not reported again. Radii
    are one per row or one for all; ``max_time`` a scalar or one per row.

    >>> import numpy as np
    >>> import raysweep as rs
    >>> hit = rs.sphere_time_of_impact([[0.0, 0.0]], 1.0, [[2.0, 0.0]], [[10.0, 0.0]], 1.0, [[-2.0, 0.0]])
    >>> hit.time.tolist(), hit.point.tolist(), hit.normal.tolist()
    ([2.0], [[5.0, 0.0]], [[-1.0, 0.0]])
    """
    arrays = {
        "centers": centers,
        "radii": radii,
        "velocities": velocities,
        "other_centers": other_centers,
        "other_radii": other_radii,
        "other_velocities": other_velocities,
        "max_time": max_time,
    }
    width = _arrays.common_width(arrays, np.dtype(np.float64))
    c = _arrays.as_array(centers, width, "centers", query=False)
    if c.ndim != 2 or c.shape[1] not in (2, 3):
        raise ValueError(f"centers must have shape (n, 2) or (n, 3): they have {c.shape}")
    n, dim = c.shape

    def rows(value: Any, name: str) -> np.ndarray:
        return _arrays.rows(value, width, dim, name, query=False)

    def radii_of(value: Any, name: str) -> np.ndarray:
        if np.ndim(value) == 0:
            return np.full(n, _arrays.per_row(value, width, name)[0])
        return _arrays.column(value, width, name, query=False)

    found = _impacts(
        width.name,
        dim,
        c,
        radii_of(radii, "radii"),
        rows(velocities, "velocities"),
        rows(other_centers, "other_centers"),
        radii_of(other_radii, "other_radii"),
        rows(other_velocities, "other_velocities"),
        _arrays.per_row(max_time, width, "max_time"),
        _arrays.threads(threads),
    )
    return Impacts(*found)
