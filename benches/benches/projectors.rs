//! `Grid::project` and `Grid::backproject` on the tomography workload of issue "Tomography at
//! ASTRA's speed": a 2D parallel beam through an `N × N` image of unit pixels centred on the
//! origin, 180 angles over half a turn, a detector of `1.5 N` unit pixels, one ray through each
//! detector pixel's centre. One thread, and two (`_par` on a two-thread pool). Criterion's
//! throughput is the rays, so its figures are per ray; ASTRA's time on the same rays comes from
//! `python/benchmarks/projectors.py` (ASTRA runs from Python only). Run it as a user's crate is
//! built:
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench projectors
//! cargo bench -p raysweep-benches --bench projectors --profile bench-lto
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raysweep::nalgebra::{Point2, Vector2};
use raysweep::{Grid, Ray};
use raysweep_benches::Width;

const ANGLES: usize = 180;

/// The parallel beam: for each angle θ, rays along `(cos θ, sin θ)` from `N` behind the centre,
/// offset across by each detector pixel's centre.
fn parallel_beam<T: Width>(n: usize) -> Vec<Ray<T, 2>> {
    let detectors = 3 * n / 2;
    let mut out = Vec::with_capacity(ANGLES * detectors);
    for a in 0..ANGLES {
        let theta = std::f64::consts::PI * a as f64 / ANGLES as f64;
        let (s, c) = theta.sin_cos();
        for d in 0..detectors {
            let u = d as f64 + 0.5 - 0.5 * detectors as f64;
            let origin = Point2::new(-c * n as f64 - s * u, -s * n as f64 + c * u);
            out.push(
                Ray::new(origin.map(T::of), Vector2::new(c, s).map(T::of)).expect("a unit ray"),
            );
        }
    }
    out
}

/// A smooth image, so that no pixel is special.
fn image<T: Width>(n: usize) -> Vec<T> {
    (0..n * n)
        .map(|i| T::of(((i % 97) as f64 * 0.01 + (i / n) as f64 * 0.001).fract()))
        .collect()
}

fn width<T: Width>(c: &mut Criterion, name: &str) {
    let two = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool");
    let inf = T::of(f64::INFINITY);
    for n in [256, 512] {
        let half = T::of(0.5 * n as f64);
        let grid: Grid<T, 2> = Grid::new(
            Point2::new(-half, -half),
            Vector2::repeat(T::of(1.0)),
            [n, n],
        )
        .expect("a grid");
        let rays = parallel_beam::<T>(n);
        let volume = image::<T>(n);
        let mut sums = vec![T::zero(); rays.len()];
        let mut back = vec![T::zero(); n * n];
        let mut g = c.benchmark_group(format!("{name}/parallel beam {n}², 180 angles"));
        g.throughput(Throughput::Elements(rays.len() as u64));
        g.sample_size(20);
        g.bench_function("project", |b| {
            b.iter(|| grid.project(black_box(&volume), &rays, inf, &mut sums))
        });
        g.bench_function("backproject", |b| {
            b.iter(|| grid.backproject(black_box(&sums), &rays, inf, &mut back))
        });
        g.bench_function("project_par, 2 threads", |b| {
            b.iter(|| two.install(|| grid.project_par(black_box(&volume), &rays, inf, &mut sums)))
        });
        g.bench_function("backproject_par, 2 threads", |b| {
            b.iter(|| two.install(|| grid.backproject_par(black_box(&sums), &rays, inf, &mut back)))
        });
        g.finish();
    }
}

fn all(c: &mut Criterion) {
    width::<f32>(c, "f32");
    width::<f64>(c, "f64");
}

criterion_group!(benches, all);
criterion_main!(benches);
