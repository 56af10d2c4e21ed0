//! The Rust side of `python/benchmarks/instances.py`: reads one pebble's balls, the core's
//! offsets and rays the script wrote (raw little-endian `f64` files `centres`, `radii`,
//! `offsets`, `origins`, `directions` in the directory given), and prints the median over
//! `repeats` runs of building the core (the pebble's `Scene<f64, 3, Sphere<f64>>`, then the
//! `InstancedScene` of its instances, on rayon's threads) in seconds, the median of
//! `InstancedScene::cast_rays` on one thread in ns per ray, and a checksum of the hits.
//!
//! ```sh
//! cargo run --release -p raysweep-benches --bin instances_file -- DIR 5
//! ```

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Instance, InstancedScene, Ray, Scene, Sphere};
use raysweep_benches::read_f64;

/// The median of `times`.
fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, dir, repeats] = &args[..] else {
        panic!("usage: instances_file DIR REPEATS");
    };
    let dir = Path::new(dir);
    let repeats: usize = repeats.parse().expect("a number of repeats");
    let (centres, radii, offsets) = (
        read_f64(dir, "centres"),
        read_f64(dir, "radii"),
        read_f64(dir, "offsets"),
    );
    let (origins, directions) = (read_f64(dir, "origins"), read_f64(dir, "directions"));
    let balls: Vec<Sphere<f64>> = centres
        .chunks_exact(3)
        .zip(&radii)
        .map(|(c, &r)| Sphere::new(Point3::new(c[0], c[1], c[2]), r).expect("a ball"))
        .collect();
    let rays: Vec<Ray<f64>> = origins
        .chunks_exact(3)
        .zip(directions.chunks_exact(3))
        .map(|(o, d)| {
            Ray::new(
                Point3::new(o[0], o[1], o[2]),
                Vector3::new(d[0], d[1], d[2]),
            )
            .expect("a ray")
        })
        .collect();
    let build = || {
        let pebble = Arc::new(Scene::new(balls.clone()));
        let instances = offsets
            .chunks_exact(3)
            .map(|v| Instance::new(pebble.clone(), Vector3::new(v[0], v[1], v[2])))
            .collect::<Result<Vec<_>, _>>()
            .expect("finite offsets");
        InstancedScene::new(instances)
    };
    let mut built = Vec::with_capacity(repeats);
    let mut core = build();
    for _ in 0..repeats {
        let start = Instant::now();
        core = build();
        built.push(start.elapsed().as_secs_f64());
    }
    let mut hits = vec![None; rays.len()];
    let mut cast = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let start = Instant::now();
        core.cast_rays(&rays, f64::INFINITY, &mut hits);
        cast.push(start.elapsed().as_secs_f64());
    }
    let checksum: f64 = hits.iter().flatten().map(|h| h.hit.distance).sum();
    println!(
        "{:.6} {:.2} {checksum:.17e}",
        median(built),
        median(cast) * 1e9 / rays.len() as f64
    );
}
