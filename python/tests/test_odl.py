"""``raysweep.odl.RayTransform`` inside ODL: forward projections equal to exact chords in rational
arithmetic, the adjoint identity and linearity by ODL's own ``OperatorTest`` at 1e-10 in
``float64`` (2D parallel, fan and 3D cone beams), Shepp-Logan's sinogram within a few percent of
ODL's ASTRA CPU transform, a reconstruction by ODL's CGLS, and bad input."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import odl
import pytest

import raysweep.odl as rso

tomo = odl.applications.tomo


def square(n: int, dtype: str, half: float = 1.0) -> odl.DiscretizedSpace:
    return odl.uniform_discr([-half, -half], [half, half], [n, n], dtype=dtype)


def operator_test(op: odl.Operator, capsys: pytest.CaptureFixture[str]) -> str:
    """What ODL's ``OperatorTest`` at 1e-10 prints for the adjoint and linearity checks."""
    capsys.readouterr()
    check = odl.diagnostics.OperatorTest(op, tol=1e-10)
    check.adjoint()
    check.linear()
    return capsys.readouterr().out


@pytest.mark.parametrize(
    "geometry",
    [
        lambda space: tomo.parallel_beam_geometry(space, num_angles=17),
        lambda space: tomo.FanBeamGeometry(
            odl.uniform_partition(0, 2 * np.pi, 13),
            odl.uniform_partition(-3, 3, 21),
            src_radius=4,
            det_radius=2,
        ),
    ],
    ids=["parallel", "fan"],
)
def test_odl_operator_test_passes_at_1e_10_in_2d(geometry, capsys) -> None:
    space = square(24, "float64")
    out = operator_test(rso.RayTransform(space, geometry(space)), capsys)
    assert "Completed all test cases" in out
    assert "FAILED" not in out, out


def test_odl_operator_test_passes_at_1e_10_for_a_3d_cone_beam(capsys) -> None:
    space = odl.uniform_discr([-1, -1, -1], [1, 1, 1], [10, 12, 8], dtype="float64")
    geometry = tomo.cone_beam_geometry(space, src_radius=5, det_radius=3, num_angles=7)
    out = operator_test(rso.RayTransform(space, geometry), capsys)
    assert "Completed all test cases" in out
    assert "FAILED" not in out, out


def test_a_constant_image_projects_to_the_exact_chords() -> None:
    # Unit pixels on [-4, 4]²; parallel rays at angle 0 along ODL's det_to_src. Every chord of
    # the square, computed in rational arithmetic from the rays ODL's geometry gives.
    space = square(8, "float64", half=4.0)
    geometry = tomo.Parallel2dGeometry(
        odl.uniform_partition(0, np.pi, 6), odl.uniform_partition(-6, 6, 12)
    )
    sino = rso.RayTransform(space, geometry)(space.one()).asarray()
    angles = geometry.angles
    dets = geometry.det_partition.coord_vectors[0]
    for i, angle in enumerate(angles):
        for j, u in enumerate(dets):
            p = geometry.det_point_position(angle, u)
            d = geometry.det_to_src(angle, u)
            assert sino[i, j] == pytest.approx(chord(p, d, 4.0), rel=1e-14, abs=1e-14), (i, j)


def chord(point, direction, half: float) -> float:
    """The length of the line through ``point`` along ``direction`` inside ``[-half, half]²``:
    the parameter interval in rational arithmetic, times the direction's length."""
    lo_f, hi_f = None, None
    for a in range(2):
        p, d = Fraction(float(point[a])), Fraction(float(direction[a]))
        if d == 0:
            if not -half <= p <= half:
                return 0.0
            continue
        t0, t1 = (Fraction(-half) - p) / d, (Fraction(half) - p) / d
        t0, t1 = min(t0, t1), max(t0, t1)
        lo_f = t0 if lo_f is None else max(lo_f, t0)
        hi_f = t1 if hi_f is None else min(hi_f, t1)
    lo, hi = lo_f, hi_f
    if lo is None or hi <= lo:
        return 0.0
    return float(hi - lo) * math.hypot(float(direction[0]), float(direction[1]))


def test_shepp_logan_is_within_a_few_percent_of_astra() -> None:
    space = square(128, "float32", half=20.0)
    geometry = tomo.parallel_beam_geometry(space, num_angles=60)
    phantom = odl.core.phantom.shepp_logan(space, modified=True)
    ours = rso.RayTransform(space, geometry)(phantom).asarray()
    astra = tomo.RayTransform(space, geometry, impl="astra_cpu")(phantom).asarray()
    assert ours.shape == astra.shape
    assert np.linalg.norm(ours - astra) <= 0.03 * np.linalg.norm(astra)
    # Both are the projection's adjoint's duals: the back projections agree as well.
    back_ours = rso.RayTransform(space, geometry).adjoint(ours).asarray()
    back_astra = tomo.RayTransform(space, geometry, impl="astra_cpu").adjoint(ours).asarray()
    assert np.linalg.norm(back_ours - back_astra) <= 0.03 * np.linalg.norm(back_astra)


def test_cgls_reconstructs_the_phantom_with_the_error_falling() -> None:
    space = square(48, "float64", half=1.0)
    geometry = tomo.parallel_beam_geometry(space, num_angles=60)
    op = rso.RayTransform(space, geometry)
    phantom = odl.core.phantom.shepp_logan(space, modified=True)
    data = op(phantom)
    x = space.zero()
    errors = []
    for _ in range(3):
        odl.solvers.conjugate_gradient_normal(op, x, data, niter=5)
        errors.append((x - phantom).norm() / phantom.norm())
    assert errors[0] > errors[1] > errors[2]
    assert errors[2] < 0.3


def test_float32_spaces_compute_in_float32_on_any_thread_count() -> None:
    space = square(32, "float32")
    geometry = tomo.parallel_beam_geometry(space, num_angles=20)
    x = odl.core.phantom.shepp_logan(space, modified=True)
    one = rso.RayTransform(space, geometry, threads=1)
    two = rso.RayTransform(space, geometry, threads=2)
    assert one(x).asarray().dtype == np.float32
    np.testing.assert_array_equal(one(x).asarray(), two(x).asarray())
    y = one(x)
    np.testing.assert_array_equal(one.adjoint(y).asarray(), two.adjoint(y).asarray())


def test_bad_input_is_refused() -> None:
    space = square(8, "float64")
    geometry = tomo.parallel_beam_geometry(space, num_angles=4)
    with pytest.raises(ValueError, match="do not pass impl"):
        rso.RayTransform(space, geometry, impl="astra_cpu")
    with pytest.raises(ValueError, match="float32 or float64"):
        rso.RayTransform(square(8, "complex128"), geometry)
    with pytest.raises(ValueError, match="DiscretizedSpace"):
        rso.RayTransform(np.zeros((8, 8)), geometry)
    with pytest.raises(ValueError, match="threads"):
        rso.RayTransform(space, geometry, threads=0)


def test_docstring_examples() -> None:
    import doctest

    failed, attempted = doctest.testmod(rso, optionflags=doctest.ELLIPSIS)
    assert attempted > 0 and failed == 0


def test_odl_finds_impl_raysweep_and_keeps_its_default() -> None:
    from odl.applications.tomo.operators.ray_trafo import RAY_TRAFO_IMPLS

    assert next(iter(RAY_TRAFO_IMPLS)) == "raysweep"
    assert next(reversed(RAY_TRAFO_IMPLS)) == "astra_cpu"  # ODL's default, as before
    space = square(16, "float64")
    geometry = tomo.parallel_beam_geometry(space, num_angles=9)
    by_name = tomo.RayTransform(space, geometry, impl="raysweep")
    ours = rso.RayTransform(space, geometry)
    x = odl.core.phantom.shepp_logan(space, modified=True)
    assert np.array_equal(by_name(x).asarray(), ours(x).asarray())
    assert np.array_equal(by_name.adjoint(by_name(x)).asarray(), ours.adjoint(ours(x)).asarray())


def test_the_module_shows_its_own_names_and_docs() -> None:
    assert [n for n in dir(rso) if not n.startswith("_")] == ["RayTransform"]
    assert "threads" in (rso.RayTransform.__init__.__doc__ or "")
