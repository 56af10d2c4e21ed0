//! The time of impact of a moving ball against any [`Cast`] shape moving with its own velocity.
//!
//! In the frame of `other` the ball's centre moves along the ray from its centre with the unit
//! direction of the relative velocity `v = velocity − other_velocity` (rounded to the width as
//! [`Ray::new`] stores it); the first contact is the shape's own sphere cast along that ray, and
//! the time is its distance over `|v|`.
//!
//! A pair that touches at time 0 has a stretch `[enter, exit]` of the relative line, containing
//! 0, over which the ball touches `other` ([`Cast::sphere_span`]). The gap closes at time 0 when
//! 0 lies in the stretch's first half (`enter + exit > 0`): exactly the sign of the gap's
//! derivative for two balls (their gap is symmetric about the stretch's middle), and, for any
//! convex shape, right at a touching contact, which sits at one end of the stretch: at `enter`
//! when the ball arrives, at `exit` when it leaves.

use nalgebra::{Point, SVector, Unit};

use crate::core::unit::unit_and_length;
use crate::ray::Ray;
use crate::real::{Real, narrow, widen};
use crate::shape::Sphere;
use crate::traits::Cast;

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

impl<T: Real, const D: usize> Sphere<T, D> {
    /// The first time in `[0, max_time]` at which this ball, moving with `velocity`, touches
    /// `other`, moving with `other_velocity`, with the contact point and `other`'s outward normal
    /// there, on `other` as it is at that time.
    ///
    /// - A pair that already touches or overlaps at time 0 has an impact at time 0 if the gap is
    ///   closing, and none if the two are moving apart or keep their distance, so that a pair that
    ///   has just collided and bounced is not reported again (the rule is in the module
    ///   documentation of `src/point/impact.rs`: the first half of the stretch of overlap along
    ///   the relative motion). The point and normal of such an impact are where the ball, moved
    ///   back along the relative motion, first touched `other`: for a pair that just touches, the
    ///   contact itself.
    /// - No impact (`None`) for equal velocities, a non-finite velocity, or a negative or NaN
    ///   `max_time`; `max_time` may be `+∞`.
    /// - The time is the sphere cast's distance along the relative velocity's direction over its
    ///   speed: as precise as the cast for that direction, which is the relative velocity's
    ///   direction rounded to the width as [`Ray::new`] stores it (`docs/point-queries.md`).
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
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn time_of_impact<S: Cast<T, D>>(
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
        let v = widen(velocity) - widen(other_velocity);
        let (dir, speed) = unit_and_length(&v)?;
        let dir: SVector<T, D> = narrow(&dir);
        let ray = Ray::new(*self.center(), dir).ok()?;
        let reach = T::from_wide_up(max_time * speed);
        let hit = other.cast_sphere(&ray, self.radius(), reach)?;
        let distance = hit.distance.to_wide();
        if distance > 0.0 {
            let time = distance / speed;
            if time > max_time {
                return None;
            }
            return Some(moved(time, &hit.point, hit.normal, other_velocity));
        }
        let span = other.sphere_span(&ray, self.radius())?;
        if !(span.enter.to_wide() + span.exit.to_wide() > 0.0) {
            return None;
        }
        // Closing at time 0: the contact where the ball, moved back along the relative line,
        // first touched; the start is moved back a little further than that (by 2^-10 of the
        // problem's size), so that its rounding cannot put the ball in contact already.
        let enter = span.enter.to_wide().min(0.0);
        let size = self.radius().to_wide() - enter + widen(&self.center().coords).amax();
        let back = enter - if size > 0.0 { size / 1024.0 } else { 1.0 };
        let start = Ray::new(ray.at(T::from_wide(back)), dir).ok()?;
        let first = other.cast_sphere(&start, self.radius(), T::from_wide(f64::INFINITY))?;
        Some(moved(0.0, &first.point, first.normal, other_velocity))
    }
}

/// An impact at `time`, its contact point `point` (on the other shape as it is at time 0) moved
/// with the other shape, at `other_velocity`, to that time.
fn moved<T: Real, const D: usize>(
    time: f64,
    point: &Point<T, D>,
    normal: Unit<SVector<T, D>>,
    other_velocity: &SVector<T, D>,
) -> Impact<T, D> {
    let point = widen(&point.coords) + widen(other_velocity) * time;
    Impact {
        time: T::from_wide(time),
        point: Point::from(narrow::<T, D>(&point)),
        normal,
    }
}
