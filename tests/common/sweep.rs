//! Exact sphere casts for the reference, by methods unrelated to raysweep's:
//!
//! - a box: every face, edge and corner feature of the swept box (3^D − 1 of them) is a quadric
//!   in the coordinates it fixes; the entry is the smallest entry root whose point lies on its
//!   feature (the fixed coordinates beyond their bounds, the free ones within);
//! - an ellipsoid (axis-aligned, in its local frame): the contact solves the Lagrange system
//!   `Σ a_i² p_i² / (a_i² + s)² = 1`, `s² Σ p_i² / (a_i² + s)² = r²` in `(t, s)` with
//!   `p = o + t·n`. A coarse f64 root from bisections is polished by Newton's method on the
//!   system in 256-bit arithmetic.

use super::reference::{Big, big};

/// A swept crossing: entry, exit, whether the ball touches at the origin, and (ellipsoids) the
/// contact point at entry in the local frame; `exact` is false where the polish did not converge.
pub struct Swept {
    pub enter: Big,
    pub exit: Big,
    pub inside: bool,
    pub contact: Option<Vec<Big>>,
    pub exact: bool,
    /// Where Newton's method can start for a slightly changed case (ellipsoids).
    pub hint: Option<Hint>,
}

/// The roots `(t, s)` at entry and exit, as starting points for a nearby case.
#[derive(Clone, Copy, Debug)]
pub struct Hint {
    enter: (f64, f64),
    exit: (f64, f64),
}

fn zero() -> Big {
    big(0.0)
}

/// A ball of radius `r` moving along `o + t·n` against the box `[lo, hi]`.
pub fn box_sweep(o: &[Big], n: &[Big], lo: &[Big], hi: &[Big], r: &Big) -> Option<Swept> {
    let d = o.len();
    let scale = o.iter().chain(lo).chain(hi).fold(big(1.0) + r, |m, x| {
        let a = if *x < zero() { -x } else { x.clone() };
        if a > m { a } else { m }
    });
    // Points on a feature boundary are accepted on both sides, within rounding at 256 bits.
    let tol = scale * big(2f64.powi(-220));
    let mut enter: Option<Big> = None;
    let mut exit: Option<Big> = None;
    for code in 1..3usize.pow(d as u32) {
        let sides: Vec<usize> = (0..d).map(|i| code / 3usize.pow(i as u32) % 3).collect();
        let (mut qa, mut qb, mut qc) = (zero(), zero(), -(r * r));
        for i in 0..d {
            let bound = match sides[i] {
                1 => &lo[i],
                2 => &hi[i],
                _ => continue,
            };
            let f = &o[i] - bound;
            qa += &n[i] * &n[i];
            qb += &f * &n[i];
            qc += &f * &f;
        }
        if qa == zero() {
            continue;
        }
        let disc = &qb * &qb - &qa * &qc;
        if disc < zero() {
            continue;
        }
        let root = disc.sqrt();
        let on_feature = |t: &Big| {
            (0..d).all(|i| {
                let p = &o[i] + t * &n[i];
                match sides[i] {
                    1 => p <= &lo[i] + &tol,
                    2 => p >= &hi[i] - &tol,
                    _ => p >= &lo[i] - &tol && p <= &hi[i] + &tol,
                }
            })
        };
        let first = (-&qb - &root) / &qa;
        let last = (-&qb + &root) / &qa;
        if on_feature(&first) && enter.as_ref().is_none_or(|e| first < *e) {
            enter = Some(first);
        }
        if on_feature(&last) && exit.as_ref().is_none_or(|e| last > *e) {
            exit = Some(last);
        }
    }
    let mut dist2 = zero();
    for i in 0..d {
        let excess = if o[i] < lo[i] {
            &lo[i] - &o[i]
        } else if o[i] > hi[i] {
            &o[i] - &hi[i]
        } else {
            continue;
        };
        dist2 += &excess * &excess;
    }
    let enter = enter?;
    let exit = exit.unwrap_or_else(|| enter.clone());
    Some(Swept {
        enter,
        exit,
        inside: dist2 <= r * r,
        contact: None,
        exact: true,
        hint: None,
    })
}

/// Distance from `p` to the ellipsoid `|x / a| ≤ 1` in f64, and its multiplier `s`, by bisection
/// (slow and plain; only a starting point for the polish).
fn distance_f64(p: &[f64], a: &[f64]) -> (f64, f64) {
    let inside: f64 = p.iter().zip(a).map(|(x, a)| (x / a).powi(2)).sum();
    if inside <= 1.0 {
        return (0.0, 0.0);
    }
    let f = |s: f64| -> f64 {
        p.iter()
            .zip(a)
            .map(|(x, a)| (a * x / (a * a + s)).powi(2))
            .sum()
    };
    let (mut lo, mut hi) = (
        0.0,
        p.iter()
            .zip(a)
            .map(|(x, a)| (a * x).powi(2))
            .sum::<f64>()
            .sqrt(),
    );
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 1.0 { lo = mid } else { hi = mid }
    }
    let s = 0.5 * (lo + hi);
    let dist = s * p
        .iter()
        .zip(a)
        .map(|(x, a)| (x / (a * a + s)).powi(2))
        .sum::<f64>()
        .sqrt();
    (dist, s)
}

/// The parameter in `[from, to]` where `dist(o + t·n) = r`, the distance being monotone there.
fn bisect(o: &[f64], n: &[f64], a: &[f64], r: f64, from: f64, to: f64) -> (f64, f64) {
    let at = |t: f64| -> Vec<f64> { o.iter().zip(n).map(|(o, n)| o + t * n).collect() };
    let far_at_from = distance_f64(&at(from), a).0 > r;
    let (mut lo, mut hi) = (from, to);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo.min(hi) || mid >= lo.max(hi) {
            break;
        }
        if (distance_f64(&at(mid), a).0 > r) == far_at_from {
            lo = mid
        } else {
            hi = mid
        }
    }
    let t = 0.5 * (lo + hi);
    (t, distance_f64(&at(t), a).1)
}

/// Newton's method on the Lagrange system in `(t, s)` from a coarse root; `None` if it does not
/// converge to the working precision (a contact so near tangency that the system is singular).
fn polish(o: &[Big], n: &[Big], a: &[Big], r: &Big, t0: f64, s0: f64) -> Option<(Big, Big)> {
    let d = o.len();
    let (mut t, mut s) = (big(t0), big(s0));
    let tiny = big(2f64.powi(-200));
    for _ in 0..40 {
        let (mut g1, mut g2) = (big(-1.0), -(r * r));
        let (mut g1t, mut g1s, mut g2t, mut sum_p2_3) = (zero(), zero(), zero(), zero());
        let mut sum_p2_2 = zero();
        for i in 0..d {
            let p = &o[i] + &t * &n[i];
            let a2 = &a[i] * &a[i];
            let den = &a2 + &s;
            let den2 = &den * &den;
            let den3 = &den2 * &den;
            let p2 = &p * &p;
            g1 += &a2 * &p2 / &den2;
            g1t += big(2.0) * &a2 * &p * &n[i] / &den2;
            g1s -= big(2.0) * &a2 * &p2 / &den3;
            sum_p2_2 += &p2 / &den2;
            sum_p2_3 += &p2 / &den3;
            g2t += big(2.0) * &p * &n[i] / &den2;
        }
        g2 += &s * &s * &sum_p2_2;
        let g2t = &s * &s * &g2t;
        let g2s = big(2.0) * &s * &sum_p2_2 - big(2.0) * &s * &s * &sum_p2_3;
        let det = &g1t * &g2s - &g1s * &g2t;
        if det == zero() {
            return None;
        }
        let dt = (&g1 * &g2s - &g1s * &g2) / &det;
        let ds = (&g1t * &g2 - &g1 * &g2t) / &det;
        t = &t - &dt;
        s = &s - &ds;
        let small = |x: &Big, scale: &Big| {
            let ax = if *x < zero() { -x } else { x.clone() };
            let sc = if *scale < zero() {
                -scale
            } else {
                scale.clone()
            };
            ax <= &tiny * (sc + big(1e-30))
        };
        if small(&dt, &t) && small(&ds, &s) {
            return Some((t, s));
        }
    }
    None
}

/// The closest point `a_i² p_i / (a_i² + s)`.
fn closest(p: &[Big], a: &[Big], s: &Big) -> Vec<Big> {
    p.iter()
        .zip(a)
        .map(|(p, a)| a * a * p / (a * a + s))
        .collect()
}

/// A ball of radius `r` moving along `o + t·n` against the ellipsoid `|x / a| ≤ 1`; with a hint
/// from a nearby case, Newton's method starts there instead of at a coarse root.
pub fn ellipsoid_sweep(
    o: &[Big],
    n: &[Big],
    a: &[Big],
    r: &Big,
    hint: Option<Hint>,
) -> Option<Swept> {
    let f = |v: &[Big]| -> Vec<f64> { v.iter().map(super::reference::to_f64).collect() };
    let (of, nf, af, rf) = (f(o), f(n), f(a), super::reference::to_f64(r));
    let ((t_in, s_in), (t_out, s_out)) = match hint {
        Some(h) => (h.enter, h.exit),
        None => coarse_roots(&of, &nf, &af, rf)?,
    };
    let entry = polish(o, n, a, r, t_in, s_in);
    let exit = polish(o, n, a, r, t_out, s_out);
    let exact = entry.is_some() && exit.is_some();
    if hint.is_none() {
        // The polish solves the same equations as raysweep's final step: check its roots against
        // the coarse ones, found by bisection on the distance itself, so that an error in the
        // equations could not pass in both.
        let scale = 1.0 + of.iter().chain(&af).fold(rf, |m, x| m.max(x.abs()));
        for (root, coarse) in [(&entry, t_in), (&exit, t_out)] {
            if let Some((t, _)) = root {
                let gap = (super::reference::to_f64(t) - coarse).abs();
                assert!(
                    gap <= 1e-6 * scale,
                    "polished root {t:?} is {gap:e} from the bisected {coarse}"
                );
            }
        }
    }
    let (enter, s) = entry.unwrap_or((big(t_in), big(s_in)));
    let (exit, s_exit) = exit.unwrap_or((big(t_out), big(s_out)));
    let p: Vec<Big> = (0..o.len()).map(|i| &o[i] + &enter * &n[i]).collect();
    let contact = closest(&p, a, &s);
    let to_f64 = super::reference::to_f64;
    Some(Swept {
        hint: Some(Hint {
            enter: (to_f64(&enter), to_f64(&s)),
            exit: (to_f64(&exit), to_f64(&s_exit)),
        }),
        enter,
        exit,
        inside: touches_at_origin(o, a, r, &of, &af),
        contact: Some(contact),
        exact,
    })
}

/// Coarse entry and exit roots `(t, s)` in f64: the closest approach by ternary search (the
/// distance is convex along the line), then a bisection on either side of it.
fn coarse_roots(of: &[f64], nf: &[f64], af: &[f64], rf: f64) -> Option<((f64, f64), (f64, f64))> {
    // The line passes the centre closest at t_c; the swept body lies within |a| + r of it.
    let nn: f64 = nf.iter().map(|x| x * x).sum();
    let tc = -of.iter().zip(nf).map(|(o, n)| o * n).sum::<f64>() / nn;
    let reach = af.iter().map(|x| x * x).sum::<f64>().sqrt() + rf;
    let (from, to) = (tc - 2.0 * reach, tc + 2.0 * reach);
    let at = |t: f64| -> Vec<f64> { of.iter().zip(nf).map(|(o, n)| o + t * n).collect() };
    let (mut lo, mut hi) = (from, to);
    for _ in 0..100 {
        let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if distance_f64(&at(m1), af).0 < distance_f64(&at(m2), af).0 {
            hi = m2
        } else {
            lo = m1
        }
    }
    let closest_t = 0.5 * (lo + hi);
    if distance_f64(&at(closest_t), af).0 > rf {
        return None;
    }
    Some((
        bisect(of, nf, af, rf, from, closest_t),
        bisect(of, nf, af, rf, to, closest_t),
    ))
}

/// Whether the ball at `o` touches the ellipsoid: the multiplier polished by Newton's method on
/// the first equation, then the distance compared with `r`.
fn touches_at_origin(o: &[Big], a: &[Big], r: &Big, of: &[f64], af: &[f64]) -> bool {
    let (_, s0) = distance_f64(of, af);
    let mut level = big(0.0);
    for i in 0..o.len() {
        level += &o[i] * &o[i] / (&a[i] * &a[i]);
    }
    if level <= big(1.0) {
        return true;
    }
    let mut s = big(s0);
    for _ in 0..60 {
        let (mut g, mut dg) = (big(-1.0), zero());
        for i in 0..o.len() {
            let a2 = &a[i] * &a[i];
            let den = &a2 + &s;
            let term = &a2 * &o[i] * &o[i] / (&den * &den);
            dg -= big(2.0) * &term / &den;
            g += term;
        }
        s = &s - &g / &dg;
    }
    let mut dist2 = zero();
    for i in 0..o.len() {
        let q = &s * &o[i] / (&a[i] * &a[i] + &s);
        dist2 += &q * &q;
    }
    dist2 <= r * r
}
