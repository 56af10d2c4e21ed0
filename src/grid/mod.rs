//! Grids: a box cut into equal cells, and the exact walk of a ray through them, for tomography's
//! projectors, dose engines and transport on voxel meshes.
//!
//! - [`planes`]: where a line crosses each plane of an axis, from the plane's index, and on which
//!   side of the origin a plane lies, exactly.
//! - [`walk`]: [`GridWalk`], the cells in order along the ray.
//! - [`project`]: [`Grid::project`] and [`Grid::backproject`], line integrals through a volume
//!   and their adjoint, each exactly its loop over the walks.
//! - [`lanes`]: the projection's kernel, four walks side by side in vector lanes.
//! - [`occupancy`]: [`Grid::occupancy`], whether each cell's centre lies in a body of a scene.
//! - here: [`Grid`] and [`GridCell`].

mod lanes;
mod occupancy;
mod planes;
mod project;
mod walk;

pub use walk::GridWalk;

use nalgebra::{Point, SVector};

use crate::error::{Error, check_finite};
use crate::ray::Ray;
use crate::real::Real;

/// A box cut into `cells[a]` equal cells along each axis `a`: cell `k` on axis `a` is the closed
/// interval `[min[a] + k·cell_size[a], min[a] + (k + 1)·cell_size[a]]` of real numbers. The planes
/// lie where this definition puts them, not where a rounded sum lands: [`Grid::walk`] decides
/// against them exactly.
///
/// # Example
///
/// ```
/// use raysweep::nalgebra::{Point2, Vector2};
/// use raysweep::{Grid, Ray};
///
/// // 4 × 4 cells of 0.5 from (0, 0); a ray along y = 0.75 from x = -1.
/// let grid = Grid::new(Point2::new(0.0, 0.0), Vector2::new(0.5, 0.5), [4, 4])?;
/// let ray = Ray::new(Point2::new(-1.0, 0.75), Vector2::x())?;
/// let cells: Vec<_> = grid.walk(&ray, f64::INFINITY).map(|c| (c.index, c.enter, c.exit)).collect();
/// assert_eq!(cells, [
///     ([0, 1], 1.0, 1.5),
///     ([1, 1], 1.5, 2.0),
///     ([2, 1], 2.0, 2.5),
///     ([3, 1], 2.5, 3.0),
/// ]);
/// # Ok::<(), raysweep::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid<T: Real, const D: usize = 3> {
    min: Point<T, D>,
    cell_size: SVector<T, D>,
    cells: [usize; D],
}

/// A cell a walk runs through ([`Grid::walk`]), and the distances along the ray at which it
/// enters and leaves it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridCell<T, const D: usize = 3> {
    /// The cell's index on each axis.
    pub index: [usize; D],
    /// The distance at which the ray enters the cell: the previous cell's `exit`, the same bits.
    pub enter: T,
    /// The distance at which it leaves it, above `enter`.
    pub exit: T,
}

impl<T: Real, const D: usize> GridCell<T, D> {
    /// The length of the ray's path through the cell, `exit − enter`.
    #[must_use]
    pub fn length(&self) -> T {
        self.exit - self.enter
    }
}

/// The largest cell count an axis takes: plane indices up to it are exact in `f64`.
const MAX_CELLS: usize = 1 << 53;

/// The largest magnitude of an `f64` grid's bounds, so that a plane's offset from any origin
/// and its rounding error stay finite.
const MAX_F64_BOUND: f64 = 1.0715086071862673e301; // 2^1000

impl<T: Real, const D: usize> Grid<T, D> {
    /// The grid of `cells[a]` cells of size `cell_size[a]` along each axis `a`, from `min`.
    ///
    /// # Errors
    ///
    /// - [`Error::NonFinite`] for a NaN or infinite component of `min` or `cell_size`;
    /// - [`Error::NonPositiveCellSize`] for a cell size that is not strictly positive;
    /// - [`Error::CellCount`] for no cells on an axis, or more than `2^53`;
    /// - [`Error::GridOverflow`] where the far corner `min + cells·cell_size` overflows the
    ///   width, or (`f64`) a bound reaches `2^1000`.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Error, Grid};
    ///
    /// let origin = Point3::origin();
    /// let err = Grid::new(origin, Vector3::new(1.0, 0.0, 1.0), [8, 8, 8]).unwrap_err();
    /// assert_eq!(err, Error::NonPositiveCellSize { axis: 1, value: 0.0 });
    /// let err = Grid::new(origin, Vector3::repeat(1.0f32), [8, 0, 8]).unwrap_err();
    /// assert_eq!(err, Error::CellCount { axis: 1, cells: 0.0 });
    /// let err = Grid::new(origin, Vector3::repeat(1e30f32), [1 << 30, 1, 1]).unwrap_err();
    /// assert!(matches!(err, Error::GridOverflow { axis: 0, .. }));
    /// ```
    pub fn new(
        min: Point<T, D>,
        cell_size: SVector<T, D>,
        cells: [usize; D],
    ) -> Result<Self, Error> {
        check_finite("min", min.iter().map(|v| v.to_wide()))?;
        check_finite("cell_size", cell_size.iter().map(|v| v.to_wide()))?;
        for a in 0..D {
            let (lo, size) = (min[a].to_wide(), cell_size[a].to_wide());
            if !(size > 0.0) {
                return Err(Error::NonPositiveCellSize {
                    axis: a,
                    value: size,
                });
            }
            if cells[a] == 0 || cells[a] > MAX_CELLS {
                return Err(Error::CellCount {
                    axis: a,
                    cells: cells[a] as f64,
                });
            }
            let corner = lo + cells[a] as f64 * size;
            let within = if T::EPSILON_WIDE > f64::EPSILON {
                T::from_wide(corner).to_wide().is_finite()
            } else {
                corner.abs() < MAX_F64_BOUND && lo.abs() < MAX_F64_BOUND
            };
            if !within {
                return Err(Error::GridOverflow { axis: a, corner });
            }
        }
        Ok(Grid {
            min,
            cell_size,
            cells,
        })
    }

    /// The grid's lower corner.
    #[must_use]
    pub fn min(&self) -> &Point<T, D> {
        &self.min
    }

    /// The cells' size along each axis.
    #[must_use]
    pub fn cell_size(&self) -> &SVector<T, D> {
        &self.cell_size
    }

    /// The number of cells along each axis.
    #[must_use]
    pub fn cells(&self) -> [usize; D] {
        self.cells
    }

    /// The far corner `min + cells·cell_size`, rounded to the width (the walk uses the exact
    /// one).
    #[must_use]
    pub fn max(&self) -> Point<T, D> {
        Point::from(SVector::from_fn(|a, _| {
            T::from_wide(self.min[a].to_wide() + self.cells[a] as f64 * self.cell_size[a].to_wide())
        }))
    }

    /// Every cell in which the segment `[0, max_distance]` of `ray` runs for a positive length,
    /// in order along the ray, with the distances at which it enters and leaves each.
    ///
    /// - Consecutive cells share their boundary: one cell's `exit` is the next one's `enter`, the
    ///   same bits. The first `enter` is where the segment enters the grid (0 where it starts
    ///   inside), the last `exit` where it leaves it, or `max_distance`.
    /// - A line through an edge or a corner passes from cell to cell there: the cells it meets
    ///   only at a point or along an edge are not listed, nor is a cell whose length rounds to
    ///   zero in the width.
    /// - A ray running inside a plane between two cells belongs to the cell on the side of
    ///   increasing index; on the grid's last plane, to the last cell.
    /// - Each distance is computed from its plane's index, not summed cell by cell: within the
    ///   [precision targets](https://github.com/raysweep/raysweep/blob/main/docs/precision.md) of
    ///   the exact distance to the exact plane, so the
    ///   lengths sum to the chord through the grid and none is credited to a wrong cell.
    /// - A negative or NaN `max_distance` gives no cells; so does 0.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Grid, Ray};
    ///
    /// // A 256³ grid of cells 0.1 wide; a ray through its corner diagonal, from outside.
    /// let grid = Grid::new(Point3::origin(), Vector3::repeat(0.1f32), [256; 3])?;
    /// let ray = Ray::new(Point3::new(-1.0, -1.0, -1.0), Vector3::repeat(1.0))?;
    /// let cells: Vec<_> = grid.walk(&ray, f32::INFINITY).collect();
    /// // Exactly the 256 cells of the diagonal: no cell between two that touch at a corner.
    /// assert_eq!(cells.len(), 256);
    /// assert!(cells.iter().enumerate().all(|(k, c)| c.index == [k; 3]));
    /// assert!(cells.windows(2).all(|w| w[0].exit == w[1].enter));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn walk(&self, ray: &Ray<T, D>, max_distance: T) -> GridWalk<T, D> {
        GridWalk::new(self, ray, max_distance)
    }

    /// The position of the cell `index` in an array of every cell in C order (the last axis
    /// fastest): `((i₀·n₁ + i₁)·n₂ + i₂)…`, the index of a row-major volume of shape `cells`
    /// (numpy's default, `ndarray`'s standard layout).
    ///
    /// # Panics
    ///
    /// If `index[a] >= cells[a]` on some axis, or the position exceeds `usize::MAX` (a grid of
    /// more cells than memory could hold).
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Grid, Ray};
    ///
    /// let grid = Grid::new(Point3::origin(), Vector3::repeat(1.0), [4, 3, 2])?;
    /// assert_eq!(grid.flat_index([0, 0, 1]), 1);
    /// assert_eq!(grid.flat_index([1, 2, 0]), 10);
    /// assert_eq!(grid.flat_index([3, 2, 1]), 23);
    ///
    /// // Summing a volume along a ray: each cell's value times the length in it.
    /// let volume: Vec<f64> = (0..24).map(f64::from).collect();
    /// let ray = Ray::new(Point3::new(-1.0, 0.5, 0.5), Vector3::x())?;
    /// let line_integral: f64 = grid
    ///     .walk(&ray, f64::INFINITY)
    ///     .map(|c| volume[grid.flat_index(c.index)] * (c.exit - c.enter))
    ///     .sum();
    /// assert_eq!(line_integral, 0.0 + 6.0 + 12.0 + 18.0);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[must_use]
    pub fn flat_index(&self, index: [usize; D]) -> usize {
        let mut flat: usize = 0;
        for (a, (&i, &n)) in index.iter().zip(&self.cells).enumerate() {
            assert!(
                i < n,
                "flat_index: index {i} on axis {a} is not below the grid's {n} cells"
            );
            flat = flat
                .checked_mul(n)
                .and_then(|f| f.checked_add(i))
                .expect("flat_index: the position exceeds usize::MAX");
        }
        flat
    }

    /// The strides of a volume of every cell in C order, after checking that `len` (the length
    /// of the slice named `what`) is the number of cells.
    pub(crate) fn volume_strides(
        &self,
        what: &'static str,
        len: usize,
    ) -> Result<[usize; D], Error> {
        let count = self.cells.iter().try_fold(1usize, |n, &c| n.checked_mul(c));
        if count != Some(len) {
            return Err(Error::Length {
                what,
                len,
                expected: count.unwrap_or(usize::MAX),
            });
        }
        let mut strides = [1; D];
        for a in (0..D.saturating_sub(1)).rev() {
            strides[a] = strides[a + 1] * self.cells[a + 1];
        }
        Ok(strides)
    }
}
