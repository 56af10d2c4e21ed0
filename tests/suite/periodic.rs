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
    Body, Cast, Error, Hit, Image, PeriodicHit, PeriodicNearest, PeriodicScene, Periodicity,
    PointQuery, Ray, Real, Shape,
};

use crate::scene::{cube, hit_bits, lattice_dir, of, sphere};

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

/// The images the loop visits: every `k` with `|k[a] - around[a]| <= reach[a]` on the repeating
/// axes.
pub(crate) fn images<const D: usize>(
    around: &Image<D>,
    reach: [i64; D],
    axes: [bool; D],
) -> Vec<Image<D>> {
    let mut all = vec![*around];
    for a in 0..D {
        if !axes[a] {
            continue;
        }
        all = all
            .iter()
            .flat_map(|k| {
                (-reach[a]..=reach[a]).map(move |step| {
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

/// Small bodies well inside the box `0..size` (at least 1 from its faces), so that from most
/// points the neighbouring images' boxes lie beyond the nearest body.
fn inside<T: Real, const D: usize>(rng: &mut StdRng, size: &SVector<f64, D>) -> Vec<Body<T, D>> {
    (0..30)
        .map(|n| {
            let c = SVector::<f64, D>::from_fn(|a, _| dyadic(rng, 1.5..size[a] - 1.5));
            if n % 2 == 0 {
                sphere(c, dyadic(rng, 0.125..0.5)).into()
            } else {
                let extent = SVector::<f64, D>::from_fn(|_, _| dyadic(rng, 0.25..1.0));
                cube(c - extent / 2.0, extent).into()
            }
        })
        .collect()
}

fn check<T: Real, const D: usize>(seed: u64, size: SVector<f64, D>, axes: [bool; D], shift: f64) {
    check_with::<T, D>(seed, size, axes, shift, bodies);
}

fn check_with<T: Real, const D: usize>(
    seed: u64,
    size: SVector<f64, D>,
    axes: [bool; D],
    shift: f64,
    bodies: fn(&mut StdRng, &SVector<f64, D>) -> Vec<Body<T, D>>,
) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let all = bodies(rng, &size);
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
        let pairs: Vec<(usize, Image<D>, Point<T, D>)> = images(&around, [5; D], axes)
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
    // Small bodies well inside a large box: the images next to the point's are mostly beyond
    // the nearest body (and asked only where they are not).
    let large = SVector::from([10.0, 12.0, 9.0]);
    check_with::<f64, 3>(7, large, [true; 3], 0.0, inside);
    check_with::<f32, 3>(8, large, [true, false, true], 3.0, inside);
    check_with::<f64, 2>(9, SVector::from([10.0, 8.0]), [true; 2], -2.0, inside);
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

/// An answer's `(body, image, bits)`, the hit's point placed in the image exactly as the loop
/// places it: `point + k ∘ size`, rounded once.
type HitKey<const D: usize> = Option<(usize, Image<D>, Vec<u64>)>;

fn hit_key<T: Real, const D: usize>(h: &Option<PeriodicHit<T, D>>) -> HitKey<D> {
    h.as_ref().map(|h| (h.body, h.image, hit_bits(&h.hit)))
}

/// The loop's first hit over `pairs` (body, image, moved ray) by `cast`, the smallest
/// `(distance, body, image)`.
fn loop_first<T: Real, const D: usize>(
    pairs: &[(usize, Image<D>, Ray<T, D>)],
    size: &SVector<f64, D>,
    mut cast: impl FnMut(usize, &Ray<T, D>) -> Option<Hit<T, D>>,
) -> HitKey<D> {
    let best = pairs
        .iter()
        .filter_map(|(b, k, ray)| cast(*b, ray).map(|hit| (hit, *b, *k)))
        .min_by(|x, y| {
            (x.0.distance.to_wide(), x.1, x.2)
                .partial_cmp(&(y.0.distance.to_wide(), y.1, y.2))
                .unwrap()
        });
    best.map(|(hit, b, k)| {
        let point = of::<T, D>(SVector::from_fn(|a, _| {
            hit.point[a].to_wide() + k[a] as f64 * size[a]
        }));
        (b, k, hit_bits(&Hit { point, ..hit }))
    })
}

/// Rays from the test points: along the axes (the lattice's planes, and channels), along
/// diagonals (through its edges and corners), and at random; each direction one that
/// normalising leaves as it is, so that the loop's moved rays keep it.
fn periodic_rays<T: Real, const D: usize>(
    rng: &mut StdRng,
    size: &SVector<f64, D>,
    shift: f64,
) -> Vec<Ray<T, D>> {
    points::<T, D>(rng, size, shift)
        .into_iter()
        .take(24)
        .enumerate()
        .map(|(n, origin)| {
            let dir = match n % 3 {
                0 | 1 => lattice_dir::<D>(rng),
                _ => SVector::from_fn(|_, _| rng.random_range(-1.0..1.0)),
            };
            let mut ray = Ray::new(origin, dir.map(T::from_wide)).unwrap();
            while Ray::new(origin, ray.dir().into_inner()).unwrap() != ray {
                ray = Ray::new(origin, ray.dir().into_inner()).unwrap();
            }
            ray
        })
        .collect()
}

fn check_rays<T: Real, const D: usize>(
    seed: u64,
    size: SVector<f64, D>,
    axes: [bool; D],
    shift: f64,
) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let all = bodies::<T, D>(rng, &size);
    let period = Periodicity::along(of(SVector::zeros()), size.map(T::from_wide), axes).unwrap();
    let scene = PeriodicScene::new(all.clone(), period);
    let label = format!(
        "{} {D}D, axes {axes:?}, shift {shift}",
        core::any::type_name::<T>()
    );
    let smallest = size.min();
    let (far, ball) = (2.5 * smallest, T::from_wide(0.25));
    let mut spans = Vec::new();
    for ray in periodic_rays::<T, D>(rng, &size, shift) {
        // Every image within `far` (2.5 boxes), the ball and the bodies' reach (2 beyond the
        // box) of the origin's.
        let reach: [i64; D] = core::array::from_fn(|a| (2.25 / size[a]).ceil() as i64 + 4);
        let around: Image<D> = core::array::from_fn(|a| {
            if axes[a] {
                (ray.origin()[a].to_wide() / size[a]).floor() as i64
            } else {
                0
            }
        });
        let pairs: Vec<(usize, Image<D>, Ray<T, D>)> = images(&around, reach, axes)
            .into_iter()
            .flat_map(|k| {
                let moved = Ray::new(moved(ray.origin(), &k, &size), ray.dir().into_inner());
                let moved = moved.unwrap();
                assert_eq!(moved.dir(), ray.dir());
                (0..all.len()).map(move |b| (b, k, moved))
            })
            .collect();
        for odd in [false, true] {
            let keep = |b: usize| !odd || b % 2 == 1;
            for max in [0.0, 0.5 * smallest, far] {
                let max = T::from_wide(max);
                let what = format!("{label}: {ray:?} max {max:?} odd {odd}");
                let want = loop_first(&pairs, &size, |b, r| {
                    keep(b).then(|| all[b].cast_ray(r, max)).flatten()
                });
                let got = scene.cast_ray_filtered(&ray, max, keep);
                assert_eq!(hit_key(&got), want, "cast_ray {what}");
                assert_eq!(
                    scene.hits_any_filtered(&ray, max, keep),
                    want.is_some(),
                    "hits_any {what}"
                );
                if max.to_wide() == far && want.is_some() {
                    // The first hit within `far` is the first hit of all.
                    let endless = scene.cast_ray_filtered(&ray, T::from_wide(f64::INFINITY), keep);
                    assert_eq!(hit_key(&endless), want, "cast_ray without end {what}");
                }
                let want = loop_first(&pairs, &size, |b, r| {
                    keep(b).then(|| all[b].cast_sphere(r, ball, max)).flatten()
                });
                let got = scene.cast_sphere_filtered(&ray, ball, max, keep);
                assert_eq!(hit_key(&got), want, "cast_sphere {what}");
                // Spans: every pair whose span meets [0, max], by (enter, body, image).
                let mut want: Vec<(u64, usize, Image<D>, u64)> = pairs
                    .iter()
                    .filter(|(b, _, _)| keep(*b))
                    .filter_map(|(b, k, r)| all[*b].ray_span(r).map(|s| (s, *b, *k)))
                    .filter(|(s, ..)| s.exit.to_wide() >= 0.0 && s.enter.to_wide() <= max.to_wide())
                    .map(|(s, b, k)| {
                        (
                            s.enter.to_wide().to_bits(),
                            b,
                            k,
                            s.exit.to_wide().to_bits(),
                        )
                    })
                    .collect();
                want.sort_by(|x, y| {
                    (f64::from_bits(x.0), x.1, x.2)
                        .partial_cmp(&(f64::from_bits(y.0), y.1, y.2))
                        .unwrap()
                });
                scene.ray_spans_filtered(&ray, max, &mut spans, keep);
                let got: Vec<(u64, usize, Image<D>, u64)> = spans
                    .iter()
                    .map(|s| {
                        let (enter, exit) = (s.span.enter.to_wide(), s.span.exit.to_wide());
                        (enter.to_bits(), s.body, s.image, exit.to_bits())
                    })
                    .collect();
                assert_eq!(got, want, "ray_spans {what}");
            }
        }
    }
}

#[test]
fn ray_queries_equal_the_loop_over_bodies_and_images() {
    check_rays::<f64, 3>(11, SVector::from([4.0, 4.0, 2.5]), [true; 3], 0.0);
    check_rays::<f32, 3>(12, SVector::from([4.0, 3.0, 5.0]), [true, false, true], 0.0);
    check_rays::<f64, 2>(13, SVector::from([3.0, 4.5]), [true; 2], 0.0);
    check_rays::<f32, 2>(14, SVector::from([2.5, 4.0]), [false, true], 0.0);
    check_rays::<f64, 3>(15, SVector::from([4.0, 4.0, 2.5]), [true; 3], 1000.0);
    check_rays::<f32, 2>(16, SVector::from([3.0, 4.5]), [true; 2], -1000.0);
}

#[test]
fn tiny_boxes_channels_and_bad_limits() {
    // Bodies many boxes wide: each body stands in every box around it.
    check_rays::<f64, 2>(17, SVector::from([0.25, 0.375]), [true; 2], 0.0);
    check_rays::<f32, 3>(18, SVector::from([1.0, 0.5, 1.5]), [true; 3], 3.0);

    // Balls of radius 1 every 4 on a square lattice: channels between them along each axis.
    let period = Periodicity::new(Point::origin(), SVector::from([4.0, 4.0])).unwrap();
    let ball: Body<f64, 2> = sphere(SVector::from([2.0, 2.0]), 1.0).into();
    let scene = PeriodicScene::new(vec![ball], period);
    let mut spans = Vec::new();
    for (origin, dir) in [
        ([0.0, 0.5], [1.0, 0.0]),
        ([0.5, 7.0], [0.0, -1.0]),
        // Along a lattice line, through the corners of the boxes.
        ([0.0, 0.0], [1.0, 0.0]),
        ([-8.0, 1000.0], [0.0, 1.0]),
    ] {
        let ray = Ray::new(Point::from(origin), SVector::from(dir)).unwrap();
        // Followed to the end of the walk, never endlessly.
        assert_eq!(scene.cast_ray(&ray, f64::INFINITY), None, "{ray:?}");
        assert!(!scene.hits_any(&ray, f64::INFINITY));
        assert_eq!(scene.cast_sphere(&ray, 0.25, f64::INFINITY), None);
        scene.ray_spans(&ray, f64::INFINITY, &mut spans);
        assert!(spans.is_empty());
        // A ball wider than the channel touches the next image.
        let hit = scene.cast_sphere(&ray, 1.75, f64::INFINITY).unwrap();
        assert_eq!(hit.body, 0);
    }
    // Through the balls' centres along x: a chord of 2 in each box, 10^3 boxes, in order.
    let ray = Ray::new(Point::from([0.0, 2.0]), SVector::from([1.0, 0.0])).unwrap();
    scene.ray_spans(&ray, 4000.0, &mut spans);
    assert_eq!(spans.len(), 1000);
    for (i, s) in spans.iter().enumerate() {
        let x = 4.0 * i as f64;
        assert_eq!(
            (s.image, s.span.enter, s.span.exit),
            ([i as i64, 0], x + 1.0, x + 3.0)
        );
    }
    // Bad limits and balls, a non-repeating axis the ray leaves, no bodies.
    for max in [f64::NAN, -1.0, f64::NEG_INFINITY] {
        assert_eq!(scene.cast_ray(&ray, max), None);
        assert!(!scene.hits_any(&ray, max));
        scene.ray_spans(&ray, max, &mut spans);
        assert!(spans.is_empty());
    }
    for radius in [f64::NAN, -1.0, f64::INFINITY] {
        assert_eq!(scene.cast_sphere(&ray, radius, 10.0), None);
    }
    let slab = Periodicity::along(Point::origin(), SVector::from([4.0, 4.0]), [true, false]);
    let slab = PeriodicScene::new(vec![ball], slab.unwrap());
    let up = Ray::new(Point::from([0.5, 3.5]), SVector::from([0.0, 1.0])).unwrap();
    assert_eq!(slab.cast_ray(&up, f64::INFINITY), None);
    let across = Ray::new(Point::from([-100.0, 2.0]), SVector::from([1.0, 0.0])).unwrap();
    assert_eq!(
        slab.cast_ray(&across, f64::INFINITY).unwrap().image,
        [-25, 0]
    );
    let empty: PeriodicScene<f64, 2, Body<f64, 2>> = PeriodicScene::new(Vec::new(), period);
    assert_eq!(empty.cast_ray(&ray, f64::INFINITY), None);
}
