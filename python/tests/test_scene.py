"""Every scene query equals the loop over one-body scenes, bit for bit (the lowest id on ties),
on adversarial scenes: shared faces with rays in their planes, rays grazing balls and running
along box faces, duplicates, nested, flat and point bodies, rotated ellipsoids, far from the
origin; both widths and dimensions, with masks and
per-row distances."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import adversarial, grazing_rays, hard_rays

FAR = [0.0, 1e5]


def bits(a):
    """The bits of a float or integer array, so that equality means the same bits."""
    a = np.ascontiguousarray(a)
    return a.view(np.uint32 if a.dtype == np.float32 else np.uint64) if a.dtype.kind == "f" else a


def assert_same(a, b):
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.array_equal(bits(a), bits(b))


def first_over(singles, each, mask=None):
    """The loop's first hits from each body's answers ``each(single)`` (a Hits over every row):
    the smallest distance, the lowest id on ties."""
    answers = [each(s) for s in singles]
    n = len(answers[0].distance)
    dim = answers[0].point.shape[1]
    dtype = answers[0].distance.dtype
    distance = np.full(n, np.inf, dtype)
    body = np.full(n, -1)
    point = np.full((n, dim), np.nan, dtype)
    normal = np.full((n, dim), np.nan, dtype)
    for k, a in enumerate(answers):
        if mask is not None and not mask[k]:
            continue
        better = (a.body >= 0) & (a.distance < distance)
        distance[better] = a.distance[better]
        body[better] = k
        point[better] = a.point[better]
        normal[better] = a.normal[better]
    return distance, body, point, normal


def case(kind, far, seed):
    dtype, dim = kind
    rng = np.random.default_rng(seed)
    bodies = adversarial(rng, dtype, dim, far)
    origins, directions = hard_rays(rng, dim, 64, far)
    graze_o, graze_d = grazing_rays(rng, bodies)
    origins = np.concatenate([origins, graze_o])
    directions = np.concatenate([directions, graze_d])
    return bodies, origins.astype(dtype), directions.astype(dtype), rng


@pytest.mark.parametrize("far", FAR)
def test_first_hits_equal_the_loop(kind, far):
    bodies, o, d, rng = case(kind, far, 1)
    scene, singles = bodies.scene(), bodies.singles()
    reach = rng.uniform(0.0, 12.0, len(o)).astype(kind[0])
    reach[::5] = np.inf
    mask = rng.random(len(bodies)) < 0.7
    for m in (None, mask):
        hits = scene.cast_rays(o, d, max_distance=reach, mask=m)
        expected = first_over(singles, lambda s: s.cast_rays(o, d, max_distance=reach), m)
        for got, want in zip(hits, expected):
            assert_same(got, np.asarray(want))
        any_hit = scene.hits_any(o, d, max_distance=reach, mask=m)
        assert np.array_equal(any_hit, expected[1] >= 0)
    for radius in (0.0, 0.25):
        hits = scene.cast_spheres(o, d, radius, max_distance=reach, mask=mask)
        expected = first_over(singles, lambda s: s.cast_spheres(o, d, radius, max_distance=reach), mask)
        for got, want in zip(hits, expected):
            assert_same(got, np.asarray(want))


@pytest.mark.parametrize("far", FAR)
@pytest.mark.parametrize("radius", [None, 0.3])
def test_spans_equal_the_loop(kind, far, radius):
    bodies, o, d, rng = case(kind, far, 2)
    scene, singles = bodies.scene(), bodies.singles()
    mask = rng.random(len(bodies)) < 0.7

    def spans(s, m=None):
        if radius is None:
            return s.ray_spans(o, d, mask=m)
        return s.sphere_spans(o, d, radius, mask=m)

    for m in (None, mask):
        got = spans(scene, m)
        each = [spans(s) for s in singles]
        for row in range(len(o)):
            want = []
            for k, sp in enumerate(each):
                if m is not None and not m[k]:
                    continue
                lo, hi = sp.offsets[row], sp.offsets[row + 1]
                want += [(sp.enter[j], k, sp.exit[j]) for j in range(lo, hi)]
            want.sort(key=lambda t: (t[0], t[1]))
            lo, hi = got.offsets[row], got.offsets[row + 1]
            assert got.body[lo:hi].tolist() == [k for _, k, _ in want]
            assert_same(got.enter[lo:hi], np.array([e for e, _, _ in want], kind[0]))
            assert_same(got.exit[lo:hi], np.array([x for _, _, x in want], kind[0]))


def points_for(kind, far, rng, bodies):
    """Points on lattice faces, edges and corners, at sphere centres, on ellipsoid axes, and at
    random."""
    dtype, dim = kind
    shift = np.full(dim, far)
    pts = [rng.integers(0, 3, dim).astype(float) + shift for _ in range(20)]
    pts += [np.asarray(c, float) for c, _ in bodies.spheres]
    pts += [np.asarray(c, float) for c, _, _ in bodies.ellipsoids]
    pts += [rng.uniform(-6, 6, dim) + shift for _ in range(30)]
    face = rng.uniform(0, 2, (10, dim)) + shift
    face[:, 0] = 1.0 + far
    pts += list(face)
    return np.array(pts).astype(dtype)


def assert_nearest_is_the_loop(near, each_near, reach, mask, dtype):
    """``near`` (a scene's ``nearest``) against the one-body scenes' answers ``each_near``: the
    smallest signed distance within ``reach`` among the bodies ``mask`` keeps, the lowest id on
    ties, with that body's own point and normal (NaN where there is none)."""
    want_body = np.full(len(near.body), -1)
    want_d = np.full(len(near.body), np.inf, dtype)
    for k, n in enumerate(each_near):
        if mask is not None and not mask[k]:
            continue
        better = (n.signed_distance <= reach) & (n.signed_distance < want_d)
        want_body[better] = k
        want_d[better] = n.signed_distance[better]
    assert near.body.tolist() == want_body.tolist()
    assert_same(near.signed_distance, want_d)
    for row, k in enumerate(want_body):
        if k >= 0:
            assert_same(near.point[row], each_near[k].point[row])
            assert_same(near.normal[row], each_near[k].normal[row])
        else:
            assert np.isnan(near.point[row]).all() and np.isnan(near.normal[row]).all()


@pytest.mark.parametrize("far", FAR)
def test_point_queries_equal_the_loop(kind, far):
    dtype, dim = kind
    rng = np.random.default_rng(3)
    bodies = adversarial(rng, dtype, dim, far)
    scene, singles = bodies.scene(), bodies.singles()
    p = points_for(kind, far, rng, bodies)
    mask = rng.random(len(bodies)) < 0.7
    reach = rng.uniform(-0.5, 3.0, len(p)).astype(dtype)
    reach[::4] = np.inf
    distance = rng.uniform(-0.3, 1.0, len(p)).astype(dtype)
    each_near = [s.nearest(p) for s in singles]
    each_inside = [s.containing(p) for s in singles]
    for m in (None, mask):
        # nearest: the smallest signed distance within reach, the lowest id on ties.
        near = scene.nearest(p, max_distance=reach, mask=m)
        assert_nearest_is_the_loop(near, each_near, reach, m, dtype)
        # within and containing: the bodies whose signed distance is at most the distance.
        found = scene.within(p, distance, mask=m)
        inside = scene.containing(p, mask=m)
        for row in range(len(p)):
            keep = [k for k in range(len(bodies)) if m is None or m[k]]
            want = [k for k in keep if each_near[k].signed_distance[row] <= distance[row]]
            assert found.body[found.offsets[row]:found.offsets[row + 1]].tolist() == want
            want = [k for k in keep if each_inside[k].offsets[row + 1] > each_inside[k].offsets[row]]
            assert inside.body[inside.offsets[row]:inside.offsets[row + 1]].tolist() == want


@pytest.mark.parametrize("far", FAR)
def test_point_queries_in_bulk_equal_the_loop(kind, far):
    """One limit for all the points: the batches (points visited in blocks of neighbours), on
    points that lie close together (a lattice 0.1 apart) and apart, shuffled."""
    dtype, dim = kind
    rng = np.random.default_rng(5)
    bodies = adversarial(rng, dtype, dim, far)
    scene, singles = bodies.scene(), bodies.singles()
    steps = np.stack(np.meshgrid(*[np.arange(6) * 0.1] * dim), -1).reshape(-1, dim)
    corners = points_for(kind, far, rng, bodies)[:12].astype(float)
    lattice = (corners[:, None, :] + steps[None, :, :]).reshape(-1, dim)
    p = np.concatenate([points_for(kind, far, rng, bodies).astype(float), lattice])
    p = p[rng.permutation(len(p))].astype(dtype)
    mask = rng.random(len(bodies)) < 0.7
    each_near = [s.nearest(p) for s in singles]
    for m in (None, mask):
        keep = [k for k in range(len(bodies)) if m is None or m[k]]
        for reach in (np.inf, 1.0):
            near = scene.nearest(p, max_distance=reach, mask=m)
            assert_nearest_is_the_loop(near, each_near, dtype(reach), m, dtype)
        for distance in (0.0, 0.5, 2.0):
            found = scene.within(p, distance, mask=m)
            for row in range(len(p)):
                want = [k for k in keep if each_near[k].signed_distance[row] <= dtype(distance)]
                assert found.body[found.offsets[row]:found.offsets[row + 1]].tolist() == want


def test_many_bodies_equal_the_loop():
    """A scene deep enough for the hierarchy to matter: 600 overlapping balls and 600 boxes."""
    import raysweep as rs

    rng = np.random.default_rng(4)
    n = 600
    c = rng.uniform(0, 20, (n, 3))
    r = rng.uniform(0.2, 1.0, n)
    lo = rng.uniform(0, 20, (n, 3))
    hi = lo + rng.uniform(0.1, 1.0, (n, 3))
    scene = rs.Scene(spheres=(c, r), boxes=(lo, hi))
    singles = [rs.Scene(spheres=(c[k : k + 1], r[k : k + 1])) for k in range(n)]
    singles += [rs.Scene(boxes=(lo[k : k + 1], hi[k : k + 1])) for k in range(n)]
    o = rng.uniform(-5, 25, (300, 3))
    d = rng.standard_normal((300, 3))
    mask = rng.random(2 * n) < 0.5
    for m in (None, mask):
        for got, want in zip(scene.cast_rays(o, d, mask=m), first_over(singles, lambda s: s.cast_rays(o, d), m)):
            assert_same(got, np.asarray(want))


def test_rays_of_a_scene_beyond_the_cache_equal_one_at_a_time():
    """A scene large enough (over 8 MiB) that its rays are traced in the curve order of their
    origins (``Scene::ray_order``): every answer, with per-row distances, radii and a mask, is
    the one that ray gets alone (one row, traced as given), in the rows' order; a bad row among
    them is still named."""
    import raysweep as rs

    rng = np.random.default_rng(57)
    n = 170_000
    c = rng.uniform(0, 250, (n, 3))
    r = rng.uniform(0.2, 1.0, n)
    scene = rs.Scene(spheres=(c, r))
    o = rng.uniform(-5, 255, (1500, 3))
    d = rng.standard_normal((1500, 3))
    reach = rng.choice([np.inf, 10.0, 0.0], 1500)
    radius = rng.uniform(0, 0.5, 1500)
    mask = rng.random(n) < 0.7
    batches = [
        (scene.cast_rays(o, d, max_distance=reach, mask=mask), lambda k: scene.cast_rays(o[k : k + 1], d[k : k + 1], max_distance=reach[k : k + 1], mask=mask)),
        (scene.cast_spheres(o, d, radius, max_distance=reach), lambda k: scene.cast_spheres(o[k : k + 1], d[k : k + 1], radius[k : k + 1], max_distance=reach[k : k + 1])),
    ]
    for got, alone in batches:
        rows = [alone(k) for k in range(len(o))]
        for j, column in enumerate(got):
            assert_same(column, np.concatenate([row[j] for row in rows]))
    bad = o.copy()
    bad[777] = np.nan
    with pytest.raises(ValueError, match="ray 777"):
        scene.cast_rays(bad, d)


def test_a_camera_s_rays_equal_one_at_a_time():
    """A camera's rays, row after row from one point (traced together in packets of
    neighbouring rays, ``Scene::cast_rays_filtered``), into balls and boxes in both widths: every
    answer, with per-row distances (some zero) and a mask, is the one that ray
    gets alone, the lowest id among equals; a bad row among them is still named."""
    import raysweep as rs

    rng = np.random.default_rng(58)
    for dtype in (np.float32, np.float64):
        c = rng.uniform(0, 40, (1500, 3)).astype(dtype)
        r = rng.uniform(0.2, 1.0, 1500).astype(dtype)
        lo = np.floor(rng.uniform(0, 40, (300, 3))).astype(dtype)
        scene = rs.Scene(spheres=(c, r), boxes=(lo, lo + 1))
        u, v = np.meshgrid(np.linspace(-0.6, 0.6, 48), np.linspace(-0.6, 0.6, 40))
        d = np.stack([u.ravel(), v.ravel(), np.ones(u.size)], axis=1).astype(dtype)
        o = np.tile(np.array([20.3, 20.1, -30.0], dtype), (len(d), 1))
        reach = rng.choice([np.inf, 45.0, 60.0, 0.0], len(d)).astype(dtype)
        mask = rng.random(len(scene)) < 0.8
        got = scene.cast_rays(o, d, max_distance=reach, mask=mask)
        rows = [scene.cast_rays(o[k : k + 1], d[k : k + 1], max_distance=reach[k : k + 1], mask=mask) for k in range(len(o))]
        for j, column in enumerate(got):
            assert_same(column, np.concatenate([row[j] for row in rows]))
        assert np.isfinite(got[0]).sum() > len(o) // 4
        bad = d.copy()
        bad[1001] = 0
        with pytest.raises(ValueError, match="ray 1001"):
            scene.cast_rays(o, bad)


def _property_scene(data, dtype, dim):
    """A small scene drawn by hypothesis: balls and boxes on a coarse lattice of coordinates
    (so faces are shared and rays run in them), and rays from lattice points."""
    from hypothesis import strategies as st

    coordinate = st.integers(-4, 4).map(lambda k: k / 2)
    point = st.lists(coordinate, min_size=dim, max_size=dim)
    balls = data.draw(st.lists(st.tuples(point, st.integers(0, 4).map(lambda k: k / 2)), max_size=6))
    boxes = data.draw(st.lists(st.tuples(point, st.lists(st.integers(0, 3).map(lambda k: k / 2), min_size=dim, max_size=dim)), max_size=6))
    from conftest import Bodies

    bodies = Bodies(dtype, dim)
    bodies.spheres = [(np.array(c), r) for c, r in balls]
    bodies.boxes = [(np.array(lo), np.array(lo) + np.array(size)) for lo, size in boxes]
    origins = np.array(data.draw(st.lists(point, min_size=1, max_size=8)), float)
    directions = np.array(data.draw(st.lists(st.lists(st.integers(-2, 2), min_size=dim, max_size=dim).filter(any), min_size=len(origins), max_size=len(origins))), float)
    return bodies, origins.astype(dtype), directions.astype(dtype)


def test_property_scene_equals_the_loop():
    """Hypothesis: any small scene on a lattice answers first hits, spans and nearest bodies as the
    loop over its bodies does."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=150, deadline=None)
    @given(st.data(), st.sampled_from([np.float32, np.float64]), st.sampled_from([2, 3]))
    def check(data, dtype, dim):
        bodies, o, d = _property_scene(data, dtype, dim)
        if len(bodies) == 0:
            return
        scene, singles = bodies.scene(), bodies.singles()
        for got, want in zip(scene.cast_rays(o, d), first_over(singles, lambda s: s.cast_rays(o, d))):
            assert_same(got, np.asarray(want))
        near = scene.nearest(o)
        each = [s.nearest(o) for s in singles]
        distances = np.array([n.signed_distance for n in each])
        assert near.body.tolist() == np.argmin(distances, axis=0).tolist()

    check()
