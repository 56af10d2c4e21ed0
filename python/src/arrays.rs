//! numpy arrays in and out: rows of points and rays read from the arrays the Python layer hands
//! over (native, C-contiguous, of the scene's width: `raysweep/_arrays.py` makes them so), every
//! bad value a `ValueError` naming its row; answers handed to numpy without a copy.

use numpy::ndarray::{Array1, Array2};
use numpy::{
    Element, IntoPyArray, PyArray1, PyArray2, PyReadonlyArray1, PyReadonlyArray2,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use raysweep::nalgebra::{Point, SVector};
use raysweep::{Ray, Real};

/// The widths a Python scene or grid comes in.
pub(crate) trait Width: Real + Element + Send + Sync {
    /// The width's numpy name.
    const NAME: &'static str;
}

impl Width for f32 {
    const NAME: &'static str = "float32";
}

impl Width for f64 {
    const NAME: &'static str = "float64";
}

/// The values of `array` (`name` in messages) in C order: the Python layer hands over aligned
/// C-contiguous arrays, and anything else is refused rather than read in another order.
pub(crate) fn slice<'a, T: Element, D: numpy::ndarray::Dimension>(
    array: &'a numpy::PyReadonlyArray<'_, T, D>,
    name: &str,
) -> PyResult<&'a [T]> {
    if !array.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "{name} is not aligned and C-contiguous"
        )));
    }
    array
        .as_slice()
        .map_err(|_| PyValueError::new_err(format!("{name} is not aligned and C-contiguous")))
}

/// The rows of a two-dimensional array of shape `(n, D)` named `name`, as one slice of `n·D`
/// values, row after row.
pub(crate) fn flat<'a, T: Width>(
    array: &'a PyReadonlyArray2<'_, T>,
    name: &str,
    dim: usize,
) -> PyResult<&'a [T]> {
    let shape = array.shape();
    if shape[1] != dim {
        return Err(PyValueError::new_err(format!(
            "{name} has shape {shape:?}: expected (n, {dim})"
        )));
    }
    slice(array, name)
}

/// Row `row` of `flat` as a point of `D` coordinates.
fn point_at<T: Width, const D: usize>(flat: &[T], row: usize) -> Point<T, D> {
    Point::from(SVector::<T, D>::from_fn(|i, _| flat[row * D + i]))
}

/// The points of `array` (shape `(n, D)`), each coordinate finite.
pub(crate) fn points<T: Width, const D: usize>(
    array: &PyReadonlyArray2<'_, T>,
    name: &str,
) -> PyResult<Vec<Point<T, D>>> {
    let rows = PointRows::<T, D>::new(array, name)?;
    Ok((0..rows.len()).map(|row| rows.at(row)).collect())
}

/// The points of an array of shape `(n, D)`, each coordinate checked finite, each made where it
/// is read: no vector of them is stored.
pub(crate) struct PointRows<'a, T, const D: usize>(&'a [T]);

impl<'a, T: Width, const D: usize> PointRows<'a, T, D> {
    /// The rows of `array` (`name` in messages).
    pub(crate) fn new(array: &'a PyReadonlyArray2<'_, T>, name: &str) -> PyResult<Self> {
        let values = flat(array, name, D)?;
        finite(values, name, &[values.len() / D, D])?;
        Ok(PointRows(values))
    }

    /// How many points.
    pub(crate) fn len(&self) -> usize {
        self.0.len() / D
    }

    /// The point in row `row`.
    pub(crate) fn at(&self, row: usize) -> Point<T, D> {
        point_at(self.0, row)
    }
}

/// A ray `Ray::new` refused, met by a query on some thread: [`Rays::first_error`] names the first.
pub(crate) struct Refused;

/// The rays of `origins` and `directions` (both of shape `(n, D)`), each built where a query
/// needs it, as `Ray::new` builds it (direction normalised; zero and non-finite ones refused), so
/// that no array of rays is stored and the building runs on the query's threads.
pub(crate) struct Rays<'a, T, const D: usize> {
    origins: &'a [T],
    directions: &'a [T],
}

impl<'a, T: Width, const D: usize> Rays<'a, T, D> {
    /// The rays of the two arrays, checked for their shapes.
    pub(crate) fn new(
        origins: &'a PyReadonlyArray2<'_, T>,
        directions: &'a PyReadonlyArray2<'_, T>,
    ) -> PyResult<Self> {
        let o = flat(origins, "origins", D)?;
        let d = flat(directions, "directions", D)?;
        same_rows(o.len() / D, "origins", d.len() / D, "directions")?;
        Ok(Rays {
            origins: o,
            directions: d,
        })
    }

    /// How many rays.
    pub(crate) fn len(&self) -> usize {
        self.origins.len() / D
    }

    /// Every row's origin, as given (not checked: a bad row is refused where its ray is made).
    pub(crate) fn origins(&self) -> Vec<Point<T, D>> {
        (0..self.len())
            .map(|row| point_at(self.origins, row))
            .collect()
    }

    /// Ray `row`, or [`Refused`] where `Ray::new` refuses it.
    #[inline]
    pub(crate) fn get(&self, row: usize) -> Result<Ray<T, D>, Refused> {
        Ray::new(
            point_at(self.origins, row),
            point_at(self.directions, row).coords,
        )
        .map_err(|_| Refused)
    }

    /// The `ValueError` of the first ray `Ray::new` refuses, naming its row and why (what a
    /// query that met a [`Refused`] ray raises).
    pub(crate) fn first_error(&self, _: Refused) -> PyErr {
        (0..self.len())
            .find_map(|row| {
                Ray::<T, D>::new(
                    point_at(self.origins, row),
                    point_at(self.directions, row).coords,
                )
                .err()
                .map(|err| {
                    PyValueError::new_err(format!(
                        "ray {row} (origins[{row}], directions[{row}]): {err}"
                    ))
                })
            })
            .unwrap_or_else(|| PyValueError::new_err("a ray was refused"))
    }
}

/// `ValueError` unless every value of `values` (an array of shape `shape`, in C order) is
/// finite, naming the first that is not by its index (`volume[3, 1, 2] is not finite: NaN`).
pub(crate) fn finite<T: Width>(values: &[T], name: &str, shape: &[usize]) -> PyResult<()> {
    let Some(at) = values.iter().position(|v| !v.is_finite()) else {
        return Ok(());
    };
    let mut index = vec![0; shape.len()];
    let mut rest = at;
    for (axis, &n) in shape.iter().enumerate().rev() {
        index[axis] = rest % n.max(1);
        rest /= n.max(1);
    }
    let index: Vec<String> = index.iter().map(usize::to_string).collect();
    // As every message writes them: `NaN`, `inf`, `-inf`.
    let value = values[at].to_wide();
    let value = if value.is_nan() {
        "NaN"
    } else if value > 0.0 {
        "inf"
    } else {
        "-inf"
    };
    Err(PyValueError::new_err(format!(
        "{name}[{}] is not finite: {value}",
        index.join(", ")
    )))
}

/// `ValueError` unless two arrays have as many rows.
pub(crate) fn same_rows(a: usize, a_name: &str, b: usize, b_name: &str) -> PyResult<()> {
    if a == b {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "{a_name} has {a} rows but {b_name} has {b}"
        )))
    }
}

/// The largest distance of each row: one for all, or one per row.
#[derive(Clone, Copy)]
pub(crate) enum PerRow<'a, T> {
    /// The same for every row.
    All(T),
    /// Row `i`'s is entry `i`.
    Each(&'a [T]),
}

impl<T: Width> PerRow<'_, T> {
    /// Row `row`'s value.
    #[inline]
    pub(crate) fn at(&self, row: usize) -> T {
        match self {
            PerRow::All(value) => *value,
            PerRow::Each(values) => values[row],
        }
    }
}

/// The per-row values `array` holds for `rows` rows (`name` in messages): one entry is one for
/// all rows; none may be NaN.
pub(crate) fn per_row<'a, T: Width>(
    array: &'a PyReadonlyArray1<'_, T>,
    name: &str,
    rows: usize,
) -> PyResult<PerRow<'a, T>> {
    let values = slice(array, name)?;
    if let Some(at) = values.iter().position(|v| v.to_wide().is_nan()) {
        return Err(PyValueError::new_err(format!("{name}[{at}] is NaN")));
    }
    if values.len() == 1 {
        Ok(PerRow::All(values[0]))
    } else if values.len() == rows {
        Ok(PerRow::Each(values))
    } else {
        Err(PyValueError::new_err(format!(
            "{name} has {} entries: expected {rows}, one per row",
            values.len()
        )))
    }
}

/// A one-dimensional answer handed to numpy (it takes the vector: no copy).
pub(crate) fn column<'py, T: Element>(py: Python<'py>, values: Vec<T>) -> Bound<'py, PyArray1<T>> {
    Array1::from_vec(values).into_pyarray(py)
}

/// `rows` rows of `width` values, row after row, handed to numpy as an array of shape
/// `(rows, width)` (no copy).
pub(crate) fn table<'py, T: Element>(
    py: Python<'py>,
    values: Vec<T>,
    width: usize,
) -> PyResult<Bound<'py, PyArray2<T>>> {
    let rows = values.len() / width.max(1);
    Array2::from_shape_vec((rows, width), values)
        .map(|array| array.into_pyarray(py))
        .map_err(|err| PyValueError::new_err(err.to_string()))
}
