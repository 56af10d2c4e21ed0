//! Scenes of spheres against obvhs 0.4 (issue "Scenes as fast as the fastest BVH"): first-hit
//! rays in `f32` at 10^3, 10^5 and 10^6 spheres, and the build at 10^5, on the same spheres and the
//! same rays in one run; at 10^5 also raysweep's `f64` scene, its scene of `Body`s and its sphere
//! casts (radius 0.25), for the ratios to its own `f32` rays.
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
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use obvhs::BvhBuildParams;
use obvhs::aabb::Aabb;
use obvhs::cwbvh::CwBvh;
use obvhs::cwbvh::builder::build_cwbvh;
use obvhs::ray::{Ray as ObRay, RayHit};
use raysweep::{Body, BodyHit, Ray, Scene, Sphere};
use raysweep_benches::{rays, rays_in_cube, sphere_cloud, unit_balls};

type Vec3A = glam::Vec3A;

const RAYS: usize = 4096;

fn vec3a(v: [f64; 3]) -> Vec3A {
    Vec3A::new(v[0] as f32, v[1] as f32, v[2] as f32)
}

/// The textbook ray-sphere test in `f32`: the nearer root of `|o + t·d − c|² = r²` for a unit
/// `d`, 0 from inside, `+∞` on a miss or behind.
fn textbook_sphere(o: Vec3A, d: Vec3A, c: Vec3A, r: f32) -> f32 {
    let oc = o - c;
    let b = oc.dot(d);
    let k = oc.dot(oc) - r * r;
    if k <= 0.0 {
        return 0.0;
    }
    let disc = b * b - k;
    if disc < 0.0 || b > 0.0 {
        return f32::INFINITY;
    }
    -b - disc.sqrt()
}

fn obvhs_build(centres: &[Vec3A]) -> CwBvh {
    let boxes: Vec<Aabb> = centres
        .iter()
        .map(|c| Aabb::new(*c - Vec3A::ONE, *c + Vec3A::ONE))
        .collect();
    build_cwbvh(
        &boxes,
        BvhBuildParams::medium_build(),
        &mut Duration::default(),
    )
}

fn obvhs_first_hit(bvh: &CwBvh, centres: &[Vec3A], ray: &ObRay) -> Option<(u32, f32)> {
    let mut hit = RayHit::none();
    bvh.ray_traverse(*ray, &mut hit, |r, id| {
        let c = centres[bvh.primitive_indices[id] as usize];
        textbook_sphere(r.origin, r.direction, c, 1.0)
    })
    .then(|| (bvh.primitive_indices[hit.primitive_id as usize], hit.t))
}

fn bench(c: &mut Criterion) {
    let inf = f32::INFINITY;
    for n in [1_000, 100_000, 1_000_000] {
        let (centres, side) = sphere_cloud(n);
        let balls: Vec<Sphere<f32>> = unit_balls(&centres);
        let pairs = rays_in_cube(RAYS, side);
        let ours_rays: Vec<Ray<f32>> = rays(&pairs);
        // obvhs gets raysweep's stored unit directions, so both trace the same rays.
        let their_rays: Vec<ObRay> = ours_rays
            .iter()
            .map(|r| {
                let (o, d) = (r.origin(), r.dir());
                ObRay::new_inf(Vec3A::new(o.x, o.y, o.z), Vec3A::new(d.x, d.y, d.z))
            })
            .collect();
        let glam_centres: Vec<Vec3A> = centres.iter().map(|c| vec3a(*c)).collect();
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
            b.iter(|| {
                for (ray, hit) in ours_rays.iter().zip(ours_hits.iter_mut()) {
                    *hit = scene.cast_ray(black_box(ray), inf);
                }
                black_box(&ours_hits);
            })
        });
        let mut their_hits: Vec<Option<(u32, f32)>> = vec![None; RAYS];
        g.bench_function("obvhs", |b| {
            b.iter(|| {
                for (ray, hit) in their_rays.iter().zip(their_hits.iter_mut()) {
                    *hit = obvhs_first_hit(&bvh, &glam_centres, black_box(ray));
                }
                black_box(&their_hits);
            })
        });
        // The f64 scene on the same balls (obvhs has them rounded to f32).
        let wide: Scene<f64, 3, Sphere<f64>> = one.install(|| Scene::new(unit_balls(&centres)));
        let wide_rays: Vec<Ray<f64>> = rays(&pairs);
        let mut wide_hits: Vec<Option<BodyHit<f64>>> = vec![None; RAYS];
        g.bench_function("raysweep f64", |b| {
            b.iter(|| {
                for (ray, hit) in wide_rays.iter().zip(wide_hits.iter_mut()) {
                    *hit = wide.cast_ray(black_box(ray), f64::INFINITY);
                }
                black_box(&wide_hits);
            })
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
                b.iter(|| {
                    for (ray, hit) in ours_rays.iter().zip(ours_hits.iter_mut()) {
                        *hit = mixed.cast_ray(black_box(ray), inf);
                    }
                    black_box(&ours_hits);
                })
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
        let agree = ours_hits
            .iter()
            .zip(&their_hits)
            .filter(|(a, b)| a.map(|h| h.body as u32) == b.map(|h| h.0))
            .count();
        println!("{n} spheres: obvhs names the same first body for {agree} of {RAYS} rays");
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
