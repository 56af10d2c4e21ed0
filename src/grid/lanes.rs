//! Four rays' walks side by side in vector lanes: the kernels of [`Grid::project`] and
//! [`Grid::backproject`].
//!
//! Each lane walks one ray as [`Steps::advance`] does, with the same operations on the same
//! values, so each ray's cells and lengths are its walk's bits. A step whose nearest crossing is
//! clear (no other axis's key within the margin that calls for the exact order, and the key
//! clearly before the grid's exit) runs in the lanes without a branch: the nearest axis chosen
//! by masks, its plane, key and position in the volume moved by selects. A lane whose step is not
//! clear takes it in [`Steps::advance`] itself (the exact order, the exit), and its state is read
//! back into the lanes. `f32` grids run in `f64` lanes rounded to `f32` after each operation
//! ([`Four::rounded`]), which gives `f32`'s own results. Grids in 2D only: in 3D the lanes
//! measured slower than walking each ray alone, which [`one_at_a_time`] does through the same
//! tallies.
//!
//! What is done at each cell is a [`Tally`]. A projection sums in each lane, and a lane whose ray
//! has ended takes the next ray at once, so that the four stay busy however the rays' lengths
//! differ (the "persistent lanes" of packet traversal: Wald et al., "Embree: a kernel framework
//! for efficient CPU ray tracing", ACM TOG 33(4), 2014). A back projection must add to each cell
//! in ray order, which four rays walking at once do not: it notes each step's four cells and
//! what they get, and once the four rays are done adds the first ray's, then the second's, and so
//! on; then the next four rays start.

use alloc::vec::Vec;

use super::Grid;
use super::planes::{Planes, plane_number};
use super::walk::{GridWalk, Steps};
use crate::batch::dispatch::{Job, Registers, with_vector_registers};
use crate::batch::lanes::{Four, FourMask};
use crate::core::exact::Products;
use crate::ray::Ray;
use crate::real::Real;

/// `sums[i]` = the line integral of `volume` (laid out by `strides`) along `rays[i]` up to
/// `reach(i)`: [`Grid::project`]'s loop, four rays at a time.
pub(super) fn project<T: Real, const D: usize>(
    grid: &Grid<T, D>,
    volume: &[T],
    strides: &[usize; D],
    rays: &[Ray<T, D>],
    reach: impl Fn(usize) -> T,
    sums: &mut [T],
) {
    let tally = Sums {
        volume,
        sums,
        sum: [0.0; 4],
    };
    run(grid, strides, rays, reach, every_layer(grid), tally);
}

/// Every layer of the first axis: the whole walks.
fn every_layer<T: Real, const D: usize>(grid: &Grid<T, D>) -> (usize, usize) {
    (0, grid.cells()[0])
}

/// Adds `values[i]·(exit − enter)` to `volume` (laid out by `strides`) at every cell of
/// `rays[i]`'s walk up to `reach(i)`, the rays in order: [`Grid::backproject`]'s loop, four rays
/// at a time.
pub(super) fn backproject<T: Real, const D: usize>(
    grid: &Grid<T, D>,
    values: &[T],
    strides: &[usize; D],
    rays: &[Ray<T, D>],
    reach: impl Fn(usize) -> T,
    volume: &mut [T],
) {
    run(
        grid,
        strides,
        rays,
        reach,
        every_layer(grid),
        Adds::new(values, volume),
    );
}

/// [`backproject`] into the slab of the layers `layers.0..layers.1` of the first axis alone,
/// `part` (those layers' cells of the volume, laid out by `strides`): each ray's walk in the
/// slab ([`Steps::within`]), the same additions in the same order as the whole back
/// projection makes there. The slabs of [`Grid::backproject_par`].
#[cfg(feature = "rayon")]
pub(super) fn backproject_slab<T: Real, const D: usize>(
    grid: &Grid<T, D>,
    values: &[T],
    strides: &[usize; D],
    rays: &[Ray<T, D>],
    reach: impl Fn(usize) -> T,
    layers: (usize, usize),
    part: &mut [T],
) {
    let start = layers.0 * strides[0];
    run(
        grid,
        strides,
        rays,
        reach,
        layers,
        Adds::new(values, Slab { part, start }),
    );
}

/// The walks of `rays` up to `reach` in the layers `layers` of the first axis, their cells
/// handed to `tally`, in the lanes [`with_vector_registers`] chooses.
fn run<T: Real, const D: usize, K: Tally<T>>(
    grid: &Grid<T, D>,
    strides: &[usize; D],
    rays: &[Ray<T, D>],
    reach: impl Fn(usize) -> T,
    layers: (usize, usize),
    tally: K,
) {
    if rays.is_empty() {
        return;
    }
    if D != 2 {
        // In 3D the lanes measured slower than one walk at a time (the `ct` example's 256³
        // projection 5.3 s against 3.2 s): each ray alone, through lane 0 of the tally.
        one_at_a_time(grid, rays, reach, layers, tally);
        return;
    }
    with_vector_registers(
        Registers::Avx512,
        Walks {
            grid,
            strides,
            rays,
            reach,
            layers,
            tally,
        },
    );
}

/// The walks of `rays` up to `reach` in `layers` one at a time, their cells handed to lane 0 of
/// `tally`.
fn one_at_a_time<T: Real, const D: usize, K: Tally<T>>(
    grid: &Grid<T, D>,
    rays: &[Ray<T, D>],
    reach: impl Fn(usize) -> T,
    layers: (usize, usize),
    mut tally: K,
) {
    for (i, ray) in rays.iter().enumerate() {
        tally.start(0, i);
        GridWalk::within(grid, ray, reach(i), layers)
            .for_each(|c| tally.cell(0, grid.flat_index(c.index), c.exit - c.enter));
        tally.ray_done(0, i);
        tally.group_done();
    }
}

/// What the lanes do at the cells their rays cross.
trait Tally<T: Real> {
    /// Whether a lane whose ray has ended takes the next ray at once; else the four take the
    /// next four rays together, once all are done ([`Tally::group_done`]).
    const REFILL: bool;

    /// Lane `l` starts ray `ray`.
    fn start(&mut self, l: usize, ray: usize);

    /// Ray `ray` crosses no cell.
    fn skipped(&mut self, ray: usize);

    /// A clear step's cells: their positions in the volume `at` (an idle lane's is 0) and
    /// lengths `length` (in `T`); `crossed` is set in the lanes that walk a ray that crosses its
    /// cell for a positive length.
    fn cells<V: Four>(&mut self, at: V, length: V, crossed: V::Mask);

    /// Lane `l`'s cell at position `at`, of length `length`, from an exact step.
    fn cell(&mut self, l: usize, at: usize, length: T);

    /// Lane `l`'s ray `ray` has ended.
    fn ray_done(&mut self, l: usize, ray: usize);

    /// The four rays of a group have ended (where the lanes are not refilled).
    fn group_done(&mut self);
}

/// A projection's tally: each lane's sum.
struct Sums<'a, T> {
    volume: &'a [T],
    sums: &'a mut [T],
    sum: PerLane,
}

impl<T: Real> Tally<T> for Sums<'_, T> {
    const REFILL: bool = true;

    #[inline(always)]
    fn start(&mut self, l: usize, _: usize) {
        self.sum[l] = 0.0;
    }

    #[inline(always)]
    fn skipped(&mut self, ray: usize) {
        self.sums[ray] = T::zero();
    }

    #[inline(always)]
    fn cells<V: Four>(&mut self, at: V, length: V, crossed: V::Mask) {
        // (An idle lane's position is 0: every lane's is within the volume.)
        let volume = self.volume;
        let values = if volume.len() <= 1 << 31 {
            at.whole().map(|at| volume[at as usize].to_wide())
        } else {
            at.to_array().map(|at| volume[at as i64 as usize].to_wide())
        };
        let term = (V::from_array(values) * length).rounded::<T>();
        let sum = V::from_array(self.sum);
        self.sum = V::select(crossed, (sum + term).rounded::<T>(), sum).to_array();
    }

    #[inline(always)]
    fn cell(&mut self, l: usize, at: usize, length: T) {
        self.sum[l] = (T::from_wide(self.sum[l]) + self.volume[at] * length).to_wide();
    }

    #[inline(always)]
    fn ray_done(&mut self, l: usize, ray: usize) {
        self.sums[ray] = T::from_wide(self.sum[l]);
    }

    #[inline(always)]
    fn group_done(&mut self) {}
}

/// A back projection's tally: each lane's value, and the cells of every step of the
/// group so far with what each gets (the positions, the additions, and the lanes that add),
/// handed to `sink` a ray at a time once the group is done.
struct Adds<'a, T, S> {
    values: &'a [T],
    sink: S,
    value: PerLane,
    /// Bit `l` set where lane `l` walks a ray of the group.
    group: u32,
    steps: Vec<(PerLane, PerLane, u32)>,
}

impl<'a, T, S> Adds<'a, T, S> {
    fn new(values: &'a [T], sink: S) -> Self {
        Adds {
            values,
            sink,
            value: [0.0; 4],
            group: 0,
            steps: Vec::new(),
        }
    }
}

/// Where a back projection's additions go, a ray at a time in ray order.
trait Sink<T> {
    /// `add` to the cell at position `at`.
    fn add(&mut self, at: usize, add: T);
}

/// The volume itself.
impl<T: Real> Sink<T> for &mut [T] {
    #[inline(always)]
    fn add(&mut self, at: usize, add: T) {
        self[at] += add;
    }
}

/// A slab of the volume: the cells from position `start` on, in `part`.
#[cfg(feature = "rayon")]
struct Slab<'a, T> {
    part: &'a mut [T],
    start: usize,
}

#[cfg(feature = "rayon")]
impl<T: Real> Sink<T> for Slab<'_, T> {
    #[inline(always)]
    fn add(&mut self, at: usize, add: T) {
        self.part[at - self.start] += add;
    }
}

impl<T: Real, S: Sink<T>> Tally<T> for Adds<'_, T, S> {
    const REFILL: bool = false;

    #[inline(always)]
    fn start(&mut self, l: usize, ray: usize) {
        self.value[l] = self.values[ray].to_wide();
        self.group |= 1 << l;
    }

    #[inline(always)]
    fn skipped(&mut self, _: usize) {}

    #[inline(always)]
    fn cells<V: Four>(&mut self, at: V, length: V, crossed: V::Mask) {
        let add = (V::from_array(self.value) * length).rounded::<T>();
        self.steps
            .push((at.to_array(), add.to_array(), crossed.bits()));
    }

    #[inline(always)]
    fn cell(&mut self, l: usize, at: usize, length: T) {
        let mut step = ([0.0; 4], [0.0; 4], 1 << l);
        step.0[l] = at as f64;
        step.1[l] = (T::from_wide(self.value[l]) * length).to_wide();
        self.steps.push(step);
    }

    #[inline(always)]
    fn ray_done(&mut self, _: usize, _: usize) {}

    /// Each lane's additions, the lanes in ray order, each in walk order.
    fn group_done(&mut self) {
        for l in 0..4 {
            if self.group >> l & 1 == 0 {
                continue;
            }
            for (at, add, lanes) in &self.steps {
                if lanes >> l & 1 != 0 {
                    self.sink.add(at[l] as usize, T::from_wide(add[l]));
                }
            }
        }
        self.steps.clear();
        self.group = 0;
    }
}

/// The walks' arguments, run in the lanes [`with_vector_registers`] chooses.
struct Walks<'a, T: Real, const D: usize, R, K> {
    grid: &'a Grid<T, D>,
    strides: &'a [usize; D],
    rays: &'a [Ray<T, D>],
    reach: R,
    layers: (usize, usize),
    tally: K,
}

impl<T: Real, const D: usize, R: Fn(usize) -> T, K: Tally<T>> Job for Walks<'_, T, D, R, K> {
    type Output = ();

    #[inline(always)]
    fn run<V: Four>(self, _: Products, _: Registers) {
        Lanes::<T, V, D, R, K>::new(self).run();
    }
}

/// One value per lane, as the lanes' state is held between steps (a vector only inside a step,
/// so that the code that sets one lane, compiled without the vector registers, reads and
/// writes plain memory).
type PerLane = [f64; 4];

/// Four walks: each lane's state as a [`Steps`] (current where the lane last took a step there)
/// and, for the steps taken in the lanes, one value per lane.
struct Lanes<'a, T: Real, V, const D: usize, R, K> {
    job: Walks<'a, T, D, R, K>,
    vectors: core::marker::PhantomData<V>,
    /// The next ray to start.
    next: usize,
    /// Bit `l` set where lane `l` walks a ray.
    active: u32,
    /// The ray each lane walks, and its walk.
    ray: [usize; 4],
    walks: [Steps<T, D>; 4],
    /// Per lane and axis, the cell's index less the plane's: the same along a walk.
    below: [[usize; D]; 4],
    /// How each axis's crossings are computed, and its cell size (the grid's).
    planes: [Planes; D],
    size: [f64; D],
    /// Per axis, the lanes' next planes' numbers, their keys, the keys after them, what a
    /// crossing adds to the plane (±1) and to the position in the volume (± the stride), and the
    /// line's `o − min` (as a pair) and `1 / dir`, as [`Steps`] and its axes hold them.
    plane: [PerLane; D],
    key: [PerLane; D],
    ahead: [PerLane; D],
    step: [PerLane; D],
    jump: [PerLane; D],
    from_min: [PerLane; D],
    from_min_low: [PerLane; D],
    inv: [PerLane; D],
    /// The position of the lanes' cells in the volume ([`Lanes::idle`]: 0 in an idle lane).
    at: PerLane,
    close: PerLane,
    before_end: PerLane,
    enter: PerLane,
    exit_at: PerLane,
    max_distance: PerLane,
    length: PerLane,
}

/// The set bits of `bits`, lowest first.
fn lanes_of(bits: u32) -> impl Iterator<Item = usize> {
    (0..4).filter(move |l| bits >> l & 1 != 0)
}

impl<'a, T: Real, V: Four, const D: usize, R: Fn(usize) -> T, K: Tally<T>>
    Lanes<'a, T, V, D, R, K>
{
    /// The lanes of `job`, its first rays started.
    #[inline(always)]
    fn new(job: Walks<'a, T, D, R, K>) -> Self {
        let first = Steps::within(job.grid, &job.rays[0], (job.reach)(0), job.layers);
        let none = [[0.0; 4]; D];
        let mut lanes = Lanes {
            vectors: core::marker::PhantomData,
            next: 0,
            active: 0,
            ray: [0; 4],
            walks: [first; 4],
            below: [[0; D]; 4],
            planes: first.axes.map(|a| a.planes()),
            size: first.axes.map(|a| a.size()),
            plane: none,
            key: none,
            ahead: none,
            step: none,
            jump: none,
            from_min: none,
            from_min_low: none,
            inv: none,
            at: [0.0; 4],
            close: [0.0; 4],
            before_end: [0.0; 4],
            enter: [0.0; 4],
            exit_at: [0.0; 4],
            max_distance: [0.0; 4],
            length: [0.0; 4],
            job,
        };
        lanes.start_group();
        lanes
    }

    /// Walks every ray.
    #[inline(always)]
    fn run(mut self) {
        let no = <V::Mask as FourMask>::splat(false);
        let load = |lanes: &[PerLane; D]| lanes.map(V::from_array);
        while self.active != 0 {
            let key = load(&self.key);
            // The nearest next crossing by the keys, as `Steps::advance` picks it (the first
            // axis of the least key), as a mask per axis.
            let mut least = key[0];
            let mut nearest = [no; D];
            nearest[0] = !no;
            for a in 1..D {
                let nearer = key[a].lt(least);
                least = V::select(nearer, key[a], least);
                for earlier in &mut nearest[..a] {
                    *earlier = *earlier & !nearer;
                }
                nearest[a] = nearer;
            }
            // Lanes whose step is not clear take it on their own.
            let close = V::from_array(self.close);
            let mut unclear = !least.lt(V::from_array(self.before_end));
            for a in 0..D {
                unclear = unclear | (!nearest[a] & (key[a] - least).le(close));
            }
            let unclear = unclear.bits() & self.active;
            if unclear != 0 {
                for l in lanes_of(unclear) {
                    self.exact_step(l);
                }
                continue;
            }
            // The cell's exit, as `Steps::advance` finds it for a clear step.
            let (enter, exit_at) = (V::from_array(self.enter), V::from_array(self.exit_at));
            let max_distance = V::from_array(self.max_distance);
            let at = (least * V::from_array(self.length)).rounded::<T>();
            let at = V::select(at.lt(enter), enter, V::select(exit_at.lt(at), exit_at, at));
            let within = at.lt(max_distance);
            let exit = V::select(within, at, max_distance);
            let length = (exit - enter).rounded::<T>();
            self.job
                .tally
                .cells(V::from_array(self.at), length, enter.lt(exit));
            self.enter = exit.to_array();
            // The nearest axis steps: its next plane, key and position, and the key after.
            let mut at = V::from_array(self.at);
            for a in 0..D {
                let moves = nearest[a];
                let (now, step) = (V::from_array(self.plane[a]), V::from_array(self.step[a]));
                let plane = now + step;
                let after = self.planes[a].crossing(
                    plane + step,
                    V::splat(self.size[a]),
                    V::from_array(self.from_min[a]),
                    V::from_array(self.from_min_low[a]),
                    V::from_array(self.inv[a]),
                );
                let ahead = V::from_array(self.ahead[a]);
                self.plane[a] = V::select(moves, plane, now).to_array();
                at = V::select(moves, at + V::from_array(self.jump[a]), at);
                self.key[a] = V::select(moves, ahead, key[a]).to_array();
                self.ahead[a] = V::select(moves, after, ahead).to_array();
            }
            self.at = at.to_array();
            let ended = (!within).bits() & self.active;
            if ended != 0 {
                for l in lanes_of(ended) {
                    self.finish(l);
                }
            }
        }
    }

    /// Lane `l`'s next step taken by [`Steps::advance`], its cell handed to the tally.
    #[inline(never)]
    fn exact_step(&mut self, l: usize) {
        let walk = &mut self.walks[l];
        for a in 0..D {
            walk.plane[a] = self.plane[a][l] as i64 as usize;
            walk.index[a] = walk.plane[a].wrapping_add(self.below[l][a]);
            walk.key[a] = self.key[a][l];
            walk.ahead[a] = self.ahead[a][l];
        }
        walk.enter = T::from_wide(self.enter[l]);
        if let Some(cell) = walk.advance() {
            let at = self.job.grid.flat_index(cell.index);
            self.job.tally.cell(l, at, cell.exit - cell.enter);
        }
        if self.walks[l].done {
            self.finish(l);
        } else {
            self.load(l);
        }
    }

    /// Lane `l`'s ray done: handed to the tally, and the lane given the next ray, or (where the
    /// tally takes rays four at a time) idle until the four are done.
    #[inline(never)]
    fn finish(&mut self, l: usize) {
        self.job.tally.ray_done(l, self.ray[l]);
        if K::REFILL {
            self.start(l);
            return;
        }
        self.idle(l);
        if self.active == 0 {
            self.job.tally.group_done();
            self.start_group();
        }
    }

    /// Each lane given the next ray.
    fn start_group(&mut self) {
        for l in 0..4 {
            self.start(l);
        }
    }

    /// Lane `l` given the next ray that crosses a cell (those that cross none handed to the
    /// tally as done at once), or left idle where none is left.
    #[inline(never)]
    fn start(&mut self, l: usize) {
        while self.next < self.job.rays.len() {
            let i = self.next;
            self.next += 1;
            let job = &self.job;
            let walk = Steps::within(job.grid, &job.rays[i], (job.reach)(i), job.layers);
            if walk.done {
                self.job.tally.skipped(i);
                continue;
            }
            (self.ray[l], self.walks[l]) = (i, walk);
            self.load(l);
            self.job.tally.start(l, i);
            self.active |= 1 << l;
            return;
        }
        self.idle(l);
    }

    /// Lane `l` idle: it still steps with the others, but its position stays 0 (its jumps are
    /// 0) and it crosses its cells for no length (it enters them at +∞).
    fn idle(&mut self, l: usize) {
        self.active &= !(1 << l);
        self.at[l] = 0.0;
        self.enter[l] = f64::INFINITY;
        for a in 0..D {
            self.jump[a][l] = 0.0;
        }
    }

    /// Lane `l`'s values set from its [`Steps`].
    fn load(&mut self, l: usize) {
        let walk = &self.walks[l];
        for a in 0..D {
            let stride = self.job.strides[a] as f64;
            let up = walk.step[a] == 1;
            self.plane[a][l] = plane_number(walk.plane[a]);
            self.key[a][l] = walk.key[a];
            self.ahead[a][l] = walk.ahead[a];
            self.step[a][l] = if up { 1.0 } else { -1.0 };
            self.jump[a][l] = if up { stride } else { -stride };
            (self.from_min[a][l], self.from_min_low[a][l]) = walk.axes[a].origin_offset();
            self.inv[a][l] = walk.axes[a].inv();
            self.below[l][a] = walk.index[a].wrapping_sub(walk.plane[a]);
        }
        self.at[l] = self.job.grid.flat_index(walk.index) as f64;
        self.close[l] = walk.close;
        self.before_end[l] = walk.before_end;
        self.enter[l] = walk.enter.to_wide();
        self.exit_at[l] = walk.exit_at.to_wide();
        self.max_distance[l] = walk.max_distance.to_wide();
        self.length[l] = walk.length;
    }
}
