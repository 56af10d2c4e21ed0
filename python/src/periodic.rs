//! `raysweep._raysweep._PeriodicScene`: a `raysweep::PeriodicScene` of a Python scene's bodies
//! repeated on a lattice, and its queries over arrays of rays or points. The Python class
//! `raysweep.PeriodicScene` (`raysweep/_periodic.py`) checks dtypes and shapes and wraps the
//! answers (it stacks the image's `D` columns into one); every answer here is the crate's, row
//! by row.

use std::sync::Arc;

use numpy::PyReadonlyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use raysweep::nalgebra::{Point, SVector};
use raysweep::{PeriodicScene, Periodicity};

use crate::args::QueryArgs;
use crate::arrays::{Width, slice};
use crate::bodies::{Solid, Solids};
use crate::current::Current;
use crate::grid::PyGrid;
use crate::kinds::{BySolid, ByWidth, OfSolid, OfWidth, Picks};
use crate::queries;
use crate::scene::{AnyScene, Holds, IN_PLACE, PyScene};
use crate::threads::Run;

/// Periodic scenes shared, one for each kind of solid.
struct Periodics;

impl<T: Width, const D: usize> OfSolid<T, D> for Periodics {
    type Of<S> = Arc<PeriodicScene<T, D, S>>;
}

/// A periodic scene of one kind of solid, as [`Bodies`](crate::bodies::Bodies) is a scene of one.
type Periodic<T, const D: usize> = BySolid<T, D, Periodics>;

/// Periodic scenes, one for each width and dimension.
struct PeriodicWidths;

impl OfWidth for PeriodicWidths {
    type Of<T: Width, const D: usize> = Periodic<T, D>;
}

/// A periodic scene in one of the widths and dimensions Python gets.
type AnyPeriodic = ByWidth<PeriodicWidths>;

/// `$body` with `$s` bound to the crate's periodic scene inside `$any` (an [`AnyPeriodic`]), as
/// a `&PeriodicScene`.
macro_rules! on_any {
    ($any:expr, $s:ident => $body:expr) => {
        on_kind!($any, periodic => on_solid!(periodic, shared => {
            let $s = &**shared;
            $body
        }))
    };
}

/// The bodies of a scene repeated on a lattice, in the scene's id order (then the bodies pushed).
#[pyclass(name = "_PeriodicScene", module = "raysweep._raysweep", frozen)]
pub(crate) struct PyPeriodicScene {
    core: Current<AnyPeriodic>,
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
    let solids = bodies.since(0);
    run.apart(move || placed(solids, period))
}

/// The periodic scene of `solids` on `period`, of their kind (built on rayon's threads).
fn placed<T: Width, const D: usize>(
    solids: Solids<T, D>,
    period: Periodicity<T, D>,
) -> Periodic<T, D> {
    fn of<T: Width, const D: usize, S: Solid<T, D>>(
        bodies: Vec<S>,
        period: Periodicity<T, D>,
    ) -> Arc<PeriodicScene<T, D, S>> {
        Arc::new(PeriodicScene::new(bodies, period))
    }
    match solids {
        Solids::Spheres(v) => Periodic::Spheres(of(v, period)),
        Solids::Ellipsoids(v) => Periodic::Ellipsoids(of(v, period)),
        Solids::Boxes(v) => Periodic::Boxes(of(v, period)),
        Solids::Mixed(v) => Periodic::Mixed(of(v, period)),
    }
}

/// Adds `new` to `periodic` in place (each with `PeriodicScene::push`), where they are of its
/// kind (a scene of `Body` takes any); `false`, nothing added, where they are not.
fn grown<T: Width, const D: usize>(periodic: &mut Periodic<T, D>, new: &Solids<T, D>) -> bool {
    fn each<T: Width, const D: usize, S: Solid<T, D> + Clone>(
        periodic: &mut Arc<PeriodicScene<T, D, S>>,
        new: impl IntoIterator<Item = S>,
    ) -> bool {
        let periodic = Arc::make_mut(periodic);
        for body in new {
            periodic.push(body);
        }
        true
    }
    match (periodic, new) {
        (Periodic::Spheres(p), Solids::Spheres(v)) => each(p, v.iter().copied()),
        (Periodic::Ellipsoids(p), Solids::Ellipsoids(v)) => each(p, v.iter().copied()),
        (Periodic::Boxes(p), Solids::Boxes(v)) => each(p, v.iter().copied()),
        (Periodic::Mixed(p), new) => each(p, new.bodies()),
        _ => false,
    }
}

/// Brings `periodic` up to `scene`, the Python scene it was built from with bodies pushed since:
/// `scene`'s bodies from the periodic scene's count on are added, a few in place, many (a quarter
/// of the scene or more, or of a kind it does not hold) by building it anew from `scene`, apart.
fn caught_up<T: Width + Picks<D>, const D: usize>(
    periodic: &PyPeriodicScene,
    run: &Run<'_>,
    scene: &AnyScene,
) -> PyResult<()>
where
    AnyScene: Holds<T, D>,
{
    let py = run.py();
    let bodies = scene.held().ok_or_else(|| {
        PyValueError::new_err(format!(
            "the scene is {} in {} dimensions, the periodic scene {} in {D}",
            scene.dtype(),
            scene.dim(),
            T::NAME
        ))
    })?;
    loop {
        let before = T::pick(&periodic.core.now(py)).expect("one kind").clone();
        let (first, period) = on_solid!(&before, p => (p.len(), *p.period()));
        if bodies.len() <= first {
            return Ok(());
        }
        let new = bodies.since(first);
        if new.len() <= IN_PLACE && 4 * new.len() < first {
            let pushed = py.detach(|| {
                let mut now = periodic.core.lock();
                let held = T::pick_mut(&mut *now).expect("one kind");
                held.same(&before) && grown(held, &new)
            });
            if pushed {
                return Ok(());
            }
        }
        let all = bodies.since(0);
        let after = run.apart(move || placed(all, period))?;
        let swapped = py.detach(|| {
            let mut now = periodic.core.lock();
            let held = T::pick_mut(&mut *now).expect("one kind");
            let same = held.same(&before);
            if same {
                *held = after;
            }
            same
        });
        if swapped {
            return Ok(());
        }
    }
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
        Ok(PyPeriodicScene {
            core: Current::new(core),
        })
    }

    /// Adds the bodies `scene` (the scene this one was built from, bodies pushed to it since)
    /// holds beyond this one's count, with the same ids.
    fn push(&self, py: Python<'_>, scene: PyRef<'_, PyScene>) -> PyResult<()> {
        let scene = scene.now(py);
        let run = Run::new(py, None)?;
        match scene {
            AnyScene::F32x2(_) => caught_up::<f32, 2>(self, &run, &scene),
            AnyScene::F32x3(_) => caught_up::<f32, 3>(self, &run, &scene),
            AnyScene::F64x2(_) => caught_up::<f64, 2>(self, &run, &scene),
            AnyScene::F64x3(_) => caught_up::<f64, 3>(self, &run, &scene),
        }
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        on_any!(&self.core.now(py), s => s.len())
    }

    /// The dimension: 2 or 3.
    #[getter]
    fn dim(&self, py: Python<'_>) -> usize {
        self.core.now(py).dim()
    }

    /// The width: "float32" or "float64".
    #[getter]
    fn dtype(&self, py: Python<'_>) -> &'static str {
        self.core.now(py).dtype()
    }

    /// The bytes the hierarchy over the bodies holds.
    #[getter]
    fn hierarchy_bytes(&self, py: Python<'_>) -> usize {
        on_any!(&self.core.now(py), s => s.scene().hierarchy_bytes())
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
        let now = self.core.now(origins.py());
        let mut args = QueryArgs::of_rays(origins, directions, Some(max_distance), mask, threads);
        args.radius = radius;
        on_any!(&now, s => queries::cast_rays(s, &args))
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
        let now = self.core.now(origins.py());
        let mut args = QueryArgs::of_rays(origins, directions, Some(max_distance), mask, threads);
        args.after = Some(after);
        on_any!(&now, s => queries::next_crossing(s, &args))
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
        let now = self.core.now(origins.py());
        let args = QueryArgs::of_rays(origins, directions, Some(max_distance), mask, threads);
        on_any!(&now, s => queries::hits_any(s, &args))
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
        let now = self.core.now(origins.py());
        let mut args = QueryArgs::of_rays(origins, directions, None, mask, threads);
        args.segment = Some(max_distance);
        args.radius = radius;
        on_any!(&now, s => queries::spans(s, &args))
    }

    /// The intervals of the union of the spans of each ray's segment `[0, max_distance]` (or of
    /// a ball of `radius` moving along it), clamped: (offsets, enter, exit).
    #[pyo3(signature = (origins, directions, max_distance, mask, threads, radius=None))]
    fn union_spans(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
        radius: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let now = self.core.now(origins.py());
        let mut args = QueryArgs::of_rays(origins, directions, None, mask, threads);
        args.segment = Some(max_distance);
        args.radius = radius;
        on_any!(&now, s => queries::union_spans(s, &args))
    }

    /// Whether each cell's centre of `grid` lies in a body: a bool array of the grid's shape.
    fn occupancy(&self, grid: PyRef<'_, PyGrid>, threads: Option<i64>) -> PyResult<Py<PyAny>> {
        let py = grid.py();
        on_any!(&self.core.now(py), s => queries::occupancy(s, &grid, threads, py))
    }

    /// The `(body, image)` pairs containing each point: (offsets, body, image's `D` columns).
    fn containing(
        &self,
        points: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let now = self.core.now(points.py());
        let args = QueryArgs::of_points(points, None, mask, threads);
        on_any!(&now, s => queries::containing(s, &args))
    }

    /// The `(body, image)` nearest to each point within its largest distance.
    fn nearest(
        &self,
        points: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let now = self.core.now(points.py());
        let args = QueryArgs::of_points(points, Some(max_distance), mask, threads);
        on_any!(&now, s => queries::nearest(s, &args))
    }

    /// The `(body, image)` pairs within each point's distance.
    fn within(
        &self,
        points: Bound<'_, PyAny>,
        distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let now = self.core.now(points.py());
        let args = QueryArgs::of_points(points, Some(distance), mask, threads);
        on_any!(&now, s => queries::within(s, &args))
    }
}
