"""The next crossing from Python, on every kind of scene, against the loop over the spans the
same scene lists (a periodic scene's from origins outside its bodies) (each the loop's span of its body, tested elsewhere against the loop over the
bodies): walked one crossing after another from the first, bit for bit in distance, ids and
which way; the normal a unit vector facing the way crossed; masks, per-row limits, bad input."""

from __future__ import annotations

import numpy as np
import pytest

import raysweep as rs

KINDS = [(np.float64, 3), (np.float32, 3), (np.float64, 2), (np.float32, 2)]


def balls(dtype, dim, rng, n=30, extent=6.0):
    """Overlapping balls (one twice) on a grid of 1/8."""
    centres = np.round(rng.uniform(0.0, extent, (n, dim)) * 8) / 8
    radii = np.round(rng.uniform(0.25, 1.25, n) * 8) / 8
    centres[-1], radii[-1] = centres[0], radii[0]
    return centres.astype(dtype), radii.astype(dtype)


def rays(dtype, dim, rng, n=40, extent=6.0):
    o = np.round(rng.uniform(-1.0, extent + 1.0, (n, dim)) * 8) / 8
    d = rng.normal(size=(n, dim))
    return o.astype(dtype), d.astype(dtype)


def ids_of(answer, kind):
    """Each row's ids as a tuple."""
    if kind == "instanced":
        return [(int(i), int(b)) for i, b in zip(answer.instance, answer.body)]
    if kind == "periodic":
        return [(int(b), tuple(int(v) for v in k)) for b, k in zip(answer.body, answer.image)]
    return [int(b) for b in answer.body]


def loop_next(spans, kind, row, after, max_distance):
    """The loop's next crossing of row ``row`` over its spans: (distance, ids, entering)."""
    lo, hi = spans.offsets[row], spans.offsets[row + 1]
    ids = ids_of(spans, kind)
    best = None
    for j in range(lo, hi):
        e, x = spans.enter[j], spans.exit[j]
        if not e < x:
            continue
        for end, entering in ((e, True), (x, False)):
            if end > after and end >= 0 and end <= max_distance:
                key = (float(end), ids[j], entering)
                if best is None or key[:2] < best[:2]:
                    best = key
                break
    return best


def scenes(dtype, dim, rng):
    """A plain scene, an instanced one of it and a periodic one, with their kinds and how many
    items a mask is over."""
    centres, radii = balls(dtype, dim, rng)
    plain = rs.Scene(spheres=(centres, radii))
    offsets = np.array([np.zeros(dim), np.full(dim, 3.0), np.eye(dim)[0] * 5.5], dtype=dtype)
    instanced = rs.InstancedScene([plain], [0, 0, 0], offsets)
    size = np.full(dim, 8.0, dtype)
    periodic = rs.Scene(spheres=(centres, radii), period=(np.zeros(dim, dtype), size))
    return [(plain, "plain", len(plain)), (instanced, "instanced", 3), (periodic, "periodic", len(plain))]


@pytest.mark.parametrize("dtype,dim", KINDS)
def test_crossings_one_after_another_are_the_loop_over_the_spans(dtype, dim):
    rng = np.random.default_rng(7 + dim)
    o, d = rays(dtype, dim, rng)
    max_distance = 20.0
    for scene, kind, items in scenes(dtype, dim, rng):
        if kind == "periodic":
            # A periodic scene lists the spans of a segment, clamped to it: from origins outside
            # every body (so no entry is raised to 0) and out to twice the limit (so no exit is
            # lowered to it), those are the spans' own ends.
            outside = scene.nearest(o).signed_distance > 0
            o, d = o[outside], d[outside]
        for mask in (None, np.arange(items) % 2 == 1):
            if kind == "periodic":
                spans = scene.ray_spans(o, d, 2 * max_distance, mask=mask)
            else:
                spans = scene.ray_spans(o, d, mask=mask)
            after = np.full(len(o), -np.inf, dtype)
            walked = 0
            for _ in range(60):
                got = scene.next_crossing(o, d, after=after, max_distance=max_distance, mask=mask)
                ids = ids_of(got, kind)
                for row in range(len(o)):
                    want = loop_next(spans, kind, row, after[row], max_distance)
                    if want is None:
                        assert got.distance[row] == np.inf and not got.entering[row], (kind, row)
                        continue
                    walked += 1
                    assert (float(got.distance[row]), ids[row], bool(got.entering[row])) == want, (kind, row)
                    n = got.normal[row].astype(np.float64)
                    assert abs(np.linalg.norm(n) - 1.0) < 1e-6
                    facing = n @ (d[row] / np.linalg.norm(d[row].astype(np.float64)))
                    assert facing <= 1e-6 if got.entering[row] else facing >= -1e-6, (kind, row)
                    step = got.point[row].astype(np.float64) - o[row] - d[row] / np.linalg.norm(d[row]) * got.distance[row]
                    assert np.abs(step).max() <= 1e-5 * (1.0 + np.abs(got.point[row]).max())
                assert got.distance.dtype == dtype and got.entering.dtype == np.bool_
                if np.all(np.isinf(got.distance)):
                    break
                after = np.where(np.isinf(got.distance), np.inf, got.distance).astype(dtype)
            assert walked >= 10, (kind, walked)


def test_bad_after_and_limits_name_the_row():
    scene = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
    o, d = np.zeros((2, 2)), np.array([[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="after.*1"):
        scene.next_crossing(o, d, after=[0.0, np.nan])
    with pytest.raises(ValueError, match="after"):
        scene.next_crossing(o, d, after=[0.0, 1.0, 2.0])
    got = scene.next_crossing(o, d, after=-1.0, max_distance=[0.5, 2.0])
    assert got.distance.tolist() == [np.inf, 1.0]
    assert got.body.tolist() == [-1, 0]
    assert got.entering.tolist() == [False, False]
