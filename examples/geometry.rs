//! One transport routine for every kind of scene: the track length of random segments inside
//! fuel, the estimator of a reaction rate in a Monte Carlo transport code, written once over
//! [`Geometry`] and run on three media:
//!
//! - a plain [`Scene`]: fuel balls packed in a cube by random sequential addition
//!   ([`Scene::nearest`], [`Scene::push`]);
//! - a pebble bed of [`InstancedScene`]: one pebble (a graphite ball holding fuel kernels) placed
//!   at every pebble position packed in a cube, only the kernels fuel;
//! - a [`PeriodicScene`]: fuel balls packed in a periodic box (its own `nearest` and `push`, so
//!   balls across the box's faces do not overlap either).
//!
//! For each it prints the fuel's share of the segments' length against the fuel's volume
//! fraction (Delesse's principle: for isotropic uniform random lines through the cube, by
//! Cauchy-Crofton, and for segments from uniform points of the periodic box, by stationarity,
//! the ratio of totals is unbiased for it), and fails if they differ by more than five standard
//! errors.
//!
//! `cargo run --release --example geometry`

use std::f64::consts::PI;
use std::process::ExitCode;
use std::sync::Arc;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{
    Aabb, Answer, Cast, Error, Geometry, Instance, InstancedScene, PeriodicScene, Periodicity, Ray,
    Scene, Sphere,
};

/// Segments per medium.
const SEGMENTS: usize = 20_000;

/// The track length of each segment (a ray and its length) inside the bodies `fuel` names, and
/// the segment's length: the transport routine, for any kind of scene. The fuel bodies do not
/// overlap one another, so their chords on the segment add up.
fn fuel_tracks<G: Geometry<f64>>(
    geometry: &G,
    segments: &[(Ray<f64>, f64)],
    fuel: impl Fn(G::Id) -> bool,
) -> Vec<(f64, f64)> {
    let mut spans = Vec::new();
    segments
        .iter()
        .map(|(ray, length)| {
            geometry.ray_spans_to(ray, *length, &mut spans);
            let inside: f64 = spans
                .iter()
                .filter(|s| fuel(s.id()))
                .map(|s| s.found().length_within(0.0, *length))
                .sum();
            (inside, *length)
        })
        .collect()
}

/// The ratio `Σ fuel / Σ length` and its standard error (the delta method over the segments).
fn ratio_with_error(tracks: &[(f64, f64)]) -> (f64, f64) {
    let n = tracks.len() as f64;
    let (fuel, length) = tracks
        .iter()
        .fold((0.0, 0.0), |(f, l), (tf, tl)| (f + tf, l + tl));
    let ratio = fuel / length;
    let spread: f64 = tracks.iter().map(|(f, l)| (f - ratio * l).powi(2)).sum();
    (ratio, (spread / (n * (n - 1.0))).sqrt() / (length / n))
}

/// A uniform random unit vector.
fn isotropic(rng: &mut StdRng) -> Vector3<f64> {
    let z: f64 = rng.random_range(-1.0..1.0);
    let phi: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    let s = (1.0 - z * z).sqrt();
    Vector3::new(s * phi.cos(), s * phi.sin(), z)
}

/// Isotropic uniform random lines through the cube `[0, side]³`, as segments from where each
/// enters the cube to where it leaves it.
fn lines_through_cube(rng: &mut StdRng, side: f64) -> Result<Vec<(Ray<f64>, f64)>, Error> {
    let cube = Aabb::new(Point3::origin(), Point3::new(side, side, side))?;
    let centre = Point3::new(side, side, side) / 2.0;
    let radius = side * 3f64.sqrt() / 2.0;
    let mut segments = Vec::with_capacity(SEGMENTS);
    while segments.len() < SEGMENTS {
        // A direction, then a point uniform in the disc across the cube's bounding ball.
        let dir = isotropic(rng);
        let helper = if dir.x.abs() < 0.9 {
            Vector3::x()
        } else {
            Vector3::y()
        };
        let (u, w) = {
            let u = dir.cross(&helper).normalize();
            (u, dir.cross(&u))
        };
        let (r, a) = (
            radius * rng.random::<f64>().sqrt(),
            rng.random_range(0.0..std::f64::consts::TAU),
        );
        let across = centre + u * (r * a.cos()) + w * (r * a.sin());
        let line = Ray::new(across - dir * radius, dir)?;
        if let Some(chord) = cube.ray_span(&line) {
            let entry = line.at(chord.enter);
            segments.push((Ray::new(entry, dir)?, chord.length()));
        }
    }
    Ok(segments)
}

/// Centres of `count` balls of `radius` wholly inside the cube `[0, side]³`, none overlapping
/// (random sequential addition: a candidate is kept where the nearest kept ball's surface is at
/// least `radius` from its centre).
fn packed(
    rng: &mut StdRng,
    count: usize,
    radius: f64,
    side: f64,
) -> Result<Vec<Point3<f64>>, Error> {
    let mut scene: Scene<f64, 3, Sphere<f64>> = Scene::new(Vec::new());
    while scene.len() < count {
        let c = Point3::from(Vector3::from_fn(|_, _| {
            rng.random_range(radius..side - radius)
        }));
        if scene
            .nearest(&c, radius)
            .is_none_or(|n| n.signed_distance >= radius)
        {
            scene.push(Sphere::new(c, radius)?);
        }
    }
    Ok(scene.bodies().iter().map(|b| *b.center()).collect())
}

/// Prints the check; whether it holds.
fn report(name: &str, tracks: &[(f64, f64)], fraction: f64) -> bool {
    let (ratio, error) = ratio_with_error(tracks);
    let off = (ratio - fraction) / error;
    println!(
        "{name:>10}: fuel share of the track {ratio:.5} ± {error:.5}, volume fraction \
         {fraction:.5} ({off:+.2} standard errors)"
    );
    off.abs() <= 5.0
}

fn main() -> Result<ExitCode, Error> {
    let rng = &mut StdRng::seed_from_u64(7);
    let mut ok = true;

    // Fuel balls in a cube: every body is fuel.
    let (side, radius, count) = (40.0, 1.0, 4000);
    let balls: Vec<Sphere<f64>> = packed(rng, count, radius, side)?
        .into_iter()
        .map(|c| Sphere::new(c, radius))
        .collect::<Result<_, _>>()?;
    let scene = Scene::new(balls);
    let fraction = count as f64 * 4.0 / 3.0 * PI * radius.powi(3) / side.powi(3);
    let lines = lines_through_cube(rng, side)?;
    ok &= report("scene", &fuel_tracks(&scene, &lines, |_| true), fraction);

    // A pebble bed: a graphite ball of radius 1 holding 40 kernels of radius 0.1 (body 0 the
    // graphite, the kernels fuel), placed at 800 pebble positions packed in a cube.
    let (kernels, kernel) = (40, 0.1);
    let mut pebble = vec![Sphere::new(Point3::origin(), 1.0)?];
    for c in packed(rng, kernels, kernel, 1.6)? {
        // Kernels within the ball's inner cube of side 1.6: all inside the graphite.
        pebble.push(Sphere::new(c - Vector3::repeat(0.8), kernel)?);
    }
    let pebble = Arc::new(Scene::new(pebble));
    let (side, pebbles) = (24.0, 800);
    let instances = packed(rng, pebbles, 1.0, side)?
        .into_iter()
        .map(|c| Instance::new(pebble.clone(), c.coords))
        .collect::<Result<Vec<_>, _>>()?;
    let bed = InstancedScene::new(instances);
    let fraction = (pebbles * kernels) as f64 * 4.0 / 3.0 * PI * kernel.powi(3) / side.powi(3);
    let lines = lines_through_cube(rng, side)?;
    ok &= report(
        "pebble bed",
        &fuel_tracks(&bed, &lines, |(_, body)| body != 0),
        fraction,
    );

    // Fuel balls in a periodic box, packed with the periodic scene's own queries.
    let (size, count) = (20.0, 500);
    let period = Periodicity::new(Point3::origin(), Vector3::repeat(size))?;
    let mut medium: PeriodicScene<f64, 3, Sphere<f64>> = PeriodicScene::new(Vec::new(), period);
    while medium.len() < count {
        let c = Point3::from(Vector3::from_fn(|_, _| rng.random_range(0.0..size)));
        if medium
            .nearest(&c, radius)
            .is_none_or(|n| n.nearest.signed_distance >= radius)
        {
            medium.push(Sphere::new(c, radius)?);
        }
    }
    let fraction = count as f64 * 4.0 / 3.0 * PI * radius.powi(3) / size.powi(3);
    let segments: Vec<(Ray<f64>, f64)> = (0..SEGMENTS)
        .map(|_| {
            let o = Point3::from(Vector3::from_fn(|_, _| rng.random_range(0.0..size)));
            Ok((Ray::new(o, isotropic(rng))?, size))
        })
        .collect::<Result<_, Error>>()?;
    ok &= report(
        "periodic",
        &fuel_tracks(&medium, &segments, |_| true),
        fraction,
    );

    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
