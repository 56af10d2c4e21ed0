//! `raysweep._raysweep._PeriodicScene`: a `raysweep::PeriodicScene` of a Python scene's bodies
//! repeated on a lattice, and its queries over arrays of rays or points. The Python class
//! `raysweep.PeriodicScene` (`raysweep/_periodic.py`) checks dtypes and shapes and wraps the
//! answers (it stacks the image's `D` columns into one); every answer here is the crate's, row
//! by row.

use numpy::PyReadonlyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use raysweep::nalgebra::{Point, SVector};
use raysweep::{PeriodicScene, Periodicity};

use crate::args::QueryArgs;
use crate::arrays::{Width, slice};
use crate::bodies::{Bodies, Solid};
use crate::grid::PyGrid;
use crate::kinds::{BySolid, ByWidth, OfSolid, OfWidth};
use crate::queries;
use crate::scene::{AnyScene, Holds, PyScene};
use crate::threads::Run;

/// Periodic scenes, one for each kind of solid.
struct Periodics;

impl<T: Width, const D: usize> OfSolid<T, D> for Periodics {
    type Of<S> = PeriodicScene<T, D, S>;
}

/// A periodic scene of one kind of solid, as [`Bodies`] is a scene of one.
type Periodic<T, const D: usize> = BySolid<T, D, Periodics>;

/// Periodic scenes, one for each width and dimension.
struct PeriodicWidths;

impl OfWidth for PeriodicWidths {
    type Of<T: Width, const D: usize> = Periodic<T, D>;
}

/// A periodic scene in one of the widths and dimensions Python gets.
type AnyPeriodic = ByWidth<PeriodicWidths>;

/// `$body` with `$s` bound to the crate's periodic scene inside `$any` (an [`AnyPeriodic`]).
macro_rules! on_any {
    ($any:expr, $s:ident => $body:expr) => {
        on_kind!($any, periodic => on_solid!(periodic, $s => $body))
    };
}

#[pyclass(name = "_PeriodicScene", module = "raysweep._raysweep", frozen)]
pub(crate) struct PyPeriodicScene {
    core: AnyPeriodic,
}

/// The lattice `min`, `size`, `axes` describe, in `D` dimensions; a `ValueError` saying what is
/// wrong.
fn period<T: Width, const D: usize>(
    min: &Bound<'_, PyAny>,
    size: &Bound<'_, PyAny>,
    axes: &[bool],
) -> PyResult<Periodicity<T, D>> {
    let vector = |values: &Bound<'_, PyAny>, name: &str| -> PyResult<SVector<T, D>> {
        let array: PyReadonlyArray1<T> = values.extract()?;
        let entries = slice(&array, name)?;
        if entries.len() != D {
            return Err(PyValueError::new_err(format!(
                "{name} must have {D} entries: it has {}",
                entries.len()
            )));
        }
        Ok(SVector::from_column_slice(entries))
    };
    let (min, size) = (vector(min, "period min")?, vector(size, "period size")?);
    let axes: [bool; D] = axes.try_into().map_err(|_| {
        PyValueError::new_err(format!(
            "periodic must have {D} entries: it has {}",
            axes.len()
        ))
    })?;
    Periodicity::along(Point::from(min), size, axes)
        .map_err(|err| PyValueError::new_err(format!("period: {err}")))
}

/// The periodic scene of `scene`'s bodies as they are now, of their kind, built on a thread of
/// its own (Ctrl-C leaves it behind).
fn build<T: Width, const D: usize>(
    run: &Run<'_>,
    scene: &AnyScene,
    min: &Bound<'_, PyAny>,
    size: &Bound<'_, PyAny>,
    axes: &[bool],
) -> PyResult<Periodic<T, D>>
where
    AnyScene: Holds<T, D>,
{
    let period = period::<T, D>(min, size, axes)?;
    let bodies = scene.held().cloned().ok_or_else(|| {
        PyValueError::new_err(format!(
            "the scene is {} in {} dimensions, the period {} in {D}",
            scene.dtype(),
            scene.dim(),
            T::NAME
        ))
    })?;
    fn placed<T: Width, const D: usize, S: Solid<T, D> + Clone + 'static>(
        run: &Run<'_>,
        bodies: &[S],
        period: Periodicity<T, D>,
    ) -> PyResult<PeriodicScene<T, D, S>> {
        let bodies = bodies.to_vec();
        run.apart(move || PeriodicScene::new(bodies, period))
    }
    Ok(match &bodies {
        Bodies::Spheres(s) => Periodic::Spheres(placed(run, s.bodies(), period)?),
        Bodies::Ellipsoids(s) => Periodic::Ellipsoids(placed(run, s.bodies(), period)?),
        Bodies::Boxes(s) => Periodic::Boxes(placed(run, s.bodies(), period)?),
        Bodies::Mixed(s) => Periodic::Mixed(placed(run, s.bodies(), period)?),
    })
}

#[pymethods]
impl PyPeriodicScene {
    /// `scene`'s bodies as they are now, repeated on the lattice of the box `min..min + size`
    /// along the axes `axes` marks.
    #[new]
    fn new(
        py: Python<'_>,
        scene: PyRef<'_, PyScene>,
        min: Bound<'_, PyAny>,
        size: Bound<'_, PyAny>,
        axes: Vec<bool>,
    ) -> PyResult<Self> {
        let scene = scene.now(py);
        let run = Run::new(py, None)?;
        let core = for_kind!(
            scene.dtype(),
            scene.dim(),
            build(&run, &scene, &min, &size, &axes)
        );
        Ok(PyPeriodicScene { core })
    }

    fn __len__(&self) -> usize {
        on_any!(&self.core, s => s.len())
    }

    /// The dimension: 2 or 3.
    #[getter]
    fn dim(&self) -> usize {
        self.core.dim()
    }

    /// The width: "float32" or "float64".
    #[getter]
    fn dtype(&self) -> &'static str {
        self.core.dtype()
    }

    /// The bytes the hierarchy over the bodies holds.
    #[getter]
    fn hierarchy_bytes(&self) -> usize {
        on_any!(&self.core, s => s.scene().hierarchy_bytes())
    }

    /// First hits of rays, or of balls of `radius` moving along them: (distance, body, image's
    /// `D` columns, point, normal).
    #[pyo3(signature = (origins, directions, max_distance, mask, threads, radius=None))]
    fn cast_rays(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
        radius: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let mut args = QueryArgs::of_rays(origins, directions, Some(max_distance), mask, threads);
        args.radius = radius;
        on_any!(&self.core, s => queries::cast_rays(s, &args))
    }

    /// The next crossing of each ray beyond `after` within its largest distance: (distance,
    /// ids…, entering, point, normal).
    fn next_crossing(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        after: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let mut args = QueryArgs::of_rays(origins, directions, Some(max_distance), mask, threads);
        args.after = Some(after);
        on_any!(&self.core, s => queries::next_crossing(s, &args))
    }

    /// Whether each ray hits a body within its largest distance.
    fn hits_any(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let args = QueryArgs::of_rays(origins, directions, Some(max_distance), mask, threads);
        on_any!(&self.core, s => queries::hits_any(s, &args))
    }

    /// Every `(body, image)` the segment `[0, max_distance]` of each ray (or a ball of `radius`
    /// moving along it) crosses, clamped: (offsets, body, image's `D` columns, enter, exit).
    #[pyo3(signature = (origins, directions, max_distance, mask, threads, radius=None))]
    fn spans(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
        radius: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let mut args = QueryArgs::of_rays(origins, directions, None, mask, threads);
        args.segment = Some(max_distance);
        args.radius = radius;
        on_any!(&self.core, s => queries::spans(s, &args))
    }

    /// The intervals of the union of the spans of each ray's segment `[0, max_distance]`,
    /// clamped: (offsets, enter, exit).
    fn union_spans(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let mut args = QueryArgs::of_rays(origins, directions, None, mask, threads);
        args.segment = Some(max_distance);
        on_any!(&self.core, s => queries::union_spans(s, &args))
    }

    /// Whether each cell's centre of `grid` lies in a body: a bool array of the grid's shape.
    fn occupancy(&self, grid: PyRef<'_, PyGrid>, threads: Option<i64>) -> PyResult<Py<PyAny>> {
        let py = grid.py();
        on_any!(&self.core, s => queries::occupancy(s, &grid, threads, py))
    }

    /// The `(body, image)` pairs containing each point: (offsets, body, image's `D` columns).
    fn containing(
        &self,
        points: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let args = QueryArgs::of_points(points, None, mask, threads);
        on_any!(&self.core, s => queries::containing(s, &args))
    }

    /// The `(body, image)` nearest to each point within its largest distance.
    fn nearest(
        &self,
        points: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let args = QueryArgs::of_points(points, Some(max_distance), mask, threads);
        on_any!(&self.core, s => queries::nearest(s, &args))
    }

    /// The `(body, image)` pairs within each point's distance.
    fn within(
        &self,
        points: Bound<'_, PyAny>,
        distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let args = QueryArgs::of_points(points, Some(distance), mask, threads);
        on_any!(&self.core, s => queries::within(s, &args))
    }
}
