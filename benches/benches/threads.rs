//! `cast_rays` against `cast_rays_par` (rayon) on a batch of 65 536 rays, `f64`, against the unit
//! sphere and the box `[−1, 1]³`: how the threaded batch scales on the machine's cores. The rays
//! are the 4096 of the `casts` benchmark, repeated. Run it without pinning the process to a core:
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench threads
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raysweep::nalgebra::Point3;
use raysweep::{Aabb, Cast, Ray, Sphere};
use raysweep_benches::{on_sphere_aimed, p3, rays};

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

criterion_group!(benches, threads);
criterion_main!(benches);
