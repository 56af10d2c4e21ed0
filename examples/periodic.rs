//! A random packing of balls in a periodic box: chord lengths from rays that wrap, and the pair
//! distribution of the centres out to two box lengths, from a `PeriodicScene`.
//!
//! Equal balls (radius `r`) are placed in a cube of side `L` by random sequential addition with
//! periodic boundaries (each new centre at least `2r` from every image of every centre placed).
//! No ball overlaps another, so the solid fraction is `phi = N·(4/3)·pi·r³ / L³` and the surface
//! per volume `s = N·4·pi·r² / L³` exactly. For isotropic uniform random lines (Torquato,
//! "Random Heterogeneous Materials", Springer 2002, section 2.2.4; Cauchy's formula):
//!
//! - a line crossing a ball cuts a chord of mean `4r/3`;
//! - the mean chord of the void between balls is `4·(1 − phi)/s`.
//!
//! Rays from random points in random directions walk 40 box lengths through the periodic medium
//! (`PeriodicScene::ray_spans`): every chord, in whichever image of the box, is whole, none
//! trimmed at the box's faces as a chord through a finite sample must be. A phase's mean chord
//! is its length along the segments over the number of its chords that start on them (each ball
//! entered starts a solid chord and ends a void one), which the segments' ends do not bias. Each
//! mean's statistical error comes from the spread between 32 batches of rays; the example fails
//! if a mean is more than five of them from its closed form.
//!
//! The pair distribution `g(d)` of the centres, from `PeriodicScene::within` around each centre
//! out to `2L` (four times what a minimum-image, half-box cutoff allows), over the other centres'
//! images: zero below contact (`d < 2r`), then tending to 1; the example fails unless it is zero
//! below contact and within five statistical errors of 1 averaged over `[1.5L, 2L]`. Each
//! centre's own images lie at exactly `L`, `√2·L`, `√3·L` and `2L`: all 32 must be listed with
//! the ball itself, the six at exactly the distance asked too. For a few centres the pairs `within` lists are checked
//! against the loop over every `(body, image)` pair.
//!
//! `cargo run --release --example periodic [BALLS] [RAYS]` (defaults 400 and 4000).
//! `python python/examples/periodic.py` does the same from Python.

use std::f64::consts::PI;
use std::process::ExitCode;
use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Error, Image, PeriodicScene, Periodicity, Ray, Sphere};

/// The balls' radius.
const RADIUS: f64 = 1.0;
/// The box's side.
const SIDE: f64 = 20.0;
/// How far each ray walks, in box lengths.
const WALK: f64 = 40.0;
/// Batches of rays for the statistical errors.
const BATCHES: usize = 32;
/// How far the pair distribution reaches, in box lengths: two, where each centre's own images
/// along the axes lie exactly (`within` lists them, whatever the centre's coordinates).
const REACH: f64 = 2.0;

/// `n` centres in the box `[0, SIDE)³` by random sequential addition: each at least `2r` from
/// every image of every centre before it.
fn packing(rng: &mut StdRng, n: usize) -> Vec<[f64; 3]> {
    let mut centres: Vec<[f64; 3]> = Vec::with_capacity(n);
    while centres.len() < n {
        let c: [f64; 3] = std::array::from_fn(|_| rng.random_range(0.0..SIDE));
        let apart = centres.iter().all(|o| {
            let d2: f64 = (0..3)
                .map(|a| {
                    let d = (c[a] - o[a]).abs();
                    let d = d.min(SIDE - d);
                    d * d
                })
                .sum();
            d2 >= (2.0 * RADIUS) * (2.0 * RADIUS)
        });
        if apart {
            centres.push(c);
        }
    }
    centres
}

/// A unit vector uniform on the sphere.
fn direction(rng: &mut StdRng) -> Vector3<f64> {
    loop {
        let v = Vector3::from_fn(|_, _| rng.random_range(-1.0..1.0));
        let n = v.norm();
        if n > 1e-3 && n <= 1.0 {
            return v / n;
        }
    }
}

/// The mean of per-batch means, and its statistical error.
fn mean_and_error(batches: &[(f64, usize)]) -> (f64, f64) {
    let means: Vec<f64> = batches.iter().map(|(sum, n)| sum / *n as f64).collect();
    let k = means.len() as f64;
    let mean = means.iter().sum::<f64>() / k;
    let var = means.iter().map(|m| (m - mean) * (m - mean)).sum::<f64>() / (k - 1.0);
    (mean, (var / k).sqrt())
}

fn main() -> Result<ExitCode, Error> {
    let mut args = std::env::args().skip(1);
    let balls: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(400);
    let rays: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(4000);
    let mut rng = StdRng::seed_from_u64(0x9e41_0d1c);
    let centres = packing(&mut rng, balls);
    let spheres = centres
        .iter()
        .map(|c| Sphere::new(Point3::from(*c), RADIUS))
        .collect::<Result<Vec<_>, _>>()?;
    let period = Periodicity::new(Point3::origin(), Vector3::from_element(SIDE))?;
    let scene = PeriodicScene::new(spheres, period);
    let volume = SIDE.powi(3);
    let phi = balls as f64 * 4.0 / 3.0 * PI * RADIUS.powi(3) / volume;
    let s = balls as f64 * 4.0 * PI * RADIUS.powi(2) / volume;
    println!(
        "{balls} balls of radius {RADIUS} in a periodic cube of side {SIDE}: solid fraction {phi:.4}"
    );

    // Chords along rays that wrap through the medium.
    let started = Instant::now();
    let (mut solid, mut void) = (vec![(0.0, 0); BATCHES], vec![(0.0, 0); BATCHES]);
    let mut spans = Vec::new();
    let mut listed = 0;
    for i in 0..rays {
        let origin = Point3::from(Vector3::from_fn(|_, _| rng.random_range(0.0..SIDE)));
        let ray = Ray::new(origin, direction(&mut rng))?;
        scene.ray_spans(&ray, WALK * SIDE, &mut spans);
        listed += spans.len();
        let batch = i % BATCHES;
        let inside: f64 = spans
            .iter()
            .map(|s| s.span.exit.min(WALK * SIDE) - s.span.enter.max(0.0))
            .sum();
        let entered = spans.iter().filter(|s| s.span.enter > 0.0).count();
        solid[batch].0 += inside;
        solid[batch].1 += entered;
        void[batch].0 += WALK * SIDE - inside;
        void[batch].1 += entered;
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "{rays} rays of {WALK} box lengths: {listed} spans in {elapsed:.2} s ({:.2} µs a span)",
        elapsed * 1e6 / listed as f64
    );
    let mut ok = true;
    let mut check = |name: &str, (mean, error): (f64, f64), want: f64| {
        let off = (mean - want) / error;
        println!(
            "  mean {name} chord {mean:.4} ± {error:.4}, closed form {want:.4} ({off:+.1} errors)"
        );
        ok &= off.abs() <= 5.0;
    };
    check("solid", mean_and_error(&solid), 4.0 * RADIUS / 3.0);
    check("void", mean_and_error(&void), 4.0 * (1.0 - phi) / s);

    // The pair distribution out to two box lengths.
    let started = Instant::now();
    let reach = REACH * SIDE;
    let bins = 80;
    let width = reach / bins as f64;
    let mut counts = vec![0usize; bins];
    let mut found: Vec<(usize, Image)> = Vec::new();
    for (i, c) in centres.iter().enumerate() {
        // A centre within `reach` of `c`: its ball within `reach − r`.
        scene.within(&Point3::from(*c), reach - RADIUS, &mut found);
        let own = found.iter().filter(|(j, _)| *j == i).count();
        if own != 33 {
            println!("  centre {i}: {own} of its own images listed, not 33");
            ok = false;
        }
        for &(j, k) in &found {
            // The other centres and their images (a centre's own images sit on its lattice).
            if j == i {
                continue;
            }
            let d = (0..3)
                .map(|a| {
                    let x = centres[j][a] + k[a] as f64 * SIDE - c[a];
                    x * x
                })
                .sum::<f64>()
                .sqrt();
            if d < reach {
                counts[(d / width) as usize] += 1;
            }
        }
        if i < 3 {
            // The loop over every (body, image) pair within 3 boxes, each measured in plain
            // arithmetic, which decides every pair but those within rounding of the distance
            // asked: there lie only the centre's own images at exactly 2L, which are within it.
            let mut want = Vec::new();
            for (j, other) in centres.iter().enumerate() {
                for k in (-3..=3)
                    .flat_map(|x| (-3..=3).flat_map(move |y| (-3..=3).map(move |z| [x, y, z])))
                {
                    let q = Point3::from(Vector3::from_fn(|a, _| c[a] - k[a] as f64 * SIDE));
                    let d = (q - Point3::from(*other)).norm();
                    let own_at_reach = j == i && k.iter().map(|x| x * x).sum::<i64>() == 4;
                    if own_at_reach || d < reach * (1.0 - 1e-12) {
                        want.push((j, k));
                    }
                }
            }
            want.sort_unstable();
            if want != found {
                println!(
                    "  within around centre {i}: {} pairs, the loop {}",
                    found.len(),
                    want.len()
                );
                ok = false;
            }
        }
    }
    // Around a centre, the others' images at density (N − 1) / V.
    let density = (balls - 1) as f64 / volume;
    let g: Vec<f64> = counts
        .iter()
        .enumerate()
        .map(|(b, &n)| {
            let (lo, hi) = (b as f64 * width, (b + 1) as f64 * width);
            let shell = 4.0 / 3.0 * PI * (hi.powi(3) - lo.powi(3));
            n as f64 / (balls as f64 * density * shell)
        })
        .collect();
    let below = counts
        .iter()
        .enumerate()
        .filter(|(b, _)| ((b + 1) as f64 * width) <= 2.0 * RADIUS)
        .map(|(_, n)| n)
        .sum::<usize>();
    let far: Vec<usize> = (0..bins)
        .filter(|&b| b as f64 * width >= 1.5 * SIDE)
        .collect();
    let pairs: usize = far.iter().map(|&b| counts[b]).sum();
    let shells: f64 = far
        .iter()
        .map(|&b| 4.0 / 3.0 * PI * (((b + 1) as f64 * width).powi(3) - (b as f64 * width).powi(3)))
        .sum();
    let g_far = pairs as f64 / (balls as f64 * density * shells);
    // Counts over so many shells are nearly Poisson, each pair counted from both ends: a
    // relative error of sqrt(2 / pairs).
    let g_error = g_far * (2.0 / pairs as f64).sqrt();
    println!(
        "pair distribution out to {reach} ({REACH} box lengths) in {:.2} s: g at contact {:.2}, \
         pairs below contact {below}, g over [1.5L, {REACH}L] {g_far:.4} ± {g_error:.4}",
        started.elapsed().as_secs_f64(),
        g[(2.0 * RADIUS / width) as usize]
    );
    ok &= below == 0 && ((g_far - 1.0) / g_error).abs() <= 5.0;
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
