//! What raysweep's benchmarks share: the width under test and the seeded ray sets.
//!
//! The benchmarks are a crate of their own that depends on raysweep as a user's crate does, so
//! that they measure what a user's build gets: the default release profile
//! (`cargo bench -p raysweep-benches`), and thin LTO in one codegen unit
//! (`cargo bench -p raysweep-benches --profile bench-lto`).

use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point3, Vector3};
use raysweep::{Ray, Real, Sphere};

/// The width under test: `f32` or `f64`, built from `f64` values.
pub trait Width: Real {
    /// `x` rounded to this width.
    fn of(x: f64) -> Self;
}

impl Width for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
}

impl Width for f64 {
    fn of(x: f64) -> f64 {
        x
    }
}

/// The raw little-endian `f64` values of file `name` in `dir`: what the Python benchmarks write
/// for the binaries that time the crate on their inputs.
///
/// # Panics
///
/// If the file cannot be read.
pub fn read_f64(dir: &Path, name: &str) -> Vec<f64> {
    let bytes = std::fs::read(dir.join(name)).unwrap_or_else(|err| panic!("{name}: {err}"));
    bytes
        .chunks_exact(8)
        .map(|b| f64::from_le_bytes(b.try_into().expect("8 bytes")))
        .collect()
}

/// `v` as a point of width `T`.
pub fn p3<T: Width>(v: [f64; 3]) -> Point3<T> {
    Point3::new(T::of(v[0]), T::of(v[1]), T::of(v[2]))
}

/// `v` as a vector of width `T`.
pub fn v3<T: Width>(v: [f64; 3]) -> Vector3<T> {
    Vector3::new(T::of(v[0]), T::of(v[1]), T::of(v[2]))
}

/// A point uniform in the cube `[-half, half]³`.
pub fn in_cube(rng: &mut StdRng, half: f64) -> [f64; 3] {
    [(); 3].map(|()| rng.random_range(-half..half))
}

/// A unit vector uniform on the sphere (by rejection from the cube).
pub fn unit_vector(rng: &mut StdRng) -> [f64; 3] {
    loop {
        let v = in_cube(rng, 1.0);
        let n2: f64 = v.iter().map(|x| x * x).sum();
        if n2 > 1e-4 && n2 <= 1.0 {
            return v.map(|x| x / n2.sqrt());
        }
    }
}

/// `count` (origin, direction) pairs with origins on a sphere of radius 10 around the origin,
/// each aimed at a point within `1.7·size` of the centre: about half of them hit a target of size
/// `size` there. The same seed for every count, so a smaller set is the start of a larger one.
pub fn on_sphere_aimed(count: usize, size: f64) -> Vec<([f64; 3], [f64; 3])> {
    let mut rng = StdRng::seed_from_u64(0x5eed_cafe);
    (0..count)
        .map(|_| {
            let o = unit_vector(&mut rng).map(|x| x * 10.0);
            let spread = rng.random_range(0.0..1.0f64).cbrt() * 1.7 * size;
            let aim = unit_vector(&mut rng).map(|x| x * spread);
            (o, [aim[0] - o[0], aim[1] - o[1], aim[2] - o[2]])
        })
        .collect()
}

/// `count` (origin, direction) pairs with origins uniform in `[-10, 10]³`, each aimed at a point
/// uniform in `[-2, 2]³`: the rays of the batch benchmark, as a user's crate first measured it.
pub fn in_cube_aimed(count: usize) -> Vec<([f64; 3], [f64; 3])> {
    let mut rng = StdRng::seed_from_u64(0x0ba7_c4e5);
    (0..count)
        .map(|_| {
            let o = in_cube(&mut rng, 10.0);
            let aim = in_cube(&mut rng, 2.0);
            (o, [aim[0] - o[0], aim[1] - o[1], aim[2] - o[2]])
        })
        .collect()
}

/// Rays of width `T` from (origin, direction) pairs.
pub fn rays<T: Width>(pairs: &[([f64; 3], [f64; 3])]) -> Vec<Ray<T>> {
    pairs
        .iter()
        .map(|&(o, d)| Ray::new(p3(o), v3(d)).expect("a finite origin and a non-zero direction"))
        .collect()
}

/// The scene benchmarks' spheres: `n` centres uniform in a cube, all of radius 1, the cube's side
/// chosen so that the balls fill 10 % of it (overlaps allowed). Returns the centres and the side.
pub fn sphere_cloud(n: usize) -> (Vec<[f64; 3]>, f64) {
    let side = (n as f64 * 4.0 / 3.0 * core::f64::consts::PI / 0.1).cbrt();
    let mut rng = StdRng::seed_from_u64(0x5ce4e);
    let centres = (0..n).map(|_| in_cube(&mut rng, side / 2.0)).collect();
    (centres, side)
}

/// Balls of radius 1 of width `T` around `centres` (those of [`sphere_cloud`]).
pub fn unit_balls<T: Width>(centres: &[[f64; 3]]) -> Vec<Sphere<T>> {
    centres
        .iter()
        .map(|c| Sphere::new(p3(*c), T::of(1.0)).expect("a finite centre"))
        .collect()
}

/// parry's `Compound` of balls of radius 1 around `centres` (those of [`sphere_cloud`]), in the
/// scalar `$t` of the parry crate `$parry` (`parry3d` with `f32`, `parry3d_f64` with `f64`): the
/// anchor of the proximity benchmarks. A macro because the two crates' types differ.
#[macro_export]
macro_rules! parry_unit_balls {
    ($parry:ident, $t:ty, $centres:expr) => {{
        use $parry::na::{Isometry3, Translation3};
        use $parry::shape::{Compound, SharedShape};
        let parts: Vec<(Isometry3<$t>, SharedShape)> = $centres
            .iter()
            .map(|c| {
                let c = c.map(|x| x as $t);
                (
                    Translation3::new(c[0], c[1], c[2]).into(),
                    SharedShape::ball(1.0),
                )
            })
            .collect();
        Compound::new(parts)
    }};
}

/// `count` (origin, direction) pairs with origins uniform in the cube of side `side` around the
/// origin and isotropic unit directions.
pub fn rays_in_cube(count: usize, side: f64) -> Vec<([f64; 3], [f64; 3])> {
    let mut rng = StdRng::seed_from_u64(0x0ad1_a7e0);
    (0..count)
        .map(|_| (in_cube(&mut rng, side / 2.0), unit_vector(&mut rng)))
        .collect()
}
