//! Point-in-solid tests at the speed of the plain formula, still exact: the plain test in `f64`
//! with a bound on its rounding error decides wherever the point lies farther than that bound
//! from the surface, and the exact test (in twice the working precision, `src/core`) decides the
//! rest, as Shewchuk's adaptive predicates filter ("Adaptive precision floating-point arithmetic
//! and fast robust geometric predicates", Discrete Comput. Geom. 18, 1997).
//!
//! The bounds, with `u = 2^-53` and the plain evaluation's values written with hats:
//!
//! - **Ball**, `s = |p − c|²` against `r²`: each `fᵢ = fl(pᵢ − cᵢ)` is within `u` of the exact
//!   offset, and its square and the sum of `D` squares add `D` roundings, so `ŝ` is within
//!   `(D + 3)·u` of `s`, relatively; `r̂² = fl(r²)` within `u` of `r²`. So `ŝ < r̂²·(1 − k)`
//!   proves `s < r²`, and `ŝ > r̂²·(1 + k)` proves `s > r²`, for `k = 2·(D + 6)·u` (twice what
//!   the roundings, the thresholds' own included, can take).
//! - **Ellipsoid**, `s = Σ uᵢ²` against 1, with `uᵢ = (Qᵀ(p − c))ᵢ / aᵢ` for the polar factor
//!   `Q` the exact test uses. The local coordinate `lᵢ = (Qᵀf)ᵢ` is within `(D + 2)·u·‖f̂‖₁` of
//!   the exact one (the entries of `Q`, orthonormal to `2^-48`, are below `1 + 2^-40`), and
//!   `‖f̂‖₁ ≤ D·‖f‖ = D·‖a∘u‖ ≤ D·a_max·√s`; where axis-aligned, `lᵢ = f̂ᵢ` is within
//!   `u·|fᵢ| = u·aᵢ·|uᵢ|`. The product by `1/aᵢ` rounded adds `2u·|ûᵢ|`. So, with `w = max(s, 1)`
//!   (which bounds `√s` and each `|uᵢ|`), `|ûᵢ − uᵢ| ≤ β·w` for `β = (D + 2)·D·u·(a_max/a_min)
//!   + 2u` (`3u` axis-aligned), and `|ŝ − s| ≤ D·β·w·(2w + β·w) + (D + 1)·u·ŝ ≤ γ·w²` for
//!   `γ = 2·(D·β·(2 + β) + (D + 1)·u)`, twice the roundings' share: a constant of the
//!   ellipsoid. So `ŝ < 1 − γ` proves `s < 1`, and `ŝ − γ·ŝ² > 1` proves `s > 1`.

//! The plain test decides only where its value lies beyond the bound on the side it says; a
//! value within it, a threshold below `2^-960` (where the squares may have lost bits to
//! underflow) or beyond `f64`'s range, and a NaN go to the exact test.

use nalgebra::SVector;

/// `2^-53`: the unit roundoff of `f64`.
const U: f64 = f64::EPSILON / 2.0;

/// `2^-960`: below it, squares of the offsets may have underflowed.
const SMALLEST: f64 = f64::from_bits((1023 - 960) << 52);

/// Whether the ball of radius `r` around the origin holds `f` (a point's offset from the centre,
/// rounded), where the plain test decides; `None` where it cannot.
#[inline(always)]
pub(crate) fn ball<const D: usize>(f: &SVector<f64, D>, r: f64) -> Option<bool> {
    let r2 = r * r;
    let k = 2.0 * (D + 6) as f64 * U;
    let (below, above) = (r2 * (1.0 - k), r2 * (1.0 + k));
    if !(below >= SMALLEST && above < f64::INFINITY) {
        return None;
    }
    decided(f.norm_squared(), below, above)
}

/// Whether the unit ball holds `u` (a point's local offset over the semi-axes, rounded), where
/// the plain test decides; `None` where it cannot. `gamma` is the ellipsoid's `γ`
/// ([`ellipsoid_gamma`]).
#[inline(always)]
pub(crate) fn unit_ball<const D: usize>(u: &SVector<f64, D>, gamma: f64) -> Option<bool> {
    let s = u.norm_squared();
    decided(s, 1.0 - gamma, 1.0 + gamma * s * s)
}

/// The ellipsoid's `γ` of the module's documentation, for semi-axes `a` (in `f64`), rotated or
/// not.
pub(crate) fn ellipsoid_gamma<const D: usize>(a: &SVector<f64, D>, rotated: bool) -> f64 {
    let d = D as f64;
    let beta = if rotated {
        (d + 2.0) * d * U * (a.max() / a.min()) * (1.0 + 1.0 / 1_099_511_627_776.0) + 2.0 * U
    } else {
        3.0 * U
    };
    2.0 * (d * beta * (2.0 + beta) + (d + 1.0) * U)
}

/// Inside (`Some(true)`) where `value < below`, outside where `value > above`; `None` between
/// (and for a NaN).
#[inline(always)]
fn decided(value: f64, below: f64, above: f64) -> Option<bool> {
    if value < below {
        Some(true)
    } else if value > above {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point, Rotation2, Rotation3, SVector};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use crate::real::Real;
    use crate::shape::{Ellipsoid, Sphere};
    use crate::traits::Shape;

    /// Points on, just inside and just outside a solid's surface (relative offsets from
    /// `10^-17` to `10^-3`, and the neighbouring values of the width of a surface point), far
    /// from it, at its centre, and NaN or infinite.
    fn near<T: Real, const D: usize>(
        rng: &mut StdRng,
        centre: &SVector<f64, D>,
        on: &SVector<f64, D>,
    ) -> Point<T, D> {
        let offset = on - centre;
        let p = match rng.random_range(0..6) {
            0 => on.map(T::from_wide),
            1 => {
                let k = 1.0 + rng.random_range(-1.0..1.0) * 10f64.powi(-rng.random_range(3..17));
                (centre + offset * k).map(T::from_wide)
            }
            2 => on.map(|x| {
                let v = T::from_wide(x).to_wide();
                T::from_wide(if rng.random_bool(0.5) {
                    v.next_up()
                } else {
                    v.next_down()
                })
            }),
            3 => (centre + offset * rng.random_range(-3.0..3.0)).map(T::from_wide),
            4 => centre.map(T::from_wide),
            _ => {
                let mut v = on.map(T::from_wide);
                v[0] =
                    T::from_wide([f64::NAN, f64::INFINITY, -f64::INFINITY][rng.random_range(0..3)]);
                v
            }
        };
        // Rounding to f32 may land the neighbour on the surface point itself: still a test.
        Point::from(p)
    }

    fn unit<const D: usize>(rng: &mut StdRng) -> SVector<f64, D> {
        loop {
            let v = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-1.0..1.0));
            if v.norm() > 0.1 && v.norm() <= 1.0 {
                return v.normalize();
            }
        }
    }

    /// `contains` answers as the exact test on every point, at scales from `10^-150` to
    /// `10^150` (`f32`: `10^-20` to `10^20`), and both its paths are taken.
    fn check<T: Real, const D: usize>(
        seed: u64,
        rotate: impl Fn(&mut StdRng) -> nalgebra::Rotation<T, D>,
    ) {
        let rng = &mut StdRng::seed_from_u64(seed);
        let big = if T::EPSILON_WIDE > f64::EPSILON {
            20
        } else {
            150
        };
        let (mut filtered, mut exact) = (0, 0);
        for _ in 0..20_000 {
            let scale = 10f64.powi(rng.random_range(-big..=big));
            let c = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-10.0..10.0) * scale)
                .map(|x| T::from_wide(x).to_wide());
            let r = T::from_wide(rng.random_range(0.1..3.0) * scale).to_wide();
            let ball =
                Sphere::<T, D>::new(Point::from(c.map(T::from_wide)), T::from_wide(r)).unwrap();
            let on = c + unit::<D>(rng) * r;
            let p = near::<T, D>(rng, &c, &on);
            let got = ball.contains(&p);
            assert_eq!(got, ball.contains_exactly(&p), "{ball:?} {p:?}");
            let f = p.coords.map(|x| x.to_wide()) - c;
            if super::ball(&f, r).is_some() {
                filtered += 1
            } else {
                exact += 1
            }

            let a = SVector::<f64, D>::from_fn(|i, _| {
                rng.random_range(0.1..3.0) * scale
                    / if i == 0 {
                        10f64.powi(rng.random_range(0..4))
                    } else {
                        1.0
                    }
            })
            .map(|x| T::from_wide(x).to_wide());
            let e = if rng.random_bool(0.5) {
                Ellipsoid::<T, D>::new(Point::from(c.map(T::from_wide)), a.map(T::from_wide))
                    .unwrap()
            } else {
                Ellipsoid::<T, D>::oriented(
                    Point::from(c.map(T::from_wide)),
                    a.map(T::from_wide),
                    rotate(rng),
                )
                .unwrap()
            };
            let local = unit::<D>(rng).component_mul(&a);
            let world = e.in_world_axes(&local);
            let on = c + world;
            let p = near::<T, D>(rng, &c, &on);
            assert_eq!(e.contains(&p), e.contains_exactly(&p), "{e:?} {p:?}");
        }
        assert!(
            filtered > 1000 && exact > 1000,
            "{filtered} filtered, {exact} exact"
        );
    }

    #[test]
    fn contains_answers_as_the_exact_test() {
        let r2 = |rng: &mut StdRng| {
            nalgebra::Rotation::from_matrix_unchecked(
                Rotation2::new(rng.random_range(0.0..6.3f64))
                    .matrix()
                    .map(|x| x),
            )
        };
        let r3 = |rng: &mut StdRng| {
            let axis = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(-1.0..1.0));
            nalgebra::Rotation::from_matrix_unchecked(Rotation3::new(axis).matrix().map(|x| x))
        };
        let r2f = |rng: &mut StdRng| {
            nalgebra::Rotation::from_matrix_unchecked(
                Rotation2::new(rng.random_range(0.0..6.3f64))
                    .matrix()
                    .map(|x| x as f32),
            )
        };
        let r3f = |rng: &mut StdRng| {
            let axis = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(-1.0..1.0));
            nalgebra::Rotation::from_matrix_unchecked(
                Rotation3::new(axis).matrix().map(|x| x as f32),
            )
        };
        check::<f64, 2>(1, r2);
        check::<f64, 3>(2, r3);
        check::<f32, 2>(3, r2f);
        check::<f32, 3>(4, r3f);
    }
}
