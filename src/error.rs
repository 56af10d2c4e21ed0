//! Why a constructor refused its input.

use core::fmt;

/// An argument's name. Spelled as an alias so that serde does not take the field for a string
/// borrowed from its input: it deserializes into one of the names raysweep uses.
type ArgumentName = &'static str;

/// How far from orthonormal a rotation matrix may be, in units of `f32`'s epsilon in both
/// widths: the largest entry of `|RᵀR − I|` must not exceed
/// `ORTHONORMAL_TOLERANCE * f32::EPSILON` (about `1.9·10⁻⁶`). So a rotation written to seven
/// significant digits or more (stored as `f32`, printed to a file, composed from others) is
/// accepted in either width, and the nearest orthonormal matrix used; a matrix scaled or
/// sheared by more than that is not a rotation and is refused.
///
/// # Example
///
/// ```
/// use raysweep::nalgebra::{Matrix2, Point2, Rotation2, Vector2};
/// use raysweep::{Ellipsoid, Error};
///
/// assert_eq!(raysweep::ORTHONORMAL_TOLERANCE, 16.0);
/// // A quarter turn written to nine digits: accepted.
/// let written = Matrix2::new(0.0, -1.0, 1.0, 1.0e-9);
/// let axes = Vector2::new(2.0, 1.0);
/// let turned = Rotation2::from_matrix_unchecked(written);
/// assert!(Ellipsoid::oriented(Point2::origin(), axes, turned).is_ok());
/// // Scaled by 1.001: refused, with how far off it is.
/// let scaled = Rotation2::from_matrix_unchecked(Matrix2::identity() * 1.001);
/// let err = Ellipsoid::oriented(Point2::origin(), axes, scaled).unwrap_err();
/// assert!(matches!(err, Error::NotOrthonormal { deviation } if deviation > 2e-3));
/// ```
pub const ORTHONORMAL_TOLERANCE: f64 = 16.0;

/// Bad input to a constructor ([`Ray::new`](crate::Ray::new), [`Sphere::new`](crate::Sphere::new),
/// ...). Each variant carries the offending value (as `f64`, which holds every `f32` exactly) so
/// that the message names it.
///
/// Two errors compare equal when their values have the same bits, so an error holding a NaN equals
/// itself.
///
/// # Example
///
/// ```
/// use raysweep::{Error, Sphere};
/// use raysweep::nalgebra::Point3;
///
/// let err = Sphere::new(Point3::origin(), -2.0f64).unwrap_err();
/// assert_eq!(err, Error::NegativeRadius { radius: -2.0 });
/// assert_eq!(err.to_string(), "the radius is negative: -2");
/// ```
#[derive(Debug, Clone, Copy)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Error {
    /// A component of a point, vector, bound or matrix is NaN or infinite.
    NonFinite {
        /// Which argument: `"origin"`, `"direction"`, `"center"`, `"radius"`, ...
        #[cfg_attr(feature = "serde", serde(deserialize_with = "argument_name"))]
        what: ArgumentName,
        /// The component's index within the argument (0 for a scalar; `row * D + column` for a
        /// matrix).
        index: usize,
        /// The value found there.
        value: f64,
    },
    /// A direction (or the segment of [`Ray::between`](crate::Ray::between)) has length zero.
    ZeroDirection,
    /// A sphere's radius is below zero (zero is accepted: the sphere is a point).
    NegativeRadius {
        /// The radius given.
        radius: f64,
    },
    /// An ellipsoid's semi-axis is zero or negative.
    NonPositiveSemiAxis {
        /// The local axis.
        axis: usize,
        /// The semi-axis given.
        value: f64,
    },
    /// A box's `min` exceeds its `max` on an axis (equal bounds make a flat box and are accepted).
    InvertedBounds {
        /// The axis.
        axis: usize,
        /// The lower bound given.
        min: f64,
        /// The upper bound given.
        max: f64,
    },
    /// A box's half extent is negative on an axis.
    NegativeHalfExtent {
        /// The axis.
        axis: usize,
        /// The half extent given.
        value: f64,
    },
    /// A grid's cell size is zero or negative on an axis.
    NonPositiveCellSize {
        /// The axis.
        axis: usize,
        /// The cell size given.
        value: f64,
    },
    /// A grid has no cells along an axis, or more than `2^53` (beyond which plane indices are not
    /// exact in `f64`).
    CellCount {
        /// The axis.
        axis: usize,
        /// The count given (as `f64`, rounded where it exceeds `2^53`).
        cells: f64,
    },
    /// A grid's far corner (`min + cells · cell_size`) overflows the width on an axis, or a bound
    /// of an `f64` grid reaches `2^1000`, beyond which a walk's exact plane offsets could overflow.
    GridOverflow {
        /// The axis.
        axis: usize,
        /// The far corner there, in `f64`.
        corner: f64,
    },
    /// A slice has the wrong number of entries: a volume (or occupancy) not one value per cell
    /// of its grid, or values or sums not one per ray ([`Grid::project`](crate::Grid::project),
    /// [`Grid::backproject`](crate::Grid::backproject), [`Grid::occupancy`](crate::Grid::occupancy)).
    Length {
        /// Which slice: `"volume"`, `"cells"`, `"values"` or `"sums"`.
        #[cfg_attr(feature = "serde", serde(deserialize_with = "argument_name"))]
        what: ArgumentName,
        /// The entries it has.
        len: usize,
        /// The entries it needs (`usize::MAX` for a grid of more cells than that).
        expected: usize,
    },
    /// A periodic medium's box size is zero or negative on a repeating axis
    /// ([`Periodicity::new`](crate::Periodicity::new)).
    NonPositivePeriod {
        /// The axis.
        axis: usize,
        /// The size given.
        value: f64,
    },
    /// A rotation matrix is not orthonormal: the largest entry of `RᵀR − I` exceeds the tolerance
    /// ([`ORTHONORMAL_TOLERANCE`] times `f32`'s epsilon, in either width).
    NotOrthonormal {
        /// The largest entry of `|RᵀR − I|`.
        deviation: f64,
    },
}

impl PartialEq for Error {
    fn eq(&self, other: &Self) -> bool {
        use Error::*;
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
        match (*self, *other) {
            (
                NonFinite { what, index, value },
                NonFinite {
                    what: w,
                    index: i,
                    value: v,
                },
            ) => what == w && index == i && same(value, v),
            (ZeroDirection, ZeroDirection) => true,
            (NegativeRadius { radius }, NegativeRadius { radius: r }) => same(radius, r),
            (NonPositiveSemiAxis { axis, value }, NonPositiveSemiAxis { axis: a, value: v }) => {
                axis == a && same(value, v)
            }
            (
                InvertedBounds { axis, min, max },
                InvertedBounds {
                    axis: a,
                    min: lo,
                    max: hi,
                },
            ) => axis == a && same(min, lo) && same(max, hi),
            (NegativeHalfExtent { axis, value }, NegativeHalfExtent { axis: a, value: v }) => {
                axis == a && same(value, v)
            }
            (NonPositiveCellSize { axis, value }, NonPositiveCellSize { axis: a, value: v }) => {
                axis == a && same(value, v)
            }
            (CellCount { axis, cells }, CellCount { axis: a, cells: c }) => {
                axis == a && same(cells, c)
            }
            (GridOverflow { axis, corner }, GridOverflow { axis: a, corner: c }) => {
                axis == a && same(corner, c)
            }
            (NonPositivePeriod { axis, value }, NonPositivePeriod { axis: a, value: v }) => {
                axis == a && same(value, v)
            }
            (NotOrthonormal { deviation }, NotOrthonormal { deviation: d }) => same(deviation, d),
            (
                Length {
                    what,
                    len,
                    expected,
                },
                Length {
                    what: w,
                    len: l,
                    expected: e,
                },
            ) => what == w && len == l && expected == e,
            _ => false,
        }
    }
}

impl Eq for Error {}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::NonFinite { what, index, value } => {
                if SCALARS.contains(&what) {
                    write!(f, "{what} is not finite: {value}")
                } else {
                    write!(f, "{what} component {index} is not finite: {value}")
                }
            }
            Error::ZeroDirection => f.write_str("the direction is the zero vector"),
            Error::NegativeRadius { radius } => write!(f, "the radius is negative: {radius}"),
            Error::NonPositiveSemiAxis { axis, value } => {
                write!(f, "semi-axis {axis} is not strictly positive: {value}")
            }
            Error::InvertedBounds { axis, min, max } => {
                write!(f, "min exceeds max on axis {axis}: {min} > {max}")
            }
            Error::NegativeHalfExtent { axis, value } => {
                write!(f, "half extent {axis} is negative: {value}")
            }
            Error::NonPositiveCellSize { axis, value } => {
                write!(f, "cell size {axis} is not strictly positive: {value}")
            }
            Error::CellCount { axis, cells } => {
                write!(
                    f,
                    "the cell count on axis {axis} is not in 1..=2^53: {cells}"
                )
            }
            Error::GridOverflow { axis, corner } => write!(
                f,
                "the grid's far corner on axis {axis} is {corner}: it overflows, or reaches 2^1000"
            ),
            Error::Length {
                what,
                len,
                expected,
            } => write!(f, "{what} has {len} entries: expected {expected}"),
            Error::NonPositivePeriod { axis, value } => {
                write!(
                    f,
                    "the period on axis {axis} is not strictly positive: {value}"
                )
            }
            Error::NotOrthonormal { deviation } => write!(
                f,
                "the rotation matrix is not orthonormal: max |RᵀR − I| entry is {deviation:e} \
                 (at most {:e} is accepted)",
                ORTHONORMAL_TOLERANCE * f64::from(f32::EPSILON)
            ),
        }
    }
}

impl core::error::Error for Error {}

/// The arguments that are single numbers, which an error names without a component.
const SCALARS: [&str; 1] = ["radius"];

/// `Err(NonFinite)` naming the first non-finite component of `values`.
pub(crate) fn check_finite<I>(what: &'static str, values: I) -> Result<(), Error>
where
    I: IntoIterator<Item = f64>,
{
    match values.into_iter().enumerate().find(|(_, v)| !v.is_finite()) {
        Some((index, value)) => Err(Error::NonFinite { what, index, value }),
        None => Ok(()),
    }
}

/// The argument names an [`Error`] can carry, for deserializing its `what` without allocating.
#[cfg(feature = "serde")]
const ARGUMENTS: [&str; 17] = [
    "origin",
    "direction",
    "point a",
    "point b",
    "center",
    "radius",
    "semi_axes",
    "rotation",
    "min",
    "max",
    "half_extents",
    "cell_size",
    "volume",
    "values",
    "sums",
    "size",
    "cells",
];

/// Deserializes an argument name into the matching `&'static str`.
#[cfg(feature = "serde")]
fn argument_name<'de, De: serde::Deserializer<'de>>(
    deserializer: De,
) -> Result<&'static str, De::Error> {
    struct Name;
    impl serde::de::Visitor<'_> for Name {
        type Value = &'static str;
        fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
            write!(f, "one of {ARGUMENTS:?}")
        }
        fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<&'static str, E> {
            ARGUMENTS
                .iter()
                .find(|name| **name == v)
                .copied()
                .ok_or_else(|| E::invalid_value(serde::de::Unexpected::Str(v), &self))
        }
    }
    deserializer.deserialize_str(Name)
}
