//! Occupancy: whether each cell's centre lies in a body of a scene ([`Grid::occupancy`]), the
//! voxel image of a scene of any kind for porous-media and tomography codes.
//!
//! The centres of a row of cells along the last axis lie on one line. Rows are taken in strips
//! of a few neighbours on the axis before the last: the items near a strip are those a ball
//! sweeping its middle line touches ([`Geometry::sphere_spans_to`], its radius reaching every
//! row of the strip and a cell beyond), asked once; each row then asks each of them for its span
//! along the row's line, which gives the body's run of centres, and the run is settled by the
//! body's own `contains`: a centre near the span is found inside, and the run is grown from it
//! while the next centre is inside. A body is convex (one span per line), so the centres of a
//! line it contains are one run, and a run grown until its neighbours are outside is exactly
//! them, whatever the spans' rounding. Each cell is so exactly `containing` at its centre, at a
//! few `contains` a span rather than a query a cell.

use alloc::vec::Vec;

use nalgebra::{Point, SVector};

use super::Grid;
use crate::bounds::Aabb;
use crate::error::Error;
use crate::hit::Span;
use crate::ray::Ray;
use crate::real::Real;
use crate::scene::{Answer, Geometry};
use crate::traits::Sealed;

/// Rows of cells a thread settles at a time in [`Grid::occupancy_par`].
#[cfg(feature = "rayon")]
const ROWS: usize = 64;

/// Rows whose candidate items are found together (by one sweep of a ball along their middle).
const STRIP: usize = 8;

impl<T: Real, const D: usize> Grid<T, D> {
    /// The centre of cell `index`: on each axis `min + (index + 1/2)·cell_size`, formed in `f64`
    /// and rounded to the width.
    ///
    /// # Panics
    ///
    /// If `index[a] >= cells[a]` on some axis.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::Grid;
    ///
    /// let grid = Grid::new(Point2::new(-1.0, 0.0), Vector2::new(0.5, 2.0), [4, 3])?;
    /// assert_eq!(grid.center([0, 0]), Point2::new(-0.75, 1.0));
    /// assert_eq!(grid.center([3, 2]), Point2::new(0.75, 5.0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    #[must_use]
    pub fn center(&self, index: [usize; D]) -> Point<T, D> {
        Point::from(SVector::from_fn(|a, _| {
            let n = self.cells[a];
            assert!(
                index[a] < n,
                "center: index {} on axis {a} is not below the grid's {n} cells",
                index[a]
            );
            self.center_on(a, index[a])
        }))
    }

    /// Coordinate `a` of the centres of cells `k` along axis `a`.
    fn center_on(&self, a: usize, k: usize) -> T {
        T::from_wide(self.min[a].to_wide() + (k as f64 + 0.5) * self.cell_size[a].to_wide())
    }

    /// `cells[flat_index(c)]` = whether the centre of cell `c` ([`Grid::center`]) lies in a body
    /// of `scene`, a scene of any kind: exactly whether [`Geometry::containing`] there finds
    /// one, boundaries included. `cells` is in [`Grid::flat_index`] order (C order, the last
    /// axis fastest), as a volume is.
    ///
    /// Found row by row along the last axis from the row's spans (of the items a ball sweeping
    /// a strip of neighbouring rows touches), each body's run of centres settled by its
    /// `contains` at the run's ends (bodies are convex): a few `contains` per body a row
    /// crosses, not a query per cell. A periodic scene's rows cross its images: every image
    /// counts.
    ///
    /// # Errors
    ///
    /// [`Error::Length`], with nothing written, if `cells` does not hold one entry per cell.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point2, Vector2};
    /// use raysweep::{Circle, Grid, Scene};
    ///
    /// // A disc of radius 1.6 on a 4 × 4 grid of unit cells from (0, 0).
    /// let scene: Scene<f64, 2, Circle<f64>> =
    ///     Scene::new(vec![Circle::new(Point2::new(2.0, 2.0), 1.6)?]);
    /// let grid = Grid::new(Point2::origin(), Vector2::repeat(1.0), [4, 4])?;
    /// let mut cells = vec![false; 16];
    /// grid.occupancy(&scene, &mut cells)?;
    /// let image: Vec<String> = cells
    ///     .chunks(4)
    ///     .map(|row| row.iter().map(|&c| if c { '#' } else { '.' }).collect())
    ///     .collect();
    /// assert_eq!(image, [".##.", "####", "####", ".##."]);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn occupancy<G: Geometry<T, D>>(&self, scene: &G, cells: &mut [bool]) -> Result<(), Error> {
        self.volume_strides("cells", cells.len())?;
        self.occupancy_rows(scene, 0, cells)
    }

    /// Some rows of [`Grid::occupancy`]: a row is the cells along the last axis at one index on
    /// the axes before it, the rows counted in C order, and `cells` holds whole rows from row
    /// `first` on (`cells[k]` is entry `first·n + k` of the whole answer, `n` the cells of the
    /// last axis). For a volume built slab by slab, or spread over threads of your own; the
    /// same answer.
    ///
    /// # Errors
    ///
    /// [`Error::Length`], with nothing written, unless `cells` holds whole rows that lie in the
    /// grid (`expected`: the entries from row `first` to the grid's end).
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Grid, Scene, Sphere};
    ///
    /// let scene: Scene<f64, 3, Sphere<f64>> =
    ///     Scene::new(vec![Sphere::new(Point3::new(2.0, 2.0, 2.0), 1.0)?]);
    /// let grid = Grid::new(Point3::origin(), Vector3::repeat(0.5), [8, 8, 8])?;
    /// // Slab 4 (the cells at index 4 on axis 0, x from 2 to 2.5), eight rows of eight.
    /// let mut slab = vec![false; 64];
    /// grid.occupancy_rows(&scene, 4 * 8, &mut slab)?;
    /// let mut whole = vec![false; 512];
    /// grid.occupancy(&scene, &mut whole)?;
    /// assert_eq!(slab, whole[4 * 64..5 * 64]);
    /// assert_eq!(slab.iter().filter(|&&c| c).count(), 12);
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn occupancy_rows<G: Geometry<T, D>>(
        &self,
        scene: &G,
        first: usize,
        cells: &mut [bool],
    ) -> Result<(), Error> {
        let n = self.cells[D - 1];
        let rows = self.cells[..D - 1]
            .iter()
            .try_fold(1usize, |r, &c| r.checked_mul(c));
        let left = rows.map_or(usize::MAX, |rows| {
            rows.saturating_sub(first).saturating_mul(n)
        });
        if !cells.len().is_multiple_of(n) || cells.len() > left {
            return Err(Error::Length {
                what: "cells",
                len: cells.len(),
                expected: left,
            });
        }
        self.settle_rows(scene, first, cells);
        Ok(())
    }

    /// [`Grid::occupancy`] with its rows spread over threads (rayon): the same answer.
    ///
    /// # Errors
    ///
    /// As [`Grid::occupancy`].
    #[cfg(feature = "rayon")]
    #[cfg_attr(docsrs, doc(cfg(feature = "rayon")))]
    pub fn occupancy_par<G: Geometry<T, D> + Sync>(
        &self,
        scene: &G,
        cells: &mut [bool],
    ) -> Result<(), Error> {
        use rayon::prelude::*;
        self.volume_strides("cells", cells.len())?;
        let n = self.cells[D - 1];
        cells
            .par_chunks_mut(n.saturating_mul(ROWS))
            .enumerate()
            .for_each(|(chunk, part)| self.settle_rows(scene, chunk * ROWS, part));
        Ok(())
    }

    /// The rows from row `first` (rows counted in C order over the axes before the last) into
    /// `cells`, whole rows of the last axis's cells, in strips of up to [`STRIP`] rows that
    /// differ only on the axis before the last.
    fn settle_rows<G: Geometry<T, D>>(&self, scene: &G, first: usize, cells: &mut [bool]) {
        let n = self.cells[D - 1];
        // In one dimension there is one row, and no axis before the last.
        let across = if D >= 2 { self.cells[D - 2] } else { 1 };
        let (mut near, mut boxes) = (Vec::new(), Vec::new());
        let mut done = 0;
        for_each_strip(first, cells.len() / n, across, |row, len| {
            let part = &mut cells[done * n..(done + len) * n];
            self.settle_strip(scene, row, len, part, (&mut near, &mut boxes));
            done += len;
        });
    }

    /// The `len` rows from row `row` (consecutive on the axis before the last, the same on the
    /// others) into `part`. The items whose spans a row may list are those a ball sweeping the
    /// strip's middle line touches (its radius reaching every row, and a cell more): asked once,
    /// then each row asks each of them for its span.
    fn settle_strip<G: Geometry<T, D>>(
        &self,
        scene: &G,
        row: usize,
        len: usize,
        part: &mut [bool],
        (near, boxes): (&mut Vec<G::Span>, &mut Vec<Option<Aabb<T, D>>>),
    ) {
        part.fill(false);
        let (last, across) = (D - 1, D.saturating_sub(2));
        let (n, size) = (self.cells[last], self.cell_size[last].to_wide());
        let per_cell = 1.0 / size;
        // The first row's line, from the grid's lower plane: centre k lies at about
        // (k + 1/2)·size.
        let mut at = Point::<T, D>::origin();
        let mut rest = row;
        for a in (0..last).rev() {
            at[a] = self.center_on(a, rest % self.cells[a]);
            rest /= self.cells[a];
        }
        at[last] = self.min[last];
        let mut along = SVector::<T, D>::zeros();
        along[last] = T::one();
        // A cell beyond the last centre: a span that ends there by rounding is listed.
        let reach = T::from_wide(((n + 1) as f64 * size).min(T::MAX.to_wide()));
        let first_on = if D >= 2 { row % self.cells[across] } else { 0 };
        let mut middle = at;
        let mut sweep = T::zero();
        if D >= 2 {
            let lo = self.center_on(across, first_on).to_wide();
            let hi = self.center_on(across, first_on + len - 1).to_wide();
            middle[across] = T::from_wide(0.5 * (lo + hi));
            sweep = T::from_wide(0.5 * (hi - lo) + self.cell_size[across].to_wide());
        }
        let Ok(line) = Ray::new(middle, along) else {
            return;
        };
        scene.sphere_spans_to(&line, sweep, reach, near);
        boxes.clear();
        boxes.extend(near.iter().map(|s| scene.item_box(Sealed(()), s.id())));
        for (k, part) in part.chunks_mut(n).enumerate() {
            if D >= 2 {
                at[across] = self.center_on(across, first_on + k);
            }
            let Ok(line) = Ray::new(at, along) else {
                continue;
            };
            let centre = |k: usize| {
                let mut p = at;
                p[last] = self.center_on(last, k);
                p
            };
            for (id, held) in near.iter().map(Answer::id).zip(boxes.iter()) {
                // A line beside the item's box misses it: no centre of it is inside.
                let beside =
                    |b: &Aabb<T, D>| (0..last).any(|a| at[a] < b.min()[a] || at[a] > b.max()[a]);
                if held.as_ref().is_some_and(beside) {
                    continue;
                }
                let Some(span) = scene.item_span(Sealed(()), id, &line) else {
                    continue;
                };
                let inside = |k: usize| scene.item_contains(Sealed(()), id, &centre(k));
                if let Some((lo, hi)) = run(n, per_cell, &span, inside) {
                    part[lo..=hi].fill(true);
                }
            }
        }
    }
}

/// `strip(row, len)` for the strips that cover the `rows` rows from row `first`, in order: runs
/// of up to [`STRIP`] consecutive rows that do not cross a multiple of `across` (the cells of
/// the axis before the last, whose index is the row's modulo `across`).
fn for_each_strip(first: usize, rows: usize, across: usize, mut strip: impl FnMut(usize, usize)) {
    let mut row = first;
    while row < first + rows {
        let len = STRIP.min(across - row % across).min(first + rows - row);
        strip(row, len);
        row += len;
    }
}

/// The run `lo..=hi` of the `n` centres of a row (centre `k` near `(k + 1/2)/per_cell` along
/// the line, `per_cell` the cells per unit length) for which `inside` holds, for a convex body
/// whose span along the line is `span`: `None` where none is. A centre inside is sought among
/// those the span covers, then beside them; the run is then grown while the next centre is
/// inside (by convexity, the centres between two inside ones are inside). The covered indices
/// are estimates (a product by the reciprocal, rounded): `inside` settles every end.
fn run<T: Real>(
    n: usize,
    per_cell: f64,
    span: &Span<T>,
    inside: impl Fn(usize) -> bool,
) -> Option<(usize, usize)> {
    // The covered centres' indices, held to [-1, n] (a NaN to 0) before conversion; the floor
    // and ceiling by truncation, which a call into the math library would cost more than.
    let held = |v: f64| v.clamp(-1.0, n as f64);
    let first = {
        let v = held(span.enter.to_wide() * per_cell - 0.5);
        (v as i64) + i64::from((v as i64 as f64) < v)
    };
    let last = {
        let v = held(span.exit.to_wide() * per_cell - 0.5);
        (v as i64) - i64::from((v as i64 as f64) > v)
    };
    let within = |k: i64| (0..n as i64).contains(&k).then_some(k as usize);
    let covered = (first.max(0)..=last.min(n as i64 - 1)).map(|k| k as usize);
    let beside = [first - 1, last + 1].into_iter().filter_map(within);
    let seed = covered.chain(beside).find(|&k| inside(k))?;
    let mut lo = seed;
    while lo > 0 && inside(lo - 1) {
        lo -= 1;
    }
    // Jump to the span's last covered centre (or the one before) where it is inside, then grow.
    let mut hi = [last, last - 1]
        .into_iter()
        .filter_map(within)
        .find(|&k| k > seed && inside(k))
        .unwrap_or(seed);
    while hi + 1 < n && inside(hi + 1) {
        hi += 1;
    }
    Some((lo, hi))
}
