//! A periodic scene's `within` and `nearest` where the moved point `p − k ∘ size` is not a value
//! of the width (sizes, bodies and points at random, not dyadic): each answer within the
//! precision targets of the exact one, computed with 256-bit floats against the bodies
//! translated exactly; and where the exact distance is a value of the width (a ball's own images,
//! whole boxes away), exactly that value, so that a pair at exactly the distance asked is listed
//! and one just beyond it is not.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point, SVector};
use raysweep::{Aabb, Body, Image, PeriodicScene, Periodicity, Sphere};

use crate::common::Width;
use crate::common::reference::{Big, big, to_f64};
use crate::periodic::images;

/// A body as the reference reads it: a ball (centre, radius) or a box (corners), in `f64`.
#[derive(Clone, Copy)]
enum Solid<const D: usize> {
    Ball([f64; D], f64),
    Box([f64; D], [f64; D]),
}

impl<const D: usize> Solid<D> {
    /// Its signed distance at `p` translated by `t`, in the working precision: plain `f64`
    /// (`exact` false, within about `2^-50` of the coordinates) or 256 bits.
    fn distance(&self, p: &[f64; D], t: &[f64; D], exact: bool) -> Big {
        let at = |x: f64| {
            if exact {
                big(x)
            } else {
                Big::try_from(x).unwrap()
            }
        };
        let zero = at(0.0);
        match self {
            Solid::Ball(c, r) => {
                let squares = (0..D).fold(zero, |acc, a| {
                    let f = at(p[a]) - at(c[a]) - at(t[a]);
                    acc + &f * &f
                });
                squares.sqrt() - at(*r)
            }
            Solid::Box(lo, hi) => {
                let past: Vec<Big> = (0..D)
                    .map(|a| {
                        let below = at(lo[a]) + at(t[a]) - at(p[a]);
                        let above = at(p[a]) - at(hi[a]) - at(t[a]);
                        below.max(above)
                    })
                    .collect();
                if past.iter().any(|u| *u > zero) {
                    past.iter()
                        .filter(|u| **u > zero)
                        .fold(zero.clone(), |acc, u| acc + u * u)
                        .sqrt()
                } else {
                    past.into_iter().max().unwrap()
                }
            }
        }
    }

    /// The largest magnitude of its coordinates translated by `t`.
    fn scale(&self, t: &[f64; D]) -> f64 {
        let (a, b) = match self {
            Solid::Ball(c, r) => (*c, [*r; D]),
            Solid::Box(lo, hi) => (*lo, *hi),
        };
        (0..D)
            .map(|i| (a[i] + t[i]).abs().max((b[i] + t[i]).abs()))
            .fold(0.0, f64::max)
    }
}

/// A coordinate of the width at random in `range`.
fn value<T: Width>(rng: &mut StdRng, range: core::ops::Range<f64>) -> f64 {
    T::fit(rng.random_range(range))
}

/// Balls and boxes in and around the box `0..size`, none dyadic, and how the reference reads
/// them.
fn bodies<T: Width, const D: usize>(
    rng: &mut StdRng,
    size: &[f64; D],
) -> (Vec<Body<T, D>>, Vec<Solid<D>>) {
    let point = |p: [f64; D]| Point::from(p.map(T::from_wide));
    let (mut built, mut solids) = (Vec::new(), Vec::new());
    for n in 0..12 {
        let c: [f64; D] = core::array::from_fn(|a| value::<T>(rng, -0.5..size[a] + 0.5));
        if n % 2 == 0 {
            let r = value::<T>(rng, 0.1..1.0);
            built.push(Sphere::new(point(c), T::from_wide(r)).unwrap().into());
            solids.push(Solid::Ball(c, r));
        } else {
            let hi: [f64; D] = core::array::from_fn(|a| value::<T>(rng, c[a] + 0.1..c[a] + 1.5));
            built.push(Aabb::new(point(c), point(hi)).unwrap().into());
            solids.push(Solid::Box(c, hi));
        }
    }
    (built, solids)
}

/// `k ∘ size` (exact in `f64`: the sizes have at most 24 or 53 bits and `|k|` is small, so the
/// products are formed exactly by the reference, which takes them as given; the tests' sizes
/// have few enough bits that `k[a] · size[a]` is a value of `f64`).
fn lattice<const D: usize>(k: &Image<D>, size: &[f64; D]) -> [f64; D] {
    core::array::from_fn(|a| k[a] as f64 * size[a])
}

fn run<T: Width, const D: usize>(seed: u64, shift: f64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    // Sizes of 20 significant bits: `k · size` is exact in f64 for the small `k` used here.
    let size: [f64; D] =
        core::array::from_fn(|_| (rng.random_range(0.6..2.5f64) * 1048576.0).round() / 1048576.0);
    let (built, solids) = bodies::<T, D>(rng, &size);
    let period = Periodicity::new(Point::origin(), SVector::from(size.map(T::from_wide))).unwrap();
    let scene = PeriodicScene::new(built, period);
    let smallest = size.iter().copied().fold(f64::INFINITY, f64::min);
    let mut found = Vec::new();
    let mut rounded = 0;
    for _ in 0..25 {
        let p: [f64; D] = core::array::from_fn(|a| {
            value::<T>(rng, -1.0 + shift * size[a]..size[a] + 1.0 + shift * size[a])
        });
        let around: [i64; D] = core::array::from_fn(|a| (p[a] / size[a]).floor() as i64);
        // Bodies reach 1.5 beyond the box (at most 2.5 boxes), distances 2.1 boxes: 6 boxes
        // hold every pair that can answer.
        let pairs: Vec<(usize, Image<D>, [f64; D])> = images(&around, [6; D], [true; D])
            .into_iter()
            .flat_map(|k| (0..solids.len()).map(move |b| (b, k, lattice(&k, &size))))
            .collect();
        rounded += pairs
            .iter()
            .filter(|(_, _, t)| (0..D).any(|a| big(T::fit(p[a] - t[a])) != big(p[a]) - big(t[a])))
            .count();
        let point = Point::from(p.map(T::from_wide));
        let scale_of = |b: usize, t: &[f64; D]| {
            solids[b]
                .scale(t)
                .max(p.iter().fold(0.0, |m: f64, x| m.max(x.abs())))
        };
        // The targets: a couple of ulps of the width at the distance, and the roundings of the
        // coordinates' size in f64.
        let tolerance =
            |d: f64, scale: f64| 2.0 * T::ulp(d) + 16.0 * f64::EPSILON * scale + T::TINY;
        let largest = 2.1 * smallest;
        // The pairs that can matter, by a plain estimate; each then measured exactly.
        let near: Vec<(usize, Image<D>, f64, f64)> = pairs
            .iter()
            .filter(|(b, _, t)| to_f64(&solids[*b].distance(&p, t, false)) <= largest + 1e-6)
            .map(|(b, k, t)| {
                (
                    *b,
                    *k,
                    to_f64(&solids[*b].distance(&p, t, true)),
                    scale_of(*b, t),
                )
            })
            .collect();
        let what = format!("{} {D}D at {p:?}", T::NAME);
        for distance in [0.0, 0.3, 1.1 * smallest, largest] {
            let distance = T::fit(distance);
            scene.within(&point, T::from_wide(distance), &mut found);
            for &(b, k) in &found {
                assert!(
                    near.iter().any(|(nb, nk, ..)| (*nb, *nk) == (b, k)),
                    "{what}: within {distance} lists {b} {k:?}, far beyond it"
                );
            }
            for &(b, k, exact, scale) in &near {
                let listed = found.contains(&(b, k));
                let room = tolerance(distance, scale);
                assert!(
                    listed || exact > distance - room,
                    "{what}: within {distance} misses {b} {k:?} at {exact}"
                );
                assert!(
                    !listed || exact <= distance + room,
                    "{what}: within {distance} lists {b} {k:?} at {exact}"
                );
            }
        }
        let best = near
            .iter()
            .map(|(_, _, d, _)| *d)
            .fold(f64::INFINITY, f64::min);
        let n = scene.nearest(&point, T::from_wide(f64::INFINITY)).unwrap();
        let t = lattice(&n.image, &size);
        let exact = to_f64(&solids[n.body].distance(&p, &t, true));
        let got = n.nearest.signed_distance.to_wide();
        let room = tolerance(got, scale_of(n.body, &t));
        assert!(
            (got - exact).abs() <= room && (got - best).abs() <= 2.0 * room,
            "{what}: nearest {} {:?} at {got}, exactly {exact}, the nearest of all {best}",
            n.body,
            n.image
        );
        // Its point on that body's surface, |distance| from the point.
        let q = n.nearest.point.coords.map(|x| x.to_wide());
        let on = to_f64(&solids[n.body].distance(&q.into(), &t, true));
        let reach = (0..D).map(|a| (q[a] - p[a]).powi(2)).sum::<f64>().sqrt();
        let room = 4.0 * T::ulp(scale_of(n.body, &t)) * D as f64;
        assert!(
            on.abs() <= room && (reach - got.abs()).abs() <= room,
            "{what}: nearest point {q:?} is {on} off the surface, {reach} from the point"
        );
    }
    // Far from the origin the point and its nearby images' vectors lie within a factor of two
    // of each other, and the moved points are exact (Sterbenz).
    assert!(
        shift != 0.0 || rounded > 1000,
        "{} {D}D: only {rounded} pairs moved inexactly",
        T::NAME
    );
}

#[test]
fn moved_points_that_round_meet_the_precision_targets() {
    run::<f64, 3>(11, 0.0);
    run::<f32, 3>(12, 0.0);
    run::<f64, 2>(13, 0.0);
    run::<f32, 2>(14, 0.0);
    // Far from the origin: large lattice vectors.
    run::<f64, 3>(15, 5000.0);
    run::<f32, 2>(16, -300.0);
}

/// A body's own images lie whole boxes away: at `2·size` a ball's signed distance from its
/// centre is exactly `2·size − r`, and a box's from its lower corner exactly `2·size`, wherever
/// they stand, moved point rounded or not.
fn own_images<T: Width, const D: usize>(seed: u64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let (size, r) = (3.0, 0.75);
    let period = Periodicity::new(Point::origin(), SVector::repeat(T::from_wide(size))).unwrap();
    // The exact distances, and the values of the width just below them.
    let exactly = |d: f64| (T::from_wide(d), T::from_wide(d - T::ulp(d)));
    let mut found = Vec::new();
    let mut rounded = 0;
    for _ in 0..200 {
        let c: [f64; D] = core::array::from_fn(|_| value::<T>(rng, 0.0..size));
        rounded += usize::from(
            c.iter()
                .any(|&x| big(T::fit(x - 2.0 * size)) != big(x) - big(2.0 * size)),
        );
        let centre = Point::from(c.map(T::from_wide));
        let ball: Body<T, D> = Sphere::new(centre, T::from_wide(r)).unwrap().into();
        let corner = Point::from(c.map(|x| T::from_wide(x + 0.5)));
        let cube: Body<T, D> = Aabb::new(centre, corner).unwrap().into();
        let scene = PeriodicScene::new(vec![ball, cube], period);
        // The ball's images two boxes either way, the box's two boxes up.
        let twice = |body: usize, steps: &[i64]| -> Vec<(usize, Image<D>)> {
            (0..D)
                .flat_map(|a| {
                    steps.iter().map(move |&step| {
                        let mut k = [0; D];
                        k[a] = step;
                        (body, k)
                    })
                })
                .collect()
        };
        for (pairs, distance) in [
            (twice(0, &[-2, 2]), 2.0 * size - r),
            (twice(1, &[2]), 2.0 * size),
        ] {
            let (at, below) = exactly(distance);
            scene.within(&centre, at, &mut found);
            for pair in &pairs {
                assert!(
                    found.contains(pair),
                    "{} {D}D: {pair:?} not within {at:?} of {c:?}",
                    T::NAME
                );
            }
            scene.within(&centre, below, &mut found);
            for pair in &pairs {
                assert!(
                    !found.contains(pair),
                    "{} {D}D: {pair:?} within {below:?} of {c:?}",
                    T::NAME
                );
            }
        }
    }
    assert!(
        rounded > 50,
        "{} {D}D: only {rounded} centres round",
        T::NAME
    );
}

#[test]
fn own_images_whole_boxes_away_are_at_exactly_their_distance() {
    own_images::<f64, 3>(21);
    own_images::<f32, 3>(22);
    own_images::<f64, 2>(23);
    own_images::<f32, 2>(24);
}

/// A box's face an ulp or less from a point's moved place: `p` and the face of image `−2`, the
/// box's lower face `b = p + 2·size` rounded to the width, apart by exactly `b − (p + 2·size)`,
/// which only the moved point held exactly (as `hi + lo`) sees. The nearest answer is that
/// signed distance exactly (it is a value of the width), and `within(p, 0)` lists the box where
/// it is not positive.
fn faces<T: Width, const D: usize>(seed: u64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    let size = 3.0;
    let mut axes = [false; D];
    axes[0] = true;
    let period =
        Periodicity::along(Point::origin(), SVector::repeat(T::from_wide(size)), axes).unwrap();
    let (mut found, mut signs) = (Vec::new(), [0; 3]);
    for _ in 0..200 {
        let p: [f64; D] = core::array::from_fn(|_| value::<T>(rng, 0.0..1.0));
        let b = T::fit(p[0] + 2.0 * size);
        let exact = big(b) - big(2.0 * size) - big(p[0]);
        let want = T::fit(to_f64(&exact));
        signs[usize::from(want > 0.0) + usize::from(want >= 0.0)] += 1;
        let lower: [f64; D] = core::array::from_fn(|a| if a == 0 { b } else { -10.0 });
        let upper: [f64; D] = core::array::from_fn(|a| if a == 0 { b + 1.0 } else { 10.0 });
        let cube = Aabb::new(
            Point::from(lower.map(T::from_wide)),
            Point::from(upper.map(T::from_wide)),
        )
        .unwrap();
        let scene = PeriodicScene::new(vec![Body::from(cube)], period);
        let point = Point::from(p.map(T::from_wide));
        let n = scene.nearest(&point, T::from_wide(f64::INFINITY)).unwrap();
        let mut image = [0; D];
        image[0] = -2;
        assert_eq!(
            (n.image, n.nearest.signed_distance.to_wide()),
            (image, want),
            "{} {D}D: at {p:?}, face at {b} - {}",
            T::NAME,
            2.0 * size
        );
        scene.within(&point, T::from_wide(0.0), &mut found);
        assert_eq!(found.contains(&(0, image)), want <= 0.0);
    }
    // Points outside, on and inside the face, each often.
    assert!(signs.iter().all(|&n| n > 10), "{} {D}D: {signs:?}", T::NAME);
}

#[test]
fn box_faces_an_ulp_from_a_moved_point() {
    faces::<f64, 3>(31);
    faces::<f32, 3>(32);
    faces::<f64, 2>(33);
    faces::<f32, 2>(34);
}
