//! The eight-wide spike (`src/scene/wide/`) answers each first hit as the loop over the bodies
//! does, bit for bit, in every way it makes and stores its nodes (collapsed from the four-wide
//! hierarchy or built, leaves of one, four and eight bodies, boxes whole or in steps with their
//! children found from links or beside them): on a lattice of boxes sharing faces (rays along
//! face planes, through edges and corners), mixed bodies with duplicates, nesting, flat boxes and
//! thin ellipsoids, spheres grazed at their silhouettes, and origins beyond `f32`'s range (where
//! the spike hands the ray to the scene). CI runs it in every tier of registers, as the packets.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::SVector;
use raysweep::{Aabb, Body, BodyHit, Cast, Ray, Real, Scene, Sphere};

use crate::common::random::unit;
use crate::scene::{
    Rotated, Rotation, body_hit_bits, lattice, loop_first, mixed_bodies, of, rays, sphere,
};

/// A first-hit query, as the check takes it.
type FirstHit<'a, T, const D: usize> = &'a dyn Fn(&Ray<T, D>, T) -> Option<BodyHit<T, D>>;

/// Every way of the spike's answers each of `rays` within its `max` on `scene` as the loop does.
fn check<T: Real, const D: usize, S: Cast<T, D>>(
    scene: &Scene<T, D, S>,
    rays: &[Ray<T, D>],
    max: &[T],
    label: &str,
) {
    let expected: Vec<_> = rays
        .iter()
        .zip(max)
        .map(|(ray, &max)| {
            body_hit_bits(&loop_first(
                scene.bodies(),
                |_| true,
                |b| b.cast_ray(ray, max),
            ))
        })
        .collect();
    let compare = |name: &str, cast: FirstHit<'_, T, D>| {
        for ((ray, &max), want) in rays.iter().zip(max).zip(&expected) {
            assert_eq!(
                &body_hit_bits(&cast(ray, max)),
                want,
                "{label}, {name}: {ray:?} within {max:?}"
            );
        }
    };
    for built in [false, true] {
        for leaf in [1, 4, 8] {
            let wide = scene.wide_spike(leaf, built).expect("a small scene");
            compare(&format!("built {built}, leaves of {leaf}"), &|ray, max| {
                wide.cast_ray(ray, max)
            });
        }
    }
    for inline in [false, true] {
        if let Some(wide) = scene.wide_spike_steps(inline) {
            compare(&format!("in steps, inline {inline}"), &|ray, max| {
                wide.cast_ray(ray, max)
            });
        }
    }
}

/// Limits for `count` rays: unbounded, bounded within `extent`, and zero.
fn limits<T: Real>(rng: &mut StdRng, count: usize, extent: f64) -> Vec<T> {
    (0..count)
        .map(|_| {
            T::from_wide(
                [f64::INFINITY, rng.random_range(0.0..extent), 0.0][rng.random_range(0..3)],
            )
        })
        .collect()
}

fn lattices<T: Real, const D: usize>(seed: u64, shift: f64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let n = if D == 2 { 14 } else { 7 };
    let scene: Scene<T, D, Aabb<T, D>> = Scene::new(lattice(rng, n, shift));
    let rays = rays::<T, D>(rng, 0.0, n as f64, shift, 600);
    let max = limits(rng, rays.len(), n as f64);
    check(&scene, &rays, &max, "lattice");
    assert!(
        scene.wide_spike_steps(true).is_some(),
        "a lattice's boxes encode in steps"
    );
}

fn mixed<T: Real, const D: usize>(seed: u64, shift: f64)
where
    Rotation<D>: Rotated<T, D>,
{
    let rng = &mut StdRng::seed_from_u64(seed);
    let scene: Scene<T, D, Body<T, D>> = Scene::new(mixed_bodies::<T, D>(rng, shift));
    let rays = rays::<T, D>(rng, 0.0, 11.0, shift, 600);
    let max = limits(rng, rays.len(), 11.0);
    check(&scene, &rays, &max, "mixed");
}

/// Two thousand spheres and rays tangent to them, give or take a part in `10^6` of a radius.
fn grazed<T: Real, const D: usize>(seed: u64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let size = 40.0;
    let spheres: Vec<Sphere<T, D>> = (0..2000)
        .map(|_| {
            let c = SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.0..size));
            sphere(c, rng.random_range(0.1..0.8))
        })
        .collect();
    let rays: Vec<Ray<T, D>> = (0..400)
        .map(|_| {
            let s = &spheres[rng.random_range(0..spheres.len())];
            let c = s.center().coords.map(|v| v.to_wide());
            let along = unit::<D>(rng);
            let mut side = unit::<D>(rng);
            side -= along * along.dot(&side);
            let side =
                side.normalize() * s.radius().to_wide() * (1.0 + rng.random_range(-1e-6..1e-6));
            let origin = c + side - along * rng.random_range(1.0..30.0);
            Ray::new(of::<T, D>(origin), along.map(T::from_wide)).unwrap()
        })
        .collect();
    let scene = Scene::new(spheres);
    let max = vec![T::from_wide(f64::INFINITY); rays.len()];
    check(&scene, &rays, &max, "grazed");
}

#[test]
fn eight_wide_spike_answers_as_the_loop() {
    lattices::<f32, 2>(1, 0.0);
    lattices::<f32, 3>(2, 0.0);
    lattices::<f64, 2>(3, 0.0);
    lattices::<f64, 3>(4, 0.0);
    lattices::<f32, 3>(5, 1e6);
    lattices::<f64, 3>(6, -3e9);
    mixed::<f32, 2>(7, 0.0);
    mixed::<f32, 3>(8, 0.0);
    mixed::<f64, 3>(9, 1e4);
    grazed::<f32, 3>(10);
    grazed::<f64, 3>(11);
    grazed::<f64, 2>(12);
}

/// Origins beyond `f32`'s range (the spike hands them to the scene's own traversal) and bodies
/// beyond it (whose boxes do not encode in steps).
#[test]
fn eight_wide_spike_beyond_f32() {
    let rng = &mut StdRng::seed_from_u64(13);
    let far: Vec<Sphere<f64, 3>> = (0..200)
        .map(|k| {
            sphere(
                SVector::from_fn(|i, _| if i == 0 { 1e39 * k as f64 } else { 0.0 }),
                1e30,
            )
        })
        .collect();
    let scene = Scene::new(far);
    assert!(scene.wide_spike_steps(true).is_none());
    let rays: Vec<Ray<f64, 3>> = (0..200)
        .map(|_| {
            let origin = SVector::<f64, 3>::from_fn(|i, _| {
                if i == 0 {
                    rng.random_range(-1e41..1e41)
                } else {
                    rng.random_range(-1e31..1e31)
                }
            });
            Ray::new(of(origin), unit::<3>(rng)).unwrap()
        })
        .collect();
    let max = vec![f64::INFINITY; rays.len()];
    check(&scene, &rays, &max, "beyond f32");
}
