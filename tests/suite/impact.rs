//! Times of impact (`Sphere::time_of_impact`): against the exact roots of two balls' gap, for
//! ordinary and near-grazing pairs, in both widths and in 2 and 3 dimensions (f32 within 1 ulp);
//! the time-0 rule for balls, boxes and ellipsoids that touch or overlap, moving towards, away
//! and exactly along the surface; and pairs that have just bounced.

use raysweep::nalgebra::{Point2, Point3, SVector, Vector2, Vector3};
use raysweep::{Aabb, Body, Circle, Ellipsoid, PointQuery, Real, Shape, Sphere};

use crate::common::reference::{Big, big, gap, to_f64};
use crate::common::scenes::{Scenes, add, fit_all, scale};
use crate::common::{Width, point, vector};

/// The exact time at which two balls, `c_k + v_k t` with radii `r_k`, first touch, if at all;
/// `x` holds `c_0, c_1, v_0, v_1` (`d` numbers each) and `r_0, r_1`.
fn exact_time(x: &[Big], d: usize) -> Option<Big> {
    let dc: Vec<Big> = (0..d).map(|i| &x[i] - &x[d + i]).collect();
    let dv: Vec<Big> = (0..d).map(|i| &x[2 * d + i] - &x[3 * d + i]).collect();
    let dot = |a: &[Big], b: &[Big]| a.iter().zip(b).fold(big(0.0), |acc, (x, y)| acc + x * y);
    let (a, b) = (dot(&dv, &dv), dot(&dc, &dv));
    let reach = &x[4 * d] + &x[4 * d + 1];
    let c0 = dot(&dc, &dc) - &reach * &reach;
    let disc = &b * &b - &a * &c0;
    if a == big(0.0) || disc < big(0.0) {
        return None;
    }
    let t = (-b - disc.sqrt()) / a;
    (t >= big(0.0)).then_some(t)
}

/// Two balls and velocities: `c`, `v` and `r` for each. Ordinary pairs are aimed within twice
/// the reach of the other's centre; near-grazing ones pass the other's centre at `(1 − η)` times
/// the reach, `η` from `10^-9` to `10^-2`, so that the contact is where the gap barely changes.
fn ball_pair<T: Width, const D: usize>(
    s: &mut Scenes,
    grazing: bool,
) -> ([Vec<f64>; 2], [Vec<f64>; 2], [f64; 2]) {
    let c1 = fit_all::<T>(&scale(&s.in_ball(D), 10.0));
    let r = [T::fit(s.uniform(0.2, 2.0)), T::fit(s.uniform(0.2, 2.0))];
    let v1 = if s.chance(0.5) {
        vec![0.0; D]
    } else {
        fit_all::<T>(&scale(&s.in_ball(D), 1.0))
    };
    let (c0, v0) = if grazing {
        let u = s.on_sphere(D);
        let w = s.on_sphere(D);
        let along: f64 = u.iter().zip(&w).map(|(a, b)| a * b).sum();
        let side: Vec<f64> = w.iter().zip(&u).map(|(w, u)| w - along * u).collect();
        let norm = side.iter().map(|x| x * x).sum::<f64>().sqrt();
        let miss = (r[0] + r[1]) * (1.0 - s.log_uniform(-9.0, -2.0));
        let start = add(&c1, &scale(&side, miss / norm));
        let c0 = fit_all::<T>(&add(&start, &scale(&u, -s.uniform(5.0, 20.0))));
        let v0 = fit_all::<T>(&add(&v1, &scale(&u, s.uniform(0.1, 3.0))));
        (c0, v0)
    } else {
        let c0 = fit_all::<T>(&scale(&s.in_ball(D), 10.0));
        let aim = add(&c1, &scale(&s.in_ball(D), 2.0 * (r[0] + r[1])));
        let v0 = fit_all::<T>(&scale(&add(&aim, &scale(&c0, -1.0)), s.uniform(0.1, 3.0)));
        (c0, v0)
    };
    ([c0, c1], [v0, v1], r)
}

#[test]
fn times_of_impact_of_two_balls_meet_the_precision_targets() {
    fn run<T: Width, const D: usize>(seed: u64, grazing: bool) {
        let mut s = Scenes::new(seed);
        let mut worst = 0.0f64;
        let mut checked = 0;
        while checked < 500 {
            let (c, v, r) = ball_pair::<T, D>(&mut s, grazing);
            let inputs: Vec<f64> = c.concat().into_iter().chain(v.concat()).chain(r).collect();
            let exact_inputs: Vec<Big> = inputs.iter().map(|&x| big(x)).collect();
            let exact = exact_time(&exact_inputs, D);
            let ball = |k: usize| Sphere::<T, D>::new(point(&c[k]), T::from_wide(r[k])).unwrap();
            let ours = ball(0).time_of_impact(
                &vector(&v[0]),
                &ball(1),
                &vector(&v[1]),
                T::from_wide(f64::INFINITY),
            );
            let overlapping = c[0]
                .iter()
                .zip(&c[1])
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>()
                .sqrt()
                <= r[0] + r[1] + 1e-3;
            if overlapping {
                continue;
            }
            // First-order change of the time under half-ulp nudges of each input: by nudging
            // each in the exact formula; a nudge that turns a miss into a hit makes the case
            // ill-posed, and it is left out.
            let mut sensitivity = 0.0;
            let mut posed = true;
            for k in 0..inputs.len() {
                let mut change = 0.0f64;
                for sign in [-1.0, 1.0] {
                    let mut x = exact_inputs.clone();
                    x[k] += big(sign * T::ulp(inputs[k]) / 2.0);
                    let nudged = exact_time(&x, D);
                    match (&exact, &nudged) {
                        (Some(a), Some(b)) => change = change.max(to_f64(&(a - b)).abs()),
                        (None, None) => {}
                        _ => posed = false,
                    }
                }
                sensitivity += change;
            }
            if !posed {
                continue;
            }
            checked += 1;
            let what = format!("{} D={D}: c={c:?} v={v:?} r={r:?}", T::NAME);
            match (&exact, ours) {
                (None, None) => {}
                (Some(t), Some(impact)) => {
                    let time = impact.time.to_wide();
                    let ulp = T::ulp(to_f64(t));
                    let error = gap(time, t);
                    // f32: 1 ulp, whatever the conditioning; f64: 4 × (ulp/2 + first-order change).
                    let unit = if T::BITS == 24 {
                        ulp
                    } else {
                        ulp / 2.0 + sensitivity
                    };
                    let allowed = if T::BITS == 24 { ulp } else { 4.0 * unit };
                    assert!(
                        error <= allowed,
                        "{what}: time {time} vs {} ({error:e} > {allowed:e})",
                        to_f64(t)
                    );
                    worst = worst.max(error / unit);
                    // The contact point is on the other ball where it is at that time.
                    let centre: Vec<f64> = (0..D).map(|i| c[1][i] + v[1][i] * time).collect();
                    let reach = (0..D)
                        .map(|i| (impact.point[i].to_wide() - centre[i]).powi(2))
                        .sum::<f64>()
                        .sqrt();
                    assert!(
                        (reach - r[1]).abs()
                            <= 1e3
                                * T::EPSILON_WIDE
                                * (1.0 + centre.iter().fold(0.0f64, |m, x| m.max(x.abs()))),
                        "{what}: contact {reach} from the centre"
                    );
                }
                (e, o) => panic!("{what}: exact {:?}, ours {o:?}", e.as_ref().map(to_f64)),
            }
        }
        let (kind, unit) = if grazing {
            ("near-grazing", "")
        } else {
            ("ordinary", "")
        };
        eprintln!(
            "{} D={D} time of impact, {kind} pairs{unit}: at most {worst:.2} x {}",
            T::NAME,
            if T::BITS == 24 {
                "ulp"
            } else {
                "(ulp/2 + first-order change)"
            }
        );
    }
    for grazing in [false, true] {
        run::<f32, 2>(11, grazing);
        run::<f32, 3>(12, grazing);
        run::<f64, 2>(13, grazing);
        run::<f64, 3>(14, grazing);
    }
}

#[test]
fn the_time_zero_rule() {
    let a = Circle::new(Point2::new(0.0, 0.0), 1.0f64).unwrap();
    let b = Circle::new(Point2::new(2.0, 0.0), 1.0).unwrap();
    let still = Vector2::zeros();
    // Touching and closing: an impact at 0, at the contact, with b's normal there.
    let closing = a
        .time_of_impact(&Vector2::new(1.0, 0.3), &b, &still, 5.0)
        .unwrap();
    assert_eq!(closing.time, 0.0);
    assert!(
        (closing.point - Point2::new(1.0, 0.0)).norm() < 1e-12,
        "{closing:?}"
    );
    assert!((closing.normal.into_inner() + Vector2::x()).norm() < 1e-12);
    // Touching and parting, or sliding past: none.
    assert!(
        a.time_of_impact(&Vector2::new(-1.0, 0.3), &b, &still, 5.0)
            .is_none()
    );
    assert!(a.time_of_impact(&Vector2::y(), &b, &still, 5.0).is_none());
    // Overlapping with equal velocities: none.
    let c = Circle::new(Point2::new(1.5, 0.0), 1.0).unwrap();
    assert!(
        a.time_of_impact(&Vector2::x(), &c, &Vector2::x(), 5.0)
            .is_none()
    );
    // Overlapping and closing: at 0.
    assert_eq!(
        a.time_of_impact(&Vector2::x(), &c, &still, 5.0)
            .unwrap()
            .time,
        0.0
    );
    // Bad inputs: none, no panic.
    assert!(
        a.time_of_impact(&Vector2::x(), &b, &still, f64::NAN)
            .is_none()
    );
    assert!(a.time_of_impact(&Vector2::x(), &b, &still, -1.0).is_none());
    assert!(
        a.time_of_impact(&Vector2::new(f64::INFINITY, 0.0), &b, &still, 5.0)
            .is_none()
    );
    // Beyond max_time: none; at exactly max_time: the impact.
    let far = Circle::new(Point2::new(10.0, 0.0), 1.0).unwrap();
    assert!(a.time_of_impact(&Vector2::x(), &far, &still, 7.5).is_none());
    assert_eq!(
        a.time_of_impact(&Vector2::x(), &far, &still, 8.0)
            .unwrap()
            .time,
        8.0
    );
}

/// Balls bouncing off each other and off the walls of a box: after each elastic response the
/// pair that has just collided is never reported again at time 0, and each impact leaves the
/// ball touching the body it hit.
#[test]
fn bounced_pairs_are_not_reported_again() {
    let mut s = Scenes::new(21);
    let wall = Aabb::new(Point3::new(5.0, -10.0, -10.0), Point3::new(6.0, 10.0, 10.0)).unwrap();
    for _ in 0..300 {
        let a = Sphere::new(
            Point3::from(SVector::from_fn(|_, _| s.uniform(-3.0, 3.0))),
            0.5,
        )
        .unwrap();
        let v = Vector3::from_fn(|_, _| s.uniform(-1.0, 1.0)) + Vector3::new(1.5, 0.0, 0.0);
        let ball = Sphere::new(
            Point3::from(SVector::from_fn(|_, _| s.uniform(-3.0, 3.0))),
            0.7,
        )
        .unwrap();
        let w = Vector3::from_fn(|_, _| s.uniform(-1.0, 1.0));
        if ball.signed_distance(a.center()) <= 0.5 {
            continue;
        }
        for (other, other_v) in [(Body::from(wall), Vector3::zeros()), (Body::from(ball), w)] {
            let Some(hit) = a.time_of_impact(&v, &other, &other_v, f64::INFINITY) else {
                continue;
            };
            let t = hit.time;
            let centre = a.center() + v * t;
            let moved = match other {
                Body::Sphere(b) => Body::from(Sphere::new(b.center() + other_v * t, 0.7).unwrap()),
                body => body,
            };
            let gap = moved.signed_distance(&centre) - 0.5;
            assert!(gap.abs() < 1e-12, "gap {gap} at the impact");
            assert!(
                moved.signed_distance(&hit.point).abs() < 1e-12,
                "contact off the surface"
            );
            // Reflect the relative velocity about the contact normal: the pair now parts.
            let n = hit.normal.into_inner();
            let rel = v - other_v;
            let parting = rel - n * (2.0 * rel.dot(&n));
            let after = Sphere::new(centre, 0.5).unwrap();
            let again = after.time_of_impact(&(parting + other_v), &moved, &other_v, f64::INFINITY);
            assert!(
                again.is_none_or(|i| i.time > 0.0),
                "reported again: {again:?}"
            );
        }
    }
}

/// A ball overlapping a box or an ellipsoid (centre inside or outside it) at time 0: moving
/// exactly along the surface (the relative velocity orthogonal to the gradient the rule takes,
/// by construction from that gradient's own components) it keeps its distance and has no impact; moving away, none; moving in, an impact at 0 at that nearest
/// point with that normal. Both the ball or the other body may carry the motion.
fn overlapping_pairs<T: Width, const D: usize>(seed: u64)
where
    crate::scene::Rotation<D>: crate::scene::Rotated<T, D>,
{
    use crate::scene::{Rotated, Rotation};
    use rand::{Rng, SeedableRng};
    let rng = &mut rand::rngs::StdRng::seed_from_u64(seed);
    let (mut along, mut towards) = (0, 0);
    for case in 0..400 {
        let c = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-5.0..5.0));
        let half = SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.3..3.0));
        let other: Body<T, D> = if case % 2 == 0 {
            Aabb::new(at(c - half), at(c + half)).unwrap().into()
        } else {
            Ellipsoid::oriented(at(c), half.map(T::from_wide), Rotation::<D>::random(rng))
                .unwrap()
                .into()
        };
        // A centre near the surface: inside or outside, within 0.8 of the ball's radius.
        let radius = rng.random_range(0.2..1.0);
        let (q, n) = {
            let probe =
                c + half.component_mul(&SVector::from_fn(|_, _| rng.random_range(-1.3..1.3)));
            other.closest_point(&at(probe))
        };
        let depth = rng.random_range(-0.8..0.8) * radius;
        let centre: raysweep::nalgebra::Point<T, D> =
            at(q.coords.map(|x| x.to_wide()) + n.into_inner().map(|x| x.to_wide()) * depth);
        let ball = Sphere::new(centre, T::from_wide(radius)).unwrap();
        let (q, n) = other.closest_point(&centre);
        if other.signed_distance(&centre).to_wide() >= 0.8 * radius {
            continue;
        }
        let n = n.into_inner();
        // Exactly along the surface: two components of the gradient the rule takes swapped, one
        // negated. That is the normal `closest_point` gives for an ellipsoid and for a box from
        // inside; for a box from outside, the exact offset from its nearest point, tried where
        // that offset is a vector of the width (`tests/suite/time_zero.rs` builds such pairs).
        let gradient = match other {
            Body::Aabb(_) if !other.contains(&centre) => exact_difference(&centre, &q),
            _ => Some(n),
        };
        let mut slide = SVector::<T, D>::zeros();
        if let Some(g) = gradient {
            let (i, j) = (g.iamax(), (g.iamax() + 1 + rng.random_range(0..D - 1)) % D);
            slide[i] = -g[j];
            slide[j] = g[i];
        }
        let zero = SVector::<T, D>::zeros();
        let what = format!("{} D={D}: {other:?} ball {ball:?}", T::NAME);
        if slide != zero {
            along += 1;
            for (v, w) in [(slide, zero), (zero, -slide)] {
                let got = ball.time_of_impact(&v, &other, &w, T::from_wide(10.0));
                assert_eq!(got, None, "{what}: sliding with {v:?}, other {w:?}");
            }
        }
        // Away, and away while sliding: none. In: at 0, at the nearest point.
        for (v, w) in [(n, zero), (n + slide, zero), (zero, -n)] {
            let got = ball.time_of_impact(&v, &other, &w, T::from_wide(10.0));
            assert_eq!(got, None, "{what}: moving away with {v:?}, other {w:?}");
        }
        for (v, w) in [(-n, zero), (zero, n), (slide - n, zero)] {
            let got = ball
                .time_of_impact(&v, &other, &w, T::from_wide(10.0))
                .unwrap_or_else(|| panic!("{what}: no impact moving in with {v:?}, other {w:?}"));
            assert_eq!(got.time, T::from_wide(0.0), "{what}");
            assert_eq!((got.point, got.normal.into_inner()), (q, n), "{what}");
            towards += 1;
        }
    }
    assert!(
        along > 100 && towards > 300,
        "{along} sliding, {towards} closing cases"
    );
}

/// `a − b` where it is exact in the width (TwoSum's error zero, in `f64`, and the difference a
/// value of the width), `None` elsewhere.
fn exact_difference<T: Width, const D: usize>(
    a: &raysweep::nalgebra::Point<T, D>,
    b: &raysweep::nalgebra::Point<T, D>,
) -> Option<SVector<T, D>> {
    let mut out = SVector::<T, D>::zeros();
    for i in 0..D {
        let (x, y) = (a[i].to_wide(), -b[i].to_wide());
        let s = x + y;
        let yy = s - x;
        let error = (x - (s - yy)) + (y - yy);
        if error != 0.0 || T::fit(s) != s {
            return None;
        }
        out[i] = T::from_wide(s);
    }
    Some(out)
}

/// A point of either dimension from `f64` coordinates.
fn at<T: Real, const D: usize>(v: SVector<f64, D>) -> raysweep::nalgebra::Point<T, D> {
    raysweep::nalgebra::Point::from(v.map(T::from_wide))
}

#[test]
fn the_time_zero_rule_for_overlapping_boxes_and_ellipsoids() {
    overlapping_pairs::<f32, 2>(31);
    overlapping_pairs::<f32, 3>(32);
    overlapping_pairs::<f64, 2>(33);
    overlapping_pairs::<f64, 3>(34);
}
