//! A 3D CT forward projection through voxel grids, against the exact line integrals.
//!
//! The 3D Shepp-Logan head phantom of Kak and Slaney (ten ellipsoids; "Principles of Computerized
//! Tomographic Imaging", 1988, p. 102) is voxelized at 64³, 128³ and 256³ on `[-1, 1]³` (each
//! voxel holds its mean density, from chords along x) and projected in a parallel-beam geometry: 60 angles
//! over 180° about the x axis, a detector of 64 × 64 rays. Each projection is
//! `Σ length × voxel` along the ray's walk, by [`Grid::project`] on rayon's threads; the
//! exact one is
//! `Σ density × chord` over the ellipsoids ([`Cast::ray_span`]). The relative RMS error of the
//! voxel projections falls as the voxels shrink (the example fails if it does not), and the
//! sinogram of the detector's middle row at 256³ is written to `ct-sinogram.png`.
//!
//! `cargo run --release --example ct`

use std::time::Instant;

use rayon::prelude::*;
use raysweep::nalgebra::{Point3, Rotation3, Vector3};
use raysweep::{Cast, Ellipsoid, Error, Grid, Ray};

/// The phantom: semi-axes, centre, rotation about z in degrees, density.
const PHANTOM: [([f64; 3], [f64; 3], f64, f64); 10] = [
    ([0.69, 0.92, 0.9], [0.0, 0.0, 0.0], 0.0, 2.0),
    ([0.6624, 0.874, 0.88], [0.0, 0.0, 0.0], 0.0, -0.98),
    ([0.41, 0.16, 0.21], [-0.22, 0.0, -0.25], 108.0, -0.02),
    ([0.31, 0.11, 0.22], [0.22, 0.0, -0.25], 72.0, -0.02),
    ([0.21, 0.25, 0.5], [0.0, 0.35, -0.25], 0.0, 0.02),
    ([0.046, 0.046, 0.046], [0.0, 0.1, -0.25], 0.0, 0.02),
    ([0.046, 0.023, 0.02], [-0.08, -0.65, -0.25], 0.0, 0.01),
    ([0.046, 0.023, 0.02], [0.06, -0.65, -0.25], 90.0, 0.01),
    ([0.056, 0.04, 0.1], [0.06, -0.105, 0.625], 90.0, 0.02),
    ([0.056, 0.056, 0.1], [0.0, 0.1, 0.625], 0.0, -0.02),
];

const ANGLES: usize = 60;
const DETECTOR: usize = 64;

/// The phantom's ellipsoids with their densities.
fn phantom() -> Result<Vec<(Ellipsoid<f64>, f64)>, Error> {
    PHANTOM
        .iter()
        .map(|&(axes, centre, degrees, density)| {
            let rotation = Rotation3::from_axis_angle(&Vector3::z_axis(), degrees.to_radians());
            let shape = Ellipsoid::oriented(Point3::from(centre), Vector3::from(axes), rotation)?;
            Ok((shape, density))
        })
        .collect()
}

/// The rays: for angle `k`, detector column `i` and row `j`, the line through
/// `(v, 0, 0) + s·(0, cos θ, sin θ)` along `(0, −sin θ, cos θ)`, from two units back: a parallel
/// beam turning about the x axis, the grid's first (so that each ray steps through the volume's
/// two faster axes: `Grid::flat_index` puts the last axis fastest). The detector spans
/// `[-0.9, 0.9]²`, so that its rows do not lie in the grids' planes (a ray inside a plane between
/// voxels samples one side only).
fn rays() -> Result<Vec<Ray<f64>>, Error> {
    let offset = |i: usize| 0.9 * (-1.0 + (i as f64 + 0.5) * 2.0 / DETECTOR as f64);
    let mut rays = Vec::with_capacity(ANGLES * DETECTOR * DETECTOR);
    for k in 0..ANGLES {
        let (sin, cos) = (k as f64 * 180.0 / ANGLES as f64).to_radians().sin_cos();
        for j in 0..DETECTOR {
            for i in 0..DETECTOR {
                let (s, v) = (offset(i), offset(j));
                let origin = Point3::new(v, s * cos + 2.0 * sin, s * sin - 2.0 * cos);
                rays.push(Ray::new(origin, Vector3::new(0.0, -sin, cos))?);
            }
        }
    }
    Ok(rays)
}

/// Lines per voxel row across each of y and z, for the voxels' partial volumes.
const SUBLINES: usize = 3;

/// The phantom on an `n³` grid over `[-1, 1]³`: each voxel's mean density, exact along x (the
/// chords of lines along x through each row of voxels, shared out by overlap), sampled by
/// [`SUBLINES`]² lines across y and z.
fn voxelize(phantom: &[(Ellipsoid<f64>, f64)], n: usize) -> Result<(Grid<f64>, Vec<f64>), Error> {
    let size = 2.0 / n as f64;
    let grid = Grid::new(Point3::new(-1.0, -1.0, -1.0), Vector3::repeat(size), [n; 3])?;
    let weight = 1.0 / (size * (SUBLINES * SUBLINES) as f64);
    let rows: Vec<Vec<f32>> = (0..n * n)
        .into_par_iter()
        .map(|row| {
            let (y, z) = (row % n, row / n);
            let mut sums = vec![0.0f64; n];
            for line in 0..SUBLINES * SUBLINES {
                let at = |k: usize, sub: usize| {
                    -1.0 + (k as f64 + (sub as f64 + 0.5) / SUBLINES as f64) * size
                };
                let origin = Point3::new(-1.0, at(y, line % SUBLINES), at(z, line / SUBLINES));
                let ray = Ray::new(origin, Vector3::x()).expect("a unit direction");
                for (e, density) in phantom {
                    let Some(span) = e.ray_span(&ray) else {
                        continue;
                    };
                    let (from, to) = (span.enter.max(0.0), span.exit.min(2.0));
                    if from >= to {
                        continue;
                    }
                    let first = ((from / size) as usize).min(n - 1);
                    let last = ((to / size) as usize).min(n - 1);
                    for (k, sum) in sums.iter_mut().enumerate().take(last + 1).skip(first) {
                        let (lo, hi) = (k as f64 * size, (k + 1) as f64 * size);
                        *sum += density * (to.min(hi) - from.max(lo)).max(0.0);
                    }
                }
            }
            sums.iter().map(|s| (s * weight) as f32).collect()
        })
        .collect();
    // The grid's layout: cell [x, y, z] at `grid.flat_index`, the last axis fastest; each
    // voxel's mean density held in `f32`, as an imaging pipeline would store it.
    let mut volume = vec![0.0; n * n * n];
    for (row, values) in rows.iter().enumerate() {
        let (y, z) = (row % n, row / n);
        for (x, &v) in values.iter().enumerate() {
            volume[grid.flat_index([x, y, z])] = f64::from(v);
        }
    }
    Ok((grid, volume))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let phantom = phantom()?;
    let rays = rays()?;
    let exact: Vec<f64> = rays
        .par_iter()
        .map(|ray| {
            phantom
                .iter()
                .filter_map(|(e, density)| e.ray_span(ray).map(|span| density * span.length()))
                .sum()
        })
        .collect();
    let norm = exact.iter().map(|e| e * e).sum::<f64>().sqrt();
    println!(
        "{} rays ({ANGLES} angles, a {DETECTOR} × {DETECTOR} detector) through the 3D Shepp-Logan phantom",
        rays.len()
    );
    let mut errors = Vec::new();
    let mut last = Vec::new();
    for n in [64, 128, 256] {
        let (grid, volume) = voxelize(&phantom, n)?;
        let start = Instant::now();
        let mut projections = vec![0.0; rays.len()];
        // `Grid::project` on chunks of rays, spread over rayon's threads (with raysweep's own
        // `rayon` feature, `Grid::project_par` does this).
        rays.par_chunks(1024)
            .zip(projections.par_chunks_mut(1024))
            .try_for_each(|(rays, sums)| grid.project(&volume, rays, f64::INFINITY, sums))?;
        let seconds = start.elapsed().as_secs_f64();
        let error = projections
            .iter()
            .zip(&exact)
            .map(|(p, e)| (p - e) * (p - e))
            .sum::<f64>()
            .sqrt()
            / norm;
        println!(
            "{n:>3}³ voxels: relative RMS error {error:.3e}; projected in {:.0} ms, {:.0} ns per ray",
            seconds * 1e3,
            seconds * 1e9 / rays.len() as f64
        );
        errors.push(error);
        last = projections;
    }
    if !errors.windows(2).all(|w| w[1] < w[0]) {
        return Err(format!("the error does not fall with the voxel size: {errors:?}").into());
    }
    // The sinogram of the detector's middle row at the finest grid: a row per angle.
    let row = DETECTOR / 2;
    let sinogram: Vec<f64> = (0..ANGLES)
        .flat_map(|k| (0..DETECTOR).map(move |i| (k * DETECTOR + row) * DETECTOR + i))
        .map(|at| last[at])
        .collect();
    let max = sinogram.iter().fold(0.0f64, |m, v| m.max(*v));
    let pixels: Vec<u8> = sinogram
        .iter()
        .map(|v| (v.max(0.0) / max * 255.0).round() as u8)
        .collect();
    let file = std::io::BufWriter::new(std::fs::File::create("ct-sinogram.png")?);
    let mut encoder = png::Encoder::new(file, DETECTOR as u32, ANGLES as u32);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.write_header()?.write_image_data(&pixels)?;
    println!(
        "wrote the middle row's sinogram at 256³ to ct-sinogram.png ({ANGLES} angles × {DETECTOR})"
    );
    Ok(())
}
