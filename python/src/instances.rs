//! `raysweep._raysweep._InstancedScene`: a `raysweep::InstancedScene` placing Python scenes at
//! offsets, and its queries over arrays of rays or points. The Python class
//! `raysweep.InstancedScene` (`raysweep/_instances.py`) checks dtypes and shapes and wraps the
//! answers; every answer here is the crate's, row by row.
//!
//! Where every scene placed is of one kind of solid (balls, say: a pebble bed), the instanced
//! scene is the crate's over that kind, as fast as it is in Rust; scenes of different kinds are
//! placed as scenes of `Body`, each rebuilt once as such.

use std::sync::Arc;

use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use raysweep::nalgebra::SVector;
use raysweep::{Body, Instance, InstancedScene, Scene};

use crate::args::QueryArgs;
use crate::arrays::{Width, finite, same_rows, slice, table};
use crate::bodies::{Bodies, Solid};
use crate::grid::PyGrid;
use crate::kinds::{BySolid, ByWidth, OfSolid, OfWidth};
use crate::queries;
use crate::scene::{AnyScene, Holds, PyScene};
use crate::threads::Run;

/// Instanced scenes, one for each kind of solid.
pub(crate) struct Instances;

impl<T: Width, const D: usize> OfSolid<T, D> for Instances {
    type Of<S> = InstancedScene<T, D, S>;
}

/// An instanced scene of one kind of solid, as [`Bodies`] is a scene of one.
pub(crate) type Instanced<T, const D: usize> = BySolid<T, D, Instances>;

/// Instanced scenes, one for each width and dimension.
struct InstancedWidths;

impl OfWidth for InstancedWidths {
    type Of<T: Width, const D: usize> = Instanced<T, D>;
}

/// An instanced scene in one of the widths and dimensions Python gets.
type AnyInstanced = ByWidth<InstancedWidths>;

/// `$body` with `$s` bound to the crate's instanced scene inside `$any` (an [`AnyInstanced`]).
macro_rules! on_any {
    ($any:expr, $s:ident => $body:expr) => {
        on_kind!($any, instanced => on_solid!(instanced, $s => $body))
    };
}

#[pyclass(name = "_InstancedScene", module = "raysweep._raysweep", frozen)]
pub(crate) struct PyInstancedScene {
    core: AnyInstanced,
}

/// The scenes of `T` in `D` dimensions, as they are now; a `ValueError` naming the first of
/// another width or dimension.
fn scenes_of<T: Width, const D: usize>(
    py: Python<'_>,
    scenes: &[PyRef<'_, PyScene>],
) -> PyResult<Vec<Bodies<T, D>>>
where
    AnyScene: Holds<T, D>,
{
    scenes
        .iter()
        .enumerate()
        .map(|(k, scene)| {
            let now = scene.now(py);
            now.held().cloned().ok_or_else(|| {
                PyValueError::new_err(format!(
                    "scenes[{k}] is {} in {} dimensions, scenes[0] {} in {D}",
                    now.dtype(),
                    now.dim(),
                    T::NAME
                ))
            })
        })
        .collect()
}

/// The instances of `scenes` (one kind of solid), scene `scene_of[i]` at `offsets[i]`, and the
/// hierarchy over them, built on a thread of its own (Ctrl-C leaves it behind).
fn placed<T: Width, const D: usize, S: Solid<T, D> + 'static>(
    run: &Run<'_>,
    scenes: Vec<Shared<T, D, S>>,
    scene_of: &[usize],
    offsets: &[T],
) -> PyResult<InstancedScene<T, D, S>> {
    let instances = scene_of
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            let offset = SVector::<T, D>::from_fn(|a, _| offsets[i * D + a]);
            Instance::new(scenes[k].clone(), offset)
                .map_err(|err| PyValueError::new_err(format!("offsets[{i}]: {err}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    run.apart(move || InstancedScene::new(instances))
}

/// A scene shared by the instances that place it.
type Shared<T, const D: usize, S> = Arc<Scene<T, D, S>>;

/// Every scene's solids if all are of the kind `pick` takes, `None` otherwise.
fn all_of<T: Width, const D: usize, S>(
    scenes: &[Bodies<T, D>],
    pick: fn(&Bodies<T, D>) -> Option<Shared<T, D, S>>,
) -> Option<Vec<Shared<T, D, S>>> {
    scenes.iter().map(pick).collect()
}

/// The instanced scene of `scenes` placed as `scene_of` and `offsets` say, of the scenes' kind
/// where they share one, else of `Body`.
fn build<T: Width, const D: usize>(
    run: &Run<'_>,
    scenes: &[PyRef<'_, PyScene>],
    scene_of: &Bound<'_, PyAny>,
    offsets: &Bound<'_, PyAny>,
) -> PyResult<Instanced<T, D>>
where
    AnyScene: Holds<T, D>,
{
    let scenes = scenes_of::<T, D>(run.py(), scenes)?;
    let scene_of: PyReadonlyArray1<i64> = scene_of.extract()?;
    let scene_of = slice(&scene_of, "scene_of")?;
    let offsets: PyReadonlyArray2<T> = offsets.extract()?;
    let offsets = crate::arrays::flat(&offsets, "offsets", D)?;
    same_rows(scene_of.len(), "scene_of", offsets.len() / D, "offsets")?;
    finite(offsets, "offsets", &[offsets.len() / D, D])?;
    let scene_of = scene_of
        .iter()
        .enumerate()
        .map(|(i, &k)| {
            usize::try_from(k)
                .ok()
                .filter(|&k| k < scenes.len())
                .ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "scene_of[{i}] is {k}: there are {} scenes",
                        scenes.len()
                    ))
                })
        })
        .collect::<PyResult<Vec<usize>>>()?;
    let pick_spheres = |b: &Bodies<T, D>| match b {
        Bodies::Spheres(s) => Some(s.clone()),
        _ => None,
    };
    let pick_ellipsoids = |b: &Bodies<T, D>| match b {
        Bodies::Ellipsoids(s) => Some(s.clone()),
        _ => None,
    };
    let pick_boxes = |b: &Bodies<T, D>| match b {
        Bodies::Boxes(s) => Some(s.clone()),
        _ => None,
    };
    Ok(if let Some(s) = all_of(&scenes, pick_spheres) {
        Instanced::Spheres(placed(run, s, &scene_of, offsets)?)
    } else if let Some(s) = all_of(&scenes, pick_ellipsoids) {
        Instanced::Ellipsoids(placed(run, s, &scene_of, offsets)?)
    } else if let Some(s) = all_of(&scenes, pick_boxes) {
        Instanced::Boxes(placed(run, s, &scene_of, offsets)?)
    } else {
        let mixed: Vec<Shared<T, D, Body<T, D>>> = scenes
            .iter()
            .map(|b| match b {
                Bodies::Mixed(s) => s.clone(),
                other => Arc::new(Scene::new(other.bodies())),
            })
            .collect();
        Instanced::Mixed(placed(run, mixed, &scene_of, offsets)?)
    })
}

/// The bytes an instanced scene holds: its instances and the hierarchy over them.
fn held_bytes<T: Width, const D: usize, S: Solid<T, D>>(core: &InstancedScene<T, D, S>) -> usize {
    size_of_val(core.instances()) + core.hierarchy_bytes()
}

#[pymethods]
impl PyInstancedScene {
    /// The instanced scene placing `scenes[scene_of[i]]` at `offsets[i]` for every `i`; the
    /// scenes as they are now (a later push to one leaves this instanced scene as it was).
    #[new]
    fn new(
        py: Python<'_>,
        scenes: Vec<PyRef<'_, PyScene>>,
        scene_of: Bound<'_, PyAny>,
        offsets: Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let Some(first) = scenes.first() else {
            return Err(PyValueError::new_err(
                "an instanced scene needs at least one scene",
            ));
        };
        let (dtype, dim) = {
            let now = first.now(py);
            (now.dtype(), now.dim())
        };
        let run = Run::new(py, None)?;
        let core = for_kind!(dtype, dim, build(&run, &scenes, &scene_of, &offsets));
        Ok(PyInstancedScene { core })
    }

    fn __len__(&self) -> usize {
        on_any!(&self.core, s => s.instances().len())
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

    /// The bytes the hierarchy over the instances holds.
    #[getter]
    fn hierarchy_bytes(&self) -> usize {
        on_any!(&self.core, s => s.hierarchy_bytes())
    }

    /// The bytes the instances and the hierarchy over them hold (the scenes' own not counted).
    #[getter]
    fn nbytes(&self) -> usize {
        on_any!(&self.core, s => held_bytes(s))
    }

    /// The instances' offsets, `(n, D)`.
    #[getter]
    fn offsets(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        on_any!(&self.core, s => {
            let values = s
                .instances()
                .iter()
                .flat_map(|i| i.offset().iter().copied().collect::<Vec<_>>())
                .collect();
            table(py, values, self.core.dim())?.into_py_any(py)
        })
    }

    /// First hits of rays, or of balls of `radius` moving along them: (distance, instance,
    /// body, point, normal).
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

    /// Every body each whole line (or a ball of `radius` moving along it) crosses, or only the
    /// segment `[0, max_distance]` of it, clamped: (offsets, instance, body, enter, exit).
    #[pyo3(signature = (origins, directions, mask, threads, radius=None, max_distance=None))]
    fn spans(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
        radius: Option<Bound<'_, PyAny>>,
        max_distance: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let mut args = QueryArgs::of_rays(origins, directions, None, mask, threads);
        args.radius = radius;
        args.segment = max_distance;
        on_any!(&self.core, s => queries::spans(s, &args))
    }

    /// The intervals of the union of each line's spans (of a ball of `radius` moving along it
    /// where given; or the segment's, clamped): (offsets, enter, exit).
    #[pyo3(signature = (origins, directions, max_distance, mask, threads, radius=None))]
    fn union_spans(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Option<Bound<'_, PyAny>>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
        radius: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let mut args = QueryArgs::of_rays(origins, directions, None, mask, threads);
        args.segment = max_distance;
        args.radius = radius;
        on_any!(&self.core, s => queries::union_spans(s, &args))
    }

    /// Whether each cell's centre of `grid` lies in a body: a bool array of the grid's shape.
    fn occupancy(&self, grid: PyRef<'_, PyGrid>, threads: Option<i64>) -> PyResult<Py<PyAny>> {
        let py = grid.py();
        on_any!(&self.core, s => queries::occupancy(s, &grid, threads, py))
    }

    /// The (instance, body) pairs containing each point: (offsets, instance, body).
    fn containing(
        &self,
        points: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let args = QueryArgs::of_points(points, None, mask, threads);
        on_any!(&self.core, s => queries::containing(s, &args))
    }

    /// The (instance, body) nearest to each point within its largest distance: (signed
    /// distance, instance, body, point, normal).
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

    /// The (instance, body) pairs within each point's distance: (offsets, instance, body).
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
