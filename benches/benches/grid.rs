//! `Grid::walk` against the textbook incremental walk of Amanatides and Woo, per cell visited:
//! a 256³ grid of cells 0.1 wide (not a binary fraction) from the origin, 4096 rays from points
//! on a sphere around it aimed at points inside it, each walk summing `length × value` over a
//! 256³ array of `f32` values. Criterion's throughput is the cells the exact walk visits, so its
//! figures are per cell. Before the groups, the incremental walk's error: its total length
//! against the exact chord, and the share of the length it credits to wrong cells. Run it as a
//! user's crate is built:
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench grid
//! cargo bench -p raysweep-benches --bench grid --profile bench-lto
//! ```

use std::collections::HashMap;
use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Aabb, Cast, Grid, Ray};
use raysweep_benches::{Width, p3, rays, unit_vector};

const N: usize = 256;
const SIZE: f64 = 0.1;
const RAYS: usize = 4096;

/// The rays: from a sphere of radius 30 around the grid's centre, aimed at points inside it.
fn crossing_rays() -> Vec<([f64; 3], [f64; 3])> {
    let mut rng = StdRng::seed_from_u64(0x6e1d);
    let half = 0.5 * N as f64 * SIZE;
    (0..RAYS)
        .map(|_| {
            let o = unit_vector(&mut rng).map(|x| half + 30.0 * x);
            let aim = [(); 3].map(|()| rng.random_range(0.05 * half..1.95 * half));
            (o, [aim[0] - o[0], aim[1] - o[1], aim[2] - o[2]])
        })
        .collect()
}

/// The voxel values: a smooth pattern, so no cell is special.
fn volume() -> Vec<f32> {
    (0..N * N * N)
        .map(|i| ((i % 97) as f32 * 0.01 + (i / (N * N)) as f32 * 0.001).fract())
        .collect()
}

fn flat(index: [usize; 3]) -> usize {
    (index[2] * N + index[1]) * N + index[0]
}

/// `Σ length × value` along `ray` by raysweep's walk.
fn exact_sum<T: Width>(grid: &Grid<T>, ray: &Ray<T>, values: &[f32]) -> f64 {
    let mut sum = 0.0;
    for cell in grid.walk(ray, T::of(f64::INFINITY)) {
        sum += (cell.exit - cell.enter).to_wide() * f64::from(values[flat(cell.index)]);
    }
    sum
}

/// The textbook incremental walk (Amanatides and Woo 1987) in width `T`: the entry by the slab
/// test, then each axis's next crossing advanced by adding the cell's width over the direction's
/// component. `visit(cell, length)` is called for each cell.
fn textbook<T: Width>(min: [T; 3], size: T, ray: &Ray<T>, mut visit: impl FnMut([usize; 3], T)) {
    let (o, d) = (ray.origin(), ray.dir());
    let n = T::of(N as f64);
    let (mut enter, mut exit) = (T::zero(), T::of(f64::INFINITY));
    for a in 0..3 {
        let lo = (min[a] - o[a]) / d[a];
        let hi = (min[a] + n * size - o[a]) / d[a];
        enter = enter.max(lo.min(hi));
        exit = exit.min(lo.max(hi));
    }
    if enter >= exit {
        return;
    }
    let mut index = [0usize; 3];
    let mut next = [T::zero(); 3];
    let mut delta = [T::zero(); 3];
    let mut step = [0isize; 3];
    for a in 0..3 {
        let p = o[a] + enter * d[a];
        let k = ((p - min[a]) / size)
            .floor()
            .to_wide()
            .clamp(0.0, N as f64 - 1.0) as usize;
        index[a] = k;
        step[a] = if d[a] > T::zero() { 1 } else { -1 };
        let plane = min[a] + T::of((k + usize::from(d[a] > T::zero())) as f64) * size;
        next[a] = if d[a] != T::zero() {
            (plane - o[a]) / d[a]
        } else {
            T::of(f64::INFINITY)
        };
        delta[a] = (size / d[a]).abs();
    }
    let mut t = enter;
    loop {
        let a = if next[0] < next[1] {
            if next[0] < next[2] { 0 } else { 2 }
        } else if next[1] < next[2] {
            1
        } else {
            2
        };
        let end = next[a].min(exit);
        visit(index, end - t);
        if next[a] >= exit {
            return;
        }
        t = next[a];
        next[a] += delta[a];
        let k = index[a] as isize + step[a];
        if k < 0 || k >= N as isize {
            return;
        }
        index[a] = k as usize;
    }
}

/// The incremental walk's error on `rays`, against raysweep's walk: the largest relative error
/// of the total length against the chord, and the share of all length put in wrong cells.
fn textbook_error<T: Width>(grid: &Grid<T>, rays: &[Ray<T>]) -> (f64, f64) {
    let min = [T::zero(); 3];
    let size = T::of(SIZE);
    let bounds = Aabb::new(Point3::origin(), p3::<f64>([N as f64 * SIZE; 3])).unwrap();
    let (mut worst, mut misplaced, mut total) = (0.0f64, 0.0, 0.0);
    for ray in rays {
        let mut exact: HashMap<[usize; 3], f64> = HashMap::new();
        for cell in grid.walk(ray, T::of(f64::INFINITY)) {
            exact.insert(cell.index, (cell.exit - cell.enter).to_wide());
        }
        let mut theirs: HashMap<[usize; 3], f64> = HashMap::new();
        textbook(min, size, ray, |index, length| {
            *theirs.entry(index).or_default() += length.to_wide();
        });
        let wide = Ray::new(
            Point3::from(ray.origin().coords.map(T::to_wide)),
            Vector3::from(ray.dir().into_inner().map(T::to_wide)),
        )
        .unwrap();
        let Some(span) = bounds.ray_span(&wide) else {
            continue;
        };
        let chord = span.exit - span.enter.max(0.0);
        let sum: f64 = theirs.values().sum();
        worst = worst.max((sum - chord).abs() / chord);
        let cells: std::collections::HashSet<_> = exact.keys().chain(theirs.keys()).collect();
        misplaced += cells
            .into_iter()
            .map(|c| (exact.get(c).unwrap_or(&0.0) - theirs.get(c).unwrap_or(&0.0)).abs())
            .sum::<f64>()
            / 2.0;
        total += chord;
    }
    (worst, misplaced / total)
}

fn width<T: Width>(c: &mut Criterion, name: &str, values: &[f32]) {
    let grid = Grid::new(Point3::origin(), Vector3::repeat(T::of(SIZE)), [N; 3]).unwrap();
    let rays: Vec<Ray<T>> = rays(&crossing_rays());
    let cells: usize = rays
        .iter()
        .map(|r| grid.walk(r, T::of(f64::INFINITY)).count())
        .sum();
    let (worst, misplaced) = textbook_error(&grid, &rays);
    println!(
        "{name}: {cells} cells; the incremental walk's total length off the chord by up to {worst:.2e} \
         (relative), {:.4} % of the length in wrong cells",
        100.0 * misplaced
    );
    let mut g = c.benchmark_group(format!("{name}/grid walk, 256³, per cell"));
    g.throughput(Throughput::Elements(cells as u64));
    g.bench_function("raysweep", |b| {
        b.iter(|| {
            rays.iter()
                .map(|r| exact_sum(&grid, black_box(r), values))
                .sum::<f64>()
        })
    });
    g.bench_function("textbook incremental", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for r in &rays {
                textbook(
                    [T::zero(); 3],
                    T::of(SIZE),
                    black_box(r),
                    |index, length| {
                        sum += length.to_wide() * f64::from(values[flat(index)]);
                    },
                );
            }
            sum
        })
    });
    g.finish();
}

fn all(c: &mut Criterion) {
    let values = volume();
    width::<f32>(c, "f32", &values);
    width::<f64>(c, "f64", &values);
}

criterion_group!(benches, all);
criterion_main!(benches);
