//! Path lengths through a bed of spheres, as a Monte Carlo transport code needs them: about 10^5
//! non-overlapping balls of radius 1 packed into a box by random sequential addition (each
//! candidate tested with `Scene::nearest` against the balls kept so far, each kept one added with
//! `Scene::push`), crossed by
//! isotropic uniform random lines; every ball a line crosses, with its chord, from one call to
//! `Scene::ray_spans`.
//!
//! Two classic results check the chords:
//!
//! - Cauchy's formula: the mean chord of a convex body under isotropic uniform random lines is
//!   `4V/S`, so `4r/3` for a ball;
//! - the fraction of the lines' length inside the balls is the packing fraction.
//!
//! The example prints both against their expected values with the statistical error of the
//! estimate, and fails if either is off by more than five of them; and it prints rays per second.
//!
//! `cargo run --release --example transport [BALLS] [LINES]` (defaults 100000 and 100000).

use std::process::ExitCode;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Aabb, BodySpan, Cast, Error, Ray, Scene, Sphere};

/// The balls' radius.
const RADIUS: f64 = 1.0;
/// The packing fraction aimed at: random sequential addition jams near 0.38.
const PACKING: f64 = 0.30;
/// Batches for the statistical error of the estimates (batch means).
const BATCHES: usize = 20;

/// A uniform random unit vector.
fn isotropic(rng: &mut StdRng) -> Vector3<f64> {
    let z: f64 = rng.random_range(-1.0..1.0);
    let phi: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    let s = (1.0 - z * z).sqrt();
    Vector3::new(s * phi.cos(), s * phi.sin(), z)
}

/// Random sequential addition: centres uniform in the box (each ball wholly inside), each kept
/// if it overlaps none kept before, the scene growing ball by ball (`Scene::push`): a candidate
/// overlaps a kept ball where that ball's surface is nearer than a radius to its centre.
fn pack(rng: &mut StdRng, count: usize, side: f64) -> Result<Scene<f64, 3, Sphere<f64>>, Error> {
    let mut scene = Scene::new(Vec::with_capacity(count));
    while scene.len() < count {
        let centre = Point3::from(Vector3::from_fn(|_, _| {
            rng.random_range(RADIUS..side - RADIUS)
        }));
        let overlaps = scene
            .nearest(&centre, RADIUS)
            .is_some_and(|near| near.signed_distance < RADIUS);
        if !overlaps {
            scene.push(Sphere::new(centre, RADIUS)?);
        }
    }
    Ok(scene)
}

/// The ratio `Σ sums / Σ counts` over [`BATCHES`] batches of `(sum, count)`, and its standard
/// error from the spread of the batches' own ratios (batch means).
fn ratio_with_error(batches: &[(f64, f64)]) -> (f64, f64) {
    let (sum, count) = batches
        .iter()
        .fold((0.0, 0.0), |(s, c), (bs, bc)| (s + bs, c + bc));
    let mean = sum / count;
    let ratios: Vec<f64> = batches.iter().map(|(s, c)| s / c).collect();
    let spread = ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (ratios.len() - 1) as f64;
    (mean, (spread / ratios.len() as f64).sqrt())
}

/// Prints an estimate against its expected value and says whether they agree.
fn compare(what: &str, (value, error): (f64, f64), expected: f64) -> bool {
    let sigmas = (value - expected) / error;
    println!(
        "{what}: {value:.5} ± {error:.5}, expected {expected:.5} ({sigmas:+.2} standard errors)"
    );
    sigmas.abs() <= 5.0
}

fn main() -> Result<ExitCode, Error> {
    let mut args = std::env::args().skip(1);
    let balls: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let lines: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(100_000);
    let side = (balls as f64 * 4.0 / 3.0 * std::f64::consts::PI * RADIUS.powi(3) / PACKING).cbrt();
    let rng = &mut StdRng::seed_from_u64(2026);

    let start = Instant::now();
    let mut scene = pack(rng, balls, side)?;
    let packed = Instant::now();
    // Grown ball by ball, then built anew once for the lines.
    scene.rebuild();
    let built = Instant::now();
    let packing = balls as f64 * 4.0 / 3.0 * std::f64::consts::PI * RADIUS.powi(3) / side.powi(3);
    println!(
        "{balls} balls of radius {RADIUS} in a box of side {side:.2}: packing fraction {packing:.4}"
    );
    println!(
        "packed in {:.2} s (a scene grown by push), hierarchy rebuilt in {:.3} s ({:.1} bytes per ball)",
        (packed - start).as_secs_f64(),
        (built - packed).as_secs_f64(),
        scene.hierarchy_bytes() as f64 / balls as f64
    );

    // Isotropic uniform random lines: a uniform direction, then a point uniform on the disc of
    // the box's circumscribed sphere across it; lines that miss the box are drawn again.
    let the_box = Aabb::new(Point3::origin(), Point3::new(side, side, side))?;
    let centre = Vector3::repeat(side / 2.0);
    let reach = side * 3f64.sqrt() / 2.0;
    let mut spans: Vec<BodySpan<f64>> = Vec::new();
    let mut chords = vec![(0.0, 0.0); BATCHES];
    let mut inside = vec![(0.0, 0.0); BATCHES];
    let mut crossings = 0usize;
    let mut traced = 0.0;
    let mut drawn = 0;
    while drawn < lines {
        let u = isotropic(rng);
        let a = u
            .cross(&if u.x.abs() < 0.9 {
                Vector3::x()
            } else {
                Vector3::y()
            })
            .normalize();
        let b = u.cross(&a);
        let (r, t) = (
            reach * rng.random_range(0.0..1.0f64).sqrt(),
            rng.random_range(0.0..std::f64::consts::TAU),
        );
        let foot = centre + a * (r * t.cos()) + b * (r * t.sin()) - u * (2.0 * reach);
        let ray = Ray::new(Point3::from(foot), u)?;
        let Some(through_box) = the_box.ray_span(&ray) else {
            continue;
        };
        let timer = Instant::now();
        scene.ray_spans(&ray, &mut spans);
        traced += timer.elapsed().as_secs_f64();
        let batch = drawn * BATCHES / lines;
        let in_balls: f64 = spans.iter().map(|s| s.span.length()).sum();
        chords[batch].0 += in_balls;
        chords[batch].1 += spans.len() as f64;
        inside[batch].0 += in_balls;
        inside[batch].1 += through_box.length();
        crossings += spans.len();
        drawn += 1;
    }
    println!(
        "{lines} lines crossed {crossings} balls: {:.0} rays per second ({:.2} µs per ray, \
         {:.1} balls per line)",
        lines as f64 / traced,
        traced / lines as f64 * 1e6,
        crossings as f64 / lines as f64
    );
    let cauchy = compare(
        "mean chord per crossed ball (Cauchy: 4r/3)",
        ratio_with_error(&chords),
        4.0 * RADIUS / 3.0,
    );
    let fraction = compare(
        "fraction of line length inside balls (the packing fraction)",
        ratio_with_error(&inside),
        packing,
    );
    Ok(if cauchy && fraction {
        ExitCode::SUCCESS
    } else {
        println!("the estimates disagree with the expected values");
        ExitCode::FAILURE
    })
}
