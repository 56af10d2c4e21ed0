"""How arrays from users become the arrays the compiled module reads.

The conventions (``docs/python.md``): the dtype decides the width (``float32`` or ``float64``);
in a constructor lists and integer arrays are ``float64``, in a query they take the scene's or
grid's width, as Python scalars do (rounded to nearest); numpy float arrays of both widths in one
call, or of a query whose width is not the scene's, raise ``TypeError``: no float array is rounded
silently. Any strides, orders, alignments and byte orders are accepted, and aligned C-contiguous
native arrays pass without a copy. Every other bad value raises ``ValueError``.
"""

from __future__ import annotations

import operator
from typing import Any, Optional

import numpy as np

#: The most threads a query may ask for.
MOST_THREADS = 4096

WIDTHS: dict[int, np.dtype] = {4: np.dtype(np.float32), 8: np.dtype(np.float64)}


def spelled(value: float) -> str:
    """A number as every message writes it (the crate's spelling): ``NaN``, ``inf``, ``-inf``,
    else Python's ``repr``."""
    return "NaN" if value != value else repr(float(value))


def float_width(value: Any) -> Optional[np.dtype]:
    """The float width an argument asks for: its dtype if it is a float array (or numpy float
    scalar), ``None`` for anything else (lists and integers are ``float64`` by default)."""
    dtype = getattr(value, "dtype", None)
    if dtype is None or dtype.kind != "f":
        return None
    if dtype.itemsize not in WIDTHS:
        raise TypeError(f"raysweep computes in float32 or float64, not {dtype}")
    return WIDTHS[dtype.itemsize]


def common_width(values: dict[str, Any], default: np.dtype) -> np.dtype:
    """The one float width of the arrays in ``values`` (by name), or ``default`` where none is a
    float array; ``TypeError`` if they mix widths."""
    found = {name: w for name, v in values.items() if (w := float_width(v)) is not None}
    widths = set(found.values())
    if len(widths) > 1:
        named = ", ".join(f"{name} is {w}" for name, w in found.items())
        raise TypeError(f"arrays of both float widths in one call ({named}): convert one")
    return widths.pop() if widths else default


def ready(value: Any, dtype: np.dtype) -> bool:
    """Whether ``value`` is already what the compiled module reads: a numpy array of ``dtype``
    (native: the widths compare equal only in native byte order), aligned and C-contiguous. The
    common case, checked first so that a call on a few rows costs little here."""
    return type(value) is np.ndarray and value.dtype == dtype and value.flags.c_contiguous and value.flags.aligned


def as_array(value: Any, dtype: np.dtype, name: str, query: bool = True) -> np.ndarray:
    """``value`` as a native, aligned, C-contiguous array of ``dtype`` (no copy where it is one
    already). A numpy float array whose width is not ``dtype``'s raises ``TypeError``; lists and
    integer arrays take ``dtype`` in a query and are ``float64`` in a constructor (``query``
    false)."""
    if ready(value, dtype):
        return value
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as err:
        raise ValueError(f"{name} is not an array of numbers: {err}") from None
    if array.dtype.kind not in "fiub":
        raise ValueError(f"{name} is not an array of real numbers (dtype {array.dtype})")
    given = float_width(value) if isinstance(value, (np.ndarray, np.generic)) else None
    width = given or (dtype if query else WIDTHS[8])
    if width != dtype:
        raise TypeError(f"{name} is {width} but the scene or grid is {dtype}: convert one")
    return np.require(array, dtype=dtype, requirements=["C", "A"])


def rows(value: Any, dtype: np.dtype, dim: int, name: str, query: bool = True) -> np.ndarray:
    """Rows of ``dim`` values: an array of shape ``(n, dim)``, or of shape ``(dim,)`` for one row
    (as scipy's ``cKDTree.query`` takes a single point)."""
    array = as_array(value, dtype, name, query)
    if array.shape == (dim,):
        return array.reshape(1, dim)
    if array.ndim != 2 or array.shape[1] != dim:
        raise ValueError(f"{name} must have shape (n, {dim}): it has {array.shape}")
    return array


def rays(origins: Any, directions: Any, dtype: np.dtype, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """Origins and directions of shape ``(n, dim)``; ``TypeError`` if they are float arrays of
    both widths."""
    if not (ready(origins, dtype) and ready(directions, dtype)):
        common_width({"origins": origins, "directions": directions}, dtype)
    return rows(origins, dtype, dim, "origins"), rows(directions, dtype, dim, "directions")


def column(value: Any, dtype: np.dtype, name: str, query: bool = True) -> np.ndarray:
    """One value per row: an array of shape ``(n,)``."""
    array = as_array(value, dtype, name, query)
    if array.ndim != 1:
        raise ValueError(f"{name} must have shape (n,): it has {array.shape}")
    return array


def per_row(value: Any, dtype: np.dtype, name: str) -> np.ndarray:
    """A scalar (rounded to the width) or one value per row, as a one-dimensional array (one
    entry stands for every row)."""
    if type(value) is float or type(value) is int:
        return np.array([value], dtype=dtype)
    if np.ndim(value) == 0:
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"{name} is not a number: {value!r}") from None
        return np.array([number], dtype=dtype)
    if getattr(value, "dtype", None) == np.bool_:
        raise ValueError(f"{name} must be numbers, not a boolean array (a mask is passed as mask=)")
    return column(value, dtype, name)


def mask(value: Any, count: int, of: str = "body") -> Optional[np.ndarray]:
    """A boolean mask over ``count`` bodies (or instances: ``of``), or ``None``."""
    if value is None:
        return None
    array = np.asarray(value)
    if array.dtype != np.bool_:
        raise ValueError(f"mask must be a boolean array, one entry per {of}, not {array.dtype}")
    if array.shape != (count,):
        raise ValueError(f"mask must have shape ({count},), one entry per {of}: it has {array.shape}")
    return np.require(array, requirements=["C", "A"])


def threads(value: Any) -> Optional[int]:
    """``None`` (every core), or a thread count from 1 to :data:`MOST_THREADS`, or -1 (every
    core, as scipy's ``workers=-1``)."""
    if value is None:
        return None
    try:
        count = operator.index(value)
    except TypeError:
        raise ValueError(f"threads must be an integer or None: {value!r}") from None
    if count == -1:
        return None
    if not 1 <= count <= MOST_THREADS:
        raise ValueError(f"threads must be from 1 to {MOST_THREADS}, or -1 or None for every core: {count}")
    return count
