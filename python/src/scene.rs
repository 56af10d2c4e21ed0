//! `raysweep._raysweep._Scene`: a `raysweep::Scene` of spheres, ellipsoids and boxes in one of
//! the four width and dimension pairs, and every scene query over arrays of rays or points. The
//! Python class `raysweep.Scene` (`raysweep/_scene.py`) checks dtypes and shapes and wraps the
//! answers; every answer here is the crate's, row by row.

use numpy::{PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3, PyUntypedArrayMethods};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use raysweep::nalgebra::{Rotation, SMatrix};
use raysweep::{Aabb, Body, Ellipsoid, Scene, Sphere};

use crate::args::QueryArgs;
use crate::arrays::{PointRows, Width, column, same_rows, slice, table};
use crate::bodies::{Bodies, Solids};
use crate::current::Current;
use crate::grid::PyGrid;
use crate::kinds::{ByWidth, OfWidth};
use crate::queries;
use crate::threads::Run;

/// Scenes (of one kind of solid or mixed), one for each width and dimension.
pub(crate) struct Scenes;

impl OfWidth for Scenes {
    type Of<T: Width, const D: usize> = Bodies<T, D>;
}

/// A scene in one of the widths and dimensions Python gets.
pub(crate) type AnyScene = ByWidth<Scenes>;

/// `$body` with `$s` bound to the crate's scene inside `$scene` (an [`AnyScene`]).
macro_rules! on_scene {
    ($scene:expr, $s:ident => $body:expr) => {
        on_kind!($scene, bodies => on_bodies!(bodies, $s => $body))
    };
}

/// The [`Bodies`] of width `T` in `D` dimensions inside an [`AnyScene`] of that kind.
pub(crate) trait Holds<T: Width, const D: usize> {
    fn held(&self) -> Option<&Bodies<T, D>>;
    fn holding(&mut self) -> Option<&mut Bodies<T, D>>;
    fn of(bodies: Bodies<T, D>) -> Self;
}

macro_rules! holds {
    ($variant:ident, $t:ty, $d:literal) => {
        impl Holds<$t, $d> for AnyScene {
            fn held(&self) -> Option<&Bodies<$t, $d>> {
                match self {
                    AnyScene::$variant(bodies) => Some(bodies),
                    _ => None,
                }
            }
            fn holding(&mut self) -> Option<&mut Bodies<$t, $d>> {
                match self {
                    AnyScene::$variant(bodies) => Some(bodies),
                    _ => None,
                }
            }
            fn of(bodies: Bodies<$t, $d>) -> Self {
                AnyScene::$variant(bodies)
            }
        }
    };
}
holds!(F32x2, f32, 2);
holds!(F32x3, f32, 3);
holds!(F64x2, f64, 2);
holds!(F64x3, f64, 3);

/// The bodies of a scene, in raysweep's id order: spheres, then ellipsoids, then boxes (then the
/// bodies pushed, in the order pushed).
#[pyclass(name = "_Scene", module = "raysweep._raysweep", frozen)]
pub(crate) struct PyScene {
    scene: Current<AnyScene>,
}

/// Pushes of up to this many bodies change the scene in place, at once (about 2.5 µs a body);
/// larger ones build the new scene on a thread of its own that Ctrl-C can leave behind.
pub(crate) const IN_PLACE: usize = 16_384;

impl PyScene {
    /// A Python scene holding `scene`.
    pub(crate) fn holding(scene: AnyScene) -> Self {
        PyScene {
            scene: Current::new(scene),
        }
    }

    /// The scene as it is now.
    pub(crate) fn now(&self, py: Python<'_>) -> AnyScene {
        self.scene.now(py)
    }
}

/// The arrays describing one kind of body, as `raysweep/_scene.py` passes them.
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

/// How many bodies are made from their rows between two checks for Ctrl-C: reading runs with
/// the GIL held (it borrows the caller's arrays), a few milliseconds for this many.
const READ_ROWS: usize = 1 << 16;

/// `made(row)` for each of `rows` rows of `kind`: the first it refuses is a `ValueError` naming
/// its row; Ctrl-C ends the reading every [`READ_ROWS`] rows.
fn read<S>(
    py: Python<'_>,
    rows: usize,
    kind: &str,
    made: impl Fn(usize) -> Result<S, raysweep::Error>,
) -> PyResult<Vec<S>> {
    let mut read = Vec::with_capacity(rows);
    for start in (0..rows).step_by(READ_ROWS) {
        py.check_signals()?;
        for row in start..rows.min(start + READ_ROWS) {
            read.push(made(row).map_err(|e| bad_body(kind, row, e))?);
        }
    }
    Ok(read)
}

/// The bodies the arrays describe, checked as the crate's constructors check them.
fn bodies<T: Width, const D: usize>(
    py: Python<'_>,
    spheres: &Spheres<'_>,
    ellipsoids: &Ellipsoids<'_>,
    boxes: &Boxes<'_>,
) -> PyResult<Solids<T, D>> {
    let (mut balls, mut ovals, mut cuboids) = (Vec::new(), Vec::new(), Vec::new());
    if let Some((centers, radii)) = spheres {
        let centers: PyReadonlyArray2<T> = centers.extract()?;
        let radii: PyReadonlyArray1<T> = radii.extract()?;
        let centers = PointRows::<T, D>::new(&centers, "sphere centers")?;
        let radii = slice(&radii, "sphere radii")?;
        same_rows(centers.len(), "sphere centers", radii.len(), "sphere radii")?;
        balls = read(py, centers.len(), "spheres", |row| {
            Sphere::new(centers.at(row), radii[row])
        })?;
    }
    if let Some((centers, semi_axes, rotations)) = ellipsoids {
        let centers: PyReadonlyArray2<T> = centers.extract()?;
        let semi_axes: PyReadonlyArray2<T> = semi_axes.extract()?;
        let centers = PointRows::<T, D>::new(&centers, "ellipsoid centers")?;
        let semi_axes = PointRows::<T, D>::new(&semi_axes, "ellipsoid semi-axes")?;
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
        ovals = read(py, centers.len(), "ellipsoids", |row| {
            let (center, semi) = (centers.at(row), semi_axes.at(row).coords);
            match matrices {
                None => Ellipsoid::new(center, semi),
                Some(m) => {
                    let entries = &m[row * D * D..(row + 1) * D * D];
                    let matrix = SMatrix::<T, D, D>::from_fn(|i, j| entries[i * D + j]);
                    Ellipsoid::oriented(center, semi, Rotation::from_matrix_unchecked(matrix))
                }
            }
        })?;
    }
    if let Some((mins, maxs)) = boxes {
        let mins: PyReadonlyArray2<T> = mins.extract()?;
        let maxs: PyReadonlyArray2<T> = maxs.extract()?;
        let mins = PointRows::<T, D>::new(&mins, "box mins")?;
        let maxs = PointRows::<T, D>::new(&maxs, "box maxs")?;
        same_rows(mins.len(), "box mins", maxs.len(), "box maxs")?;
        cuboids = read(py, mins.len(), "boxes", |row| {
            Aabb::new(mins.at(row), maxs.at(row))
        })?;
    }
    Ok(Solids::of(balls, ovals, cuboids))
}

/// A scene of `bodies`, built on a thread of its own (Ctrl-C leaves it behind).
fn build<T: Width, const D: usize>(run: &Run<'_>, bodies: Solids<T, D>) -> PyResult<Bodies<T, D>> {
    run.apart(move || Bodies::new(bodies))
}

/// A scene of the bodies the arrays describe.
fn make<T: Width, const D: usize>(
    run: &Run<'_>,
    spheres: &Spheres<'_>,
    ellipsoids: &Ellipsoids<'_>,
    boxes: &Boxes<'_>,
) -> PyResult<Bodies<T, D>> {
    build(run, bodies::<T, D>(run.py(), spheres, ellipsoids, boxes)?)
}

/// A scene of the bodies a pickled state holds (see [`PyScene::state`]).
fn restore<T: Width, const D: usize>(run: &Run<'_>, state: &[u8]) -> PyResult<Bodies<T, D>>
where
    Body<T, D>: serde::de::DeserializeOwned,
{
    let bodies: Vec<Body<T, D>> = postcard::from_bytes(state)
        .map_err(|err| PyValueError::new_err(format!("not a pickled raysweep scene: {err}")))?;
    run.apart(move || Bodies::new(Solids::sorted(bodies)))
}

/// Adds the bodies the arrays describe to `scene` (a [`PyScene`] of width `T` in `D`
/// dimensions); gives the id of the first. In place where few are added to a scene that has
/// its kind; else the new scene built apart (Ctrl-C leaves it behind, the scene as it was) and
/// put in its place, if no other push changed the scene meanwhile (else the push starts over).
fn push<T: Width, const D: usize>(
    scene: &PyScene,
    run: &Run<'_>,
    spheres: &Spheres<'_>,
    ellipsoids: &Ellipsoids<'_>,
    boxes: &Boxes<'_>,
) -> PyResult<usize>
where
    AnyScene: Holds<T, D>,
{
    let new = bodies::<T, D>(run.py(), spheres, ellipsoids, boxes)?;
    let kind = |any: &AnyScene| -> Bodies<T, D> { any.held().expect("one kind").clone() };
    loop {
        let before = kind(&scene.now(run.py()));
        let first = before.len();
        if new.is_empty() {
            return Ok(first);
        }
        if new.len() <= IN_PLACE && 4 * new.len() < first {
            let pushed = run.py().detach(|| {
                let mut now = scene.scene.lock();
                let held = now.holding().expect("one kind");
                held.same(&before) && held.push(&new)
            });
            if pushed {
                return Ok(first);
            }
        }
        let (start, added) = (before.clone(), new.clone());
        let after = run.apart(move || {
            let mut grown = start.clone();
            if 4 * added.len() < grown.len() && grown.push(&added) {
                return grown;
            }
            start.with(added)
        })?;
        let swapped = run.py().detach(|| {
            let mut now = scene.scene.lock();
            let same = kind(&now).same(&before);
            if same {
                *now = AnyScene::of(after);
            }
            same
        });
        if swapped {
            return Ok(first);
        }
    }
}

/// The bytes a scene holds: its bodies and its hierarchy.
fn held_bytes<T: Width, const D: usize, S>(scene: &Scene<T, D, S>) -> usize {
    size_of_val(scene.bodies()) + scene.hierarchy_bytes()
}

/// The bodies of each kind, as given: for each kind its ids and its arrays (`(ids, centers,
/// radii)`, `(ids, centers, semi_axes, rotations)`, `(ids, mins, maxs)`; rotations `None` where
/// every ellipsoid is axis-aligned, else the identity for those that are).
fn parts<T: Width, const D: usize>(py: Python<'_>, bodies: &[Body<T, D>]) -> PyResult<Py<PyAny>> {
    let (mut s, mut e, mut b) = (Kind::default(), Kind::default(), Kind::default());
    let mut rotations = Vec::new();
    let mut rotated = false;
    for (id, body) in bodies.iter().enumerate() {
        match body {
            Body::Sphere(x) => s.add(id, x.center().coords.iter(), [x.radius()].iter()),
            Body::Ellipsoid(x) => {
                e.add(id, x.center().coords.iter(), x.semi_axes().iter());
                rotated |= !x.is_axis_aligned();
                // Row-major, as numpy reads an (n, D, D) array.
                let m = x.rotation().into_inner();
                rotations.extend((0..D * D).map(|k| m[(k / D, k % D)]));
            }
            Body::Aabb(x) => b.add(id, x.min().coords.iter(), x.max().coords.iter()),
        }
    }
    let rotations = if rotated {
        let n = e.ids.len();
        let array = numpy::ndarray::Array3::from_shape_vec((n, D, D), rotations)
            .map_err(|err| PyValueError::new_err(err.to_string()))?;
        Some(numpy::IntoPyArray::into_pyarray(array, py))
    } else {
        None
    };
    let spheres = (
        column(py, s.ids),
        table(py, s.first, D)?,
        column(py, s.second),
    );
    let ellipsoids = (
        column(py, e.ids),
        table(py, e.first, D)?,
        table(py, e.second, D)?,
        rotations,
    );
    let boxes = (
        column(py, b.ids),
        table(py, b.first, D)?,
        table(py, b.second, D)?,
    );
    (spheres, ellipsoids, boxes).into_py_any(py)
}

/// The bodies of one kind: ids and two arrays of values, row after row.
struct Kind<T> {
    ids: Vec<i64>,
    first: Vec<T>,
    second: Vec<T>,
}

impl<T> Default for Kind<T> {
    fn default() -> Self {
        Kind {
            ids: Vec::new(),
            first: Vec::new(),
            second: Vec::new(),
        }
    }
}

impl<T: Copy> Kind<T> {
    fn add<'a>(
        &mut self,
        id: usize,
        first: impl Iterator<Item = &'a T>,
        second: impl Iterator<Item = &'a T>,
    ) where
        T: 'a,
    {
        self.ids.push(id as i64);
        self.first.extend(first.copied());
        self.second.extend(second.copied());
    }
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
        let run = Run::new(py, None)?;
        let scene = for_kind!(dtype, dim, make(&run, &spheres, &ellipsoids, &boxes));
        Ok(PyScene::holding(scene))
    }

    /// The scene a pickled state holds (from [`PyScene::state`]).
    #[staticmethod]
    fn restore(py: Python<'_>, dtype: &str, dim: usize, state: &[u8]) -> PyResult<Self> {
        let run = Run::new(py, None)?;
        let scene = for_kind!(dtype, dim, restore(&run, state));
        Ok(PyScene::holding(scene))
    }

    /// The bodies, for pickling: serde's compact binary form of the crate's bodies (each
    /// travels as its constructor's arguments).
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = on_kind!(&self.now(py), b => postcard::to_allocvec(&b.bodies()))
            .map_err(|err| PyValueError::new_err(err.to_string()))?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// A scene holding this one's bodies as they are now, which later pushes to either leave
    /// to the other.
    fn snapshot(&self, py: Python<'_>) -> Self {
        PyScene::holding(self.now(py))
    }

    /// The bodies of each kind with their ids, as [`parts`] gives them.
    fn parts(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        on_kind!(&self.now(py), b => parts(py, &b.bodies()))
    }

    /// Adds the bodies the arrays describe (as the constructor takes them); gives the id of the
    /// first (the others follow it).
    #[pyo3(signature = (spheres=None, ellipsoids=None, boxes=None))]
    fn push(
        &self,
        py: Python<'_>,
        spheres: Spheres<'_>,
        ellipsoids: Ellipsoids<'_>,
        boxes: Boxes<'_>,
    ) -> PyResult<usize> {
        let run = Run::new(py, None)?;
        match self.now(py) {
            AnyScene::F32x2(_) => push::<f32, 2>(self, &run, &spheres, &ellipsoids, &boxes),
            AnyScene::F32x3(_) => push::<f32, 3>(self, &run, &spheres, &ellipsoids, &boxes),
            AnyScene::F64x2(_) => push::<f64, 2>(self, &run, &spheres, &ellipsoids, &boxes),
            AnyScene::F64x3(_) => push::<f64, 3>(self, &run, &spheres, &ellipsoids, &boxes),
        }
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        on_scene!(&self.now(py), s => s.len())
    }

    /// The dimension: 2 or 3.
    #[getter]
    fn dim(&self, py: Python<'_>) -> usize {
        self.now(py).dim()
    }

    /// The width: "float32" or "float64".
    #[getter]
    fn dtype(&self, py: Python<'_>) -> &'static str {
        self.now(py).dtype()
    }

    /// The bytes the hierarchy holds.
    #[getter]
    fn hierarchy_bytes(&self, py: Python<'_>) -> usize {
        on_scene!(&self.now(py), s => s.hierarchy_bytes())
    }

    /// The bytes the scene holds: its bodies and its hierarchy.
    #[getter]
    fn nbytes(&self, py: Python<'_>) -> usize {
        on_scene!(&self.now(py), s => held_bytes(s))
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
        let scene = self.now(origins.py());
        let mut args = QueryArgs::of_rays(origins, directions, Some(max_distance), mask, threads);
        args.radius = radius;
        on_scene!(&scene, s => queries::cast_rays(s, &args))
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
        let scene = self.now(origins.py());
        let mut args = QueryArgs::of_rays(origins, directions, Some(max_distance), mask, threads);
        args.after = Some(after);
        on_scene!(&scene, s => queries::next_crossing(s, &args))
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
        let scene = self.now(origins.py());
        let args = QueryArgs::of_rays(origins, directions, Some(max_distance), mask, threads);
        on_scene!(&scene, s => queries::hits_any(s, &args))
    }

    /// Every body each whole line (or a ball of `radius` moving along it) crosses, or only the
    /// segment `[0, max_distance]` of it, clamped: (offsets, body, enter, exit).
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
        let scene = self.now(origins.py());
        let mut args = QueryArgs::of_rays(origins, directions, None, mask, threads);
        args.radius = radius;
        args.segment = max_distance;
        on_scene!(&scene, s => queries::spans(s, &args))
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
        let scene = self.now(origins.py());
        let mut args = QueryArgs::of_rays(origins, directions, None, mask, threads);
        args.segment = max_distance;
        args.radius = radius;
        on_scene!(&scene, s => queries::union_spans(s, &args))
    }

    /// Whether each cell's centre of `grid` lies in a body: a bool array of the grid's shape.
    fn occupancy(&self, grid: PyRef<'_, PyGrid>, threads: Option<i64>) -> PyResult<Py<PyAny>> {
        let py = grid.py();
        let scene = self.now(py);
        on_scene!(&scene, s => queries::occupancy(s, &grid, threads, py))
    }

    /// The bodies containing each point: (offsets, body).
    fn containing(
        &self,
        points: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let scene = self.now(points.py());
        let args = QueryArgs::of_points(points, None, mask, threads);
        on_scene!(&scene, s => queries::containing(s, &args))
    }

    /// The body nearest to each point: (signed distance, body, point, normal).
    fn nearest(
        &self,
        points: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let scene = self.now(points.py());
        let args = QueryArgs::of_points(points, Some(max_distance), mask, threads);
        on_scene!(&scene, s => queries::nearest(s, &args))
    }

    /// The bodies within `distance` of each point: (offsets, body).
    fn within(
        &self,
        points: Bound<'_, PyAny>,
        distance: Bound<'_, PyAny>,
        mask: Option<Bound<'_, PyAny>>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let scene = self.now(points.py());
        let args = QueryArgs::of_points(points, Some(distance), mask, threads);
        on_scene!(&scene, s => queries::within(s, &args))
    }
}
