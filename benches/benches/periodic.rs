//! Periodic media (issue "Periodic media"): a `PeriodicScene`'s point queries against the same
//! bodies in a plain `Scene`, on the same points in one run.
//!
//! The workload: the scene bench's `10^5` balls of radius 1 with centres uniform in a cube that
//! they fill to 10 % (`benches/scene.rs`), the cube the periodic box; 4096 points uniform in the
//! cube's inner part, at least 4 from its faces (where the medium's other images are farther
//! than the nearest ball, as a point inside a packing is). `nearest` at any distance and
//! `within(p, 2)`, one point at a time, one thread. Criterion's throughput is the points, so its
//! figures are per point.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench periodic
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::SeedableRng;
use rand::rngs::StdRng;
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{PeriodicScene, Periodicity, Scene, Sphere};
use raysweep_benches::{Width, in_cube, p3, sphere_cloud, unit_balls};

const BALLS: usize = 100_000;
const POINTS: usize = 4096;

fn point_queries<T: Width>(c: &mut Criterion, width: &str) {
    let (centres, side) = sphere_cloud(BALLS);
    let balls = unit_balls::<T>(&centres);
    let plain: Scene<T, 3, Sphere<T>> = Scene::new(balls.clone());
    let corner = p3::<T>([-side / 2.0; 3]);
    let size = Vector3::from_element(T::of(side));
    let period = Periodicity::new(corner, size).expect("a finite, positive box");
    let periodic: PeriodicScene<T, 3, Sphere<T>> = PeriodicScene::new(balls, period);
    let mut rng = StdRng::seed_from_u64(0x9e71_0d1c);
    let at: Vec<Point3<T>> = (0..POINTS)
        .map(|_| p3(in_cube(&mut rng, side / 2.0 - 4.0)))
        .collect();
    let inf = T::of(f64::INFINITY);
    let mut g = c.benchmark_group(format!("{width}/periodic, {BALLS} balls"));
    g.throughput(Throughput::Elements(POINTS as u64));
    g.bench_function("Scene nearest", |b| {
        b.iter(|| {
            for p in &at {
                black_box(plain.nearest(black_box(p), inf));
            }
        })
    });
    g.bench_function("PeriodicScene nearest", |b| {
        b.iter(|| {
            for p in &at {
                black_box(periodic.nearest(black_box(p), inf));
            }
        })
    });
    let distance = T::of(2.0);
    let mut near = Vec::new();
    g.bench_function("Scene within 2", |b| {
        b.iter(|| {
            for p in &at {
                plain.within(black_box(p), distance, &mut near);
                black_box(&near);
            }
        })
    });
    let mut found = Vec::new();
    g.bench_function("PeriodicScene within 2", |b| {
        b.iter(|| {
            for p in &at {
                periodic.within(black_box(p), distance, &mut found);
                black_box(&found);
            }
        })
    });
    g.finish();
}

fn all(c: &mut Criterion) {
    point_queries::<f32>(c, "f32");
    point_queries::<f64>(c, "f64");
}

criterion_group!(benches, all);
criterion_main!(benches);
