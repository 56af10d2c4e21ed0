//! A whole pebble-bed reactor core as instances: one kind of fuel pebble (a graphite ball holding
//! 12 000 TRISO particles of five concentric spheres: 60 002 bodies) placed at every pebble's
//! position in a cylindrical core. The full core, 250 000 pebbles, holds 1.5·10^10 bodies, each
//! traced as if it had been translated exactly, while memory holds one pebble and the instances.
//!
//! For each core size the example prints the time to place the pebbles (random sequential
//! addition) and to build the instanced scene, the memory (bytes per pebble and per body), first
//! hits per second for rays from outside the core along lines that cross it, and, from `ray_spans` along isotropic uniform
//! random lines, the fraction of the lines' length (within the core) in fuel kernels, against its
//! expectation: the kernels' volume fraction of the core (Delesse's principle; Cauchy-Crofton
//! makes the ratio of the lines' totals unbiased for it). It fails if the two differ by more than
//! five standard errors.
//!
//! `cargo run --release --example pebble_bed` (1 000, 10 000 and 250 000 pebbles, about half a minute);
//! `-- --small` for 300 and 3 000 (what CI runs).

mod packing;

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use packing::{BODIES_PER_PEBBLE, Core, PARTICLES, SHELLS};
use rand::SeedableRng;
use rand::rngs::StdRng;
use raysweep::{Error, Instance, InstanceSpan, InstancedScene, Ray, Scene, Sphere};

/// Rays timed per core.
const RAYS: usize = 200_000;
/// Lines for the kernel fraction, per core.
const LINES: usize = 4_000;

/// The process's peak resident memory in bytes (`VmHWM`), where the system reports it.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The ratio `Σ kernel / Σ chord` over lines, and its standard error (the delta method over
/// the lines, each a pair of kernel length and chord length).
fn ratio_with_error(lines: &[(f64, f64)]) -> (f64, f64) {
    let n = lines.len() as f64;
    let (kernel, chord) = lines
        .iter()
        .fold((0.0, 0.0), |(k, c), (lk, lc)| (k + lk, c + lc));
    let ratio = kernel / chord;
    let spread: f64 = lines.iter().map(|(k, c)| (k - ratio * c).powi(2)).sum();
    (ratio, (spread / (n * (n - 1.0))).sqrt() / (chord / n))
}

/// One core of `count` pebbles: builds it, prints its figures, and says whether the kernel
/// fraction agrees with its expectation.
fn run(pebble: &Arc<Scene<f64, 3, Sphere<f64>>>, count: usize, seed: u64) -> Result<bool, Error> {
    let start = Instant::now();
    let core = Core::packed(count, seed)?;
    let placed = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let instances = core
        .centres
        .iter()
        .map(|c| Instance::new(pebble.clone(), c.coords))
        .collect::<Result<Vec<_>, _>>()?;
    let scene = InstancedScene::new(instances);
    let built = start.elapsed().as_secs_f64();

    let pebble_bytes = pebble.len() * std::mem::size_of::<Sphere<f64>>() + pebble.hierarchy_bytes();
    let bytes = count * std::mem::size_of::<Instance<f64, 3, Sphere<f64>>>()
        + scene.hierarchy_bytes()
        + pebble_bytes;
    let bodies = count as f64 * BODIES_PER_PEBBLE as f64;

    let rng = &mut StdRng::seed_from_u64(seed + 1);
    // Rays from outside along random lines that cross the core.
    let mut rays: Vec<Ray<f64>> = Vec::with_capacity(RAYS);
    while rays.len() < RAYS {
        let (origin, dir) = core.random_line(rng);
        if core.chord(&origin, &dir).is_some() {
            rays.push(Ray::new(origin, dir)?);
        }
    }
    let start = Instant::now();
    let hits = rays
        .iter()
        .filter(|r| scene.cast_ray(r, f64::INFINITY).is_some())
        .count();
    let per_second = RAYS as f64 / start.elapsed().as_secs_f64();

    let mut spans: Vec<InstanceSpan<f64>> = Vec::new();
    let mut lines = Vec::with_capacity(LINES);
    while lines.len() < LINES {
        let (origin, dir) = core.random_line(rng);
        let Some((enter, exit)) = core.chord(&origin, &dir) else {
            continue;
        };
        scene.ray_spans(&Ray::new(origin, dir)?, &mut spans);
        let kernel: f64 = spans
            .iter()
            .filter(|s| packing::is_kernel(s.body))
            .map(|s| s.span.length())
            .sum();
        lines.push((kernel, exit - enter));
    }
    let (fraction, error) = ratio_with_error(&lines);
    let cylinder = std::f64::consts::PI * core.radius.powi(2) * core.height;
    let expected = count as f64 * PARTICLES as f64 * packing::ball_volume(SHELLS[0]) / cylinder;
    let sigmas = (fraction - expected) / error;

    println!(
        "{count:>7} pebbles, {bodies:.2e} bodies (core {:.2} m across, {:.2} m tall)",
        core.radius / 50.0,
        core.height / 100.0
    );
    println!("  placed in {placed:.2} s, instanced scene built in {built:.3} s");
    println!(
        "  memory {:.1} MB: {:.1} bytes per pebble, {:.2e} bytes per body",
        bytes as f64 / 1e6,
        bytes as f64 / count as f64,
        bytes as f64 / bodies
    );
    println!(
        "  first hits: {:.0} rays per second on one thread ({:.1} % of rays hit)",
        per_second,
        100.0 * hits as f64 / RAYS as f64
    );
    println!(
        "  kernel fraction along {LINES} lines: {fraction:.6} ± {error:.6}, expected {expected:.6} ({sigmas:+.2} standard errors)"
    );
    Ok(sigmas.abs() <= 5.0)
}

fn main() -> Result<ExitCode, Error> {
    let small = std::env::args().any(|a| a == "--small");
    let sizes: &[usize] = if small {
        &[300, 3_000]
    } else {
        &[1_000, 10_000, 250_000]
    };
    let start = Instant::now();
    let pebble = Arc::new(Scene::new(packing::pebble::<f64>(1)?));
    println!(
        "one pebble: {} bodies ({PARTICLES} particles of {} spheres), packed and built in {:.2} s",
        pebble.len(),
        SHELLS.len(),
        start.elapsed().as_secs_f64()
    );
    let mut agree = true;
    for (k, &count) in sizes.iter().enumerate() {
        agree &= run(&pebble, count, 10 + k as u64)?;
    }
    if let Some(peak) = peak_memory() {
        println!("peak memory of the process: {:.0} MB", peak as f64 / 1e6);
    }
    if agree {
        Ok(ExitCode::SUCCESS)
    } else {
        println!("the kernel fraction disagrees with the kernels' volume fraction");
        Ok(ExitCode::FAILURE)
    }
}
