//! `raysweep._raysweep._Scene`: a `raysweep::Scene` of spheres, ellipsoids and boxes in one of
//! the four width and dimension pairs, and every scene query over arrays of rays or points. The
//! Python class `raysweep.Scene` (in `raysweep/__init__.py`) checks dtypes and shapes and wraps
//! the answers; every answer here is the crate's, row by row.

use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3, PyUntypedArrayMethods};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use raysweep::nalgebra::Point;
use raysweep::nalgebra::{Rotation, SMatrix};
use raysweep::{Aabb, Body, BodyNearest, BodySpan, Cast, Ellipsoid, PointQuery, Scene, Sphere};

use core::convert::Infallible;

use crate::arrays::{PerRow, Rays, Width, column, per_row, points, same_rows, slice, table};
use crate::bodies::Bodies;
use crate::rows::{columns, each, ragged, row_by_row};
use crate::threads::on_threads;

/// A scene in one of the widths and dimensions Python gets.
enum AnyScene {
    F32x2(Bodies<f32, 2>),
    F32x3(Bodies<f32, 3>),
    F64x2(Bodies<f64, 2>),
    F64x3(Bodies<f64, 3>),
}

/// `$body` with `$s` bound to the crate's scene inside `$scene` (an [`AnyScene`]).
macro_rules! on_scene {
    ($scene:expr, $s:ident => $body:expr) => {
        on_kind!(AnyScene, $scene, bodies => on_bodies!(bodies, $s => $body))
    };
}

kind_names!(AnyScene);

/// What a scene's bodies answer: casts and point queries, shared across threads.
trait Solid<T: Width, const D: usize>: Cast<T, D> + PointQuery<T, D> + Sync {}

impl<T: Width, const D: usize, S: Cast<T, D> + PointQuery<T, D> + Sync> Solid<T, D> for S {}

/// The bodies of a scene, in raysweep's id order: spheres, then ellipsoids, then boxes.
#[pyclass(name = "_Scene", module = "raysweep._raysweep", frozen)]
pub(crate) struct PyScene {
    scene: AnyScene,
}

/// The arrays describing one kind of body, as `raysweep/__init__.py` passes them.
type Spheres<'py> = Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>;
type Ellipsoids<'py> = Option<(
    Bound<'py, PyAny>,
    Bound<'py, PyAny>,
    Option<Bound<'py, PyAny>>,
)>;
type Boxes<'py> = Option<(Bound<'py, PyAny>, Bound<'py, PyAny>)>;

/// A `ValueError` for the body in row `row` of `kind`.
fn bad_body(kind: &str, row: usize, err: raysweep::Error) -> PyErr {
    PyValueError::new_err(format!("{kind}[{row}]: {err}"))
}

/// The bodies the arrays describe, checked as the crate's constructors check them.
fn bodies<T: Width, const D: usize>(
    spheres: &Spheres<'_>,
    ellipsoids: &Ellipsoids<'_>,
    boxes: &Boxes<'_>,
) -> PyResult<Vec<Body<T, D>>> {
    let mut bodies = Vec::new();
    if let Some((centers, radii)) = spheres {
        let centers: PyReadonlyArray2<T> = centers.extract()?;
        let radii: PyReadonlyArray1<T> = radii.extract()?;
        let centers = points::<T, D>(&centers, "sphere centers")?;
        let radii = slice(&radii, "sphere radii")?;
        same_rows(centers.len(), "sphere centers", radii.len(), "sphere radii")?;
        for (row, (&center, &radius)) in centers.iter().zip(radii).enumerate() {
            bodies.push(
                Sphere::new(center, radius)
                    .map_err(|e| bad_body("spheres", row, e))?
                    .into(),
            );
        }
    }
    if let Some((centers, semi_axes, rotations)) = ellipsoids {
        let centers: PyReadonlyArray2<T> = centers.extract()?;
        let semi_axes: PyReadonlyArray2<T> = semi_axes.extract()?;
        let centers = points::<T, D>(&centers, "ellipsoid centers")?;
        let semi_axes = points::<T, D>(&semi_axes, "ellipsoid semi-axes")?;
        same_rows(
            centers.len(),
            "ellipsoid centers",
            semi_axes.len(),
            "ellipsoid semi-axes",
        )?;
        let rotations: Option<PyReadonlyArray3<T>> =
            rotations.as_ref().map(|r| r.extract()).transpose()?;
        let matrices = match &rotations {
            None => None,
            Some(array) => {
                let shape = array.shape();
                if shape[1..] != [D, D] {
                    return Err(PyValueError::new_err(format!(
                        "ellipsoid rotations have shape {shape:?}: expected (n, {D}, {D})"
                    )));
                }
                same_rows(
                    centers.len(),
                    "ellipsoid centers",
                    shape[0],
                    "ellipsoid rotations",
                )?;
                Some(slice(array, "ellipsoid rotations")?)
            }
        };
        for (row, (&center, semi)) in centers.iter().zip(&semi_axes).enumerate() {
            let made = match matrices {
                None => Ellipsoid::new(center, semi.coords),
                Some(m) => {
                    let entries = &m[row * D * D..(row + 1) * D * D];
                    let matrix = SMatrix::<T, D, D>::from_fn(|i, j| entries[i * D + j]);
                    Ellipsoid::oriented(
                        center,
                        semi.coords,
                        Rotation::from_matrix_unchecked(matrix),
                    )
                }
            };
            bodies.push(made.map_err(|e| bad_body("ellipsoids", row, e))?.into());
        }
    }
    if let Some((mins, maxs)) = boxes {
        let mins: PyReadonlyArray2<T> = mins.extract()?;
        let maxs: PyReadonlyArray2<T> = maxs.extract()?;
        let mins = points::<T, D>(&mins, "box mins")?;
        let maxs = points::<T, D>(&maxs, "box maxs")?;
        same_rows(mins.len(), "box mins", maxs.len(), "box maxs")?;
        for (row, (&min, &max)) in mins.iter().zip(&maxs).enumerate() {
            bodies.push(
                Aabb::new(min, max)
                    .map_err(|e| bad_body("boxes", row, e))?
                    .into(),
            );
        }
    }
    Ok(bodies)
}

/// A scene of the bodies the arrays describe, built with the GIL released.
fn build<T: Width, const D: usize>(
    py: Python<'_>,
    spheres: &Spheres<'_>,
    ellipsoids: &Ellipsoids<'_>,
    boxes: &Boxes<'_>,
) -> PyResult<Bodies<T, D>> {
    let bodies = bodies::<T, D>(spheres, ellipsoids, boxes)?;
    Ok(py.detach(|| Bodies::new(bodies)))
}

/// A scene of the bodies a pickled state holds (see [`PyScene::state`]).
fn restore<T: Width, const D: usize>(py: Python<'_>, state: &[u8]) -> PyResult<Bodies<T, D>>
where
    Body<T, D>: serde::de::DeserializeOwned,
{
    let bodies: Vec<Body<T, D>> = postcard::from_bytes(state)
        .map_err(|err| PyValueError::new_err(format!("not a pickled raysweep scene: {err}")))?;
    Ok(py.detach(|| Bodies::new(bodies)))
}

/// The mask over a scene's bodies, checked for its length.
fn mask_of<'a>(
    mask: &'a Option<PyReadonlyArray1<'_, bool>>,
    bodies: usize,
) -> PyResult<Option<&'a [bool]>> {
    let Some(mask) = mask else {
        return Ok(None);
    };
    let values = slice(mask, "mask")?;
    if values.len() != bodies {
        return Err(PyValueError::new_err(format!(
            "mask has {} entries but the scene has {bodies} bodies",
            values.len()
        )));
    }
    Ok(Some(values))
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

/// Spans in CSR form, as columns: offsets, body, enter, exit.
fn span_columns<T: Width>(
    py: Python<'_>,
    (offsets, spans): (Vec<i64>, Vec<BodySpan<T>>),
) -> PyResult<Py<PyAny>> {
    let body = spans.iter().map(|s| s.body as i64).collect();
    let enter = spans.iter().map(|s| s.span.enter).collect();
    let exit = spans.iter().map(|s| s.span.exit).collect();
    (
        column(py, offsets),
        column(py, body),
        column(py, enter),
        column(py, exit),
    )
        .into_py_any(py)
}

/// Body ids in CSR form, as columns: offsets, body.
fn id_columns(py: Python<'_>, (offsets, ids): (Vec<i64>, Vec<usize>)) -> PyResult<Py<PyAny>> {
    let body = ids.into_iter().map(|id| id as i64).collect();
    (column(py, offsets), column(py, body)).into_py_any(py)
}

/// The arguments of a query as Python passed them: the rows (origins or points), the directions
/// (ray queries), the per-row distance, the mask and the threads.
struct QueryArgs<'py> {
    rows: Bound<'py, PyAny>,
    directions: Option<Bound<'py, PyAny>>,
    distance: Option<Bound<'py, PyAny>>,
    mask: Option<Bound<'py, PyAny>>,
    threads: Option<i64>,
}

/// The arrays of [`QueryArgs`], read in width `T`.
struct Read<'py, T: Width> {
    rows: PyReadonlyArray2<'py, T>,
    directions: Option<PyReadonlyArray2<'py, T>>,
    distance: Option<PyReadonlyArray1<'py, T>>,
    mask: Option<PyReadonlyArray1<'py, bool>>,
}

impl<'py> QueryArgs<'py> {
    /// The arrays, as arrays of width `T` (a `TypeError` where one is not).
    fn read<T: Width>(&self) -> PyResult<Read<'py, T>> {
        Ok(Read {
            rows: self.rows.extract()?,
            directions: self.directions.as_ref().map(|d| d.extract()).transpose()?,
            distance: self.distance.as_ref().map(|d| d.extract()).transpose()?,
            mask: self.mask.as_ref().map(|m| m.extract()).transpose()?,
        })
    }
}

impl<T: Width> Read<'_, T> {
    /// The rays of a ray query.
    fn rays<const D: usize>(&self) -> PyResult<Rays<'_, T, D>> {
        match &self.directions {
            Some(directions) => Rays::new(&self.rows, directions),
            None => Err(PyValueError::new_err("a ray query needs directions")),
        }
    }

    /// The points of a point query.
    fn points<const D: usize>(&self) -> PyResult<Vec<Point<T, D>>> {
        points::<T, D>(&self.rows, "points")
    }

    /// The per-row distance (`name` in messages) of `rows` rows; `+∞` where none was passed.
    fn reach(&self, name: &str, rows: usize) -> PyResult<PerRow<'_, T>> {
        match &self.distance {
            Some(distance) => per_row(distance, name, rows),
            None => Ok(PerRow::All(T::INFINITY)),
        }
    }

    /// The bodies that take part in a scene of `bodies` bodies.
    fn keep(&self, bodies: usize) -> PyResult<impl Fn(usize) -> bool + Copy + Sync + Send + '_> {
        let mask = mask_of(&self.mask, bodies)?;
        Ok(move |id: usize| mask.is_none_or(|m| m[id]))
    }
}

/// The radii of a sphere query: finite, not negative, one or one per row.
fn radii<'a, T: Width>(
    radius: &'a PyReadonlyArray1<'_, T>,
    rows: usize,
) -> PyResult<PerRow<'a, T>> {
    lengths(radius, "radius", rows, false)
}

fn cast_rays<T: Width, const D: usize, S: Solid<T, D>>(
    py: Python<'_>,
    scene: &Scene<T, D, S>,
    args: &QueryArgs<'_>,
    radius: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let read = args.read::<T>()?;
    let threads = args.threads;
    let rays = read.rays::<D>()?;
    let reach = read.reach("max_distance", rays.len())?;
    let keep = read.keep(scene.len())?;
    let radius: Option<PyReadonlyArray1<T>> = radius.map(|r| r.extract()).transpose()?;
    let radius = radius.as_ref().map(|r| radii(r, rays.len())).transpose()?;
    let hits = py
        .detach(|| {
            on_threads(threads, || {
                columns(
                    rays.len(),
                    row_by_row(|row| {
                        let ray = rays.get(row)?;
                        let hit = match radius {
                            None => scene.cast_ray_filtered(&ray, reach.at(row), keep),
                            Some(r) => {
                                scene.cast_sphere_filtered(&ray, r.at(row), reach.at(row), keep)
                            }
                        };
                        Ok(hit.map(|h| (h.body, h.hit.distance, h.hit.point, h.hit.normal)))
                    }),
                )
            })
        })?
        .map_err(|e| rays.first_error(e))?;
    (
        column(py, hits.value),
        column(py, hits.id),
        table(py, hits.point, D)?,
        table(py, hits.normal, D)?,
    )
        .into_py_any(py)
}

fn hits_any<T: Width, const D: usize, S: Solid<T, D>>(
    py: Python<'_>,
    scene: &Scene<T, D, S>,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let read = args.read::<T>()?;
    let threads = args.threads;
    let rays = read.rays::<D>()?;
    let reach = read.reach("max_distance", rays.len())?;
    let keep = read.keep(scene.len())?;
    let any = py.detach(|| {
        on_threads(threads, || {
            each(rays.len(), |row| {
                Ok(scene.hits_any_filtered(&rays.get(row)?, reach.at(row), keep))
            })
        })
    })?;
    column(py, any.map_err(|e| rays.first_error(e))?).into_py_any(py)
}

fn spans<T: Width, const D: usize, S: Solid<T, D>>(
    py: Python<'_>,
    scene: &Scene<T, D, S>,
    args: &QueryArgs<'_>,
    radius: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let read = args.read::<T>()?;
    let threads = args.threads;
    let rays = read.rays::<D>()?;
    let keep = read.keep(scene.len())?;
    let radius: Option<PyReadonlyArray1<T>> = radius.map(|r| r.extract()).transpose()?;
    let radius = radius.as_ref().map(|r| radii(r, rays.len())).transpose()?;
    let found = py.detach(|| {
        on_threads(threads, || {
            ragged(rays.len(), |row, out| {
                let ray = rays.get(row)?;
                match radius {
                    None => scene.ray_spans_filtered(&ray, out, keep),
                    Some(r) => scene.sphere_spans_filtered(&ray, r.at(row), out, keep),
                }
                Ok(())
            })
        })
    })?;
    span_columns(py, found.map_err(|e| rays.first_error(e))?)
}

fn containing<T: Width, const D: usize, S: Solid<T, D>>(
    py: Python<'_>,
    scene: &Scene<T, D, S>,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let read = args.read::<T>()?;
    let threads = args.threads;
    let at = read.points::<D>()?;
    let keep = read.keep(scene.len())?;
    let found = py.detach(|| {
        on_threads(threads, || {
            ragged(at.len(), |row, out| {
                scene.containing_filtered(&at[row], out, keep);
                Ok::<_, Infallible>(())
            })
        })
    })?;
    let Ok(found) = found;
    id_columns(py, found)
}

fn nearest<T: Width, const D: usize, S: Solid<T, D>>(
    py: Python<'_>,
    scene: &Scene<T, D, S>,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let read = args.read::<T>()?;
    let threads = args.threads;
    let at = read.points::<D>()?;
    let reach = read.reach("max_distance", at.len())?;
    let keep = read.keep(scene.len())?;
    let found = py.detach(|| {
        on_threads(threads, || {
            columns(at.len(), |rows, answers| {
                let answer = |n: BodyNearest<T, D>| (n.body, n.signed_distance, n.point, n.normal);
                match reach {
                    // One limit for all: the searches of a block side by side.
                    PerRow::All(max) => {
                        let mut found = vec![None; rows.len()];
                        scene.nearest_batch_filtered(&at[rows], max, &mut found, keep);
                        answers.extend(found.into_iter().map(|n| n.map(answer)));
                    }
                    PerRow::Each(_) => answers.extend(rows.map(|row| {
                        scene
                            .nearest_filtered(&at[row], reach.at(row), keep)
                            .map(answer)
                    })),
                }
                Ok::<_, Infallible>(())
            })
        })
    })?;
    let Ok(found) = found;
    (
        column(py, found.id),
        column(py, found.value),
        table(py, found.point, D)?,
        table(py, found.normal, D)?,
    )
        .into_py_any(py)
}

fn within<T: Width, const D: usize, S: Solid<T, D>>(
    py: Python<'_>,
    scene: &Scene<T, D, S>,
    args: &QueryArgs<'_>,
) -> PyResult<Py<PyAny>> {
    let read = args.read::<T>()?;
    let threads = args.threads;
    let at = read.points::<D>()?;
    let distance = read
        .distance
        .as_ref()
        .ok_or_else(|| PyValueError::new_err("within needs a distance"))?;
    let reach = lengths(distance, "distance", at.len(), true)?;
    let keep = read.keep(scene.len())?;
    let found = py.detach(|| {
        on_threads(threads, || {
            ragged(at.len(), |row, out| {
                scene.within_filtered(&at[row], reach.at(row), out, keep);
                Ok::<_, Infallible>(())
            })
        })
    })?;
    let Ok(found) = found;
    id_columns(py, found)
}

#[pymethods]
impl PyScene {
    /// A scene of the bodies the arrays describe (each pair or triple optional), of width
    /// `dtype` ("float32" or "float64") in `dim` dimensions.
    #[new]
    #[pyo3(signature = (dtype, dim, spheres=None, ellipsoids=None, boxes=None))]
    fn new(
        py: Python<'_>,
        dtype: &str,
        dim: usize,
        spheres: Spheres<'_>,
        ellipsoids: Ellipsoids<'_>,
        boxes: Boxes<'_>,
    ) -> PyResult<Self> {
        let scene = for_kind!(
            AnyScene,
            dtype,
            dim,
            build(py, &spheres, &ellipsoids, &boxes)
        );
        Ok(PyScene { scene })
    }

    /// The scene a pickled state holds (from [`PyScene::state`]).
    #[staticmethod]
    fn restore(py: Python<'_>, dtype: &str, dim: usize, state: &[u8]) -> PyResult<Self> {
        let scene = for_kind!(AnyScene, dtype, dim, restore(py, state));
        Ok(PyScene { scene })
    }

    /// The bodies, for pickling: serde's compact binary form of the crate's bodies (each
    /// travels as its constructor's arguments).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = on_kind!(AnyScene, &self.scene, b => postcard::to_allocvec(&b.bodies()))
            .map_err(|err| PyValueError::new_err(err.to_string()))?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn __len__(&self) -> usize {
        on_scene!(&self.scene, s => s.len())
    }

    /// The dimension: 2 or 3.
    #[getter]
    fn dim(&self) -> usize {
        self.scene.dim()
    }

    /// The width: "float32" or "float64".
    #[getter]
    fn dtype(&self) -> &'static str {
        self.scene.dtype()
    }

    /// The bytes the hierarchy holds.
    #[getter]
    fn hierarchy_bytes(&self) -> usize {
        on_scene!(&self.scene, s => s.hierarchy_bytes())
    }

    /// First hits of rays, or of balls of `radius` moving along them: (distance, body, point,
    /// normal).
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
        let py = origins.py();
        let args = QueryArgs {
            rows: origins,
            directions: Some(directions),
            distance: Some(max_distance),
            mask,
            threads,
        };
        on_scene!(&self.scene, s => cast_rays(py, s, &args, radius.as_ref()))
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
        let py = origins.py();
        let args = QueryArgs {
            rows: origins,
            directions: Some(directions),
            distance: Some(max_distance),
            mask,
            threads,
        };
        on_scene!(&self.scene, s => hits_any(py, s, &args))
    }

    /// Every body each whole line (or a ball of `radius` moving along it) crosses: (offsets,
    /// body, enter, exit).
    #[pyo3(signature = (origins, directions, mask, threads, radius=None))]
    fn spans(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
        radius: Option<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let py = origins.py();
        let args = QueryArgs {
            rows: origins,
            directions: Some(directions),
            distance: None,
            mask,
            threads,
        };
        on_scene!(&self.scene, s => spans(py, s, &args, radius.as_ref()))
    }

    /// The bodies containing each point: (offsets, body).
    fn containing(
        &self,
        points: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let py = points.py();
        let args = QueryArgs {
            rows: points,
            directions: None,
            distance: None,
            mask,
            threads,
        };
        on_scene!(&self.scene, s => containing(py, s, &args))
    }

    /// The body nearest to each point: (body, signed distance, point, normal).
    fn nearest(
        &self,
        points: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let py = points.py();
        let args = QueryArgs {
            rows: points,
            directions: None,
            distance: Some(max_distance),
            mask,
            threads,
        };
        on_scene!(&self.scene, s => nearest(py, s, &args))
    }

    /// The bodies within `distance` of each point: (offsets, body).
    fn within(
        &self,
        points: Bound<'_, PyAny>,
        distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let py = points.py();
        let args = QueryArgs {
            rows: points,
            directions: None,
            distance: Some(distance),
            mask,
            threads,
        };
        on_scene!(&self.scene, s => within(py, s, &args))
    }
}
