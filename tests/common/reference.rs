//! The exact answer to a query, for the given float inputs, computed with 256-bit binary floats
//! (dashu-float). The formulas are the plain textbook ones: with this much precision their
//! cancellations cost nothing, and they share no code or evaluation order with raysweep's cores.

use dashu_float::FBig;
use dashu_float::round::mode::HalfEven;

use super::sweep::{Hint, box_sweep, ellipsoid_sweep};
use super::{Case, Target};

pub type Big = FBig<HalfEven, 2>;

/// Working precision in bits. The worst cancellation in the test scenes (an origin an ulp outside
/// a sphere 10^12 across) loses about 110 bits, which leaves over 140 bits beyond what an f64
/// can resolve.
pub const PRECISION: usize = 256;

pub fn big(x: f64) -> Big {
    Big::try_from(x)
        .expect("finite input")
        .with_precision(PRECISION)
        .value()
}

pub fn to_f64(x: &Big) -> f64 {
    x.to_f64().value()
}

/// The exact crossing of the case's line with its target.
#[derive(Clone, Debug)]
pub struct Crossing {
    pub enter: Big,
    pub exit: Big,
    /// Whether the origin is in the closed solid.
    pub inside: bool,
    /// The contact point at `enter`: on the target's surface (for a ray, the ray's point).
    pub point: Vec<Big>,
    /// False where the reference could not resolve the values to its working precision (a swept
    /// contact at tangency): only hit or miss is known then.
    pub exact: bool,
    /// A starting point for solving a slightly changed case (ellipsoid sweeps).
    pub hint: Option<Hint>,
}

/// How to alter a case before solving it: nothing, one input nudged, or the target grown.
#[derive(Clone, Copy, Debug)]
pub enum Change {
    None,
    /// Add `delta` to input `index` (in the order of [`inputs`]).
    Nudge {
        index: usize,
        delta: f64,
    },
    /// Scale the target's size by `1 + factor` (radius, semi-axes, box half extents) about its
    /// centre, and the moving ball's radius with it.
    Grow {
        factor: f64,
    },
}

/// The case's inputs, flattened: origin, direction, the target's numbers, then the moving ball's
/// radius for a sphere cast.
pub fn inputs(case: &Case) -> Vec<f64> {
    let mut v: Vec<f64> = case.origin.iter().chain(&case.dir).copied().collect();
    match &case.target {
        Target::Sphere { center, radius } => {
            v.extend(center);
            v.push(*radius);
        }
        Target::Ellipsoid {
            center,
            semi_axes,
            rotation,
        } => {
            v.extend(center);
            v.extend(semi_axes);
            if let Some(m) = rotation {
                v.extend(m);
            }
        }
        Target::Box { min, max } => {
            v.extend(min);
            v.extend(max);
        }
    }
    if case.ball > 0.0 {
        v.push(case.ball);
    }
    v
}

fn dot(a: &[Big], b: &[Big]) -> Big {
    a.iter().zip(b).fold(big(0.0), |acc, (x, y)| acc + x * y)
}

fn sub(a: &[Big], b: &[Big]) -> Vec<Big> {
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}

/// Solves the case after `change`; `None` where the line misses the target.
pub fn crossing(case: &Case, change: Change) -> Option<Crossing> {
    crossing_near(case, change, None)
}

/// [`crossing`], starting any iteration from the solution of a nearby case.
pub fn crossing_near(case: &Case, change: Change, hint: Option<Hint>) -> Option<Crossing> {
    let d = case.origin.len();
    let mut x: Vec<Big> = inputs(case).into_iter().map(big).collect();
    if let Change::Nudge { index, delta } = change {
        x[index] = &x[index] + big(delta);
    }
    let grow = match change {
        Change::Grow { factor } => big(1.0) + big(factor),
        _ => big(1.0),
    };
    let origin = x[..d].to_vec();
    let raw_dir = &x[d..2 * d];
    let norm = dot(raw_dir, raw_dir).sqrt();
    let dir: Vec<Big> = raw_dir.iter().map(|v| v / &norm).collect();
    let rest = &x[2 * d..];
    let ball = (case.ball > 0.0).then(|| &x[x.len() - 1] * &grow);
    let mut contact: Option<Vec<Big>> = None;
    let mut exact = true;

    let (enter, exit, inside) = match &case.target {
        Target::Sphere { .. } => {
            let f = sub(&origin, &rest[..d]);
            let own = &rest[d] * &grow;
            let r = match &ball {
                Some(b) => &own + b,
                None => own.clone(),
            };
            let b = dot(&f, &dir);
            let c = dot(&f, &f) - &r * &r;
            let disc = &b * &b - &c;
            if disc < big(0.0) {
                return None;
            }
            let s = disc.sqrt();
            let enter = -&b - &s;
            if ball.is_some() {
                // The contact divides the line of centres in the ratio of the radii.
                let share = &own / &r;
                contact = Some(
                    (0..d)
                        .map(|i| &rest[i] + (&f[i] + &enter * &dir[i]) * &share)
                        .collect(),
                );
            }
            (enter, -&b + &s, c <= big(0.0))
        }
        Target::Ellipsoid { rotation, .. } => {
            let center = &rest[..d];
            let axes: Vec<Big> = rest[d..2 * d].iter().map(|a| a * &grow).collect();
            let polar = rotation.as_ref().map(|_| polar_factor(&rest[2 * d..], d));
            let m = polar.as_deref();
            // Local coordinates: diag(1/a) · Rᵀ · v.
            let local = |v: &[Big]| -> Vec<Big> {
                (0..d)
                    .map(|i| {
                        let along = match m {
                            None => v[i].clone(),
                            Some(m) => (0..d).fold(big(0.0), |acc, j| acc + &m[j * d + i] * &v[j]),
                        };
                        along / &axes[i]
                    })
                    .collect()
            };
            if let Some(ball) = &ball {
                // In the unscaled local frame Qᵀ(x − c), an isometry.
                let turn = |v: &[Big]| -> Vec<Big> {
                    (0..d)
                        .map(|i| match m {
                            None => v[i].clone(),
                            Some(m) => (0..d).fold(big(0.0), |acc, j| acc + &m[j * d + i] * &v[j]),
                        })
                        .collect()
                };
                let swept =
                    ellipsoid_sweep(&turn(&sub(&origin, center)), &turn(&dir), &axes, ball, hint)?;
                let local_contact = swept.contact.expect("an ellipsoid sweep gives its contact");
                contact = Some(
                    (0..d)
                        .map(|i| {
                            let along = match m {
                                None => local_contact[i].clone(),
                                Some(m) => (0..d).fold(big(0.0), |acc, j| {
                                    acc + &m[i * d + j] * &local_contact[j]
                                }),
                            };
                            &center[i] + along
                        })
                        .collect(),
                );
                exact = swept.exact;
                return Some(Crossing {
                    enter: swept.enter,
                    exit: swept.exit,
                    inside: swept.inside,
                    point: contact.expect("set above"),
                    exact,
                    hint: swept.hint,
                });
            }
            let f = local(&sub(&origin, center));
            let n = local(&dir);
            let qa = dot(&n, &n);
            let qb = dot(&f, &n);
            let qc = dot(&f, &f) - big(1.0);
            let disc = &qb * &qb - &qa * &qc;
            if disc < big(0.0) {
                return None;
            }
            let s = disc.sqrt();
            ((-&qb - &s) / &qa, (-&qb + &s) / &qa, qc <= big(0.0))
        }
        Target::Box { .. } => {
            let half = big(0.5);
            let (min, max) = (&rest[..d], &rest[d..2 * d]);
            if let Some(ball) = &ball {
                let scaled = |k: usize| -> (Big, Big) {
                    let centre = (&min[k] + &max[k]) * &half;
                    let h = (&max[k] - &min[k]) * &half * &grow;
                    (&centre - &h, &centre + &h)
                };
                let (lo, hi): (Vec<Big>, Vec<Big>) = (0..d).map(scaled).unzip();
                let swept = box_sweep(&origin, &dir, &lo, &hi, ball)?;
                let centre: Vec<Big> = (0..d)
                    .map(|i| &origin[i] + &swept.enter * &dir[i])
                    .collect();
                let point = (0..d)
                    .map(|i| {
                        if centre[i] < lo[i] {
                            lo[i].clone()
                        } else if centre[i] > hi[i] {
                            hi[i].clone()
                        } else {
                            centre[i].clone()
                        }
                    })
                    .collect();
                return Some(Crossing {
                    enter: swept.enter,
                    exit: swept.exit,
                    inside: swept.inside,
                    point,
                    exact: swept.exact,
                    hint: None,
                });
            }
            let mut enter: Option<Big> = None;
            let mut exit: Option<Big> = None;
            let mut inside = true;
            for i in 0..d {
                let centre = (&min[i] + &max[i]) * &half;
                let h = (&max[i] - &min[i]) * &half * &grow;
                let (lo, hi) = (&centre - &h, &centre + &h);
                inside &= origin[i] >= lo && origin[i] <= hi;
                if dir[i] == big(0.0) {
                    if origin[i] < lo || origin[i] > hi {
                        return None;
                    }
                    continue;
                }
                let t1 = (&lo - &origin[i]) / &dir[i];
                let t2 = (&hi - &origin[i]) / &dir[i];
                let (near, far) = if t1 <= t2 { (t1, t2) } else { (t2, t1) };
                if enter.as_ref().is_none_or(|e| near > *e) {
                    enter = Some(near);
                }
                if exit.as_ref().is_none_or(|e| far < *e) {
                    exit = Some(far);
                }
            }
            let (enter, exit) = (
                enter.expect("a unit direction"),
                exit.expect("a unit direction"),
            );
            if enter > exit {
                return None;
            }
            (enter, exit, inside)
        }
    };
    let point = contact.unwrap_or_else(|| (0..d).map(|i| &origin[i] + &enter * &dir[i]).collect());
    Some(Crossing {
        enter,
        exit,
        inside,
        point,
        exact,
        hint: None,
    })
}

/// The orthonormal polar factor of a row-major `d × d` matrix near orthonormal: Newton-Schulz
/// steps `X ← X (3I − XᵀX) / 2` until the deviation is below the working precision (each step
/// squares it; five take `2·10⁻⁶`, the most the constructor accepts, below `10⁻¹⁸⁰`, the
/// working precision).
pub fn polar_factor(m: &[Big], d: usize) -> Vec<Big> {
    let mut x = m.to_vec();
    for _ in 0..5 {
        let mut gram = vec![big(0.0); d * d];
        for i in 0..d {
            for j in 0..d {
                gram[i * d + j] =
                    (0..d).fold(big(0.0), |acc, k| acc + &x[k * d + i] * &x[k * d + j]);
            }
        }
        let step: Vec<Big> = (0..d * d)
            .map(|k| {
                if k % (d + 1) == 0 {
                    big(3.0) - &gram[k]
                } else {
                    -&gram[k]
                }
            })
            .collect();
        x = (0..d * d)
            .map(|k| {
                let (i, j) = (k / d, k % d);
                (0..d).fold(big(0.0), |acc, l| acc + &x[i * d + l] * &step[l * d + j]) * big(0.5)
            })
            .collect();
    }
    x
}

/// `|a − b|` as f64, with `a` a float result and `b` exact.
pub fn gap(a: f64, b: &Big) -> f64 {
    to_f64(&(big(a) - b)).abs()
}
