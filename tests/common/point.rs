//! The exact nearest surface point and signed distance of a target to a point, for the given
//! float inputs, in 256-bit binary floats: the textbook formulas for the ball and the box; for an
//! ellipsoid, the root `u` of `Σ (a_i p_i / (a_i² − a_m² + u))² = 1` (`a_m` the smallest semi-axis)
//! bracketed by bisection in f64 and polished by Newton's method in 256 bits from the side where
//! the function is positive (it is convex and decreasing, so Newton's steps never pass the root).

use super::Target;
use super::reference::{Big, big, polar_factor, to_f64};

/// The exact answer.
#[derive(Clone, Debug)]
pub struct Nearest {
    /// Negative inside.
    pub distance: Big,
    pub point: Vec<Big>,
    /// The outward unit normal at `point`, rounded to f64.
    pub normal: Vec<f64>,
    /// `|∂ distance / ∂ x| · ulp(x) / 2` summed over the inputs `x` (point and target): the
    /// first-order change of the distance that half-ulp changes of the inputs can cause, for
    /// ulps of width `ulp`.
    pub sensitivity: f64,
    /// The same bound for the nearest point: every input's half ulp, weighted by 1 (the nearest
    /// point of a convex solid moves no more than the point, or the solid's surface, does), and
    /// by `|p − c|` for a rotation's entries.
    pub point_sensitivity: f64,
}

fn norm(v: &[Big]) -> Big {
    v.iter().fold(big(0.0), |acc, x| acc + x * x).sqrt()
}

/// `v / |v|` rounded to f64; the first axis for a zero `v` (as raysweep documents for a ball's
/// centre).
fn unit_f64(v: &[Big]) -> Vec<f64> {
    let n = norm(v);
    if n == big(0.0) {
        return (0..v.len())
            .map(|i| if i == 0 { 1.0 } else { 0.0 })
            .collect();
    }
    v.iter().map(|x| to_f64(&(x / &n))).collect()
}

/// The exact nearest point of `target` to `p`; `ulp` gives the input's ulp for the sensitivity.
pub fn nearest(target: &Target, p: &[f64], ulp: impl Fn(f64) -> f64) -> Nearest {
    let half = |x: f64| ulp(x) / 2.0;
    let mut answer = nearest_only(target, p, &half);
    answer.point_sensitivity = point_sensitivity(target, p, &half);
    answer
}

/// [`Nearest::point_sensitivity`].
fn point_sensitivity(target: &Target, p: &[f64], half: &impl Fn(f64) -> f64) -> f64 {
    let sum = |v: &[f64]| v.iter().map(|&x| half(x)).sum::<f64>();
    sum(p)
        + match target {
            Target::Sphere { center, radius } => sum(center) + half(*radius),
            Target::Box { min, max } => sum(min) + sum(max),
            Target::Ellipsoid {
                center,
                semi_axes,
                rotation,
            } => {
                let reach = p
                    .iter()
                    .zip(center)
                    .map(|(a, b)| (a - b).powi(2))
                    .sum::<f64>()
                    .sqrt();
                sum(center) + sum(semi_axes) + rotation.as_ref().map_or(0.0, |m| reach * sum(m))
            }
        }
}

fn nearest_only(target: &Target, p: &[f64], half: &impl Fn(f64) -> f64) -> Nearest {
    let pb: Vec<Big> = p.iter().map(|&x| big(x)).collect();
    let d = p.len();
    match target {
        Target::Sphere { center, radius } => {
            let off: Vec<Big> = (0..d).map(|i| &pb[i] - big(center[i])).collect();
            let len = norm(&off);
            let normal = unit_f64(&off);
            let point = (0..d)
                .map(|i| {
                    let along = if len == big(0.0) {
                        big(normal[i])
                    } else {
                        &off[i] / &len
                    };
                    big(center[i]) + along * big(*radius)
                })
                .collect();
            let sensitivity = (0..d)
                .map(|i| normal[i].abs() * (half(p[i]) + half(center[i])))
                .sum::<f64>()
                + half(*radius);
            Nearest {
                distance: len - big(*radius),
                point,
                normal,
                sensitivity,
                point_sensitivity: 0.0,
            }
        }
        Target::Box { min, max } => {
            let clamped: Vec<Big> = (0..d).map(|i| big(p[i].clamp(min[i], max[i]))).collect();
            let off: Vec<Big> = (0..d).map(|i| &pb[i] - &clamped[i]).collect();
            if off.iter().any(|x| *x != big(0.0)) {
                let normal = unit_f64(&off);
                let sensitivity = (0..d)
                    .map(|i| {
                        let face = if p[i] < min[i] { min[i] } else { max[i] };
                        normal[i].abs() * (half(p[i]) + half(face))
                    })
                    .sum();
                return Nearest {
                    distance: norm(&off),
                    point: clamped,
                    normal,
                    sensitivity,
                    point_sensitivity: 0.0,
                };
            }
            let mut best: Option<(Big, usize, bool)> = None;
            for i in 0..d {
                for (depth, upper) in [(&pb[i] - big(min[i]), false), (big(max[i]) - &pb[i], true)]
                {
                    if best.as_ref().is_none_or(|b| depth < b.0) {
                        best = Some((depth, i, upper));
                    }
                }
            }
            let (depth, axis, upper) = best.expect("a dimension");
            let face = if upper { max[axis] } else { min[axis] };
            let mut point = pb.clone();
            point[axis] = big(face);
            let mut normal = vec![0.0; d];
            normal[axis] = if upper { 1.0 } else { -1.0 };
            Nearest {
                distance: -depth,
                point,
                normal,
                sensitivity: half(p[axis]) + half(face),
                point_sensitivity: 0.0,
            }
        }
        Target::Ellipsoid {
            center,
            semi_axes,
            rotation,
        } => ellipsoid(center, semi_axes, rotation.as_deref(), p, half),
    }
}

fn ellipsoid(
    center: &[f64],
    semi_axes: &[f64],
    rotation: Option<&[f64]>,
    p: &[f64],
    half: &impl Fn(f64) -> f64,
) -> Nearest {
    let d = p.len();
    let m = rotation.map(|r| polar_factor(&r.iter().map(|&x| big(x)).collect::<Vec<_>>(), d));
    let rel: Vec<Big> = (0..d).map(|i| big(p[i]) - big(center[i])).collect();
    // Local coordinates Mᵀ rel, and back: M v.
    let local: Vec<Big> = (0..d)
        .map(|i| match &m {
            None => rel[i].clone(),
            Some(m) => (0..d).fold(big(0.0), |acc, j| acc + &m[j * d + i] * &rel[j]),
        })
        .collect();
    let world = |v: &[Big]| -> Vec<Big> {
        (0..d)
            .map(|i| match &m {
                None => v[i].clone(),
                Some(m) => (0..d).fold(big(0.0), |acc, j| acc + &m[i * d + j] * &v[j]),
            })
            .collect()
    };
    let a: Vec<Big> = semi_axes.iter().map(|&x| big(x)).collect();
    let a_m = a.iter().min().expect("a dimension").clone();
    let b: Vec<Big> = a.iter().map(|x| x * x - &a_m * &a_m).collect();
    let zero = big(0.0);
    let inside = (0..d).fold(big(0.0), |acc, i| acc + (&local[i] / &a[i]).sqr()) <= big(1.0);
    let w = |u: &Big, i: usize| -> Big {
        if local[i] == zero {
            zero.clone()
        } else {
            &a[i] * &local[i] / (&b[i] + u)
        }
    };
    let medial = (0..d).all(|i| b[i] != zero || local[i] == zero)
        && (0..d).fold(big(0.0), |acc, i| {
            if b[i] == zero {
                acc
            } else {
                acc + w(&zero, i).sqr()
            }
        }) <= big(1.0);
    let q: Vec<Big> = if medial {
        let free = (0..d).find(|&i| b[i] == zero).expect("a smallest axis");
        let rest = (0..d).fold(big(1.0), |acc, i| {
            if i == free {
                acc
            } else {
                acc - w(&zero, i).sqr()
            }
        });
        (0..d)
            .map(|i| {
                if i == free {
                    &a[i] * rest.sqrt()
                } else {
                    &a[i] * w(&zero, i)
                }
            })
            .collect()
    } else {
        let u = root(&local, &a, &b);
        (0..d).map(|i| &a[i] * w(&u, i)).collect()
    };
    let off: Vec<Big> = (0..d).map(|i| &local[i] - &q[i]).collect();
    let len = norm(&off);
    let gradient: Vec<Big> = (0..d).map(|i| &q[i] / (&a[i] * &a[i])).collect();
    let local_normal = unit_f64(&gradient);
    let normal = unit_f64(&world(&gradient));
    let point: Vec<Big> = world(&q)
        .iter()
        .zip(center)
        .map(|(x, &c)| x + big(c))
        .collect();
    // ∂d/∂p = n, ∂d/∂c = −n, ∂d/∂a_i = −n_i q_i / a_i (local), and for each rotation entry at
    // most |n| |p − c|.
    let reach = to_f64(&norm(&rel));
    let sensitivity = (0..d)
        .map(|i| {
            normal[i].abs() * (half(p[i]) + half(center[i]))
                + (local_normal[i] * to_f64(&q[i]) / semi_axes[i]).abs() * half(semi_axes[i])
        })
        .sum::<f64>()
        + rotation.map_or(0.0, |r| r.iter().map(|&x| reach * half(x)).sum());
    Nearest {
        distance: if inside { -len } else { len },
        point,
        normal,
        sensitivity,
        point_sensitivity: 0.0,
    }
}

/// The root `u > 0` of `Σ (a_i p_i / (b_i + u))² = 1` where a smallest axis has `p_i ≠ 0` or the
/// sum exceeds 1 at `u = 0`.
fn root(p: &[Big], a: &[Big], b: &[Big]) -> Big {
    let d = p.len();
    let (pf, af, bf): (Vec<f64>, Vec<f64>, Vec<f64>) = (
        p.iter().map(to_f64).collect(),
        a.iter().map(to_f64).collect(),
        b.iter().map(to_f64).collect(),
    );
    let f = |u: f64| {
        (0..d)
            .map(|i| (af[i] * pf[i] / (bf[i] + u)).powi(2))
            .sum::<f64>()
            - 1.0
    };
    let (mut lo, mut hi) = (
        0.0f64,
        (0..d).map(|i| (af[i] * pf[i]).abs()).sum::<f64>() + 1.0,
    );
    for _ in 0..2200 {
        let mid = if lo > 0.0 && hi > 4.0 * lo {
            (lo * hi).sqrt()
        } else {
            0.5 * (lo + hi)
        };
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut u = big(lo);
    for _ in 0..12 {
        let (mut value, mut slope) = (big(-1.0), big(0.0));
        for i in 0..d {
            let t = &a[i] * &p[i] / (&b[i] + &u);
            value += t.sqr();
            slope -= big(2.0) * t.sqr() / (&b[i] + &u);
        }
        if slope == big(0.0) {
            break;
        }
        let next = &u - value / slope;
        if next <= big(0.0) {
            break;
        }
        u = next;
    }
    u
}
