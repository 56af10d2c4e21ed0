//! The build of a scene of `N` balls (the scene benchmark's cloud: radius 1, centres uniform in a
//! cube they fill to 10 %) in one width, as a separate process so that its peak memory is the
//! build's: prints the bodies' and the hierarchy's bytes, the build's time on rayon's threads,
//! and the process's peak resident memory (`VmHWM`, Linux).
//!
//! ```sh
//! cargo run --release -p raysweep-benches --bin build_memory -- 10000000 f32
//! ```

use std::time::Instant;

use raysweep::{Scene, Sphere};
use raysweep_benches::{Width, sphere_cloud, unit_balls};

/// The process's peak resident memory in bytes, where the system reports it.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn run<T: Width>(n: usize, width: &str) {
    let bodies = {
        let (centres, _) = sphere_cloud(n);
        unit_balls::<T>(&centres)
    };
    let before = peak_memory().unwrap_or(0);
    let start = Instant::now();
    let scene: Scene<T, 3, Sphere<T>> = Scene::new(bodies);
    let built = start.elapsed().as_secs_f64();
    let gb = |b: f64| b / 1e9;
    println!(
        "{width}, {n} balls: built in {built:.2} s; bodies {:.2} GB, hierarchy {:.2} GB ({:.1} bytes per body); peak {:.2} GB (before the build {:.2} GB)",
        gb((n * size_of::<Sphere<T>>()) as f64),
        gb(scene.hierarchy_bytes() as f64),
        scene.hierarchy_bytes() as f64 / n as f64,
        gb(peak_memory().unwrap_or(0) as f64),
        gb(before as f64),
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000_000);
    match args.next().as_deref() {
        Some("f64") => run::<f64>(n, "f64"),
        _ => run::<f32>(n, "f32"),
    }
}
