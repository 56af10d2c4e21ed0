//! Exact ray casts against spheres, ellipsoids and axis-aligned boxes, generic over `f32`/`f64`
//! and over the dimension.
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]
// `!(a <= b)` is this crate's way of saying "not ordered, or NaN": every such test is deliberate.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub use nalgebra;

mod cast;
mod core;
mod error;
mod hit;
mod ray;
mod real;
mod shape;
mod traits;

pub use error::Error;
pub use hit::{Hit, Span};
pub use ray::Ray;
pub use real::Real;
pub use shape::{Aabb, Circle, Ellipse, Ellipsoid, ORTHONORMAL_TOLERANCE, Rect, Sphere};
pub use traits::{Cast, Shape};
