"""``sphere_time_of_impact`` against the closed form for two balls (mpmath, 50 digits, from the
same float inputs): f32 within 1 ulp, f64 within 8 ulps on well-conditioned pairs; the time-0
rule (touching or overlapping pairs: an impact only while the gap closes); misses; bad input."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

import raysweep as rs

mpmath.mp.dps = 50


def exact_time(c, r, v, oc, orr, ov):
    """The first time two balls' centres are ``r + orr`` apart, from the float inputs exactly;
    0 for a pair touching or overlapping at time 0 whose gap closes, ``None`` for none."""
    m = [mpmath.mpf(float(a)) - mpmath.mpf(float(b)) for a, b in zip(oc, c)]
    w = [mpmath.mpf(float(a)) - mpmath.mpf(float(b)) for a, b in zip(v, ov)]
    reach = mpmath.mpf(float(r)) + mpmath.mpf(float(orr))
    a = sum(x * x for x in w)
    b = sum(x * y for x, y in zip(m, w))
    cc = sum(x * x for x in m) - reach * reach
    if cc <= 0:
        return mpmath.mpf(0) if b > 0 else None
    disc = b * b - a * cc
    if disc < 0 or b <= 0:
        return None
    return (b - mpmath.sqrt(disc)) / a


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("dim", [2, 3])
def test_times_against_the_closed_form(dtype, dim):
    rng = np.random.default_rng(30 + dim)
    n = 200
    c = rng.uniform(-10, 10, (n, dim))
    oc = rng.uniform(-10, 10, (n, dim))
    r = rng.uniform(0.1, 1.0, n)
    orr = rng.uniform(0.1, 1.0, n)
    # Velocities aimed so that most pairs meet: the relative velocity towards the other, skewed.
    v = (oc - c) * rng.uniform(0.2, 2.0, (n, 1)) + rng.normal(0, 0.05, (n, dim))
    ov = rng.normal(0, 0.3, (n, dim))
    args = [np.asarray(a, dtype) for a in (c, r, v, oc, orr, ov)]
    got = rs.sphere_time_of_impact(*args)
    assert got.time.dtype == dtype
    eps = float(np.finfo(dtype).eps)
    met = 0
    for i in range(n):
        t = exact_time(*(a[i] for a in args))
        if t is None:
            assert np.isinf(got.time[i]) and np.isnan(got.point[i]).all()
            continue
        met += 1
        ulp = float(np.spacing(dtype(abs(float(t))))) if t > 0 else float(np.finfo(dtype).tiny)
        err = float(abs(mpmath.mpf(float(got.time[i])) - t)) / ulp
        assert err <= (1.0 if dtype == np.float32 else 8.0), (i, err)
        # The contact point lies on the other ball at that time, along the normal.
        centre = args[3][i].astype(np.float64) + float(t) * args[5][i].astype(np.float64)
        assert np.allclose(got.point[i], centre + args[4][i] * got.normal[i], atol=1e-4 if dtype == np.float32 else 1e-9)
    assert met > n // 2


def test_the_time_zero_rule():
    # Touching balls: closing gives time 0, separating none, sliding along none.
    c = [[0.0, 0.0]] * 3
    oc = [[2.0, 0.0]] * 3
    v = [[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]]
    got = rs.sphere_time_of_impact(c, 1.0, v, oc, 1.0, [[0.0, 0.0]] * 3)
    assert got.time.tolist()[0] == 0.0 and np.isinf(got.time[1:]).all()
    # Overlapping balls moving apart: none.
    got = rs.sphere_time_of_impact([[0.0, 0.0]], 1.0, [[-1.0, 0.0]], [[1.0, 0.0]], 1.0, [[0.0, 0.0]])
    assert np.isinf(got.time[0])
    # Beyond max_time (per row): none.
    got = rs.sphere_time_of_impact([[0.0, 0.0]] * 2, 1.0, [[1.0, 0.0]] * 2, [[10.0, 0.0]] * 2, 1.0, [[0.0, 0.0]] * 2, max_time=[7.9, 8.0])
    assert np.isinf(got.time[0]) and got.time[1] == 8.0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rs.sphere_time_of_impact([[0.0, 0.0]], -1.0, [[1.0, 0.0]], [[3.0, 0.0]], 1.0, [[0.0, 0.0]]), r"balls\[0\].*negative"),
        (lambda: rs.sphere_time_of_impact([[0.0, 0.0]], 1.0, [[np.nan, 0.0]], [[3.0, 0.0]], 1.0, [[0.0, 0.0]]), r"velocities\[0, 0\]"),
        (lambda: rs.sphere_time_of_impact([[0.0, 0.0]], 1.0, [[1.0, 0.0]], [[3.0, 0.0], [4.0, 0.0]], 1.0, [[0.0, 0.0]]), "rows"),
        (lambda: rs.sphere_time_of_impact([[0.0, 0.0]], 1.0, [[1.0, 0.0]], [[3.0, 0.0]], 1.0, [[0.0, 0.0]], max_time=np.nan), "max_time"),
        (lambda: rs.sphere_time_of_impact([0.0, 0.0], 1.0, [[1.0, 0.0]], [[3.0, 0.0]], 1.0, [[0.0, 0.0]]), "shape"),
    ],
)
def test_bad_impact_input(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_mixed_widths():
    with pytest.raises(TypeError):
        rs.sphere_time_of_impact(np.zeros((1, 2), np.float32), 1.0, np.ones((1, 2)), np.ones((1, 2)), 1.0, np.zeros((1, 2)))
