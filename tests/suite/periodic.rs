//! A periodic scene's point queries (`containing`, `within`, `nearest`, filtered and not) answer
//! exactly what the loop over every `(body, image)` pair answers against the bodies translated
//! exactly, bit for bit, in both widths and both dimensions, with every axis or some repeating.
//!
//! Coordinates are multiples of `1/64` and periods dyadic (a few units), so that every point
//! moved by a lattice vector is exact in `f32` and the loop can form it with plain arithmetic.
//! The bodies: balls and boxes inside the box, straddling its faces, edges and corners, larger
//! than the box, duplicated. The points: on the lattice's planes, edges and corners, inside
//! several bodies and images at once, at random, and a thousand boxes from the origin; the
//! distances from negative to over two boxes (beyond half the box); NaN and infinite points and
//! limits; bad periods refused.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point, SVector};
use raysweep::{
    Body, Error, Image, PeriodicNearest, PeriodicScene, Periodicity, PointQuery, Real, Shape,
};

use crate::scene::{cube, of, sphere};

/// A coordinate on the `1/64` grid in `range`.
fn dyadic(rng: &mut StdRng, range: core::ops::Range<f64>) -> f64 {
    (rng.random_range(range) * 64.0).round() / 64.0
}

/// Bodies around the box `0..size`: inside, straddling faces, edges and corners, one larger
/// than the box, one twice.
fn bodies<T: Real, const D: usize>(rng: &mut StdRng, size: &SVector<f64, D>) -> Vec<Body<T, D>> {
    let mut bodies: Vec<Body<T, D>> = Vec::new();
    for n in 0..14 {
        let c = SVector::<f64, D>::from_fn(|a, _| match n % 3 {
            // On a face, edge or corner: some coordinates 0 or size.
            0 if rng.random_bool(0.6) => [0.0, size[a]][rng.random_range(0..2)],
            _ => dyadic(rng, -0.5..size[a] + 0.5),
        });
        let body: Body<T, D> = if rng.random_bool(0.5) {
            sphere(c, dyadic(rng, 0.25..1.5)).into()
        } else {
            let extent = SVector::<f64, D>::from_fn(|_, _| dyadic(rng, 0.25..2.0));
            cube(c - extent / 2.0, extent).into()
        };
        bodies.push(body);
    }
    // Larger than the box on every axis, and a body twice.
    bodies.push(sphere(size / 2.0, size.max() * 0.75).into());
    bodies.push(bodies[3]);
    bodies
}

/// Points on the lattice's planes, edges and corners, inside bodies, at random, shifted by
/// `shift` boxes.
fn points<T: Real, const D: usize>(
    rng: &mut StdRng,
    size: &SVector<f64, D>,
    shift: f64,
) -> Vec<Point<T, D>> {
    let mut points = Vec::new();
    for n in 0..40 {
        let p = SVector::<f64, D>::from_fn(|a, _| {
            let on_plane = n % 2 == 0 && rng.random_bool(0.5);
            let k = rng.random_range(-2..3) as f64;
            let x = if on_plane {
                k * size[a]
            } else {
                dyadic(rng, -1.0..size[a] + 1.0)
            };
            x + shift * size[a]
        });
        points.push(of(p));
    }
    points
}

/// The images the loop visits: every `k` with `|k[a]| <= reach` on the repeating axes, around
/// `around`.
fn images<const D: usize>(around: &Image<D>, reach: i64, axes: [bool; D]) -> Vec<Image<D>> {
    let mut all = vec![*around];
    for a in 0..D {
        if !axes[a] {
            continue;
        }
        all = all
            .iter()
            .flat_map(|k| {
                (-reach..=reach).map(move |step| {
                    let mut k = *k;
                    k[a] += step;
                    k
                })
            })
            .collect();
    }
    all
}

/// `p − k ∘ size`, exact for the tests' dyadic values.
fn moved<T: Real, const D: usize>(
    p: &Point<T, D>,
    k: &Image<D>,
    size: &SVector<f64, D>,
) -> Point<T, D> {
    of(SVector::from_fn(|a, _| {
        p[a].to_wide() - k[a] as f64 * size[a]
    }))
}

/// The bits of an answer.
fn bits<T: Real, const D: usize>(
    n: &Option<PeriodicNearest<T, D>>,
) -> Option<(usize, Image<D>, Vec<u64>)> {
    n.as_ref().map(|n| {
        let values = core::iter::once(n.nearest.signed_distance)
            .chain(n.nearest.point.iter().copied())
            .chain(n.nearest.normal.iter().copied())
            .map(|v| v.to_wide().to_bits())
            .collect();
        assert_eq!(n.nearest.body, n.body);
        (n.body, n.image, values)
    })
}

fn check<T: Real, const D: usize>(seed: u64, size: SVector<f64, D>, axes: [bool; D], shift: f64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let all = bodies::<T, D>(rng, &size);
    let period = Periodicity::along(of(SVector::zeros()), size.map(T::from_wide), axes).unwrap();
    let scene = PeriodicScene::new(all.clone(), period);
    let label = format!(
        "{} {D}D, axes {axes:?}, shift {shift}",
        core::any::type_name::<T>()
    );
    let (mut found, mut inside) = (Vec::new(), Vec::new());
    for p in points::<T, D>(rng, &size, shift) {
        // The loop visits the images within 5 boxes of the point's own: every body lies within
        // 1.5 boxes of the box, and the distances asked reach 2.25 boxes at most.
        let around: Image<D> = core::array::from_fn(|a| {
            if axes[a] {
                (p[a].to_wide() / size[a]).floor() as i64
            } else {
                0
            }
        });
        let pairs: Vec<(usize, Image<D>, Point<T, D>)> = images(&around, 5, axes)
            .into_iter()
            .flat_map(|k| {
                let q = moved(&p, &k, &size);
                (0..all.len()).map(move |b| (b, k, q))
            })
            .collect();
        for odd in [false, true] {
            let keep = |b: usize| !odd || b % 2 == 1;
            // containing and within: the pairs in increasing (body, image).
            scene.containing_filtered(&p, &mut inside, keep);
            let mut want: Vec<(usize, Image<D>)> = pairs
                .iter()
                .filter(|(b, _, q)| keep(*b) && all[*b].contains(q))
                .map(|(b, k, _)| (*b, *k))
                .collect();
            want.sort_unstable();
            assert_eq!(inside, want, "{label}: containing at {p:?}");
            let smallest = size.min();
            for distance in [-0.25, 0.0, 0.5, 1.0, smallest * 0.75, smallest * 2.25] {
                let distance = T::from_wide(distance);
                scene.within_filtered(&p, distance, &mut found, keep);
                let mut want: Vec<(usize, Image<D>)> = pairs
                    .iter()
                    .filter(|(b, _, q)| {
                        keep(*b) && all[*b].signed_distance(q).to_wide() <= distance.to_wide()
                    })
                    .map(|(b, k, _)| (*b, *k))
                    .collect();
                want.sort_unstable();
                assert_eq!(found, want, "{label}: within {distance:?} at {p:?}");
            }
            // nearest: the smallest signed distance, then the lowest body, then image.
            let best = pairs
                .iter()
                .filter(|(b, _, _)| keep(*b))
                .map(|(b, k, q)| (all[*b].signed_distance(q).to_wide(), *b, *k, *q))
                .min_by(|x, y| (x.0, x.1, x.2).partial_cmp(&(y.0, y.1, y.2)).unwrap());
            for max in [f64::INFINITY, 0.5, 0.0, -0.5] {
                let got = scene.nearest_filtered(&p, T::from_wide(max), keep);
                let want = best.filter(|(d, ..)| *d <= max).map(|(d, b, k, q)| {
                    let (point, normal) = all[b].closest_point(&q);
                    let back = of::<T, D>(SVector::from_fn(|a, _| {
                        point[a].to_wide() + k[a] as f64 * size[a]
                    }));
                    PeriodicNearest {
                        body: b,
                        image: k,
                        nearest: raysweep::BodyNearest {
                            body: b,
                            signed_distance: T::from_wide(d),
                            point: back,
                            normal,
                        },
                    }
                });
                assert_eq!(
                    bits(&got),
                    bits(&want),
                    "{label}: nearest within {max} at {p:?}"
                );
            }
        }
    }
}

#[test]
fn point_queries_equal_the_loop_over_bodies_and_images() {
    check::<f64, 3>(1, SVector::from([4.0, 4.0, 2.5]), [true; 3], 0.0);
    check::<f32, 3>(2, SVector::from([4.0, 3.0, 5.0]), [true, false, true], 0.0);
    check::<f64, 2>(3, SVector::from([3.0, 4.5]), [true; 2], 0.0);
    check::<f32, 2>(4, SVector::from([2.5, 4.0]), [false, true], 0.0);
    // A thousand boxes from the origin (the images' vectors are large, the moved points exact).
    check::<f64, 3>(5, SVector::from([4.0, 4.0, 2.5]), [true; 3], 1000.0);
    check::<f32, 2>(6, SVector::from([3.0, 4.5]), [true; 2], -1000.0);
}

#[test]
fn non_finite_points_and_limits_give_nothing() {
    let size = SVector::from([4.0, 4.0]);
    let rng = &mut StdRng::seed_from_u64(7);
    let period = Periodicity::new(Point::origin(), size).unwrap();
    let scene = PeriodicScene::new(bodies::<f64, 2>(rng, &size), period);
    let mut found = vec![(9, [9, 9])];
    for p in [
        Point::from([f64::NAN, 0.0]),
        Point::from([f64::INFINITY, 0.0]),
        Point::from([0.0, f64::NEG_INFINITY]),
    ] {
        assert_eq!(scene.nearest(&p, f64::INFINITY), None);
        scene.within(&p, 1.0, &mut found);
        assert!(found.is_empty());
        scene.containing(&p, &mut found);
        assert!(found.is_empty());
    }
    let p = Point::from([1.0, 1.0]);
    assert_eq!(scene.nearest(&p, f64::NAN), None);
    scene.within(&p, f64::NAN, &mut found);
    assert!(found.is_empty());
    // No body kept: none in any image, found without visiting them all.
    assert_eq!(scene.nearest_filtered(&p, f64::INFINITY, |_| false), None);
    assert_eq!(scene.nearest_filtered(&p, 3.0, |_| false), None);
    let empty: PeriodicScene<f64, 2, Body<f64, 2>> = PeriodicScene::new(Vec::new(), period);
    assert_eq!(empty.nearest(&p, f64::INFINITY), None);
    empty.within(&p, 10.0, &mut found);
    assert!(found.is_empty());
}

#[test]
fn bad_periods_are_refused() {
    let min = Point::from([0.0f32, 0.0, 0.0]);
    for (size, error) in [
        (
            [1.0, 0.0, 1.0],
            Error::NonPositivePeriod {
                axis: 1,
                value: 0.0,
            },
        ),
        (
            [1.0, 1.0, -2.0],
            Error::NonPositivePeriod {
                axis: 2,
                value: -2.0,
            },
        ),
        (
            [-0.0, 1.0, 1.0],
            Error::NonPositivePeriod {
                axis: 0,
                value: -0.0,
            },
        ),
        (
            [1.0, f32::NAN, 1.0],
            Error::NonFinite {
                what: "size",
                index: 1,
                value: f64::NAN,
            },
        ),
        (
            [f32::INFINITY, 1.0, 1.0],
            Error::NonFinite {
                what: "size",
                index: 0,
                value: f64::INFINITY,
            },
        ),
    ] {
        assert_eq!(Periodicity::new(min, SVector::from(size)), Err(error));
    }
    // A size that does not repeat may be zero or negative, not NaN.
    let along = |size: [f32; 3]| Periodicity::along(min, SVector::from(size), [true, false, true]);
    assert!(along([1.0, 0.0, 1.0]).is_ok());
    assert!(along([1.0, f32::NAN, 1.0]).is_err());
    let far = Point::from([0.0, f32::NAN, 0.0]);
    assert_eq!(
        Periodicity::new(far, SVector::from([1.0, 1.0, 1.0])),
        Err(Error::NonFinite {
            what: "min",
            index: 1,
            value: f64::NAN
        })
    );
}

#[test]
fn ties_go_to_the_lowest_body_then_the_lowest_image() {
    let period = Periodicity::new(Point::origin(), SVector::from([4.0, 4.0])).unwrap();
    let ball = |x: f64, y: f64| -> Body<f64, 2> { sphere(SVector::from([x, y]), 1.0).into() };
    // Body 1 sits where body 0's image [1, 0] does; body 2 is body 0 again.
    let scene = PeriodicScene::new(vec![ball(0.0, 0.0), ball(4.0, 0.0), ball(0.0, 0.0)], period);
    let at = |x: f64, y: f64| {
        let n = scene.nearest(&Point::from([x, y]), f64::INFINITY).unwrap();
        (n.body, n.image, n.nearest.signed_distance)
    };
    // Halfway between images [0, 0] and [1, 0] of body 0, and of body 1's [-1, 0] and [0, 0].
    assert_eq!(at(2.0, 0.0), (0, [0, 0], 1.0));
    // Halfway between body 0's images [-1, 0] and [0, 0] (and body 1's [-2, 0] and [-1, 0]).
    assert_eq!(at(-2.0, 0.0), (0, [-1, 0], 1.0));
    // At the centre of four images: the lowest of [-1, -1], [-1, 0], [0, -1], [0, 0].
    let (body, image, _) = at(-2.0, -2.0);
    assert_eq!((body, image), (0, [-1, -1]));
    // Inside body 0's image [1, 0] and body 1's [0, 0], as deep in each: body 0 wins.
    assert_eq!(at(4.25, 0.0), (0, [1, 0], -0.75));
    // A small body far to the left moves the bodies' box, so that the image searched first from
    // (2, 0) is [1, 0]; the tie still goes to [0, 0].
    let small: Body<f64, 2> = sphere(SVector::from([-6.0, 2.0]), 0.25).into();
    let scene = PeriodicScene::new(vec![ball(0.0, 0.0), small], period);
    let n = scene
        .nearest(&Point::from([2.0, 0.0]), f64::INFINITY)
        .unwrap();
    assert_eq!((n.body, n.image), (0, [0, 0]));
}
