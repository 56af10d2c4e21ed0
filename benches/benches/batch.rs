//! `cast_rays` against a loop of `cast_ray`, per ray, for the sphere and the box in both widths:
//! the batch speed-up as a user's crate sees it.
//!
//! 4096 rays with origins uniform in `[-10, 10]³`, each aimed at a point uniform in `[-2, 2]³`,
//! against the unit sphere at the origin and the box of half extents `(1, 0.75, 1.25)` there;
//! and the same over 16 384 fresh rays, too many for the CPU's branch predictor to learn each
//! ray's branches, as it learns those of 4096 timed over and over.
//! The loop stores each cast's whole result, as `cast_rays` does. Criterion's throughput is the
//! 4096 rays, so it reports time per ray. Run it as a user's crate is built, in both profiles:
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench batch
//! cargo bench -p raysweep-benches --bench batch --profile bench-lto
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raysweep::nalgebra::Point3;
use raysweep::{Aabb, Cast, Hit, Ray, Sphere};
use raysweep_benches::{Width, in_cube_aimed, rays, v3};

const RAYS: usize = 4096;
/// The size of the ray set the branch predictor does not learn.
const FRESH: usize = 1 << 14;

/// The loop of single casts and the batch, on `shape`, as the group `name`.
fn loop_and_batch<T: Width, S: Cast<T>>(c: &mut Criterion, name: &str, shape: &S, rays: &[Ray<T>]) {
    let inf = T::of(f64::INFINITY);
    let mut hits: Vec<Option<Hit<T>>> = vec![None; rays.len()];
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(rays.len() as u64));
    g.bench_function("cast_ray loop", |b| {
        b.iter(|| {
            for (ray, hit) in black_box(rays).iter().zip(hits.iter_mut()) {
                *hit = shape.cast_ray(ray, inf);
            }
            black_box(&mut hits);
        })
    });
    g.bench_function("cast_rays", |b| {
        b.iter(|| {
            shape.cast_rays(black_box(rays), inf, &mut hits);
            black_box(&mut hits);
        })
    });
    g.finish();
}

fn width<T: Width>(c: &mut Criterion, name: &str) {
    let sphere = Sphere::new(Point3::origin(), T::of(1.0)).unwrap();
    let aabb = Aabb::from_center(Point3::origin(), v3([1.0, 0.75, 1.25])).unwrap();
    for (count, set) in [(RAYS, ""), (FRESH, ", 16384 fresh rays")] {
        let rays = rays::<T>(&in_cube_aimed(count));
        loop_and_batch(c, &format!("{name}/batch vs sphere{set}"), &sphere, &rays);
        loop_and_batch(c, &format!("{name}/batch vs box{set}"), &aabb, &rays);
    }
}

fn all(c: &mut Criterion) {
    width::<f32>(c, "f32");
    width::<f64>(c, "f64");
}

criterion_group!(benches, all);
criterion_main!(benches);
