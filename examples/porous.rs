//! The pore space of fully penetrable spheres, from `Scene::nearest` and `Scene::within`.
//!
//! Fully penetrable spheres (the Boolean model) are the simplest model of a porous medium: centres
//! a Poisson process of density `rho`, every ball of radius `R`, overlaps allowed. With the
//! reduced density `eta = rho·(4/3)·pi·R³`, three of its properties have closed forms
//! (Torquato, "Random Heterogeneous Materials", Springer 2002, chapter 2):
//!
//! - the void fraction (points in no ball) is `exp(−eta)`;
//! - the void's nearest-surface distribution: a point of the void lies farther than `r` from
//!   every ball with probability `exp(−rho·(4/3)·pi·((R + r)³ − R³))`;
//! - the mean number of balls covering a point is `eta`.
//!
//! The example draws the centres in a box, and random points in a smaller box whose every face
//! lies `R + r_max` inside it, so that every ball within `r_max` of a point is in the scene. Each
//! point's signed distance to the nearest ball (`Scene::nearest`, at most `r_max` away) gives the
//! first two; `Scene::within(p, 0)`, the balls covering it, the third. The statistical error of
//! each estimate comes from the spread between 64 blocks of the point box (batch means, which
//! also carries the fluctuation of one draw of the balls); the example fails if an estimate is
//! more than five of them from its closed form. It prints queries per second on one thread.
//!
//! `cargo run --release --example porous [POINTS] [ETA]` (defaults 1000000 and 0.5).

use std::f64::consts::PI;
use std::process::ExitCode;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Error, Scene, Sphere};

/// The balls' radius.
const RADIUS: f64 = 1.0;
/// The side of the box holding the points.
const SIDE: f64 = 60.0;
/// The distances `r` at which the nearest-surface distribution is checked; the largest is
/// `r_max`.
const DISTANCES: [f64; 4] = [0.1, 0.25, 0.5, 1.0];
/// Blocks per axis of the point box, for the statistical errors.
const BLOCKS: usize = 4;

/// A Poisson number of mean `mean`: the count of unit-rate exponential gaps before `mean`.
fn poisson(rng: &mut StdRng, mean: f64) -> usize {
    let mut count = 0;
    let mut t = -(1.0 - rng.random::<f64>()).ln();
    while t < mean {
        count += 1;
        t -= (1.0 - rng.random::<f64>()).ln();
    }
    count
}

/// What one block of points measured.
#[derive(Clone, Default)]
struct Block {
    points: usize,
    void: usize,
    /// Void points farther than each of `DISTANCES` from every ball.
    farther: [usize; DISTANCES.len()],
    covering: usize,
}

/// The mean of `values` and its standard error (the spread between blocks).
fn mean_and_error(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let spread = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (spread / n).sqrt())
}

fn main() -> Result<ExitCode, Error> {
    let mut args = std::env::args().skip(1);
    let points: usize = args
        .next()
        .map_or(1_000_000, |a| a.parse().expect("POINTS"));
    let eta: f64 = args.next().map_or(0.5, |a| a.parse().expect("ETA"));
    let rho = eta / (4.0 / 3.0 * PI * RADIUS.powi(3));
    let reach = RADIUS + DISTANCES[DISTANCES.len() - 1];
    let outer = SIDE + 2.0 * reach;
    let mut rng = StdRng::seed_from_u64(0x0b00_1ea1);

    let count = poisson(&mut rng, rho * outer.powi(3));
    let balls = (0..count)
        .map(|_| {
            let c = Vector3::from_fn(|_, _| rng.random_range(-reach..SIDE + reach));
            Sphere::new(Point3::from(c), RADIUS)
        })
        .collect::<Result<Vec<_>, _>>()?;
    let started = Instant::now();
    let scene: Scene<f64, 3, Sphere<f64>> = Scene::new(balls);
    println!(
        "{count} balls of radius {RADIUS} (eta = {eta}) in a box of side {outer}: scene built in {:.0} ms",
        started.elapsed().as_secs_f64() * 1e3
    );

    let at: Vec<Point3<f64>> = (0..points)
        .map(|_| Point3::from(Vector3::from_fn(|_, _| rng.random_range(0.0..SIDE))))
        .collect();
    let block_of = |p: &Point3<f64>| -> usize {
        let cell = |x: f64| ((x / SIDE * BLOCKS as f64) as usize).min(BLOCKS - 1);
        (cell(p.x) * BLOCKS + cell(p.y)) * BLOCKS + cell(p.z)
    };
    let mut blocks = vec![Block::default(); BLOCKS.pow(3)];

    let r_max = DISTANCES[DISTANCES.len() - 1];
    let started = Instant::now();
    for p in &at {
        let block = &mut blocks[block_of(p)];
        block.points += 1;
        // `None`: no ball within r_max, so the point is in the void and beyond every distance.
        let distance = scene
            .nearest(p, r_max)
            .map_or(f64::INFINITY, |n| n.signed_distance);
        if distance > 0.0 {
            block.void += 1;
            for (k, r) in DISTANCES.iter().enumerate() {
                block.farther[k] += usize::from(distance > *r);
            }
        }
    }
    let nearest_rate = points as f64 / started.elapsed().as_secs_f64();

    let mut covering = Vec::new();
    let started = Instant::now();
    for p in &at {
        scene.within(p, 0.0, &mut covering);
        blocks[block_of(p)].covering += covering.len();
    }
    let within_rate = points as f64 / started.elapsed().as_secs_f64();
    println!(
        "{points} points: nearest {:.2e} queries/s, within(p, 0) {:.2e} queries/s (one thread)",
        nearest_rate, within_rate
    );

    let mut failed = false;
    let mut check = |what: &str, per_block: Vec<f64>, expected: f64| {
        let (estimate, error) = mean_and_error(&per_block);
        let off = (estimate - expected) / error;
        let verdict = if off.abs() <= 5.0 { "ok" } else { "FAILED" };
        println!(
            "{what:<42} {estimate:.5} ± {error:.5}   closed form {expected:.5}   ({off:+.2} errors) {verdict}"
        );
        failed |= off.abs() > 5.0;
    };
    check(
        "void fraction",
        blocks
            .iter()
            .map(|b| b.void as f64 / b.points as f64)
            .collect(),
        (-eta).exp(),
    );
    for (k, r) in DISTANCES.iter().enumerate() {
        let shell = 4.0 / 3.0 * PI * ((RADIUS + r).powi(3) - RADIUS.powi(3));
        check(
            &format!("P(distance > {r} | void)"),
            blocks
                .iter()
                .map(|b| b.farther[k] as f64 / b.void as f64)
                .collect(),
            (-rho * shell).exp(),
        );
    }
    check(
        "mean number of balls covering a point",
        blocks
            .iter()
            .map(|b| b.covering as f64 / b.points as f64)
            .collect(),
        eta,
    );
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
