//! 10^7 balls (issue "Scenes of 10^6 to 10^7 distinct bodies"): first-hit rays in `f32` and
//! `f64` against obvhs 0.4 on the same balls and rays, the workload of `obvhs.rs` ten times
//! larger. raysweep's scenes are built on rayon's threads, obvhs's on one (its `parallel`
//! feature is off); building the three takes about a minute and 3 GB before the timing starts.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench large
//! ```

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use raysweep::{BodyHit, Ray, Scene, Sphere};
use raysweep_benches::{rays, rays_in_cube, sphere_cloud, unit_balls};

#[path = "common/obvhs.rs"]
mod against;
use against::{agreeing, first_hits, obvhs_build, obvhs_first_hits, obvhs_rays, vec3a};

const BALLS: usize = 10_000_000;
const RAYS: usize = 4096;

fn bench(c: &mut Criterion) {
    let (centres, side) = sphere_cloud(BALLS);
    let pairs = rays_in_cube(RAYS, side);
    let narrow: Scene<f32, 3, Sphere<f32>> = Scene::new(unit_balls(&centres));
    let wide: Scene<f64, 3, Sphere<f64>> = Scene::new(unit_balls(&centres));
    let glam_centres: Vec<_> = centres.iter().map(|c| vec3a(*c)).collect();
    drop(centres);
    let bvh = obvhs_build(&glam_centres);
    let narrow_rays: Vec<Ray<f32>> = rays(&pairs);
    let wide_rays: Vec<Ray<f64>> = rays(&pairs);
    let their_rays = obvhs_rays(&narrow_rays);
    println!(
        "{BALLS} spheres: hierarchy {:.1} (f32) and {:.1} (f64) bytes per body",
        narrow.hierarchy_bytes() as f64 / BALLS as f64,
        wide.hierarchy_bytes() as f64 / BALLS as f64
    );

    let mut g = c.benchmark_group(format!("f32/scene first hit vs obvhs, {BALLS} spheres"));
    g.throughput(Throughput::Elements(RAYS as u64));
    g.sample_size(20);
    let mut ours: Vec<Option<BodyHit<f32>>> = vec![None; RAYS];
    g.bench_function("raysweep", |b| {
        b.iter(|| first_hits(&narrow, &narrow_rays, f32::INFINITY, &mut ours))
    });
    let mut theirs: Vec<Option<(u32, f32)>> = vec![None; RAYS];
    g.bench_function("obvhs", |b| {
        b.iter(|| obvhs_first_hits(&bvh, &glam_centres, &their_rays, &mut theirs))
    });
    let mut wide_hits: Vec<Option<BodyHit<f64>>> = vec![None; RAYS];
    g.bench_function("raysweep f64", |b| {
        b.iter(|| first_hits(&wide, &wide_rays, f64::INFINITY, &mut wide_hits))
    });
    g.finish();
    let agree = agreeing(&ours, &theirs);
    println!("{BALLS} spheres: obvhs names the same first body for {agree} of {RAYS} rays");
}

criterion_group!(benches, bench);
criterion_main!(benches);
