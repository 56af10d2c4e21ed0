//! A line against a ball: both intersection distances, and the contact offsets, to the last bits.
//!
//! For the line `o + t·n` (`n` unit) and the ball of centre `c` and radius `r`, with `f = o − c`
//! and `b = f·n`, the distances are the roots of `t² + 2bt + (|f|² − r²) = 0`. The textbook
//! evaluation `−b ± √(b² − |f|² + r²)` cancels catastrophically far from the ball; this core follows
//! Haines, Günther and Akenine-Möller, "Precision Improvements for Ray/Sphere Intersection" (Ray
//! Tracing Gems, ch. 7, 2019):
//!
//! - the discriminant is `r² − |f − b·n|²`, the squared half chord, computed from the
//!   perpendicular offset `f − b·n` of the centre rather than as a difference of huge squares;
//! - the roots are `q` and `C/q` with `q = −(b + sign(b)·√disc)` and `C = |f|² − r²` (Press et al.,
//!   Numerical Recipes, 5.6), so neither root is a difference of nearly equal numbers.
//!
//! On top of that, `b`, `C` and the discriminant are accumulated with the compensated dot product
//! of [`super::exact`], and `f` is kept as the exact unevaluated sum `f_hi + f_lo`, so `C` (which
//! decides inside or outside and gives the near root) is right even when the origin lies within an
//! ulp of a huge sphere. The closest approach `f − (f·n)n/(n·n)` is formed in twice the working
//! precision, and the direction need not be exactly unit: `n·n` is accounted for, so an `f64`
//! direction that is unit only to within an ulp costs nothing. Before any square is formed the
//! problem is scaled by a power of two (exact) so that nothing underflows or overflows for tiny or
//! huge spheres.
//!
//! All that compensation is the slow path. [`line_ball`] first evaluates the same formulas in
//! plain `f64` and returns that result when a [`Shortcut`] (chosen by the caller for the result's
//! width and the contact point's magnitude) says its rounding cannot show: no cancellation beyond a
//! margin in `C` or in the discriminant, and an origin not too far from the ball.

use nalgebra::SVector;

use super::exact::{Dot2, div_pair, two_product, two_sum};
use crate::real::sqrt;

/// The offset `f = o − c` of a line's origin from a ball's centre, as an exact unevaluated sum
/// `hi + lo` when it comes from [`Offset::between`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Offset<const D: usize> {
    hi: SVector<f64, D>,
    lo: SVector<f64, D>,
}

impl<const D: usize> Offset<D> {
    /// `o − c`, exactly (barring overflow).
    #[inline]
    pub(crate) fn between(o: &SVector<f64, D>, c: &SVector<f64, D>) -> Self {
        let mut hi = SVector::zeros();
        let mut lo = SVector::zeros();
        for i in 0..D {
            (hi[i], lo[i]) = two_sum(o[i], -c[i]);
        }
        Offset { hi, lo }
    }

    /// The offset `hi + lo`, a pair from a compensated computation.
    #[inline]
    pub(crate) fn new(hi: SVector<f64, D>, lo: SVector<f64, D>) -> Self {
        Offset { hi, lo }
    }

    /// The rounded offset.
    #[inline]
    pub(crate) fn hi(&self) -> &SVector<f64, D> {
        &self.hi
    }

    /// The rounding error of [`Offset::hi`].
    #[inline]
    pub(crate) fn lo(&self) -> &SVector<f64, D> {
        &self.lo
    }

    /// An offset already known (rounded) as one vector.
    #[inline]
    pub(crate) fn from_vector(v: SVector<f64, D>) -> Self {
        Offset {
            hi: v,
            lo: SVector::zeros(),
        }
    }

    /// `|f|² − r²`, as if computed in twice the working precision: its sign says exactly whether the
    /// origin lies in the closed ball except within about `2^-100` relative of the surface.
    #[inline]
    pub(crate) fn power(&self, r: f64) -> f64 {
        let scale = Scale::of(self, r);
        power_scaled(&scale.apply(self), r * scale.down)
    }
}

/// A power of two that brings the largest of `|f|∞` and `r` into `[1, 2)`, and its inverse.
#[derive(Clone, Copy)]
struct Scale {
    down: f64,
    up: f64,
}

impl Scale {
    #[inline]
    fn of<const D: usize>(f: &Offset<D>, r: f64) -> Self {
        let m = f.hi.iter().fold(r.abs(), |m, x| m.max(x.abs()));
        // The unbiased exponent of m, clamped so that both 2^-e and 2^e are normal numbers.
        let e = (((m.to_bits() >> 52) & 0x7ff) as i32 - 1023).clamp(-1022, 1022);
        Scale {
            down: pow2(-e),
            up: pow2(e),
        }
    }

    #[inline]
    fn apply<const D: usize>(&self, f: &Offset<D>) -> Offset<D> {
        Offset {
            hi: f.hi * self.down,
            lo: f.lo * self.down,
        }
    }
}

/// `2^e` for `e` in `[-1022, 1023]`.
#[inline]
fn pow2(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// `|f|² − r²` in twice the working precision, for an already scaled problem.
#[inline]
fn power_scaled<const D: usize>(f: &Offset<D>, r: f64) -> f64 {
    let mut acc = Dot2::new();
    for i in 0..D {
        acc.add(f.hi[i], f.hi[i]);
        acc.add(2.0 * f.hi[i], f.lo[i]);
    }
    acc.add(r, -r);
    acc.value()
}

/// Where the line `f + s·n` passes closest to the origin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Approach<const D: usize> {
    /// The perpendicular offset `f − (f·n / n·n)·n`: the closest point.
    pub(crate) perp: SVector<f64, D>,
    /// The parameter `s` of the closest point, `−(f·n)/(n·n)`, as an unevaluated pair.
    pub(crate) foot: (f64, f64),
    /// `f·n̂`: the distance along the line from the closest point back to `f`.
    pub(crate) along: f64,
    /// `|n|`.
    pub(crate) len: f64,
}

/// The closest approach of the line `f + s·n` (any non-zero `n`) to the origin, in twice the
/// working precision: `f·n` and `n·n` are Dot2 pairs and the foot of the perpendicular is a
/// pair too, so that `f − (f·n / n·n)·n` keeps its low bits even when `|f|` is many times the
/// result.
#[inline]
pub(crate) fn closest_approach<const D: usize>(f: &Offset<D>, n: &SVector<f64, D>) -> Approach<D> {
    let mut b = Dot2::new();
    let mut a = Dot2::new();
    for i in 0..D {
        b.add(f.hi[i], n[i]);
        b.add(f.lo[i], n[i]);
        a.add(n[i], n[i]);
    }
    let (b_hi, b_lo) = b.pair();
    let (a_hi, a_lo) = a.pair();
    let (foot_hi, foot_lo) = div_pair(b_hi, b_lo - b_hi / a_hi * a_lo, a_hi);
    let mut perp = SVector::zeros();
    for i in 0..D {
        let (m, m_err) = two_product(foot_hi, n[i]);
        perp[i] = (f.hi[i] - m) + (f.lo[i] - m_err - foot_lo * n[i]);
    }
    let len = sqrt(a_hi);
    Approach {
        perp,
        foot: (-foot_hi, -foot_lo),
        along: (b_hi + b_lo) / len,
        len,
    }
}

/// Where a line crosses a closed ball.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineBall<const D: usize> {
    /// Distance to the entry (the smaller root); negative when the entry lies behind the origin.
    pub(crate) near: f64,
    /// Distance to the exit (the larger root).
    pub(crate) far: f64,
    /// Whether the origin lies in the closed ball (`|f| <= r`).
    pub(crate) inside: bool,
    /// The length of the direction vector the line was given.
    pub(crate) dir_len: f64,
    /// The perpendicular offset `f − (f·n̂)·n̂` of the line from the centre (closest approach).
    perp: SVector<f64, D>,
    /// Half the chord length, `√disc`.
    half_chord: f64,
}

impl<const D: usize> LineBall<D> {
    /// The entry point relative to the centre, `perp − √disc·n̂`: computed from the closest
    /// approach rather than as `f + near·n̂`, which would cancel for far origins.
    #[inline]
    pub(crate) fn entry_offset(&self, n: &SVector<f64, D>) -> SVector<f64, D> {
        self.perp - n * (self.half_chord / self.dir_len)
    }
}

/// When the plain `f64` evaluation of [`line_ball`] is precise enough to be returned.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shortcut {
    /// Smallest `|C|` and `|disc|` accepted, relative to `|f|² + r²`: below it the plain values
    /// have cancelled too much (an origin next to the surface, a nearly tangent line).
    pub(crate) cancel: f64,
    /// Largest `|f|²` accepted: the plain closest approach loses about `|f|·ε`, which must stay
    /// small against the contact point the caller builds from it.
    pub(crate) reach2: f64,
}

impl Shortcut {
    /// The shortcut for results rounded to `f32`: 29 guard bits absorb everything but extreme
    /// cancellation.
    const NARROW: (f64, f64) = (1.0 / 1048576.0, 16777216.0);
    /// The shortcut for `f64` results, which keep the plain evaluation within a few ulps.
    const WIDE: (f64, f64) = (0.25, 2.0);

    /// The shortcut for a caller that needs only the distances, not the closest approach: no limit
    /// on how far the origin may be (the cancellation margins still guard the distances).
    #[inline]
    pub(crate) fn distances_only<T: crate::Real>() -> Self {
        Shortcut {
            reach2: f64::INFINITY,
            ..Self::of::<T>(0.0)
        }
    }

    /// The shortcut for a result of width `T` whose contact point has a coordinate of magnitude
    /// at least `point_scale`.
    #[inline]
    pub(crate) fn of<T: crate::Real>(point_scale: f64) -> Self {
        // A width narrower than f64 has guard bits to spare.
        let (cancel, reach) = if T::EPSILON_WIDE > f64::EPSILON {
            Self::NARROW
        } else {
            Self::WIDE
        };
        let limit = reach * point_scale;
        Shortcut {
            cancel,
            reach2: limit * limit,
        }
    }
}

/// The plain `f64` evaluation of [`line_ball`] (the same formulas, without compensation):
/// `Some(answer)` when [`Shortcut`] accepts it, `None` when the compensated path must decide.
#[inline]
fn line_ball_plain<const D: usize>(
    f: &SVector<f64, D>,
    n: &SVector<f64, D>,
    r: f64,
    shortcut: Shortcut,
) -> Option<Option<LineBall<D>>> {
    let a = n.dot(n);
    let b = f.dot(n);
    let ff = f.dot(f);
    let rr = r * r;
    let c = ff - rr;
    let scale = ff + rr;
    let inv_len = 1.0 / sqrt(a);
    let along = b * inv_len;
    let perp = f - n * (along * inv_len);
    let disc = rr - perp.dot(&perp);
    let margin = shortcut.cancel * scale;
    // 2^±900 keeps every square and product above clear of underflow and overflow.
    const LIMITS: (f64, f64) = (1.2e-271, 8.5e270);
    let accepted = c.abs() >= margin
        && disc.abs() >= margin
        && ff <= shortcut.reach2
        && scale >= LIMITS.0
        && scale <= LIMITS.1
        && a >= LIMITS.0
        && a <= LIMITS.1;
    if !accepted {
        return None;
    }
    if disc < 0.0 {
        return Some(None);
    }
    let half_chord = sqrt(disc);
    let q = -(along + half_chord.copysign(along));
    let other = c / q;
    Some(Some(LineBall {
        near: q.min(other),
        far: q.max(other),
        inside: c <= 0.0,
        dir_len: a * inv_len,
        perp,
        half_chord,
    }))
}

/// The crossing of the line `o + s·n` with the closed ball of radius `r` around `c`, given
/// `f = o − c`; `None` when the line misses the ball (or when an input is not finite).
///
/// `n` is any non-zero vector; it need not be unit. Distances are Euclidean, along `n̂ = n/|n|`,
/// in the units of `f` and `r`.
///
/// The plain `f64` evaluation is tried first and returned when `shortcut` accepts it (the common
/// case); otherwise the compensated evaluation below decides.
#[inline]
pub(crate) fn line_ball<const D: usize>(
    f: &Offset<D>,
    n: &SVector<f64, D>,
    r: f64,
    shortcut: Shortcut,
) -> Option<LineBall<D>> {
    match line_ball_plain(&f.hi, n, r, shortcut) {
        Some(answer) => answer,
        None => line_ball_exact(f, n, r),
    }
}

/// [`line_ball`] in twice the working precision where it matters.
fn line_ball_exact<const D: usize>(
    f: &Offset<D>,
    n: &SVector<f64, D>,
    r: f64,
) -> Option<LineBall<D>> {
    let scale = Scale::of(f, r);
    let f = scale.apply(f);
    let r = r * scale.down;
    let dir_scale = Scale::of(&Offset::from_vector(*n), 0.0);
    let n = n * dir_scale.down;

    let Approach {
        perp, along, len, ..
    } = closest_approach(&f, &n);

    let c = power_scaled(&f, r);
    let inside = c <= 0.0;
    let mut disc = Dot2::new();
    disc.add(r, r);
    for i in 0..D {
        disc.add(perp[i], -perp[i]);
    }
    let mut disc = disc.value();
    if disc < 0.0 {
        if !inside {
            return None;
        }
        // The origin is in the ball, so the line meets it: the negative value is rounding.
        disc = 0.0;
    }
    let half_chord = sqrt(disc);
    let q = -(along + half_chord.copysign(along));
    let (near, far) = if q == 0.0 {
        (0.0, 0.0)
    } else {
        let other = c / q;
        (q.min(other), q.max(other))
    };
    if !(near <= far) {
        return None;
    }
    Some(LineBall {
        near: near * scale.up,
        far: far * scale.up,
        inside,
        dir_len: len * dir_scale.up,
        perp: perp * scale.up,
        half_chord: half_chord * scale.up,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    fn cross(o: [f64; 3], n: [f64; 3], r: f64) -> Option<LineBall<3>> {
        let f = Offset::between(&Vector3::from(o), &Vector3::zeros());
        // No shortcut: the compensated path itself is under test.
        let never = Shortcut {
            cancel: f64::INFINITY,
            reach2: 0.0,
        };
        line_ball(&f, &Vector3::from(n).normalize(), r, never)
    }

    #[test]
    fn head_on_roots_are_exact() {
        let x = cross([-5.0, 0.0, 0.0], [1.0, 0.0, 0.0], 2.0).unwrap();
        assert_eq!((x.near, x.far, x.inside), (3.0, 7.0, false));
    }

    #[test]
    fn tangent_line_touches_once() {
        let x = cross([-5.0, 2.0, 0.0], [1.0, 0.0, 0.0], 2.0).unwrap();
        assert_eq!((x.near, x.far), (5.0, 5.0));
        assert!(cross([-5.0, 2.0f64.next_up(), 0.0], [1.0, 0.0, 0.0], 2.0).is_none());
    }

    #[test]
    fn origin_at_the_centre_of_a_point_ball() {
        let x = cross([0.0; 3], [0.0, 1.0, 0.0], 0.0).unwrap();
        assert_eq!((x.near, x.far, x.inside), (0.0, 0.0, true));
    }

    #[test]
    fn tiny_and_huge_balls_do_not_underflow_or_overflow() {
        for k in [-700, 700] {
            let s = f64::powi(2.0, k);
            let x = cross([-5.0 * s, 3.0 * s, 0.0], [1.0, 0.0, 0.0], 5.0 * s).unwrap();
            assert_eq!((x.near, x.far), (1.0 * s, 9.0 * s));
        }
    }
}
