//! The two geometric cores every shape is built on, evaluated in `f64`.
//!
//! - [`quadratic`]: a line against a ball (Sphere directly; Ellipsoid in its scaled local frame).
//! - [`slab`]: a line against the axis-aligned planes of a box (Aabb).
//!
//! Both take the line as an origin and a unit direction in the working precision and return
//! distances along it, so each shape only transforms its input, calls a core and rounds once.
//! Beside them: [`swept_box`] and [`swept_ellipsoid`], a ball moving along a line, built from
//! the two; [`nearest`], the nearest point of an ellipsoid; [`exact`], the error-free transformations; [`expansion`], exact sums for the signs of
//! sums that cancel; [`mod@unit`], unit vectors; and [`lane`], the
//! arithmetic all of it is written over, for one value or several side by side.

pub(crate) mod exact;
pub(crate) mod expansion;
pub(crate) mod lane;
pub(crate) mod nearest;
pub(crate) mod quadratic;
pub(crate) mod slab;
pub(crate) mod swept_box;
pub(crate) mod swept_ellipsoid;
pub(crate) mod unit;
