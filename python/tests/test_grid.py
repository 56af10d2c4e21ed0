"""Grids from Python: walks against an exact walk in rational arithmetic (``fractions``) on rays in
the grid's planes and through its edges and corners; ``project`` and ``backproject`` adjoint to
rounding and the same bits on any thread count; ``matrix`` equal to ``walk``; bad input."""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import numpy as np
import pytest

import raysweep as rs

KINDS = [(np.float32, 2), (np.float32, 3), (np.float64, 2), (np.float64, 3)]


def exact_walk(lo, size, cells, origin, direction):
    """The cells a ray crosses for a positive length, in order, and the parameters ``s`` along
    ``direction`` (not normalised) where it enters and leaves each, in rational arithmetic."""
    lo = [Fraction(float(v)) for v in lo]
    size = [Fraction(float(v)) for v in size]
    o = [Fraction(float(v)) for v in origin]
    d = [Fraction(float(v)) for v in direction]
    dim = len(o)
    start, end = Fraction(0), None
    for a in range(dim):
        top = lo[a] + cells[a] * size[a]
        if d[a] == 0:
            if not lo[a] <= o[a] <= top:
                return []
            continue
        s0, s1 = sorted(((lo[a] - o[a]) / d[a], (top - o[a]) / d[a]))
        start = max(start, s0)
        end = s1 if end is None else min(end, s1)
    if end is None or end <= start:
        return []
    events = {start, end}
    for a in range(dim):
        if d[a] != 0:
            for k in range(cells[a] + 1):
                s = (lo[a] + k * size[a] - o[a]) / d[a]
                if start < s < end:
                    events.add(s)
    events = sorted(events)
    out = []
    for s0, s1 in zip(events, events[1:]):
        mid = (s0 + s1) / 2
        index = tuple(
            min(math.floor((o[a] + mid * d[a] - lo[a]) / size[a]), cells[a] - 1) for a in range(dim)
        )
        if out and out[-1][0] == index:
            out[-1] = (index, out[-1][1], s1)
        else:
            out.append((index, s0, s1))
    return out


def special_rays(rng, dim, cells, size, n):
    """Rays in the grid's planes, along its axes, and along diagonals through its edges and
    corners: directions whose normalised form lies on the same line."""
    origins, directions = [], []
    for k in range(n):
        d = np.zeros(dim)
        kind = k % 3
        if kind == 0:  # along an axis, in planes between cells
            d[rng.integers(dim)] = rng.choice([-1.0, 1.0])
        else:  # a diagonal of two or all axes
            axes = rng.choice(dim, 2 if kind == 1 or dim == 2 else dim, replace=False)
            d[axes] = rng.choice([-1.0, 1.0], len(axes))
        # From a lattice point (on planes, edges, corners) moved back along the line.
        corner = np.array([rng.integers(0, c + 1) * s for c, s in zip(cells, size)])
        back = rng.integers(1, 5) * size[0]
        origins.append(corner - back * d)
        directions.append(d)
    return np.array(origins), np.array(directions)


@pytest.mark.parametrize("dtype, dim", KINDS)
def test_walks_equal_the_exact_walk(dtype, dim):
    rng = np.random.default_rng(dim * 10 + np.dtype(dtype).itemsize)
    cells = [5, 4, 3][:dim]
    size = np.full(dim, 0.5)  # planes exactly representable, so lattice points are exact inputs
    size[-1] = 0.25
    lo = np.full(dim, -1.0)
    grid = rs.Grid(lo.astype(dtype), size.astype(dtype), cells)
    o, d = special_rays(rng, dim, cells, size, 60)
    o = (o + lo).astype(dtype)
    d = d.astype(dtype)
    walk = grid.walk(o, d)
    ulp = float(np.finfo(dtype).eps)
    for row in range(len(o)):
        want = exact_walk(lo, size, cells, o[row], d[row])
        a, b = walk.offsets[row], walk.offsets[row + 1]
        assert [tuple(c) for c in walk.cell[a:b].tolist()] == [w[0] for w in want]
        norm = math.sqrt(float(np.sum(d[row].astype(np.float64) ** 2)))
        for j, (_, s0, s1) in zip(range(a, b), want):
            for got, s in ((walk.enter[j], s0), (walk.exit[j], s1)):
                exact = float(s) * norm
                assert abs(float(got) - exact) <= (1 if dtype == np.float32 else 8) * ulp * abs(exact) + 1e-300
        assert np.array_equal(walk.exit[a:b - 1], walk.enter[a + 1:b])


@pytest.mark.parametrize("dtype, dim", KINDS)
def test_project_backproject_matrix(dtype, dim):
    rng = np.random.default_rng(20 + dim)
    cells = [17, 13, 11][:dim]
    grid = rs.Grid(np.full(dim, -1.3, dtype), np.full(dim, 0.1, dtype), cells)
    o = rng.uniform(-4, 4, (400, dim)).astype(dtype)
    d = rng.standard_normal((400, dim)).astype(dtype)
    reach = rng.uniform(0, 6, 400).astype(dtype)
    volume = rng.random(cells).astype(dtype)
    values = rng.random(400).astype(dtype)
    forward = grid.project(volume, o, d, max_distance=reach)
    back = grid.backproject(values, o, d, max_distance=reach)
    assert forward.dtype == dtype and back.dtype == dtype and back.shape == tuple(cells)
    # Adjoint to rounding: <P x, y> = <x, P^T y>.
    left = float(np.dot(forward.astype(np.float64), values))
    right = float(np.sum(volume.astype(np.float64) * back))
    assert abs(left - right) <= 1e3 * np.finfo(dtype).eps * abs(left)
    # The matrix holds the walk's lengths, in C order, and nothing else.
    m = grid.matrix(o, d, max_distance=reach)
    walk = grid.walk(o, d, max_distance=reach)
    assert m.shape == (400, int(np.prod(cells))) and m.dtype == dtype
    assert np.array_equal(m.indptr, walk.offsets)
    assert np.array_equal(m.indices, np.ravel_multi_index(tuple(walk.cell.T), cells))
    assert np.array_equal(m.data, walk.exit - walk.enter)
    assert np.all(m.data > 0)
    # project is the walk's sum in walk order; matrix @ volume agrees to rounding.
    sums = np.array([
        np.sum((volume[tuple(walk.cell[a:b].T)] * (walk.exit[a:b] - walk.enter[a:b])).astype(np.float64))
        for a, b in zip(walk.offsets[:-1], walk.offsets[1:])
    ])
    assert np.allclose(forward, sums, rtol=1e2 * np.finfo(dtype).eps, atol=0)
    assert np.allclose(m @ volume.ravel(), forward, rtol=1e2 * np.finfo(dtype).eps, atol=1e-30)
    # Any thread count gives the same bits.
    for threads in (1, 2, 3):
        assert grid.backproject(values, o, d, max_distance=reach, threads=threads).tobytes() == back.tobytes()
        assert grid.project(volume, o, d, max_distance=reach, threads=threads).tobytes() == forward.tobytes()


def test_grid_pickles_and_reports():
    grid = rs.Grid(np.array([0.0, -1.0, 2.0], np.float32), np.array([0.1, 0.2, 0.3], np.float32), [4, 5, 6])
    again = pickle.loads(pickle.dumps(grid))
    assert (again.cells, again.dim, again.dtype) == ((4, 5, 6), 3, np.float32)
    assert again.min.tobytes() == grid.min.tobytes() and again.cell_size.tobytes() == grid.cell_size.tobytes()
    o = np.array([[-1.0, 0.0, 2.5]], np.float32)
    d = np.array([[1.0, 0.3, 0.2]], np.float32)
    assert all(np.array_equal(a, b) for a, b in zip(again.walk(o, d), grid.walk(o, d)))


#: A volume of 4 x 2 x 3 cells with a NaN in cell (3, 1, 2).
NAN_VOLUME = np.ones((4, 2, 3))
NAN_VOLUME[3, 1, 2] = np.nan


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [4, -1]), ValueError, r"cells\[1\]"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 0.0], [4, 4]), ValueError, "cell size"),
        (lambda: rs.Grid([0.0, np.nan], [1.0, 1.0], [4, 4]), ValueError, "min"),
        (lambda: rs.Grid([0.0], [1.0], [4]), ValueError, "2 or 3"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [4, 4, 4]), ValueError, "entries"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [4.5, 4]), ValueError, "integers"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [2**70, 4]), ValueError, r"cells\[0\]"),
        (lambda: rs.Grid(np.zeros(2, np.float32), np.ones(2), [4, 4]), TypeError, "both float widths"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [2, 2]).project(np.ones((2, 3)), [[0.0, 0.0]], [[1.0, 0.0]]), ValueError, "shape"),
        (lambda: rs.Grid([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [4, 2, 3]).project(NAN_VOLUME, [[0.0, 0.0, 0.0]], [[1.0, 0.0, 0.0]]), ValueError, r"volume\[3, 1, 2\] is not finite: NaN"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [2, 2]).project([[1.0, 1.0], [-np.inf, 1.0]], [[0.0, 0.0]], [[1.0, 0.0]]), ValueError, r"volume\[1, 0\] is not finite: -inf"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [2, 2]).backproject(np.ones(3), [[0.0, 0.0]], [[1.0, 0.0]]), ValueError, "values"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [2, 2]).backproject([1.0, np.nan], [[0.0, 0.0]] * 2, [[1.0, 0.0]] * 2), ValueError, r"values\[1\] is not finite: NaN"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [2, 2]).backproject([np.inf], [[0.0, 0.0]], [[1.0, 0.0]]), ValueError, r"values\[0\]"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [2, 2]).walk([[0.0, 0.0]], [[0.0, 0.0]]), ValueError, "ray 0"),
        (lambda: rs.Grid([0.0, 0.0], [1.0, 1.0], [2, 2]).walk([[0.0, 0.0]], [[1.0, 0.0]], max_distance=np.nan), ValueError, "max_distance"),
    ],
)
def test_bad_grid_input(make, error, message):
    with pytest.raises(error, match=message):
        make()
