//! Scenes of spheres against parry 0.25.3's `Compound` of balls and against the loop over the
//! bodies: first-hit ray casts, sphere casts, the walks (any-hit within 20, spans, the bodies
//! holding a point), builds, growth with the number of bodies, and threads.
//!
//! The workload: `N` balls of radius 1 with centres uniform in a cube that they fill to 10 %
//! (overlaps allowed), 4096 rays from points uniform in the cube in isotropic directions, maximum
//! distance infinite; sphere casts move a ball of radius 0.25. Criterion's throughput is the rays
//! (or the bodies, for builds), so its figures are per ray (per body). The build runs on rayon's
//! threads (the crate's `rayon` feature) and on one. The hierarchy's memory per body is printed
//! before the groups. Run it as a user's crate is built:
//!
//! ```sh
//! cargo bench -p raysweep-benches --bench scene
//! cargo bench -p raysweep-benches --bench scene --profile bench-lto
//! ```

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use raysweep::{BodyHit, Cast, Ray, Scene, Sphere};
use raysweep_benches::{Width, rays, rays_in_cube, sphere_cloud, unit_balls};

const RAYS: usize = 4096;
const BALL: f64 = 0.25;

fn per_ray<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(RAYS as u64));
    g
}

/// Every result stored, as for the single casts.
fn store_each<R, H>(rays: &[R], hits: &mut [H], cast: impl Fn(&R) -> H) {
    for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
        *hit = cast(ray);
    }
    black_box(hits);
}

/// raysweep's scene in width `T`: first hits and sphere casts at 10^5 bodies, growth from 10^3
/// to 10^6, the loop over 10^3 bodies, the build, and threads.
fn ours<T: Width>(c: &mut Criterion, width: &str) {
    let inf = T::of(f64::INFINITY);
    for n in [1_000, 100_000, 1_000_000] {
        let (centres, side) = sphere_cloud(n);
        let scene: Scene<T, 3, Sphere<T>> = Scene::new(unit_balls::<T>(&centres));
        println!(
            "{width} scene of {n} spheres: hierarchy {:.1} bytes per body",
            scene.hierarchy_bytes() as f64 / n as f64
        );
        let rays: Vec<Ray<T>> = rays(&rays_in_cube(RAYS, side));
        let mut hits: Vec<Option<BodyHit<T>>> = vec![None; RAYS];
        let mut g = per_ray(c, &format!("{width}/scene first hit, {n} spheres"));
        g.bench_function("raysweep", |b| {
            b.iter(|| store_each(&rays, &mut hits, |r| scene.cast_ray(black_box(r), inf)))
        });
        if n == 100_000 {
            let ball = T::of(BALL);
            g.finish();
            let mut g = per_ray(c, &format!("{width}/scene sphere cast, {n} spheres"));
            g.bench_function("raysweep", |b| {
                b.iter(|| {
                    store_each(&rays, &mut hits, |r| {
                        scene.cast_sphere(black_box(r), ball, inf)
                    })
                })
            });
            g.finish();
            // The walks that visit every child met: any-hit, spans, and the bodies holding a
            // point (the rays' origins).
            let mut g = per_ray(c, &format!("{width}/scene walks, {n} spheres"));
            let far = T::of(20.0);
            g.bench_function("hits_any", |b| {
                b.iter(|| {
                    rays.iter()
                        .filter(|r| scene.hits_any(black_box(r), far))
                        .count()
                })
            });
            let mut spans = Vec::new();
            g.bench_function("ray_spans", |b| {
                b.iter(|| {
                    let mut total = 0;
                    for r in &rays {
                        scene.ray_spans(black_box(r), &mut spans);
                        total += spans.len();
                    }
                    total
                })
            });
            let mut holding = Vec::new();
            g.bench_function("containing", |b| {
                b.iter(|| {
                    let mut total = 0;
                    for r in &rays {
                        scene.containing(black_box(r.origin()), &mut holding);
                        total += holding.len();
                    }
                    total
                })
            });
            g.finish();
            let mut g = per_ray(c, &format!("{width}/scene threads, {n} spheres"));
            g.bench_function("cast_rays", |b| {
                b.iter(|| scene.cast_rays(black_box(&rays), inf, &mut hits))
            });
            g.bench_function("cast_rays_par", |b| {
                b.iter(|| scene.cast_rays_par(black_box(&rays), inf, &mut hits))
            });
            g.finish();
            let mut g = c.benchmark_group(format!("{width}/scene build, {n} spheres"));
            g.throughput(Throughput::Elements(n as u64));
            g.sample_size(10);
            let bodies = unit_balls::<T>(&centres);
            g.bench_function("raysweep", |b| {
                b.iter(|| Scene::<T, 3, Sphere<T>>::new(black_box(bodies.clone())))
            });
            // The build's lower parts run on rayon's threads; here on one.
            let one = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .unwrap();
            g.bench_function("raysweep, one thread", |b| {
                b.iter(|| one.install(|| Scene::<T, 3, Sphere<T>>::new(black_box(bodies.clone()))))
            });
            g.finish();
            continue;
        }
        if n == 1_000 {
            let bodies = scene.bodies();
            g.bench_function("loop over the bodies", |b| {
                b.iter(|| {
                    store_each(&rays, &mut hits, |r| {
                        let mut best: Option<BodyHit<T>> = None;
                        for (id, s) in bodies.iter().enumerate() {
                            if let Some(hit) = s.cast_ray(black_box(r), inf)
                                && best.is_none_or(|b| hit.distance < b.hit.distance)
                            {
                                best = Some(BodyHit { body: id, hit });
                            }
                        }
                        best
                    })
                })
            });
        }
        g.finish();
    }
}

/// parry's `Compound` of balls on the same spheres and rays, with the normal-returning calls.
macro_rules! parry {
    ($name:ident, $parry:ident, $t:ty, $width:literal) => {
        fn $name(c: &mut Criterion) {
            use $parry::na::{Isometry3, Point3 as P, Translation3, Vector3 as V};
            use $parry::query::{Ray as PRay, RayCast, ShapeCastOptions, cast_shapes};
            use $parry::shape::{Ball, Compound, SharedShape};
            let n = 100_000;
            let (centres, side) = sphere_cloud(n);
            let parts = || -> Vec<(Isometry3<$t>, SharedShape)> {
                unit_balls::<$t>(&centres)
                    .iter()
                    .map(|s| {
                        let c = s.center();
                        (
                            Translation3::new(c.x, c.y, c.z).into(),
                            SharedShape::ball(1.0),
                        )
                    })
                    .collect()
            };
            let compound = Compound::new(parts());
            let rays: Vec<PRay> = rays::<$t>(&rays_in_cube(RAYS, side))
                .iter()
                .map(|r| {
                    let (o, d) = (r.origin(), r.dir());
                    PRay::new(P::new(o.x, o.y, o.z), V::new(d.x, d.y, d.z))
                })
                .collect();
            let inf = <$t>::INFINITY;
            let mut hits = vec![None; RAYS];
            let mut g = per_ray(c, &format!("{}/scene first hit, {n} spheres", $width));
            g.bench_function("parry", |b| {
                b.iter(|| {
                    store_each(&rays, &mut hits, |r| {
                        compound.cast_local_ray_and_get_normal(black_box(r), inf, true)
                    })
                })
            });
            g.finish();
            let mover = Ball::new(BALL as $t);
            let options = ShapeCastOptions {
                max_time_of_impact: inf,
                ..ShapeCastOptions::default()
            };
            let at_origin = Isometry3::identity();
            let mut casts = vec![None; RAYS];
            let mut g = per_ray(c, &format!("{}/scene sphere cast, {n} spheres", $width));
            g.bench_function("parry", |b| {
                b.iter(|| {
                    store_each(&rays, &mut casts, |r| {
                        let from = Isometry3::translation(r.origin.x, r.origin.y, r.origin.z);
                        let cast = cast_shapes(
                            &from,
                            &r.dir,
                            &mover,
                            &at_origin,
                            &V::zeros(),
                            &compound,
                            options,
                        );
                        cast.ok().flatten()
                    })
                })
            });
            g.finish();
            let mut g = c.benchmark_group(format!("{}/scene build, {n} spheres", $width));
            g.throughput(Throughput::Elements(n as u64));
            g.sample_size(10);
            g.bench_function("parry", |b| b.iter(|| Compound::new(black_box(parts()))));
            g.finish();
        }
    };
}

parry!(parry_f32, parry3d, f32, "f32");
parry!(parry_f64, parry3d_f64, f64, "f64");

fn all(c: &mut Criterion) {
    ours::<f32>(c, "f32");
    parry_f32(c);
    ours::<f64>(c, "f64");
    parry_f64(c);
}

criterion_group!(benches, all);
criterion_main!(benches);
