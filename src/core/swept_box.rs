//! A ball moving along a line against a closed axis-aligned box: the exact swept volume, the box
//! grown by the radius with rounded edges and corners.
//!
//! Ericson (Real-Time Collision Detection, 2005, 5.5.7) first clips the line against the box grown
//! by `r`, then tests the edge capsules or the corner sphere where the entry point lies in an edge
//! or corner region, because the grown box alone reports phantom hits in the corner gaps. This is
//! the same idea in a form that needs no case table and works in any dimension:
//!
//! - the squared distance from a point `x` to the box is `Σ_{i∈S} (x_i − b_i)²`, where `S` is the
//!   set of axes on which `x` lies outside `[min_i, max_i]` and `b_i` the bound it lies beyond;
//! - along the line, `S` only changes where a coordinate crosses a bound, so between those
//!   breakpoints the distance is one quadratic: a face (`|S| = 1`), whose contact
//!   `|f + t·n_i| = r` is solved directly, or an edge cylinder (`|S| = 2`) or corner sphere
//!   (`|S| = D`), solved by the quadratic core in the subspace of `S`;
//! - the first stretch whose quadratic reaches the radius holds the first contact.
//!
//! The search starts where the line enters the grown box (rounded outward, so never after the
//! contact) and visits at most `2D + 1` stretches.

use nalgebra::SVector;

use super::exact::{Dot2, Products, two_sum};
use super::quadratic::{Offset, Shortcut, line_ball};
use super::slab::{LineBox, line_box, without_subnormals};

/// Whether a ball of radius `r` centred at `o` touches the closed box: the squared distance,
/// accumulated from exact excesses in twice the working precision (its error-free products formed
/// by `products`), is at most `r²`.
#[inline(always)]
pub(crate) fn touches<const D: usize>(
    o: &SVector<f64, D>,
    min: &SVector<f64, D>,
    max: &SVector<f64, D>,
    r: f64,
    products: Products,
) -> bool {
    let mut acc = Dot2::new(products);
    for i in 0..D {
        let (e, e_lo) = if o[i] < min[i] {
            two_sum(min[i], -o[i])
        } else if o[i] > max[i] {
            two_sum(o[i], -max[i])
        } else {
            continue;
        };
        acc.add(e, e);
        acc.add(2.0 * e, e_lo);
    }
    acc.add(r, -r);
    acc.value() <= 0.0
}

/// The crossing of the line `o + t·n` with the box grown by `r`, its bounds rounded outward.
/// Components of `n` below `2^-1022` are taken as zero ([`without_subnormals`]): a ray's direction
/// has none; an ellipsoid's direction in its own frame may, and there this box only bounds the
/// search, which that moves by less than `|t|·2^-1022`.
///
/// In line wherever it is called: out of line, its 16-byte load of a direction the caller had
/// just stored in 8-byte pieces could not be forwarded and waited, a quarter of an `f32` box
/// sweep's time (docs/performance.md).
#[inline(always)]
pub(crate) fn grown_box<const D: usize>(
    o: &SVector<f64, D>,
    n: &SVector<f64, D>,
    min: &SVector<f64, D>,
    max: &SVector<f64, D>,
    r: f64,
) -> Option<LineBox<D>> {
    let outward = |b: f64, delta: f64| {
        let (s, e) = two_sum(b, delta);
        if e * delta > 0.0 {
            if delta > 0.0 {
                s.next_up()
            } else {
                s.next_down()
            }
        } else {
            s
        }
    };
    // Element by element rather than by `map`, which the compiler left out of line: its results,
    // stored in pieces and read back whole, waited on store forwarding (docs/performance.md).
    let (mut lo, mut hi) = (*min, *max);
    for i in 0..D {
        lo[i] = outward(min[i], -r);
        hi[i] = outward(max[i], r);
    }
    line_box(o, &without_subnormals(n), &lo, &hi)
}

/// The first parameter `t ≥ start` at which the ball of radius `r` centred at `o + t·n` touches
/// the box, given that it does not overlap it before `start`; `None` if it never does. The
/// quadratic core's plain evaluation is taken where `shortcut` accepts it, and error-free products
/// are formed by `shortcut.products`. In line wherever it is called, so that it is compiled for
/// FMA where its caller is ([`Products`]).
#[inline(always)]
pub(crate) fn first_touch<const D: usize>(
    o: &SVector<f64, D>,
    n: &SVector<f64, D>,
    min: &SVector<f64, D>,
    max: &SVector<f64, D>,
    r: f64,
    start: f64,
    shortcut: Shortcut,
) -> Option<f64> {
    // Where each coordinate of the centre crosses each bound (infinite where it never does).
    let mut crossings = [[f64::INFINITY; 2]; D];
    for i in 0..D {
        if n[i] != 0.0 {
            crossings[i] = [(min[i] - o[i]) / n[i], (max[i] - o[i]) / n[i]];
        }
    }
    let mut t = start;
    for _ in 0..=2 * D {
        // The next breakpoint after t.
        let next = crossings.iter().flatten().fold(f64::INFINITY, |next, &at| {
            if at > t && at < next { at } else { next }
        });
        // Which axes are outside on (t, next), judged inside the stretch, away from its ends.
        let probe = if next.is_finite() {
            0.5 * t + 0.5 * next
        } else {
            t + 1.0 + t.abs()
        };
        let mut f_hi = SVector::<f64, D>::zeros();
        let mut f_lo = SVector::<f64, D>::zeros();
        let mut dir = SVector::<f64, D>::zeros();
        let mut outside = 0;
        // The last outside axis's `f_hi`, `f_lo` and direction component: the face's when it is
        // the only one.
        let mut face = (0.0, 0.0, 0.0);
        for i in 0..D {
            let x = o[i] + probe * n[i];
            let (below, above) = (x < min[i], x > max[i]);
            // An axis inside its slab gets `o − o`, exactly zero with a zero error, rather than
            // being skipped: skipped axes left the offset stored element by element and read
            // back whole, which waited on store forwarding (docs/performance.md).
            let b = if below {
                min[i]
            } else if above {
                max[i]
            } else {
                o[i]
            };
            (f_hi[i], f_lo[i]) = two_sum(o[i], -b);
            if below || above {
                outside += 1;
                dir[i] = n[i];
                face = (f_hi[i], f_lo[i], n[i]);
            }
        }
        if outside == 0 {
            // The centre is in the box on this stretch, so the ball touched it by its start.
            return Some(t);
        }
        let offset = Offset::new(f_hi, f_lo);
        let (face_hi, face_lo, face_n) = face;
        if outside == 1 && face_n != 0.0 {
            // A face: |f + t·n_i| = r has the roots (−f ∓ r)/n_i, with f = f_hi + f_lo exact.
            let one = ((-face_hi - r) - face_lo) / face_n;
            let other = ((-face_hi + r) - face_lo) / face_n;
            let (near, far) = (one.min(other), one.max(other));
            if far >= t && near <= next {
                return Some(near.max(t));
            }
        } else if dir.iter().all(|d| *d == 0.0) {
            // The centre keeps a constant distance from this face, edge or corner.
            if offset.power(r, shortcut.products) <= 0.0 {
                return Some(t);
            }
        } else if let Some(x) = line_ball(&offset, &dir, r, shortcut) {
            // The quadratic's distances run along dir/|dir|; parameters along n are dir_len
            // times smaller.
            let (near, far) = (x.near / x.dir_len, x.far / x.dir_len);
            if far >= t && near <= next {
                return Some(near.max(t));
            }
        }
        if !next.is_finite() {
            return None;
        }
        t = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Vector2, Vector3};

    fn unit_square() -> (Vector2<f64>, Vector2<f64>) {
        (Vector2::new(0.0, 0.0), Vector2::new(1.0, 1.0))
    }

    #[test]
    fn face_contact_is_at_the_grown_face() {
        let (lo, hi) = unit_square();
        let o = Vector2::new(-5.0, 0.5);
        let t = first_touch(&o, &Vector2::x(), &lo, &hi, 0.25, -10.0, Shortcut::NEVER).unwrap();
        assert_eq!(t, 4.75);
    }

    #[test]
    fn corner_gap_of_the_grown_box_is_missed() {
        // The line x + y = −0.4 crosses the grown box [−0.25, 1.25]² near (−0.2, −0.2), but its
        // distance from the corner (0, 0) is 0.4/√2 ≈ 0.283 > r.
        let (lo, hi) = unit_square();
        let n = Vector2::new(1.0, -1.0).normalize();
        let o = Vector2::new(-0.2, -0.2);
        let r = 0.25;
        assert!(grown_box(&o, &n, &lo, &hi, r).is_some());
        assert_eq!(
            first_touch(&o, &n, &lo, &hi, r, -10.0, Shortcut::NEVER),
            None
        );
    }

    #[test]
    fn corner_contact_is_the_corner_sphere() {
        let lo = Vector3::new(0.0, 0.0, 0.0);
        let hi = Vector3::new(1.0, 1.0, 1.0);
        // Along x, passing the corner (1, 1, 1) at a perpendicular distance of 0.6 = 0.8 · r.
        let o = Vector3::new(5.0, 1.0 + 0.36, 1.0 + 0.48);
        let t = first_touch(&o, &-Vector3::x(), &lo, &hi, 0.75, -10.0, Shortcut::NEVER).unwrap();
        // Contact where (x − 1)² + 0.6² = 0.75², i.e. x = 1.45.
        assert!((t - 3.55).abs() < 1e-15);
    }

    #[test]
    fn touching_is_decided_exactly() {
        let (lo, hi) = unit_square();
        for products in [Products::Split, Products::Fused] {
            assert!(touches(&Vector2::new(1.5, 1.0), &lo, &hi, 0.5, products));
            let beyond = Vector2::new(1.5f64.next_up(), 1.0);
            assert!(!touches(&beyond, &lo, &hi, 0.5, products));
            assert!(touches(&Vector2::new(1.3, 1.4), &lo, &hi, 0.5, products));
        }
    }
}
