"""The union of overlapping bodies and the occupancy of a grid, from Python, on every kind of scene:
``union_spans`` against ``ray_spans``'s spans merged by hand (the whole line and segments, masks),
``union_sphere_spans`` against ``sphere_spans``'s,
``Grid.occupancy`` against ``containing`` at every cell's centre (formed as documented), in both
widths and dimensions, with bodies touching at a point, nested and duplicated; bad input."""

from __future__ import annotations

import numpy as np
import pytest

import raysweep as rs

KINDS = [(np.float64, 3), (np.float32, 3), (np.float64, 2), (np.float32, 2)]


def grains(dtype, dim, seed=3):
    """Overlapping balls on a grid of 1/8 (some touching at a point, one nested, one twice) and
    two boxes sharing a face."""
    rng = np.random.default_rng(seed)
    centers = np.round(rng.uniform(0, 8, (40, dim)) * 8) / 8
    radii = rng.integers(4, 14, 40) / 8
    centers[1], radii[1] = centers[0] + np.eye(dim)[0] * 2 * radii[0], radii[0]  # touching 0
    centers[2], radii[2] = centers[0], radii[0] / 2  # nested in 0
    centers[3], radii[3] = centers[4], radii[4]  # twice
    lo = np.array([[1.0] * dim, [2.0] + [1.0] * (dim - 1)])
    hi = lo + 1.0
    return rs.Scene(spheres=(centers.astype(dtype), radii.astype(dtype)), boxes=(lo.astype(dtype), hi.astype(dtype)))


def merged(offsets, enter, exit):
    """Each row's spans (sorted by enter) merged by hand: a span entering at or before the open
    interval's exit extends it."""
    out_offsets, out_enter, out_exit = [0], [], []
    for i in range(len(offsets) - 1):
        for e, x in zip(enter[offsets[i] : offsets[i + 1]], exit[offsets[i] : offsets[i + 1]]):
            if len(out_enter) > out_offsets[-1] and e <= out_exit[-1]:
                out_exit[-1] = max(out_exit[-1], x)
            else:
                out_enter.append(e)
                out_exit.append(x)
        out_offsets.append(len(out_enter))
    return out_offsets, out_enter, out_exit


def rays(dtype, dim, n=300, seed=5):
    rng = np.random.default_rng(seed)
    o = np.round(rng.uniform(-1, 9, (n, dim)) * 8) / 8
    d = rng.standard_normal((n, dim))
    d[: n // 3] = np.round(d[: n // 3])  # along the lattice: through the touching points and faces
    d[np.all(d == 0, axis=1), 0] = 1.0
    return o.astype(dtype), d.astype(dtype)


def kinds(dtype, dim):
    """A plain scene, an instanced scene of it twice (overlapping copies) and a periodic box of
    it, each with a segment the periodic one needs."""
    scene = grains(dtype, dim)
    offsets = np.array([[0.0] * dim, [0.5] + [0.0] * (dim - 1)], dtype)
    yield "scene", scene, None
    yield "instanced", rs.InstancedScene([scene], [0, 0], offsets), None
    yield "periodic", rs.PeriodicScene(scene, (np.zeros(dim, dtype), np.full(dim, 8.0, dtype))), 12.0


def assert_union_is_merged(union, spans):
    want = merged(spans.offsets, spans.enter, spans.exit)
    assert union.offsets.tolist() == want[0]
    assert union.enter.dtype == spans.enter.dtype
    assert union.enter.tobytes() == np.array(want[1], spans.enter.dtype).tobytes()
    assert union.exit.tobytes() == np.array(want[2], spans.enter.dtype).tobytes()


@pytest.mark.parametrize("dtype,dim", KINDS)
def test_union_spans_are_the_spans_merged(dtype, dim):
    o, d = rays(dtype, dim)
    for name, scene, segment in kinds(dtype, dim):
        mask = np.arange(len(scene)) % 3 != 1
        for max_distance in ([segment] if segment else [None, 6.5, np.linspace(0, 10, len(o)).astype(dtype)]):
            spans = scene.ray_spans(o, d, max_distance, mask=None)
            union = scene.union_spans(o, d, max_distance)
            assert isinstance(union, rs.UnionSpans), name
            assert_union_is_merged(union, spans)
            assert len(union.enter) < len(spans.enter), name  # the grains overlap
            np.testing.assert_array_equal(union.sum() <= spans.sum(), True)
            assert_union_is_merged(scene.union_spans(o, d, max_distance, mask, threads=1), scene.ray_spans(o, d, max_distance, mask))


@pytest.mark.parametrize("dtype,dim", KINDS)
def test_union_sphere_spans_are_the_sphere_spans_merged(dtype, dim):
    o, d = rays(dtype, dim, n=200)
    radius = (np.arange(len(o)) % 5 / 8).astype(dtype)  # 0 too: the ray's own spans
    for name, scene, segment in kinds(dtype, dim):
        for max_distance in ([segment] if segment else [None, 6.5]):
            spans = scene.sphere_spans(o, d, radius, max_distance)
            union = scene.union_sphere_spans(o, d, radius, max_distance)
            assert isinstance(union, rs.UnionSpans), name
            assert_union_is_merged(union, spans)
            assert len(union.enter) < len(spans.enter), name
            mask = np.arange(len(scene)) % 2 == 0
            assert_union_is_merged(
                scene.union_sphere_spans(o, d, 0.25, max_distance, mask, threads=1), scene.sphere_spans(o, d, 0.25, max_distance, mask)
            )


def test_union_spans_keep_touching_bodies_as_one_interval():
    # Two circles touching at (2, 0), a third nested in the first, a fourth twice.
    scene = rs.Scene(spheres=([[1.0, 0.0], [3.0, 0.0], [1.0, 0.0], [6.0, 0.0], [6.0, 0.0]], [1.0, 1.0, 0.5, 0.5, 0.5]))
    union = scene.union_spans([[-1.0, 0.0], [2.0, -5.0]], [[1.0, 0.0], [0.0, 1.0]])
    assert union.offsets.tolist() == [0, 2, 3]
    assert union.enter.tolist() == [1.0, 6.5, 5.0] and union.exit.tolist() == [5.0, 7.5, 5.0]
    assert union.row(1)[0].tolist() == [5.0]
    assert union.sum().tolist() == [5.0, 0.0]  # touching at a point: an interval of no length


def centres(grid):
    """Every cell's centre, ``min + (index + 1/2) * cell_size`` in float64 rounded to the width,
    in C order."""
    axes = [grid.min[a].astype(np.float64) + (np.arange(n) + 0.5) * grid.cell_size[a].astype(np.float64) for a, n in enumerate(grid.cells)]
    mesh = np.meshgrid(*axes, indexing="ij")
    return np.stack([m.ravel() for m in mesh], axis=1).astype(grid.dtype)


@pytest.mark.parametrize("dtype,dim", KINDS)
def test_occupancy_is_containing_at_every_centre(dtype, dim):
    for name, scene, _ in kinds(dtype, dim):
        # Centres on the 1/8 lattice (on surfaces and faces), then an awkward cell size.
        for lo, size, n in [(-1.0 - 1 / 16, 1 / 8 if dim == 2 else 1 / 4, 96 if dim == 2 else 40), (-1.3, 0.37, 30)]:
            grid = rs.Grid(np.full(dim, lo, dtype), np.full(dim, size, dtype), [n] * dim)
            image = grid.occupancy(scene)
            assert image.dtype == np.bool_ and image.shape == (n,) * dim
            found = scene.containing(centres(grid))
            want = np.diff(found.offsets) > 0
            assert np.array_equal(image.ravel(), want), (name, lo, np.flatnonzero(image.ravel() != want)[:5])
            assert want.any() and not want.all()
            assert np.array_equal(grid.occupancy(scene, threads=1), image)


def test_occupancy_refuses_what_it_cannot_answer():
    scene = grains(np.float64, 3)
    with pytest.raises(TypeError, match="the grid is float32 in 3 dimensions, the scene float64 in 3"):
        rs.Grid(np.zeros(3, np.float32), np.ones(3, np.float32), [4, 4, 4]).occupancy(scene)
    with pytest.raises(ValueError, match="the grid is float64 in 2 dimensions, the scene float64 in 3"):
        rs.Grid([0.0, 0.0], [1.0, 1.0], [4, 4]).occupancy(scene)
    with pytest.raises(ValueError, match="scene must be a raysweep Scene"):
        rs.Grid([0.0, 0.0], [1.0, 1.0], [4, 4]).occupancy(np.zeros((4, 4)))
    with pytest.raises(ValueError, match="threads must be"):
        rs.Grid([0.0] * 3, [1.0] * 3, [4, 4, 4]).occupancy(scene, threads=0)


def test_periodic_union_spans_need_a_finite_segment():
    lattice = rs.PeriodicScene(grains(np.float64, 2), ([0.0, 0.0], [8.0, 8.0]))
    with pytest.raises(ValueError, match=r"max_distance\[1\] is infinite"):
        lattice.union_spans([[0.0, 0.0]] * 2, [[1.0, 0.0]] * 2, [3.0, np.inf])
    with pytest.raises(ValueError, match=r"max_distance\[0\] is infinite"):
        lattice.ray_spans([[0.0, 0.0]], [[1.0, 0.0]], np.inf)
