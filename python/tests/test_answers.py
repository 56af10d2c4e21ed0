"""What the answers offer beyond their arrays: the spans of a segment, bit for bit those of the
whole line clipped by hand (as ``Grid.walk`` covers its segment); ``row(i)`` and ``sum()`` of the
CSR answers on empty and non-empty rows, against plain loops."""

from __future__ import annotations

import numpy as np
import pytest

import raysweep as rs
from conftest import adversarial, hard_rays
from test_scene import assert_same


def clipped_by_hand(spans, ends, dtype):
    """The whole line's spans clipped to ``[0, end]`` row by row with numpy: those meeting it,
    ``enter`` below 0 raised to 0, ``exit`` beyond ``end`` lowered to it, by ``enter``, then body."""
    offsets, bodies, enters, exits = [0], [], [], []
    for r, end in enumerate(ends):
        body, enter, exit = spans.row(r)
        keep = (exit >= 0) & (enter <= end) if end >= 0 else np.zeros(len(body), bool)
        e = np.where(enter[keep] < 0, dtype(0), enter[keep]).astype(dtype)
        x = np.where(exit[keep] > end, dtype(end), exit[keep]).astype(dtype)
        order = np.lexsort((body[keep], e))
        bodies.append(body[keep][order])
        enters.append(e[order])
        exits.append(x[order])
        offsets.append(offsets[-1] + int(keep.sum()))
    return (np.array(offsets), np.concatenate(bodies), np.concatenate(enters), np.concatenate(exits))


def test_segment_spans_are_the_whole_lines_clipped(kind):
    dtype, dim = kind
    rng = np.random.default_rng(31 + dim)
    bodies = adversarial(rng, dtype, dim)
    scene = bodies.scene()
    o, d = hard_rays(rng, dim, 400)
    o, d = o.astype(dtype), d.astype(dtype)
    ends = rng.choice([0.0, 0.5, 2.0, 7.0, np.inf, -1.0], len(o)).astype(dtype)
    whole = scene.ray_spans(o, d)
    for end in (ends, dtype(3.0)):
        got = scene.ray_spans(o, d, max_distance=end)
        want = clipped_by_hand(whole, np.broadcast_to(end, len(o)), dtype)
        for g, w in zip(got, want):
            assert_same(g, w.astype(g.dtype))
    balls = scene.sphere_spans(o, d, 0.25, max_distance=ends)
    want = clipped_by_hand(scene.sphere_spans(o, d, 0.25), ends, dtype)
    for g, w in zip(balls, want):
        assert_same(g, w.astype(g.dtype))
    # The segment's chords, beside the grid's walk of the same segment: a ray from inside a
    # ball covers only what lies ahead of it.
    ball = rs.Scene(spheres=([[0.0, 0.0]], [1.0]))
    half = ball.ray_spans([[0.0, 0.0]], [[1.0, 0.0]], max_distance=5.0)
    assert (half.enter.tolist(), half.exit.tolist(), half.sum().tolist()) == ([0.0], [1.0], [1.0])
    assert ball.ray_spans([[0.0, 0.0]], [[1.0, 0.0]]).sum().tolist() == [2.0]
    with pytest.raises(ValueError, match="max_distance"):
        ball.ray_spans([[0.0, 0.0]], [[1.0, 0.0]], max_distance=np.nan)


def loop_sums(offsets, values):
    """Row sums by a plain loop, entry after entry, in float64."""
    sums = []
    for r in range(len(offsets) - 1):
        total = 0.0
        for v in values[offsets[r] : offsets[r + 1]]:
            total += float(v)
        sums.append(total)
    return np.array(sums)


def test_rows_and_sums_on_empty_and_full_rows(kind):
    dtype, dim = kind
    rng = np.random.default_rng(41 + dim)
    scene = adversarial(rng, dtype, dim).scene()
    o, d = hard_rays(rng, dim, 200)
    o, d = o.astype(dtype), d.astype(dtype)
    o[:20] += dtype(1000)  # rows with no spans
    spans = scene.ray_spans(o, d)
    lengths = spans.exit.astype(np.float64) - spans.enter
    assert_same(spans.sum(), loop_sums(spans.offsets, lengths).astype(dtype))
    weights = rng.uniform(0, 2, len(spans.body)).astype(dtype)
    assert_same(spans.sum(weights), loop_sums(spans.offsets, weights).astype(dtype))
    assert_same(spans.sum(np.ones(len(spans.body), np.int64)), np.diff(spans.offsets).astype(dtype))
    assert (spans.sum()[:20] == 0).all() and len(spans.row(0)[0]) == 0
    for r in (0, 25, len(o) - 1, -1):
        a, b = spans.offsets[r % len(o)], spans.offsets[r % len(o) + 1]
        for got, column in zip(spans.row(r), (spans.body, spans.enter, spans.exit)):
            assert_same(got, column[a:b])
    found = scene.containing(o)
    assert [found.row(r).tolist() for r in range(len(o))] == [
        found.body[found.offsets[r] : found.offsets[r + 1]].tolist() for r in range(len(o))
    ]
    assert_same(found.sum(np.ones(len(found.body))), np.diff(found.offsets).astype(np.float64))
    grid = rs.Grid(np.full(dim, -3.0, dtype), np.full(dim, 0.5, dtype), [12] * dim)
    walk = grid.walk(o, d)
    assert_same(walk.sum(), loop_sums(walk.offsets, walk.exit.astype(np.float64) - walk.enter).astype(dtype))
    cell, enter, exit = walk.row(30)
    a, b = walk.offsets[30], walk.offsets[31]
    assert_same(cell, walk.cell[a:b])
    assert_same(enter, walk.enter[a:b])
    with pytest.raises(IndexError):
        spans.row(len(o))
    with pytest.raises(TypeError):
        spans.row(1.5)
    with pytest.raises(ValueError, match="one per entry"):
        spans.sum(np.ones(3))
    with pytest.raises(ValueError, match=r"values\[1\] is not finite: NaN"):
        spans.sum(np.r_[1.0, np.nan, np.ones(len(spans.body) - 2)])
