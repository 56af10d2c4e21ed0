"""A scene's bodies read back as given, and ``Scene.push``: after adding bodies (a few, more than
are inserted in place, a quarter of the scene or more, of a new kind, to an empty scene) every
answer equals that of the scene built from all the bodies at once, bit for bit, with the ids
``push`` returned; a bad body changes nothing. ``PeriodicScene.push`` the same way against the
periodic scene built at once."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import raysweep as rs
from conftest import Bodies, rotation
from test_scene import assert_same


def random_bodies(rng, dtype, dim, spheres=0, ellipsoids=0, boxes=0, rotated=True):
    b = Bodies(dtype, dim)
    for _ in range(spheres):
        b.spheres.append((rng.uniform(0, 20, dim), float(rng.uniform(0.05, 0.6))))
    for _ in range(ellipsoids):
        r = rotation(rng, dim) if rotated and rng.random() < 0.7 else None
        b.ellipsoids.append((rng.uniform(0, 20, dim), rng.uniform(0.05, 0.6, dim), r))
    for _ in range(boxes):
        lo = rng.uniform(0, 20, dim)
        b.boxes.append((lo, lo + rng.uniform(0.05, 1.0, dim)))
    return b


def answers(scene, o, d):
    out = list(scene.cast_rays(o, d)) + list(scene.ray_spans(o, d)) + list(scene.nearest(o))
    return out + list(scene.within(o, 0.5)) + list(scene.containing(o))


def test_bodies_read_back_as_given(kind):
    dtype, dim = kind
    rng = np.random.default_rng(51)
    b = random_bodies(rng, dtype, dim, 5, 4, 3)
    scene = b.scene()
    args = b.args()
    s, e, x = scene.spheres, scene.ellipsoids, scene.boxes
    assert_same(s.centers, args["spheres"][0])
    assert_same(s.radii, args["spheres"][1])
    assert_same(e.centers, args["ellipsoids"][0])
    assert_same(e.semi_axes, args["ellipsoids"][1])
    assert_same(e.rotations, args["ellipsoids"][2])
    assert_same(x.mins, args["boxes"][0])
    assert_same(x.maxs, args["boxes"][1])
    assert (s.ids.tolist(), e.ids.tolist(), x.ids.tolist()) == (list(range(5)), list(range(5, 9)), [9, 10, 11])
    # What it gives back builds the same scene.
    again = rs.Scene(spheres=s, ellipsoids=e, boxes=x)
    o, d = rng.uniform(0, 20, (200, dim)).astype(dtype), rng.standard_normal((200, dim)).astype(dtype)
    for a, c in zip(answers(again, o, d), answers(scene, o, d)):
        assert_same(a, c)
    axis_aligned = random_bodies(rng, dtype, dim, 0, 3, 0, rotated=False).scene()
    assert axis_aligned.ellipsoids.rotations is None
    assert len(axis_aligned.spheres.ids) == 0 and axis_aligned.spheres.centers.shape == (0, dim)


@pytest.mark.parametrize(
    "start, add",
    [
        ((600, 0, 0), (7, 0, 0)),  # a few, in place
        ((80_000, 0, 0), (17_000, 0, 0)),  # beyond in place, under a quarter: a copy grown apart
        ((400, 0, 0), (300, 0, 0)),  # a quarter or more: rebuilt
        ((600, 0, 0), (3, 2, 1)),  # a new kind: rebuilt as a mixed scene
        ((300, 200, 100), (5, 5, 5)),  # a mixed scene, in place
        ((0, 0, 0), (10, 0, 4)),  # an empty scene
    ],
)
def test_push_equals_the_scene_built_at_once(start, add):
    rng = np.random.default_rng(sum(start) + sum(add))
    dtype, dim = (np.float32, 3) if start[0] % 2 else (np.float64, 3)
    first = random_bodies(rng, dtype, dim, *start)
    more = random_bodies(rng, dtype, dim, *add)
    scene = first.scene() if len(first) else rs.Scene(dtype=dtype, dim=dim)
    ids = scene.push(**more.args())
    assert ids.dtype == np.int64 and ids.tolist() == list(range(len(first), len(first) + len(more)))
    # The scene built at once from the same bodies in id order: the first ones, then the pushed.
    kinds = [("spheres", "spheres"), ("ellipsoids", "ellipsoids"), ("boxes", "boxes")]
    all_bodies = [(k, body) for k, attr in kinds for body in getattr(first, attr)]
    all_bodies += [(k, body) for k, attr in kinds for body in getattr(more, attr)]
    o = rng.uniform(0, 20, (300, dim)).astype(dtype)
    d = rng.standard_normal((300, dim)).astype(dtype)
    # Each body alone, in id order, as the loop sees them; the whole scene at once.
    singles = []
    for k, body in all_bodies:
        one = Bodies(dtype, dim)
        getattr(one, k).append(body)
        singles.append(one)
    at_once = Bodies(dtype, dim)
    for k, body in all_bodies:
        getattr(at_once, k).append(body)
    if [k for k, _ in all_bodies] == sorted((k for k, _ in all_bodies), key=[x for x, _ in kinds].index):
        for a, c in zip(answers(scene, o, d), answers(at_once.scene(), o, d)):
            assert_same(a, c)
    else:
        # Ids interleave kinds: the loop over one-body scenes decides.
        hits = scene.cast_rays(o, d)
        best = np.full(len(o), np.inf, dtype)
        which = np.full(len(o), -1)
        for k, one in enumerate(singles):
            h = one.scene().cast_rays(o, d)
            better = (h.body >= 0) & (h.distance < best)
            best[better], which[better] = h.distance[better], k
        assert_same(hits.distance, best)
        assert hits.body.tolist() == which.tolist()
    assert len(scene) == len(all_bodies)


def test_a_bad_push_changes_nothing_and_lists_take_the_width():
    scene = rs.Scene(spheres=(np.zeros((3, 2), np.float32), np.ones(3, np.float32)))
    with pytest.raises(ValueError, match=r"spheres\[1\]: the radius is negative"):
        scene.push(spheres=([[0.0, 1.0], [2.0, 2.0]], [1.0, -1.0]))
    assert len(scene) == 3
    with pytest.raises(TypeError):
        scene.push(spheres=(np.zeros((1, 2)), np.ones(1)))
    ids = scene.push(spheres=([[0.1, 0.2]], [0.3]))
    assert ids.tolist() == [3] and scene.spheres.centers.dtype == np.float32
    assert scene.spheres.centers[3].tolist() == np.array([0.1, 0.2], np.float32).tolist()
    assert scene.push().tolist() == []


def periodic_answers(box, o, d):
    """Every periodic query's answer, its arrays in one list."""
    out = list(box.cast_rays(o, d)) + list(box.ray_spans(o, d, 30.0)) + list(box.union_spans(o, d, 30.0))
    out += list(box.nearest(o)) + list(box.within(o, 1.5)) + list(box.containing(o))
    return out + list(box.next_crossing(o, d, after=0.5))


@pytest.mark.parametrize(
    "start, add, dtype, dim",
    [
        ((600, 0, 0), (7, 0, 0), np.float64, 3),  # a few, in place
        ((400, 0, 0), (1, 0, 0), np.float32, 2),  # one at a time, in place
        ((200, 0, 0), (150, 0, 0), np.float32, 3),  # a quarter or more: rebuilt
        ((300, 0, 0), (2, 1, 1), np.float64, 2),  # a new kind: rebuilt as a mixed scene
        ((100, 80, 60), (4, 3, 2), np.float32, 3),  # a mixed scene, in place
        ((0, 0, 0), (5, 0, 3), np.float64, 3),  # an empty scene
    ],
)
def test_periodic_push_equals_the_periodic_scene_built_at_once(start, add, dtype, dim):
    rng = np.random.default_rng(7 * sum(start) + sum(add))
    period = ([0.0] * dim, [20.0] * dim)
    first = random_bodies(rng, dtype, dim, *start)
    box = rs.Scene(**first.args(), dtype=dtype, dim=dim, period=period)
    ids = []
    for _ in range(3):  # three pushes, each caught up with the last
        more = random_bodies(rng, dtype, dim, *add)
        got = box.push(**more.args())
        assert got.dtype == np.int64 and got.tolist() == list(range(len(box) - len(more), len(box)))
        ids += got.tolist()
    assert ids == list(range(len(first), len(first) + 3 * len(more)))
    # Built at once from the same bodies in id order (the plain scene's push is checked above).
    at_once = rs.PeriodicScene(box.scene, period)
    assert len(at_once) == len(box)
    o = rng.uniform(-5, 25, (200, dim)).astype(dtype)
    d = rng.standard_normal((200, dim)).astype(dtype)
    for a, c in zip(periodic_answers(box, o, d), periodic_answers(at_once, o, d)):
        assert_same(a, c)
    # It pickles as it is now; the scene it shows is a copy.
    again = pickle.loads(pickle.dumps(box))
    for a, c in zip(periodic_answers(again, o, d), periodic_answers(box, o, d)):
        assert_same(a, c)
    shown = box.scene
    shown.push(spheres=([np.full(dim, 10.0)], [3.0]))
    assert len(box) == len(at_once) and len(shown) == len(box) + 1


def test_a_bad_periodic_push_changes_nothing():
    box = rs.Scene(spheres=([[1.0, 1.0]], [0.5]), period=([0.0, 0.0], [4.0, 4.0]))
    with pytest.raises(ValueError, match=r"spheres\[1\]: the radius is negative"):
        box.push(spheres=([[2.0, 2.0], [3.0, 3.0]], [0.5, -1.0]))
    assert len(box) == 1 and len(box.scene) == 1
    with pytest.raises(TypeError):
        box.push(spheres=(np.zeros((1, 2), np.float32), np.ones(1, np.float32)))
    assert box.push(spheres=([[3.0, 3.0]], [0.5])).tolist() == [1]
    assert box.containing([[3.0 - 4.0, 3.0]]).image.tolist() == [[-1, 0]]
