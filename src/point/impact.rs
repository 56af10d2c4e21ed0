//! The time of impact of a moving ball against any [`Cast`] and [`PointQuery`] shape moving with
//! its own velocity.
//!
//! In the frame of `other` the ball's centre moves along the relative velocity
//! `v = velocity − other_velocity`, formed in `f64` (exact for `f32` inputs); the first contact is
//! `other`'s own sphere cast along `v`, and the time is its distance over `|v|`, rounded once to
//! the width. raysweep's shapes cast along `v` itself in `f64` (the shape widened exactly,
//! [`PointQuery::as_wide_body`]), so that an `f32` time carries one rounding, not the rounding of `v`'s
//! direction to `f32` as well; a user's shape casts along `v`'s direction rounded to its width.
//!
//! A pair that touches or overlaps at time 0 has an impact at 0 only while the gap closes: the
//! gap's rate is `v · n`, for `n` the gradient of `other`'s signed distance at the ball's centre
//! (the outward normal at the surface point nearest to the centre, from inside too); closing
//! where it is negative, and a rate of exactly zero (a ball sliding along a box's face or
//! grazing a ball) keeps the distance: no impact. Whether the pair touches and the sign of the
//! rate are decided exactly for balls and boxes, from exact offsets, and from the point queries
//! and the normal `closest_point` gives for ellipsoids and a user's shape (`gap.rs`). A pair the
//! cast finds touching at 0 that those found apart (by less than the cast resolves) is decided
//! by the rate too. For a convex `other` the signed distance along the relative motion is
//! convex, so a pair that is not closing at 0 never closes later. The impact's point and normal
//! are then the nearest point and normal `closest_point` gives, at time exactly 0.

use nalgebra::{Point, SVector, Unit};

use super::gap::Gap;
use crate::core::unit::unit_and_length;
use crate::hit::Hit;
use crate::point::PointQuery;
use crate::ray::Ray;
use crate::real::{Real, narrow, widen};
use crate::shape::Sphere;
use crate::traits::{Cast, Sealed};

/// The first contact of a moving ball with a moving shape ([`Sphere::time_of_impact`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Impact<T: Real, const D: usize = 3> {
    /// When the two first touch, in `[0, max_time]`.
    pub time: T,
    /// The contact point, on the other shape's surface at that time.
    pub point: Point<T, D>,
    /// The other shape's outward unit normal at `point`.
    pub normal: Unit<SVector<T, D>>,
}

/// A sphere cast in `f64`, as [`Sphere::time_of_impact`] asks it of the other shape: a ball of
/// `radius` whose centre starts at `origin` and moves along `direction` (any finite non-zero
/// vector; distances are along its unit vector), up to `max_distance`.
#[derive(Clone, Copy, Debug)]
struct WideSweep<const D: usize> {
    origin: Point<f64, D>,
    direction: SVector<f64, D>,
    radius: f64,
    max_distance: f64,
}

impl<const D: usize> WideSweep<D> {
    /// The sweep cast against `shape`, in `f64` (an `f64` shape, or an `f32` one widened).
    fn cast(&self, shape: &impl Cast<f64, D>) -> Option<Hit<f64, D>> {
        let ray = Ray::new(self.origin, self.direction).ok()?;
        shape.cast_sphere(&ray, self.radius, self.max_distance)
    }

    /// The sweep rounded to the width `T` of `shape` (the direction as [`Ray::new`] stores it),
    /// cast with its [`Cast::cast_sphere`], the hit widened.
    fn in_width<T: Real, S: Cast<T, D> + ?Sized>(&self, shape: &S) -> Option<Hit<f64, D>> {
        let ray = Ray::new(
            Point::from(narrow::<T, D>(&self.origin.coords)),
            narrow(&self.direction),
        )
        .ok()?;
        let radius = T::from_wide(self.radius);
        let hit = shape.cast_sphere(&ray, radius, T::from_wide_up(self.max_distance))?;
        Some(Hit {
            distance: hit.distance.to_wide(),
            point: Point::from(widen(&hit.point.coords)),
            normal: Unit::new_unchecked(widen(hit.normal.as_ref())),
        })
    }
}

impl<T: Real, const D: usize> Sphere<T, D> {
    /// The first time in `[0, max_time]` at which this ball, moving with `velocity`, touches
    /// `other`, moving with `other_velocity`, with the contact point and `other`'s outward normal
    /// there, on `other` as it is at that time.
    ///
    /// - A pair that already touches or overlaps at time 0 has an impact at time 0 if the gap is
    ///   closing, and none if the two are moving apart or keep their distance, so that a pair that
    ///   has just collided and bounced is not reported again. The gap's rate is the relative
    ///   velocity dotted with `n`, the outward normal that [`PointQuery::closest_point`] gives for
    ///   this ball's centre (the gradient of `other`'s signed distance there, from inside too);
    ///   its sign is decided exactly, so that a ball sliding along a box's face keeps its
    ///   distance. Such an impact's point and normal are that nearest point and `n`, which a
    ///   collision response reflects the relative velocity about.
    /// - `other` is a solid: a ball inside an [`Aabb`](crate::Aabb) overlaps it, and moving
    ///   towards a wall it is moving deeper in (no impact, or one at time 0 while it moves towards
    ///   the nearest face and out). To keep a ball inside a container, test it against the
    ///   container's walls, each a thin solid slab of its own (an `Aabb` one wall thick), as the
    ///   `gas` example does.
    /// - No impact (`None`) for equal velocities, a non-finite velocity, or a negative or NaN
    ///   `max_time`; `max_time` may be `+∞`.
    /// - The time is the other shape's sphere cast along the relative velocity, in `f64` for
    ///   raysweep's shapes (rounded once to the width: within 1 ulp in `f32`), divided by the
    ///   speed; for a user's shape, the cast along the relative velocity's direction rounded to
    ///   the width.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, Rect};
    ///
    /// // A ball of radius 1 at x = 0 flies at 2 towards a ball of radius 1 at x = 10 flying at -2.
    /// let a = Circle::new(Point2::new(0.0, 0.0), 1.0)?;
    /// let b = Circle::new(Point2::new(10.0, 0.0), 1.0)?;
    /// let impact = a.time_of_impact(&Vector2::new(2.0, 0.0), &b, &Vector2::new(-2.0, 0.0), 10.0).unwrap();
    /// assert_eq!(impact.time, 2.0);
    /// // The contact point on b as it is at t = 2 (centre at x = 6).
    /// assert_eq!(impact.point, Point2::new(5.0, 0.0));
    /// assert_eq!(impact.normal.into_inner(), Vector2::new(-1.0, 0.0));
    ///
    /// // Touching at t = 0: an impact only while the gap closes.
    /// let wall = Rect::new(Point2::new(1.0, -5.0), Point2::new(2.0, 5.0))?;
    /// assert_eq!(a.time_of_impact(&Vector2::x(), &wall, &Vector2::zeros(), 1.0).unwrap().time, 0.0);
    /// assert!(a.time_of_impact(&-Vector2::x(), &wall, &Vector2::zeros(), 1.0).is_none());
    /// // Overlapping the wall and sliding along its face: the distance stays, no impact.
    /// let c = Circle::new(Point2::new(0.5, 0.0), 1.0)?;
    /// assert!(c.time_of_impact(&Vector2::y(), &wall, &Vector2::zeros(), 1.0).is_none());
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn time_of_impact<S: Cast<T, D> + PointQuery<T, D>>(
        &self,
        velocity: &SVector<T, D>,
        other: &S,
        other_velocity: &SVector<T, D>,
        max_time: T,
    ) -> Option<Impact<T, D>> {
        let max_time = max_time.to_wide();
        if !(max_time >= 0.0) {
            return None;
        }
        let (v, w) = (widen(velocity), widen(other_velocity));
        let (_, speed) = unit_and_length(&(v - w))?;
        let sweep = WideSweep {
            origin: Point::from(widen(&self.center().coords)),
            direction: v - w,
            radius: self.radius().to_wide(),
            // Rounded up: a contact at `max_time` is within reach.
            max_distance: (max_time * speed).next_up(),
        };
        let wide = other.as_wide_body(Sealed(()));
        let gap = wide
            .as_ref()
            .and_then(|body| Gap::exact(body, &sweep.origin.coords, sweep.radius))
            .unwrap_or_else(|| Gap::measured(other, self.center(), self.radius()));
        if !gap.touching {
            let hit = match &wide {
                Some(body) => sweep.cast(body),
                None => sweep.in_width(other),
            }?;
            if hit.distance > 0.0 {
                let time = hit.distance / speed;
                if time > max_time {
                    return None;
                }
                let point = hit.point.coords + w * time;
                return Some(Impact {
                    time: T::from_wide(time),
                    point: Point::from(narrow(&point)),
                    normal: Unit::new_unchecked(narrow(hit.normal.as_ref())),
                });
            }
        }
        // Touching at time 0, or apart by less than the cast resolves: an impact at 0 while the
        // gap closes.
        gap.closing(&v, &w).then(|| {
            let (point, normal) = other.closest_point(self.center());
            Impact {
                time: T::from_wide(0.0),
                point,
                normal,
            }
        })
    }
}
