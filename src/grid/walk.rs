//! The walk of a ray through a grid's cells: the crossings of each axis's planes, merged in
//! order along the line (Amanatides and Woo, "A fast voxel traversal algorithm for ray tracing",
//! Eurographics 1987), each computed from its plane's index (`src/grid/planes.rs`) rather than
//! by adding cell widths, so nothing drifts.
//!
//! The walk orders the crossings along the line exactly (`Axis::compare`): axes whose crossings
//! coincide step together, so a line through an edge or a corner lists no cell between them. A
//! cell whose exit rounds to its entry in the width (one the line runs through for less than the
//! width resolves there) is passed over, and the next one enters where it would have, with the
//! same bits. Each step moves one axis's index or more, so a walk ends after at most the sum of
//! the cell counts.

use core::cmp::Ordering;

use crate::fused::detected_products;
use crate::ray::{Ray, length};
use crate::real::Real;

use super::planes::Axis;
use super::{Grid, GridCell};

/// A crossing of plane `plane` of axis `axis`, with its key ([`Axis::crossing`]); or, with axis
/// [`ORIGIN`], the ray's origin (parameter 0).
#[derive(Clone, Copy, Debug)]
struct Cut {
    axis: usize,
    plane: usize,
    key: f64,
}

/// The axis of the [`Cut`] at the origin.
const ORIGIN: usize = usize::MAX;

/// The cells a ray's segment runs through, in order ([`Grid::walk`]): an iterator of
/// [`GridCell`]s.
#[derive(Clone, Debug)]
pub struct GridWalk<T: Real, const D: usize = 3> {
    axes: [Axis; D],
    cells: [usize; D],
    /// The cell the walk is in.
    index: [usize; D],
    /// Per axis, the next plane the line crosses (none where it runs parallel).
    next: [Option<Cut>; D],
    /// Where the line leaves the grid.
    end: Cut,
    /// The distance at which the walk entered the cell it is in.
    enter: T,
    max_distance: T,
    /// The stored direction's length: a key times it is a distance.
    length: f64,
    done: bool,
}

impl<T: Real, const D: usize> GridWalk<T, D> {
    /// The walk of `ray`'s segment `[0, max_distance]` through `grid`.
    pub(crate) fn new(grid: &Grid<T, D>, ray: &Ray<T, D>, max_distance: T) -> Self {
        let dir: [f64; D] = ray.stored_dir().into();
        let products = detected_products();
        let cells = grid.cells();
        let axes: [Axis; D] = core::array::from_fn(|a| {
            Axis::new(
                ray.origin()[a].to_wide(),
                grid.min()[a].to_wide(),
                grid.cell_size()[a].to_wide(),
                cells[a],
                dir[a],
                products,
            )
        });
        let mut walk = GridWalk {
            axes,
            cells,
            index: [0; D],
            next: [None; D],
            end: Cut {
                axis: ORIGIN,
                plane: 0,
                key: 0.0,
            },
            enter: T::zero(),
            max_distance,
            length: length::<T, f64, D>(&dir),
            done: true,
        };
        walk.start();
        walk
    }

    /// The crossing of plane `plane` of axis `axis`.
    fn cut(&self, axis: usize, plane: usize) -> Cut {
        Cut {
            axis,
            plane,
            key: self.axes[axis].crossing(plane),
        }
    }

    /// How `x` lies along the line against `y`, exactly.
    fn order(&self, x: &Cut, y: &Cut) -> Ordering {
        if x.axis == y.axis && x.plane == y.plane {
            return Ordering::Equal;
        }
        match (x.axis == ORIGIN, y.axis == ORIGIN) {
            (true, true) => Ordering::Equal,
            (true, false) => self.axes[y.axis].compare_origin(y.plane).reverse(),
            (false, true) => self.axes[x.axis].compare_origin(x.plane),
            (false, false) => {
                self.axes[x.axis].compare(x.plane, x.key, &self.axes[y.axis], y.plane, y.key)
            }
        }
    }

    /// Finds where the segment enters the grid and the cell there; leaves the walk `done` where
    /// it runs through no cell for a positive length.
    fn start(&mut self) {
        if !(self.max_distance.to_wide() > 0.0) {
            return;
        }
        // Where the line enters the grid ahead of the origin, and where it leaves it; the still
        // axes' cells.
        let mut first = Cut {
            axis: ORIGIN,
            plane: 0,
            key: 0.0,
        };
        let mut end: Option<Cut> = None;
        for a in 0..D {
            let (axis, cells) = (self.axes[a], self.cells[a]);
            if axis.dir() == 0.0 {
                let inside = axis.plane_vs_origin(0) != Ordering::Greater
                    && axis.plane_vs_origin(cells) != Ordering::Less;
                if !inside {
                    return;
                }
                // The last plane at or below the origin: on a plane, the cell above it; on the
                // grid's last plane, the last cell.
                self.index[a] = last_where(cells, |k| axis.plane_vs_origin(k) != Ordering::Greater);
                continue;
            }
            let (near, far) = if axis.dir() > 0.0 {
                (self.cut(a, 0), self.cut(a, cells))
            } else {
                (self.cut(a, cells), self.cut(a, 0))
            };
            if self.order(&near, &first) == Ordering::Greater {
                first = near;
            }
            if end.is_none_or(|e| self.order(&far, &e) == Ordering::Less) {
                end = Some(far);
            }
        }
        let Some(end) = end else {
            return;
        };
        if self.order(&first, &end) != Ordering::Less {
            return;
        }
        self.end = end;
        self.enter = if first.axis == ORIGIN {
            T::zero()
        } else {
            self.distance(first.key)
        };
        if !(self.enter < self.max_distance) {
            return;
        }
        // The moving axes' cells at `first`, and their next crossings.
        for a in 0..D {
            let (dir, cells) = (self.axes[a].dir(), self.cells[a]);
            let behind = |k: usize| self.order(&self.cut(a, k), &first) != Ordering::Greater;
            if dir > 0.0 {
                let k = last_where(cells, behind);
                self.index[a] = k;
                self.next[a] = Some(self.cut(a, k + 1));
            } else if dir < 0.0 {
                let k = cells - 1 - last_where(cells, |j| behind(cells - j));
                self.index[a] = k;
                self.next[a] = Some(self.cut(a, k));
            }
        }
        self.done = false;
    }

    /// The distance along the ray at `key`, rounded to the width.
    #[inline(always)]
    fn distance(&self, key: f64) -> T {
        T::from_wide(key * self.length)
    }
}

/// The largest `k` in `0..cells` for which `holds(k)`, for a `holds` that holds at 0 and, once
/// false, stays false (a binary search).
fn last_where(cells: usize, holds: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, cells - 1);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if holds(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

impl<T: Real, const D: usize> Iterator for GridWalk<T, D> {
    type Item = GridCell<T, D>;

    fn next(&mut self) -> Option<GridCell<T, D>> {
        while !self.done {
            // The nearest next crossing.
            let mut step: Option<Cut> = None;
            for cut in self.next.iter().flatten() {
                if step.is_none_or(|s| self.order(cut, &s) == Ordering::Less) {
                    step = Some(*cut);
                }
            }
            let step = step?;
            let within = self.order(&step, &self.end) == Ordering::Less;
            // Rounded keys may run a rounding backwards where the exact order says forwards:
            // the distance then stays where it was (and the cell between is empty).
            let at = self.distance(if within { step.key } else { self.end.key });
            let at = if at < self.enter { self.enter } else { at };
            let (exit, last) = if at < self.max_distance {
                (at, !within)
            } else {
                (self.max_distance, true)
            };
            let cell = GridCell {
                index: self.index,
                enter: self.enter,
                exit,
            };
            if last {
                self.done = true;
            } else {
                // Every axis that crosses there steps.
                for a in 0..D {
                    if self.next[a].is_some_and(|c| self.order(&c, &step) == Ordering::Equal) {
                        let axis = self.axes[a];
                        let plane = if axis.dir() > 0.0 {
                            self.index[a] += 1;
                            self.index[a] + 1
                        } else {
                            self.index[a] -= 1;
                            self.index[a]
                        };
                        self.next[a] = Some(self.cut(a, plane));
                    }
                }
                self.enter = exit;
            }
            if cell.exit > cell.enter {
                return Some(cell);
            }
        }
        None
    }
}
