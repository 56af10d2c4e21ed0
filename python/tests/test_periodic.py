"""Periodic scenes from Python against the medium built by hand: one plain scene holding every
body copied into every image within reach (exact here: coordinates on a grid of 1/8, periods
dyadic), its bodies numbered by (body, image) in increasing order, so that its lowest id on ties
is the lowest (body, image). Distances, spans, ids and images bit for bit, points and normals to
a few ulps (found in the copied body's coordinates there); every axis and some, both widths and
dimensions, masks, pickling, bad input."""

from __future__ import annotations

import itertools
import pickle

import numpy as np
import pytest

import raysweep as rs
from conftest import Bodies
from test_scene import assert_same

KINDS = [(np.float64, 3, (True, True, True)), (np.float32, 3, (True, False, True)), (np.float64, 2, (True, True)), (np.float32, 2, (False, True))]
#: Images within this many boxes of box 0 on each repeating axis: the points and origins lie
#: within a box of it, the bodies within one too, the reach within 2.25 boxes.
REACH = 5


def medium(dtype, dim, axes, seed):
    """Balls and boxes in, across and larger than a box of dyadic size, one body twice: the box,
    the periodic scene, the medium by hand with each of its ids' (body, image), and a generator."""
    rng = np.random.default_rng(seed)
    size = np.array([4.0, 3.5, 5.0][:dim])
    b = Bodies(dtype, dim)
    for _ in range(5):
        b.spheres.append((np.round(rng.uniform(-0.5, size + 0.5) * 8) / 8, float(rng.integers(2, 12)) / 8))
        lo = np.round(rng.uniform(-0.5, size) * 8) / 8
        b.boxes.append((lo, lo + np.round(rng.uniform(0.25, 2.0, dim) * 8) / 8))
    b.spheres.append((size / 2, 0.5 * size.max()))  # larger than the box on some axes
    b.spheres.append(b.spheres[0])  # twice: ties go to the lower body
    period = (np.zeros(dim, dtype), size.astype(dtype))
    scene = rs.Scene(**b.args(), dtype=dtype, dim=dim, period=period, periodic=axes)
    ranges = [range(-REACH, REACH + 1) if a else range(1) for a in axes]
    images = np.array(list(itertools.product(*ranges)))
    copied = Bodies(dtype, dim)
    for k in images:
        v = k * size
        copied.spheres += [(c + v, r) for c, r in b.spheres]
        copied.boxes += [(lo + v, hi + v) for lo, hi in b.boxes]
    # Copied ids: spheres then boxes, each image after image; renumbered to (body, image).
    n_s, n_b, m = len(b.spheres), len(b.boxes), len(images)
    pair = [(i % n_s, i // n_s) for i in range(n_s * m)] + [(n_s + i % n_b, i // n_b) for i in range(n_b * m)]
    order = sorted(range(len(pair)), key=lambda i: pair[i])
    copied.spheres = [copied.spheres[i] for i in order if i < n_s * m]
    copied.boxes = [copied.boxes[i - n_s * m] for i in order if i >= n_s * m]
    hand = rs.Scene(**copied.args(), dtype=dtype, dim=dim)
    body = np.repeat(np.arange(n_s + n_b), m)
    image = np.tile(images, (n_s + n_b, 1))
    return size.astype(dtype), scene, hand, body, image, rng


def points(rng, size, n, dtype):
    p = np.round(rng.uniform(-1.0, size + 1.0, (n, len(size))) * 8) / 8
    p[: n // 4, 0] = 0.0  # on a lattice plane
    return p.astype(dtype)


def rays(rng, size, n, dtype):
    o = points(rng, size, n, dtype)
    d = rng.standard_normal((n, len(size)))
    d[: n // 3, 1:] = 0.0  # along x: the lattice's planes and channels
    d[n // 3 : n // 2] = 1.0  # diagonals: through edges and corners
    return o, d.astype(dtype)


def assert_close(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    eps = np.finfo(a.dtype).eps
    assert np.allclose(a, b, rtol=16 * eps, atol=64 * eps, equal_nan=True)


def assert_hits(got, want, body, image):
    hit = want.body >= 0
    assert_same(got.distance, want.distance)
    assert np.array_equal(got.body, np.where(hit, body[want.body], -1))
    assert np.array_equal(got.image[hit], image[want.body[hit]])
    assert_close(got.point, want.point)
    assert_close(got.normal, want.normal)


@pytest.mark.parametrize("dtype,dim,axes", KINDS)
def test_casts_equal_the_medium_built_by_hand(dtype, dim, axes):
    size, scene, hand, body, image, rng = medium(dtype, dim, axes, 1)
    o, d = rays(rng, size, 64, dtype)
    far = dtype(size.min())
    for mask in (None, np.arange(len(scene)) % 2 == 1):
        copied = None if mask is None else mask[body]
        want = hand.cast_rays(o, d, far, mask=copied)
        assert np.sum(want.body >= 0) > len(o) // 2
        assert_hits(scene.cast_rays(o, d, far, mask=mask), want, body, image)
        assert np.array_equal(scene.hits_any(o, d, far, mask=mask), want.body >= 0)
        want = hand.cast_spheres(o, d, 0.25, far, mask=copied)
        assert_hits(scene.cast_spheres(o, d, 0.25, far, mask=mask), want, body, image)
        spans = scene.ray_spans(o, d, far, mask=mask)
        want = hand.ray_spans(o, d, max_distance=far, mask=copied)
        assert len(want.body) > len(o)
        assert np.array_equal(spans.offsets, want.offsets)
        assert np.array_equal(spans.body, body[want.body])
        assert np.array_equal(spans.image, image[want.body].reshape(-1, dim))
        assert_same(spans.enter, want.enter)
        assert_same(spans.exit, want.exit)


@pytest.mark.parametrize("dtype,dim,axes", KINDS)
def test_point_queries_equal_the_medium_built_by_hand(dtype, dim, axes):
    size, scene, hand, body, image, rng = medium(dtype, dim, axes, 2)
    p = points(rng, size, 64, dtype)
    near, want = scene.nearest(p), hand.nearest(p)
    assert np.all(want.body >= 0) and len({tuple(k) for k in near.image.tolist()}) > 1
    assert np.array_equal(near.body, body[want.body]) and np.array_equal(near.image, image[want.body])
    assert_same(near.signed_distance, want.signed_distance)
    assert_close(near.point, want.point)
    for found, want in [(scene.containing(p), hand.containing(p))] + [
        (scene.within(p, distance), hand.within(p, distance)) for distance in (0.0, 1.0, 2.25 * float(size.min()))
    ]:
        assert np.array_equal(found.offsets, want.offsets)
        assert np.array_equal(found.body, body[want.body])
        assert np.array_equal(found.image, image[want.body].reshape(-1, dim))


@pytest.mark.parametrize("dtype,dim,axes", KINDS)
def test_sphere_spans_equal_the_medium_built_by_hand(dtype, dim, axes):
    size, scene, hand, body, image, rng = medium(dtype, dim, axes, 3)
    o, d = rays(rng, size, 48, dtype)
    far = dtype(size.min())
    spans = scene.sphere_spans(o, d, 0.25, far)
    want = hand.sphere_spans(o, d, 0.25, max_distance=far)
    assert len(want.body) > len(o)
    assert np.array_equal(spans.offsets, want.offsets)
    assert np.array_equal(spans.body, body[want.body])
    assert np.array_equal(spans.image, image[want.body].reshape(-1, dim))
    assert_same(spans.enter, want.enter)
    assert_same(spans.exit, want.exit)


def test_an_infinite_segment_is_refused():
    scene = rs.Scene(spheres=([[2.0, 2.0]], [1.0]), period=([0.0, 0.0], [4.0, 4.0]))
    with pytest.raises(ValueError, match=r"max_distance\[1\] is infinite"):
        scene.ray_spans([[0.0, 2.0]] * 2, [[1.0, 0.0]] * 2, [5.0, np.inf])
    with pytest.raises(ValueError, match=r"max_distance\[0\] is infinite"):
        scene.sphere_spans([[0.0, 2.0]], [[1.0, 0.0]], 0.5, np.inf)


def test_pickles_and_describes_itself():
    size, scene, _, _, _, rng = medium(np.float32, 3, (True, False, True), 3)
    again = pickle.loads(pickle.dumps(scene))
    o, d = rays(rng, size, 16, np.float32)
    a, b = scene.cast_rays(o, d), again.cast_rays(o, d)
    for x, y in zip(a, b):
        assert np.array_equal(x, y, equal_nan=True)
    assert isinstance(scene, rs.PeriodicScene) and not isinstance(scene, rs.Scene)
    assert scene.periodic == (True, False, True) and scene.dim == 3 and scene.dtype == np.float32
    assert np.array_equal(scene.period[1], size) and len(scene.scene) == len(scene)
    assert "PeriodicScene" in repr(scene) and scene.hierarchy_bytes > 0


def test_bad_input_is_refused():
    balls = ([[0.0, 0.0]], [1.0])
    with pytest.raises(ValueError, match="axis 1 is not strictly positive"):
        rs.Scene(spheres=balls, period=([0.0, 0.0], [4.0, -1.0]))
    with pytest.raises(ValueError, match="size component 1 is not finite"):
        rs.Scene(spheres=balls, period=([0.0, 0.0], [4.0, np.nan]))
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        rs.Scene(spheres=balls, period=([0.0, 0.0], [4.0, 4.0, 4.0]))
    with pytest.raises(ValueError, match="periodic must be 2 booleans"):
        rs.Scene(spheres=balls, period=([0.0, 0.0], [4.0, 4.0]), periodic=(True,))
    with pytest.raises(ValueError, match="give period"):
        rs.Scene(spheres=balls, periodic=(True, True))
    with pytest.raises(TypeError, match="period size is float64"):
        rs.Scene(spheres=(np.zeros((1, 2), np.float32), 1.0), period=([0.0, 0.0], np.ones(2)))
    with pytest.raises(ValueError, match="pair"):
        rs.Scene(spheres=balls, period=[4.0, 4.0, 4.0])
    scene = rs.Scene(spheres=balls, period=([0.0, 0.0], [4.0, 4.0]))
    with pytest.raises(ValueError, match=r"origins\[1\]"):
        scene.cast_rays([[0.0, 0.0], [np.nan, 0.0]], [[1.0, 0.0], [1.0, 0.0]])
    with pytest.raises(TypeError):
        scene.ray_spans([[0.0, 0.0]], [[1.0, 0.0]])  # a segment is required
    with pytest.raises(TypeError, match="float32"):
        scene.nearest(np.zeros((1, 2), np.float32))
    # Negative and NaN limits: nothing.
    assert scene.cast_rays([[2.0, 0.0]], [[1.0, 0.0]], -1.0).body.tolist() == [-1]
    assert scene.ray_spans([[2.0, 0.0]], [[1.0, 0.0]], -1.0).offsets.tolist() == [0, 0]
