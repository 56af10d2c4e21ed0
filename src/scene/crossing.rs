//! The next crossing along a ray (`Geometry::next_crossing`): which end of a body's span comes
//! next beyond a distance, and the body's outward normal there. Surface-tracking transport asks
//! it at every step ("the distance to the next boundary"); the scene kinds find the body by
//! their first-hit traversals, a body's answer being its span's next end (the argument that
//! those skip no answer holds for span ends too: `src/scene/probe/mod.rs`).

use nalgebra::{SVector, Unit};

use crate::hit::{Crossing, Span};
use crate::ray::Ray;
use crate::real::{Real, narrow};
use crate::traits::{Cast, Sealed};

/// The end of `span` that is the next crossing beyond `after` (at a distance `d` with
/// `after < d <= limit` and `d >= 0`), and whether the ray enters there; `None` where there is
/// none, and for a span that only touches (`enter == exit`) or a NaN bound.
#[inline]
pub(crate) fn next_end<T: Real>(span: &Span<T>, after: f64, limit: f64) -> Option<(T, bool)> {
    if !(span.enter.to_wide() < span.exit.to_wide()) {
        return None;
    }
    let (end, entering) = [(span.enter, true), (span.exit, false)]
        .into_iter()
        .find(|(d, _)| d.to_wide() > after && d.to_wide() >= 0.0)?;
    (end.to_wide() <= limit).then_some((end, entering))
}

/// The crossing of `body` at `end` (from [`next_end`]) along `ray`, in the body's own frame:
/// `line` is the same line in `f64`, its origin `line`'s plus `lo` (exactly the query's, where
/// the body is a translated one and `ray`'s origin rounded). The normal is the one the body's
/// own cast finds where the line enters it (for an exit, where the reversed line enters):
/// raysweep's shapes find it from the whole line, behind the origin too. A shape of the user's
/// gives the normal of its `cast_ray` at an entry, and of a cast back along the line from
/// beyond the exit (right for convex solids); `ray`'s direction where that misses.
pub(crate) fn crossing_at<T: Real, const D: usize, S: Cast<T, D>>(
    body: &S,
    ray: &Ray<T, D>,
    line: &Ray<f64, D>,
    lo: SVector<f64, D>,
    span: &Span<T>,
    (distance, entering): (T, bool),
) -> Crossing<T, D> {
    let asked = if entering { *line } else { line.reversed() };
    let normal = match body.line_entry_normal(Sealed(()), &asked, lo) {
        Some(Some(n)) => Unit::new_unchecked(narrow(n.as_ref())),
        _ => cast_normal(body, ray, span, entering),
    };
    Crossing {
        distance,
        entering,
        normal,
    }
}

/// The normal of a crossing from the body's casts (a shape of the user's): see [`crossing_at`].
fn cast_normal<T: Real, const D: usize, S: Cast<T, D>>(
    body: &S,
    ray: &Ray<T, D>,
    span: &Span<T>,
    entering: bool,
) -> Unit<SVector<T, D>> {
    let unbounded = T::from_wide(f64::INFINITY);
    let hit = if entering {
        body.cast_ray(ray, unbounded)
    } else {
        // From as far beyond the exit as the span is long, back along the line.
        let (enter, exit) = (span.enter.to_wide(), span.exit.to_wide());
        let beyond = T::from_wide(exit + (exit - enter).max(exit.abs()));
        let back = ray.moved_to(ray.at(beyond)).reversed();
        body.cast_ray(&back, unbounded)
    };
    hit.map_or(*ray.dir(), |hit| hit.normal)
}
