//! `cast_rays` against `cast_rays_par` (rayon) on a batch of 65 536 rays, `f64`, against the unit
//! sphere and the box `[−1, 1]³`: how the threaded batch scales on the machine's cores. The rays
//! are the 4096 of the `casts` benchmark, repeated. And a scene's: `Scene::cast_rays` against
//! `Scene::cast_rays_par` and a plain rayon loop of `Scene::cast_ray` over the same `2^14` and
//! `2^17` rays from uniform points in isotropic directions (the scene workload at `10^5` balls,
//! `f32`). Run it without pinning the process to a core:
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench threads
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raysweep::nalgebra::Point3;
use raysweep::{Aabb, BodyHit, Cast, Ray, Scene, Sphere};
use raysweep_benches::{on_sphere_aimed, p3, rays, rays_in_cube, sphere_cloud, unit_balls};

const LARGE: usize = 1 << 16;

fn threads(c: &mut Criterion) {
    let four: Vec<Ray<f64>> = rays(&on_sphere_aimed(4096, 1.0));
    let rays: Vec<Ray<f64>> = four.iter().cycle().take(LARGE).copied().collect();
    let sphere = Sphere::new(Point3::origin(), 1.0).unwrap();
    let aabb = Aabb::new(p3([-1.0; 3]), p3([1.0; 3])).unwrap();
    let mut hits = vec![None; LARGE];
    for (name, shape) in [
        ("sphere", &sphere as &(dyn Cast<f64> + Sync)),
        ("box", &aabb),
    ] {
        let mut g = c.benchmark_group(format!("f64/{LARGE} rays vs {name}"));
        g.throughput(Throughput::Elements(LARGE as u64));
        g.bench_function("cast_rays", |b| {
            b.iter(|| shape.cast_rays(black_box(&rays), f64::INFINITY, &mut hits))
        });
        g.bench_function("cast_rays_par", |b| {
            b.iter(|| shape.cast_rays_par(black_box(&rays), f64::INFINITY, &mut hits))
        });
        g.finish();
    }
}

fn scene_threads(c: &mut Criterion) {
    use rayon::prelude::*;
    let (centres, side) = sphere_cloud(100_000);
    let scene: Scene<f32, 3, Sphere<f32>> = Scene::new(unit_balls(&centres));
    let inf = f32::INFINITY;
    for count in [1 << 14, 1 << 17] {
        let rays: Vec<Ray<f32>> = rays(&rays_in_cube(count, side));
        let mut hits: Vec<Option<BodyHit<f32>>> = vec![None; count];
        let mut g = c.benchmark_group(format!("f32/scene of 10^5 balls, {count} rays"));
        g.throughput(Throughput::Elements(count as u64));
        g.bench_function("cast_rays", |b| {
            b.iter(|| scene.cast_rays(black_box(&rays), inf, &mut hits))
        });
        g.bench_function("cast_rays_par", |b| {
            b.iter(|| scene.cast_rays_par(black_box(&rays), inf, &mut hits))
        });
        g.bench_function("rayon loop of cast_ray", |b| {
            b.iter(|| {
                rays.par_iter()
                    .zip(hits.par_iter_mut())
                    .for_each(|(ray, hit)| *hit = scene.cast_ray(black_box(ray), inf))
            })
        });
        g.finish();
    }
}

criterion_group!(benches, threads, scene_threads);
criterion_main!(benches);
