//! The arguments of a query of any kind of scene as Python passes them (rows of
//! origins or points, directions, a distance per row, a radius, the segment of a span query,
//! the distance a next crossing lies beyond, a mask, the threads), read in the scene's width and checked, and what is done to span rows
//! asked for a segment.

use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use raysweep::Span;
use raysweep::nalgebra::Point;

use crate::arrays::{PerRow, Rays, Width, per_row, points, slice};
use crate::threads::Run;

/// A query's arguments as Python passed them; `None` where the query takes no such argument or
/// the caller gave none.
pub(crate) struct QueryArgs<'py> {
    /// Origins (ray queries) or points (point queries), `(n, D)`.
    pub(crate) rows: Bound<'py, PyAny>,
    pub(crate) directions: Option<Bound<'py, PyAny>>,
    /// `max_distance` or `distance`, one or one per row.
    pub(crate) distance: Option<Bound<'py, PyAny>>,
    /// A moving ball's radius, one or one per row.
    pub(crate) radius: Option<Bound<'py, PyAny>>,
    /// A span query's segment `[0, max_distance]`, one or one per row.
    pub(crate) segment: Option<Bound<'py, PyAny>>,
    /// The distance a next crossing lies beyond, one or one per row.
    pub(crate) after: Option<Bound<'py, PyAny>>,
    /// Over the bodies (scenes) or the instances (instanced scenes).
    pub(crate) mask: Option<Bound<'py, PyAny>>,
    pub(crate) threads: Option<i64>,
}

/// The arrays of [`QueryArgs`], read in width `T`.
pub(crate) struct Read<'py, T: Width> {
    rows: PyReadonlyArray2<'py, T>,
    directions: Option<PyReadonlyArray2<'py, T>>,
    distance: Option<PyReadonlyArray1<'py, T>>,
    radius: Option<PyReadonlyArray1<'py, T>>,
    segment: Option<PyReadonlyArray1<'py, T>>,
    after: Option<PyReadonlyArray1<'py, T>>,
    mask: Option<PyReadonlyArray1<'py, bool>>,
}

impl<'py> QueryArgs<'py> {
    /// The arguments of a ray query (no radius, no segment: set them after).
    pub(crate) fn of_rays(
        origins: Bound<'py, PyAny>,
        directions: Bound<'py, PyAny>,
        max_distance: Option<Bound<'py, PyAny>>,
        mask: Option<Bound<'py, PyAny>>,
        threads: Option<i64>,
    ) -> Self {
        QueryArgs {
            rows: origins,
            directions: Some(directions),
            distance: max_distance,
            radius: None,
            segment: None,
            after: None,
            mask,
            threads,
        }
    }

    /// The arguments of a point query.
    pub(crate) fn of_points(
        points: Bound<'py, PyAny>,
        distance: Option<Bound<'py, PyAny>>,
        mask: Option<Bound<'py, PyAny>>,
        threads: Option<i64>,
    ) -> Self {
        QueryArgs {
            rows: points,
            directions: None,
            distance,
            radius: None,
            segment: None,
            after: None,
            mask,
            threads,
        }
    }

    /// The arrays, as arrays of width `T` (a `TypeError` where one is not), and the call's
    /// threads.
    pub(crate) fn read<T: Width>(&self) -> PyResult<(Read<'py, T>, Run<'py>)> {
        let read = Read {
            rows: self.rows.extract()?,
            directions: self.directions.as_ref().map(|d| d.extract()).transpose()?,
            distance: self.distance.as_ref().map(|d| d.extract()).transpose()?,
            radius: self.radius.as_ref().map(|r| r.extract()).transpose()?,
            segment: self.segment.as_ref().map(|s| s.extract()).transpose()?,
            after: self.after.as_ref().map(|a| a.extract()).transpose()?,
            mask: self.mask.as_ref().map(|m| m.extract()).transpose()?,
        };
        Ok((read, Run::new(self.rows.py(), self.threads)?))
    }
}

impl<T: Width> Read<'_, T> {
    /// The rays of a ray query.
    pub(crate) fn rays<const D: usize>(&self) -> PyResult<Rays<'_, T, D>> {
        match &self.directions {
            Some(directions) => Rays::new(&self.rows, directions),
            None => Err(PyValueError::new_err("a ray query needs directions")),
        }
    }

    /// The points of a point query.
    pub(crate) fn points<const D: usize>(&self) -> PyResult<Vec<Point<T, D>>> {
        points::<T, D>(&self.rows, "points")
    }

    /// The per-row distance (`name` in messages) of `rows` rows, not NaN; `+∞` where none was
    /// passed.
    pub(crate) fn reach(&self, name: &str, rows: usize) -> PyResult<PerRow<'_, T>> {
        match &self.distance {
            Some(distance) => per_row(distance, name, rows),
            None => Ok(PerRow::All(T::INFINITY)),
        }
    }

    /// The per-row distance of `rows` rows for a query that needs one (`within`): finite.
    pub(crate) fn distance(&self, rows: usize) -> PyResult<PerRow<'_, T>> {
        let distance = self
            .distance
            .as_ref()
            .ok_or_else(|| PyValueError::new_err("the query needs a distance"))?;
        lengths(distance, "distance", rows, true)
    }

    /// The radius of a moving ball per row (finite, not negative), where the query has one.
    pub(crate) fn radius(&self, rows: usize) -> PyResult<Option<PerRow<'_, T>>> {
        self.radius
            .as_ref()
            .map(|r| lengths(r, "radius", rows, false))
            .transpose()
    }

    /// The end of each row's segment, where a span query has one (not NaN).
    pub(crate) fn segment(&self, rows: usize) -> PyResult<Option<PerRow<'_, T>>> {
        self.segment
            .as_ref()
            .map(|s| per_row(s, "max_distance", rows))
            .transpose()
    }

    /// The distance each row's next crossing lies beyond (not NaN; `−∞` where none was passed:
    /// the first crossing ahead).
    pub(crate) fn after(&self, rows: usize) -> PyResult<PerRow<'_, T>> {
        match &self.after {
            Some(after) => per_row(after, "after", rows),
            None => Ok(PerRow::All(T::NEG_INFINITY)),
        }
    }

    /// Which of `count` bodies (or instances) take part: the mask's, checked for its length.
    pub(crate) fn keep(
        &self,
        count: usize,
        of: &str,
    ) -> PyResult<impl Fn(usize) -> bool + Copy + Sync + Send + '_> {
        let mask = match &self.mask {
            None => None,
            Some(mask) => {
                let values = slice(mask, "mask")?;
                if values.len() != count {
                    return Err(PyValueError::new_err(format!(
                        "mask has {} entries but there are {count} {of}",
                        values.len()
                    )));
                }
                Some(values)
            }
        };
        Ok(move |id: usize| mask.is_none_or(|m| m[id]))
    }
}

/// A radius or distance per row: finite, and not negative where `signed` is false.
fn lengths<'a, T: Width>(
    array: &'a PyReadonlyArray1<'_, T>,
    name: &str,
    rows: usize,
    signed: bool,
) -> PyResult<PerRow<'a, T>> {
    let values = per_row(array, name, rows)?;
    let entries = slice(array, name)?;
    if let Some(at) = entries
        .iter()
        .position(|v| !v.is_finite() || (!signed && *v < T::zero()))
    {
        return Err(PyValueError::new_err(format!(
            "{name}[{at}] must be finite{}: {}",
            if signed { "" } else { " and not negative" },
            entries[at]
        )));
    }
    Ok(values)
}

/// The spans of a row that meet the segment `[0, end]`, each clamped to it (an `enter` below 0
/// raised to 0, an `exit` beyond `end` lowered to it), sorted by `enter`, then by id (spans that
/// entered behind the origin now all enter at 0). A negative `end` keeps none.
pub(crate) fn clip<T: Width, I: Ord + Copy>(spans: &mut Vec<(I, Span<T>)>, end: T) {
    let zero = T::zero();
    if end < zero {
        spans.clear();
        return;
    }
    spans.retain_mut(|(_, s)| match s.clipped(zero, end) {
        Some(clipped) => {
            *s = clipped;
            true
        }
        None => false,
    });
    // Only the spans raised to 0 change places: by id among themselves.
    let raised = spans.iter().take_while(|(_, s)| s.enter == zero).count();
    spans[..raised].sort_by_key(|(id, _)| *id);
}
