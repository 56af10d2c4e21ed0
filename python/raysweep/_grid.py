"""``raysweep.Grid``: a box cut into equal cells, walked exactly by arrays of rays."""

from __future__ import annotations

import operator
from typing import Any, Optional, Sequence

import numpy as np
import numpy.typing as npt

from . import _arrays
from ._raysweep import _Grid
from ._results import Walk


class Grid:
    """``cells[a]`` equal cells of ``cell_size[a]`` along each axis ``a`` from ``min``: cell ``k``
    on axis ``a`` is ``[min[a] + k·cell_size[a], min[a] + (k + 1)·cell_size[a]]`` in real numbers,
    and every walk decides against those planes exactly (no cell skipped or credited wrongly, the
    lengths summing to the chord).

    The width comes from ``min`` and ``cell_size`` (lists are ``float64``), the dimension (2 or 3)
    from ``len(cells)``. A volume over the grid has shape ``tuple(cells)``, indexed
    ``volume[i0, i1, i2]`` (C order).

    >>> import numpy as np
    >>> import raysweep as rs
    >>> grid = rs.Grid([0.0, 0.0], [0.5, 0.5], [4, 4])
    >>> walk = grid.walk(np.array([[-1.0, 0.75]]), np.array([[1.0, 0.0]]))
    >>> walk.cell.tolist(), walk.enter.tolist(), walk.exit.tolist()
    ([[0, 1], [1, 1], [2, 1], [3, 1]], [1.0, 1.5, 2.0, 2.5], [1.5, 2.0, 2.5, 3.0])
    """

    _inner: _Grid
    _dtype: np.dtype
    _dim: int

    def __init__(self, min: npt.ArrayLike, cell_size: npt.ArrayLike, cells: Sequence[int]) -> None:
        width = _arrays.common_width({"min": min, "cell_size": cell_size}, np.dtype(np.float64))
        try:
            counts = [operator.index(c) for c in cells]
        except TypeError:
            raise ValueError(f"cells must be integers: {cells!r}") from None
        if len(counts) not in (2, 3):
            raise ValueError(f"a grid is in 2 or 3 dimensions, not {len(counts)}")
        for axis, count in enumerate(counts):
            if not 1 <= count <= 2**53:
                raise ValueError(f"cells[{axis}] must be from 1 to 2^53: {count}")
        lo = _arrays.column(min, width, "min", query=False)
        size = _arrays.column(cell_size, width, "cell_size", query=False)
        self._inner = _Grid(width.name, lo, size, counts)
        self._dtype, self._dim = np.dtype(self._inner.dtype), self._inner.dim

    def __repr__(self) -> str:
        return f"raysweep.Grid(min={self.min.tolist()}, cell_size={self.cell_size.tolist()}, cells={self.cells})"

    def __reduce__(self) -> tuple:
        return (Grid, (self.min, self.cell_size, self.cells))

    @property
    def dim(self) -> int:
        """The dimension: 2 or 3."""
        return self._dim

    @property
    def dtype(self) -> np.dtype:
        """The width: ``float32`` or ``float64``."""
        return self._dtype

    @property
    def min(self) -> np.ndarray:
        """The lower corner."""
        return self._inner.min

    @property
    def cell_size(self) -> np.ndarray:
        """The cell size on each axis."""
        return self._inner.cell_size

    @property
    def cells(self) -> tuple[int, ...]:
        """The cells on each axis: the shape of a volume over the grid."""
        return tuple(self._inner.cells)

    def _args(
        self, origins: npt.ArrayLike, directions: npt.ArrayLike, max_distance: npt.ArrayLike
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        o, d = _arrays.rays(origins, directions, self.dtype, self.dim)
        return o, d, _arrays.per_row(max_distance, self.dtype, "max_distance")

    def walk(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        threads: Optional[int] = None,
    ) -> Walk:
        """The cells each ray crosses within ``max_distance``, in order, with where it enters and
        leaves each, in CSR form. A line through a corner passes from cell to cell there.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> grid = rs.Grid([0.0, 0.0], [1.0, 1.0], [3, 3])
        >>> walk = grid.walk(np.array([[-1.0, -1.0]]), np.array([[1.0, 1.0]]))
        >>> walk.offsets.tolist(), walk.cell.tolist()
        ([0, 3], [[0, 0], [1, 1], [2, 2]])
        """
        o, d, reach = self._args(origins, directions, max_distance)
        return Walk(*self._inner.walk(o, d, reach, _arrays.threads(threads)))

    def project(
        self,
        volume: npt.ArrayLike,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        threads: Optional[int] = None,
    ) -> np.ndarray:
        """Each ray's line integral through ``volume`` (shape ``tuple(cells)``, the grid's
        width): ``Σ volume[cell]·(exit − enter)`` over its walk, summed in walk order.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> grid = rs.Grid([0.0, 0.0], [1.0, 1.0], [3, 2])
        >>> volume = np.arange(6.0).reshape(3, 2)
        >>> grid.project(volume, np.array([[-1.0, 0.5]]), np.array([[1.0, 0.0]])).tolist()
        [6.0]
        """
        o, d, reach = self._args(origins, directions, max_distance)
        v = _arrays.as_array(volume, self.dtype, "volume")
        if v.shape != self.cells:
            raise ValueError(f"volume must have shape {self.cells}: it has {v.shape}")
        return self._inner.project(v, o, d, reach, _arrays.threads(threads))

    def backproject(
        self,
        values: npt.ArrayLike,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        threads: Optional[int] = None,
    ) -> np.ndarray:
        """The adjoint of :meth:`project`: a volume to which each ray adds ``values[i]·(exit −
        enter)`` in every cell it crosses. Contributions are added in ray order, so every thread
        count gives the same bits.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> grid = rs.Grid([0.0, 0.0], [1.0, 1.0], [3, 2])
        >>> grid.backproject(np.array([2.0]), np.array([[-1.0, 0.5]]), np.array([[1.0, 0.0]])).tolist()
        [[2.0, 0.0], [2.0, 0.0], [2.0, 0.0]]
        """
        o, d, reach = self._args(origins, directions, max_distance)
        v = _arrays.column(values, self.dtype, "values")
        return self._inner.backproject(v, o, d, reach, _arrays.threads(threads))

    def matrix(
        self,
        origins: npt.ArrayLike,
        directions: npt.ArrayLike,
        max_distance: npt.ArrayLike = np.inf,
        threads: Optional[int] = None,
    ) -> Any:
        """The walks as a ``scipy.sparse.csr_array`` of shape ``(n, prod(cells))``: entry ``(i,
        flat cell)`` is ray ``i``'s ``exit − enter`` in that cell, in the grid's width, the flat
        index in C order over ``cells``; nothing else is stored. ``matrix @ volume.ravel()`` is
        :meth:`project` up to the order of the sums.

        >>> import numpy as np
        >>> import raysweep as rs
        >>> grid = rs.Grid([0.0, 0.0], [1.0, 1.0], [3, 2])
        >>> grid.matrix(np.array([[-1.0, 0.5]]), np.array([[1.0, 0.0]])).toarray().tolist()
        [[1.0, 0.0, 1.0, 0.0, 1.0, 0.0]]
        """
        from scipy import sparse

        o, d, reach = self._args(origins, directions, max_distance)
        offsets, index, length = self._inner.matrix(o, d, reach, _arrays.threads(threads))
        columns = int(np.prod(self.cells, dtype=object))
        return sparse.csr_array((length, index, offsets), shape=(len(o), columns))

    def occupancy(self, scene: Any, threads: Optional[int] = None) -> np.ndarray:
        """Whether each cell's centre lies in a body of ``scene`` (a :class:`Scene`,
        :class:`InstancedScene` or :class:`PeriodicScene` of the grid's width and dimension,
        every image of a periodic one counting): a ``bool`` array of shape :attr:`cells`,
        ``[i, j, k]`` the cell with index ``i`` on axis 0, as a volume is. A centre is ``min +
        (index + 1/2) * cell_size``, formed in float64 and rounded to the width; each cell is
        exactly :meth:`Scene.containing` at its centre being non-empty (boundaries included),
        found from the spans along each row of centres rather than a query per cell.

        >>> import raysweep as rs
        >>> disc = rs.Scene(spheres=([[2.0, 2.0]], [1.6]))
        >>> image = rs.Grid([0.0, 0.0], [1.0, 1.0], [4, 4]).occupancy(disc)
        >>> ["".join("#" if c else "." for c in row) for row in image]
        ['.##.', '####', '####', '.##.']
        """
        inner = getattr(scene, "_inner", None)
        if inner is None or not hasattr(inner, "occupancy"):
            raise ValueError(f"scene must be a raysweep Scene, InstancedScene or PeriodicScene, not {type(scene).__name__}")
        return inner.occupancy(self._inner, _arrays.threads(threads))
