//! Point queries (`PointQuery`) against the exact nearest point of `common::point`, and times of
//! impact (`Sphere::time_of_impact`) against the exact roots of the two balls' gap, in both widths
//! and in 2 and 3 dimensions; the rules at the edges (centres, ties, non-finite points, the time-0
//! rule).

use raysweep::nalgebra::{Point2, Point3, SVector, Vector2, Vector3};
use raysweep::{Aabb, Body, Circle, Ellipsoid, PointQuery, Rect, Shape, Sphere};

use crate::common::point::nearest;
use crate::common::reference::{Big, big, gap, to_f64};
use crate::common::scenes::{
    Scenes, add, box_target, ellipsoid_target, fit_all, near_box, near_ellipsoid, scale, sphere,
    squashed_ellipsoid,
};
use crate::common::{Built, Target, Width, point, vector};

type Family = fn(&mut Scenes, usize) -> (Target, Vec<f64>);

/// A point on the ray from `c` through `p`, at `1 ± δ` times the distance, `δ` log-uniform.
fn near_surface(s: &mut Scenes, c: &[f64], on: &[f64]) -> Vec<f64> {
    let delta = s.log_uniform(-12.0, -2.0) * if s.chance(0.5) { 1.0 } else { -1.0 };
    add(c, &scale(&add(on, &scale(c, -1.0)), 1.0 + delta))
}

fn families<T: Width>() -> Vec<(&'static str, Family)> {
    // Flat ellipsoids: axis ratios up to 1:10^4 in f32, 1:10^6 in f64.
    fn flat<T: Width>() -> f64 {
        if T::BITS == 24 { 4.0 } else { 6.0 }
    }
    vec![
        ("sphere", |s, d| {
            let c = fit_all::<T>(&scale(&s.in_ball(d), 10.0));
            let r = T::fit(s.uniform(0.5, 2.0));
            let p = add(&c, &scale(&s.in_ball(d), 1.5 * r));
            (sphere(c, r), p)
        }),
        ("sphere, near its surface", |s, d| {
            let c = fit_all::<T>(&scale(&s.in_ball(d), 10.0));
            let r = T::fit(s.log_uniform(-3.0, 3.0));
            let on = add(&c, &scale(&s.on_sphere(d), r));
            (sphere(c.clone(), r), near_surface(s, &c, &on))
        }),
        ("sphere, near its centre", |s, d| {
            let c = fit_all::<T>(&scale(&s.in_ball(d), 10.0));
            let p = add(&c, &scale(&s.in_ball(d), 1e-6));
            (sphere(c, 1.0), p)
        }),
        ("box", |s, d| {
            let c = scale(&s.in_ball(d), 10.0);
            let h: Vec<f64> = (0..d).map(|_| s.uniform(0.2, 3.0)).collect();
            let p = near_box(s, &c, &h, 1.5);
            (box_target::<T>(&c, &h), p)
        }),
        ("box, far", |s, d| {
            let c = scale(&s.in_ball(d), 10.0);
            let h: Vec<f64> = (0..d).map(|_| s.uniform(0.2, 3.0)).collect();
            let p = scale(&s.on_sphere(d), s.log_uniform(2.0, 6.0));
            (box_target::<T>(&c, &h), p)
        }),
        ("ellipsoid", |s, d| {
            let rotated = s.chance(0.5);
            let target = ellipsoid_target::<T>(s, d, 1.0, rotated);
            let p = near_ellipsoid(s, &target, 1.5);
            (target, p)
        }),
        ("ellipsoid, near its surface", |s, d| {
            let rotated = s.chance(0.5);
            let target = ellipsoid_target::<T>(s, d, 1.0, rotated);
            let Target::Ellipsoid { center, .. } = &target else {
                unreachable!()
            };
            let c = center.clone();
            let on = near_ellipsoid(s, &target, 1.0);
            let p = near_surface(s, &c, &on);
            (target, p)
        }),
        ("ellipsoid, near its centre", |s, d| {
            let rotated = s.chance(0.5);
            let target = ellipsoid_target::<T>(s, d, 1.0, rotated);
            let p = near_ellipsoid(s, &target, 1e-4);
            (target, p)
        }),
        ("flat ellipsoid", |s, d| {
            let rotated = s.chance(0.5);
            let target = squashed_ellipsoid::<T>(s, d, (flat::<T>() - 1.0, flat::<T>()), rotated);
            let within = if s.chance(0.5) { 1.0 } else { 1.5 };
            let p = near_ellipsoid(s, &target, within);
            (target, p)
        }),
        ("ellipsoid, far", |s, d| {
            let rotated = s.chance(0.5);
            let target = ellipsoid_target::<T>(s, d, 1.0, rotated);
            let p = scale(&s.on_sphere(d), s.log_uniform(2.0, 6.0));
            (target, p)
        }),
    ]
}

/// The largest coordinate of a point, for normwise errors.
fn size(v: &[Big]) -> f64 {
    v.iter().map(|x| to_f64(x).abs()).fold(0.0, f64::max)
}

fn check<T: Width, const D: usize>(name: &str, target: &Target, p: &[f64]) -> (f64, f64) {
    let body: Body<T, D> = match Built::<T, D>::new(target) {
        Built::Sphere(s) => s.into(),
        Built::Ellipsoid(e) => e.into(),
        Built::Box(b) => b.into(),
    };
    let at = point::<T, D>(p);
    let exact = nearest(target, p, T::ulp);
    let distance = body.signed_distance(&at).to_wide();
    let (q, normal) = body.closest_point(&at);
    let q: Vec<f64> = q.iter().map(|x| x.to_wide()).collect();
    let what = format!("{} {name} D={D}: {target:?} p={p:?}", T::NAME);
    // The distance: 1 ulp in f32; in f64, 4 × (ulp/2 + its first-order change).
    let exact_d = to_f64(&exact.distance);
    let ulp = T::ulp(exact_d);
    let error = gap(distance, &exact.distance);
    let allowed = if T::BITS == 24 {
        ulp
    } else {
        4.0 * (ulp / 2.0 + exact.sensitivity)
    };
    assert!(
        error <= allowed,
        "{what}: distance {distance} vs {exact_d} ({error:e} > {allowed:e})"
    );
    assert_eq!(
        body.contains(&at),
        distance <= 0.0,
        "{what}: contains disagrees with {distance}"
    );
    // The point: where the nearest point is unique and depends continuously on the input
    // (outside), within the same bound normwise; everywhere, on the surface and `|distance|`
    // from `p`, as the exact answers for the rounded point say.
    let scale_q = size(&exact.point);
    let point_allowed = |sensitivity: f64| {
        if T::BITS == 24 {
            T::ulp(scale_q)
        } else {
            4.0 * (T::ulp(scale_q) / 2.0 + sensitivity)
        }
    };
    let qb: Vec<Big> = q.iter().map(|&x| big(x)).collect();
    let q_error = (0..D)
        .map(|i| gap(q[i], &exact.point[i]))
        .fold(0.0, f64::max);
    if exact_d > 0.0 {
        let allowed = point_allowed(exact.point_sensitivity);
        assert!(
            q_error <= allowed,
            "{what}: point {q:?} off by {q_error:e} > {allowed:e}"
        );
        let n_error = (0..D)
            .map(|i| (normal[i].to_wide() - exact.normal[i]).abs())
            .fold(0.0, f64::max);
        if exact_d > 1e-6 * scale_q {
            assert!(
                n_error <= 8.0 * T::EPSILON_WIDE / (exact_d / scale_q).min(1.0),
                "{what}: normal {normal:?} off by {n_error:e}"
            );
        }
    } else {
        let on = nearest(target, &q, T::ulp);
        let off = to_f64(&on.distance).abs();
        let allowed = 2.0 * point_allowed(exact.point_sensitivity);
        assert!(
            off <= allowed,
            "{what}: point {q:?} is {off:e} off the surface"
        );
        let reach = qb
            .iter()
            .zip(p)
            .fold(big(0.0), |acc, (a, &b)| acc + (a - big(b)).sqr())
            .sqrt();
        let mismatch = gap(to_f64(&reach), &(-exact.distance.clone()));
        assert!(
            mismatch <= allowed,
            "{what}: point {q:?} is {} from p, not {exact_d}",
            to_f64(&reach)
        );
    }
    let unit = normal.iter().map(|x| x.to_wide().powi(2)).sum::<f64>();
    assert!(
        (unit - 1.0).abs() <= 4.0 * T::EPSILON_WIDE,
        "{what}: normal not unit"
    );
    // In units of the target: 1 ulp in f32, 4 × (ulp/2 + first-order change) in f64.
    let point_bound = point_allowed(exact.point_sensitivity);
    (error / allowed, q_error / point_bound)
}

fn run<T: Width, const D: usize>(seed: u64, cases: usize) {
    for (k, (name, family)) in families::<T>().into_iter().enumerate() {
        let mut s = Scenes::new(seed + k as u64);
        let (mut worst_d, mut worst_q) = (0.0f64, 0.0f64);
        for _ in 0..cases {
            let (target, p) = family(&mut s, D);
            let p = fit_all::<T>(&p);
            let (d, q) = check::<T, D>(name, &target, &p);
            worst_d = worst_d.max(d);
            worst_q = worst_q.max(q);
        }
        eprintln!(
            "{} D={D} {name}: distance {worst_d:.3}, point {worst_q:.3} of the bound",
            T::NAME
        );
    }
}

#[test]
fn point_queries_meet_the_precision_targets() {
    run::<f32, 2>(1, 400);
    run::<f32, 3>(2, 400);
    run::<f64, 2>(3, 400);
    run::<f64, 3>(4, 400);
}

#[test]
fn where_the_nearest_point_is_not_unique() {
    // A ball's centre: along the first axis.
    let s = Sphere::new(Point3::new(1.0, 2.0, 3.0), 2.0).unwrap();
    let (q, n) = s.closest_point(&Point3::new(1.0, 2.0, 3.0));
    assert_eq!(
        (q, n.into_inner()),
        (Point3::new(3.0, 2.0, 3.0), Vector3::x())
    );
    assert_eq!(s.signed_distance(&Point3::new(1.0, 2.0, 3.0)), -2.0);
    // An ellipsoid's centre: the first smallest semi-axis, positive end.
    let e = Ellipsoid::new(Point3::origin(), Vector3::new(2.0f32, 1.0, 1.0)).unwrap();
    let (q, n) = e.closest_point(&Point3::origin());
    assert_eq!(
        (q, n.into_inner()),
        (Point3::new(0.0, 1.0, 0.0), Vector3::y())
    );
    // A box's centre: the lowest axis, its min face.
    let b = Rect::new(Point2::new(0.0, 0.0), Point2::new(2.0f64, 2.0)).unwrap();
    let (q, n) = b.closest_point(&Point2::new(1.0, 1.0));
    assert_eq!((q, n.into_inner()), (Point2::new(0.0, 1.0), -Vector2::x()));
    assert_eq!(b.signed_distance(&Point2::new(1.0, 1.0)), -1.0);
    // A point ball (radius 0) at its own centre is at distance 0.
    let dot = Circle::new(Point2::new(1.0f32, 1.0), 0.0).unwrap();
    assert_eq!(dot.signed_distance(&Point2::new(1.0, 1.0)), 0.0);
}

#[test]
fn non_finite_and_huge_points() {
    let s = Sphere::new(Point3::new(0.0, 0.0, 0.0), 1.0f64).unwrap();
    let b = Aabb::new(Point3::origin(), Point3::new(1.0f32, 1.0, 1.0)).unwrap();
    let nan = Point3::new(f64::NAN, 0.0, 0.0);
    assert!(s.signed_distance(&nan).is_nan());
    let nan32 = Point3::new(0.5, 0.5, f32::NAN);
    assert!(b.signed_distance(&nan32).is_nan());
    assert!(b.closest_point(&nan32).0.x.is_nan());
    let far = Point3::new(f64::INFINITY, 0.0, 0.0);
    assert_eq!(s.signed_distance(&far), f64::INFINITY);
    assert_eq!(s.closest_point(&far).0, Point3::new(1.0, 0.0, 0.0));
    let far32 = Point3::new(0.5, f32::NEG_INFINITY, 0.5);
    assert_eq!(b.signed_distance(&far32), f32::INFINITY);
    assert_eq!(b.closest_point(&far32).0, Point3::new(0.5, 0.0, 0.5));
    // Differences that overflow f64: 2^1023 − (−2^1023) = 2^1024.
    let big = 2f64.powi(1023);
    let left = Sphere::new(Point3::new(-big, 0.0, 0.0), 1.0).unwrap();
    assert_eq!(
        left.signed_distance(&Point3::new(big, 0.0, 0.0)),
        f64::INFINITY
    );
    let (q, n) = left.closest_point(&Point3::new(big, 0.0, 0.0));
    assert_eq!(
        (q, n.into_inner()),
        (Point3::new(-big + 1.0, 0.0, 0.0), Vector3::x())
    );
    let wide = Aabb::new(
        Point3::new(-f64::MAX, 0.0, 0.0),
        Point3::new(f64::MAX, 1.0, 1.0),
    )
    .unwrap();
    assert_eq!(wide.signed_distance(&Point3::new(0.0, 0.5, 0.25)), -0.25);
    let e = Ellipsoid::new(Point3::new(-big, 0.0, 0.0), Vector3::new(1.0, 2.0, 3.0)).unwrap();
    assert_eq!(
        e.signed_distance(&Point3::new(big, 0.0, 0.0)),
        f64::INFINITY
    );
    assert_eq!(
        e.closest_point(&Point3::new(big, 0.0, 0.0)).0,
        Point3::new(-big + 1.0, 0.0, 0.0)
    );
}

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

#[test]
fn times_of_impact_of_two_balls_meet_the_precision_targets() {
    fn run<T: Width, const D: usize>(seed: u64) {
        let mut s = Scenes::new(seed);
        let mut worst = 0.0f64;
        let mut checked = 0;
        while checked < 500 {
            let c = [
                fit_all::<T>(&scale(&s.in_ball(D), 10.0)),
                fit_all::<T>(&scale(&s.in_ball(D), 10.0)),
            ];
            let r = [T::fit(s.uniform(0.2, 2.0)), T::fit(s.uniform(0.2, 2.0))];
            // Aimed within twice the reach of the other's centre, so that most pairs meet.
            let aim = add(&c[1], &scale(&s.in_ball(D), 2.0 * (r[0] + r[1])));
            let v = [
                fit_all::<T>(&scale(&add(&aim, &scale(&c[0], -1.0)), s.uniform(0.1, 3.0))),
                fit_all::<T>(&scale(&s.in_ball(D), 1.0)),
            ];
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
                    let allowed = 4.0 * (ulp / 2.0 + sensitivity);
                    assert!(
                        error <= allowed,
                        "{what}: time {time} vs {} ({error:e} > {allowed:e})",
                        to_f64(t)
                    );
                    worst = worst.max(error / (ulp / 2.0 + sensitivity));
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
        eprintln!(
            "{} D={D} time of impact: at most {worst:.2} x (ulp/2 + first-order change)",
            T::NAME
        );
    }
    run::<f32, 2>(11);
    run::<f32, 3>(12);
    run::<f64, 2>(13);
    run::<f64, 3>(14);
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
