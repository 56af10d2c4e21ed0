//! Periodic media (issue "Periodic media"): a `PeriodicScene`'s queries against the same bodies
//! in a plain `Scene`, on the same inputs in one run.
//!
//! The workload: the scene bench's balls of radius 1 with centres uniform in a cube that they
//! fill to 10 % (`benches/scene.rs`), the cube the periodic box. One query at a time, one thread;
//! criterion's throughput is the queries, so its figures are per point or per ray.
//!
//! - Points: `10^5` balls; 4096 points uniform in the cube's inner part, at least 4 from its faces
//!   (where the medium's other images are farther than the nearest ball, as a point inside a
//!   packing is); `nearest` at any distance and `within(p, 2)`.
//! - First hits: `10^5` balls; 4096 rays from uniform points in the cube along isotropic
//!   directions, those whose first hit in the plain scene lies inside the cube; `cast_ray` at
//!   any distance.
//! - Spans: `10^4` balls; 1024 rays from points in the middle of the cube's cross-section,
//!   within 2° of the x axis, along 10 box lengths; against a plain scene that holds the images
//!   `-1..=10` along x explicitly (its `ray_spans` lists the whole line through them). The counts
//!   of spans listed are printed, for the time per span.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench periodic
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{PeriodicScene, Periodicity, Scene, Sphere};
use raysweep_benches::{Width, in_cube, p3, rays, rays_in_cube, sphere_cloud, unit_balls};

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

fn first_hits<T: Width>(c: &mut Criterion, width: &str) {
    let (centres, side) = sphere_cloud(BALLS);
    let balls = unit_balls::<T>(&centres);
    let plain: Scene<T, 3, Sphere<T>> = Scene::new(balls.clone());
    let period = Periodicity::new(
        p3::<T>([-side / 2.0; 3]),
        Vector3::from_element(T::of(side)),
    )
    .expect("a finite, positive box");
    let periodic: PeriodicScene<T, 3, Sphere<T>> = PeriodicScene::new(balls, period);
    let inf = T::of(f64::INFINITY);
    let inside = |p: &Point3<T>| p.iter().all(|x| x.to_wide().abs() < side / 2.0);
    let rays: Vec<_> = rays::<T>(&rays_in_cube(4 * POINTS, side))
        .into_iter()
        .filter(|ray| {
            plain
                .cast_ray(ray, inf)
                .is_some_and(|h| inside(&h.hit.point))
        })
        .take(POINTS)
        .collect();
    assert_eq!(rays.len(), POINTS);
    let mut g = c.benchmark_group(format!("{width}/periodic, {BALLS} balls"));
    g.throughput(Throughput::Elements(POINTS as u64));
    g.bench_function("Scene cast_ray", |b| {
        b.iter(|| {
            for ray in &rays {
                black_box(plain.cast_ray(black_box(ray), inf));
            }
        })
    });
    g.bench_function("PeriodicScene cast_ray", |b| {
        b.iter(|| {
            for ray in &rays {
                black_box(periodic.cast_ray(black_box(ray), inf));
            }
        })
    });
    g.finish();
}

const SPAN_BALLS: usize = 10_000;
const SPAN_RAYS: usize = 1024;

fn spans<T: Width>(c: &mut Criterion, width: &str) {
    let (centres, side) = sphere_cloud(SPAN_BALLS);
    let balls = unit_balls::<T>(&centres);
    let period = Periodicity::new(
        p3::<T>([-side / 2.0; 3]),
        Vector3::from_element(T::of(side)),
    )
    .expect("a finite, positive box");
    let periodic: PeriodicScene<T, 3, Sphere<T>> = PeriodicScene::new(balls, period);
    let explicit: Vec<[f64; 3]> = (-1..=10)
        .flat_map(|k| {
            let shift = f64::from(k) * side;
            centres.iter().map(move |c| [c[0] + shift, c[1], c[2]])
        })
        .collect();
    let plain: Scene<T, 3, Sphere<T>> = Scene::new(unit_balls::<T>(&explicit));
    let mut rng = StdRng::seed_from_u64(0x5ba7_10e5);
    let slope = 2f64.to_radians().tan();
    let pairs: Vec<_> = (0..SPAN_RAYS)
        .map(|_| {
            let o = in_cube(&mut rng, side / 4.0);
            let d = [
                1.0,
                rng.random_range(-slope..slope),
                rng.random_range(-slope..slope),
            ];
            (o, d)
        })
        .collect();
    let rays = rays::<T>(&pairs);
    let length = T::of(10.0 * side);
    let (mut found, mut listed) = (Vec::new(), Vec::new());
    let (mut periodic_count, mut plain_count) = (0, 0);
    for ray in &rays {
        periodic.ray_spans(ray, length, &mut found);
        plain.ray_spans(ray, &mut listed);
        periodic_count += found.len();
        plain_count += listed.len();
    }
    eprintln!(
        "{width} spans along 10 boxes: PeriodicScene {:.1}, explicit Scene {:.1} per ray",
        periodic_count as f64 / SPAN_RAYS as f64,
        plain_count as f64 / SPAN_RAYS as f64
    );
    let mut g = c.benchmark_group(format!("{width}/periodic, {SPAN_BALLS} balls"));
    g.throughput(Throughput::Elements(SPAN_RAYS as u64));
    g.sample_size(20);
    g.bench_function("explicit Scene ray_spans", |b| {
        b.iter(|| {
            for ray in &rays {
                plain.ray_spans(black_box(ray), &mut listed);
                black_box(&listed);
            }
        })
    });
    g.bench_function("PeriodicScene ray_spans 10 boxes", |b| {
        b.iter(|| {
            for ray in &rays {
                periodic.ray_spans(black_box(ray), length, &mut found);
                black_box(&found);
            }
        })
    });
    g.finish();
}

fn all(c: &mut Criterion) {
    point_queries::<f32>(c, "f32");
    point_queries::<f64>(c, "f64");
    first_hits::<f32>(c, "f32");
    first_hits::<f64>(c, "f64");
    spans::<f32>(c, "f32");
    spans::<f64>(c, "f64");
}

criterion_group!(benches, all);
criterion_main!(benches);
