//! `raysweep._raysweep._Grid`: a `raysweep::Grid` of one of the four kinds, with its exact walk
//! over arrays of rays, the projection of a volume along them, its adjoint, and the walk as a
//! sparse matrix's rows. The Python class `raysweep.Grid` checks dtypes and shapes.

use core::ops::Range;

use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{
    IntoPyArray, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArrayDyn, PyUntypedArrayMethods,
};
use pyo3::IntoPyObjectExt;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;
use raysweep::nalgebra::{Point, SVector};
use raysweep::{Grid, GridCell, Ray};

use crate::arrays::{PerRow, Rays, Refused, Width, column, finite, per_row, slice, table};
use crate::kinds::{ByWidth, OfWidth, Picks};
use crate::rows::ragged;
use crate::threads::{Run, serial};

/// Grids, one for each width and dimension.
struct Grids;

impl OfWidth for Grids {
    type Of<T: Width, const D: usize> = Grid<T, D>;
}

/// A grid in one of the widths and dimensions Python gets.
type AnyGrid = ByWidth<Grids>;

/// Rays a thread projects at a time.
const CHUNK: usize = 256;

#[pyclass(name = "_Grid", module = "raysweep._raysweep", frozen)]
pub(crate) struct PyGrid {
    grid: AnyGrid,
}

/// A grid from its lower corner, cell size and cell counts, checked as `Grid::new` checks them.
fn make<T: Width, const D: usize>(
    min: &Bound<'_, PyAny>,
    cell_size: &Bound<'_, PyAny>,
    cells: &[i64],
) -> PyResult<Grid<T, D>> {
    let min: PyReadonlyArray1<T> = min.extract()?;
    let size: PyReadonlyArray1<T> = cell_size.extract()?;
    let (min, size) = (slice(&min, "min")?, slice(&size, "cell_size")?);
    if min.len() != D || size.len() != D || cells.len() != D {
        return Err(PyValueError::new_err(format!(
            "min, cell_size and cells must each have {D} entries: they have {}, {} and {}",
            min.len(),
            size.len(),
            cells.len()
        )));
    }
    let mut counts = [0usize; D];
    for (a, &n) in cells.iter().enumerate() {
        counts[a] = usize::try_from(n)
            .map_err(|_| PyValueError::new_err(format!("cells[{a}] is negative: {n}")))?;
    }
    Grid::new(
        Point::from(SVector::<T, D>::from_fn(|i, _| min[i])),
        SVector::<T, D>::from_fn(|i, _| size[i]),
        counts,
    )
    .map_err(|err| PyValueError::new_err(format!("grid: {err}")))
}

/// The number of cells, where it fits an `i64` (the largest flat index numpy and scipy take).
pub(crate) fn cell_count(cells: &[usize]) -> PyResult<usize> {
    cells
        .iter()
        .try_fold(1usize, |n, &c| n.checked_mul(c))
        .filter(|&n| i64::try_from(n).is_ok())
        .ok_or_else(|| {
            PyValueError::new_err(format!("a grid of {cells:?} cells has more than 2^63"))
        })
}

/// The position of cell `index` in C order over `cells` (each index below its count, the total
/// checked by [`cell_count`]).
fn flat<const D: usize>(cells: &[usize; D], index: &[usize; D]) -> usize {
    index.iter().zip(cells).fold(0, |f, (&i, &n)| f * n + i)
}

/// The rays and their largest distances, from the arrays Python passed.
fn read_rays<'a, T: Width, const D: usize>(
    origins: &'a PyReadonlyArray2<'_, T>,
    directions: &'a PyReadonlyArray2<'_, T>,
    max_distance: &'a PyReadonlyArray1<'_, T>,
) -> PyResult<(Rays<'a, T, D>, PerRow<'a, T>)> {
    let rays = Rays::new(origins, directions)?;
    let reach = per_row(max_distance, "max_distance", rays.len())?;
    Ok((rays, reach))
}

/// The rays of `rows` and their largest distances, as the crate's `_segments` projections take
/// them (or the first refused ray).
fn segments<T: Width, const D: usize>(
    rays: &Rays<'_, T, D>,
    reach: &PerRow<'_, T>,
    rows: Range<usize>,
) -> Result<(Vec<Ray<T, D>>, Vec<T>), Refused> {
    let walked = rows
        .clone()
        .map(|row| rays.get(row))
        .collect::<Result<_, _>>()?;
    Ok((walked, rows.map(|row| reach.at(row)).collect()))
}

/// The arguments every grid query takes: origins, directions, largest distances, threads.
struct Walks<'py> {
    origins: Bound<'py, PyAny>,
    directions: Bound<'py, PyAny>,
    max_distance: Bound<'py, PyAny>,
    threads: Option<i64>,
}

/// The cells each ray crosses: (offsets, cell, enter, exit).
fn walk<T: Width, const D: usize>(grid: &Grid<T, D>, args: &Walks<'_>) -> PyResult<Py<PyAny>> {
    let py = args.origins.py();
    let (o, d, m) = (
        args.origins.extract()?,
        args.directions.extract()?,
        args.max_distance.extract()?,
    );
    let (rays, reach) = read_rays::<T, D>(&o, &d, &m)?;
    let run = Run::new(py, args.threads)?;
    let (offsets, cells): (Vec<i64>, Vec<GridCell<T, D>>) =
        ragged(&run, rays.len(), |row, out| {
            out.clear();
            out.extend(grid.walk(&rays.get(row)?, reach.at(row)));
            Ok(())
        })?
        .map_err(|e| rays.first_error(e))?;
    let index = cells
        .iter()
        .flat_map(|c| c.index.map(|i| i as i64))
        .collect();
    let enter = cells.iter().map(|c| c.enter).collect();
    let exit = cells.iter().map(|c| c.exit).collect();
    (
        column(py, offsets),
        table(py, index, D)?,
        column(py, enter),
        column(py, exit),
    )
        .into_py_any(py)
}

/// Each ray's `Σ volume[cell]·(exit − enter)` over its walk, summed in the width, in walk order.
fn project<T: Width, const D: usize>(
    grid: &Grid<T, D>,
    volume: &Bound<'_, PyAny>,
    args: &Walks<'_>,
) -> PyResult<Py<PyAny>> {
    let py = args.origins.py();
    let volume: PyReadonlyArrayDyn<T> = volume.extract()?;
    let cells = grid.cells();
    if volume.shape() != cells.as_slice() {
        return Err(PyValueError::new_err(format!(
            "volume has shape {:?}: expected the grid's cells, {cells:?}",
            volume.shape()
        )));
    }
    let values = slice(&volume, "volume")?;
    let (o, d, m) = (
        args.origins.extract()?,
        args.directions.extract()?,
        args.max_distance.extract()?,
    );
    let (rays, reach) = read_rays::<T, D>(&o, &d, &m)?;
    finite(values, "volume", &cells)?;
    let run = Run::new(py, args.threads)?;
    // Chunks of rows through the crate's `project_segments`, which walks four rays at a time.
    let mut sums = vec![T::zero(); rays.len()];
    let chunk = |start: usize, out: &mut [T]| -> Result<(), Refused> {
        let (walked, ends) = segments(&rays, &reach, start..start + out.len())?;
        grid.project_segments(values, &walked, &ends, out)
            .expect("a volume of the grid's cells, and one end and one sum per ray");
        Ok(())
    };
    run.blocks(rays.len(), |range| {
        let start = range.start;
        let part = &mut sums[range.clone()];
        if serial(&range) {
            return chunk(start, part);
        }
        part.par_chunks_mut(CHUNK)
            .enumerate()
            .try_for_each(|(k, out)| chunk(start + k * CHUNK, out))
    })?
    .map_err(|e| rays.first_error(e))?;
    column(py, sums).into_py_any(py)
}

/// The adjoint of [`project`]: a volume to which each ray adds `values[i]·(exit − enter)` in
/// every cell it crosses, the crate's `Grid::backproject_segments_par`: the same bits on every
/// thread count.
fn backproject<T: Width, const D: usize>(
    grid: &Grid<T, D>,
    values: &Bound<'_, PyAny>,
    args: &Walks<'_>,
) -> PyResult<Py<PyAny>> {
    let py = args.origins.py();
    let cells = grid.cells();
    let total = cell_count(&cells)?;
    let values: PyReadonlyArray1<T> = values.extract()?;
    let values = slice(&values, "values")?;
    let (o, d, m) = (
        args.origins.extract()?,
        args.directions.extract()?,
        args.max_distance.extract()?,
    );
    let (rays, reach) = read_rays::<T, D>(&o, &d, &m)?;
    if values.len() != rays.len() {
        return Err(PyValueError::new_err(format!(
            "values has {} entries but there are {} rays",
            values.len(),
            rays.len()
        )));
    }
    finite(values, "values", &[values.len()])?;
    let run = Run::new(py, args.threads)?;
    let mut volume = vec![T::zero(); total];
    run.blocks(rays.len(), |range| {
        // The crate's `Grid::backproject_segments_par` (on one thread its back projection, four
        // rays at a time), a block of rows at a time.
        let (walked, ends) = segments(&rays, &reach, range.clone())?;
        grid.backproject_segments_par(&values[range], &walked, &ends, &mut volume)
            .expect("a volume of the grid's cells, and one value and one end per ray");
        Ok(())
    })?
    .map_err(|e| rays.first_error(e))?;
    let array = ArrayD::from_shape_vec(IxDyn(&cells), volume)
        .map_err(|err| PyValueError::new_err(err.to_string()))?;
    array.into_pyarray(py).into_py_any(py)
}

/// The walks as a sparse matrix's rows: (offsets, flat cell in C order, exit − enter).
fn matrix<T: Width, const D: usize>(grid: &Grid<T, D>, args: &Walks<'_>) -> PyResult<Py<PyAny>> {
    let py = args.origins.py();
    let cells = grid.cells();
    cell_count(&cells)?;
    let (o, d, m) = (
        args.origins.extract()?,
        args.directions.extract()?,
        args.max_distance.extract()?,
    );
    let (rays, reach) = read_rays::<T, D>(&o, &d, &m)?;
    let run = Run::new(py, args.threads)?;
    let (offsets, entries): (Vec<i64>, Vec<(i64, T)>) = ragged(&run, rays.len(), |row, out| {
        out.clear();
        out.extend(
            grid.walk(&rays.get(row)?, reach.at(row))
                .map(|c| (flat(&cells, &c.index) as i64, c.exit - c.enter)),
        );
        Ok(())
    })?
    .map_err(|e| rays.first_error(e))?;
    let (index, length): (Vec<i64>, Vec<T>) = entries.into_iter().unzip();
    (column(py, offsets), column(py, index), column(py, length)).into_py_any(py)
}

impl PyGrid {
    /// The grid, where it is of width `T` in `D` dimensions (for a query of a scene of that
    /// kind); a `TypeError` for another width, a `ValueError` for another dimension.
    pub(crate) fn of<T: Picks<D>, const D: usize>(&self) -> PyResult<&Grid<T, D>> {
        T::pick(&self.grid).ok_or_else(|| {
            let (dtype, dim) = (self.grid.dtype(), self.grid.dim());
            let message = format!(
                "the grid is {dtype} in {dim} dimensions, the scene {} in {D}",
                T::NAME
            );
            if dtype == T::NAME {
                PyValueError::new_err(message)
            } else {
                PyTypeError::new_err(message)
            }
        })
    }
}

#[pymethods]
impl PyGrid {
    /// A grid of `cells` cells of `cell_size` from `min`, of width `dtype` in `len(cells)`
    /// dimensions.
    #[new]
    fn new(
        dtype: &str,
        min: Bound<'_, PyAny>,
        cell_size: Bound<'_, PyAny>,
        cells: Vec<i64>,
    ) -> PyResult<Self> {
        let grid = for_kind!(dtype, cells.len(), make(&min, &cell_size, &cells));
        Ok(PyGrid { grid })
    }

    /// The dimension: 2 or 3.
    #[getter]
    fn dim(&self) -> usize {
        self.grid.dim()
    }

    /// The width: "float32" or "float64".
    #[getter]
    fn dtype(&self) -> &'static str {
        self.grid.dtype()
    }

    /// The lower corner.
    #[getter]
    fn min(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        on_kind!(&self.grid, g => column(py, g.min().coords.as_slice().to_vec()).into_py_any(py))
    }

    /// The cell size on each axis.
    #[getter]
    fn cell_size(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        on_kind!(&self.grid, g => column(py, g.cell_size().as_slice().to_vec()).into_py_any(py))
    }

    /// The cells on each axis.
    #[getter]
    fn cells(&self) -> Vec<usize> {
        on_kind!(&self.grid, g => g.cells().to_vec())
    }

    /// The cells each ray crosses: (offsets, cell, enter, exit).
    fn walk(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let args = Walks {
            origins,
            directions,
            max_distance,
            threads,
        };
        on_kind!(&self.grid, g => walk(g, &args))
    }

    /// Each ray's line integral through `volume`.
    fn project(
        &self,
        volume: Bound<'_, PyAny>,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let args = Walks {
            origins,
            directions,
            max_distance,
            threads,
        };
        on_kind!(&self.grid, g => project(g, &volume, &args))
    }

    /// The adjoint of `project`.
    fn backproject(
        &self,
        values: Bound<'_, PyAny>,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let args = Walks {
            origins,
            directions,
            max_distance,
            threads,
        };
        on_kind!(&self.grid, g => backproject(g, &values, &args))
    }

    /// The walks as CSR rows: (offsets, flat cell, length).
    fn matrix(
        &self,
        origins: Bound<'_, PyAny>,
        directions: Bound<'_, PyAny>,
        max_distance: Bound<'_, PyAny>,
        threads: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        let args = Walks {
            origins,
            directions,
            max_distance,
            threads,
        };
        on_kind!(&self.grid, g => matrix(g, &args))
    }
}
