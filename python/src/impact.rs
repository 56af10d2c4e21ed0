//! `raysweep._raysweep.sphere_time_of_impact`: the crate's `Sphere::time_of_impact` over pairs of
//! moving balls, row by row.

use numpy::{PyReadonlyArray1, PyReadonlyArray2};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use raysweep::Sphere;
use raysweep::nalgebra::{Point, SVector};

use core::convert::Infallible;

use crate::arrays::{Width, column, per_row, points, same_rows, slice, table};
use crate::rows::{columns, row_by_row};
use crate::threads::Run;

/// The balls of rows of centres and radii, named `{prefix}centers` and `{prefix}radii` in
/// messages.
fn balls<T: Width, const D: usize>(
    centers: &Bound<'_, PyAny>,
    radii: &Bound<'_, PyAny>,
    prefix: &str,
) -> PyResult<Vec<Sphere<T, D>>> {
    let (c_name, r_name) = (format!("{prefix}centers"), format!("{prefix}radii"));
    let centers: PyReadonlyArray2<T> = centers.extract()?;
    let radii: PyReadonlyArray1<T> = radii.extract()?;
    let centers = points::<T, D>(&centers, &c_name)?;
    let radii = slice(&radii, &r_name)?;
    same_rows(centers.len(), &c_name, radii.len(), &r_name)?;
    centers
        .iter()
        .zip(radii)
        .enumerate()
        .map(|(row, (&c, &r))| {
            Sphere::new(c, r)
                .map_err(|err| PyValueError::new_err(format!("{prefix}balls[{row}]: {err}")))
        })
        .collect()
}

/// The first impact of each pair: (time, point, normal), `inf` and NaN where there is none.
fn impacts<T: Width, const D: usize>(
    args: &[Bound<'_, PyAny>; 7],
    threads: Option<i64>,
) -> PyResult<Py<PyAny>> {
    let py = args[0].py();
    let ours = balls::<T, D>(&args[0], &args[1], "")?;
    let others = balls::<T, D>(&args[3], &args[4], "other_")?;
    same_rows(ours.len(), "centers", others.len(), "other_centers")?;
    let velocity = |array: &Bound<'_, PyAny>, name: &str| -> PyResult<Vec<SVector<T, D>>> {
        let array: PyReadonlyArray2<T> = array.extract()?;
        Ok(points::<T, D>(&array, name)?
            .into_iter()
            .map(|p: Point<T, D>| p.coords)
            .collect())
    };
    let v = velocity(&args[2], "velocities")?;
    let w = velocity(&args[5], "other_velocities")?;
    same_rows(ours.len(), "centers", v.len(), "velocities")?;
    same_rows(ours.len(), "centers", w.len(), "other_velocities")?;
    let max_time: PyReadonlyArray1<T> = args[6].extract()?;
    let max_time = per_row(&max_time, "max_time", ours.len())?;
    let run = Run::new(py, threads)?;
    let Ok(found) = columns(
        &run,
        ours.len(),
        row_by_row(|row| {
            let impact = ours[row].time_of_impact(&v[row], &others[row], &w[row], max_time.at(row));
            Ok::<_, Infallible>(impact.map(|i| (row, i.time, i.point, i.normal)))
        }),
    )?;
    (
        column(py, found.value),
        table(py, found.point, D)?,
        table(py, found.normal, D)?,
    )
        .into_py_any(py)
}

/// Pairs of balls, row by row: ball `i` (`centers[i]`, `radii[i]`, moving with `velocities[i]`)
/// against ball `i` of the others; (time, point, normal).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (dtype, dim, centers, radii, velocities, other_centers, other_radii, other_velocities, max_time, threads))]
pub(crate) fn sphere_time_of_impact(
    dtype: &str,
    dim: usize,
    centers: Bound<'_, PyAny>,
    radii: Bound<'_, PyAny>,
    velocities: Bound<'_, PyAny>,
    other_centers: Bound<'_, PyAny>,
    other_radii: Bound<'_, PyAny>,
    other_velocities: Bound<'_, PyAny>,
    max_time: Bound<'_, PyAny>,
    threads: Option<i64>,
) -> PyResult<Py<PyAny>> {
    let args = [
        centers,
        radii,
        velocities,
        other_centers,
        other_radii,
        other_velocities,
        max_time,
    ];
    match (dtype, dim) {
        ("float32", 2) => impacts::<f32, 2>(&args, threads),
        ("float32", 3) => impacts::<f32, 3>(&args, threads),
        ("float64", 2) => impacts::<f64, 2>(&args, threads),
        ("float64", 3) => impacts::<f64, 3>(&args, threads),
        (dtype, dim) => Err(PyValueError::new_err(format!(
            "float32 or float64, in 2 or 3 dimensions: not {dtype} in {dim}"
        ))),
    }
}
