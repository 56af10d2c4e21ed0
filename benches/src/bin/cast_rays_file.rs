//! The Rust side of `python/benchmarks/cast_rays.py`: reads a scene of balls and rays the script
//! wrote (raw little-endian `f64` files `centres`, `radii`, `origins`, `directions` in the
//! directory given), builds `Scene<T, 3, Sphere<T>>` in the width given (`f32` or `f64`; the
//! values rounded to it as numpy's `astype` rounds), and prints the median over `repeats` runs of
//! `Scene::cast_rays`, in ns per ray, on one thread, with a checksum of the hits.
//!
//! ```sh
//! cargo run --release -p raysweep-benches --bin cast_rays_file -- DIR f32 5
//! ```

use std::path::Path;
use std::time::Instant;

use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Ray, Scene, Sphere};
use raysweep_benches::{Width, read_f64};

fn run<T: Width>(dir: &Path, repeats: usize) {
    let centres = read_f64(dir, "centres");
    let radii = read_f64(dir, "radii");
    let origins = read_f64(dir, "origins");
    let directions = read_f64(dir, "directions");
    let point = |v: &[f64]| Point3::new(T::of(v[0]), T::of(v[1]), T::of(v[2]));
    let balls: Vec<Sphere<T>> = centres
        .chunks_exact(3)
        .zip(&radii)
        .map(|(c, &r)| Sphere::new(point(c), T::of(r)).expect("a ball"))
        .collect();
    let rays: Vec<Ray<T>> = origins
        .chunks_exact(3)
        .zip(directions.chunks_exact(3))
        .map(|(o, d)| {
            Ray::new(
                point(o),
                Vector3::new(T::of(d[0]), T::of(d[1]), T::of(d[2])),
            )
            .expect("a ray")
        })
        .collect();
    let scene = Scene::new(balls);
    let mut hits = vec![None; rays.len()];
    let mut times = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let start = Instant::now();
        scene.cast_rays(&rays, T::of(f64::INFINITY), &mut hits);
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    let checksum: f64 = hits
        .iter()
        .flatten()
        .map(|h| h.hit.distance.to_wide())
        .sum();
    println!(
        "{:.2} {checksum:.17e}",
        times[repeats / 2] * 1e9 / rays.len() as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, width, repeats] = &args[..] else {
        panic!("usage: cast_rays_file DIR f32|f64 REPEATS");
    };
    let repeats: usize = repeats.parse().expect("a number of repeats");
    match width.as_str() {
        "f32" => run::<f32>(Path::new(dir), repeats),
        "f64" => run::<f64>(Path::new(dir), repeats),
        other => panic!("f32 or f64, not {other}"),
    }
}
