//! Scene proximity (issue "Scene proximity"): `Scene::nearest` against parry 0.25.3's point
//! projection on a `Compound` of balls and against the loop over the bodies, and `Scene::within`
//! against kiddo 5's radius query over the balls' centres, on the same balls and points in one run.
//!
//! The workload: `N` balls of radius 1 with centres uniform in a cube that they fill to 10 %
//! (overlaps allowed), the scene bench's (`benches/scene.rs`); 4096 query points uniform in the
//! cube; one thread. `nearest` asks for the nearest body at any distance (`max_distance` `+∞`),
//! parry for the projection on the compound's surface with the inside flag
//! (`project_local_point(p, false)`, the nearest surface point from inside too, as `nearest`
//! gives it); `nearest_batch` answers the same points in one call, four searches side by side.
//! `within(p, 2)` lists the balls within 2 of the point; kiddo lists the centres within
//! `2 + 1` (right only because every radius is 1), unsorted. Criterion's throughput is the points,
//! so its figures are per point.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench proximity
//! cargo bench -p raysweep-benches --bench proximity --profile bench-lto
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use kiddo::{KdTree, SquaredEuclidean};
use raysweep::nalgebra::Point3;
use raysweep::{BodyNearest, PointQuery, Scene, Sphere};
use raysweep_benches::{Width, in_cube, p3, sphere_cloud, unit_balls};

use rand::SeedableRng;
use rand::rngs::StdRng;

const POINTS: usize = 4096;
const WITHIN: f64 = 2.0;

/// `count` points uniform in the cube of side `side` around the origin.
fn points(count: usize, side: f64) -> Vec<[f64; 3]> {
    let mut rng = StdRng::seed_from_u64(0x009e_4e57);
    (0..count).map(|_| in_cube(&mut rng, side / 2.0)).collect()
}

/// The loop over the bodies: the smallest signed distance, the first id among equals.
fn loop_nearest<T: Width>(bodies: &[Sphere<T>], p: &Point3<T>) -> Option<BodyNearest<T>> {
    let mut best: Option<(usize, T)> = None;
    for (id, b) in bodies.iter().enumerate() {
        let d = b.signed_distance(p);
        if best.is_none_or(|(_, bd)| d < bd) {
            best = Some((id, d));
        }
    }
    best.map(|(body, signed_distance)| {
        let (point, normal) = bodies[body].closest_point(p);
        BodyNearest {
            body,
            signed_distance,
            point,
            normal,
        }
    })
}

/// raysweep's `nearest` and `within` at 10^5 balls, and `nearest` against the loop at 10^3.
fn ours<T: Width>(c: &mut Criterion, width: &str) {
    let inf = T::of(f64::INFINITY);
    for n in [1_000, 100_000] {
        let (centres, side) = sphere_cloud(n);
        let scene: Scene<T, 3, Sphere<T>> = Scene::new(unit_balls::<T>(&centres));
        let at: Vec<Point3<T>> = points(POINTS, side).into_iter().map(p3).collect();
        let mut out = vec![None; POINTS];
        let mut g = c.benchmark_group(format!("{width}/nearest, {n} spheres"));
        g.throughput(Throughput::Elements(POINTS as u64));
        g.bench_function("raysweep", |b| {
            b.iter(|| {
                for (p, o) in at.iter().zip(out.iter_mut()) {
                    *o = scene.nearest(black_box(p), inf);
                }
                black_box(&out);
            })
        });
        g.bench_function("raysweep, nearest_batch", |b| {
            b.iter(|| {
                scene.nearest_batch(black_box(&at), inf, &mut out);
                black_box(&out);
            })
        });
        if n == 1_000 {
            g.bench_function("loop over the bodies", |b| {
                b.iter(|| {
                    for (p, o) in at.iter().zip(out.iter_mut()) {
                        *o = loop_nearest(scene.bodies(), black_box(p));
                    }
                    black_box(&out);
                })
            });
            g.finish();
            continue;
        }
        g.finish();
        let mut g = c.benchmark_group(format!("{width}/within {WITHIN}, {n} spheres"));
        g.throughput(Throughput::Elements(POINTS as u64));
        let mut near = Vec::new();
        let mut found = 0usize;
        g.bench_function("raysweep", |b| {
            b.iter(|| {
                for p in &at {
                    scene.within(black_box(p), T::of(WITHIN), &mut near);
                    found += near.len();
                }
            })
        });
        black_box(found);
        g.finish();
    }
}

/// kiddo's radius query over the centres, within `WITHIN + 1`.
macro_rules! kiddo {
    ($name:ident, $t:ty, $width:literal) => {
        fn $name(c: &mut Criterion) {
            let n = 100_000;
            let (centres, side) = sphere_cloud(n);
            let mut tree: KdTree<$t, 3> = KdTree::new();
            for (id, c) in centres.iter().enumerate() {
                tree.add(&c.map(|x| x as $t), id as u64);
            }
            let at: Vec<[$t; 3]> = points(POINTS, side)
                .into_iter()
                .map(|p| p.map(|x| x as $t))
                .collect();
            let reach = (WITHIN + 1.0) as $t;
            let mut g = c.benchmark_group(format!("{}/within {WITHIN}, {n} spheres", $width));
            g.throughput(Throughput::Elements(POINTS as u64));
            let mut found = 0usize;
            g.bench_function("kiddo", |b| {
                b.iter(|| {
                    for p in &at {
                        let near =
                            tree.within_unsorted::<SquaredEuclidean>(black_box(p), reach * reach);
                        found += near.len();
                    }
                })
            });
            black_box(found);
            g.finish();
        }
    };
}

kiddo!(kiddo_f32, f32, "f32");
kiddo!(kiddo_f64, f64, "f64");

/// parry's `Compound` of balls on the same balls and points.
macro_rules! parry {
    ($name:ident, $parry:ident, $t:ty, $width:literal) => {
        fn $name(c: &mut Criterion) {
            use $parry::na::Point3 as P;
            use $parry::query::PointQuery as _;
            let n = 100_000;
            let (centres, side) = sphere_cloud(n);
            let compound = raysweep_benches::parry_unit_balls!($parry, $t, centres);
            let at: Vec<P<$t>> = points(POINTS, side)
                .into_iter()
                .map(|p| P::new(p[0] as $t, p[1] as $t, p[2] as $t))
                .collect();
            let mut out = vec![None; POINTS];
            let mut g = c.benchmark_group(format!("{}/nearest, {n} spheres", $width));
            g.throughput(Throughput::Elements(POINTS as u64));
            g.bench_function("parry", |b| {
                b.iter(|| {
                    for (p, o) in at.iter().zip(out.iter_mut()) {
                        *o = Some(compound.project_local_point(black_box(p), false));
                    }
                    black_box(&out);
                })
            });
            g.finish();
        }
    };
}

parry!(parry_f32, parry3d, f32, "f32");
parry!(parry_f64, parry3d_f64, f64, "f64");

fn all(c: &mut Criterion) {
    ours::<f32>(c, "f32");
    parry_f32(c);
    kiddo_f32(c);
    ours::<f64>(c, "f64");
    parry_f64(c);
    kiddo_f64(c);
}

criterion_group!(benches, all);
criterion_main!(benches);
