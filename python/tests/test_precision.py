"""Precision from Python against an independent reference (mpmath at 50 digits, from the very same
float inputs) on hard single-body cases: far targets, tiny spheres, grazing rays, flat ellipsoids.
The inputs are those of the crate's precision suite: the ray's direction as the crate stores it
(the unit vector rounded to the width; in ``float32``, the ``float64`` quotient rounded, which is
the crate's but for double roundings once in about ``2^28``), normalised again exactly. f32: distance and contact point within 1 ulp; f64: distance
within 4·(1/2 + s) ulps, s the change (in ulps) half-ulp nudges of the inputs cause, and within 8
ulps where s ≤ 4 (the crate's targets, API.md "Precision")."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

import raysweep as rs

mpmath.mp.dps = 50


def exact_distance(origin, direction, center, semi_axes):
    """The distance along the unit direction to the first crossing of the ellipsoid
    ``|(x - c)/a| = 1`` (a sphere where the semi-axes are equal), ``None`` on a miss; inputs
    taken exactly."""
    o = [mpmath.mpf(float(v)) for v in origin]
    d = [mpmath.mpf(float(v)) for v in direction]
    norm = mpmath.sqrt(sum(v * v for v in d))
    u = [v / norm for v in d]
    c = [mpmath.mpf(float(v)) for v in center]
    a = [mpmath.mpf(float(v)) for v in semi_axes]
    f = [(oi - ci) / ai for oi, ci, ai in zip(o, c, a)]
    g = [ui / ai for ui, ai in zip(u, a)]
    qa = sum(v * v for v in g)
    qb = sum(x * y for x, y in zip(f, g))
    qc = sum(v * v for v in f) - 1
    disc = qb * qb - qa * qc
    if disc < 0:
        return None
    if qc <= 0:
        return mpmath.mpf(0)
    t = (-qb - mpmath.sqrt(disc)) / qa
    return t if t >= 0 else None


def ulp(x, dtype):
    return float(np.spacing(dtype(abs(float(x)))))


def cases(family, rng, dim, n):
    """(origin, direction, center, semi_axes) of a family, every one a sure hit (aimed well
    inside the tangency band)."""
    out = []
    for _ in range(n):
        center = rng.uniform(-10, 10, dim)
        if family == "far sphere":
            semi = np.full(dim, rng.uniform(0.5, 2.0))
            origin = center + rng.standard_normal(dim) / np.sqrt(dim) * 10 ** rng.uniform(4, 6)
        elif family == "tiny sphere":
            semi = np.full(dim, 10 ** rng.uniform(-5, -4))
            origin = center + rng.standard_normal(dim)
        elif family == "grazing":
            semi = np.full(dim, rng.uniform(0.5, 2.0))
            origin = center + rng.standard_normal(dim) * 20
        else:  # flat ellipsoid
            semi = np.array([rng.uniform(1, 3)] * (dim - 1) + [10 ** rng.uniform(-5, -3)])
            origin = center + rng.standard_normal(dim) * 10
        # Aim at a point inside, off the centre by a fraction of the size across the line of sight.
        side = rng.standard_normal(dim)
        sight = center - origin
        side -= side.dot(sight) / sight.dot(sight) * sight
        side /= np.linalg.norm(side)
        fraction = 0.999 if family == "grazing" else rng.uniform(0, 0.9)
        aim = center + fraction * side * semi.min()
        out.append((origin, aim - origin, center, semi))
    return out


FAMILIES = ["far sphere", "tiny sphere", "grazing", "flat ellipsoid"]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("dim", [2, 3])
def test_f32_within_one_ulp(family, dim):
    rng = np.random.default_rng(hash((family, dim)) % 2**32)
    worst = 0.0
    for origin, direction, center, semi in cases(family, rng, dim, 60):
        o, d, c, a = (np.asarray(v, np.float32) for v in (origin, direction, center, semi))
        scene = rs.Scene(ellipsoids=(c[None], a[None]))
        hit = scene.cast_rays(o[None], d[None])
        wide = d.astype(np.float64)
        d = (wide / np.sqrt(wide @ wide)).astype(np.float32)
        t = exact_distance(o, d, c, a)
        assert t is not None and hit.body[0] == 0
        err = abs(mpmath.mpf(float(hit.distance[0])) - t) / ulp(t, np.float32)
        worst = max(worst, float(err))
        # The contact point, normwise: in ulps of its largest coordinate.
        n = mpmath.sqrt(sum(mpmath.mpf(float(v)) ** 2 for v in d))
        exact_point = [mpmath.mpf(float(oi)) + t * mpmath.mpf(float(di)) / n for oi, di in zip(o, d)]
        scale = ulp(max(abs(p) for p in exact_point), np.float32)
        point_err = max(abs(mpmath.mpf(float(p)) - q) for p, q in zip(hit.point[0], exact_point)) / scale
        worst = max(worst, float(point_err))
    assert worst <= 1.0, f"{family}: {worst:.3f} ulps"


def sensitivity(inputs, t):
    """The change of the exact distance, in ulps of it, when each input is nudged by half an ulp in
    turn (the sum of the absolute changes)."""
    total = mpmath.mpf(0)
    flat = [np.array(v, np.float64) for v in inputs]
    for which, array in enumerate(flat):
        for i in range(len(array)):
            nudged = [v.copy() for v in flat]
            step = np.spacing(abs(array[i])) / 2
            moved = [list(map(mpmath.mpf, map(float, v))) for v in nudged]
            moved[which][i] += mpmath.mpf(float(step))
            u = exact_distance_mp(*moved)
            total += abs(u - t)
    return float(total / ulp(t, np.float64))


def exact_distance_mp(o, d, c, a):
    """``exact_distance`` on inputs already in mpmath."""
    norm = mpmath.sqrt(sum(v * v for v in d))
    u = [v / norm for v in d]
    f = [(oi - ci) / ai for oi, ci, ai in zip(o, c, a)]
    g = [ui / ai for ui, ai in zip(u, a)]
    qa = sum(v * v for v in g)
    qb = sum(x * y for x, y in zip(f, g))
    qc = sum(v * v for v in f) - 1
    return (-qb - mpmath.sqrt(qb * qb - qa * qc)) / qa


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("dim", [2, 3])
def test_f64_within_the_targets(family, dim):
    rng = np.random.default_rng(hash((family, dim, 64)) % 2**32)
    for origin, direction, center, semi in cases(family, rng, dim, 40):
        scene = rs.Scene(ellipsoids=(center[None], semi[None]))
        hit = scene.cast_rays(origin[None], direction[None])
        t = exact_distance(origin, direction, center, semi)
        assert t is not None and hit.body[0] == 0
        err = float(abs(mpmath.mpf(float(hit.distance[0])) - t) / ulp(t, np.float64))
        s = sensitivity((origin, direction, center, semi), t)
        assert err <= 4 * (0.5 + s), f"{family}: {err:.2f} ulps, sensitivity {s:.2f}"
        if s <= 4:
            assert err <= 8, f"{family}: {err:.2f} ulps where well conditioned"
