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
//! margin in `C` or in the discriminant, and, for `f32` results, an origin not too far from the
//! ball. For `f64` results the plain evaluation forms the closest approach by [`projected`]
//! (exact products, then a second projection), which keeps it to a few ulps of its own size
//! however far the origin is, so that only cancellation sends a line to the slow path.

use nalgebra::SVector;

use super::exact::{Dot2, Products, div_pair, two_product, two_sum};
use super::lane::{Lane, Mask, build, dot, scale, sub_scaled};

/// The offset `f = o − c` of a line's origin from a ball's centre, as an exact unevaluated sum
/// `hi + lo` when it comes from [`Offset::between`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Offset<const D: usize, L = f64> {
    hi: [L; D],
    lo: [L; D],
}

impl<const D: usize, L: Lane> Offset<D, L> {
    /// `o − c`, exactly (barring overflow), in each lane.
    #[inline(always)]
    pub(crate) fn between_lanes(o: &[L; D], c: &[L; D]) -> Self {
        let mut f = Offset {
            hi: [L::default(); D],
            lo: [L::default(); D],
        };
        for i in 0..D {
            (f.hi[i], f.lo[i]) = two_sum(o[i], -c[i]);
        }
        f
    }

    /// `|f|² − r²`, as if computed in twice the working precision (its error-free products formed
    /// by `products`): its sign says exactly whether the origin lies in the closed ball except
    /// within about `2^-100` relative of the surface.
    #[inline(always)]
    pub(crate) fn power(&self, r: L, products: Products) -> L {
        let scale = Scale::of_offset(self, r);
        power_scaled(&scale.apply(self), r * scale.down, products)
    }
}

impl<const D: usize> Offset<D> {
    /// `o − c`, exactly (barring overflow).
    #[inline]
    pub(crate) fn between(o: &SVector<f64, D>, c: &SVector<f64, D>) -> Self {
        Self::between_lanes(&(*o).into(), &(*c).into())
    }

    /// The offset `hi + lo`, a pair from a compensated computation.
    #[inline]
    pub(crate) fn new(hi: SVector<f64, D>, lo: SVector<f64, D>) -> Self {
        Offset {
            hi: hi.into(),
            lo: lo.into(),
        }
    }

    /// The rounded offset.
    #[inline]
    pub(crate) fn hi(&self) -> SVector<f64, D> {
        self.hi.into()
    }

    /// The rounding error of [`Offset::hi`].
    #[inline]
    pub(crate) fn lo(&self) -> SVector<f64, D> {
        self.lo.into()
    }

    /// An offset already known (rounded) as one vector.
    #[inline]
    pub(crate) fn from_vector(v: SVector<f64, D>) -> Self {
        Offset {
            hi: v.into(),
            lo: [0.0; D],
        }
    }

    /// `|f| − r` for `r ≥ 0`, to a few ulps also where the two nearly cancel (a point near a
    /// sphere's surface): `(|f|² − r²) / (|f| + r)`, the numerator as [`Offset::power`] forms it,
    /// on the problem scaled by a power of two so that no square overflows or underflows.
    pub(crate) fn excess(&self, r: f64, products: Products) -> f64 {
        let scale = Scale::of_offset(self, r);
        let f = scale.apply(self);
        let r = r * scale.down;
        let length = (SVector::from(f.hi) + SVector::from(f.lo)).norm();
        if length + r == 0.0 {
            return 0.0;
        }
        power_scaled(&f, r, products) / (length + r) * scale.up
    }
}

/// A power of two that brings the largest of `|f|∞` and `r` into `[1, 2)`, and its inverse.
#[derive(Clone, Copy)]
struct Scale<L> {
    down: L,
    up: L,
}

impl<L: Lane> Scale<L> {
    #[inline(always)]
    fn of<const D: usize>(f: &[L; D], r: L) -> Self {
        // A plain loop, not `fold` with a closure: everything on lanes must inline into the
        // batch's code compiled for its registers (crate::batch::avx).
        let mut m = r.abs();
        for x in f {
            m = m.max(x.abs());
        }
        let (down, up) = m.pow2_scale();
        Scale { down, up }
    }

    #[inline(always)]
    fn apply<const D: usize>(&self, f: &Offset<D, L>) -> Offset<D, L> {
        Offset {
            hi: scale(&f.hi, self.down),
            lo: scale(&f.lo, self.down),
        }
    }

    /// The scale of an offset and a radius.
    #[inline(always)]
    fn of_offset<const D: usize>(f: &Offset<D, L>, r: L) -> Self {
        Self::of(&f.hi, r)
    }
}

/// `|f|² − r²` in twice the working precision, for an already scaled problem.
#[inline(always)]
fn power_scaled<L: Lane, const D: usize>(f: &Offset<D, L>, r: L, products: Products) -> L {
    let mut acc = Dot2::new(products);
    for i in 0..D {
        acc.add(f.hi[i], f.hi[i]);
        acc.add(L::splat(2.0) * f.hi[i], f.lo[i]);
    }
    acc.add(r, -r);
    acc.value()
}

/// Where the line `f + s·n` passes closest to the origin.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Approach<const D: usize, L = f64> {
    /// The perpendicular offset `f − (f·n / n·n)·n`: the closest point.
    pub(crate) perp: [L; D],
    /// The parameter `s` of the closest point, `−(f·n)/(n·n)`, as an unevaluated pair.
    pub(crate) foot: (L, L),
    /// `f·n̂`: the distance along the line from the closest point back to `f`.
    pub(crate) along: L,
    /// `|n|`.
    pub(crate) len: L,
}

/// The closest approach of the line `f + s·n` (any non-zero `n`) to the origin, in twice the
/// working precision: `f·n` and `n·n` are Dot2 pairs and the foot of the perpendicular is a
/// pair too, so that `f − (f·n / n·n)·n` keeps its low bits even when `|f|` is many times the
/// result. Its error-free products are formed by `products`.
#[inline(always)]
pub(crate) fn closest_approach<L: Lane, const D: usize>(
    f: &Offset<D, L>,
    n: &[L; D],
    products: Products,
) -> Approach<D, L> {
    let mut b = Dot2::new(products);
    let mut a = Dot2::new(products);
    for ((&hi, &lo), &n) in f.hi.iter().zip(&f.lo).zip(n) {
        b.add(hi, n);
        b.add(lo, n);
        a.add(n, n);
    }
    let (b_hi, b_lo) = b.pair();
    let (a_hi, a_lo) = a.pair();
    let (foot_hi, foot_lo) = div_pair(b_hi, b_lo - b_hi / a_hi * a_lo, a_hi, products);
    let perp = build(
        #[inline(always)]
        |i| {
            let (m, m_err) = two_product(foot_hi, n[i], products);
            (f.hi[i] - m) + (f.lo[i] - m_err - foot_lo * n[i])
        },
    );
    let len = a_hi.sqrt();
    Approach {
        perp,
        foot: (-foot_hi, -foot_lo),
        along: (b_hi + b_lo) / len,
        len,
    }
}

/// Where a line crosses a closed ball.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LineBall<const D: usize, L: Lane = f64> {
    /// Distance to the entry (the smaller root); negative when the entry lies behind the origin.
    pub(crate) near: L,
    /// Distance to the exit (the larger root).
    pub(crate) far: L,
    /// Whether the origin lies in the closed ball (`|f| <= r`).
    pub(crate) inside: L::Mask,
    /// The length of the direction vector the line was given.
    pub(crate) dir_len: L,
    /// The perpendicular offset `f − (f·n̂)·n̂` of the line from the centre (closest approach).
    perp: [L; D],
    /// The step `√disc/|n|` along `n` from the closest approach back to the entry.
    chord_step: L,
    /// The parameter of the closest approach along `n` (per `|n|`, not per unit length):
    /// `−(f·n)/(n·n)`.
    foot: L,
}

impl<const D: usize, L: Lane> LineBall<D, L> {
    /// The entry point relative to the centre, `perp − √disc·n̂`: computed from the closest
    /// approach rather than as `f + near·n̂`, which would cancel for far origins.
    #[inline(always)]
    pub(crate) fn entry_offset_lanes(&self, n: &[L; D]) -> [L; D] {
        sub_scaled(&self.perp, self.chord_step, n)
    }

    /// `yes` in the lanes where `mask` is set, `no` elsewhere.
    #[inline(always)]
    fn select(mask: L::Mask, yes: &Self, no: &Self) -> Self {
        let pick = |a, b| L::select(mask, a, b);
        LineBall {
            near: pick(yes.near, no.near),
            far: pick(yes.far, no.far),
            inside: mask.select(yes.inside, no.inside),
            dir_len: pick(yes.dir_len, no.dir_len),
            perp: build(|i| pick(yes.perp[i], no.perp[i])),
            chord_step: pick(yes.chord_step, no.chord_step),
            foot: pick(yes.foot, no.foot),
        }
    }
}

impl<const D: usize> LineBall<D> {
    /// The entry and exit as parameters along the line's direction `n` (in units of `|n|`, not of
    /// length), where the closest approach lies at least [`FAR_FOOT`] half chords from the origin:
    /// there `foot ∓ chord_step` cancels by at most `8/7` and is accurate to about an ulp of the
    /// foot, with no rounding of `|n|`, which converting the distances would cost (the ellipsoid's
    /// change of frame, docs/performance.md). `None` nearer.
    #[inline]
    pub(crate) fn parameters(&self) -> Option<(f64, f64)> {
        far_foot(self.foot, self.chord_step)
            .then_some((self.foot - self.chord_step, self.foot + self.chord_step))
    }

    /// [`LineBall::entry_offset_lanes`] for one line.
    #[inline]
    pub(crate) fn entry_offset(&self, n: &SVector<f64, D>) -> SVector<f64, D> {
        self.entry_offset_lanes(&(*n).into()).into()
    }
}

/// How many half chords (`chord_step`) the closest approach must lie from the origin for
/// [`LineBall::parameters`].
const FAR_FOOT: f64 = 8.0;

/// Whether the closest approach at parameter `foot` lies at least [`FAR_FOOT`] half chords of
/// `chord_step` from the origin, in each lane.
#[inline(always)]
fn far_foot<L: Lane>(foot: L, chord_step: L) -> L::Mask {
    (L::splat(FAR_FOOT) * chord_step).le(foot.abs())
}

/// When the plain `f64` evaluation of [`line_ball`] is precise enough to be returned, and how it
/// forms the closest approach.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shortcut {
    /// Smallest `|C|` accepted, relative to `|f|² + r²`: below it the plain `C` has cancelled too
    /// much (an origin next to the surface).
    pub(crate) cancel: f64,
    /// Smallest `|disc|` accepted, relative to the sum of the squares it is the difference of
    /// (`r² + |f|²` for a plain closest approach, `r² + |p|²` for a [`projected`] one, which adds
    /// [`PROJECTED_FLOOR`]` · |f|²`): below it the line is too nearly tangent.
    pub(crate) graze: f64,
    /// Largest `|f|²` accepted: a closest approach formed in one plain step loses about `|f|·ε`,
    /// which must stay small against the contact point the caller builds from it. A [`projected`]
    /// one does not, and is limited only for a caller that rounds the distances again
    /// ([`Shortcut::rescaled`]).
    pub(crate) reach2: f64,
    /// Whether the closest approach is formed by [`projected`], to a few ulps of its own size
    /// however far the origin, rather than in one plain step.
    pub(crate) exact_products: bool,
    /// The caller's promise that `||n|² − 1| ≤ 2^-16`, as for a ray's stored direction (see
    /// [`length_and_inverse`]).
    pub(crate) unit_direction: bool,
    /// Whether the roots are `−b ∓ √disc`, without the division of `q` and `C/q` (see
    /// [`line_ball_plain`]): as precise as those but for a few times `2^-52` over the margins,
    /// which only a width narrower than `f64` can spare.
    pub(crate) subtracted_roots: bool,
    /// Whether an origin beyond `reach2` is accepted where its closest approach is far enough
    /// for [`LineBall::parameters`], which such a caller then uses.
    pub(crate) far_by_parameter: bool,
    /// Whether a line this shortcut refuses is evaluated plainly once more, with a [`projected`]
    /// closest approach and no limit on `|f|`, before the compensated evaluation decides it (see
    /// [`line_ball_refused`]). For a shortcut without `exact_products` along an exact offset.
    pub(crate) project_refused: bool,
    /// How the error-free products of a [`projected`] closest approach and of the compensated
    /// evaluation are formed: [`Products::Split`] unless the caller runs in code compiled for FMA
    /// ([`Shortcut::with_products`]).
    pub(crate) products: Products,
}

impl Shortcut {
    /// The shortcut for `f64` results: margins that keep the plain values within a few ulps (a
    /// projected closest approach leaves the discriminant accurate to a few ulps of `r² + |p|²`),
    /// and no limit on far origins.
    const WIDE: Shortcut = Shortcut {
        cancel: 0.25,
        graze: 1.0 / 64.0,
        reach2: f64::INFINITY,
        exact_products: true,
        unit_direction: false,
        far_by_parameter: false,
        subtracted_roots: false,
        project_refused: false,
        products: Products::Split,
    };

    /// No shortcut at all: the compensated path throughout, for the tests of that path.
    #[cfg(test)]
    pub(crate) const NEVER: Shortcut = Shortcut {
        cancel: f64::INFINITY,
        graze: f64::INFINITY,
        reach2: 0.0,
        exact_products: false,
        unit_direction: false,
        far_by_parameter: false,
        subtracted_roots: false,
        project_refused: false,
        products: Products::Split,
    };

    /// The shortcut for a caller that needs only the distances, not the closest approach: no limit
    /// on how far the origin may be (the cancellation margins still guard the distances).
    #[inline]
    pub(crate) fn distances_only<T: crate::real::Real>() -> Self {
        Shortcut {
            reach2: f64::INFINITY,
            ..Self::of::<T>(0.0)
        }
    }

    /// The shortcut for a result of width `T` whose contact point has a coordinate of magnitude
    /// at least `point_scale`.
    #[inline]
    pub(crate) fn of<T: crate::real::Real>(point_scale: f64) -> Self {
        if T::EPSILON_WIDE > f64::EPSILON {
            // A width narrower than f64 has 29 guard bits to spare: they absorb everything but
            // extreme cancellation and origins more than 2^12 contact points away.
            let limit = 4096.0 * point_scale;
            Shortcut {
                cancel: 1.0 / 1048576.0,
                graze: 1.0 / 1048576.0,
                reach2: limit * limit,
                exact_products: false,
                unit_direction: false,
                far_by_parameter: false,
                subtracted_roots: true,
                project_refused: false,
                products: Products::Split,
            }
        } else {
            Self::WIDE
        }
    }

    /// This shortcut for a line along a ray's stored direction, whose `||n|² − 1|` is at most
    /// `crate::ray::UNIT_TOLERANCE`, `2^-16`.
    #[inline]
    pub(crate) fn along_ray(self) -> Self {
        Shortcut {
            unit_direction: true,
            ..self
        }
    }

    /// This shortcut with [`Shortcut::project_refused`] where it does not form the closest
    /// approach by exact products already: for a caller whose offset is exact, and whose origins
    /// may be many radii away (the sphere's).
    #[inline]
    pub(crate) fn projecting_refused(self) -> Self {
        Shortcut {
            project_refused: !self.exact_products,
            ..self
        }
    }

    /// This shortcut with its error-free products formed by `products`, which the caller's code
    /// must be compiled for (see [`Products`]).
    #[inline(always)]
    pub(crate) fn with_products(self, products: Products) -> Self {
        Shortcut { products, ..self }
    }

    /// This shortcut with the closest approach [`projected`] and no limit on `|f|`: its margins
    /// are then relative to `r² + |p|²`, which a far origin does not inflate.
    #[inline(always)]
    fn projected(self) -> Self {
        Shortcut {
            exact_products: true,
            reach2: f64::INFINITY,
            project_refused: false,
            ..self
        }
    }

    /// [`Shortcut::of`] for a caller that rounds the distances once more (the ellipsoid's change
    /// of frame costs about 2 ulps): in `f64` only origins within twice `point_scale` of the
    /// centre, or whose closest approach is far enough for the caller to take the
    /// [`LineBall::parameters`], keep the plain path. Other origins beyond, measured with the
    /// distances converted, missed the `f64` distance target by 1 to 2 ulps
    /// (`docs/performance.md`).
    #[inline]
    pub(crate) fn rescaled<T: crate::real::Real>(point_scale: f64) -> Self {
        let shortcut = Self::of::<T>(point_scale);
        if shortcut.exact_products {
            let limit = 2.0 * point_scale;
            Shortcut {
                reach2: limit * limit,
                far_by_parameter: true,
                ..shortcut
            }
        } else {
            shortcut
        }
    }
}

/// The least magnitude of the largest coordinate of a point at distance between `inner` and
/// `outer` from `centre` (finite): `max(|centre|∞ − outer, inner/√D)`, the `point_scale` of
/// [`Shortcut::of`] for a solid between those radii.
///
/// A loop of single casts often forms its shortcut anew for every cast, because the compiler
/// cannot tell that storing the hits leaves the shape alone; so this takes no division and no
/// maximum that handles NaN:
/// - `inner/√D` is formed as `inner·(1/√D)`, whose factor is a constant. The product is within an
///   ulp of the quotient, which is nothing against the shortcut's margin of `2^12` such sizes.
/// - The maxima are [`Lane::max`], one `maxsd` each on x86 where `f64::max` takes five
///   instructions for its NaN case; the operands are finite for a finite centre and radii.
///   (The running maximum is their first operand: the other order measured slower in the `f32`
///   sphere batch, by its register allocation.)
#[inline(always)]
pub(crate) fn point_scale<const D: usize>(centre: &SVector<f64, D>, outer: f64, inner: f64) -> f64 {
    let inverse_root = 1.0 / crate::real::sqrt(D as f64);
    let largest = centre.iter().fold(0.0, |m: f64, c| Lane::max(m, c.abs()));
    Lane::max(largest - outer, inner * inverse_root)
}

/// `(|n|, 1/|n|)` from `a = |n|²`.
///
/// Where the caller promises `|a − 1| ≤ 2^-16` (`unit`), `√(1 + δ)` and `1/√(1 + δ)` are
/// `1 ± δ/2` but for less than `3δ²/8`, without the square root and the division on every line's
/// critical path. For a ray's stored direction (`crate::ray::UNIT_TOLERANCE`) that is:
/// - below `2^-90` in `f64`, whose directions are within `4·D` ulps of unit (up to 32
///   dimensions): a millionth of an ulp, the same values to the last bit but for near-ties;
/// - below `2^-47` in `f32` from `Ray::new` (`|δ| ≤ 2^-23`), and below `2^-33` at the bound, a
///   256th of the `f32` ulp.
#[inline(always)]
fn length_and_inverse<L: Lane>(a: L, unit: bool) -> (L, L) {
    let one = L::splat(1.0);
    if unit {
        let delta = a - one;
        debug_assert!(
            delta.abs().le(L::splat(super::unit::UNIT_TOLERANCE)).all(),
            "not a unit direction"
        );
        let half = L::splat(0.5) * delta;
        (one + half, one - half)
    } else {
        let len = a.sqrt();
        (len, one / len)
    }
}

/// The closest approach to the centre of the line `f + s·n`, to a few ulps of its own size
/// however far `f` is, and `f·n̂`, given the line's `|n|` and `1/|n|`.
///
/// Formed in one plain step, `f − (f·n / n·n)·n` rounds each product by about `|f|·ε`, an error as
/// large against a small closest approach as the origin is far. Here the origin is first moved
/// along the line by the rounded `t ≈ f·n / n·n` with exact products (TwoProduct), keeping `f`'s
/// low part, so the only error `|f|` brings is that of `t`, which moves the result along `n`. A
/// second projection of the now small vector removes it: the classical "twice is enough" of
/// Gram-Schmidt reorthogonalisation (Giraud, Langou and Rozložník, "The loss of orthogonality in
/// the Gram-Schmidt orthogonalization process", Comput. Math. Appl. 50, 2005). `f·n̂` is the
/// corrected shift times `|n|`: two roundings and that of `|n|`, however many terms `f·n` had.
/// The exact products, formed by `products`, are on the critical path of every `f64` cast: fused,
/// they took the single `f64` sphere cast from 88 to 70 cycles (docs/performance.md).
#[inline(always)]
fn projected<L: Lane, const D: usize>(
    f: &Offset<D, L>,
    n: &[L; D],
    len: L,
    inv_len: L,
    products: Products,
) -> ([L; D], L, L) {
    let inv_a = inv_len * inv_len;
    let t = dot(&f.hi, n) * inv_a;
    let first = build(
        #[inline(always)]
        |i| {
            let (m, m_err) = two_product(t, n[i], products);
            (f.hi[i] - m) + (f.lo[i] - m_err)
        },
    );
    let back = dot(&first, n) * inv_a;
    let shift = t + back;
    (sub_scaled(&first, back, n), shift * len, shift)
}

/// The part of `|f|²` that [`line_ball_plain`]'s margin on the discriminant adds to `r² + |p|²`
/// for a [`projected`] closest approach, `2^-100`.
///
/// The projection leaves an error of a few ulps of `|p|` and, from the rounding of its first
/// shift along `n`, an absolute one `e` of about `ε²·|f|` (`ε = 2^-53`). `2|p|·e ≤ ε·|p|² +
/// e²/ε`, so the discriminant's error stays a few ulps of `r² + |p|² + e²/ε²`, which this term
/// (`e` up to `8ε²·|f|`) bounds. Without it a point ball (or one of radius below `2^-47·|f|`)
/// centred exactly on a line was missed: `r² − |p|²` was the negative square of that error, far
/// above a margin relative to `r² + |p|²` that nearly vanished with them.
const PROJECTED_FLOOR: f64 = 7.888_609_052_210_118e-31;

/// The plain evaluation of [`line_ball_lanes`] (the same formulas, without compensation): the
/// lanes where [`Shortcut`] accepts it, the lanes where the line meets the ball, and the answer.
///
/// With [`Shortcut::subtracted_roots`] the roots are `−b ∓ √disc`, one of which cancels where the
/// origin is near the surface. Within the margins that cannot exceed a few times `2^-52/g`
/// relative, for the margin `g` on both `|C|` and the discriminant (`2^-20` for `f32` results):
/// with `s = |f|² + r²`, the discriminant is off by about `8ε·s` (`ε = 2^-53`), which moves `√disc`
/// by `8ε·s/(2√disc)`, and the cancelling root is `δ = |b| − √disc` with `√disc·|δ| ≥ 0.41·g·s`
/// (from `disc ≥ g·s` and `|C| = |δ|·(|b| + √disc) ≥ g·s`), so that error is below `10ε/g`
/// relative; `b`'s own, about `3ε·|f|`, adds `6ε/g`. For `f32` results that is `2^-29`, a
/// thirty-second of their ulp. `q` and `C/q` are within about `2ε/g`, but their division sits on
/// every cast's critical path.
///
/// With a [`projected`] closest approach the margin on the discriminant is relative to the
/// smaller `s' = r² + |p|²`, and so is its error: where `|δ| ≤ √disc`, `|C| ≤ 3√disc·|δ|` gives
/// `√disc·|δ| ≥ g·s/3` as before; elsewhere `√disc·|δ| ≥ √(g·s')·√(g·s/3)`. Either way the error
/// of `√disc` is below `12ε/g` of the root, and `b` (`f·n̂` to two roundings) adds `4ε/g`.
#[inline(always)]
fn line_ball_plain<L: Lane, const D: usize>(
    f: &Offset<D, L>,
    n: &[L; D],
    r: L,
    shortcut: Shortcut,
) -> (L::Mask, L::Mask, LineBall<D, L>) {
    let p = PlainParts::of(f, n, r, shortcut);
    // Where the line misses, the root is NaN and unused.
    let half_chord = p.disc.sqrt();
    let chord_step = half_chord * p.inv_len;
    let foot = -p.shift;
    let mut near_enough = p.ff.le(L::splat(shortcut.reach2));
    if shortcut.far_by_parameter {
        // A line that misses (by the graze margin) has no distances to convert.
        near_enough = near_enough | far_foot(foot, chord_step) | p.disc.lt(L::splat(0.0));
    }
    let accepted = p.margins(shortcut) & near_enough;
    let meets = L::splat(0.0).le(p.disc);
    let (near, far) = if shortcut.subtracted_roots {
        (-p.along - half_chord, half_chord - p.along)
    } else {
        let q = -(p.along + half_chord.copysign(p.along));
        let other = p.c / q;
        (q.min(other), q.max(other))
    };
    let ball = LineBall {
        near,
        far,
        inside: p.c.le(L::splat(0.0)),
        dir_len: p.len,
        perp: p.perp,
        chord_step,
        foot,
    };
    (accepted, meets, ball)
}

/// The lanes where [`line_ball_plain`] is accepted and the line misses the ball, so that
/// [`line_ball_lanes`], [`line_ball_or`] and [`line_ball`] all answer that it misses: the first
/// steps of [`line_ball_plain`], the same operations, up to the discriminant. A line that misses
/// has no roots, so its acceptance needs no square root: the graze margin, the cancellation
/// margin and the ranges, and, without [`Shortcut::far_by_parameter`], the origin's reach.
/// (With it, [`line_ball_plain`] counts a missing line as near enough.) This is the cheap first
/// step of a batch that filters its rays (`crate::batch`).
#[inline(always)]
pub(crate) fn line_ball_misses<L: Lane, const D: usize>(
    f: &Offset<D, L>,
    n: &[L; D],
    r: L,
    shortcut: Shortcut,
) -> L::Mask {
    let p = PlainParts::of(f, n, r, shortcut);
    let mut near_enough = p.ff.le(L::splat(shortcut.reach2));
    if shortcut.far_by_parameter {
        near_enough = L::splat(0.0).le(L::splat(0.0));
    }
    p.margins(shortcut) & near_enough & p.disc.lt(L::splat(0.0))
}

/// The steps of [`line_ball_plain`] up to the discriminant, which [`line_ball_misses`] shares.
struct PlainParts<const D: usize, L> {
    a: L,
    len: L,
    inv_len: L,
    ff: L,
    perp: [L; D],
    along: L,
    shift: L,
    c: L,
    scale: L,
    disc: L,
    disc_scale: L,
}

impl<const D: usize, L: Lane> PlainParts<D, L> {
    #[inline(always)]
    fn of(f: &Offset<D, L>, n: &[L; D], r: L, shortcut: Shortcut) -> Self {
        let a = dot(n, n);
        let rr = r * r;
        let (len, inv_len) = length_and_inverse(a, shortcut.unit_direction);
        let (ff, (perp, along, shift)) = if shortcut.exact_products {
            let ff = dot(&f.hi, &f.hi) + L::splat(2.0) * dot(&f.hi, &f.lo);
            (ff, projected(f, n, len, inv_len, shortcut.products))
        } else {
            let along = dot(&f.hi, n) * inv_len;
            let shift = along * inv_len;
            let perp = sub_scaled(&f.hi, shift, n);
            (dot(&f.hi, &f.hi), (perp, along, shift))
        };
        let pp = dot(&perp, &perp);
        // A plain closest approach is off by about |f|·ε, a projected one by a few ulps of itself
        // and about ε²·|f| (see `PROJECTED_FLOOR`).
        let disc_scale = if shortcut.exact_products {
            rr + pp + L::splat(PROJECTED_FLOOR) * ff
        } else {
            ff + rr
        };
        PlainParts {
            a,
            len,
            inv_len,
            ff,
            perp,
            along,
            shift,
            c: ff - rr,
            scale: ff + rr,
            disc: rr - pp,
            disc_scale,
        }
    }

    /// The lanes where the plain evaluation's roundings are within the shortcut's margins, and
    /// every square and product clear of underflow and overflow (within `2^±900`): its acceptance
    /// but for the origin's reach.
    #[inline(always)]
    fn margins(&self, shortcut: Shortcut) -> L::Mask {
        let (low, high) = (L::splat(1.2e-271), L::splat(8.5e270));
        (L::splat(shortcut.cancel) * self.scale).le(self.c.abs())
            & (L::splat(shortcut.graze) * self.disc_scale).le(self.disc.abs())
            & low.le(self.scale)
            & low.le(self.disc_scale)
            & self.scale.le(high)
            & low.le(self.a)
            & self.a.le(high)
    }
}

/// The crossing of the line `o + s·n` with the closed ball of radius `r` around `c`, given
/// `f = o − c`, in each lane: the lanes where the line meets the ball (not where an input is not
/// finite), and the crossing there.
///
/// `n` is any non-zero vector; it need not be unit. Distances are Euclidean, along `n̂ = n/|n|`,
/// in the units of `f` and `r`.
///
/// The plain `f64` evaluation is tried first and returned when `shortcut` accepts it in every
/// lane (the common case); otherwise [`line_ball_refused`] decides the other lanes.
#[inline(always)]
pub(crate) fn line_ball_lanes<L: Lane, const D: usize>(
    f: &Offset<D, L>,
    n: &[L; D],
    r: L,
    shortcut: Shortcut,
) -> (L::Mask, LineBall<D, L>) {
    let (accepted, meets, plain) = line_ball_plain(f, n, r, shortcut);
    if accepted.all() {
        return (meets, plain);
    }
    where_accepted(
        accepted,
        (meets, plain),
        line_ball_refused(f, n, r, shortcut),
    )
}

/// In each lane, an answer `accepted` where `accepted` is set, `refused` elsewhere.
#[inline(always)]
fn where_accepted<L: Lane, const D: usize>(
    accepted: L::Mask,
    (meets, ball): (L::Mask, LineBall<D, L>),
    (other_meets, other): (L::Mask, LineBall<D, L>),
) -> (L::Mask, LineBall<D, L>) {
    (
        accepted.select(meets, other_meets),
        LineBall::select(accepted, &ball, &other),
    )
}

/// [`line_ball_lanes`] for lines its plain evaluation refused: the compensated evaluation, and
/// before it, where [`Shortcut::project_refused`], one more plain evaluation with a [`projected`]
/// closest approach.
///
/// That second try is for far origins. A closest approach formed in one plain step is off by about
/// `|f|·ε`, so the margins of a narrow width's shortcut are relative to `|f|² + r²`: beyond about
/// `2^10` radii they refuse every line, and the compensated evaluation costs several times the
/// plain one. A projected closest approach is within a few ulps of its own size however far the
/// origin, so its margins are relative to `r² + |p|²` instead; the roots' bound derived at
/// [`line_ball_plain`] holds for them too.
#[inline(always)]
pub(crate) fn line_ball_refused<L: Lane, const D: usize>(
    f: &Offset<D, L>,
    n: &[L; D],
    r: L,
    shortcut: Shortcut,
) -> (L::Mask, LineBall<D, L>) {
    if !shortcut.project_refused {
        return line_ball_exact(f, n, r, shortcut.products);
    }
    let (accepted, meets, projected) = line_ball_plain(f, n, r, shortcut.projected());
    if accepted.all() {
        return (meets, projected);
    }
    where_accepted(
        accepted,
        (meets, projected),
        line_ball_exact(f, n, r, shortcut.products),
    )
}

/// [`line_ball_lanes`] for one line; `None` when it misses the ball. In line wherever it is
/// called, as everything that forms error-free products, so that a caller compiled for FMA
/// ([`with_fused_products`](crate::fused::with_fused_products)) has it compiled for FMA too.
#[inline(always)]
pub(crate) fn line_ball<const D: usize>(
    f: &Offset<D>,
    n: &SVector<f64, D>,
    r: f64,
    shortcut: Shortcut,
) -> Option<LineBall<D>> {
    let (meets, ball) = line_ball_lanes(f, &(*n).into(), r, shortcut);
    meets.then_some(ball)
}

/// [`line_ball`], with `refused` deciding a line that the plain evaluation refuses, in place of
/// [`line_ball_refused`] (which it must match): for a caller that moves that rare work out of
/// line, from inputs it reads anew (the sphere's single casts). (Through such a closure the lanes'
/// version was slower: the compiler did not inline one as large as the refused path.)
#[inline(always)]
pub(crate) fn line_ball_or<const D: usize>(
    f: &Offset<D>,
    n: &SVector<f64, D>,
    r: f64,
    shortcut: Shortcut,
    refused: impl FnOnce() -> Option<LineBall<D>>,
) -> Option<LineBall<D>> {
    let (accepted, meets, plain) = line_ball_plain(f, &(*n).into(), r, shortcut);
    if accepted {
        return meets.then_some(plain);
    }
    refused()
}

/// [`line_ball`] for a caller whose offset costs more to form exactly than to a few ulps, with a
/// shortcut that does not form the closest approach by exact products (one for `f32` results):
/// the plain evaluation reads only `rounded`, which may be off by a few ulps of `|f|` in each
/// coordinate (the shortcut's margins leave 29 guard bits), and `exact`, which forms `f`
/// exactly, is called only for a line the shortcut refuses, which [`line_ball_refused`] then
/// decides. In line wherever it is called, as [`line_ball`] is (the ellipsoid's crossing, compiled
/// for FMA where the CPU has it).
#[inline(always)]
pub(crate) fn line_ball_deferred<const D: usize>(
    rounded: &Offset<D>,
    exact: impl FnOnce() -> Offset<D>,
    n: &SVector<f64, D>,
    r: f64,
    shortcut: Shortcut,
) -> Option<LineBall<D>> {
    debug_assert!(
        !shortcut.exact_products,
        "exact products read the offset's low part"
    );
    line_ball_or(rounded, n, r, shortcut, || {
        let (meets, ball) = line_ball_refused(&exact(), &(*n).into(), r, shortcut);
        meets.then_some(ball)
    })
}

/// [`line_ball_lanes`] in twice the working precision where it matters, its error-free products
/// formed by `products`.
#[inline(always)]
fn line_ball_exact<L: Lane, const D: usize>(
    f: &Offset<D, L>,
    n: &[L; D],
    r: L,
    products: Products,
) -> (L::Mask, LineBall<D, L>) {
    let zero = L::splat(0.0);
    let scale = Scale::of_offset(f, r);
    let f = scale.apply(f);
    let r = r * scale.down;
    let dir_scale = Scale::of(n, zero);
    let n = self::scale(n, dir_scale.down);

    let Approach {
        perp,
        foot,
        along,
        len,
    } = closest_approach(&f, &n, products);

    let c = power_scaled(&f, r, products);
    let inside = c.le(zero);
    let mut disc = Dot2::new(products);
    disc.add(r, r);
    for p in perp {
        disc.add(p, -p);
    }
    let disc = disc.value();
    // Where the origin is in the ball the line meets it: a negative value is rounding.
    let negative = disc.lt(zero);
    let half_chord = L::select(negative, zero, disc).sqrt();
    let q = -(along + half_chord.copysign(along));
    let at_centre = q.eq(zero);
    let other = c / q;
    let near = L::select(at_centre, zero, q.min(other));
    let far = L::select(at_centre, zero, q.max(other));
    let meets = !(negative & !inside) & near.le(far);
    let dir_len = len * dir_scale.up;
    let ball = LineBall {
        near: near * scale.up,
        far: far * scale.up,
        inside,
        dir_len,
        perp: self::scale(&perp, scale.up),
        chord_step: half_chord * scale.up / dir_len,
        // A parameter along the scaled `n` is one along `n` times `scale.up / dir_scale.up`.
        foot: (foot.0 + foot.1) * scale.up / dir_scale.up,
    };
    (meets, ball)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::Vector3;

    fn cross(o: [f64; 3], n: [f64; 3], r: f64) -> Option<LineBall<3>> {
        let f = Offset::between(&Vector3::from(o), &Vector3::zeros());
        line_ball(&f, &Vector3::from(n).normalize(), r, Shortcut::NEVER)
    }

    #[test]
    fn projected_closest_approach_keeps_its_bits_for_far_origins() {
        // 10^12 radii away, along a direction that is unit only to within rounding.
        let n = Vector3::new(0.6, 0.8, 1e-3).normalize();
        let foot = Vector3::new(0.3, -0.2, 0.7);
        let f = Offset::from_vector(foot - n * 1e12);
        let n: [f64; 3] = n.into();
        let len = dot(&n, &n).sqrt();
        // The compensated closest approach, in twice the working precision.
        let exact = closest_approach(&f, &n, Products::Split).perp;
        let size = dot(&exact, &exact).sqrt();
        let error = |p: [f64; 3]| (0..3).map(|i| (p[i] - exact[i]).abs()).fold(0.0, f64::max);
        for products in [Products::Split, Products::Fused] {
            let (perp, _, _) = projected(&f, &n, len, 1.0 / len, products);
            assert!(error(perp) <= 4.0 * f64::EPSILON * size, "{products:?}");
            assert_eq!(
                closest_approach(&f, &n, products).perp,
                exact,
                "{products:?}"
            );
        }
        // In one plain step the same approach is off by thousands of ulps.
        let t = dot(&f.hi, &n) / (len * len);
        assert!(error(sub_scaled(&f.hi, t, &n)) > 1000.0 * f64::EPSILON * size);
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

    /// `line_ball_misses` is `line_ball_plain`'s acceptance of a miss, lane for lane: on lines
    /// that miss, touch and cross balls from near and far origins, at every scale, with the
    /// shortcuts of both widths (plain and projected closest approach, either reach rule).
    #[test]
    fn certain_misses_are_the_plain_evaluations_accepted_misses() {
        let mut bits = 0x2545_f491_4f6c_dd1du64;
        let mut uniform = || {
            bits ^= bits << 13;
            bits ^= bits >> 7;
            bits ^= bits << 17;
            (bits >> 11) as f64 / (1u64 << 53) as f64
        };
        let f32_like = Shortcut::of::<f32>(1.0).along_ray();
        let shortcuts = [
            f32_like,
            f32_like.projected(),
            Shortcut::of::<f64>(1.0).along_ray(),
            Shortcut::distances_only::<f64>(),
            Shortcut {
                far_by_parameter: true,
                ..f32_like
            },
        ];
        let (mut misses, mut others) = (0, 0);
        for _ in 0..20_000 {
            let scale = 2f64.powi((uniform() * 80.0) as i32 - 40);
            let far = 10f64.powf(uniform() * 6.0);
            let n = [uniform() - 0.5, uniform() - 0.5, uniform() - 0.5];
            let len = dot(&n, &n).sqrt();
            let n = n.map(|c| c / len);
            let aim = [uniform() - 0.5, uniform() - 0.5, uniform() - 0.5].map(|c| c * 3.0 * scale);
            let o: [f64; 3] = core::array::from_fn(|i| aim[i] - n[i] * far * scale);
            let f = Offset::between(&o.into(), &Vector3::zeros());
            let r = scale * [0.0, 0.5, 1.0, 1.5][(uniform() * 4.0) as usize];
            for shortcut in shortcuts {
                let (accepted, meets, _) = line_ball_plain(&f, &n, r, shortcut);
                let certain = line_ball_misses(&f, &n, r, shortcut);
                assert_eq!(certain, accepted && !meets, "{o:?} {n:?} {r} {shortcut:?}");
                if certain {
                    misses += 1;
                } else {
                    others += 1;
                }
            }
        }
        assert!(
            misses > 20_000 && others > 20_000,
            "{misses} misses, {others} others"
        );
    }
}
