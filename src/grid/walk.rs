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
//!
//! A walk finds [`BATCH`] cells at a time and hands them out one by one: a caller that loads from
//! a volume at each cell then issues those loads side by side, where one cell at a time each load
//! would wait for the walk's arithmetic (`docs/performance.md`, "Grid walks"). `fold` (which
//! `sum`, `for_each`, `count` and the projections run through) hands each cell over as it is
//! found instead, with no buffer to fill and read back. Either way the steps run on a copy of the
//! walk's state in locals ([`Steps`]), which the compiler keeps in registers. Each axis's next
//! key is computed a step ahead, off the chain of operations a step waits for.

use core::cmp::Ordering;

use crate::fused::BASE_PRODUCTS;
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
/// [`GridCell`]s. It finds them 16 at a time (and holds those it has not yet handed out), so that
/// the caller's work on consecutive cells overlaps; `fold` (and so `sum`, `for_each`, `count`)
/// runs the walk without them.
#[derive(Clone, Debug)]
pub struct GridWalk<T: Real, const D: usize = 3> {
    steps: Steps<T, D>,
    /// Cells found ahead of the caller: `found[taken..count]` are yet to be returned.
    found: [GridCell<T, D>; BATCH],
    taken: usize,
    count: usize,
}

/// Where a walk stands: the cell it is in and each axis's next crossings. A value the step loop
/// copies into locals (`Steps::advance` indexes no array by a variable), so that the compiler
/// keeps it in registers while it runs.
#[derive(Clone, Copy, Debug)]
pub(super) struct Steps<T: Real, const D: usize> {
    pub(super) axes: [Axis; D],
    cells: [usize; D],
    /// The cell the walk is in.
    pub(super) index: [usize; D],
    /// Per axis, the next plane the line crosses and its key (`+∞` where the line runs parallel,
    /// and the plane is unused).
    pub(super) plane: [usize; D],
    pub(super) key: [f64; D],
    /// Per axis, the key of the plane after the next: computed a step early, so that a step
    /// does not wait for a crossing's arithmetic.
    pub(super) ahead: [f64; D],
    /// Per axis, what a crossing adds to the index: 1, or `usize::MAX` (−1) where the line runs
    /// down the axis.
    pub(super) step: [usize; D],
    /// Twice the widest [`Axis::margin`]: keys closer than this are ordered exactly.
    pub(super) close: f64,
    /// Where the line leaves the grid.
    end: Cut,
    /// A key below which a crossing certainly comes before `end`: its key less [`Steps::close`]
    /// (at least any axis's margin and its own).
    pub(super) before_end: f64,
    /// The distance at which the walk entered the cell it is in.
    pub(super) enter: T,
    /// The distance of the grid's exit, rounded to the width: no cell's exit passes it.
    pub(super) exit_at: T,
    /// Whether `end` is a slab's last plane inside the grid ([`Steps::within`]), where the
    /// whole walk would step on: a cell's exit there is its crossing's distance, as in the whole
    /// walk, where at the grid's exit it is `exit_at`.
    pub(super) end_inside: bool,
    pub(super) max_distance: T,
    /// The stored direction's length: a key times it is a distance.
    pub(super) length: f64,
    pub(super) done: bool,
}

/// How many cells a walk finds at a time: the caller's work on them (typically loads from a
/// volume indexed by the cell) then overlaps, where one cell at a time would make each such load
/// wait for the walk's arithmetic.
const BATCH: usize = 16;

impl<T: Real, const D: usize> GridWalk<T, D> {
    /// The walk of `ray`'s segment `[0, max_distance]` through `grid`.
    pub(crate) fn new(grid: &Grid<T, D>, ray: &Ray<T, D>, max_distance: T) -> Self {
        Self::within(grid, ray, max_distance, (0, grid.cells()[0]))
    }

    /// The part of that walk in the layers `layers.0..layers.1` of the first axis
    /// ([`Steps::within`]).
    pub(crate) fn within(
        grid: &Grid<T, D>,
        ray: &Ray<T, D>,
        max_distance: T,
        layers: (usize, usize),
    ) -> Self {
        GridWalk {
            steps: Steps::within(grid, ray, max_distance, layers),
            found: [GridCell {
                index: [0; D],
                enter: T::zero(),
                exit: T::zero(),
            }; BATCH],
            taken: 0,
            count: 0,
        }
    }
}

impl<T: Real, const D: usize> Steps<T, D> {
    /// The part of the walk of `ray`'s segment `[0, max_distance]` through `grid` that lies in
    /// the layers `layers.0..layers.1` of the first axis (the cells whose first index is in that
    /// range), at its first cell: exactly the whole walk's cells there, with their bits, so that
    /// a volume cut into slabs along the first axis is walked a slab at a time (a walk's first
    /// index only rises or only falls, so its cells in a slab are one run of its cells).
    ///
    /// The part starts where the whole walk enters the slab: at the grid's entry (or the
    /// origin), or at the crossing of the slab's first plane, found exactly as the whole walk
    /// finds its first cell; and it stops at the crossing of the slab's last plane, or the
    /// grid's exit. A cell's entry is where the whole walk would have it: the walk keeps each
    /// entry at or after the one before, where rounded keys run a rounding backwards, so the part
    /// starts at the latest distance among the slab's first crossing and the last crossing of
    /// each other axis before it (the crossings of one axis come in order along the line: each
    /// is its plane's exact offset rounded once, times the same reciprocal).
    pub(super) fn within(
        grid: &Grid<T, D>,
        ray: &Ray<T, D>,
        max_distance: T,
        layers: (usize, usize),
    ) -> Self {
        let dir: [f64; D] = ray.stored_dir().into();
        let products = BASE_PRODUCTS;
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
        let mut walk = Steps {
            axes,
            cells,
            index: [0; D],
            plane: [0; D],
            key: [f64::INFINITY; D],
            ahead: [f64::INFINITY; D],
            step: core::array::from_fn(|a| if dir[a] < 0.0 { usize::MAX } else { 1 }),
            close: 2.0 * axes.iter().map(Axis::margin).fold(0.0, f64::max),
            end: Cut {
                axis: ORIGIN,
                plane: 0,
                key: 0.0,
            },
            before_end: f64::NEG_INFINITY,
            enter: T::zero(),
            exit_at: T::zero(),
            end_inside: false,
            max_distance,
            length: length::<T, f64, D>(&dir),
            done: true,
        };
        walk.start(layers);
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
        order(&self.axes, x, y)
    }

    /// Finds where the segment enters the grid, or the slab of `layers` in it, and the cell
    /// there; leaves the walk `done` where it runs through no cell of the slab for a positive
    /// length.
    fn start(&mut self, (low, high): (usize, usize)) {
        if !(self.max_distance.to_wide() > 0.0) || low >= high {
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
        let Some(mut end) = end else {
            return;
        };
        if self.order(&first, &end) != Ordering::Less {
            return;
        }
        self.exit_at = self.distance(end.key);
        self.enter = if first.axis == ORIGIN {
            T::zero()
        } else {
            self.distance(first.key)
        };
        // The slab's planes on the first axis, in the order the line crosses them; where the
        // line runs along them, its cell there decides.
        let (into, out_of) = if self.axes[0].dir() >= 0.0 {
            (low, high)
        } else {
            (high, low)
        };
        let whole = first;
        let mut restart = false;
        if self.axes[0].dir() == 0.0 {
            if !(low..high).contains(&self.index[0]) {
                return;
            }
        } else {
            if into != 0 && into != self.cells[0] {
                let cut = self.cut(0, into);
                if self.order(&cut, &first) == Ordering::Greater {
                    (first, restart) = (cut, true);
                }
            }
            if out_of != 0 && out_of != self.cells[0] {
                let cut = self.cut(0, out_of);
                if self.order(&cut, &end) == Ordering::Less {
                    (end, self.end_inside) = (cut, true);
                }
            }
            if self.order(&first, &end) != Ordering::Less {
                return;
            }
        }
        self.end = end;
        self.before_end = end.key - self.close;
        if !(self.enter < self.max_distance) {
            return;
        }
        // The moving axes' cells at `first`, and their next crossings: found exactly, from the
        // cell the rounded position of `first` falls in.
        for a in 0..D {
            let (axis, cells) = (self.axes[a], self.cells[a]);
            let behind = |k: usize| self.order(&self.cut(a, k), &first) != Ordering::Greater;
            // (Saturating: a NaN or negative guess is cell 0, a huge one the last.)
            let guess = ((axis.origin_offset().0 + first.key * axis.dir()) / axis.size()) as usize;
            let guess = guess.min(cells - 1);
            if axis.dir() > 0.0 {
                let k = last_where_near(cells, guess, behind);
                (self.index[a], self.plane[a]) = (k, k + 1);
            } else if axis.dir() < 0.0 {
                let k =
                    cells - 1 - last_where_near(cells, cells - 1 - guess, |j| behind(cells - j));
                (self.index[a], self.plane[a]) = (k, k);
            } else {
                continue;
            }
            self.key[a] = self.axes[a].crossing(self.plane[a]);
            self.ahead[a] = self.axes[a].crossing(self.plane[a].wrapping_add(self.step[a]));
        }
        if restart {
            // The whole walk's entry here: the latest of the slab's first crossing, the last
            // crossing of each other axis the whole walk made before it, and its own entry.
            let mut latest = first.key;
            for a in 1..D {
                if self.axes[a].dir() == 0.0 {
                    continue;
                }
                let behind = self.cut(a, self.plane[a].wrapping_sub(self.step[a]));
                if self.order(&behind, &whole) != Ordering::Less && behind.key > latest {
                    latest = behind.key;
                }
            }
            let at = self.distance(latest);
            if at > self.enter {
                self.enter = if at > self.exit_at { self.exit_at } else { at };
            }
            if !(self.enter < self.max_distance) {
                return;
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

/// [`last_where`], tried first at `guess` (below `cells`) and its successor: two evaluations
/// of `holds` where the guess is right, a binary search on the side it points to where not.
fn last_where_near(cells: usize, guess: usize, holds: impl Fn(usize) -> bool) -> usize {
    if !holds(guess) {
        return last_where(guess, holds);
    }
    if guess + 1 == cells || !holds(guess + 1) {
        return guess;
    }
    guess + 1 + last_where(cells - guess - 1, |j| holds(guess + 1 + j))
}

/// How `x` lies along the line against `y`, exactly, for a line against `axes`.
fn order<const D: usize>(axes: &[Axis; D], x: &Cut, y: &Cut) -> Ordering {
    if x.axis == y.axis && x.plane == y.plane {
        return Ordering::Equal;
    }
    match (x.axis == ORIGIN, y.axis == ORIGIN) {
        (true, true) => Ordering::Equal,
        (true, false) => axes[y.axis].compare_origin(y.plane).reverse(),
        (false, true) => axes[x.axis].compare_origin(x.plane),
        (false, false) => axes[x.axis].compare(x.plane, x.key, &axes[y.axis], y.plane, y.key),
    }
}

/// The next crossing when some keys are too close to order by value: the nearest of the moving
/// axes' next crossings (`plane`, `key`) exactly, and the axes that cross there (as bits); `end`
/// where no axis moves. (Free of the walk, so that the walk's own state stays in registers.)
#[cold]
#[inline(never)]
fn exact_step<const D: usize>(
    axes: &[Axis; D],
    plane: [usize; D],
    key: [f64; D],
    end: Cut,
) -> (Cut, u32) {
    let cut = |a: usize| Cut {
        axis: a,
        plane: plane[a],
        key: key[a],
    };
    let moving = (0..D).filter(|&a| axes[a].dir() != 0.0);
    let mut step: Option<Cut> = None;
    for a in moving.clone() {
        if step.is_none_or(|s| order(axes, &cut(a), &s) == Ordering::Less) {
            step = Some(cut(a));
        }
    }
    let Some(step) = step else {
        return (end, 0);
    };
    let ties = moving
        .filter(|&a| order(axes, &cut(a), &step) == Ordering::Equal)
        .fold(0, |bits, a| bits | 1 << a);
    (step, ties)
}

impl<T: Real, const D: usize> Steps<T, D> {
    /// The next cell the segment runs through for a positive length.
    #[inline(always)]
    pub(super) fn advance(&mut self) -> Option<GridCell<T, D>> {
        while !self.done {
            // The nearest next crossing by the keys (its axis as a bit); exactly where another is
            // too close to it (an infinite key, of a crossing beyond `f64`'s range, is never
            // close to a finite one, and a parallel axis's is never chosen: the grid's exit
            // comes first).
            let (mut least, mut nearest) = (self.key[0], 1u32);
            for a in 1..D {
                if self.key[a] < least {
                    (least, nearest) = (self.key[a], 1 << a);
                }
            }
            // (`least` is the least key, so an infinite or NaN difference is never close.)
            let mut close = false;
            for a in 0..D {
                close |= nearest >> a & 1 == 0 && self.key[a] - least <= self.close;
            }
            let (key, ties, exact) = if close {
                let (cut, ties) = exact_step(&self.axes, self.plane, self.key, self.end);
                (cut.key, ties, Some(cut))
            } else {
                (least, nearest, None)
            };
            let within = if key < self.before_end {
                true
            } else {
                let step = exact.unwrap_or_else(|| self.cut_of(nearest, key));
                order(&self.axes, &step, &self.end) == Ordering::Less
            };
            // Rounded keys may run a rounding backwards where the exact order says forwards (or
            // past the grid's exit): the distance then stays where it was (and the cell between
            // is empty), and never passes the exit.
            let exit_at = self.exit_at;
            let at = if within || self.end_inside {
                self.distance(key)
            } else {
                exit_at
            };
            let at = if at < self.enter {
                self.enter
            } else if at > exit_at {
                exit_at
            } else {
                at
            };
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
                    if ties >> a & 1 != 0 {
                        // One up, or one down (wrapping: the index stays in the grid, as the
                        // grid's exit comes first).
                        let by = self.step[a];
                        self.index[a] = self.index[a].wrapping_add(by);
                        self.plane[a] = self.plane[a].wrapping_add(by);
                        self.key[a] = self.ahead[a];
                        self.ahead[a] = self.axes[a].crossing(self.plane[a].wrapping_add(by));
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

    /// The next crossing of the axis given as bit `axis` (its key `key`): found by a loop
    /// rather than by indexing, so that the walk's arrays stay in registers.
    #[inline(always)]
    fn cut_of(&self, axis: u32, key: f64) -> Cut {
        let mut cut = Cut {
            axis: 0,
            plane: self.plane[0],
            key,
        };
        for a in 1..D {
            if axis >> a & 1 != 0 {
                (cut.axis, cut.plane) = (a, self.plane[a]);
            }
        }
        cut
    }
}

impl<T: Real, const D: usize> GridWalk<T, D> {
    /// Finds the next cells, up to [`BATCH`] of them, walking a copy of the walk's state (held
    /// in registers, where the walk's own would be written back with every cell found).
    #[inline(never)]
    fn refill(&mut self) {
        let mut steps = self.steps;
        let mut count = 0;
        while count < BATCH {
            let Some(cell) = steps.advance() else {
                break;
            };
            self.found[count] = cell;
            count += 1;
        }
        (self.steps, self.taken, self.count) = (steps, 0, count);
    }
}

impl<T: Real, const D: usize> Iterator for GridWalk<T, D> {
    type Item = GridCell<T, D>;

    #[inline]
    fn next(&mut self) -> Option<GridCell<T, D>> {
        if self.taken == self.count {
            self.refill();
            if self.count == 0 {
                return None;
            }
        }
        let cell = self.found[self.taken];
        self.taken += 1;
        Some(cell)
    }

    /// The cells found and not yet handed out, then the rest of the walk, one cell at a time.
    #[inline]
    fn fold<B, F>(self, init: B, mut f: F) -> B
    where
        F: FnMut(B, GridCell<T, D>) -> B,
    {
        let mut acc = init;
        for &cell in &self.found[self.taken..self.count] {
            acc = f(acc, cell);
        }
        let mut steps = self.steps;
        while let Some(cell) = steps.advance() {
            acc = f(acc, cell);
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::{Point, SVector};
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    use super::*;

    /// The cells of `ray`'s walk in the layers `layers`, as (index, enter's bits, exit's bits).
    fn cells<T: Real, const D: usize>(
        grid: &Grid<T, D>,
        ray: &Ray<T, D>,
        max: T,
        layers: (usize, usize),
    ) -> Vec<([usize; D], u64, u64)> {
        GridWalk::within(grid, ray, max, layers)
            .map(|c| {
                (
                    c.index,
                    c.enter.to_wide().to_bits(),
                    c.exit.to_wide().to_bits(),
                )
            })
            .collect()
    }

    /// The walk's parts in the slabs of every cut of the first axis, in the order the ray
    /// crosses them, are the whole walk, cell for cell and bit for bit: rays from lattice points
    /// (through edges and corners, along planes) and from a few ulps beside them (crossings of
    /// two axes a hair apart, whose rounded keys run backwards), grids far from the origin,
    /// segments that end on a plane.
    fn parts_are_the_whole<T: Real, const D: usize>(seed: u64) {
        let rng = &mut StdRng::seed_from_u64(seed);
        for round in 0..300 {
            let far = [0.0, 1e3, 1e7][round % 3];
            let size: [f64; D] = core::array::from_fn(|_| {
                [0.1, 0.25, 0.3, 1.0 / 3.0][rng.random_range(0..4)] * rng.random_range(1.0..1.1)
            });
            let min: [f64; D] = core::array::from_fn(|_| far + rng.random_range(-2.0..2.0));
            let n: [usize; D] = core::array::from_fn(|_| rng.random_range(1..9));
            let wide = |v: [f64; D]| SVector::from(v.map(T::from_wide));
            let Ok(grid) = Grid::new(Point::from(wide(min)), wide(size), n) else {
                continue;
            };
            let (min, size) = (
                grid.min().map(|v| v.to_wide()),
                grid.cell_size().map(|v| v.to_wide()),
            );
            for _ in 0..40 {
                let lattice = rng.random_bool(0.5);
                let o: [f64; D] = core::array::from_fn(|a| {
                    let k = if lattice {
                        rng.random_range(0..=n[a] + 2) as f64 - 1.0
                    } else {
                        rng.random_range(-0.5..1.5) * n[a] as f64
                    };
                    min[a] + k * size[a]
                });
                // A cell's diagonal from a lattice point runs through a vertex in every cell.
                let diagonal = lattice && rng.random_bool(0.4);
                let d: [f64; D] = core::array::from_fn(|a| {
                    if diagonal {
                        [1.0, -1.0, 2.0][rng.random_range(0..3)] * size[a]
                    } else if rng.random_bool(0.2) {
                        [0.0, 1.0, -1.0][rng.random_range(0..3)]
                    } else {
                        rng.random_range(-1.0..1.0)
                    }
                });
                // A lattice origin nudged by a few of its ulps: crossings of two axes a
                // hair apart, whose rounded keys may come in either order.
                let mut o = wide(o);
                if lattice && rng.random_bool(0.5) {
                    let a = rng.random_range(0..D);
                    let ulps = T::from_wide(rng.random_range(-3.0f64..3.0).round());
                    let by = (o[a].abs() + T::one()) * T::EPSILON * ulps;
                    o[a] += by;
                }
                let Ok(ray) = Ray::new(Point::from(o), wide(d)) else {
                    continue;
                };
                let max = T::from_wide(
                    [f64::INFINITY, rng.random_range(0.0..4.0), 2.0 * size[0]]
                        [rng.random_range(0..3)],
                );
                let whole = cells(&grid, &ray, max, (0, n[0]));
                for cut in 0..=n[0] {
                    let (low, high) = (
                        cells(&grid, &ray, max, (0, cut)),
                        cells(&grid, &ray, max, (cut, n[0])),
                    );
                    let parts = if d[0] < 0.0 {
                        [high, low].concat()
                    } else {
                        [low, high].concat()
                    };
                    assert_eq!(parts, whole, "{grid:?} {ray:?} {max:?}: cut at layer {cut}");
                }
                let ones: Vec<_> = (0..n[0])
                    .map(|k| cells(&grid, &ray, max, (k, k + 1)))
                    .collect();
                let mut ones = ones.concat();
                if d[0] < 0.0 {
                    ones = (0..n[0])
                        .rev()
                        .flat_map(|k| cells(&grid, &ray, max, (k, k + 1)))
                        .collect();
                }
                assert_eq!(ones, whole, "{grid:?} {ray:?} {max:?}: a layer at a time");
            }
        }
    }

    #[test]
    fn a_walk_in_slabs_is_the_whole_walk() {
        parts_are_the_whole::<f64, 2>(1);
        parts_are_the_whole::<f32, 2>(2);
        parts_are_the_whole::<f64, 3>(3);
        parts_are_the_whole::<f32, 3>(4);
    }
}
