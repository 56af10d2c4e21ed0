//! Invariants of ray casts, checked with quickcheck on seeded random scenes in both widths and in
//! 2D and 3D. Each property draws a seed; the scene is built from it by `common::scenes`, so a
//! failure names a seed that reproduces it.

use crate::common;

use common::reference::{Change, crossing};
use common::scenes::{Scenes, ordinary_box, ordinary_sphere, rotated_ellipsoid};
use common::{Built, Case, Target, Width, ours, ray};
use quickcheck::{Gen, QuickCheck, TestResult};
use raysweep::Hit;
use raysweep::nalgebra::Point;

const TESTS: u64 = 1000;

fn check(property: fn(u64) -> TestResult) {
    check_n(property, TESTS);
}

fn check_n(property: fn(u64) -> TestResult, tests: u64) {
    QuickCheck::new()
        .rng(Gen::from_size_and_seed(100, 0x7a95_5eed))
        .tests(tests)
        .quickcheck(property);
}

/// A sphere, an ellipsoid or a box (by the seed), with a ray aimed near it.
fn scene<T: Width, const D: usize>(seed: u64) -> Case {
    let mut s = Scenes::new(seed);
    match seed % 3 {
        0 => ordinary_sphere::<T, D>(&mut s),
        1 => rotated_ellipsoid::<T, D>(&mut s),
        _ => ordinary_box::<T, D>(&mut s),
    }
}

/// The case with every length multiplied by `factor` (a power of two, so exactly).
fn scaled(case: &Case, factor: f64) -> Case {
    let s = |v: &Vec<f64>| v.iter().map(|x| x * factor).collect::<Vec<f64>>();
    let target = match &case.target {
        Target::Sphere { center, radius } => Target::Sphere {
            center: s(center),
            radius: radius * factor,
        },
        Target::Ellipsoid {
            center,
            semi_axes,
            rotation,
        } => Target::Ellipsoid {
            center: s(center),
            semi_axes: s(semi_axes),
            rotation: rotation.clone(),
        },
        Target::Box { min, max } => Target::Box {
            min: s(min),
            max: s(max),
        },
    };
    Case {
        target,
        origin: s(&case.origin),
        max_distance: case.max_distance * factor,
        ..case.clone()
    }
}

fn bits<T: Width, const D: usize>(hit: &Option<Hit<T, D>>) -> Option<Vec<u64>> {
    hit.as_ref().map(|h| {
        let mut v = vec![h.distance.to_wide().to_bits()];
        v.extend(h.point.iter().map(|x| x.to_wide().to_bits()));
        v.extend(h.normal.iter().map(|x| x.to_wide().to_bits()));
        v
    })
}

fn power_of_two_scaling<T: Width, const D: usize>(seed: u64) -> TestResult {
    let case = scene::<T, D>(seed);
    let k = (seed >> 8) % 41;
    let factor = 2f64.powi(k as i32 - 20);
    let (a, b) = (ours::<T, D>(&case), ours::<T, D>(&scaled(&case, factor)));
    let scale_hit = |h: &Option<Hit<T, D>>| {
        h.map(|h| Hit {
            distance: T::from_wide(h.distance.to_wide() * factor),
            point: Point::from(h.point.coords.map(|x| T::from_wide(x.to_wide() * factor))),
            normal: h.normal,
        })
    };
    let span = |s: Option<raysweep::Span<T>>, f: f64| {
        s.map(|s| (s.enter.to_wide() * f, s.exit.to_wide() * f))
    };
    TestResult::from_bool(
        bits(&scale_hit(&a.hit)) == bits(&b.hit) && span(a.span, factor) == span(b.span, 1.0),
    )
}

/// The hit of a case that does not start in contact, or `None`.
fn hit_ahead<T: Width, const D: usize>(case: &Case) -> Option<Hit<T, D>> {
    ours::<T, D>(case).hit.filter(|h| h.distance != T::zero())
}

/// Whether nudging the contact point four ulps (of its largest coordinate) along the normal takes
/// it out of the solid, and against the normal into it.
fn on_surface<T: Width, const D: usize>(case: &Case, hit: &Hit<T, D>) -> bool {
    let built = Built::<T, D>::new(&case.target);
    let size = hit
        .point
        .iter()
        .fold(1.0f64, |m, x| m.max(x.to_wide().abs()));
    let step = hit.normal.into_inner() * T::from_wide(4.0 * T::ulp(size));
    !built.shape().contains(&(hit.point + step)) && built.shape().contains(&(hit.point - step))
}

/// A ray's contact point lies on the surface.
fn hit_point_on_surface<T: Width, const D: usize>(seed: u64) -> TestResult {
    let case = scene::<T, D>(seed);
    match hit_ahead::<T, D>(&case) {
        Some(hit) => TestResult::from_bool(on_surface(&case, &hit)),
        None => TestResult::discard(),
    }
}

/// Points of the ray before the hit are outside the solid (rays aimed at the target's middle, so
/// that the samples keep clear of the surface).
fn clear_before_hit<T: Width, const D: usize>(seed: u64) -> TestResult {
    let case = scene::<T, D>(seed);
    let built = Built::<T, D>::new(&case.target);
    let ray = ray::<T, D>(&case);
    if built.shape().contains(ray.origin()) {
        return TestResult::discard();
    }
    let Some(hit) = built.shape().cast_ray(&ray, T::from_wide(f64::INFINITY)) else {
        return TestResult::discard();
    };
    if crossing(&case, Change::Grow { factor: -0.5 }).is_none() {
        return TestResult::discard(); // a ray near the rim: samples would graze the surface
    }
    let d = hit.distance.to_wide();
    TestResult::from_bool((0..16).all(|k| {
        !built
            .shape()
            .contains(&ray.at(T::from_wide(d * k as f64 / 16.0)))
    }))
}

/// `cast_rays` gives exactly the bits of `cast_ray`, ray by ray.
fn batch_equals_single<T: Width, const D: usize>(seed: u64) -> TestResult {
    let case = scene::<T, D>(seed);
    let built = Built::<T, D>::new(&case.target);
    let rays: Vec<_> = (0..32)
        .map(|i| ray::<T, D>(&scene::<T, D>(seed.wrapping_add(3 * i))))
        .collect();
    let max = T::from_wide(case.max_distance);
    let mut hits = vec![None; rays.len()];
    built.shape().cast_rays(&rays, max, &mut hits);
    TestResult::from_bool(
        rays.iter()
            .zip(&hits)
            .all(|(r, h)| bits(&built.shape().cast_ray(r, max)) == bits(h)),
    )
}

/// The same scene in f32 and in f64 hits or misses alike, except in the tangency band (where
/// growing or shrinking the target by 2^-12 changes the answer).
/// Gram-Schmidt on the columns of a row-major `d × d` matrix, in f64.
fn orthonormalised(m: &[f64], d: usize) -> Vec<f64> {
    let mut out = m.to_vec();
    for j in 0..d {
        for k in 0..j {
            let dot: f64 = (0..d).map(|i| out[i * d + j] * out[i * d + k]).sum();
            for i in 0..d {
                out[i * d + j] -= dot * out[i * d + k];
            }
        }
        let norm = (0..d).map(|i| out[i * d + j].powi(2)).sum::<f64>().sqrt();
        for i in 0..d {
            out[i * d + j] /= norm;
        }
    }
    out
}

fn widths_agree<const D: usize>(seed: u64) -> TestResult {
    let narrow = scene::<f32, D>(seed);
    // An f32 rotation is orthonormal only to f32 precision: re-orthonormalise it for f64.
    let target = match &narrow.target {
        Target::Ellipsoid {
            center,
            semi_axes,
            rotation: Some(m),
        } => Target::Ellipsoid {
            center: center.clone(),
            semi_axes: semi_axes.clone(),
            rotation: Some(orthonormalised(m, D)),
        },
        other => other.clone(),
    };
    let wide = common::scenes::with_dir::<f64, D>(
        target,
        narrow.origin.clone(),
        &narrow.raw_dir,
        f64::INFINITY,
    );
    let a = ours::<f32, D>(&Case {
        max_distance: f64::INFINITY,
        ..narrow
    });
    let b = ours::<f64, D>(&wide);
    let band = crossing(
        &wide,
        Change::Grow {
            factor: 1.0 / 4096.0,
        },
    )
    .is_some()
        != crossing(
            &wide,
            Change::Grow {
                factor: -1.0 / 4096.0,
            },
        )
        .is_some();
    TestResult::from_bool(
        band || (a.hit.is_some() == b.hit.is_some() && a.span.is_some() == b.span.is_some()),
    )
}

/// Fewer cases for the properties that solve the reference at several points per case.
const REFERENCE_TESTS: u64 = 150;

/// A scene of [`scene`] with a moving ball whose radius (from the seed) is 0.05 to 2 times the
/// target's size.
fn sweep_scene<T: Width, const D: usize>(seed: u64) -> Case {
    let case = scene::<T, D>(seed);
    let ball = T::fit(0.05 + 1.95 * ((seed >> 16) % 1000) as f64 / 1000.0);
    Case { ball, ..case }
}

/// The contact point of a sphere cast is on the target (a few ulps along the normal leave it, a
/// few against enter it) and a ball radius from the centre at contact.
fn sweep_contact_on_surface<T: Width, const D: usize>(seed: u64) -> TestResult {
    let case = sweep_scene::<T, D>(seed);
    let Some(hit) = hit_ahead::<T, D>(&case) else {
        return TestResult::discard();
    };
    let size = hit
        .point
        .iter()
        .fold(1.0f64, |m, x| m.max(x.to_wide().abs()));
    // The centre at contact, formed in f64: its error is the distance's, at most a few ulps.
    let d = hit.distance.to_wide();
    let reach = (0..D)
        .map(|i| (case.origin[i] + d * case.dir[i] - hit.point[i].to_wide()).powi(2))
        .sum::<f64>()
        .sqrt();
    let at_radius = (reach - case.ball).abs() <= 8.0 * (T::ulp(d) + T::ulp(size));
    TestResult::from_bool(on_surface(&case, &hit) && at_radius)
}

/// Before the first contact the ball is clear of the target: at sixteen earlier centres the
/// independent reference finds no overlap. Rays aimed at the target's middle, so that the samples
/// keep clear of tangency.
fn sweep_clear_before_contact<T: Width, const D: usize>(seed: u64) -> TestResult {
    let case = sweep_scene::<T, D>(seed);
    if crossing(&case, Change::Grow { factor: -0.5 }).is_none() {
        return TestResult::discard();
    }
    let Some(hit) = hit_ahead::<T, D>(&case) else {
        return TestResult::discard();
    };
    let ray = ray::<T, D>(&case);
    let d = hit.distance.to_wide();
    TestResult::from_bool((0..16).all(|k| {
        let centre = ray.at(T::from_wide(d * k as f64 / 16.0));
        let at = Case {
            origin: centre.iter().map(|x| x.to_wide()).collect(),
            ..case.clone()
        };
        crossing(&at, Change::None).is_none_or(|c| !c.inside)
    }))
}

/// A sphere cast with radius 0 is `cast_ray`, bit for bit, and its span is `ray_span`.
fn zero_radius_is_a_ray<T: Width, const D: usize>(seed: u64) -> TestResult {
    let case = scene::<T, D>(seed);
    let built = Built::<T, D>::new(&case.target);
    let ray = ray::<T, D>(&case);
    let max = T::from_wide(case.max_distance);
    let shape = built.shape();
    TestResult::from_bool(
        bits(&shape.cast_sphere(&ray, T::zero(), max)) == bits(&shape.cast_ray(&ray, max))
            && shape.sphere_span(&ray, T::zero()) == shape.ray_span(&ray),
    )
}

macro_rules! in_all_widths_and_dimensions {
    ($($name:ident => $property:ident),* $(,)?) => {$(
        #[test]
        fn $name() {
            check($property::<f32, 2>);
            check($property::<f32, 3>);
            check($property::<f64, 2>);
            check($property::<f64, 3>);
        }
    )*};
}

in_all_widths_and_dimensions! {
    scaling_by_a_power_of_two_scales_distances_exactly => power_of_two_scaling,
    the_hit_point_lies_on_the_surface => hit_point_on_surface,
    no_point_before_the_hit_is_inside => clear_before_hit,
    cast_rays_equals_cast_ray_bit_for_bit => batch_equals_single,
    sphere_cast_contact_is_on_the_target_at_the_radius => sweep_contact_on_surface,
    sphere_cast_with_radius_zero_is_cast_ray => zero_radius_is_a_ray,
}

#[test]
fn sphere_cast_ball_is_clear_before_contact() {
    check_n(sweep_clear_before_contact::<f32, 2>, REFERENCE_TESTS);
    check_n(sweep_clear_before_contact::<f32, 3>, REFERENCE_TESTS);
    check_n(sweep_clear_before_contact::<f64, 2>, REFERENCE_TESTS);
    check_n(sweep_clear_before_contact::<f64, 3>, REFERENCE_TESTS);
}

#[test]
fn f32_and_f64_agree_on_hit_or_miss_away_from_tangency() {
    check(widths_agree::<2>);
    check(widths_agree::<3>);
}
