//! Surface-tracking Monte Carlo through overlapping balls: a particle flies straight lines of
//! exponentially distributed length through a periodic box of balls placed at random (a Boolean
//! model: they overlap freely), and at every step asks `PeriodicScene::next_crossing` how far
//! it is to the next surface, entering or leaving a ball. It keeps how many balls it is inside
//! by counting those crossings (no point test along the way) and adds each stretch to the track
//! inside the union or outside it.
//!
//! The check: the fraction of the track inside the union is the volume fraction of the Boolean
//! model, `1 − exp(−λ·4πr³/3)` for `λ` balls per unit volume. The example prints it with the
//! statistical error (batch means) and fails if it is off by more than five of them; it also
//! fails if the count of balls kept by the crossings ever disagrees with
//! `PeriodicScene::containing` at the end of a flight.
//!
//! `cargo run --release --example surface_tracking [FLIGHTS]` (default 200000).

use std::process::ExitCode;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Error, PeriodicScene, Periodicity, Ray, Sphere};

/// The balls' radius.
const RADIUS: f64 = 1.0;
/// The box's side.
const SIDE: f64 = 20.0;
/// The volume fraction aimed at.
const FRACTION: f64 = 0.3;
/// The mean flight length between scatterings.
const MEAN_FLIGHT: f64 = 2.0;
/// Batches for the statistical error (batch means).
const BATCHES: usize = 20;

/// A uniform random unit vector.
fn isotropic(rng: &mut StdRng) -> Vector3<f64> {
    let z: f64 = rng.random_range(-1.0..1.0);
    let phi: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    let s = (1.0 - z * z).sqrt();
    Vector3::new(s * phi.cos(), s * phi.sin(), z)
}

fn main() -> Result<ExitCode, Error> {
    let flights: usize = std::env::args()
        .nth(1)
        .map_or(200_000, |a| a.parse().expect("FLIGHTS: a number"));
    let rng = &mut StdRng::seed_from_u64(2026);
    // A Poisson number of balls would be the textbook model; a fixed count near its mean gives
    // the same volume fraction to well within the statistical error here.
    let volume = 4.0 / 3.0 * std::f64::consts::PI * RADIUS.powi(3);
    let intensity = -(1.0 - FRACTION).ln() / volume;
    let count = (intensity * SIDE.powi(3)).round() as usize;
    let balls = (0..count)
        .map(|_| {
            let c = Vector3::from_fn(|_, _| rng.random_range(0.0..SIDE));
            Sphere::new(Point3::from(c), RADIUS)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let expected = 1.0 - (-(count as f64) / SIDE.powi(3) * volume).exp();
    let period = Periodicity::new(Point3::origin(), Vector3::repeat(SIDE))?;
    let medium = PeriodicScene::new(balls, period);

    let started = Instant::now();
    let mut position = Point3::from(Vector3::from_fn(|_, _| rng.random_range(0.0..SIDE)));
    let mut inside_now = Vec::new();
    medium.containing(&position, &mut inside_now);
    let mut depth = inside_now.len();
    let (mut crossings, mut disagreements) = (0usize, 0usize);
    let per_batch = flights.div_ceil(BATCHES);
    let mut fractions = Vec::with_capacity(BATCHES);
    let (mut inside, mut total) = (0.0, 0.0);
    for flight in 0..flights {
        let length = -MEAN_FLIGHT * (1.0 - rng.random::<f64>()).ln();
        let ray = Ray::new(position, isotropic(rng))?;
        let mut at = 0.0;
        // Every crossing along the flight, one after another, each from the ray's own origin.
        while let Some(next) = medium.next_crossing(&ray, at, length) {
            let c = next.crossing;
            if depth > 0 {
                inside += c.distance - at;
            }
            if c.entering {
                depth += 1;
            } else {
                depth = depth.saturating_sub(1);
            }
            at = c.distance;
            crossings += 1;
        }
        if depth > 0 {
            inside += length - at;
        }
        total += length;
        position = ray.at(length);
        medium.containing(&position, &mut inside_now);
        if inside_now.len() != depth {
            disagreements += 1;
            depth = inside_now.len();
        }
        if (flight + 1) % per_batch == 0 || flight + 1 == flights {
            fractions.push(inside / total);
            (inside, total) = (0.0, 0.0);
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let n = fractions.len() as f64;
    let mean = fractions.iter().sum::<f64>() / n;
    let spread = fractions.iter().map(|f| (f - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let error = (spread / n).sqrt();
    println!(
        "{count} overlapping balls of radius {RADIUS} in a periodic box of side {SIDE}: \
         {flights} flights, {crossings} crossings in {seconds:.2} s \
         ({:.0} ns a crossing)",
        seconds * 1e9 / crossings.max(1) as f64
    );
    println!(
        "track inside the union: {mean:.5} ± {error:.5}; the Boolean model's volume fraction \
         {expected:.5} ({:.1} standard errors)",
        (mean - expected) / error
    );
    println!(
        "ends of flights where the crossings' count disagreed with containing: {disagreements}"
    );
    if (mean - expected).abs() > 5.0 * error || disagreements > 0 {
        eprintln!("the track fraction or the crossings' count is off");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
