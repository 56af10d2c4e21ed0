//! Proximity in bulk (issue "Proximity in bulk"): `Scene::nearest_batch` and
//! `Scene::within_batch` on a million points against the loops a user would otherwise write,
//! kiddo 5's `nearest_one` and `within_unsorted` over the balls' centres and parry 0.25.3's
//! `project_local_point` on a `Compound` of the balls, on the same balls and points in one run.
//!
//! The workload: `10^5` balls of radius 1 with centres uniform in a cube that they fill to 10 %
//! (overlaps allowed: the scene bench's, `benches/scene.rs`), and `10^6` points in it, either the
//! centres of a `100^3` grid over the cube (in the grid's own order, x slowest) or uniform
//! (in no order). `nearest` asks for the nearest body at any distance; kiddo for the nearest
//! centre (the same ball, every radius being 1); parry for the projection on the compound's
//! surface with the inside flag. `within(p, 2)` lists the balls within 2 of the point; kiddo the
//! centres within 3, unsorted. One thread, but for the `two threads` rows (`_par` forms on a pool
//! of two). Criterion's throughput is the points, so its figures are per point.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench bulk
//! cargo bench -p raysweep-benches --bench bulk --profile bench-lto
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use kiddo::{KdTree, SquaredEuclidean};
use raysweep::nalgebra::Point3;
use raysweep::{Scene, Sphere};
use raysweep_benches::{Width, in_cube, p3, sphere_cloud, unit_balls};

use rand::SeedableRng;
use rand::rngs::StdRng;

const BALLS: usize = 100_000;
const SIDE: usize = 100;
const WITHIN: f64 = 2.0;

/// The two sets of points: the grid's centres and as many uniform points, in the cube of side
/// `side` around the origin.
fn point_sets(side: f64) -> [(&'static str, Vec<[f64; 3]>); 2] {
    let mut grid = Vec::with_capacity(SIDE * SIDE * SIDE);
    let at = |k: usize| ((k as f64 + 0.5) / SIDE as f64 - 0.5) * side;
    for i in 0..SIDE {
        for j in 0..SIDE {
            for k in 0..SIDE {
                grid.push([at(i), at(j), at(k)]);
            }
        }
    }
    let mut rng = StdRng::seed_from_u64(0x0000_b01c);
    let random = (0..grid.len())
        .map(|_| in_cube(&mut rng, side / 2.0))
        .collect();
    [("grid", grid), ("random", random)]
}

fn group<'a>(
    c: &'a mut Criterion,
    name: String,
) -> BenchmarkGroup<'a, criterion::measurement::WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements((SIDE * SIDE * SIDE) as u64));
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(12));
    g
}

/// raysweep's batches in width `T`, on one thread and on two.
fn ours<T: Width>(c: &mut Criterion, width: &str) {
    let (centres, side) = sphere_cloud(BALLS);
    let scene: Scene<T, 3, Sphere<T>> = Scene::new(unit_balls::<T>(&centres));
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of two threads");
    for (set, points) in point_sets(side) {
        let at: Vec<Point3<T>> = points.iter().map(|p| p3(*p)).collect();
        let mut found = vec![None; at.len()];
        let inf = T::of(f64::INFINITY);
        let mut g = group(c, format!("{width}/nearest, {set}"));
        g.bench_function("raysweep nearest_batch", |b| {
            b.iter(|| scene.nearest_batch(black_box(&at), inf, &mut found))
        });
        g.bench_function("raysweep nearest_batch_par, two threads", |b| {
            b.iter(|| two.install(|| scene.nearest_batch_par(black_box(&at), inf, &mut found)))
        });
        g.finish();
        let distance = T::of(WITHIN);
        let (mut offsets, mut bodies) = (Vec::new(), Vec::new());
        let mut g = group(c, format!("{width}/within {WITHIN}, {set}"));
        g.bench_function("raysweep within_batch", |b| {
            b.iter(|| scene.within_batch(black_box(&at), distance, &mut offsets, &mut bodies))
        });
        g.bench_function("raysweep within_batch_par, two threads", |b| {
            b.iter(|| {
                two.install(|| {
                    scene.within_batch_par(black_box(&at), distance, &mut offsets, &mut bodies)
                })
            })
        });
        g.finish();
    }
}

/// kiddo's loops over the centres: the nearest, and those within `WITHIN + 1`.
macro_rules! kiddo {
    ($name:ident, $t:ty, $width:literal) => {
        fn $name(c: &mut Criterion) {
            let (centres, side) = sphere_cloud(BALLS);
            let mut tree: KdTree<$t, 3> = KdTree::new();
            for (id, c) in centres.iter().enumerate() {
                tree.add(&c.map(|x| x as $t), id as u64);
            }
            let reach = (WITHIN + 1.0) as $t;
            for (set, points) in point_sets(side) {
                let at: Vec<[$t; 3]> = points.iter().map(|p| p.map(|x| x as $t)).collect();
                let mut nearest = vec![0u64; at.len()];
                let mut g = group(c, format!("{}/nearest, {set}", $width));
                g.bench_function("kiddo nearest_one", |b| {
                    b.iter(|| {
                        for (p, n) in at.iter().zip(nearest.iter_mut()) {
                            *n = tree.nearest_one::<SquaredEuclidean>(black_box(p)).item;
                        }
                    })
                });
                g.finish();
                let mut g = group(c, format!("{}/within {WITHIN}, {set}", $width));
                let mut found = 0usize;
                g.bench_function("kiddo within_unsorted", |b| {
                    b.iter(|| {
                        for p in &at {
                            found += tree
                                .within_unsorted::<SquaredEuclidean>(black_box(p), reach * reach)
                                .len();
                        }
                    })
                });
                black_box(found);
                g.finish();
            }
        }
    };
}

kiddo!(kiddo_f32, f32, "f32");
kiddo!(kiddo_f64, f64, "f64");

/// parry's loop of point projections on a `Compound` of the balls.
macro_rules! parry {
    ($name:ident, $parry:ident, $t:ty, $width:literal) => {
        fn $name(c: &mut Criterion) {
            use $parry::na::Point3 as P;
            use $parry::query::PointQuery as _;
            let (centres, side) = sphere_cloud(BALLS);
            let compound = raysweep_benches::parry_unit_balls!($parry, $t, centres);
            for (set, points) in point_sets(side) {
                let at: Vec<P<$t>> = points
                    .iter()
                    .map(|p| P::new(p[0] as $t, p[1] as $t, p[2] as $t))
                    .collect();
                let mut out = vec![None; at.len()];
                let mut g = group(c, format!("{}/nearest, {set}", $width));
                g.bench_function("parry project_local_point", |b| {
                    b.iter(|| {
                        for (p, o) in at.iter().zip(out.iter_mut()) {
                            *o = Some(compound.project_local_point(black_box(p), false));
                        }
                    })
                });
                g.finish();
            }
        }
    };
}

parry!(parry_f32, parry3d, f32, "f32");
parry!(parry_f64, parry3d_f64, f64, "f64");

fn all(c: &mut Criterion) {
    ours::<f32>(c, "f32");
    kiddo_f32(c);
    parry_f32(c);
    ours::<f64>(c, "f64");
    kiddo_f64(c);
    parry_f64(c);
}

criterion_group!(benches, all);
criterion_main!(benches);
