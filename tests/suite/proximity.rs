//! A scene's proximity queries (`nearest`, `within`, filtered and not) answer exactly what the
//! loop over its bodies answers, bit for bit, with the lowest id on equal signed distances, in
//! both widths and both dimensions, before and after bodies move.
//!
//! The points: on the faces, edges and corners of lattice boxes that share their faces (distance
//! 0 to several boxes at once); at sphere centres and on ellipsoids' medial axes (where the
//! nearest surface point is not unique); halfway between equal bodies (equal distances); inside
//! several overlapping, nested and duplicated bodies (the deepest must win); in scenes far from
//! the origin and at the ends of the widths' ranges; among ten thousand and a hundred thousand
//! balls; NaN and infinite points. The limits: `+∞`, the best distance itself and the value just
//! below it, 0, negative, NaN.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point, SVector};
use raysweep::{Aabb, Body, BodyNearest, PointQuery, Real, Scene, Sphere};

use crate::scene::{Rotated, Rotation, cube, lattice, mixed_bodies, of, sphere};

/// The bits of an answer, for comparison without `0.0 == -0.0`.
fn nearest_bits<T: Real, const D: usize>(
    n: &Option<BodyNearest<T, D>>,
) -> Option<(usize, Vec<u64>)> {
    n.as_ref().map(|n| {
        let bits = core::iter::once(n.signed_distance)
            .chain(n.point.iter().copied())
            .chain(n.normal.iter().copied())
            .map(|v| v.to_wide().to_bits())
            .collect();
        (n.body, bits)
    })
}

/// The loop's nearest body: the smallest signed distance at most `max`, the lowest id among
/// equals, with its own `closest_point`.
fn loop_nearest<T: Real, const D: usize, S: PointQuery<T, D>>(
    bodies: &[S],
    distances: &[T],
    p: &Point<T, D>,
    max: T,
    keep: &dyn Fn(usize) -> bool,
) -> Option<BodyNearest<T, D>> {
    let mut best: Option<(usize, T)> = None;
    for (id, &d) in distances.iter().enumerate() {
        if keep(id) && d <= max && best.is_none_or(|(_, b)| d < b) {
            best = Some((id, d));
        }
    }
    best.map(|(body, signed_distance)| {
        let (point, normal) = bodies[body].closest_point(p);
        BodyNearest {
            body,
            signed_distance,
            point,
            normal,
        }
    })
}

/// The largest value of the width below `v`.
fn below<T: Real>(v: T) -> T {
    T::from_wide_down(v.to_wide().next_down())
}

/// Every proximity query at `p`, with and without a filter, against the loop; returns whether
/// some body lies within the first limit tried (for counting meaningful cases).
pub(crate) fn check_point<T: Real, const D: usize, S: PointQuery<T, D>>(
    scene: &Scene<T, D, S>,
    p: &Point<T, D>,
    extra: f64,
    label: &str,
) -> bool {
    let bodies = scene.bodies();
    let distances: Vec<T> = bodies.iter().map(|b| b.signed_distance(p)).collect();
    let all = |_: usize| true;
    let odd = |id: usize| id % 2 == 1;
    let inf = T::from_wide(f64::INFINITY);
    let mut within = vec![usize::MAX];
    for (name, keep) in [("all", &all as &dyn Fn(usize) -> bool), ("odd", &odd)] {
        let best = loop_nearest(bodies, &distances, p, inf, keep).map(|n| n.signed_distance);
        let mut limits = vec![inf, T::zero(), T::from_wide(-0.25), T::from_wide(extra)];
        limits.extend([T::from_wide(f64::NAN), T::from_wide(-0.0)]);
        if let Some(b) = best.filter(|b| b.to_wide().is_finite()) {
            limits.extend([b, below(b)]);
        }
        for &max in &limits {
            let expected = loop_nearest(bodies, &distances, p, max, keep);
            let got = scene.nearest_filtered(p, max, keep);
            assert_eq!(
                nearest_bits(&got),
                nearest_bits(&expected),
                "{label}: nearest {name} of {p:?} within {max:?}"
            );
        }
        // Each body's own distance as a limit: a boundary case for that body.
        let some = distances.iter().step_by(1 + distances.len() / 8).copied();
        for distance in limits.iter().copied().chain(some) {
            scene.within_filtered(p, distance, &mut within, keep);
            let expected: Vec<usize> = (0..bodies.len())
                .filter(|&id| keep(id) && distances[id] <= distance)
                .collect();
            assert_eq!(
                within, expected,
                "{label}: within {name} {distance:?} of {p:?}"
            );
        }
    }
    assert_eq!(
        nearest_bits(&scene.nearest(p, inf)),
        nearest_bits(&loop_nearest(bodies, &distances, p, inf, &all)),
        "{label}: nearest of {p:?}"
    );
    distances.iter().any(|d| d.to_wide() <= extra.max(0.0))
}

/// The batches (`nearest_batch`, `within_batch`, filtered, and with rayon their parallel forms)
/// against the single queries at each point, bit for bit, for several limits, on `points` as
/// given, reversed, each twice, in clusters of close neighbours around each, and in small
/// lattices around some (so that blocks of the batches share their candidates).
fn check_batch<T: Real, const D: usize, S: PointQuery<T, D> + Sync>(
    scene: &Scene<T, D, S>,
    points: &[Point<T, D>],
    label: &str,
) {
    // The points reversed and each twice: the order of the input and duplicates must not
    // matter.
    let twice: Vec<Point<T, D>> = points.iter().rev().flat_map(|p| [*p, *p]).collect();
    let mut rng = StdRng::seed_from_u64(points.len() as u64);
    let clusters: Vec<Point<T, D>> = points
        .iter()
        .flat_map(|p| {
            let near: Vec<Point<T, D>> = (0..3)
                .map(|_| {
                    let step = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-0.3..0.3));
                    of::<T, D>(p.coords.map(|v| v.to_wide()) + step)
                })
                .collect();
            core::iter::once(*p).chain(near)
        })
        .collect();
    // Small lattices of points 0.15 apart around the first points: blocks whose points share
    // nearly all their candidates, as a grid of voxel centres does.
    let lattices: Vec<Point<T, D>> = points
        .iter()
        .take(4)
        .flat_map(|p| {
            (0..4usize.pow(D as u32)).map(move |k| {
                let step = SVector::<f64, D>::from_fn(|i, _| ((k >> (2 * i)) % 4) as f64 * 0.15);
                of::<T, D>(p.coords.map(|v| v.to_wide()) + step)
            })
        })
        .collect();
    for (order, points) in [
        ("given", points),
        ("reversed, twice", &twice[..]),
        ("clusters", &clusters[..]),
        ("lattices", &lattices[..]),
    ] {
        let label = format!("{label}, {order}");
        // Every body is within +inf: lists of them all, checked for the points as given on the
        // small scenes only (the other arrangements' lists would be as long, and all alike).
        let lists_at_infinity = order == "given" && scene.len() <= 1000;
        check_batch_once(scene, points, lists_at_infinity, &label);
    }
}

/// [`check_batch`] on one arrangement of points: every batch form, for each limit and filter,
/// against the single queries (computed once per limit and filter).
fn check_batch_once<T: Real, const D: usize, S: PointQuery<T, D> + Sync>(
    scene: &Scene<T, D, S>,
    points: &[Point<T, D>],
    lists_at_infinity: bool,
    label: &str,
) {
    let odd = |id: usize| id % 2 == 1;
    let mut found = vec![None; points.len()];
    let (mut offsets, mut bodies, mut near) = (Vec::new(), Vec::new(), Vec::new());
    for max in [f64::INFINITY, 0.0, 0.5, 2.0, -0.25, f64::NAN] {
        let max = T::from_wide(max);
        let lists_too = lists_at_infinity || max.to_wide() != f64::INFINITY;
        for filtered in [false, true] {
            let keep = |id: usize| !filtered || odd(id);
            let name = if filtered { "odd" } else { "all" };
            let expected: Vec<_> = points
                .iter()
                .map(|p| nearest_bits(&scene.nearest_filtered(p, max, keep)))
                .collect();
            let mut forms: Vec<(&str, Vec<Option<BodyNearest<T, D>>>)> = Vec::new();
            scene.nearest_batch_filtered(points, max, &mut found, keep);
            forms.push(("nearest_batch_filtered", found.clone()));
            #[cfg(feature = "rayon")]
            {
                scene.nearest_batch_filtered_par(points, max, &mut found, keep);
                forms.push(("nearest_batch_filtered_par", found.clone()));
            }
            // The unfiltered forms are the filtered ones keeping every body.
            if !filtered {
                scene.nearest_batch(points, max, &mut found);
                forms.push(("nearest_batch", found.clone()));
                #[cfg(feature = "rayon")]
                {
                    scene.nearest_batch_par(points, max, &mut found);
                    forms.push(("nearest_batch_par", found.clone()));
                }
            }
            for (form, found) in &forms {
                for ((p, got), expected) in points.iter().zip(found).zip(&expected) {
                    assert_eq!(
                        &nearest_bits(got),
                        expected,
                        "{label}: {form} {name} at {p:?} within {max:?}"
                    );
                }
            }
            if !lists_too {
                continue;
            }
            let mut lists: Vec<(&str, Vec<usize>, Vec<usize>)> = Vec::new();
            scene.within_batch_filtered(points, max, &mut offsets, &mut bodies, keep);
            lists.push(("within_batch_filtered", offsets.clone(), bodies.clone()));
            #[cfg(feature = "rayon")]
            {
                scene.within_batch_filtered_par(points, max, &mut offsets, &mut bodies, keep);
                lists.push(("within_batch_filtered_par", offsets.clone(), bodies.clone()));
            }
            if !filtered {
                scene.within_batch(points, max, &mut offsets, &mut bodies);
                lists.push(("within_batch", offsets.clone(), bodies.clone()));
                #[cfg(feature = "rayon")]
                {
                    scene.within_batch_par(points, max, &mut offsets, &mut bodies);
                    lists.push(("within_batch_par", offsets.clone(), bodies.clone()));
                }
            }
            for (form, offsets, _) in &lists {
                assert_eq!(offsets.len(), points.len() + 1, "{label}: {form}");
            }
            for (i, p) in points.iter().enumerate() {
                scene.within_filtered(p, max, &mut near, keep);
                for (form, offsets, bodies) in &lists {
                    assert_eq!(
                        bodies[offsets[i]..offsets[i + 1]],
                        near[..],
                        "{label}: {form} {name} at {p:?} within {max:?}"
                    );
                }
            }
            for (form, offsets, bodies) in &lists {
                assert_eq!(offsets.last(), Some(&bodies.len()), "{label}: {form}");
            }
        }
    }
}

/// Checks `points` on `scene`, then moves a tenth of the bodies (`moved`) and checks again, and
/// once more after a rebuild.
fn check_scene<
    T: Real,
    const D: usize,
    S: PointQuery<T, D> + raysweep::Cast<T, D> + Clone + Sync,
>(
    mut scene: Scene<T, D, S>,
    rng: &mut StdRng,
    points: impl Fn(&mut StdRng, &Scene<T, D, S>) -> Vec<Point<T, D>>,
    moved: impl Fn(&mut StdRng, &S) -> S,
    label: &str,
) {
    let mut near = 0;
    let mut total = 0;
    for round in 0..3 {
        let all = points(rng, &scene);
        for p in &all {
            let extra = rng.random_range(0.0..2.0);
            near += usize::from(check_point(&scene, p, extra, label));
            total += 1;
        }
        check_batch(&scene, &all, label);
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
    // The limits were met: the comparisons were not of empty answers.
    assert!(
        4 * near > total,
        "{label}: {near} of {total} points near a body"
    );
}

/// A point of the lattice `{0, 1/2, 1, ...}`: on corners, edges, faces and at box centres.
fn half_lattice<const D: usize>(rng: &mut StdRng, n: usize) -> SVector<f64, D> {
    SVector::from_fn(|_, _| rng.random_range(0..=2 * n) as f64 / 2.0)
}

fn lattice_scene<T: Real, const D: usize>(seed: u64, shift: f64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let n = if D == 2 { 10 } else { 5 };
    let scene: Scene<T, D, Aabb<T, D>> = Scene::new(lattice(rng, n, shift));
    let points = |rng: &mut StdRng, _: &Scene<T, D, Aabb<T, D>>| {
        (0..120)
            .map(|k| {
                let v = if k % 3 == 2 {
                    SVector::<f64, D>::from_fn(|_, _| rng.random_range(-1.0..n as f64 + 1.0))
                } else {
                    half_lattice::<D>(rng, n)
                };
                of::<T, D>(v + SVector::repeat(shift))
            })
            .collect()
    };
    let moved = |rng: &mut StdRng, b: &Aabb<T, D>| {
        let step = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-2..=2) as f64);
        let min = b.min().coords.map(|v| v.to_wide()) + step;
        cube(min, SVector::repeat(1.0))
    };
    check_scene(scene, rng, points, moved, "lattice");
}

/// Spheres, boxes and ellipsoids ([`mixed_bodies`]: flat, thin, rotated, duplicated, nested).
/// Points at centres, on ellipsoids' medial axes, halfway between pairs of bodies, and anywhere.
fn mixed_scene<T: Real, const D: usize>(seed: u64, shift: f64)
where
    Rotation<D>: Rotated<T, D>,
{
    let rng = &mut StdRng::seed_from_u64(seed);
    let bodies = mixed_bodies::<T, D>(rng, shift);
    let around = |rng: &mut StdRng| SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.0..10.0));
    let scene: Scene<T, D> = Scene::new(bodies);
    let points = |rng: &mut StdRng, scene: &Scene<T, D>| {
        let bodies = scene.bodies();
        let centre = |b: &Body<T, D>| -> SVector<f64, D> {
            let bx = raysweep::Shape::aabb(b);
            (bx.min().coords + bx.max().coords).map(|v| v.to_wide()) / 2.0
        };
        (0..100)
            .map(|k| match k % 4 {
                // A centre, or a point on an axis through it (an ellipsoid's medial axis).
                0 => {
                    let b = &bodies[rng.random_range(0..bodies.len())];
                    let mut v = centre(b);
                    if let Body::Ellipsoid(e) = b {
                        let axis = rng.random_range(0..D);
                        let along = e.rotation().matrix().column(axis).map(|x| x.to_wide());
                        v += along * (e.semi_axes()[axis].to_wide() * rng.random_range(-0.9..0.9));
                    }
                    of::<T, D>(v)
                }
                // Halfway between two bodies' centres.
                1 => {
                    let a = centre(&bodies[rng.random_range(0..bodies.len())]);
                    let b = centre(&bodies[rng.random_range(0..bodies.len())]);
                    of::<T, D>((a + b) / 2.0)
                }
                _ => of::<T, D>(around(rng) + SVector::repeat(shift + rng.random_range(-1.0..1.0))),
            })
            .collect()
    };
    let moved = |rng: &mut StdRng, b: &Body<T, D>| -> Body<T, D> {
        let step = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-3.0..3.0));
        match b {
            Body::Sphere(s) => sphere(
                s.center().coords.map(|v| v.to_wide()) + step,
                s.radius().to_wide(),
            )
            .into(),
            other => {
                let bx = raysweep::Shape::aabb(other);
                cube(
                    bx.min().coords.map(|v| v.to_wide()) + step,
                    SVector::repeat(0.5),
                )
                .into()
            }
        }
    };
    check_scene(scene, rng, points, moved, "mixed");
}

/// Equal balls on a lattice, each touching its neighbours: points at the contacts, at the
/// centres of the lattice's cells (equidistant from all of a cell's balls) and at the balls'
/// centres.
fn touching_balls<T: Real, const D: usize>(seed: u64, shift: f64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let n: usize = if D == 2 { 12 } else { 6 };
    let balls: Vec<Sphere<T, D>> = (0..n.pow(D as u32))
        .map(|k| {
            let c = SVector::<f64, D>::from_fn(|i, _| ((k / n.pow(i as u32)) % n) as f64);
            sphere(c * 2.0 + SVector::repeat(shift), 1.0)
        })
        .collect();
    let scene: Scene<T, D, Sphere<T, D>> = Scene::new(balls);
    let points = |rng: &mut StdRng, _: &Scene<T, D, Sphere<T, D>>| {
        (0..100)
            .map(|_| of::<T, D>(half_lattice::<D>(rng, 2 * n) + SVector::repeat(shift - 0.5)))
            .collect()
    };
    let moved = |rng: &mut StdRng, s: &Sphere<T, D>| {
        let step = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-2..=2) as f64);
        sphere(s.center().coords.map(|v| v.to_wide()) + step, 1.0)
    };
    check_scene(scene, rng, points, moved, "touching balls");
}

/// `count` balls of radius 0.1 to 0.8 in a cube of side `size`; points anywhere in it.
fn many_balls<T: Real, const D: usize>(seed: u64, count: usize, size: f64, points: usize) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let balls: Vec<Sphere<T, D>> = (0..count)
        .map(|_| {
            let c = SVector::<f64, D>::from_fn(|_, _| rng.random_range(0.0..size));
            sphere(c, rng.random_range(0.1..0.8))
        })
        .collect();
    let scene: Scene<T, D, Sphere<T, D>> = Scene::new(balls);
    let at = |rng: &mut StdRng, scene: &Scene<T, D, Sphere<T, D>>| {
        (0..points)
            .map(|k| {
                if k % 4 == 0 {
                    *scene.bodies()[rng.random_range(0..scene.len())].center()
                } else {
                    of::<T, D>(SVector::from_fn(|_, _| rng.random_range(-1.0..size + 1.0)))
                }
            })
            .collect()
    };
    let moved = |rng: &mut StdRng, s: &Sphere<T, D>| {
        let step = SVector::<f64, D>::from_fn(|_, _| rng.random_range(-5.0..5.0));
        sphere(
            s.center().coords.map(|v| v.to_wide()) + step,
            s.radius().to_wide(),
        )
    };
    check_scene(scene, rng, at, moved, "many balls");
}

/// Boxes and balls at `scale`, points at scale and, some, with a coordinate at the far ends of
/// the widths' ranges.
fn scaled_scene<T: Real, const D: usize>(seed: u64, scale: f64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let n: usize = if D == 2 { 8 } else { 4 };
    let bodies: Vec<Body<T, D>> = (0..n.pow(D as u32))
        .map(|k| {
            let corner = SVector::<f64, D>::from_fn(|i, _| ((k / n.pow(i as u32)) % n) as f64);
            if rng.random_bool(0.5) {
                cube(corner * scale, SVector::repeat(scale)).into()
            } else {
                let c = (corner + SVector::repeat(0.5)) * scale;
                sphere(c, rng.random_range(0.2..0.5) * scale).into()
            }
        })
        .collect();
    let scene: Scene<T, D> = Scene::new(bodies);
    let far = [f32::MAX as f64, 1e39, 1e300, f64::MAX];
    for _ in 0..150 {
        let mut v = if rng.random_bool(0.5) {
            half_lattice::<D>(rng, n)
        } else {
            SVector::<f64, D>::from_fn(|_, _| rng.random_range(-1.0..n as f64 + 1.0))
        } * scale;
        if rng.random_bool(0.2) {
            let f = far[rng.random_range(0..far.len())];
            v[rng.random_range(0..D)] = if rng.random_bool(0.5) { f } else { -f };
        }
        check_point(&scene, &of::<T, D>(v), scale, "scaled");
    }
}

#[test]
fn lattice_boxes_sharing_faces() {
    lattice_scene::<f32, 2>(1, 0.0);
    lattice_scene::<f32, 3>(2, 4096.0);
    lattice_scene::<f64, 2>(3, 0.0);
    lattice_scene::<f64, 3>(4, 1e8);
}

#[test]
fn mixed_nested_duplicate_and_thin_bodies() {
    mixed_scene::<f32, 2>(5, 0.0);
    mixed_scene::<f32, 3>(6, 1e4);
    mixed_scene::<f64, 2>(7, 0.0);
    mixed_scene::<f64, 3>(8, 1e8);
}

#[test]
fn touching_equal_balls() {
    touching_balls::<f32, 2>(9, 0.0);
    touching_balls::<f32, 3>(10, 1000.0);
    touching_balls::<f64, 3>(11, 0.0);
}

#[test]
fn ten_thousand_and_a_hundred_thousand_balls() {
    many_balls::<f32, 3>(12, 10_000, 60.0, 40);
    many_balls::<f64, 3>(13, 10_000, 60.0, 40);
    many_balls::<f64, 2>(14, 10_000, 300.0, 40);
    many_balls::<f32, 3>(15, 100_000, 130.0, 8);
}

#[test]
fn far_scales_and_points_beyond_the_ranges() {
    for (seed, scale) in [(16, 1e-37), (17, 1e-20), (18, 1e20), (19, 1e36)] {
        scaled_scene::<f32, 3>(seed, scale);
    }
    scaled_scene::<f32, 2>(20, 1e-36);
    for (seed, scale) in [(21, 1e-300), (22, 1e-40), (23, 1e40), (24, 1e300)] {
        scaled_scene::<f64, 3>(seed, scale);
    }
    scaled_scene::<f64, 2>(25, 1e-310);
}

#[test]
fn nan_and_infinite_points_and_limits() {
    let scene: Scene<f64, 3, Sphere<f64>> = Scene::new(vec![
        sphere(SVector::from([0.0, 0.0, 5.0]), 1.0),
        sphere(SVector::from([0.0, 0.0, -5.0]), 1.0),
    ]);
    for p in [
        Point::from([f64::NAN, 0.0, 0.0]),
        Point::from([f64::INFINITY, 0.0, 0.0]),
        Point::from([0.0, f64::NEG_INFINITY, f64::NAN]),
    ] {
        check_point(&scene, &p, 1.0, "non-finite");
    }
    let odd_points = [
        Point::from([f64::NAN, 0.0, 0.0]),
        Point::from([0.0, 0.0, 2.0]),
        Point::from([f64::INFINITY, 0.0, 0.0]),
    ];
    check_batch(&scene, &odd_points, "non-finite");
    // A point infinitely far is +inf from every body: the first id wins, at +inf only.
    let far = Point::from([f64::INFINITY, 0.0, 0.0]);
    assert_eq!(scene.nearest(&far, f64::INFINITY).map(|n| n.body), Some(0));
    assert_eq!(scene.nearest(&far, f64::MAX), None);
    let empty: Scene<f32, 2, Sphere<f32, 2>> = Scene::new(Vec::new());
    assert_eq!(empty.nearest(&Point::origin(), f32::INFINITY), None);
    let mut found = [Some(raysweep::BodyNearest {
        body: 3,
        signed_distance: 0.0,
        point: Point::origin(),
        normal: raysweep::nalgebra::Unit::new_normalize(SVector::from([1.0, 0.0])),
    })];
    empty.nearest_batch(&[Point::origin()], f32::INFINITY, &mut found);
    assert_eq!(found, [None]);
    let mut near = vec![7];
    empty.within(&Point::origin(), f32::INFINITY, &mut near);
    assert!(near.is_empty());
    let (mut offsets, mut bodies) = (vec![5], vec![6]);
    empty.within_batch(
        &[Point::origin(); 2],
        f32::INFINITY,
        &mut offsets,
        &mut bodies,
    );
    assert_eq!((&offsets[..], &bodies[..]), (&[0, 0, 0][..], &[][..]));
    scene.within_batch(&[], 1.0, &mut offsets, &mut bodies);
    assert_eq!((&offsets[..], &bodies[..]), (&[0][..], &[][..]));
}

#[test]
fn a_point_inside_several_bodies_gets_the_deepest() {
    // Nested balls around one centre, and a box around them: the point at the centre is deepest
    // in the largest ball, whatever the ids.
    let c = SVector::from([3.0, 3.0, 3.0]);
    let scene: Scene<f64> = Scene::new(vec![
        sphere(c, 0.5).into(),
        cube(
            SVector::from([0.0, 0.0, 0.0]),
            SVector::from([6.0, 6.0, 5.0]),
        )
        .into(),
        sphere(c, 2.5).into(),
        sphere(c, 1.0).into(),
    ]);
    let p = of::<f64, 3>(c);
    let n = scene.nearest(&p, f64::INFINITY).unwrap();
    assert_eq!((n.body, n.signed_distance), (2, -2.5));
    let mut inside = Vec::new();
    scene.within(&p, 0.0, &mut inside);
    assert_eq!(inside, [0, 1, 2, 3]);
    scene.within(&p, -1.0, &mut inside);
    assert_eq!(inside, [1, 2, 3]);
}
