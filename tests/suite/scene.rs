//! A scene answers exactly what the loop over its bodies answers, bit for bit, with the lowest id
//! on equal distances: every query (filtered and not) on adversarial scenes, in both widths and
//! both dimensions, before and after bodies move.
//!
//! The scenes: unit boxes of a lattice sharing their faces, with rays along face planes and
//! through edges and corners; duplicated and nested bodies (ties); flat boxes and thin
//! ellipsoids; scenes far from the origin, near the ends of `f32`'s range and beyond it, with
//! tiny direction components; balls grazed by rays aimed at their silhouettes; ten thousand
//! random bodies; and ray batches of scenes larger than the cache, traced in another order than
//! given. The brute-force loop is the definition.

use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point, Rotation2, Rotation3, SVector};
use raysweep::{
    Aabb, Body, BodyHit, BodySpan, Cast, Ellipsoid, Hit, Instance, InstancedScene, PeriodicScene,
    Periodicity, Ray, Real, Scene, Sphere,
};

use crate::common::random;
use random::unit;

/// The bits of a hit, for comparison without `0.0 == -0.0`.
pub(crate) fn hit_bits<T: Real, const D: usize>(hit: &Hit<T, D>) -> Vec<u64> {
    core::iter::once(hit.distance)
        .chain(hit.point.iter().copied())
        .chain(hit.normal.iter().copied())
        .map(|v| v.to_wide().to_bits())
        .collect()
}

pub(crate) fn body_hit_bits<T: Real, const D: usize>(
    h: &Option<BodyHit<T, D>>,
) -> Option<(usize, Vec<u64>)> {
    h.as_ref().map(|h| (h.body, hit_bits(&h.hit)))
}

fn span_bits<T: Real>(spans: &[BodySpan<T>]) -> Vec<(usize, u64, u64)> {
    spans
        .iter()
        .map(|s| {
            (
                s.body,
                s.span.enter.to_wide().to_bits(),
                s.span.exit.to_wide().to_bits(),
            )
        })
        .collect()
}

/// The loop's first hit: the smallest distance, the first (lowest) id among equals.
pub(crate) fn loop_first<T: Real, const D: usize, S>(
    bodies: &[S],
    keep: impl Fn(usize) -> bool,
    cast: impl Fn(&S) -> Option<Hit<T, D>>,
) -> Option<BodyHit<T, D>> {
    let mut best: Option<BodyHit<T, D>> = None;
    for (id, body) in bodies.iter().enumerate() {
        if !keep(id) {
            continue;
        }
        if let Some(hit) = cast(body)
            && best.as_ref().is_none_or(|b| hit.distance < b.hit.distance)
        {
            best = Some(BodyHit { body: id, hit });
        }
    }
    best
}

/// The loop's spans, sorted by entry, then id.
fn loop_spans<T: Real, S>(
    bodies: &[S],
    keep: impl Fn(usize) -> bool,
    span: impl Fn(&S) -> Option<raysweep::Span<T>>,
) -> Vec<BodySpan<T>> {
    let mut out: Vec<BodySpan<T>> = bodies
        .iter()
        .enumerate()
        .filter(|(id, _)| keep(*id))
        .filter_map(|(id, b)| span(b).map(|span| BodySpan { body: id, span }))
        .collect();
    // By value: `-0.0` and `+0.0` are the same entry, and the lower id comes first.
    out.sort_by(|a, b| {
        let (ea, eb) = (a.span.enter.to_wide(), b.span.enter.to_wide());
        ea.partial_cmp(&eb).unwrap().then(a.body.cmp(&b.body))
    });
    out
}

/// Every query of `scene` on `ray`, with and without a filter, against the loop.
pub(crate) fn check_ray<T: Real, const D: usize, S: Cast<T, D> + Sync>(
    scene: &Scene<T, D, S>,
    ray: &Ray<T, D>,
    max: T,
    ball: T,
    label: &str,
) {
    let bodies = scene.bodies();
    let all = |_: usize| true;
    let odd = |id: usize| id % 2 == 1;
    let what = || format!("{label}: {ray:?} max {max:?} ball {ball:?}");
    for (name, keep) in [("all", &all as &dyn Fn(usize) -> bool), ("odd", &odd)] {
        let expected = loop_first(bodies, keep, |b| b.cast_ray(ray, max));
        let got = scene.cast_ray_filtered(ray, max, keep);
        assert_eq!(
            body_hit_bits(&got),
            body_hit_bits(&expected),
            "cast_ray {name} {}",
            what()
        );
        assert_eq!(
            scene.hits_any_filtered(ray, max, keep),
            expected.is_some(),
            "hits_any {name} {}",
            what()
        );
        let expected = loop_first(bodies, keep, |b| b.cast_sphere(ray, ball, max));
        let got = scene.cast_sphere_filtered(ray, ball, max, keep);
        assert_eq!(
            body_hit_bits(&got),
            body_hit_bits(&expected),
            "cast_sphere {name} {}",
            what()
        );
        let mut spans = vec![BodySpan {
            body: 99,
            span: raysweep::Span {
                enter: T::zero(),
                exit: T::zero(),
            },
        }];
        scene.ray_spans_filtered(ray, &mut spans, keep);
        let expected = loop_spans(bodies, keep, |b| b.ray_span(ray));
        assert_eq!(
            span_bits(&spans),
            span_bits(&expected),
            "ray_spans {name} {}",
            what()
        );
        scene.sphere_spans_filtered(ray, ball, &mut spans, keep);
        let expected = loop_spans(bodies, keep, |b| b.sphere_span(ray, ball));
        assert_eq!(
            span_bits(&spans),
            span_bits(&expected),
            "sphere_spans {name} {}",
            what()
        );
    }
    assert_eq!(
        body_hit_bits(&scene.cast_ray(ray, max)),
        body_hit_bits(&loop_first(bodies, all, |b| b.cast_ray(ray, max))),
        "cast_ray {}",
        what()
    );
}

/// `containing` at `p`, with and without a filter, against the loop.
pub(crate) fn check_point<T: Real, const D: usize, S: Cast<T, D>>(
    scene: &Scene<T, D, S>,
    p: &Point<T, D>,
    label: &str,
) {
    let mut inside = vec![usize::MAX];
    scene.containing(p, &mut inside);
    let expected: Vec<usize> = (0..scene.len())
        .filter(|&i| scene.bodies()[i].contains(p))
        .collect();
    assert_eq!(inside, expected, "{label}: containing {p:?}");
    scene.containing_filtered(p, &mut inside, |id| id % 3 != 0);
    let expected: Vec<usize> = expected.into_iter().filter(|id| id % 3 != 0).collect();
    assert_eq!(inside, expected, "{label}: containing filtered {p:?}");
}

pub(crate) fn of<T: Real, const D: usize>(v: SVector<f64, D>) -> Point<T, D> {
    Point::from(v.map(T::from_wide))
}

/// A direction with some components exactly zero (given as `0.0` or `-0.0`), or all of one
/// magnitude (diagonals).
pub(crate) fn lattice_dir<const D: usize>(rng: &mut StdRng) -> SVector<f64, D> {
    loop {
        let v = SVector::<f64, D>::from_fn(|_, _| [-1.0, -0.0, 0.0, 1.0][rng.random_range(0..4)]);
        if v.norm() > 0.0 {
            return v;
        }
    }
}

/// Rays for a scene spanning `[lo, hi]` on every axis: origins on lattice points (faces, edges,
/// corners) and inside, along lattice directions; random origins aimed at random points; and,
/// for every body in `aims`, a ray aimed at its box's centre or grazing its box.
pub(crate) fn rays<T: Real, const D: usize>(
    rng: &mut StdRng,
    lo: f64,
    hi: f64,
    shift: f64,
    count: usize,
) -> Vec<Ray<T, D>> {
    let mut out = Vec::new();
    while out.len() < count {
        let span = hi - lo;
        let origin = match rng.random_range(0..3) {
            // A lattice point, possibly just outside the scene.
            0 => SVector::<f64, D>::from_fn(|_, _| {
                (lo - 2.0 + rng.random_range(0..(span as usize + 5)) as f64).min(hi + 2.0)
            }),
            1 => SVector::<f64, D>::from_fn(|_, _| rng.random_range(lo - 1.0..hi + 1.0)),
            _ => unit::<D>(rng) * (span * 2.0) + SVector::repeat(0.5 * (lo + hi)),
        };
        let dir = if rng.random_bool(0.5) {
            lattice_dir::<D>(rng)
        } else {
            let aim = SVector::<f64, D>::from_fn(|_, _| rng.random_range(lo..hi));
            aim - origin
        };
        let origin = origin + SVector::repeat(shift);
        if let Ok(ray) = Ray::new(of::<T, D>(origin), dir.map(T::from_wide)) {
            out.push(ray);
        }
    }
    out
}

/// Checks every query of `scene` on rays and points made for the region `[lo, hi]` shifted by
/// `shift`, then moves some bodies (`moved`) and checks again, and once more after a rebuild.
fn check_scene<T: Real, const D: usize, S: Cast<T, D> + Sync + Clone>(
    mut scene: Scene<T, D, S>,
    rng: &mut StdRng,
    (lo, hi, shift): (f64, f64, f64),
    rays_per_round: usize,
    moved: impl Fn(&mut StdRng, &S) -> S,
    label: &str,
) {
    let ball = T::from_wide(rng.random_range(0.05..0.6));
    for round in 0..3 {
        for ray in rays::<T, D>(rng, lo, hi, shift, rays_per_round) {
            let max =
                [f64::INFINITY, rng.random_range(0.0..(hi - lo)), 0.0][rng.random_range(0..3)];
            check_ray(&scene, &ray, T::from_wide(max), ball, label);
        }
        for _ in 0..rays_per_round / 2 {
            let p = if rng.random_bool(0.5) {
                SVector::<f64, D>::from_fn(|_, _| {
                    lo + rng.random_range(0..((hi - lo) as usize + 1)) as f64
                })
            } else {
                SVector::<f64, D>::from_fn(|_, _| rng.random_range(lo - 1.0..hi + 1.0))
            };
            check_point(&scene, &of::<T, D>(p + SVector::repeat(shift)), label);
        }
        // The batch against the single casts.
        let batch = rays::<T, D>(rng, lo, hi, shift, 37);
        let mut hits = vec![None; batch.len()];
        scene.cast_rays(&batch, T::from_wide(f64::INFINITY), &mut hits);
        for (ray, hit) in batch.iter().zip(&hits) {
            let single = scene.cast_ray(ray, T::from_wide(f64::INFINITY));
            assert_eq!(
                body_hit_bits(hit),
                body_hit_bits(&single),
                "{label}: cast_rays"
            );
        }
        #[cfg(feature = "rayon")]
        {
            let mut par = vec![None; batch.len()];
            scene.cast_rays_par(&batch, T::from_wide(f64::INFINITY), &mut par);
            assert!(
                par.iter()
                    .zip(&hits)
                    .all(|(a, b)| body_hit_bits(a) == body_hit_bits(b))
            );
        }
        // Move a tenth of the bodies; the last round checks a rebuilt hierarchy.
        if round == 0 {
            for _ in 0..(scene.len() / 10).max(1) {
                let id = rng.random_range(0..scene.len());
                let body = moved(rng, &scene.bodies()[id]);
                scene.set_body(id, body);
            }
        } else if round == 1 {
            scene.rebuild();
        }
    }
}

pub(crate) fn sphere<T: Real, const D: usize>(c: SVector<f64, D>, r: f64) -> Sphere<T, D> {
    Sphere::new(of(c), T::from_wide(r)).unwrap()
}

pub(crate) fn cube<T: Real, const D: usize>(
    min: SVector<f64, D>,
    size: SVector<f64, D>,
) -> Aabb<T, D> {
    Aabb::new(of(min), of(min + size)).unwrap()
}

/// A lattice of unit boxes sharing faces (a few left out), `shift` from the origin.
pub(crate) fn lattice<T: Real, const D: usize>(
    rng: &mut StdRng,
    n: usize,
    shift: f64,
) -> Vec<Aabb<T, D>> {
    let cells = n.pow(D as u32);
    (0..cells)
        .filter(|_| rng.random_bool(0.85))
        .map(|k| {
            let min = SVector::<f64, D>::from_fn(|i, _| ((k / n.pow(i as u32)) % n) as f64 + shift);
            cube(min, SVector::repeat(1.0))
        })
        .collect()
}

fn move_box<T: Real, const D: usize>(rng: &mut StdRng, b: &Aabb<T, D>) -> Aabb<T, D> {
    let step = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-2..=2) as f64);
    let min = b.min().coords.map(|v| v.to_wide()) + step;
    let max = b.max().coords.map(|v| v.to_wide()) + step;
    Aabb::new(of(min), of(max)).unwrap()
}

fn lattice_scenes<T: Real, const D: usize>(seed: u64, shift: f64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let n = if D == 2 { 12 } else { 6 };
    let scene: Scene<T, D, Aabb<T, D>> = Scene::new(lattice(rng, n, shift));
    let region = (0.0, n as f64, shift);
    check_scene(scene, rng, region, 150, move_box, "lattice");
}

/// Sixty spheres, boxes and ellipsoids in `[0, 10]^D` moved by `shift`, with duplicates (exact
/// ties), bodies nested in others (small balls at their centres), flat boxes and thin rotated
/// ellipsoids.
pub(crate) fn mixed_bodies<T: Real, const D: usize>(rng: &mut StdRng, shift: f64) -> Vec<Body<T, D>>
where
    Rotation<D>: Rotated<T, D>,
{
    let mut bodies: Vec<Body<T, D>> = Vec::new();
    let around = |rng: &mut StdRng| SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.0..10.0));
    for _ in 0..60 {
        let c = around(rng) + SVector::repeat(shift);
        let body: Body<T, D> = match rng.random_range(0..5) {
            0 => sphere(c, rng.random_range(0.2..1.5)).into(),
            1 => cube(c, SVector::from_fn(|_, _| rng.random_range(0.1..2.0))).into(),
            // A flat box: one extent zero.
            2 => {
                let mut size = SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.5..2.0));
                size[rng.random_range(0..D)] = 0.0;
                cube(c, size).into()
            }
            // A thin ellipsoid, rotated.
            3 => {
                let mut axes = SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.5..2.0));
                axes[rng.random_range(0..D)] /= 1000.0;
                let rotation = Rotation::<D>::random(rng);
                Ellipsoid::oriented(of(c), axes.map(T::from_wide), rotation)
                    .unwrap()
                    .into()
            }
            _ => Ellipsoid::new(
                of(c),
                SVector::from_fn(|_, _| T::from_wide(rng.random_range(0.3..1.5))),
            )
            .unwrap()
            .into(),
        };
        bodies.push(body);
        // Duplicates (exact ties) and nested bodies.
        if rng.random_bool(0.2) {
            bodies.push(body);
        }
        if rng.random_bool(0.2) {
            let inner = sphere::<T, D>(c, 0.05);
            bodies.push(inner.into());
        }
    }
    bodies
}

/// Spheres, boxes and ellipsoids ([`mixed_bodies`]) in one scene of `Body`.
fn mixed_scenes<T: Real, const D: usize>(seed: u64, shift: f64)
where
    Rotation<D>: Rotated<T, D>,
{
    let rng = &mut StdRng::seed_from_u64(seed);
    let bodies = mixed_bodies::<T, D>(rng, shift);
    let scene: Scene<T, D> = Scene::new(bodies);
    let moved = |rng: &mut StdRng, b: &Body<T, D>| -> Body<T, D> {
        let step = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-3.0..3.0));
        match b {
            Body::Sphere(s) => sphere(
                s.center().coords.map(|v| v.to_wide()) + step,
                s.radius().to_wide(),
            )
            .into(),
            Body::Aabb(a) => move_box(rng, a).into(),
            Body::Ellipsoid(_) => sphere(step.map(|v| v.abs()) * 3.0, 0.7).into(),
        }
    };
    check_scene(scene, rng, (0.0, 11.0, shift), 120, moved, "mixed");
}

/// Ten thousand spheres, with rays aimed at their silhouettes as well as anywhere.
fn many_spheres<T: Real, const D: usize>(seed: u64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let size = 60.0;
    let spheres: Vec<Sphere<T, D>> = (0..10_000)
        .map(|_| {
            let c = SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.0..size));
            sphere(c, rng.random_range(0.1..0.8))
        })
        .collect();
    let scene: Scene<T, D, Sphere<T, D>> = Scene::new(spheres.clone());
    // Grazing rays: tangent to a sphere, give or take a part in 10^6 of its radius.
    for _ in 0..60 {
        let s = &spheres[rng.random_range(0..spheres.len())];
        let c = s.center().coords.map(|v| v.to_wide());
        let r = s.radius().to_wide();
        let along = unit::<D>(rng);
        let mut side = unit::<D>(rng);
        side -= along * along.dot(&side);
        let side = side.normalize() * r * (1.0 + rng.random_range(-1e-6..1e-6));
        let origin = c + side - along * rng.random_range(1.0..30.0);
        let ray = Ray::new(of::<T, D>(origin), along.map(T::from_wide)).unwrap();
        check_ray(
            &scene,
            &ray,
            T::from_wide(f64::INFINITY),
            T::from_wide(0.3),
            "grazing",
        );
    }
    let moved = |rng: &mut StdRng, s: &Sphere<T, D>| {
        let step = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-5.0..5.0));
        sphere(
            s.center().coords.map(|v| v.to_wide()) + step,
            s.radius().to_wide(),
        )
    };
    check_scene(scene, rng, (0.0, size, 0.0), 40, moved, "many spheres");
}

/// Coherent batches, which `cast_rays` traces in packets of neighbouring rays
/// (`src/scene/packet/`): a camera's rays (one origin, directions on a grid crossing every
/// octant, row after row) and beams (origins on a grid, one direction: along an axis, with zero
/// components, or oblique) into a lattice of boxes sharing faces (ties on every face), mixed
/// bodies (duplicates, nested, flat and thin) and spheres; with rays beyond `f32`'s range
/// mixed in (in `f64`), and unbounded, bounded, zero and NaN limits, one for the batch or one
/// per ray with a filter. Every answer of `cast_rays`, `cast_rays_par` and `cast_rays_filtered`
/// is the loop's over the bodies, bit for bit.
fn coherent_batches<T: Real, const D: usize, S: Cast<T, D> + Sync + Clone>(
    bodies: Vec<S>,
    (lo, hi): (f64, f64),
    label: &str,
) {
    let scene = Scene::new(bodies.clone());
    let side: usize = 16;
    let grid = |k: usize| -> SVector<f64, D> {
        SVector::from_fn(|i, _| {
            let step = (k / side.pow(i as u32)) % side;
            (step as f64 + 0.5) / side as f64
        })
    };
    let count = side.pow(D as u32 - 1) * 8;
    let middle = SVector::<f64, D>::repeat(0.5 * (lo + hi));
    let mut batches: Vec<Vec<Ray<T, D>>> = Vec::new();
    // A camera inside or outside the scene, its directions spanning every octant.
    for at in [middle, middle - SVector::repeat(hi - lo)] {
        let look = middle - at + SVector::repeat(0.3);
        let camera = (0..count)
            .map(|k| {
                let dir = look.normalize() + (grid(k) - SVector::repeat(0.5)) * 2.0;
                Ray::new(of::<T, D>(at), dir.map(T::from_wide)).unwrap()
            })
            .collect();
        batches.push(camera);
    }
    // Beams: along an axis from a lattice of origins on the scene's lower face (rays along
    // shared faces), and oblique.
    for oblique in [false, true] {
        let dir = SVector::<f64, D>::from_fn(|i, _| {
            if i == D - 1 {
                1.0
            } else if oblique {
                0.3 - 0.2 * i as f64
            } else {
                0.0
            }
        });
        let beam = (0..count)
            .map(|k| {
                let mut o = SVector::<f64, D>::from_fn(|i, _| {
                    lo + (hi - lo) * ((k / side.pow(i as u32)) % side) as f64 / side as f64
                });
                o[D - 1] = lo - 1.0;
                Ray::new(of::<T, D>(o), dir.map(T::from_wide)).unwrap()
            })
            .collect();
        batches.push(beam);
    }
    // Origins beyond `f32`'s range among coherent rays (cast one at a time where `f32` cannot
    // hold them), where the width holds them.
    if T::from_wide(1e39).to_wide().is_finite() {
        let mut beam = batches[3].clone();
        for k in (0..beam.len()).step_by(5) {
            let mut o = beam[k].origin().coords.map(|v| v.to_wide());
            o[0] = -1e39;
            beam[k] = Ray::new(of::<T, D>(o), beam[k].dir().into_inner()).unwrap();
        }
        batches.push(beam);
    }
    for (b, batch) in batches.iter().enumerate() {
        for max in [f64::INFINITY, 0.4 * (hi - lo), 0.0, f64::NAN] {
            let max = T::from_wide(max);
            let mut hits = vec![None; batch.len()];
            scene.cast_rays(batch, max, &mut hits);
            for (k, (ray, hit)) in batch.iter().zip(&hits).enumerate() {
                let want = loop_first(&bodies, |_| true, |body| body.cast_ray(ray, max));
                assert_eq!(
                    body_hit_bits(hit),
                    body_hit_bits(&want),
                    "{label}: batch {b}, ray {k}, max {max:?}"
                );
            }
            #[cfg(feature = "rayon")]
            {
                let mut par = vec![None; batch.len()];
                scene.cast_rays_par(batch, max, &mut par);
                assert!(
                    par.iter()
                        .zip(&hits)
                        .all(|(a, b)| body_hit_bits(a) == body_hit_bits(b)),
                    "{label}: batch {b}, cast_rays_par"
                );
            }
        }
        // A limit of each ray's own (neighbours' differing, some zero, negative or NaN) and a
        // filter.
        let limits: Vec<T> = (0..batch.len())
            .map(|k| {
                let limit = match k % 7 {
                    0 => f64::INFINITY,
                    1 => 0.0,
                    2 => -1.0,
                    3 if k % 5 == 0 => f64::NAN,
                    _ => (hi - lo) * (k % 11) as f64 / 10.0,
                };
                T::from_wide(limit)
            })
            .collect();
        let keep = |id: usize| id % 3 != 1;
        let mut hits = vec![None; batch.len()];
        scene.cast_rays_filtered(batch, &limits, &mut hits, keep);
        for (k, ((ray, &max), hit)) in batch.iter().zip(&limits).zip(&hits).enumerate() {
            let want = loop_first(&bodies, keep, |body| body.cast_ray(ray, max));
            assert_eq!(
                body_hit_bits(hit),
                body_hit_bits(&want),
                "{label}: batch {b}, ray {k}, filtered within {max:?}"
            );
        }
    }
}

fn coherent_scenes<T: Real, const D: usize>(seed: u64)
where
    Rotation<D>: Rotated<T, D>,
{
    let rng = &mut StdRng::seed_from_u64(seed);
    let n = if D == 2 { 30 } else { 9 };
    let boxes = lattice::<T, D>(rng, n, 0.0);
    coherent_batches(boxes, (0.0, n as f64), "lattice");
    let mixed = mixed_bodies::<T, D>(rng, 0.0);
    coherent_batches(mixed, (0.0, 10.0), "mixed");
    let spheres: Vec<Sphere<T, D>> = (0..1500)
        .map(|_| {
            let c = SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.0..40.0));
            sphere(c, rng.random_range(0.2..1.0))
        })
        .collect();
    coherent_batches(spheres, (0.0, 40.0), "spheres");
}

/// Asserts that `got` and `want` have the same `Debug` forms, which tell every bit of a non-NaN
/// float: how the instanced and periodic answers are compared.
fn same_text<A: core::fmt::Debug>(got: &[A], want: &[A], what: &str) {
    assert_eq!(format!("{got:?}"), format!("{want:?}"), "{what}");
}

/// A scene whose hierarchy and bodies take more than 8 MiB, so that its ray batches are traced
/// in the curve order of the rays' origins (`src/scene/ray_batch.rs`), and an instanced and a
/// periodic scene of it: `ray_order` orders the rays, and every answer of `cast_rays` and
/// `cast_rays_par` is `cast_ray`'s, bit for bit and in the input's order, for lattice and random
/// rays, a few hundred of them from one origin, unbounded and bounded (the periodic scene's
/// bounded only).
fn large_batches<T: Real, const D: usize>(seed: u64, count: usize) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let size = 250.0;
    let spheres: Vec<Sphere<T, D>> = (0..count)
        .map(|_| {
            let c = SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.0..size));
            sphere(c, rng.random_range(0.2..1.0))
        })
        .collect();
    let scene = Arc::new(Scene::new(spheres.clone()));
    let bytes = scene.hierarchy_bytes() + count * core::mem::size_of::<Sphere<T, D>>();
    assert!(bytes > 8 << 20, "{bytes} bytes: too small to be ordered");
    let mut batch = rays::<T, D>(rng, 0.0, size, 0.0, 3000);
    let shared = *batch[0].origin();
    for _ in 0..300 {
        let dir = unit::<D>(rng).map(T::from_wide);
        batch.push(Ray::new(shared, dir).unwrap());
    }
    let placed = InstancedScene::new(vec![
        Instance::new(Arc::clone(&scene), SVector::zeros()).unwrap(),
        Instance::new(Arc::clone(&scene), SVector::repeat(T::from_wide(size))).unwrap(),
    ]);
    let period = Periodicity::new(Point::origin(), SVector::repeat(T::from_wide(size))).unwrap();
    let periodic = PeriodicScene::new(spheres, period);
    // The order the batches trace: a permutation for these rays, none for rays from one point.
    let origins: Vec<_> = batch.iter().map(|r| *r.origin()).collect();
    let order = scene
        .ray_order(&origins)
        .expect("rays from random points are ordered");
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert!(
        sorted.into_iter().eq(0..batch.len()),
        "ray_order: a permutation"
    );
    assert_eq!(placed.ray_order(&origins), Some(order.clone()));
    assert_eq!(periodic.ray_order(&origins), Some(order));
    assert_eq!(scene.ray_order(&[shared; 1000]), None);
    for max in [f64::INFINITY, 30.0].map(T::from_wide) {
        let single: Vec<_> = batch.iter().map(|r| scene.cast_ray(r, max)).collect();
        let mut hits = vec![None; batch.len()];
        scene.cast_rays(&batch, max, &mut hits);
        let same = |a: &[Option<BodyHit<T, D>>]| {
            a.iter()
                .zip(&single)
                .all(|(a, b)| body_hit_bits(a) == body_hit_bits(b))
        };
        assert!(same(&hits), "cast_rays");
        let mut placed_hits = vec![None; batch.len()];
        placed.cast_rays(&batch, max, &mut placed_hits);
        let placed_single: Vec<_> = batch.iter().map(|r| placed.cast_ray(r, max)).collect();
        same_text(&placed_hits, &placed_single, "instanced");
        // A periodic ray that meets nothing goes on to the end of the width's range: bounded.
        let reach = if max > T::from_wide(30.0) {
            T::from_wide(30.0)
        } else {
            max
        };
        let mut periodic_hits = vec![None; batch.len()];
        periodic.cast_rays(&batch, reach, &mut periodic_hits);
        let periodic_single: Vec<_> = batch.iter().map(|r| periodic.cast_ray(r, reach)).collect();
        same_text(&periodic_hits, &periodic_single, "periodic");
        #[cfg(feature = "rayon")]
        {
            let mut par = vec![None; batch.len()];
            scene.cast_rays_par(&batch, max, &mut par);
            assert!(same(&par), "cast_rays_par");
            placed.cast_rays_par(&batch, max, &mut placed_hits);
            same_text(&placed_hits, &placed_single, "instanced par");
            periodic.cast_rays_par(&batch, reach, &mut periodic_hits);
            same_text(&periodic_hits, &periodic_single, "periodic par");
        }
    }
}

/// Boxes and balls at `scale` (far below or above 1, where a query's parameters near the ends of
/// `f32`'s range, or the shifted origin leaves it), hit by rays whose zero components are
/// sometimes replaced by `tiny` ones of either sign, from origins at scale, at the ends of the
/// width's range, or beyond `f32`'s.
fn scaled_scenes<T: Real, const D: usize>(seed: u64, scale: f64, tiny: &[f64]) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let n: usize = if D == 2 { 8 } else { 4 };
    let mut bodies: Vec<Body<T, D>> = Vec::new();
    for k in 0..n.pow(D as u32) {
        let corner = SVector::<f64, D>::from_fn(|i, _| ((k / n.pow(i as u32)) % n) as f64);
        let body: Body<T, D> = if rng.random_bool(0.5) {
            cube(corner * scale, SVector::repeat(scale)).into()
        } else {
            sphere(
                (corner + SVector::repeat(0.5)) * scale,
                rng.random_range(0.2..0.5) * scale,
            )
            .into()
        };
        bodies.push(body);
    }
    let scene: Scene<T, D> = Scene::new(bodies);
    let far = [f32::MAX as f64, 1e39, 1e300];
    for _ in 0..400 {
        let mut origin = if rng.random_bool(0.5) {
            SVector::<f64, D>::from_fn(|_, _| rng.random_range(-2..=n as i32 + 2) as f64)
        } else {
            SVector::<f64, D>::from_fn(|_, _| rng.random_range(-1.0..n as f64 + 1.0))
        } * scale;
        if rng.random_bool(0.2) {
            let v = far[rng.random_range(0..far.len())];
            origin[rng.random_range(0..D)] = if rng.random_bool(0.5) { v } else { -v };
        }
        let mut dir = if rng.random_bool(0.5) {
            lattice_dir::<D>(rng)
        } else {
            SVector::<f64, D>::from_fn(|_, _| rng.random_range(0..n) as f64 + 0.5) * scale - origin
        };
        for c in dir.iter_mut() {
            if *c == 0.0 && rng.random_bool(0.7) {
                let t = tiny[rng.random_range(0..tiny.len())];
                *c = if rng.random_bool(0.5) { t } else { -t };
            }
        }
        let Ok(ray) = Ray::new(of::<T, D>(origin), dir.map(T::from_wide)) else {
            continue;
        };
        let max = [
            f64::INFINITY,
            rng.random_range(0.0..2.0 * n as f64) * scale,
            0.0,
        ][rng.random_range(0..3)];
        let ball = T::from_wide(rng.random_range(0.05..0.6) * scale);
        check_ray(&scene, &ray, T::from_wide(max), ball, "scaled");
    }
}

/// Boxes whose bounds lie `2^-35` outside `f32` values (so that a node's `f32` box, rounded
/// outward, is barely larger than its body's), hit by rays that graze an edge: the line enters
/// through one face and leaves through the next a hair's breadth later, or misses by as little.
/// A probe whose parameters are off by an `f32` rounding and not widened for it loses these.
fn grazed_edges(seed: u64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    // `v` (an `f32` value) moved by `2^-35` of itself, up or down.
    let off = |v: f64, up: bool| v + (if up { v } else { -v }) / 34_359_738_368.0;
    let boxes: Vec<Aabb<f64, 3>> = (0..300)
        .map(|_| {
            let lo = SVector::<f64, 3>::from_fn(|_, _| f64::from(rng.random_range(1.0f32..1000.0)));
            let hi = lo.map(|v| f64::from((v + rng.random_range(0.5..20.0)) as f32));
            let (lo, hi) = (lo.map(|v| off(v, true)), hi.map(|v| off(v, false)));
            Aabb::new(Point::from(lo), Point::from(hi)).unwrap()
        })
        .collect();
    let scene: Scene<f64, 3, Aabb<f64, 3>> = Scene::new(boxes.clone());
    for _ in 0..3000 {
        let b = &boxes[rng.random_range(0..boxes.len())];
        // An edge along axis `k`, between the faces of axes `i` and `j` on sides `si`, `sj`.
        let k = rng.random_range(0..3);
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let (si, sj) = (rng.random_bool(0.5), rng.random_bool(0.5));
        let mut p = b.min().coords;
        p[i] = if si { b.max()[i] } else { b.min()[i] };
        p[j] = if sj { b.max()[j] } else { b.min()[j] };
        p[k] = rng.random_range(b.min()[k]..b.max()[k]);
        // Outward from face `i` before the edge, outward from face `j` after it.
        let mut d = SVector::<f64, 3>::zeros();
        d[i] = rng.random_range(0.1..1.0) * if si { -1.0 } else { 1.0 };
        d[j] = rng.random_range(0.1..1.0) * if sj { 1.0 } else { -1.0 };
        d[k] = rng.random_range(-1.0..1.0);
        let wobble = SVector::<f64, 3>::from_fn(|_, _| rng.random_range(-1.0..1.0) * 1e-12);
        let origin = p + p.component_mul(&wobble) - d * rng.random_range(1.0..2000.0);
        let ray = Ray::new(Point::from(origin), d).unwrap();
        check_ray(&scene, &ray, f64::INFINITY, 0.25, "grazed edges");
    }
}

/// Random rotations in either dimension.
pub(crate) trait Rotated<T: Real, const D: usize> {
    fn random(rng: &mut StdRng) -> raysweep::nalgebra::Rotation<T, D>;
}

/// The rotations of dimension `D`.
pub(crate) struct Rotation<const D: usize>;

impl<T: Real> Rotated<T, 2> for Rotation<2> {
    fn random(rng: &mut StdRng) -> raysweep::nalgebra::Rotation<T, 2> {
        let r = Rotation2::new(rng.random_range(0.0..6.3f64));
        raysweep::nalgebra::Rotation::from_matrix_unchecked(r.matrix().map(T::from_wide))
    }
}

impl<T: Real> Rotated<T, 3> for Rotation<3> {
    fn random(rng: &mut StdRng) -> raysweep::nalgebra::Rotation<T, 3> {
        let axis = unit::<3>(rng);
        let r = Rotation3::new(axis * rng.random_range(0.0..3.1f64));
        raysweep::nalgebra::Rotation::from_matrix_unchecked(r.matrix().map(T::from_wide))
    }
}

#[test]
fn lattice_boxes_sharing_faces_f32() {
    lattice_scenes::<f32, 2>(1, 0.0);
    lattice_scenes::<f32, 3>(2, 0.0);
    lattice_scenes::<f32, 3>(3, 4096.0);
}

#[test]
fn lattice_boxes_sharing_faces_f64() {
    lattice_scenes::<f64, 2>(4, 0.0);
    lattice_scenes::<f64, 3>(5, 0.0);
    lattice_scenes::<f64, 3>(6, 1e8);
}

#[test]
fn mixed_nested_duplicate_flat_and_thin_bodies() {
    mixed_scenes::<f32, 2>(7, 0.0);
    mixed_scenes::<f32, 3>(8, 1e4);
    mixed_scenes::<f64, 2>(9, 0.0);
    mixed_scenes::<f64, 3>(10, 1e8);
}

#[test]
fn ten_thousand_spheres() {
    many_spheres::<f32, 3>(11);
    many_spheres::<f64, 3>(12);
    many_spheres::<f64, 2>(13);
}

#[test]
fn batches_of_scenes_beyond_the_cache() {
    large_batches::<f32, 3>(21, 220_000);
    large_batches::<f64, 3>(22, 160_000);
    large_batches::<f64, 2>(23, 260_000);
}

#[test]
fn packets_of_coherent_rays() {
    coherent_scenes::<f32, 3>(31);
    coherent_scenes::<f64, 3>(32);
    coherent_scenes::<f64, 2>(33);
    coherent_scenes::<f32, 2>(34);
}

#[test]
fn far_scales_tiny_components_and_origins_beyond_f32() {
    let tiny = [1e-20, 1e-30, 1e-39, 1e-44];
    for (seed, scale) in [(14, 1e-37), (15, 1e-20), (16, 1e20), (17, 1e36)] {
        scaled_scenes::<f32, 3>(seed, scale, &tiny);
    }
    scaled_scenes::<f32, 2>(18, 1e-36, &tiny);
    let tiny = [1e-20, 1e-40, 1e-200, 1e-310];
    for (seed, scale) in [(19, 1e-300), (20, 1e-40), (21, 1e40), (22, 1e300)] {
        scaled_scenes::<f64, 3>(seed, scale, &tiny);
    }
    scaled_scenes::<f64, 2>(23, 1e-42, &tiny);
}

#[test]
fn grazed_box_edges_in_f64() {
    grazed_edges(24);
}

#[test]
fn an_empty_scene_answers_nothing() {
    let scene: Scene<f64> = Scene::new(Vec::new());
    assert!(scene.is_empty());
    let ray = Ray::new(Point::origin(), SVector::<f64, 3>::x()).unwrap();
    assert_eq!(scene.cast_ray(&ray, f64::INFINITY), None);
    assert!(!scene.hits_any(&ray, f64::INFINITY));
    let mut spans = Vec::new();
    scene.ray_spans(&ray, &mut spans);
    assert!(spans.is_empty());
}

#[test]
#[should_panic(expected = "set_body: no body 3 in a scene of 1")]
fn set_body_refuses_an_id_beyond_the_bodies() {
    let mut scene: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![sphere(SVector::zeros(), 1.0)]);
    scene.set_body(3, sphere(SVector::zeros(), 1.0));
}

#[test]
fn bad_radii_and_distances_give_nothing() {
    let scene: Scene<f32, 3, Sphere<f32>> = Scene::new(vec![sphere(SVector::zeros(), 1.0)]);
    let ray = Ray::new(of::<f32, 3>(SVector::from([-5.0, 0.0, 0.0])), SVector::x()).unwrap();
    for bad in [f32::NAN, -1.0, f32::INFINITY] {
        assert_eq!(scene.cast_sphere(&ray, bad, 10.0), None, "radius {bad}");
        let mut spans = Vec::new();
        scene.sphere_spans(&ray, bad, &mut spans);
        assert!(spans.is_empty());
    }
    for bad in [f32::NAN, -1.0] {
        assert_eq!(scene.cast_ray(&ray, bad), None, "max {bad}");
        assert!(!scene.hits_any(&ray, bad));
    }
}

#[test]
fn equal_distances_go_to_the_lowest_id_across_leaves() {
    // More copies of one sphere than a leaf holds, shuffled among others: every copy is hit at
    // the same distance, and the first copy's id wins, wherever the hierarchy put it.
    let rng = &mut StdRng::seed_from_u64(14);
    let mut bodies: Vec<Sphere<f64, 3>> = (0..200)
        .map(|_| sphere(SVector::from_fn(|_, _| rng.random_range(10.0..40.0)), 0.5))
        .collect();
    let copy = sphere(SVector::from([0.0, 0.0, 5.0]), 1.0);
    let mut ids = Vec::new();
    for _ in 0..40 {
        let at = rng.random_range(0..bodies.len());
        bodies.insert(at, copy);
    }
    for (id, b) in bodies.iter().enumerate() {
        if *b == copy {
            ids.push(id);
        }
    }
    let scene: Scene<f64, 3, Sphere<f64>> = Scene::new(bodies);
    let ray = Ray::new(Point::origin(), SVector::<f64, 3>::z()).unwrap();
    let hit = scene.cast_ray(&ray, f64::INFINITY).unwrap();
    assert_eq!((hit.body, hit.hit.distance), (ids[0], 4.0));
    let hit = scene.cast_sphere(&ray, 0.5, f64::INFINITY).unwrap();
    assert_eq!((hit.body, hit.hit.distance), (ids[0], 3.5));
    let mut spans = Vec::new();
    scene.ray_spans(&ray, &mut spans);
    assert_eq!(spans.iter().map(|s| s.body).collect::<Vec<_>>(), ids);
}
