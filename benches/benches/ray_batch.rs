//! The scenes' ray batches against the loop of single casts (issue "Scenes at Embree's speed"):
//! `Scene::cast_rays` on one thread and the loop of `Scene::cast_ray` over the same `10^6` rays,
//! answers stored in both, first hit, unbounded.
//!
//! - Incoherent: rays from points uniform in the cube in isotropic directions (the scene bench's
//!   workload, `benches/scene.rs`), at `10^5` and `10^6` balls of radius 1 filling 10 % of the
//!   cube, in `f32` and `f64`.
//! - Coherent, at `10^5` balls: a pinhole camera of `1024²` rays, row after row, from a point a
//!   cube's side in front of the cube's centre looking at it (a field of view of about 62°); and
//!   a parallel beam of `1024²` rays, row after row, across the cube's face.
//!
//! Criterion's throughput is the rays, so its figures are per ray. Each group first checks that
//! the batch and the loop give the same answers.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench ray_batch
//! cargo bench -p raysweep-benches --bench ray_batch --profile bench-lto
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raysweep::{BodyHit, Ray, Scene, Sphere};
use raysweep_benches::{Width, rays, rays_in_cube, sphere_cloud, unit_balls};

/// The rays of the incoherent workload; the coherent ones are `SIDE²`.
const RAYS: usize = 1_000_000;

/// The camera's and the beam's rays per row.
const SIDE: usize = 1024;

/// The loop and the batch over `rays` in `scene`, after checking that they agree.
fn loop_and_batch<T: Width>(
    c: &mut Criterion,
    name: &str,
    scene: &Scene<T, 3, Sphere<T>>,
    rays: &[Ray<T>],
) {
    let inf = T::of(f64::INFINITY);
    let mut looped: Vec<Option<BodyHit<T>>> = vec![None; rays.len()];
    let mut batched = looped.clone();
    for (ray, hit) in rays.iter().zip(looped.iter_mut()) {
        *hit = scene.cast_ray(ray, inf);
    }
    scene.cast_rays(rays, inf, &mut batched);
    assert!(looped == batched, "{name}: the batch and the loop differ");
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(rays.len() as u64));
    g.sample_size(10);
    g.measurement_time(Duration::from_secs(15));
    g.bench_function("loop of cast_ray", |b| {
        b.iter(|| {
            for (ray, hit) in rays.iter().zip(looped.iter_mut()) {
                *hit = scene.cast_ray(black_box(ray), inf);
            }
            black_box(&looped);
        })
    });
    g.bench_function("cast_rays", |b| {
        b.iter(|| {
            scene.cast_rays(black_box(rays), inf, &mut batched);
            black_box(&batched);
        })
    });
    g.finish();
}

/// The incoherent rays at `n` balls.
fn incoherent<T: Width>(c: &mut Criterion, width: &str, n: usize) {
    let (centres, side) = sphere_cloud(n);
    let scene = Scene::new(unit_balls::<T>(&centres));
    let rays: Vec<Ray<T>> = rays(&rays_in_cube(RAYS, side));
    let name = format!("{width}/ray batch, incoherent, {n} balls");
    loop_and_batch(c, &name, &scene, &rays);
}

/// The camera's and the beam's rays at `10^5` balls.
fn coherent<T: Width>(c: &mut Criterion, width: &str) {
    let n = 100_000;
    let (centres, side) = sphere_cloud(n);
    let scene = Scene::new(unit_balls::<T>(&centres));
    let at = |k: usize| (k as f64 + 0.5) / SIDE as f64 * 2.0 - 1.0;
    let camera: Vec<_> = (0..SIDE * SIDE)
        .map(|k| {
            let (x, y) = (at(k % SIDE), at(k / SIDE));
            ([0.0, 0.0, -side], [0.6 * x, 0.6 * y, 1.0])
        })
        .collect();
    let name = format!("{width}/ray batch, camera, {n} balls");
    loop_and_batch(c, &name, &scene, &rays::<T>(&camera));
    let beam: Vec<_> = (0..SIDE * SIDE)
        .map(|k| {
            let (x, y) = (at(k % SIDE), at(k / SIDE));
            ([0.5 * side * x, 0.5 * side * y, -side], [0.0, 0.0, 1.0])
        })
        .collect();
    let name = format!("{width}/ray batch, parallel beam, {n} balls");
    loop_and_batch(c, &name, &scene, &rays::<T>(&beam));
}

fn bench(c: &mut Criterion) {
    for n in [100_000, 1_000_000] {
        incoherent::<f32>(c, "f32", n);
        incoherent::<f64>(c, "f64", n);
    }
    coherent::<f32>(c, "f32");
}

criterion_group!(benches, bench);
criterion_main!(benches);
