//! The phantom example's sinogram equals the closed-form projections of its ellipses to 1e-9.

#[allow(dead_code)] // the example's `main` is not used here
#[path = "../../examples/phantom.rs"]
mod example;

use example::{ANGLES, DETECTORS, PHANTOM, geometry, sinogram};

/// The projection of an ellipse with semi-axes `a`, `b`, centre `(x, y)` rotated by `phi`, along
/// the line at angle `theta` and offset `s`: `2ab √(m² − s'²) / m²` with
/// `m² = a² cos²(θ − φ) + b² sin²(θ − φ)` and `s' = s − (x cos θ + y sin θ)` (Kak and Slaney,
/// Principles of Computerized Tomographic Imaging, 1988, 3.1).
fn closed_form(a: f64, b: f64, x: f64, y: f64, phi: f64, theta: f64, s: f64) -> f64 {
    let (sin, cos) = (theta - phi).sin_cos();
    let m2 = a * a * cos * cos + b * b * sin * sin;
    let shifted = s - (x * theta.cos() + y * theta.sin());
    if shifted * shifted >= m2 {
        0.0
    } else {
        2.0 * a * b * (m2 - shifted * shifted).sqrt() / m2
    }
}

#[test]
fn sinogram_matches_the_closed_form_projections() {
    let values = sinogram().unwrap();
    assert_eq!((values.len(), values[0].len()), (ANGLES, DETECTORS));
    let mut worst = 0.0f64;
    for (k, row) in values.iter().enumerate() {
        for (j, value) in row.iter().enumerate() {
            let (theta, s) = geometry(k, j);
            let exact: f64 = PHANTOM
                .iter()
                .map(|&[i, a, b, x, y, deg]| {
                    i * closed_form(a, b, x, y, deg.to_radians(), theta, s)
                })
                .sum();
            worst = worst.max((value - exact).abs());
        }
    }
    assert!(worst <= 1e-9, "largest difference {worst:e}");
    // The phantom is not empty: the outer ellipse projects to about 2·0.92·0.2 = 0.37 at s = 0.
    assert!(values[0][DETECTORS / 2] > 0.3);
}
