//! `cast_rays` returns exactly the bits of `cast_ray`, ray by ray, for batches that mix every path
//! the cores take: near and far origins (the plain and the compensated quadratic in neighbouring
//! lanes), origins inside, grazing and axis-parallel rays, rays along a box's face planes, and
//! maximum distances that cut hits off; in both widths and both dimensions, for every shape, and
//! for batches of every length that the groups of four treat apart.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point, Rotation2, Rotation3, SVector};
use raysweep::{Aabb, Cast, Ellipsoid, Hit, Ray, Real, Sphere};

use crate::common::random;
use random::unit;

/// Batches per shape, width and dimension, and rays per batch (not a multiple of four, so that
/// the remainder path runs too).
const BATCHES: usize = 24;
const RAYS: usize = 203;

/// The bits of a hit, for comparison without `0.0 == -0.0`.
fn bits<T: Real, const D: usize>(hit: &Option<Hit<T, D>>) -> Option<Vec<u64>> {
    hit.as_ref().map(|h| {
        core::iter::once(h.distance)
            .chain(h.point.iter().copied())
            .chain(h.normal.iter().copied())
            .map(|v| v.to_wide().to_bits())
            .collect()
    })
}

/// Rays around a target of size `size` at `centre`: about half aimed at it from near and far,
/// some from inside, some along the axes (through `size`-aligned offsets, so that a box's face
/// planes are met exactly), some grazing.
fn rays<T: Real, const D: usize>(
    rng: &mut StdRng,
    centre: &SVector<f64, D>,
    size: f64,
) -> Vec<Ray<T, D>> {
    let far: f64 = if T::EPSILON_WIDE > f64::EPSILON {
        1e4
    } else {
        1e12
    };
    let of = |v: &SVector<f64, D>| Point::from(v.map(T::from_wide));
    (0..RAYS)
        .filter_map(|_| {
            let kind = rng.random_range(0..6);
            let distance = match kind {
                0 => rng.random_range(1.5..4.0),
                1 => 10f64.powf(rng.random_range(1.0..far.log10())),
                2 => rng.random_range(0.0..0.9),
                _ => rng.random_range(1.5..30.0),
            } * size;
            let origin = centre + unit::<D>(rng) * distance;
            let dir = match kind {
                3 => {
                    // Along an axis, from a point on a face plane or an ulp beside it.
                    let axis = rng.random_range(0..D);
                    let mut o = origin;
                    let side = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
                    o[(axis + 1) % D] =
                        T::from_wide(centre[(axis + 1) % D] + side * size).to_wide();
                    let mut d = SVector::<f64, D>::zeros();
                    d[axis] = -(o[axis] - centre[axis]).signum();
                    return Ray::new(of(&o), d.map(T::from_wide)).ok();
                }
                4 => {
                    // Grazing: aimed at a point at about the target's size from its centre.
                    let aim = centre + unit::<D>(rng) * size * rng.random_range(0.95..1.05);
                    aim - origin
                }
                _ => {
                    let aim = centre + unit::<D>(rng) * size * rng.random_range(0.0..1.7);
                    aim - origin
                }
            };
            Ray::new(of(&origin), dir.map(T::from_wide)).ok()
        })
        .collect()
}

/// Every batch's hits against the single casts, for one shape.
fn check<T: Real, const D: usize>(
    shape: &dyn Cast<T, D>,
    rng: &mut StdRng,
    centre: &SVector<f64, D>,
    size: f64,
    label: &str,
) {
    let rays = rays::<T, D>(rng, centre, size);
    for max in [
        f64::INFINITY,
        0.0,
        size * 4.0,
        size * rng.random_range(1.0..100.0),
    ] {
        let max = T::from_wide(max);
        // No group of four, one, one and a rest, two, many, and more than a filtering batch
        // sorts at once (256), so that rays are carried from one block to the next.
        for len in [3, 4, 7, 8, RAYS, 4 * RAYS + 1] {
            let rays: Vec<_> = rays.iter().cycle().take(len).copied().collect();
            let rays = &rays[..];
            // Slots that hold a hit already, so that a slot the batch leaves is seen.
            let stale = Hit {
                distance: T::from_wide(-1.0),
                point: *rays[0].origin(),
                normal: *rays[0].dir(),
            };
            let mut hits = vec![Some(stale); len];
            shape.cast_rays(rays, max, &mut hits);
            for (ray, hit) in rays.iter().zip(&hits) {
                assert_eq!(
                    bits(hit),
                    bits(&shape.cast_ray(ray, max)),
                    "{label}: {len} rays, {ray:?} max {max:?}"
                );
            }
        }
    }
}

/// A target centre: at the origin, nearby, or translated far.
fn centre<T: Real, const D: usize>(rng: &mut StdRng) -> SVector<f64, D> {
    let far = if T::EPSILON_WIDE > f64::EPSILON {
        1e4
    } else {
        1e9
    };
    let at = match rng.random_range(0..3) {
        0 => 0.0,
        1 => rng.random_range(0.0..10.0),
        _ => rng.random_range(0.0..far),
    };
    (unit::<D>(rng) * at).map(|v| T::from_wide(v).to_wide())
}

fn all_shapes<T: Real, const D: usize>(rotation: impl Fn(f64) -> SVector<f64, D>, seed: u64)
where
    Ellipsoid<T, D>: Oriented<T, D>,
{
    let mut rng = StdRng::seed_from_u64(seed);
    for _ in 0..BATCHES {
        let size = 2f64.powi(rng.random_range(-20..20)) * rng.random_range(1.0..2.0);
        let c = centre::<T, D>(&mut rng);
        let at = Point::from(c.map(T::from_wide));
        let r = T::from_wide(size);
        let sphere = Sphere::new(at, r).unwrap();
        check(&sphere, &mut rng, &c, size, "sphere");
        let half = SVector::<f64, D>::from_fn(|_, _| size * rng.random_range(0.2..1.0));
        let lo = (c - half).map(T::from_wide);
        let hi = (c + half).map(T::from_wide);
        let boxed = Aabb::new(Point::from(lo), Point::from(hi)).unwrap();
        check(&boxed, &mut rng, &c, size, "box");
        let semi = half.map(T::from_wide);
        let ellipsoid = Ellipsoid::new(at, semi).unwrap();
        check(&ellipsoid, &mut rng, &c, size, "ellipsoid");
        let oriented = Ellipsoid::<T, D>::rotated(at, semi, rotation(rng.random_range(0.0..6.0)));
        check(&oriented, &mut rng, &c, size, "oriented ellipsoid");
    }
}

/// Builds an oriented ellipsoid from an angle's rotation, in 2D or 3D.
trait Oriented<T: Real, const D: usize>: Sized {
    fn rotated(at: Point<T, D>, semi: SVector<T, D>, axis_angle: SVector<f64, D>) -> Self;
}

impl<T: Real> Oriented<T, 2> for Ellipsoid<T, 2> {
    fn rotated(at: Point<T, 2>, semi: SVector<T, 2>, angle: SVector<f64, 2>) -> Self {
        let rotation = Rotation2::new(T::from_wide(angle[0]));
        Ellipsoid::oriented(at, semi, rotation).unwrap()
    }
}

impl<T: Real> Oriented<T, 3> for Ellipsoid<T, 3> {
    fn rotated(at: Point<T, 3>, semi: SVector<T, 3>, axis_angle: SVector<f64, 3>) -> Self {
        let rotation = Rotation3::new(axis_angle.map(T::from_wide));
        Ellipsoid::oriented(at, semi, rotation).unwrap()
    }
}

#[test]
fn batch_equals_single_f32_2d() {
    all_shapes::<f32, 2>(|a| SVector::from([a, 0.0]), 1);
}

#[test]
fn batch_equals_single_f32_3d() {
    all_shapes::<f32, 3>(|a| SVector::from([a, 0.3 * a, -0.5]), 2);
}

#[test]
fn batch_equals_single_f64_2d() {
    all_shapes::<f64, 2>(|a| SVector::from([a, 0.0]), 3);
}

#[test]
fn batch_equals_single_f64_3d() {
    all_shapes::<f64, 3>(|a| SVector::from([a, 0.3 * a, -0.5]), 4);
}

/// An `f32` direction component that rounds to zero (here `−4.7·10⁻⁸⁴`, below the smallest `f32`
/// subnormal) is stored as `+0`, and a batch of such rays along a box's face planes returns the
/// single casts' hits: a stored `−0` would make the batch's slab miss a ray lying in a face.
#[test]
fn an_f32_direction_component_that_rounds_to_zero_is_stored_as_plus_zero() {
    let unit_box = Aabb::new(Point::from([-1.0f32; 3]), Point::from([1.0f32; 3])).unwrap();
    let rays: Vec<Ray<f32, 3>> = [-1.0f32, 1.0, -1.0, 1.0, 0.5]
        .iter()
        .map(|&y| {
            let dir = SVector::from([3e38f32, -1.4e-45, 0.0]);
            Ray::new(Point::from([-5.0, y, 0.25]), dir).unwrap()
        })
        .collect();
    for ray in &rays {
        assert_eq!(ray.dir()[1].to_bits(), 0.0f32.to_bits(), "{ray:?}");
    }
    let mut hits = vec![None; rays.len()];
    unit_box.cast_rays(&rays, f32::INFINITY, &mut hits);
    for (ray, hit) in rays.iter().zip(&hits) {
        let single = unit_box.cast_ray(ray, f32::INFINITY);
        assert_eq!(bits(hit), bits(&single), "{ray:?}");
        assert_eq!(single.map(|h| h.distance), Some(4.0), "{ray:?}");
    }
}

/// A point ball (radius 0) has no normal: its hits, through its centre along and across the
/// axes, take `−dir`, in the batch (which then leaves out the radial normal of `f32` spheres) as
/// in the single cast. Each line passes exactly through the centre, in both widths; in `f64` the
/// one across the axes was a miss while the plain evaluation's margin on the discriminant
/// vanished with the ball (`PROJECTED_FLOOR` in `src/core/quadratic.rs`).
fn point_ball_hit_through_its_centre<T: Real>() {
    let centre = Point::from([1.5, -2.0, 0.25].map(T::from_wide));
    let ball = Sphere::new(centre, T::zero()).unwrap();
    let rays: Vec<Ray<T, 3>> = [[3.0, 0.0, 0.0], [0.0, -0.5, 0.0], [2.0, 2.0, 0.0]]
        .iter()
        .flat_map(|&offset| [1.0, -1.0].map(|side| offset.map(|c| T::from_wide(c * side))))
        .map(|offset| Ray::new(centre - SVector::from(offset), offset.into()).unwrap())
        .collect();
    let mut hits = vec![None; rays.len()];
    ball.cast_rays(&rays, T::from_wide(f64::INFINITY), &mut hits);
    for (ray, hit) in rays.iter().zip(&hits) {
        assert_eq!(
            bits(hit),
            bits(&ball.cast_ray(ray, T::from_wide(f64::INFINITY))),
            "{ray:?}"
        );
        let hit = hit.expect("through the centre");
        assert_eq!(hit.point, centre, "{ray:?}");
        assert_eq!(hit.normal, -*ray.dir(), "{ray:?}");
    }
}

#[test]
fn a_point_ball_is_hit_through_its_centre_with_the_normal_minus_dir() {
    point_ball_hit_through_its_centre::<f32>();
    point_ball_hit_through_its_centre::<f64>();
}

/// Near the largest `f32`: the batch leaves out its test of each contact point for a sphere whose
/// radius and centre coordinates are at most a quarter of it, and keeps the test beyond. At that
/// bound, rays entering at the sphere's extremes hit with finite points, as single casts; beyond
/// it, a contact point past `f32::MAX` by more than half an ulp overflows, and batch and single
/// cast both refuse it.
#[test]
fn f32_sphere_points_near_the_largest_value_are_tested_where_they_can_overflow() {
    let quarter = f32::MAX / 4.0;
    let bounded = Sphere::new(Point::from([quarter, -quarter, quarter]), quarter).unwrap();
    let rays: Vec<Ray<f32, 3>> = (0..3)
        .flat_map(|axis| {
            [1.0f32, -1.0].map(|side| {
                let mut dir = SVector::<f32, 3>::zeros();
                dir[axis] = -side;
                let mut origin = bounded.center().coords;
                origin[axis] += side * 2.0 * quarter;
                Ray::new(Point::from(origin), dir).unwrap()
            })
        })
        .collect();
    let mut hits = vec![None; rays.len()];
    bounded.cast_rays(&rays, f32::INFINITY, &mut hits);
    for (ray, hit) in rays.iter().zip(&hits) {
        assert_eq!(
            bits(hit),
            bits(&bounded.cast_ray(ray, f32::INFINITY)),
            "{ray:?}"
        );
        let hit = hit.expect("aimed at the centre");
        assert!(hit.point.iter().all(|c| c.is_finite()), "{ray:?}");
    }

    // Centre at `f32::MAX`, radius `10^32`: the ray from `(MAX, 1.2·10^32)` along `(1, −1)/√2`
    // enters at `x ≈ MAX + 2.26·10^31`, beyond `MAX` by more than half its ulp (`2^103`).
    let far = Sphere::new(Point::from([f32::MAX, 0.0, 0.0]), 1e32).unwrap();
    let overflowing = Ray::new(
        Point::from([f32::MAX, 1.2e32, 0.0]),
        SVector::from([1.0, -1.0, 0.0]),
    )
    .unwrap();
    let rays = [overflowing; 5];
    // Slots holding a hit, which the batch must overwrite.
    let mut hits = vec![hits[0]; rays.len()];
    far.cast_rays(&rays, f32::INFINITY, &mut hits);
    assert_eq!(far.cast_ray(&overflowing, f32::INFINITY), None);
    assert!(hits.iter().all(Option::is_none), "{hits:?}");
}
