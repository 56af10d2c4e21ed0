//! The Rust loop the C ABI's cost per ray is measured against (capi/benches/first_hit.c has the
//! C loop and how to run both): `Scene::cast_ray` over the same 2^16 rays at the same 10^5
//! balls, from the same generator, one thread, the best of 7 passes.

use std::time::Instant;

use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Ray, Scene, Sphere};

#[path = "../tests/c/random.rs"]
mod random;
use random::Random;

fn main() {
    let mut random = Random::seeded();
    let balls: Vec<Sphere<f64>> = (0..100_000)
        .map(|_| {
            let c = [(); 3].map(|()| random.uniform(0.0, 100.0));
            Sphere::new(Point3::from(c), random.uniform(0.2, 1.0)).expect("a ball")
        })
        .collect();
    let rays: Vec<Ray<f64>> = (0..1 << 16)
        .map(|_| {
            let o = [(); 3].map(|()| random.uniform(0.0, 100.0));
            let d = [(); 3].map(|()| random.uniform(-1.0, 1.0));
            Ray::new(Point3::from(o), Vector3::from(d)).expect("a ray")
        })
        .collect();
    let scene = Scene::new(balls);
    let (mut best, mut checksum) = (f64::INFINITY, 0.0);
    for _ in 0..7 {
        let start = Instant::now();
        let mut sum = 0.0;
        for ray in &rays {
            if let Some(h) = scene.cast_ray(ray, f64::INFINITY) {
                sum += h.hit.distance + h.body as f64;
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
        checksum = sum;
    }
    println!(
        "Rust loop: {:.1} ns per ray (checksum {:016x})",
        best / rays.len() as f64 * 1e9,
        f64::to_bits(checksum)
    );
}
