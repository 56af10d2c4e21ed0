//! What a cast returns.

use alloc::vec::Vec;

use nalgebra::{Point, SVector, Unit};

use crate::real::Real;

/// The first contact of a cast.
///
/// # Example
///
/// ```
/// use raysweep::{Cast, Ray, Sphere};
/// use raysweep::nalgebra::{Point3, Vector3};
///
/// let ball = Sphere::new(Point3::new(5.0, 0.0, 0.0), 1.0)?;
/// let hit = ball.cast_ray(&Ray::new(Point3::origin(), Vector3::x())?, f64::INFINITY).unwrap();
/// assert_eq!(hit.distance, 4.0);
/// assert_eq!(hit.point, Point3::new(4.0, 0.0, 0.0));
/// assert_eq!(hit.normal.into_inner(), -Vector3::x());
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Hit<T: Real, const D: usize = 3> {
    /// How far the ray's origin (or the moving ball's centre) travels along the unit direction to
    /// the first contact; `0` when it starts inside (or touching).
    pub distance: T,
    /// The contact point, on the target's surface (the origin when it starts inside).
    pub point: Point<T, D>,
    /// The target's outward unit normal at `point` (`-dir` when the cast starts inside).
    pub normal: Unit<SVector<T, D>>,
}

/// The interval of distances along a whole line (both directions from the ray's origin) where the
/// line, or a ball moving along it, touches a solid. `enter <= exit`; `enter` is negative when the
/// entry lies behind the origin.
///
/// # Example
///
/// ```
/// use raysweep::{Cast, Ray, Sphere};
/// use raysweep::nalgebra::{Point2, Vector2};
///
/// let circle = Sphere::new(Point2::origin(), 2.0)?;
/// let span = circle.ray_span(&Ray::new(Point2::new(-1.0, 0.0), Vector2::x())?).unwrap();
/// assert_eq!((span.enter, span.exit), (-1.0, 3.0));
/// assert_eq!(span.length(), 4.0);
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Span<T> {
    /// Distance where the line enters the solid.
    pub enter: T,
    /// Distance where the line leaves the solid.
    pub exit: T,
}

impl<T: Real> Span<T> {
    /// The chord length `exit − enter`: the path length through the solid, correctly rounded
    /// in the width. Where the exact length exceeds the width's largest finite value (a span
    /// from near `−T::MAX` to near `T::MAX`) it rounds to `+∞`, as IEEE 754 subtraction does.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Span;
    ///
    /// assert_eq!(Span { enter: -1.5f32, exit: 2.0 }.length(), 3.5);
    /// assert_eq!(Span { enter: -f32::MAX, exit: f32::MAX }.length(), f32::INFINITY);
    /// ```
    #[inline]
    #[must_use]
    pub fn length(&self) -> T {
        self.exit - self.enter
    }

    /// The part of the span within `[from, to]`: its ends held to that interval, each end one of
    /// the four given values (no arithmetic, so no rounding: an end within the interval keeps its
    /// bits); `None` where they do not meet, or for a NaN end. A span that only touches the interval (`exit == from`) gives one of no
    /// length.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Span;
    ///
    /// let chord = Span { enter: -1.0, exit: 3.0 };
    /// assert_eq!(chord.clipped(0.0, 2.0), Some(Span { enter: 0.0, exit: 2.0 }));
    /// assert_eq!(chord.clipped(3.0, 5.0), Some(Span { enter: 3.0, exit: 3.0 }));
    /// assert_eq!(chord.clipped(4.0, 5.0), None);
    /// ```
    #[inline]
    #[must_use]
    pub fn clipped(&self, from: T, to: T) -> Option<Span<T>> {
        // An end within the interval keeps its own bits (a `-0.0` entry at `from = 0.0` too).
        let enter = if self.enter < from { from } else { self.enter };
        let exit = if self.exit > to { to } else { self.exit };
        (from <= to && enter <= exit).then_some(Span { enter, exit })
    }

    /// The length of the span within `[from, to]`: [`Span::clipped`]'s length, `0` where they
    /// do not meet. Summed over a segment's spans, the path length inside the bodies.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Span;
    ///
    /// assert_eq!(Span { enter: -1.0, exit: 3.0 }.length_within(0.0, 2.0), 2.0);
    /// assert_eq!(Span { enter: 4.0, exit: 5.0 }.length_within(0.0, 2.0), 0.0);
    /// ```
    #[inline]
    #[must_use]
    pub fn length_within(&self, from: T, to: T) -> T {
        self.clipped(from, to).map_or_else(T::zero, |s| s.length())
    }

    /// Clears `union`, then fills it with the maximal intervals of the union of `spans`, which
    /// come sorted by `enter`: a span that starts at or before the current interval's exit
    /// (`enter <= exit`, so spans that touch are one interval) extends it. Each end is one of
    /// the spans' ends, with its bits. What [`Geometry::union_spans`](crate::Geometry::union_spans)
    /// does with a scene's spans, for spans of your own (a whole line's, clipped ones).
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::Span;
    ///
    /// let spans = [(-1.0, 2.0), (0.5, 1.0), (2.0, 3.0), (5.0, 6.0)];
    /// let mut union = Vec::new();
    /// Span::union_of(spans.map(|(enter, exit)| Span { enter, exit }), &mut union);
    /// assert_eq!(union, [Span { enter: -1.0, exit: 3.0 }, Span { enter: 5.0, exit: 6.0 }]);
    /// ```
    pub fn union_of(spans: impl IntoIterator<Item = Span<T>>, union: &mut Vec<Span<T>>) {
        union.clear();
        let mut current: Option<Span<T>> = None;
        for span in spans {
            current = Some(match current {
                Some(open) if span.enter.to_wide() <= open.exit.to_wide() => Span {
                    enter: open.enter,
                    exit: if span.exit.to_wide() > open.exit.to_wide() {
                        span.exit
                    } else {
                        open.exit
                    },
                },
                Some(open) => {
                    union.push(open);
                    span
                }
                None => span,
            });
        }
        union.extend(current);
    }
}

/// Where a ray crosses a solid's surface, entering or leaving it: an end of the solid's
/// [`Span`] along the ray (one where `enter < exit`), as a scene's `next_crossing` answers it.
///
/// # Example
///
/// ```
/// use raysweep::nalgebra::{Point2, Vector2};
/// use raysweep::{Circle, Ray, Scene};
///
/// let scene: Scene<f64, 2, Circle<f64>> = Scene::new(vec![Circle::new(Point2::origin(), 1.0)?]);
/// let ray = Ray::new(Point2::new(-3.0, 0.0), Vector2::x())?;
/// let entry = scene.next_crossing(&ray, -1.0, f64::INFINITY).unwrap().crossing;
/// assert_eq!((entry.distance, entry.entering), (2.0, true));
/// let exit = scene.next_crossing(&ray, entry.distance, f64::INFINITY).unwrap().crossing;
/// assert_eq!((exit.distance, exit.entering), (4.0, false));
/// assert_eq!(exit.normal.into_inner(), Vector2::x());
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Crossing<T: Real, const D: usize = 3> {
    /// How far along the ray's unit direction the crossing lies: the span's `enter` or `exit`,
    /// its bits.
    pub distance: T,
    /// `true` where the ray enters the solid there, `false` where it leaves it.
    pub entering: bool,
    /// The solid's outward unit normal at the crossing point (facing against the ray where it
    /// enters, along it where it leaves).
    pub normal: Unit<SVector<T, D>>,
}
