//! Writes the C suite's inputs and the crate's answers to them (`tests/c/suite.c` reads the
//! file, asks the C ABI the same questions and compares bit for bit). For each width and
//! dimension: a mixed scene (balls, axis-aligned and oriented ellipsoids, boxes, then balls
//! again, so that the indices follow the order of adding), a scene of balls alone, rays and
//! points in and around them, and every query's answer from the crate's own `Scene`, never from
//! the C ABI. Values are written as their bits in hexadecimal, so that nothing is rounded.
//!
//! `cargo run -p raysweep-capi --example c-answers -- FILE`

use std::fmt::Write as _;

use raysweep::nalgebra::{Point, Rotation, SMatrix, SVector};
use raysweep::{Aabb, Body, Ellipsoid, Ray, Real, Scene, Sphere};

mod random;
use random::Random;

/// A value's bits, as the C suite reads them.
trait Bits: Real {
    fn bits(self) -> String;
    fn of(x: f64) -> Self;
}

impl Bits for f64 {
    fn bits(self) -> String {
        format!("{:016x}", self.to_bits())
    }
    fn of(x: f64) -> Self {
        x
    }
}

impl Bits for f32 {
    fn bits(self) -> String {
        format!("{:08x}", self.to_bits())
    }
    fn of(x: f64) -> Self {
        x as f32
    }
}

/// What is written: tokens separated by spaces, a line a record.
struct Out(String);

impl Out {
    fn put<T: Bits>(&mut self, values: &[T]) {
        for v in values {
            write!(self.0, "{} ", v.bits()).unwrap();
        }
    }
    fn count(&mut self, n: usize) {
        write!(self.0, "{n} ").unwrap();
    }
    fn end(&mut self) {
        self.0.push('\n');
    }
}

fn point<T: Bits, const D: usize>(random: &mut Random, low: f64, high: f64) -> Point<T, D> {
    Point::from(core::array::from_fn(|_| T::of(random.uniform(low, high))))
}

/// A rotation about an axis (the plane of the first two axes in 2D) by `angle`, in `T`.
fn rotation<T: Bits, const D: usize>(angle: f64) -> Rotation<T, D> {
    let (s, c) = angle.sin_cos();
    let m = SMatrix::<T, D, D>::from_fn(|i, j| match (i, j) {
        (0, 0) | (1, 1) => T::of(c),
        (0, 1) => T::of(-s),
        (1, 0) => T::of(s),
        (i, j) if i == j => T::one(),
        _ => T::zero(),
    });
    Rotation::from_matrix_unchecked(m)
}

fn hit<T: Bits, const D: usize>(out: &mut Out, found: Option<raysweep::BodyHit<T, D>>) {
    match found {
        None => out.count(0),
        Some(h) => {
            out.count(1);
            out.put(&[h.hit.distance]);
            out.put(h.hit.point.coords.as_slice());
            out.put(h.hit.normal.as_slice());
            out.count(h.body);
        }
    }
}

/// The scene's answers for `rays` and `points`, one record a query.
fn answers<T: Bits, const D: usize, S>(
    out: &mut Out,
    scene: &Scene<T, D, S>,
    rays: &[(Ray<T, D>, SVector<T, D>, T)],
    points: &[Point<T, D>],
) where
    S: raysweep::Cast<T, D> + raysweep::PointQuery<T, D> + Sync,
{
    let radius = T::of(0.125);
    let within = T::of(0.25);
    for (ray, direction, max) in rays {
        out.put(ray.origin().coords.as_slice());
        out.put(direction.as_slice());
        out.put(&[*max]);
        out.end();
        hit(out, scene.cast_ray(ray, *max));
        hit(out, scene.cast_sphere(ray, radius, *max));
        out.count(scene.hits_any(ray, *max) as usize);
        let first = scene.next_crossing(ray, T::NEG_INFINITY, *max);
        let after = first.map_or(T::zero(), |c| c.crossing.distance);
        for found in [first, scene.next_crossing(ray, after, *max)] {
            match found {
                None => out.count(0),
                Some(c) => {
                    out.count(1);
                    out.put(&[c.crossing.distance]);
                    out.put(c.crossing.normal.as_slice());
                    out.count(c.crossing.entering as usize);
                    out.count(c.body);
                }
            }
        }
        let mut spans = Vec::new();
        scene.ray_spans_to(ray, *max, &mut spans);
        out.count(spans.len());
        for s in &spans {
            out.put(&[s.span.enter, s.span.exit]);
            out.count(s.body);
        }
        let mut union = Vec::new();
        scene.union_spans(ray, *max, &mut union);
        out.count(union.len());
        for s in &union {
            out.put(&[s.enter, s.exit]);
        }
        out.end();
    }
    for p in points {
        out.put(p.coords.as_slice());
        out.end();
        let mut found = Vec::new();
        scene.containing(p, &mut found);
        out.count(found.len());
        found.iter().for_each(|&b| out.count(b));
        match scene.nearest(p, T::INFINITY) {
            None => out.count(0),
            Some(n) => {
                out.count(1);
                out.put(&[n.signed_distance]);
                out.put(n.point.coords.as_slice());
                out.put(n.normal.as_slice());
                out.count(n.body);
            }
        }
        found.clear();
        scene.within(p, within, &mut found);
        out.count(found.len());
        found.iter().for_each(|&b| out.count(b));
        out.end();
    }
}

/// One width and dimension's section: the bodies, then the answers of the mixed scene and of
/// the scene of balls alone.
fn section<T: Bits, const D: usize>(out: &mut Out, random: &mut Random) {
    let (balls, ovals, cuboids, more) = (40, 20, 20, 10);
    let mut bodies: Vec<Body<T, D>> = Vec::new();
    let mut spheres = Vec::new();
    // A ball, written to the file.
    let sphere = |random: &mut Random, out: &mut Out| {
        let s = Sphere::new(
            point::<T, D>(random, 0.0, 8.0),
            T::of(random.uniform(0.2, 1.0)),
        )
        .unwrap();
        out.put(s.center().coords.as_slice());
        out.put(&[s.radius()]);
        out.end();
        s
    };
    writeln!(out.0, "section {} {D}", core::mem::size_of::<T>() * 8).unwrap();
    out.count(balls);
    out.end();
    for _ in 0..balls {
        let s = sphere(random, out);
        spheres.push(s);
        bodies.push(s.into());
    }
    out.count(ovals);
    out.end();
    for i in 0..ovals {
        let center = point::<T, D>(random, 0.0, 8.0);
        let semi = point::<T, D>(random, 0.2, 1.2).coords;
        let oriented = i % 2 == 1;
        let e = match oriented {
            false => Ellipsoid::new(center, semi).unwrap(),
            true => Ellipsoid::oriented(center, semi, rotation(random.uniform(0.0, 3.0))).unwrap(),
        };
        out.put(center.coords.as_slice());
        out.put(semi.as_slice());
        out.count(oriented as usize);
        if oriented {
            let m = e.rotation().into_inner();
            let rows: Vec<T> = (0..D)
                .flat_map(|i| (0..D).map(move |j| m[(i, j)]))
                .collect();
            out.put(&rows);
        }
        out.end();
        bodies.push(e.into());
    }
    out.count(cuboids);
    out.end();
    for _ in 0..cuboids {
        let min = point::<T, D>(random, 0.0, 8.0);
        let max = min + point::<T, D>(random, 0.1, 1.5).coords;
        out.put(min.coords.as_slice());
        out.put(max.coords.as_slice());
        out.end();
        bodies.push(Aabb::new(min, max).unwrap().into());
    }
    out.count(more);
    out.end();
    for _ in 0..more {
        bodies.push(sphere(random, out).into());
    }
    let rays: Vec<_> = (0..60)
        .map(|i| {
            let origin = point::<T, D>(random, -1.0, 9.0);
            let direction = point::<T, D>(random, -1.0, 1.0).coords;
            let max = if i % 3 == 0 {
                T::INFINITY
            } else {
                T::of(random.uniform(0.0, 6.0))
            };
            (Ray::new(origin, direction).unwrap(), direction, max)
        })
        .collect();
    let points: Vec<_> = (0..60).map(|_| point::<T, D>(random, -1.0, 9.0)).collect();
    out.count(rays.len());
    out.count(points.len());
    out.end();
    answers(out, &Scene::new(bodies), &rays, &points);
    answers(out, &Scene::new(spheres), &rays, &points);
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: c-answers FILE");
    let mut out = Out(String::new());
    let mut random = Random::seeded();
    section::<f64, 3>(&mut out, &mut random);
    section::<f32, 3>(&mut out, &mut random);
    section::<f64, 2>(&mut out, &mut random);
    section::<f32, 2>(&mut out, &mut random);
    std::fs::write(&path, out.0).expect("the answers file written");
}
