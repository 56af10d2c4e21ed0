//! The scalar types raysweep computes with, and their link to the working precision.
//!
//! Every query is evaluated in `f64`, whatever the public width:
//!
//! - for `f32` inputs, every product of two inputs is exact in `f64` and every other step carries
//!   29 guard bits, so one final rounding to `f32` gives a result within an ulp of the exact answer;
//! - for `f64` inputs the cores use error-free transformations where cancellation would otherwise
//!   lose the answer (see `src/core`).

use nalgebra::{RealField, SVector};

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

/// A floating-point width raysweep supports: `f32` or `f64`.
///
/// The trait is sealed; it exists so that shapes and rays can be generic over the width while the
/// computations run in `f64`. Neither width is cheaper everywhere: `f32` inputs make exact
/// products cheap (a sphere or ellipsoid cast takes about half the time), while `f64` boxes and
/// far small spheres skip a step `f32` needs (docs/performance.md, "Single casts"). Its
/// constants and its conversions to and from `f64` are public for generic code; its hidden
/// items are the crate's own.
///
/// # Example
///
/// A limit written once for both widths:
///
/// ```
/// use raysweep::Real;
///
/// fn unbounded<T: Real>() -> T {
///     T::INFINITY
/// }
/// assert_eq!(unbounded::<f32>(), f32::INFINITY);
/// assert_eq!(Real::to_wide(0.1f32), 0.1f32 as f64);
/// assert_eq!(<f32 as Real>::from_wide(0.1f64), 0.1f32);
/// ```
pub trait Real: RealField + Copy + sealed::Sealed {
    /// Positive infinity: an unbounded `max_distance`.
    const INFINITY: Self;
    /// Negative infinity: an `after` before every crossing.
    const NEG_INFINITY: Self;
    /// Not a number.
    const NAN: Self;
    /// The largest finite value.
    const MAX: Self;
    /// The gap between 1 and the next value.
    const EPSILON: Self;

    /// The width's largest finite value, as `f64`.
    ///
    /// ```
    /// assert_eq!(<f32 as raysweep::Real>::MAX_WIDE, f32::MAX as f64);
    /// ```
    #[doc(hidden)]
    const MAX_WIDE: f64;
    /// The width's machine epsilon (the gap between 1 and the next value), as `f64`.
    ///
    /// ```
    /// assert_eq!(<f32 as raysweep::Real>::EPSILON_WIDE, f32::EPSILON as f64);
    /// ```
    #[doc(hidden)]
    const EPSILON_WIDE: f64;
    /// Whether a stored unit direction must be normalised again in `f64` before use: an `f32`
    /// unit vector is unit only to within `2^-24`, which would cost a whole ulp of distance.
    ///
    /// ```
    /// assert!(<f32 as raysweep::Real>::RENORMALISE_DIRECTION);
    /// ```
    #[doc(hidden)]
    const RENORMALISE_DIRECTION: bool;

    /// This value as `f64` (exact).
    ///
    /// ```
    /// assert_eq!(raysweep::Real::to_wide(0.5f32), 0.5);
    /// ```
    fn to_wide(self) -> f64;
    /// The value of this width nearest to `x` (ties to even).
    ///
    /// ```
    /// assert_eq!(<f32 as raysweep::Real>::from_wide(0.1), 0.1f32);
    /// ```
    fn from_wide(x: f64) -> Self;
    /// The largest value of this width that is `<= x`.
    ///
    /// ```
    /// assert_eq!(<f32 as raysweep::Real>::from_wide_down(0.1), 0.1f32.next_down());
    /// ```
    #[doc(hidden)]
    fn from_wide_down(x: f64) -> Self;
    /// The smallest value of this width that is `>= x`.
    ///
    /// ```
    /// assert_eq!(<f32 as raysweep::Real>::from_wide_up(0.1), 0.1f32);
    /// ```
    #[doc(hidden)]
    fn from_wide_up(x: f64) -> Self;
}

impl Real for f32 {
    const INFINITY: Self = f32::INFINITY;
    const NEG_INFINITY: Self = f32::NEG_INFINITY;
    const NAN: Self = f32::NAN;
    const MAX: Self = f32::MAX;
    const EPSILON: Self = f32::EPSILON;
    const MAX_WIDE: f64 = f32::MAX as f64;
    const EPSILON_WIDE: f64 = f32::EPSILON as f64;
    const RENORMALISE_DIRECTION: bool = true;

    #[inline]
    fn to_wide(self) -> f64 {
        self as f64
    }
    #[inline]
    fn from_wide(x: f64) -> Self {
        x as f32
    }
    #[inline]
    fn from_wide_down(x: f64) -> Self {
        let y = x as f32;
        if (y as f64) > x { y.next_down() } else { y }
    }
    #[inline]
    fn from_wide_up(x: f64) -> Self {
        let y = x as f32;
        if (y as f64) < x { y.next_up() } else { y }
    }
}

impl Real for f64 {
    const INFINITY: Self = f64::INFINITY;
    const NEG_INFINITY: Self = f64::NEG_INFINITY;
    const NAN: Self = f64::NAN;
    const MAX: Self = f64::MAX;
    const EPSILON: Self = f64::EPSILON;
    const MAX_WIDE: f64 = f64::MAX;
    const EPSILON_WIDE: f64 = f64::EPSILON;
    const RENORMALISE_DIRECTION: bool = false;

    #[inline]
    fn to_wide(self) -> f64 {
        self
    }
    #[inline]
    fn from_wide(x: f64) -> Self {
        x
    }
    #[inline]
    fn from_wide_down(x: f64) -> Self {
        x
    }
    #[inline]
    fn from_wide_up(x: f64) -> Self {
        x
    }
}

/// `√x`, from `std` or, in `no_std` builds, from `libm` (both correctly rounded).
#[inline(always)]
pub(crate) fn sqrt(x: f64) -> f64 {
    num_traits::Float::sqrt(x)
}

/// `v` in the working precision.
#[inline]
pub(crate) fn widen<T: Real, const D: usize>(v: &SVector<T, D>) -> SVector<f64, D> {
    v.map(T::to_wide)
}

/// `v` rounded to the nearest values of the public width.
#[inline]
pub(crate) fn narrow<T: Real, const D: usize>(v: &SVector<f64, D>) -> SVector<T, D> {
    v.map(T::from_wide)
}

/// The largest value of the width `<= hi + lo`, where `hi + lo` is an exact unevaluated sum from
/// [`two_sum`](crate::core::exact::two_sum) (so `|lo|` is at most half an `f64` ulp of `hi`).
#[inline]
pub(crate) fn round_down<T: Real>(hi: f64, lo: f64) -> T {
    let y = T::from_wide_down(hi);
    if y.to_wide() == hi && lo < 0.0 {
        T::from_wide_down(hi.next_down())
    } else {
        y
    }
}

/// The smallest value of the width `>= hi + lo` (see [`round_down`]).
#[inline]
pub(crate) fn round_up<T: Real>(hi: f64, lo: f64) -> T {
    let y = T::from_wide_up(hi);
    if y.to_wide() == hi && lo > 0.0 {
        T::from_wide_up(hi.next_up())
    } else {
        y
    }
}
