//! The analytic sinogram of the modified Shepp-Logan phantom, from chord lengths through ellipses.
//!
//! Parallel-beam geometry: 180 angles θ_k = k degrees, 256 detector offsets
//! s_j = −1 + (j + ½)·2/256; the ray for (θ, s) is the line s·(cos θ, sin θ) + u·(−sin θ, cos θ).
//! Each value is the sum over the ten ellipses of intensity × chord length (`ray_span`).
//!
//! `cargo run --release --example phantom -- --csv OUT.csv` writes the 180 × 256 values (a row per
//! angle, comma-separated, each f64 in full, round-trip precision); without `--csv` it writes the
//! sinogram as a grey-scale image, `phantom.png`.

use raysweep::nalgebra::{Point2, Rotation2, Vector2};
use raysweep::{Cast, Ellipse, Error, Ray};

/// The modified Shepp-Logan phantom (Toft, "The Radon Transform: Theory and Implementation",
/// 1996): intensity, semi-axis a along x, semi-axis b along y, centre x, centre y, rotation in
/// degrees counter-clockwise, on [−1, 1]².
pub const PHANTOM: [[f64; 6]; 10] = [
    [1.0, 0.69, 0.92, 0.0, 0.0, 0.0],
    [-0.8, 0.6624, 0.8740, 0.0, -0.0184, 0.0],
    [-0.2, 0.1100, 0.3100, 0.22, 0.0, -18.0],
    [-0.2, 0.1600, 0.4100, -0.22, 0.0, 18.0],
    [0.1, 0.2100, 0.2500, 0.0, 0.35, 0.0],
    [0.1, 0.0460, 0.0460, 0.0, 0.1, 0.0],
    [0.1, 0.0460, 0.0460, 0.0, -0.1, 0.0],
    [0.1, 0.0460, 0.0230, -0.08, -0.605, 0.0],
    [0.1, 0.0230, 0.0230, 0.0, -0.606, 0.0],
    [0.1, 0.0230, 0.0460, 0.06, -0.605, 0.0],
];

pub const ANGLES: usize = 180;
pub const DETECTORS: usize = 256;

/// The angle θ_k in radians and the offset s_j.
pub fn geometry(k: usize, j: usize) -> (f64, f64) {
    (
        (k as f64).to_radians(),
        -1.0 + (j as f64 + 0.5) * 2.0 / DETECTORS as f64,
    )
}

/// The sinogram, a row per angle.
pub fn sinogram() -> Result<Vec<Vec<f64>>, Error> {
    let ellipses = PHANTOM
        .iter()
        .map(|&[intensity, a, b, x, y, degrees]| {
            let shape = Ellipse::oriented(
                Point2::new(x, y),
                Vector2::new(a, b),
                Rotation2::new(degrees.to_radians()),
            )?;
            Ok((intensity, shape))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    (0..ANGLES)
        .map(|k| {
            (0..DETECTORS)
                .map(|j| {
                    let (theta, s) = geometry(k, j);
                    let (sin, cos) = theta.sin_cos();
                    let ray = Ray::new(Point2::new(s * cos, s * sin), Vector2::new(-sin, cos))?;
                    Ok(ellipses
                        .iter()
                        .filter_map(|(intensity, e)| {
                            e.ray_span(&ray).map(|c| intensity * c.length())
                        })
                        .sum())
                })
                .collect()
        })
        .collect()
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let values = sinogram()?;
    match args.as_slice() {
        [flag, path] if flag == "--csv" => {
            let mut csv = String::new();
            for row in &values {
                let line: Vec<String> = row.iter().map(|v| v.to_string()).collect();
                csv.push_str(&line.join(","));
                csv.push('\n');
            }
            std::fs::write(path, csv)?;
            eprintln!("wrote {ANGLES} × {DETECTORS} projections to {path}");
        }
        [] => {
            let max = values.iter().flatten().fold(0.0f64, |m, v| m.max(*v));
            let pixels: Vec<u8> = values
                .iter()
                .flatten()
                .map(|v| (v.max(0.0) / max * 255.0).round() as u8)
                .collect();
            let file = std::io::BufWriter::new(std::fs::File::create("phantom.png")?);
            let mut encoder = png::Encoder::new(file, DETECTORS as u32, ANGLES as u32);
            encoder.set_color(png::ColorType::Grayscale);
            encoder.set_depth(png::BitDepth::Eight);
            encoder.write_header()?.write_image_data(&pixels)?;
            eprintln!("wrote the {ANGLES} × {DETECTORS} sinogram to phantom.png (a row per angle)");
        }
        _ => return Err("usage: phantom [--csv OUT.csv]".into()),
    }
    Ok(())
}
