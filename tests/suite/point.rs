//! Point queries (`PointQuery`) against the exact nearest point of `common::point`, in both widths
//! and in 2 and 3 dimensions; the rules at the edges (centres, ties, non-finite points).

use raysweep::nalgebra::{Point2, Point3, Vector2, Vector3};
use raysweep::{Aabb, Body, Circle, Ellipsoid, PointQuery, Rect, Shape, Sphere};

use crate::common::point::nearest;
use crate::common::reference::{Big, big, gap, to_f64};
use crate::common::scenes::{
    Scenes, add, box_target, ellipsoid_target, fit_all, near_box, near_ellipsoid, scale, sphere,
    squashed_ellipsoid,
};
use crate::common::{Built, Target, Width, point};

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

/// `is_within(p, d)` is exactly `signed_distance(p) <= d`, for distances at the point's own signed
/// distance and its neighbours in the width (where a ball's plain estimate cannot decide), far
/// from it, infinite and NaN; for points at every scale, where the estimate's squares underflow
/// or overflow, and NaN or infinite points.
#[test]
fn is_within_is_the_signed_distance_compared() {
    fn run<T: Width, const D: usize>(seed: u64) {
        let mut s = Scenes::new(seed);
        let mut decided = 0;
        for case in 0..3000 {
            let scale_by = 10f64.powf(s.uniform(-150.0, 150.0).round() / 5.0 * (case % 2) as f64);
            let (target, p) = families::<T>()[case % 10].1(&mut s, D);
            let target = match target {
                Target::Sphere { center, radius } => Target::Sphere {
                    center: fit_all::<T>(&scale(&center, scale_by)),
                    radius: T::fit(radius * scale_by),
                },
                other => other,
            };
            let body: Body<T, D> = match Built::<T, D>::new(&target) {
                Built::Sphere(b) => b.into(),
                Built::Ellipsoid(e) => e.into(),
                Built::Box(b) => b.into(),
            };
            let mut at = point::<T, D>(&fit_all::<T>(&scale(&p, scale_by)));
            if case % 97 == 0 {
                at[case % D] = T::from_wide(if case % 2 == 0 {
                    f64::NAN
                } else {
                    f64::INFINITY
                });
            }
            let d = body.signed_distance(&at);
            let w = d.to_wide();
            let mut limits = vec![
                T::from_wide(f64::INFINITY),
                T::from_wide(f64::NEG_INFINITY),
                T::from_wide(f64::NAN),
                T::from_wide(w * 2.0 + 1.0),
                T::from_wide(w * 0.5 - 1.0),
            ];
            if w.is_finite() {
                limits.extend([
                    d,
                    T::from_wide_up(w.next_up()),
                    T::from_wide_down(w.next_down()),
                ]);
            }
            for limit in limits {
                assert_eq!(
                    body.is_within(&at, limit),
                    d <= limit,
                    "{} D={D}: {body:?} at {at:?}, distance {d:?}, limit {limit:?}",
                    T::NAME
                );
                decided += 1;
            }
        }
        assert!(decided > 20_000);
    }
    run::<f32, 2>(41);
    run::<f32, 3>(42);
    run::<f64, 2>(43);
    run::<f64, 3>(44);
}
