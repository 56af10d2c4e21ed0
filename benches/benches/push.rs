//! Scenes that grow (issue "The first hour"): `Scene::push` of 10^5 balls one by one, against
//! `Scene::new` of the same balls at once, and the first hits of the scene each gives (and of a
//! scene built from half the balls with the other half pushed: the most a scene holds that its
//! last build did not place), on the scene bench's workload (`benches/scene.rs`: balls of radius 1 filling 10 % of a cube, 4096
//! rays from uniform points in isotropic directions). Per body (builds, one thread) and per ray.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench push
//! cargo bench -p raysweep-benches --bench push --profile bench-lto
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raysweep::{BodyHit, Ray, Scene, Sphere};
use raysweep_benches::{Width, rays, rays_in_cube, sphere_cloud, unit_balls};

const RAYS: usize = 4096;
const BALLS: usize = 100_000;

/// The scene of `bodies` grown by pushing them one by one.
fn pushed<T: Width>(bodies: &[Sphere<T>]) -> Scene<T, 3, Sphere<T>> {
    let mut scene = Scene::new(Vec::new());
    for b in bodies {
        scene.push(*b);
    }
    scene
}

fn bench<T: Width>(c: &mut Criterion, width: &str) {
    let (centres, side) = sphere_cloud(BALLS);
    let bodies = unit_balls::<T>(&centres);
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut g = c.benchmark_group(format!("{width}/scene growth, {BALLS} spheres"));
    g.throughput(Throughput::Elements(BALLS as u64));
    g.sample_size(10);
    g.bench_function("push one by one", |b| {
        b.iter(|| one.install(|| pushed(black_box(&bodies))))
    });
    g.bench_function("new at once", |b| {
        b.iter(|| one.install(|| Scene::<T, 3, Sphere<T>>::new(black_box(bodies.clone()))))
    });
    g.finish();

    let grown = pushed(&bodies);
    let built = Scene::<T, 3, Sphere<T>>::new(bodies.clone());
    let mut half = Scene::<T, 3, Sphere<T>>::new(bodies[..BALLS / 2].to_vec());
    for b in &bodies[BALLS / 2..] {
        half.push(*b);
    }
    println!(
        "{width}: hierarchy {:.1} bytes per body pushed, {:.1} built",
        grown.hierarchy_bytes() as f64 / BALLS as f64,
        built.hierarchy_bytes() as f64 / BALLS as f64
    );
    let rays: Vec<Ray<T>> = rays(&rays_in_cube(RAYS, side));
    let inf = T::of(f64::INFINITY);
    let mut hits: Vec<Option<BodyHit<T>>> = vec![None; RAYS];
    let mut g = c.benchmark_group(format!("{width}/scene grown, first hit, {BALLS} spheres"));
    g.throughput(Throughput::Elements(RAYS as u64));
    for (name, scene) in [
        ("pushed", &grown),
        ("half built, half pushed", &half),
        ("built", &built),
    ] {
        g.bench_function(name, |b| {
            b.iter(|| {
                for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
                    *hit = scene.cast_ray(black_box(ray), inf);
                }
                black_box(&hits);
            })
        });
    }
    g.finish();
}

fn all(c: &mut Criterion) {
    bench::<f32>(c, "f32");
    bench::<f64>(c, "f64");
}

criterion_group!(benches, all);
criterion_main!(benches);
