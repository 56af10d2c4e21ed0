//! Projections through a grid: each ray's line integral through a volume ([`Grid::project`]) and
//! its adjoint, the back projection ([`Grid::backproject`]), the two operators of iterative
//! tomographic reconstruction (Kaczmarz, SIRT, CGLS; Kak and Slaney, "Principles of Computerized
//! Tomographic Imaging", 1988, ch. 7).
//!
//! Each is exactly the loop over [`Grid::walk`] that defines it, bit for bit: `project` adds
//! `volume[cell]·(exit − enter)` in walk order from zero; `backproject` adds `values[i]·(exit −
//! enter)` to each cell a ray crosses, the rays in order. The `_par` forms (feature `rayon`) keep
//! those bits on any thread count: a projection's rays are independent, and a back projection
//! cuts the volume into slabs along the first axis, one task each, and walks every ray through
//! each slab alone, started exactly where the whole walk enters it (`Steps::within` in
//! `src/grid/walk.rs`): each cell still receives its contributions in ray order, from one
//! thread, and no contribution is listed.
//!
//! A volume is one value per cell in [`Grid::flat_index`] order (C order, the last axis fastest).

use super::Grid;
use crate::error::Error;
use crate::ray::Ray;
use crate::real::Real;

/// Rays a thread walks at a time in a parallel projection.
#[cfg(feature = "rayon")]
const CHUNK: usize = 64;

impl<T: Real, const D: usize> Grid<T, D> {
    /// `sums[i]` = the line integral of `volume` along `rays[i]`'s walk up to `max_distance`: the
    /// sum of `volume[flat_index(cell)]·(exit − enter)` over [`Grid::walk`], added in walk order
    /// from zero, exactly that loop's bits. `volume` holds one value per cell in
    /// [`Grid::flat_index`] order.
    ///
    /// # Errors
    ///
    /// [`Error::Length`], with nothing written, if `volume` does not hold one value per cell or
    /// `sums` one per ray.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Grid, Ray};
    ///
    /// // 3 × 2 cells of 1; the volume 0, 1, …, 5 in C order (the last axis fastest).
    /// let grid = Grid::new(Point2::origin(), Vector2::repeat(1.0), [3, 2])?;
    /// let volume: Vec<f64> = (0..6).map(f64::from).collect();
    /// let rays = [Ray::new(Point2::new(-1.0, 0.5), Vector2::x())?];
    /// let mut sums = [0.0];
    /// grid.project(&volume, &rays, f64::INFINITY, &mut sums)?;
    /// assert_eq!(sums, [0.0 + 2.0 + 4.0]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn project(
        &self,
        volume: &[T],
        rays: &[Ray<T, D>],
        max_distance: T,
        sums: &mut [T],
    ) -> Result<(), Error> {
        let strides = self.volume_strides("volume", volume.len())?;
        same_length("sums", sums.len(), rays.len())?;
        super::lanes::project(self, volume, &strides, rays, |_| max_distance, sums);
        Ok(())
    }

    /// [`Grid::project`] with a largest distance for each ray: `sums[i]` is the line integral
    /// along `rays[i]`'s walk up to `max_distances[i]`, those bits. For rays that end at a
    /// detector or a source of their own (a cone beam's segments, a track's flights in transport).
    ///
    /// # Errors
    ///
    /// [`Error::Length`], with nothing written, if `volume` does not hold one value per cell, or
    /// `max_distances` or `sums` one per ray.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Grid, Ray};
    ///
    /// let grid = Grid::new(Point2::origin(), Vector2::repeat(1.0), [3, 2])?;
    /// let volume: Vec<f64> = (0..6).map(f64::from).collect();
    /// let ray = Ray::new(Point2::new(-1.0, 0.5), Vector2::x())?;
    /// let mut sums = [0.0; 2];
    /// // The first ray ends halfway through the second cell.
    /// grid.project_segments(&volume, &[ray, ray], &[2.5, f64::INFINITY], &mut sums)?;
    /// assert_eq!(sums, [0.0 + 2.0 * 0.5, 0.0 + 2.0 + 4.0]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn project_segments(
        &self,
        volume: &[T],
        rays: &[Ray<T, D>],
        max_distances: &[T],
        sums: &mut [T],
    ) -> Result<(), Error> {
        let strides = self.volume_strides("volume", volume.len())?;
        same_length("max_distances", max_distances.len(), rays.len())?;
        same_length("sums", sums.len(), rays.len())?;
        super::lanes::project(self, volume, &strides, rays, |i| max_distances[i], sums);
        Ok(())
    }

    /// Adds `values[i]·(exit − enter)` to `volume[flat_index(cell)]` for every cell of
    /// `rays[i]`'s walk up to `max_distance`, for every ray in order: the adjoint of
    /// [`Grid::project`] (for any volume `x` and values `y`, `⟨project(x), y⟩ = ⟨x,
    /// backproject(y)⟩` in exact arithmetic). The contributions to each cell are added in ray
    /// order, exactly that loop's bits; `volume` is added to, not cleared.
    ///
    /// # Errors
    ///
    /// [`Error::Length`], with nothing written, if `volume` does not hold one value per cell or
    /// `values` one per ray.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Grid, Ray};
    ///
    /// let grid = Grid::new(Point2::origin(), Vector2::repeat(1.0), [3, 2])?;
    /// let rays = [Ray::new(Point2::new(-1.0, 0.5), Vector2::x())?];
    /// let mut volume = vec![0.0; 6];
    /// grid.backproject(&[2.0], &rays, f64::INFINITY, &mut volume)?;
    /// assert_eq!(volume, [2.0, 0.0, 2.0, 0.0, 2.0, 0.0]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn backproject(
        &self,
        values: &[T],
        rays: &[Ray<T, D>],
        max_distance: T,
        volume: &mut [T],
    ) -> Result<(), Error> {
        let strides = self.volume_strides("volume", volume.len())?;
        same_length("values", values.len(), rays.len())?;
        super::lanes::backproject(self, values, &strides, rays, |_| max_distance, volume);
        Ok(())
    }

    /// [`Grid::backproject`] with a largest distance for each ray: `rays[i]`'s walk up to
    /// `max_distances[i]`, those bits. The adjoint of [`Grid::project_segments`].
    ///
    /// # Errors
    ///
    /// [`Error::Length`], with nothing written, if `volume` does not hold one value per cell, or
    /// `values` or `max_distances` one per ray.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Grid, Ray};
    ///
    /// let grid = Grid::new(Point2::origin(), Vector2::repeat(1.0), [3, 2])?;
    /// let ray = Ray::new(Point2::new(-1.0, 0.5), Vector2::x())?;
    /// let mut volume = vec![0.0; 6];
    /// grid.backproject_segments(&[2.0, 1.0], &[ray, ray], &[2.5, 1.5], &mut volume)?;
    /// assert_eq!(volume, [2.0 + 0.5, 0.0, 1.0, 0.0, 0.0, 0.0]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn backproject_segments(
        &self,
        values: &[T],
        rays: &[Ray<T, D>],
        max_distances: &[T],
        volume: &mut [T],
    ) -> Result<(), Error> {
        let strides = self.volume_strides("volume", volume.len())?;
        same_length("values", values.len(), rays.len())?;
        same_length("max_distances", max_distances.len(), rays.len())?;
        let reach = |i| max_distances[i];
        super::lanes::backproject(self, values, &strides, rays, reach, volume);
        Ok(())
    }

    /// [`Grid::project`] with the rays spread over rayon's thread pool: the same bits. Available
    /// with the crate feature `rayon`.
    ///
    /// # Errors
    ///
    /// As [`Grid::project`].
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn project_par(
        &self,
        volume: &[T],
        rays: &[Ray<T, D>],
        max_distance: T,
        sums: &mut [T],
    ) -> Result<(), Error>
    where
        T: Send + Sync,
    {
        use rayon::prelude::*;
        let strides = self.volume_strides("volume", volume.len())?;
        same_length("sums", sums.len(), rays.len())?;
        rays.par_chunks(CHUNK)
            .zip(sums.par_chunks_mut(CHUNK))
            .for_each(|(rays, sums)| {
                super::lanes::project(self, volume, &strides, rays, |_| max_distance, sums);
            });
        Ok(())
    }

    /// [`Grid::project_segments`] with the rays spread over rayon's thread pool: the same bits.
    /// Available with the crate feature `rayon`.
    ///
    /// # Errors
    ///
    /// As [`Grid::project_segments`].
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn project_segments_par(
        &self,
        volume: &[T],
        rays: &[Ray<T, D>],
        max_distances: &[T],
        sums: &mut [T],
    ) -> Result<(), Error>
    where
        T: Send + Sync,
    {
        use rayon::prelude::*;
        let strides = self.volume_strides("volume", volume.len())?;
        same_length("max_distances", max_distances.len(), rays.len())?;
        same_length("sums", sums.len(), rays.len())?;
        rays.par_chunks(CHUNK)
            .zip(max_distances.par_chunks(CHUNK))
            .zip(sums.par_chunks_mut(CHUNK))
            .for_each(|((rays, ends), sums)| {
                super::lanes::project(self, volume, &strides, rays, |i| ends[i], sums);
            });
        Ok(())
    }

    /// [`Grid::backproject`] on rayon's thread pool: the volume cut into slabs along the first
    /// axis, each slab a task that walks every ray through the slab alone and adds to its cells
    /// in ray order: the same bits on any thread count (on a pool of one thread, or a volume of
    /// one layer, [`Grid::backproject`] itself). Available with the crate feature `rayon`.
    ///
    /// # Errors
    ///
    /// As [`Grid::backproject`].
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn backproject_par(
        &self,
        values: &[T],
        rays: &[Ray<T, D>],
        max_distance: T,
        volume: &mut [T],
    ) -> Result<(), Error>
    where
        T: Send + Sync,
    {
        let strides = self.volume_strides("volume", volume.len())?;
        same_length("values", values.len(), rays.len())?;
        self.backproject_slabs(values, &strides, rays, |_| max_distance, volume);
        Ok(())
    }

    /// [`Grid::backproject_segments`] on rayon's thread pool, as [`Grid::backproject_par`] runs:
    /// the same bits on any thread count. Available with the crate feature `rayon`.
    ///
    /// # Errors
    ///
    /// As [`Grid::backproject_segments`].
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn backproject_segments_par(
        &self,
        values: &[T],
        rays: &[Ray<T, D>],
        max_distances: &[T],
        volume: &mut [T],
    ) -> Result<(), Error>
    where
        T: Send + Sync,
    {
        let strides = self.volume_strides("volume", volume.len())?;
        same_length("values", values.len(), rays.len())?;
        same_length("max_distances", max_distances.len(), rays.len())?;
        self.backproject_slabs(values, &strides, rays, |i| max_distances[i], volume);
        Ok(())
    }

    /// The back projection of [`Grid::backproject_par`], each ray `i` up to `reach(i)`.
    #[cfg(feature = "rayon")]
    fn backproject_slabs(
        &self,
        values: &[T],
        strides: &[usize; D],
        rays: &[Ray<T, D>],
        reach: impl Fn(usize) -> T + Sync,
        volume: &mut [T],
    ) where
        T: Send + Sync,
    {
        use rayon::prelude::*;
        let threads = rayon::current_num_threads();
        let layers = self.cells.first().copied().unwrap_or(1);
        if threads == 1 || layers == 1 {
            super::lanes::backproject(self, values, strides, rays, reach, volume);
            return;
        }
        // A slab is a run of whole layers of the first axis, one for each thread: every slab
        // costs each ray a start of its own (docs/performance.md, "Projectors against ASTRA").
        let layer = strides.first().copied().unwrap_or(1);
        let per_slab = layers.div_ceil(threads.min(layers));
        volume
            .par_chunks_mut(per_slab * layer)
            .enumerate()
            .for_each(|(k, part)| {
                let from = k * per_slab;
                let slab = (from, from + part.len() / layer);
                super::lanes::backproject_slab(self, values, strides, rays, &reach, slab, part);
            });
    }
}

/// `Err(Error::Length)` unless a slice named `what` of `len` entries has `expected`.
fn same_length(what: &'static str, len: usize, expected: usize) -> Result<(), Error> {
    if len == expected {
        Ok(())
    } else {
        Err(Error::Length {
            what,
            len,
            expected,
        })
    }
}
