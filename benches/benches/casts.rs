//! ns per cast for every shape × {ray cast, sphere cast} × {f32, f64}, side by side with parry
//! 0.25.3 (the last nalgebra-based release) on identical inputs, and the batch path against a
//! loop of single casts.
//!
//! Every query runs over the same fixed, seeded set of 4096 rays, of which about half hit, and
//! stores each cast's whole result (see `store_each`); the reported time is per cast (criterion's
//! throughput is 4096 elements per iteration). Run with `cargo bench -p raysweep-benches --bench casts`;
//! `docs/performance.md` records a run.
//!
//! Timed over and over, 4096 rays are few enough for the CPU's branch predictor to learn each
//! ray's branches, which flatters a branching cast. The "16384 fresh rays" groups repeat the ray
//! casts over a set four times larger (which the predictor does not learn) for raysweep's loop
//! and batch and for parry.
//!
//! The "small far sphere" groups cast rays at a sphere of radius 1/256 from 2560 of its radii
//! away, aimed as the usual set is at the unit targets: the small, distant targets of Monte
//! Carlo transport, whose far origins make the rounding of a plain evaluation large against the
//! sphere.

use std::hint::black_box;

use criterion::{
    BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main, measurement::WallTime,
};
use raysweep::nalgebra::{Point3, Rotation3, Unit};
use raysweep::{Aabb, Cast, Ellipsoid, Ray, Sphere};
use raysweep_benches::{Width, on_sphere_aimed, p3, v3};

const RAYS: usize = 4096;
/// The size of the ray set the branch predictor does not learn.
const FRESH: usize = 1 << 14;
/// The radius of the ball in sphere casts.
const BALL: f64 = 0.25;
/// The radius of the small sphere seen from afar: the rays' origins are 2560 of its radii away,
/// as for the small, distant targets of Monte Carlo transport.
const SMALL: f64 = 1.0 / 256.0;

struct Targets<T: Width> {
    sphere: Sphere<T>,
    aabb: Aabb<T>,
    ellipsoid: Ellipsoid<T>,
    rays: Vec<Ray<T>>,
    fresh: Vec<Ray<T>>,
    /// A sphere of radius [`SMALL`] at the origin, and rays aimed at it.
    small: Sphere<T>,
    rays_at_small: Vec<Ray<T>>,
}

fn rays<T: Width>(count: usize, size: f64) -> Vec<Ray<T>> {
    raysweep_benches::rays(&on_sphere_aimed(count, size))
}

fn targets<T: Width>() -> Targets<T> {
    let rotation =
        Rotation3::from_axis_angle(&Unit::new_normalize(v3::<T>([1.0, 2.0, 3.0])), T::of(0.7));
    Targets {
        sphere: Sphere::new(Point3::origin(), T::of(1.0)).unwrap(),
        aabb: Aabb::new(p3([-1.0, -1.0, -1.0]), p3([1.0, 1.0, 1.0])).unwrap(),
        ellipsoid: Ellipsoid::oriented(Point3::origin(), v3([1.0, 0.7, 0.5]), rotation).unwrap(),
        rays: rays(RAYS, 1.0),
        fresh: rays(FRESH, 1.0),
        small: Sphere::new(Point3::origin(), T::of(SMALL)).unwrap(),
        rays_at_small: rays(RAYS, SMALL),
    }
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Elements(RAYS as u64));
    g
}

/// The group of a ray-cast query over `count` rays: [`group`] for the usual set, a group named
/// for its size for the fresh rays.
fn group_for<'a>(c: &'a mut Criterion, query: &str, count: usize) -> BenchmarkGroup<'a, WallTime> {
    if count == RAYS {
        return group(c, query);
    }
    let mut g = c.benchmark_group(format!("{query}, {count} fresh rays"));
    g.throughput(Throughput::Elements(count as u64));
    g
}

/// Each cast's whole result stored, for raysweep and parry alike: a loop that only counted hits
/// would let the compiler drop the contact point and normal of whichever caster it inlines (it
/// does so for parry's ray casts), timing a hit test instead of the cast. This is also the
/// baseline of the batch target, since `cast_rays` stores each hit.
fn store_each<R, H>(rays: &[R], hits: &mut [H], cast: impl Fn(&R) -> H) {
    for (ray, hit) in rays.iter().zip(hits.iter_mut()) {
        *hit = cast(ray);
    }
    black_box(hits);
}

/// Benchmarks `cast` over `rays` as `name`, storing every result.
fn each<R, H: Clone>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    rays: &[R],
    cast: impl Fn(&R) -> Option<H>,
) {
    let mut hits = vec![None; rays.len()];
    g.bench_function(name, |b| b.iter(|| store_each(rays, &mut hits, &cast)));
}

/// A ray-cast group for a shape with a batch path: the loop of `cast_ray` and `cast_rays`.
fn ray_casts<T: Width, S: Cast<T, 3>>(
    mut g: BenchmarkGroup<'_, WallTime>,
    shape: &S,
    rays: &[Ray<T>],
) {
    let inf = T::of(f64::INFINITY);
    each(&mut g, "raysweep", rays, |r| {
        shape.cast_ray(black_box(r), inf)
    });
    g.bench_function("raysweep cast_rays", |b| {
        let mut hits = vec![None; rays.len()];
        b.iter(|| shape.cast_rays(black_box(rays), inf, &mut hits))
    });
    g.finish();
}

/// raysweep's casts in width `T`.
fn ours<T: Width>(c: &mut Criterion, width: &str) {
    let t = targets::<T>();
    let inf = T::of(f64::INFINITY);
    let ball = T::of(BALL);
    for rays in [&t.rays, &t.fresh] {
        let query = format!("{width}/ray vs sphere");
        ray_casts(group_for(c, &query, rays.len()), &t.sphere, rays);
        let query = format!("{width}/ray vs box");
        ray_casts(group_for(c, &query, rays.len()), &t.aabb, rays);
    }
    ray_casts(
        group(c, &format!("{width}/ray vs small far sphere")),
        &t.small,
        &t.rays_at_small,
    );
    let mut g = group(c, &format!("{width}/ray vs ellipsoid"));
    each(&mut g, "raysweep", &t.rays, |r| {
        t.ellipsoid.cast_ray(black_box(r), inf)
    });
    g.finish();
    let mut g = group(c, &format!("{width}/sphere cast vs sphere"));
    each(&mut g, "raysweep", &t.rays, |r| {
        t.sphere.cast_sphere(black_box(r), ball, inf)
    });
    g.finish();
    let mut g = group(c, &format!("{width}/sphere cast vs box"));
    each(&mut g, "raysweep", &t.rays, |r| {
        t.aabb.cast_sphere(black_box(r), ball, inf)
    });
    g.finish();
    let mut g = group(c, &format!("{width}/sphere cast vs ellipsoid"));
    each(&mut g, "raysweep", &t.rays, |r| {
        t.ellipsoid.cast_sphere(black_box(r), ball, inf)
    });
    g.finish();
}

/// parry's equivalents, with the normal-returning calls (raysweep always computes the point and
/// the normal). One macro body for both parry crates, which are the same source built twice.
macro_rules! parry {
    ($name:ident, $parry:ident, $t:ty, $width:literal) => {
        fn $name(c: &mut Criterion) {
            use $parry::na::{Isometry3, Point3 as P, Vector3 as V};
            use $parry::query::{Ray as PRay, RayCast, ShapeCastOptions, cast_shapes};
            use $parry::shape::{Ball, Cuboid};
            // The same origins and unit directions raysweep stores.
            let parry_rays = |count, size| -> Vec<PRay> {
                rays::<$t>(count, size)
                    .iter()
                    .map(|r| {
                        let (o, d) = (r.origin(), r.dir());
                        PRay::new(P::new(o.x, o.y, o.z), V::new(d.x, d.y, d.z))
                    })
                    .collect()
            };
            let (rays, fresh) = (parry_rays(RAYS, 1.0), parry_rays(FRESH, 1.0));
            let inf = <$t>::INFINITY;
            let ball = Ball::new(1.0);
            let aabb =
                $parry::bounding_volume::Aabb::new(P::new(-1.0, -1.0, -1.0), P::new(1.0, 1.0, 1.0));
            let cuboid = Cuboid::new(V::new(1.0, 1.0, 1.0));
            let mover = Ball::new(BALL as $t);
            let at_origin = Isometry3::identity();
            let options = ShapeCastOptions {
                max_time_of_impact: inf,
                ..ShapeCastOptions::default()
            };
            let sweep = |r: &PRay, target: &dyn $parry::shape::Shape| {
                cast_shapes(
                    &Isometry3::translation(r.origin.x, r.origin.y, r.origin.z),
                    &r.dir,
                    &mover,
                    &at_origin,
                    &V::zeros(),
                    target,
                    options,
                )
                .unwrap()
            };
            for rays in [&rays, &fresh] {
                let mut g = group_for(c, concat!($width, "/ray vs sphere"), rays.len());
                each(&mut g, "parry", rays, |r| {
                    ball.cast_local_ray_and_get_normal(black_box(r), inf, true)
                });
                g.finish();
                let mut g = group_for(c, concat!($width, "/ray vs box"), rays.len());
                each(&mut g, "parry", rays, |r| {
                    aabb.cast_local_ray_and_get_normal(black_box(r), inf, true)
                });
                g.finish();
            }
            let mut g = group(c, concat!($width, "/ray vs small far sphere"));
            let small = Ball::new(SMALL as $t);
            each(&mut g, "parry", &parry_rays(RAYS, SMALL), |r| {
                small.cast_local_ray_and_get_normal(black_box(r), inf, true)
            });
            g.finish();
            let mut g = group(c, concat!($width, "/sphere cast vs sphere"));
            each(&mut g, "parry", &rays, |r| sweep(black_box(r), &ball));
            g.finish();
            let mut g = group(c, concat!($width, "/sphere cast vs box"));
            each(&mut g, "parry", &rays, |r| sweep(black_box(r), &cuboid));
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
