//! What a scene's queries return: a hit, a span or a nearest point with the id of the body it
//! came from.

use nalgebra::{Point, SVector, Unit};

use core::cmp::Ordering;

use crate::hit::{Hit, Span};
use crate::real::Real;

/// Sorts a scene's spans as its span queries list them: by `enter` (by value: `-0.0` and `0.0`
/// are the same), then by what names the body (`key` gives both).
pub(crate) fn sort_by_entry<A, T: Real, I: Ord>(spans: &mut [A], key: impl Fn(&A) -> (T, I)) {
    spans.sort_unstable_by(|a, b| {
        let ((ea, ia), (eb, ib)) = (key(a), key(b));
        ea.to_wide()
            .partial_cmp(&eb.to_wide())
            .unwrap_or(Ordering::Equal)
            .then(ia.cmp(&ib))
    });
}

/// A hit in a scene: the body's id (its index in the scene's bodies) and its hit.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyHit<T: Real, const D: usize = 3> {
    /// The id of the body hit.
    pub body: usize,
    /// The body's hit, the bits its own cast returns.
    pub hit: Hit<T, D>,
}

/// Where a line crosses one body of a scene: the body's id and its span.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodySpan<T: Real> {
    /// The id of the body crossed.
    pub body: usize,
    /// The body's span, the bits its own `ray_span` (or `sphere_span`) returns.
    pub span: Span<T>,
}

/// The body of a scene nearest to a point ([`Scene::nearest`](crate::Scene::nearest)): its id,
/// the point's signed distance to it, and the nearest point of its surface with the outward normal
/// there, the bits its own [`PointQuery`](crate::PointQuery) gives.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyNearest<T: Real, const D: usize = 3> {
    /// The id of the nearest body.
    pub body: usize,
    /// The point's signed distance to its surface: negative inside.
    pub signed_distance: T,
    /// The nearest point of its surface.
    pub point: Point<T, D>,
    /// Its outward unit normal at `point`.
    pub normal: Unit<SVector<T, D>>,
}
