//! Scenes that grow (`Scene::push`): a scene built body by body, from empty or from a built
//! scene, answers every query exactly as the loop over its bodies does, bit for bit, after every
//! push and across the rebuilds that growth brings; bodies pushed in order along a line (where
//! a naive placement would chain them), scattered, duplicated and mixed.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::SVector;
use raysweep::{Body, Real, Scene, Sphere};

use crate::scene::{Rotated, Rotation, check_point, check_ray, mixed_bodies, of, rays, sphere};

/// Every ray and point query, and the proximity queries, of `scene` against the loop, on rays and
/// points made for the region `[lo, hi]^D`.
fn check_all<T: Real, const D: usize>(
    scene: &Scene<T, D>,
    rng: &mut StdRng,
    (lo, hi): (f64, f64),
    label: &str,
) {
    let ball = T::from_wide(0.3);
    for ray in rays::<T, D>(rng, lo, hi, 0.0, 12) {
        check_ray(scene, &ray, T::from_wide(f64::INFINITY), ball, label);
    }
    for _ in 0..6 {
        let p = of::<T, D>(SVector::from_fn(|_, _| {
            rng.random_range(lo - 1.0..hi + 1.0)
        }));
        check_point(scene, &p, label);
        crate::proximity::check_point(scene, &p, 1.0, label);
    }
}

/// Pushes `bodies` one by one onto `scene`, checking the ids and, every `every` pushes, every
/// query.
fn grow<T: Real, const D: usize>(
    mut scene: Scene<T, D>,
    bodies: Vec<Body<T, D>>,
    every: usize,
    region: (f64, f64),
    rng: &mut StdRng,
    label: &str,
) {
    for (k, body) in bodies.into_iter().enumerate() {
        let id = scene.len();
        assert_eq!(scene.push(body), id, "{label}: the next index");
        assert_eq!(scene.bodies()[id], body);
        if k % every == every - 1 {
            check_all(&scene, rng, region, label);
        }
    }
    check_all(&scene, rng, region, label);
}

fn grown<T: Real, const D: usize>(seed: u64)
where
    Rotation<D>: Rotated<T, D>,
{
    let rng = &mut StdRng::seed_from_u64(seed);
    // Mixed bodies, with duplicates and nested ones, from an empty scene.
    let bodies = mixed_bodies::<T, D>(rng, 0.0);
    grow(
        Scene::new(Vec::new()),
        bodies,
        7,
        (0.0, 11.0),
        rng,
        "mixed, from empty",
    );
    // Balls along a line, onto a scene built from the first few.
    let line: Vec<Body<T, D>> = (0..400)
        .map(|k| {
            let c = SVector::<f64, D>::from_fn(|i, _| if i == 0 { k as f64 * 0.1 } else { 0.5 });
            sphere::<T, D>(c, 0.3).into()
        })
        .collect();
    let (first, rest) = line.split_at(40);
    grow(
        Scene::new(first.to_vec()),
        rest.to_vec(),
        60,
        (-1.0, 41.0),
        rng,
        "line",
    );
    // Scattered balls, some of them twice.
    let scattered: Vec<Body<T, D>> = (0..600)
        .map(|k| {
            let c = SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.0..20.0));
            let b: Body<T, D> = sphere::<T, D>(c, rng.random_range(0.1..1.0)).into();
            (k, b)
        })
        .flat_map(|(k, b)| core::iter::repeat_n(b, 1 + usize::from(k % 7 == 0)))
        .collect();
    grow(
        Scene::new(Vec::new()),
        scattered,
        97,
        (0.0, 20.0),
        rng,
        "scattered",
    );
}

#[test]
fn scenes_grown_body_by_body_answer_as_the_loop() {
    grown::<f32, 2>(1);
    grown::<f32, 3>(2);
    grown::<f64, 2>(3);
    grown::<f64, 3>(4);
}

#[test]
fn a_grown_scene_moves_and_rebuilds_as_a_built_one() {
    let rng = &mut StdRng::seed_from_u64(5);
    let mut scene: Scene<f64, 3, Sphere<f64>> = Scene::new(Vec::new());
    for _ in 0..300 {
        let c = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(0.0..15.0));
        scene.push(sphere(c, 0.5));
    }
    for _ in 0..50 {
        let id = rng.random_range(0..scene.len());
        let c = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(0.0..15.0));
        scene.set_body(id, sphere(c, 0.7));
    }
    let built: Scene<f64, 3, Sphere<f64>> = Scene::new(scene.bodies().to_vec());
    for ray in rays::<f64, 3>(rng, 0.0, 15.0, 0.0, 200) {
        assert_eq!(
            scene.cast_ray(&ray, f64::INFINITY),
            built.cast_ray(&ray, f64::INFINITY)
        );
        assert_eq!(
            scene.cast_sphere(&ray, 0.2, 30.0),
            built.cast_sphere(&ray, 0.2, 30.0)
        );
    }
    scene.rebuild();
    assert_eq!(scene.hierarchy_bytes(), built.hierarchy_bytes());
}
