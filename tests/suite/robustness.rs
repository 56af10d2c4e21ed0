//! No input makes raysweep panic or return a malformed answer: seeded property tests over raw bit
//! patterns of f32 and f64 (NaN, both infinities, both zeros, subnormals, values near the largest
//! finite, ordinary values), in 2D and 3D, for every constructor and every cast. The checks are
//! in `robust/mod.rs`, shared with the fuzz target (`fuzz/`), whose corpus is replayed here too.

use crate::robust;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point2, Point3, Vector2, Vector3};
use raysweep::{Aabb, Cast, Ellipsoid, Ray, Sphere};
use robust::{Numbers, Raw, check, replay};

/// With probability `wild`, a value from one of the interesting classes of bit patterns; else
/// (and sometimes anyway) an ordinary one.
fn special<T: Raw>(rng: &mut StdRng, wild: f64) -> T {
    let wide = |x: f64| T::from_wide(x);
    let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
    let class = if rng.random_bool(wild) {
        rng.random_range(0..12)
    } else {
        7
    };
    match class {
        0 => wide(f64::NAN),
        1 => wide(sign * f64::INFINITY),
        2 => wide(sign * 0.0),
        // Subnormal: the smallest normal times a random fraction.
        3 => T::from_wide(sign * T::from_raw(1 << 20).to_wide() * rng.random_range(0.0..1.0)),
        // Within a factor of 2 of the largest finite value.
        4 => T::from_wide(sign * T::MAX_WIDE * rng.random_range(0.5..1.0)),
        5 => T::from_raw(rng.random()),
        6 => wide(sign * 10f64.powf(rng.random_range(-40.0..40.0))),
        // Ordinary values, the most likely to build valid shapes and hitting rays.
        _ => wide(rng.random_range(-10.0..10.0)),
    }
}

/// Cases with special values everywhere, in a third of the numbers, and in one in twenty (so
/// that most shapes and rays are valid and the casts hit).
fn run<T: Raw, const D: usize>(cases: u64) {
    let mut hits = 0;
    for seed in 0..cases {
        let mut rng = StdRng::seed_from_u64(seed ^ (D as u64) << 40 ^ (T::BYTES as u64) << 48);
        let wild = [1.0, 0.3, 0.05][seed as usize % 3];
        let mut next = || special::<T>(&mut rng, wild);
        hits += check::<T, D>(&mut Numbers::new(&mut next), &format!("{}D seed {seed}", D));
    }
    // The casts were reached: a few percent of the cases hit something.
    assert!(
        hits > cases as usize / 50,
        "only {hits} hits in {cases} cases"
    );
}

#[test]
fn f32_2d_special_values() {
    run::<f32, 2>(20000);
}

#[test]
fn f32_3d_special_values() {
    run::<f32, 3>(20000);
}

#[test]
fn f64_2d_special_values() {
    run::<f64, 2>(20000);
}

#[test]
fn f64_3d_special_values() {
    run::<f64, 3>(20000);
}

/// Extreme but valid directions are accepted and normalised along themselves.
#[test]
fn subnormal_and_huge_directions_are_normalised() {
    let tiny = f32::from_bits(1); // the smallest subnormal
    let values: [[f32; 3]; 4] = [
        [tiny, tiny, 0.0],
        [f32::MAX, f32::MAX, -f32::MAX],
        [f32::MAX, tiny, 0.0],
        [1e-40, -3e-41, 2e-42],
    ];
    // The first numbers of a case are the ray's origin, then its direction.
    for v in values {
        let mut ordered = [0.0f32; 3].into_iter().chain(v).chain([0.0; 64]);
        let mut numbers = || ordered.next().unwrap_or(0.0);
        let _ = check::<f32, 3>(&mut Numbers::new(&mut numbers), &format!("direction {v:?}"));
    }
    let tiny = f64::from_bits(1);
    for v in [
        [tiny, -tiny],
        [f64::MAX, f64::MAX],
        [f64::MAX, tiny],
        [-f64::MAX, 1e-300],
    ] {
        let mut ordered = [0.0f64, 0.0].into_iter().chain(v).chain([0.0; 64]);
        let mut numbers = || ordered.next().unwrap_or(0.0);
        let _ = check::<f64, 2>(&mut Numbers::new(&mut numbers), &format!("direction {v:?}"));
    }
}

/// A direction component below `2^-1022` (an `f64` subnormal) is stored as zero by every
/// constructor, and casts answer for the ray as stored; `f32` has no component that small.
#[test]
fn subnormal_direction_components_are_stored_as_zero() {
    let tiny = 1e-320;
    let ray = Ray::new(Point2::new(-1.5, -tiny), Vector2::new(1.0, -tiny)).unwrap();
    assert_eq!(ray.dir().into_inner(), Vector2::new(1.0, 0.0));
    let (between, _) = Ray::between(Point2::origin(), Point2::new(1.0, tiny)).unwrap();
    assert_eq!(between.dir().into_inner(), Vector2::new(1.0, 0.0));
    // The stored ray runs parallel to the face y = 0, just below it.
    let rect = Aabb::new(Point2::new(-1.0, 0.0), Point2::new(1.0, 1.0)).unwrap();
    assert_eq!(rect.cast_ray(&ray, f64::INFINITY), None);
    let along = Ray::new(Point2::new(-1.5, 0.0), Vector2::new(1.0, tiny)).unwrap();
    assert_eq!(rect.cast_ray(&along, f64::INFINITY).unwrap().distance, 0.5);
    let narrow = Ray::new(Point2::origin(), Vector2::new(1.0f32, 1e-40)).unwrap();
    assert_eq!(narrow.dir().y, 1e-40);
}

/// The fuzzers' corpora and crash reproducers (`tests/fuzz/`), replayed through both targets.
#[test]
fn fuzz_corpus_and_regressions() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fuzz");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        if entry.path().is_dir() {
            for input in std::fs::read_dir(entry.path()).unwrap().flatten() {
                let bytes = std::fs::read(input.path()).unwrap();
                let label = input.path().display().to_string();
                replay::<f32>(&bytes, &label);
                replay::<f64>(&bytes, &label);
                files += 1;
            }
        }
    }
    assert!(files > 0, "no fuzz inputs found in {dir}");
}

/// An entry farther than `f64::MAX` is no hit, not an infinite distance, even with an infinite
/// `max_distance` (the casts clamp the reach to `f64::MAX` and then need not test an `f64`
/// distance for finiteness): single and batch casts, for each shape.
#[test]
fn an_entry_beyond_the_largest_f64_is_no_hit() {
    let far = f64::MAX / 2.0;
    let ray = Ray::new(Point3::new(-f64::MAX, 0.0, 0.0), Vector3::x()).unwrap();
    let rays = [ray; 5];
    let boxed = Aabb::new(
        Point3::new(far, -1.0, -1.0),
        Point3::new(f64::MAX, 1.0, 1.0),
    )
    .unwrap();
    let ball = Sphere::new(Point3::new(far, 0.0, 0.0), 1.0).unwrap();
    let egg = Ellipsoid::new(Point3::new(far, 0.0, 0.0), Vector3::new(1.0, 2.0, 3.0)).unwrap();
    fn none_at_any_reach<S: Cast<f64, 3>>(shape: &S, ray: &Ray<f64, 3>, rays: &[Ray<f64, 3>]) {
        assert_eq!(shape.cast_ray(ray, f64::INFINITY), None);
        assert_eq!(shape.cast_sphere(ray, 0.5, f64::INFINITY), None);
        let mut hits = vec![None; rays.len()];
        shape.cast_rays(rays, f64::INFINITY, &mut hits);
        assert!(hits.iter().all(Option::is_none), "{hits:?}");
    }
    none_at_any_reach(&boxed, &ray, &rays);
    none_at_any_reach(&ball, &ray, &rays);
    none_at_any_reach(&egg, &ray, &rays);
}

/// An `f32` origin exactly on an ellipsoid's surface, where the offset in the unit-ball frame
/// (`3/5`, `4/5`, ...) is not representable: the cast decides whether it starts inside as
/// [`raysweep::Shape::contains`] does, from the offset formed exactly, although its plain
/// evaluation starts from a rounded one. Pythagorean triples and quadruples put the origins on
/// the surface; a ray leaving outwards hits (at its origin) exactly when the origin is contained.
#[test]
fn an_origin_on_an_ellipsoid_is_inside_for_the_cast_as_for_contains() {
    use raysweep::Shape;
    let on_surface: [([f32; 3], f32); 11] = [
        ([3.0, 4.0, 0.0], 5.0),
        ([5.0, 12.0, 0.0], 13.0),
        ([8.0, 15.0, 0.0], 17.0),
        ([7.0, 24.0, 0.0], 25.0),
        ([20.0, 21.0, 0.0], 29.0),
        ([1.0, 2.0, 2.0], 3.0),
        ([2.0, 3.0, 6.0], 7.0),
        ([1.0, 4.0, 8.0], 9.0),
        ([4.0, 4.0, 7.0], 9.0),
        ([2.0, 6.0, 9.0], 11.0),
        ([6.0, 6.0, 7.0], 11.0),
    ];
    let centre = Point3::new(100.0f32, -50.0, 25.0);
    let mut contained = 0;
    for (offset, length) in on_surface {
        for scale in [1.0f32, 0.125, 1024.0] {
            let offset = Vector3::from(offset) * scale;
            let semi_axes = Vector3::repeat(length * scale);
            let e = Ellipsoid::new(centre, semi_axes).unwrap();
            let origin = centre + offset;
            let ray = Ray::new(origin, offset).unwrap();
            let inside = e.contains(&origin);
            contained += usize::from(inside);
            assert_eq!(
                e.cast_ray(&ray, 1.0).is_some(),
                inside,
                "{origin:?} on {e:?}"
            );
        }
    }
    assert!(contained > 0, "no origin on the surface was contained");
}

/// An `f32` entry whose distance rounds to `f32::MAX` is a hit at that distance, and one that
/// rounds to infinity is none, single and batched, with an infinite `max_distance` (the casts
/// clamp the reach to the largest `f64` that rounds to a finite `f32`, and then need not test the
/// rounded distance). The distances are exact in `f64`: `f32::MAX + 2^102` rounds down to
/// `f32::MAX`; `2^128 − 2^103`, halfway to `2^128`, rounds to infinity.
#[test]
fn an_f32_entry_is_a_hit_exactly_where_its_distance_rounds_to_a_finite_f32() {
    let max = f32::MAX as f64;
    for (origin, plane, distance) in [
        (-(2f64.powi(102)), max, Some(f32::MAX)),
        (-(2f64.powi(127)), 2f64.powi(127) - 2f64.powi(103), None),
    ] {
        let (origin, plane) = (origin as f32, plane as f32);
        assert_eq!(
            (plane as f64 - origin as f64) as f32 == f32::INFINITY,
            distance.is_none()
        );
        let ray = Ray::new(Point3::new(origin, 0.0, 0.0), Vector3::x()).unwrap();
        let boxed = Aabb::new(
            Point3::new(plane, -1.0, -1.0),
            Point3::new(f32::MAX, 1.0, 1.0),
        )
        .unwrap();
        let hit = boxed.cast_ray(&ray, f32::INFINITY);
        assert_eq!(hit.map(|h| h.distance), distance, "{ray:?} {boxed:?}");
        let rays = [ray; 5];
        let mut hits = vec![None; rays.len()];
        boxed.cast_rays(&rays, f32::INFINITY, &mut hits);
        assert!(hits.iter().all(|h| *h == hit), "{hits:?}");
    }
}
