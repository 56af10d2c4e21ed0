"""Instanced scenes from Python against the loop over every (instance, body) pair through the
Python API: each body a one-body scene asked from the origin moved by the instance's offset
(exact here: origins, points and offsets on a dyadic grid), bit for bit, ties to the lowest
(instance, body); with masks over the instances, both widths and dimensions, scenes of one kind
and of several; pickling (each scene once), and bad input."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import raysweep as rs
from conftest import Bodies, adversarial
from test_scene import assert_same


def balls(rng, dtype, dim, n=12):
    b = Bodies(dtype, dim)
    for _ in range(n):
        b.spheres.append((np.round(rng.uniform(-2, 2, dim) * 8) / 8, float(rng.uniform(0.2, 1.0))))
    b.spheres.append((b.spheres[0][0], b.spheres[0][1]))  # a duplicate: ties to the lower body
    return b


def world(kind, seed, mixed):
    """Two scenes, placed 14 times at offsets on a grid of 1/4 (one instance twice: ties across
    instances), with the bodies of each as lists of one-body scenes."""
    dtype, dim = kind
    rng = np.random.default_rng(seed)
    parts = [adversarial(rng, dtype, dim) if mixed else balls(rng, dtype, dim), balls(rng, dtype, dim)]
    scenes = [p.scene() for p in parts]
    singles = [p.singles() for p in parts]
    scene_of = rng.integers(0, 2, 14)
    offsets = np.round(rng.uniform(-6, 6, (14, dim)) * 4) / 4
    scene_of[-1], offsets[-1] = scene_of[3], offsets[3]
    core = rs.InstancedScene(scenes, scene_of, offsets.astype(dtype))
    return core, singles, scene_of, offsets.astype(dtype), rng


def rays(rng, dtype, dim, n):
    origins = np.round(rng.uniform(-9, 9, (n, dim)) * 8) / 8
    directions = rng.standard_normal((n, dim))
    directions[: n // 4, 0] = 0.0  # in the lattice's planes
    return origins.astype(dtype), directions.astype(dtype)


def loop_first(core_args, singles, scene_of, offsets, origins, directions, cast, mask=None):
    """The loop's first hits: (distance, instance, body, point, normal), lowest pair on ties."""
    n, dim = origins.shape
    dtype = origins.dtype
    distance = np.full(n, np.inf, dtype)
    instance = np.full(n, -1)
    body = np.full(n, -1)
    point = np.full((n, dim), np.nan, dtype)
    normal = np.full((n, dim), np.nan, dtype)
    for i, (k, v) in enumerate(zip(scene_of, offsets)):
        if mask is not None and not mask[i]:
            continue
        for b, single in enumerate(singles[k]):
            h = cast(single, origins - v, directions)
            better = (h.body >= 0) & (h.distance < distance)
            distance[better] = h.distance[better]
            instance[better], body[better] = i, b
            point[better] = h.point[better] + v
            normal[better] = h.normal[better]
    return distance, instance, body, point, normal


def loop_spans(singles, scene_of, offsets, origins, directions, mask=None):
    """The loop's spans, row by row: (instance, body, enter, exit) sorted by enter, then pair."""
    rows = [[] for _ in range(len(origins))]
    for i, (k, v) in enumerate(zip(scene_of, offsets)):
        if mask is not None and not mask[i]:
            continue
        for b, single in enumerate(singles[k]):
            s = single.ray_spans(origins - v, directions)
            for r in range(len(origins)):
                for e, x in zip(*s.row(r)[1:]):
                    rows[r].append((e, i, b, x))
    return [sorted(r) for r in rows]


@pytest.mark.parametrize("mixed", [False, True], ids=["balls", "mixed"])
def test_every_query_is_the_loop_over_instance_body_pairs(kind, mixed):
    dtype, dim = kind
    core, singles, scene_of, offsets, rng = world(kind, 3 + dim + int(mixed), mixed)
    o, d = rays(rng, dtype, dim, 60)
    mask = rng.random(len(core)) < 0.6
    for m in (None, mask):
        got = core.cast_rays(o, d, mask=m)
        want = loop_first(None, singles, scene_of, offsets, o, d, lambda s, x, y: s.cast_rays(x, y), m)
        for g, w in zip(got, want):
            assert_same(g, np.asarray(w))
        got = core.cast_spheres(o, d, 0.25, max_distance=12.0, mask=m)
        want = loop_first(
            None, singles, scene_of, offsets, o, d, lambda s, x, y: s.cast_spheres(x, y, 0.25, max_distance=12.0), m
        )
        for g, w in zip(got, want):
            assert_same(g, np.asarray(w))
        near = loop_first(None, singles, scene_of, offsets, o, d, lambda s, x, y: s.cast_rays(x, y, max_distance=3.0), m)
        assert core.hits_any(o, d, max_distance=3.0, mask=m).tolist() == (near[1] >= 0).tolist()
        spans = core.ray_spans(o, d, mask=m)
        for r, want_row in enumerate(loop_spans(singles, scene_of, offsets, o, d, m)):
            instance, body, enter, exit = spans.row(r)
            got_row = list(zip(enter.tolist(), instance.tolist(), body.tolist(), exit.tolist()))
            assert got_row == [(float(e), i, b, float(x)) for e, i, b, x in want_row]
        points = (np.round(rng.uniform(-9, 9, (80, dim)) * 4) / 4).astype(dtype)
        found = core.containing(points, mask=m)
        for r, p in enumerate(points):
            want_pairs = [
                (i, b)
                for i, (k, v) in enumerate(zip(scene_of, offsets))
                if m is None or m[i]
                for b, single in enumerate(singles[k])
                if len(single.containing([p - v]).body)
            ]
            assert list(zip(*(a.tolist() for a in found.row(r)))) == want_pairs


@pytest.mark.parametrize("mixed", [False, True], ids=["balls", "mixed"])
def test_nearest_within_and_sphere_spans_are_the_loop_over_pairs(kind, mixed):
    """The queries the crate's query surface gave instanced scenes: each body a one-body scene
    asked at the point (or from the origin) moved by its instance's offset."""
    dtype, dim = kind
    core, singles, scene_of, offsets, rng = world(kind, 11 + dim + int(mixed), mixed)
    points = (np.round(rng.uniform(-9, 9, (60, dim)) * 4) / 4).astype(dtype)
    o, d = rays(rng, dtype, dim, 40)
    mask = rng.random(len(core)) < 0.6
    for m in (None, mask):
        for max_distance in (np.inf, 0.75):
            got = core.nearest(points, max_distance, mask=m)
            n = len(points)
            best = np.full(n, np.inf, dtype)
            instance, body = np.full(n, -1), np.full(n, -1)
            point = np.full((n, dim), np.nan, dtype)
            for i, (k, v) in enumerate(zip(scene_of, offsets)):
                if m is not None and not m[i]:
                    continue
                for b, single in enumerate(singles[k]):
                    near = single.nearest(points - v, max_distance)
                    better = (near.body >= 0) & (near.signed_distance < best)
                    best[better] = near.signed_distance[better]
                    instance[better], body[better] = i, b
                    point[better] = near.point[better] + v
            assert np.sum(instance >= 0) > 0
            assert_same(got.signed_distance, best)
            assert got.instance.tolist() == instance.tolist() and got.body.tolist() == body.tolist()
            assert_same(got.point, point)
        found = core.within(points, 0.5, mask=m)
        for r, p in enumerate(points):
            want = [
                (i, b)
                for i, (k, v) in enumerate(zip(scene_of, offsets))
                if m is None or m[i]
                for b, single in enumerate(singles[k])
                if len(single.within([p - v], 0.5).body)
            ]
            assert list(zip(*(a.tolist() for a in found.row(r)))) == want
        spans = core.sphere_spans(o, d, 0.25, mask=m)
        rows = [[] for _ in range(len(o))]
        for i, (k, v) in enumerate(zip(scene_of, offsets)):
            if m is not None and not m[i]:
                continue
            for b, single in enumerate(singles[k]):
                s = single.sphere_spans(o - v, d, 0.25)
                for r in range(len(o)):
                    for e, x in zip(*s.row(r)[1:]):
                        rows[r].append((float(e), i, b, float(x)))
        assert sum(len(r) for r in rows) > len(o) // 2
        for r, want_row in enumerate(rows):
            instance, body, enter, exit = spans.row(r)
            got_row = list(zip(enter.tolist(), instance.tolist(), body.tolist(), exit.tolist()))
            assert got_row == sorted(want_row)


def test_segments_threads_and_pickling_keep_the_bits(kind):
    dtype, dim = kind
    core, singles, scene_of, offsets, rng = world(kind, 21, True)
    o, d = rays(rng, dtype, dim, 300)
    one = list(core.cast_rays(o, d, threads=1)) + list(core.ray_spans(o, d, threads=1, max_distance=4.0))
    for threads in (None, -1, 2, 3):
        again = list(core.cast_rays(o, d, threads=threads)) + list(core.ray_spans(o, d, threads=threads, max_distance=4.0))
        for a, b in zip(again, one):
            assert_same(a, b)
    copy = pickle.loads(pickle.dumps(core))
    assert (len(copy), copy.dim, copy.dtype) == (len(core), core.dim, core.dtype)
    for a, b in zip(copy.cast_rays(o, d), core.cast_rays(o, d)):
        assert_same(a, b)
    # The segment's spans are the whole line's, clipped.
    whole, segment = core.ray_spans(o, d), core.ray_spans(o, d, max_distance=4.0)
    for r in range(len(o)):
        i, b, e, x = whole.row(r)
        keep = (x >= 0) & (e <= 4.0)
        e = np.where(e[keep] < 0, 0, e[keep]).astype(dtype)
        x = np.where(x[keep] > 4.0, 4.0, x[keep]).astype(dtype)
        order = np.lexsort((b[keep], i[keep], e))
        want = (i[keep][order], b[keep][order], e[order], x[order])
        for g, w in zip(segment.row(r), want):
            assert_same(g, w)


def test_each_scene_travels_once_and_pushes_leave_the_instances():
    rng = np.random.default_rng(5)
    pebble = rs.Scene(spheres=(rng.uniform(-1, 1, (2000, 3)), np.full(2000, 0.01)))
    one = len(pickle.dumps(pebble))
    offsets = rng.uniform(-50, 50, (500, 3))
    core = rs.InstancedScene([pebble, pebble], np.zeros(500, np.int64), offsets)
    # Two entries of the list, one scene: pickle sends it once, then the instances.
    size = len(pickle.dumps(core))
    assert size < one + offsets.nbytes + 500 * 8 + 4096, (size, one)
    o = rng.uniform(-60, 60, (200, 3))
    d = rng.standard_normal((200, 3))
    before = core.cast_rays(o, d)
    pebble.push(spheres=(rng.uniform(-1, 1, (3000, 3)), np.full(3000, 0.5)))
    for a, b in zip(core.cast_rays(o, d), before):
        assert_same(a, b)
    assert len(core.scenes[0]) == 2000 and len(pebble) == 5000


def test_bad_input_names_the_row():
    ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
    wide = rs.Scene(spheres=([[0.0, 0.0, 0.0]], [1.0]))
    narrow = rs.Scene(spheres=(np.zeros((1, 2), np.float32), np.ones(1, np.float32)))
    cases = [
        (lambda: rs.InstancedScene([], [], np.zeros((0, 2))), "at least one scene"),
        (lambda: rs.InstancedScene([ball, wide], [0, 1], [[0.0, 0.0]] * 2), r"scenes\[1\]"),
        (lambda: rs.InstancedScene([ball, narrow], [0, 1], [[0.0, 0.0]] * 2), r"scenes\[1\]"),
        (lambda: rs.InstancedScene([ball, "x"], [0, 1], [[0.0, 0.0]] * 2), r"scenes\[1\]"),
        (lambda: rs.InstancedScene([ball], [0, 1], [[0.0, 0.0]] * 2), r"scene_of\[1\] is 1"),
        (lambda: rs.InstancedScene([ball], [0, -1], [[0.0, 0.0]] * 2), r"scene_of\[1\] is -1"),
        (lambda: rs.InstancedScene([ball], [0, 0], [[0.0, 0.0], [np.nan, 0.0]]), r"offsets\[1, 0\] is not finite"),
        (lambda: rs.InstancedScene([ball], [0], [[0.0, 0.0]] * 2), "rows"),
        (lambda: rs.InstancedScene([ball], [0.5], [[0.0, 0.0]]), "integers"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()
    core = rs.InstancedScene([ball], [0, 0], [[0.0, 0.0], [3.0, 0.0]])
    with pytest.raises(ValueError, match="one entry per instance"):
        core.cast_rays([[0.0, 0.0]], [[1.0, 0.0]], mask=[True])
    with pytest.raises(ValueError, match=r"ray 0"):
        core.cast_rays([[0.0, 0.0]], [[0.0, 0.0]])
    with pytest.raises(ValueError, match=r"points\[0, 1\] is not finite"):
        core.containing([[0.0, np.inf]])
    with pytest.raises(TypeError):
        rs.InstancedScene([narrow], [0], np.zeros((1, 2)))
