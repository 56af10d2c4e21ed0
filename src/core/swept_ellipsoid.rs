//! A ball moving along a line against a closed axis-aligned ellipsoid `|x / a| ≤ 1` (the local
//! frame of any ellipsoid): there is no closed form, because the offset surface of an ellipsoid is
//! not a quadric.
//!
//! The distance from the moving centre `p(t) = o + t·n` to the ellipsoid is a convex function of
//! `t` (the distance to a convex set is convex, and `p` is affine). So `g(t) = dist(p(t)) − r` is
//! convex, and Newton's iteration started at a `t` before the first contact climbs to it
//! monotonically without ever passing it: the tangent of a convex function lies below it. The
//! derivative is `g'(t) = n · (p − q)/|p − q|`, with `q` the closest point. The caller supplies a
//! start before the contact (where the line enters a body containing the swept one). Newton
//! converges quadratically for a transversal contact and linearly (halving the gap per step) at
//! tangency, so the iteration is bounded at 200 steps.
//!
//! Each step of that search needs a closest point, itself an iteration. So once the gap is below
//! half the radius, the search tries to finish with Newton's method on the joint Lagrange system
//! in `(t, s)` (see [`polish`]), which converges quadratically in both unknowns at once; its answer
//! stands only if a closest point found afresh there is `r` away to within the tolerance, and the
//! monotone search goes on otherwise.
//!
//! Each closest point is [`nearest_point`] (Eberly's method, in [`super::nearest`]).

use nalgebra::SVector;

use super::nearest::{Closest, contains, nearest_point};
use super::unit::unit_and_length;

/// The first touch of a moving ball.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Touch<const D: usize> {
    /// The parameter along the line.
    pub(crate) t: f64,
    /// The contact point on the ellipsoid, and the offset of the centre from it.
    pub(crate) closest: Closest<D>,
}

/// The first parameter `t ≥ start` at which the ball of radius `r` centred at `o + t·n` touches
/// the ellipsoid `|x / a| ≤ 1`, given that it does not overlap it before `start`. The iterations
/// stop when a step is below `tolerance` relative to the parameter (or to `r`): Newton's method
/// converges quadratically, so what remains is far smaller than that.
pub(crate) fn first_touch<const D: usize>(
    o: &SVector<f64, D>,
    n: &SVector<f64, D>,
    a: &SVector<f64, D>,
    r: f64,
    start: f64,
    tolerance: f64,
) -> Option<Touch<D>> {
    let mut t = start;
    let mut guess = 0.0;
    for _ in 0..200 {
        let p = o + n * t;
        if contains(&p, a) {
            // Only rounding brings the centre inside: the contact is here.
            return Some(Touch {
                t,
                closest: inside_at(p),
            });
        }
        let closest = nearest_point(&p, a, guess, tolerance);
        guess = closest.multiplier;
        let distance = unit_and_length(&closest.offset).map_or(0.0, |(_, l)| l);
        let gap = distance - r;
        if gap <= 0.0 {
            return Some(Touch { t, closest });
        }
        let slope = n.dot(&closest.offset) / distance;
        if !(slope < 0.0) {
            // Moving away from the ellipsoid without having touched it: by convexity, never will.
            return None;
        }
        let next = t - gap / slope;
        if gap < 0.5 * r {
            // Near the contact: finish with Newton's method on the joint system, confirmed by
            // the closest point at its answer; if it fails, the monotone search goes on.
            if let Some(touch) = polish(o, n, a, r, next, guess, tolerance) {
                return Some(touch);
            }
        }
        if next - t <= tolerance * next.abs().max(r) {
            // Converged: the contact at the final parameter.
            let p = o + n * next;
            let closest = if contains(&p, a) {
                inside_at(p)
            } else {
                nearest_point(&p, a, guess, tolerance)
            };
            return Some(Touch { t: next, closest });
        }
        t = next;
    }
    let closest = nearest_point(&(o + n * t), a, guess, tolerance);
    Some(Touch { t, closest })
}

/// Newton's method on the Lagrange system of the contact, in `(t, s)` with `p = o + t·n`:
/// `G1 = Σ a_i² p_i² / (a_i² + s)² − 1 = 0` (the point `a_i² p_i / (a_i² + s)` is on the
/// ellipsoid) and `G2 = s² Σ p_i² / (a_i² + s)² − r² = 0` (it is `r` from the centre). From a
/// start near the first contact it converges quadratically in both unknowns at once, where the
/// nested search needs a closest-point search per step. The answer is accepted only if the
/// closest point found afresh at it is `r` away to within a small multiple of the tolerance and
/// the centre is moving towards it there (the first contact of a convex distance, not the last),
/// and it is then refined by one Newton step on the distance itself; `None` otherwise.
fn polish<const D: usize>(
    o: &SVector<f64, D>,
    n: &SVector<f64, D>,
    a: &SVector<f64, D>,
    r: f64,
    mut t: f64,
    mut s: f64,
    tolerance: f64,
) -> Option<Touch<D>> {
    let a2 = a.component_mul(a);
    for _ in 0..8 {
        let p = o + n * t;
        let inv = a2.map(|x| 1.0 / (x + s));
        let w = p.component_mul(&inv);
        let (mut g1, mut g1_t, mut g1_s) = (-1.0, 0.0, 0.0);
        let (mut w2, mut w2_inv, mut wn_inv) = (0.0, 0.0, 0.0);
        for i in 0..D {
            let ww = w[i] * w[i];
            g1 += a2[i] * ww;
            g1_t += 2.0 * a2[i] * w[i] * n[i] * inv[i];
            g1_s -= 2.0 * a2[i] * ww * inv[i];
            w2 += ww;
            w2_inv += ww * inv[i];
            wn_inv += w[i] * n[i] * inv[i];
        }
        let g2 = s * s * w2 - r * r;
        let g2_t = 2.0 * s * s * wn_inv;
        let g2_s = 2.0 * s * w2 - 2.0 * s * s * w2_inv;
        let det = g1_t * g2_s - g1_s * g2_t;
        let dt = (g1_s * g2 - g1 * g2_s) / det;
        let ds = (g1 * g2_t - g1_t * g2) / det;
        t += dt;
        s += ds;
        if !(s > 0.0) || !t.is_finite() {
            return None;
        }
        if dt.abs() <= tolerance * t.abs().max(r) {
            let p = o + n * t;
            if contains(&p, a) {
                return None;
            }
            let closest = nearest_point(&p, a, s, tolerance);
            let distance = unit_and_length(&closest.offset).map_or(0.0, |(_, l)| l);
            // The system's residuals cancel on a flat ellipsoid, so its root can be a few ulps
            // off the distance's own: one Newton step on the distance, from the closest point
            // found afresh, puts it right. It must be a small one, and the centre must be moving
            // towards the ellipsoid: the system's other root, where the ball leaves it, is `r`
            // away too, and the iteration can reach it where the distance barely changes between
            // the two (a ball grazing a flat ellipsoid).
            let slope = n.dot(&closest.offset) / distance;
            let step = (distance - r) / slope;
            let limit = 64.0 * tolerance;
            if !(slope < 0.0) || !(step.abs() <= limit * t.abs().max(r)) {
                return None;
            }
            let t = t - step;
            let p = o + n * t;
            let closest = if contains(&p, a) {
                inside_at(p)
            } else {
                nearest_point(&p, a, closest.multiplier, tolerance)
            };
            return Some(Touch { t, closest });
        }
    }
    None
}

/// The contact for a centre that rounding has put inside the ellipsoid: the centre itself.
fn inside_at<const D: usize>(p: SVector<f64, D>) -> Closest<D> {
    Closest {
        point: p,
        offset: SVector::zeros(),
        gradient: SVector::zeros(),
        multiplier: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Vector2, Vector3};

    /// Full f64 precision.
    const FULL: f64 = 2.0 * f64::EPSILON;

    #[test]
    fn head_on_touch_of_a_flat_ellipsoid() {
        let a = Vector3::new(1.0, 1.0, 1e-6);
        let touch = first_touch(
            &Vector3::new(0.0, 0.0, 10.0),
            &-Vector3::z(),
            &a,
            0.5,
            0.0,
            FULL,
        )
        .unwrap();
        assert!((touch.t - (9.5 - 1e-6)).abs() < 4.0 * f64::EPSILON * 10.0);
    }

    #[test]
    fn passing_clear_is_a_miss() {
        let a = Vector2::new(2.0, 1.0);
        let far_above = first_touch(
            &Vector2::new(-10.0, 1.6),
            &Vector2::x(),
            &a,
            0.5,
            -10.0,
            FULL,
        );
        assert!(far_above.is_none());
    }
}
