"""Input handling: any layout equals the contiguous arrays; lists and integers are float64; empty
inputs work; every bad input raises the error the conventions name (ValueError naming the row,
TypeError only for mixed float widths), never a crash or a NaN."""

from __future__ import annotations

import numpy as np
import pytest

import raysweep as rs


def scene_of(dtype=np.float64, dim=3):
    rng = np.random.default_rng(7)
    return rs.Scene(
        spheres=(rng.uniform(-5, 5, (20, dim)).astype(dtype), rng.uniform(0.2, 1, 20).astype(dtype)),
        boxes=(np.full((1, dim), -1, dtype), np.full((1, dim), 1, dtype)),
    )


def rays_of(dtype=np.float64, dim=3, n=50):
    rng = np.random.default_rng(8)
    return rng.uniform(-8, 8, (n, dim)).astype(dtype), rng.standard_normal((n, dim)).astype(dtype)


def same(a, b):
    return all(np.array_equal(x, y, equal_nan=True) for x, y in zip(a, b))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_any_layout_equals_contiguous(dtype):
    scene = scene_of(dtype)
    o, d = rays_of(dtype)
    want = scene.cast_rays(o, d)
    big = np.empty((len(o), 7), dtype)
    big[:, 1:7:2] = o  # strided columns
    variants = [
        (big[:, 1:7:2], d),
        (np.asfortranarray(o), np.asfortranarray(d)),
        (o.astype(np.dtype(dtype).newbyteorder(">")), d.astype(np.dtype(dtype).newbyteorder(">"))),
        (o[::-1][::-1], d),
    ]
    read_only = o.copy()
    read_only.flags.writeable = False
    variants.append((read_only, d))
    for vo, vd in variants:
        assert same(scene.cast_rays(vo, vd), want)
    assert same(scene.nearest(np.asfortranarray(o)), scene.nearest(o))
    # Answers come back in the scene's width.
    assert want.distance.dtype == dtype and want.point.dtype == dtype and want.body.dtype == np.int64


def test_lists_and_integers_are_float64_in_constructors_and_the_width_in_queries():
    scene = scene_of()
    rng = np.random.default_rng(9)
    o = rng.integers(-8, 8, (50, 3))
    d = rng.integers(1, 5, (50, 3)) * rng.choice([-1, 1], (50, 3))
    want = scene.cast_rays(o.astype(np.float64), d.astype(np.float64))
    assert same(scene.cast_rays(o, d), want)
    assert same(scene.cast_rays(o.tolist(), d.tolist()), want)
    assert rs.Scene(spheres=([[0, 0, 0]], [1])).dtype == np.float64
    # In a float32 scene's query, lists and integer arrays are float32 (rounded to nearest, as
    # Python scalars are): the same bits as float32 arrays of the same values.
    narrow = scene_of(np.float32)
    lists_o = (rng.uniform(-8, 8, (50, 3))).tolist()
    lists_d = (rng.standard_normal((50, 3))).tolist()
    want32 = narrow.cast_rays(np.array(lists_o, np.float32), np.array(lists_d, np.float32))
    assert same(narrow.cast_rays(lists_o, lists_d), want32)
    assert same(narrow.cast_rays(o, d), narrow.cast_rays(o.astype(np.float32), d.astype(np.float32)))
    assert same(narrow.nearest([[0.1, 0.2, 0.3]]), narrow.nearest(np.array([[0.1, 0.2, 0.3]], np.float32)))
    # A float64 numpy array in a float32 scene's query is still refused: nothing rounded silently.
    with pytest.raises(TypeError, match="float64"):
        narrow.cast_rays(np.zeros((1, 3)), [[1.0, 0.0, 0.0]])


def test_mixed_widths_raise_type_error():
    scene = scene_of(np.float32)
    o, d = rays_of(np.float32)
    with pytest.raises(TypeError):
        scene.cast_rays(o.astype(np.float64), d)
    with pytest.raises(TypeError):
        scene.cast_rays(o, d, max_distance=np.full(len(o), 5.0))
    with pytest.raises(TypeError):
        rs.Scene(spheres=(np.zeros((1, 3), np.float32), np.ones(1, np.float64)))
    # Scalars are rounded to the width: not an error.
    assert same(scene.cast_rays(o, d, max_distance=0.1), scene.cast_rays(o, d, max_distance=np.float32(0.1)))


def test_empty_inputs():
    scene = scene_of()
    hits = scene.cast_rays(np.zeros((0, 3)), np.zeros((0, 3)))
    assert hits.distance.shape == (0,) and hits.point.shape == (0, 3)
    spans = scene.ray_spans(np.zeros((0, 3)), np.zeros((0, 3)))
    assert spans.offsets.tolist() == [0] and spans.body.shape == (0,)
    empty = rs.Scene(dtype=np.float32, dim=2)
    assert len(empty) == 0 and empty.dim == 2 and empty.dtype == np.float32
    near = empty.nearest(np.zeros((3, 2), np.float32))
    assert near.body.tolist() == [-1, -1, -1] and np.isinf(near.signed_distance).all()
    assert empty.within(np.zeros((2, 2), np.float32), 1.0).offsets.tolist() == [0, 0, 0]


@pytest.mark.parametrize(
    "make, error, message",
    [
        (lambda: rs.Scene(spheres=([[0.0, 0, 0], [1.0, 0, 0]], [1.0, -2.0])), ValueError, r"spheres\[1\].*negative"),
        (lambda: rs.Scene(spheres=([[0.0, np.nan, 0]], [1.0])), ValueError, r"sphere centers\[0, 1\] is not finite: NaN"),
        (lambda: rs.Scene(boxes=([[0.0, 0, 0], [2.0, 0, 0]], [[1.0, 1, 1], [1.0, 1, 1]])), ValueError, r"boxes\[1\]"),
        (lambda: rs.Scene(ellipsoids=([[0.0, 0, 0]], [[1.0, 0.0, 1]])), ValueError, r"ellipsoids\[0\]"),
        (lambda: rs.Scene(ellipsoids=([[0.0, 0, 0]], [[1.0, 1, 1]], [np.ones((3, 3))])), ValueError, r"ellipsoids\[0\].*orthonormal"),
        (lambda: rs.Scene(ellipsoids=([[0.0, 0, 0]], [[1.0, 1, 1]], [np.eye(2)])), ValueError, "rotations"),
        (lambda: rs.Scene(spheres=([[0.0, 0, 0, 0]], [1.0])), ValueError, "2 or 3"),
        (lambda: rs.Scene(spheres=([[0.0, 0, 0]], [1.0, 2.0])), ValueError, "rows"),
        (lambda: rs.Scene(spheres=([[0.0, 0]], [1.0]), boxes=([[0.0, 0, 0]], [[1.0, 1, 1]])), ValueError, "dimensions"),
        (lambda: rs.Scene(spheres=[[0.0, 0, 0]]), ValueError, "tuple"),
        (lambda: rs.Scene(spheres=(np.zeros((1, 3), np.float16), [1.0])), TypeError, "float16"),
    ],
)
def test_bad_bodies(make, error, message):
    with pytest.raises(error, match=message):
        make()


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda s, o, d: s.cast_rays(o, np.zeros_like(d)), r"ray 0 .*length zero|ray 0 .*zero"),
        (lambda s, o, d: s.cast_rays(np.where(np.arange(len(o))[:, None] == 3, np.nan, o), d), r"ray 3"),
        (lambda s, o, d: s.cast_rays(o, np.where(np.arange(len(o))[:, None] == 4, np.inf, d)), r"ray 4"),
        (lambda s, o, d: s.cast_rays(o, d, max_distance=np.nan), r"max_distance\[0\] is NaN"),
        (lambda s, o, d: s.cast_rays(o, d, max_distance=np.r_[np.ones(len(o) - 1), np.nan]), r"max_distance\[49\]"),
        (lambda s, o, d: s.cast_rays(o, d, max_distance=np.ones(3)), "one per row"),
        (lambda s, o, d: s.cast_rays(o, d[:-1]), "rows"),
        (lambda s, o, d: s.cast_rays(o[:, :2], d), r"shape \(n, 3\)"),
        (lambda s, o, d: s.cast_rays(o[0, :2], d[:1]), r"shape \(n, 3\)"),
        (lambda s, o, d: s.ray_spans(o, d, np.ones(len(s), dtype=bool)), r"max_distance must be numbers, not a boolean array"),
        (lambda s, o, d: s.cast_rays(o, d, mask=np.ones(5, bool)), "mask"),
        (lambda s, o, d: s.cast_rays(o, d, mask=np.ones(len(s), int)), "boolean"),
        (lambda s, o, d: s.cast_rays(o, d, threads=0), "threads"),
        (lambda s, o, d: s.cast_rays(o, d, threads=2**70), "threads"),
        (lambda s, o, d: s.cast_rays(o, d, threads=1.5), "threads"),
        (lambda s, o, d: s.cast_spheres(o, d, -1.0), r"radius\[0\]"),
        (lambda s, o, d: s.cast_spheres(o, d, np.inf), r"radius\[0\]"),
        (lambda s, o, d: s.sphere_spans(o, d, np.nan), r"radius\[0\]"),
        (lambda s, o, d: s.nearest(np.where(np.arange(len(o))[:, None] == 2, np.inf, o)), r"points\[2, 0\]"),
        (lambda s, o, d: s.within(o, np.nan), r"distance\[0\]"),
        (lambda s, o, d: s.containing(o.astype(complex)), "real"),
        (lambda s, o, d: s.nearest(o, max_distance="far"), "not a number"),
    ],
)
def test_bad_queries_raise_value_error(call, message):
    scene = scene_of()
    o, d = rays_of()
    with pytest.raises(ValueError, match=message):
        call(scene, o, d)


def test_a_single_row_of_shape_d_is_one_row():
    scene = scene_of()
    o, d = rays_of()
    one, rows = scene.cast_rays(o[3], d[3]), scene.cast_rays(o[3:4], d[3:4])
    assert one.distance.shape == (1,)
    assert one.distance.tobytes() == rows.distance.tobytes() and one.body.tolist() == rows.body.tolist()
    near, nears = scene.nearest(o[5]), scene.nearest(o[5:6])
    assert near.body.tolist() == nears.body.tolist() and near.point.tobytes() == nears.point.tobytes()
    assert scene.containing(o[5]).offsets.tolist() == scene.containing(o[5:6]).offsets.tolist()
