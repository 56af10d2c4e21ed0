//! Scenes of spheres against obvhs 0.4 and, with the feature `embree`, Embree 3 (issues "Scenes
//! as fast as the fastest BVH", "Scenes of 10^6 to 10^7 distinct bodies" and "Scenes at Embree's
//! speed"; `common/embree.rs`): first-hit rays in `f32` and `f64` at 10^3, 10^5 and 10^6
//! spheres (10^7 in `large.rs`) and the build at 10^5, on the same spheres and the same rays in
//! one run; at 10^5 also raysweep's scene of `Body`s and its sphere casts (radius 0.25), for the
//! ratios to its own `f32` rays. It prints the hierarchy's bytes per body.
//!
//! The workload is the scene bench's (`benches/scene.rs`): balls of radius 1 filling 10 % of a
//! cube, 4096 rays from uniform points in it in isotropic directions, unbounded. obvhs builds its
//! compressed wide BVH (`build_cwbvh`, `BvhBuildParams::medium_build`, one thread: its `parallel`
//! feature is off) over the balls' boxes and traverses it with `ray_traverse`, a textbook `f32` ray
//! and sphere test in the closure. raysweep's build runs on one thread here too.
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench obvhs
//! cargo bench -p raysweep-benches --bench obvhs --profile bench-lto
//! cargo bench -p raysweep-benches --bench obvhs --features embree   # Embree 3 beside them
//! ```

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use obvhs::ray::Ray as ObRay;
use raysweep::{Body, BodyHit, Ray, Scene, Sphere};
use raysweep_benches::{rays, rays_in_cube, sphere_cloud, unit_balls};

#[path = "common/obvhs.rs"]
mod against;
use against::{agreeing, first_hits, obvhs_build, obvhs_first_hits, obvhs_rays, vec3a};

#[cfg(feature = "embree")]
#[path = "common/embree.rs"]
mod embree;

const RAYS: usize = 4096;

fn bench(c: &mut Criterion) {
    let inf = f32::INFINITY;
    for n in [1_000, 100_000, 1_000_000] {
        let (centres, side) = sphere_cloud(n);
        let balls: Vec<Sphere<f32>> = unit_balls(&centres);
        let pairs = rays_in_cube(RAYS, side);
        let ours_rays: Vec<Ray<f32>> = rays(&pairs);
        let their_rays: Vec<ObRay> = obvhs_rays(&ours_rays);
        let glam_centres: Vec<_> = centres.iter().map(|c| vec3a(*c)).collect();
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let scene: Scene<f32, 3, Sphere<f32>> = one.install(|| Scene::new(balls.clone()));
        let bvh = obvhs_build(&glam_centres);
        let mut g = c.benchmark_group(format!("f32/scene first hit vs obvhs, {n} spheres"));
        g.throughput(Throughput::Elements(RAYS as u64));
        let mut ours_hits: Vec<Option<BodyHit<f32>>> = vec![None; RAYS];
        g.bench_function("raysweep", |b| {
            b.iter(|| first_hits(&scene, &ours_rays, inf, &mut ours_hits))
        });
        let mut their_hits: Vec<Option<(u32, f32)>> = vec![None; RAYS];
        g.bench_function("obvhs", |b| {
            b.iter(|| obvhs_first_hits(&bvh, &glam_centres, &their_rays, &mut their_hits))
        });
        #[cfg(feature = "embree")]
        let embree_hits = {
            let embree = embree::Embree::new(&centres, 1.0);
            let mut hits: Vec<Option<(u32, f32)>> = vec![None; RAYS];
            g.bench_function("embree", |b| {
                b.iter(|| embree::first_hits(&embree, &ours_rays, &mut hits))
            });
            hits
        };
        // The f64 scene on the same balls (obvhs has them rounded to f32).
        let wide: Scene<f64, 3, Sphere<f64>> = one.install(|| Scene::new(unit_balls(&centres)));
        let wide_rays: Vec<Ray<f64>> = rays(&pairs);
        let mut wide_hits: Vec<Option<BodyHit<f64>>> = vec![None; RAYS];
        g.bench_function("raysweep f64", |b| {
            b.iter(|| first_hits(&wide, &wide_rays, f64::INFINITY, &mut wide_hits))
        });
        println!(
            "{n} spheres: hierarchy {:.1} (f32) and {:.1} (f64) bytes per body",
            scene.hierarchy_bytes() as f64 / n as f64,
            wide.hierarchy_bytes() as f64 / n as f64
        );
        if n == 100_000 {
            // The issue's other ratios, on the same rays in the same run: the mixed scene of
            // `Body`s, and sphere casts of radius 0.25.
            let mixed: Scene<f32> = Scene::new(balls.iter().map(|&s| Body::from(s)).collect());
            g.bench_function("raysweep Body", |b| {
                b.iter(|| first_hits(&mixed, &ours_rays, inf, &mut ours_hits))
            });
            g.bench_function("raysweep sphere cast 0.25", |b| {
                b.iter(|| {
                    for (ray, hit) in ours_rays.iter().zip(ours_hits.iter_mut()) {
                        *hit = scene.cast_sphere(black_box(ray), 0.25, inf);
                    }
                    black_box(&ours_hits);
                })
            });
            // Back to the first hits, for the comparison below.
            for (ray, hit) in ours_rays.iter().zip(ours_hits.iter_mut()) {
                *hit = scene.cast_ray(ray, inf);
            }
        }
        g.finish();
        let agree = agreeing(&ours_hits, &their_hits);
        println!("{n} spheres: obvhs names the same first body for {agree} of {RAYS} rays");
        #[cfg(feature = "embree")]
        println!(
            "{n} spheres: Embree names the same first body for {} of {RAYS} rays",
            agreeing(&ours_hits, &embree_hits)
        );
        if n == 100_000 {
            let mut g = c.benchmark_group(format!("f32/scene build vs obvhs, {n} spheres"));
            g.throughput(Throughput::Elements(n as u64));
            g.sample_size(10);
            g.bench_function("raysweep, one thread", |b| {
                b.iter(|| {
                    one.install(|| Scene::<f32, 3, Sphere<f32>>::new(black_box(balls.clone())))
                })
            });
            g.bench_function("obvhs, one thread", |b| {
                b.iter(|| obvhs_build(black_box(&glam_centres)))
            });
            g.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
