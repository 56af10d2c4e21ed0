//! Grid walks against the exact rational walk (`tests/common/grid.rs`): the same cells in the same
//! order, every distance within the precision targets, shared boundaries bit for bit; on random
//! rays and on the adversarial ones (in planes, through edges and corners, origins on planes,
//! along the grid's faces, grids far from the origin with small cells, cell sizes that are not
//! binary fractions, negative directions); and walks that must end, whatever the input.

use std::collections::HashMap;

use dashu_ratio::RBig;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point, SVector};
use raysweep::{Error, Grid, GridCell, Ray};

use crate::common::Width;
use crate::common::grid::{ExactCell, exact, exact_walk};
use crate::common::random::unit;

/// A grid in plain numbers (exact copies of the width's values).
#[derive(Clone, Debug)]
struct Spec<const D: usize> {
    min: [f64; D],
    size: [f64; D],
    cells: [usize; D],
}

impl<const D: usize> Spec<D> {
    fn grid<T: Width>(&self) -> Grid<T, D> {
        Grid::new(
            Point::from(SVector::from(self.min.map(T::from_wide))),
            SVector::from(self.size.map(T::from_wide)),
            self.cells,
        )
        .unwrap()
    }

    /// The point at fractions `f` of the grid's extent (1 is the far corner), in the width.
    fn at<T: Width>(&self, f: [f64; D]) -> [f64; D] {
        core::array::from_fn(|a| T::fit(self.min[a] + f[a] * self.cells[a] as f64 * self.size[a]))
    }

    /// Plane `k` of axis `a`, rounded to the width (exactly the plane where it is representable).
    fn plane<T: Width>(&self, a: usize, k: usize) -> f64 {
        T::fit(self.min[a] + k as f64 * self.size[a])
    }
}

/// How far a walk's distance may lie from the exact `d` at a crossing of a plane of `spec` (index
/// `k` on axis `a`) for a line through `o` along `n`: one ulp in `f32`; in `f64` the larger of 8
/// ulps and four times half an ulp plus the change that half-ulp changes of the inputs cause.
fn tolerance<T: Width, const D: usize>(d: f64, o: &[f64; D], n: &[f64; D], spec: &Spec<D>) -> f64 {
    if T::BITS == 24 {
        return T::ulp(d);
    }
    // The worst axis: the inputs' half ulps moved through the crossing's formula.
    let mut change: f64 = 0.0;
    for a in 0..D {
        if n[a] == 0.0 {
            continue;
        }
        let k = ((o[a] + d * n[a] - spec.min[a]) / spec.size[a])
            .abs()
            .ceil();
        let shift = T::ulp(o[a]) + T::ulp(spec.min[a]) + k * T::ulp(spec.size[a]);
        change = change.max(0.5 * shift / n[a].abs() + 0.5 * d.abs() * T::ulp(n[a]) / n[a].abs());
    }
    (8.0 * T::ulp(d)).max(4.0 * (0.5 * T::ulp(d) + change))
}

/// Checks `grid.walk(ray, max)` against the exact walk.
fn check<T: Width, const D: usize>(spec: &Spec<D>, ray: &Ray<T, D>, max: T, label: &str) {
    let grid = spec.grid::<T>();
    let ours: Vec<GridCell<T, D>> = grid.walk(ray, max).collect();
    // `fold` (which `sum`, `for_each` and `count` run through) walks without the buffer `next`
    // fills: the same cells, from the start and after any number taken by `next`.
    for taken in [0, 1, 17, ours.len()] {
        let mut walk = grid.walk(ray, max);
        let mut both: Vec<GridCell<T, D>> = walk.by_ref().take(taken).collect();
        walk.for_each(|c| both.push(c));
        assert_eq!(both, ours, "fold after {taken}");
    }
    let o: [f64; D] = core::array::from_fn(|a| ray.origin()[a].to_wide());
    let n: [f64; D] = core::array::from_fn(|a| ray.dir()[a].to_wide());
    let length = n.iter().map(|c| c * c).sum::<f64>().sqrt();
    let max_wide = max.to_wide();
    let bound = (max_wide < f64::INFINITY).then(|| exact(max_wide) / exact(length));
    let reference = exact_walk(o, n, spec.min, spec.size, spec.cells, bound);
    let context = || {
        format!(
            "{label} ({}): {spec:?}, o {o:?}, n {n:?}, max {max_wide}",
            T::NAME
        )
    };
    let distance = |t: &RBig| t.to_f64().value() * length;
    let tol = |d: f64| tolerance::<T, D>(d, &o, &n, spec);
    // Shared boundaries, and positive lengths.
    for w in ours.windows(2) {
        assert_eq!(
            w[0].exit.to_wide().to_bits(),
            w[1].enter.to_wide().to_bits(),
            "{}",
            context()
        );
    }
    for c in &ours {
        assert!(c.exit > c.enter, "{}: empty cell {c:?}", context());
    }
    // Every cell of ours is an exact one, in order; the exact ones left out are shorter than the
    // tolerance; each distance of ours is within it of the boundary it stands for.
    let place: HashMap<[usize; D], usize> = reference
        .iter()
        .enumerate()
        .map(|(i, c)| (c.index, i))
        .collect();
    let tiny = |c: &ExactCell<D>| {
        let (a, b) = (distance(&c.enter), distance(&c.exit));
        b - a <= 2.0 * tol(b)
    };
    let near_any =
        |ours: f64, candidates: &[f64]| candidates.iter().any(|&b| (ours - b).abs() <= tol(b));
    let mut next = 0;
    for c in &ours {
        let Some(&j) = place.get(&c.index) else {
            panic!(
                "{}: cell {:?} is not on the exact walk {reference:?}",
                context(),
                c.index
            );
        };
        assert!(j >= next, "{}: cell {:?} out of order", context(), c.index);
        // The exact cells passed over before this one, and the boundaries among them.
        assert!(
            reference[next..j].iter().all(tiny),
            "{}: cells left out before {:?}",
            context(),
            c.index
        );
        let boundaries: Vec<f64> = reference[next..=j]
            .iter()
            .map(|r| distance(&r.enter))
            .collect();
        let enter = c.enter.to_wide();
        assert!(
            near_any(enter, &boundaries),
            "{}: {:?} enters at {enter}, exact {boundaries:?}",
            context(),
            c.index
        );
        next = j + 1;
    }
    assert!(
        reference[next..].iter().all(tiny),
        "{}: cells left out at the end",
        context()
    );
    if let Some(last) = ours.last() {
        let mut ends: Vec<f64> = reference[next - 1..]
            .iter()
            .map(|r| distance(&r.exit))
            .collect();
        ends.push(max_wide);
        let exit = last.exit.to_wide();
        assert!(
            near_any(exit, &ends) || exit == max_wide,
            "{}: leaves at {exit}, exact {ends:?}",
            context()
        );
    } else {
        assert!(
            reference.iter().all(tiny),
            "{}: no cells, exact {reference:?}",
            context()
        );
    }
}

fn ray<T: Width, const D: usize>(o: [f64; D], n: SVector<f64, D>) -> Option<Ray<T, D>> {
    Ray::new(
        Point::from(SVector::from(o.map(T::from_wide))),
        n.map(T::from_wide),
    )
    .ok()
}

/// A random grid: offset, cell sizes that are rarely binary fractions, a few cells per axis;
/// every number a value of the width.
fn random_spec<T: Width, const D: usize>(rng: &mut StdRng, far: f64) -> Spec<D> {
    let base = if rng.random_bool(0.5) { 0.0 } else { far };
    Spec {
        min: core::array::from_fn(|_| T::fit(base + rng.random_range(-3.0..3.0))),
        size: core::array::from_fn(|_| {
            T::fit(
                [0.1, 0.3, 0.5, 1.0, 0.7, 1e-3][rng.random_range(0..6)]
                    * rng.random_range(1.0..1.5),
            )
        }),
        cells: core::array::from_fn(|_| rng.random_range(1..10)),
    }
}

/// A direction with zero components, equal magnitudes or any.
fn direction<const D: usize>(rng: &mut StdRng) -> SVector<f64, D> {
    loop {
        let v = match rng.random_range(0..3) {
            0 => SVector::from_fn(|_, _| [-1.0, 0.0, 1.0][rng.random_range(0..3)]),
            1 => SVector::from_fn(|_, _| [-1.0, 1.0][rng.random_range(0..2)]),
            _ => unit::<D>(rng),
        };
        if v.norm() > 0.0 {
            return v;
        }
    }
}

/// Random and adversarial rays against random grids.
fn walks<T: Width, const D: usize>(seed: u64, far: f64, rounds: usize) {
    let rng = &mut StdRng::seed_from_u64(seed);
    for round in 0..rounds {
        let spec = random_spec::<T, D>(rng, far);
        // Origins: anywhere around the grid, on a lattice point (planes, edges, corners), or on
        // the grid's boundary.
        let o = match rng.random_range(0..3) {
            0 => spec.at::<T>(core::array::from_fn(|_| rng.random_range(-0.5..1.5))),
            1 => core::array::from_fn(|a| {
                let k = rng.random_range(0..=spec.cells[a] + 4) as f64 - 2.0;
                T::fit(spec.min[a] + k * spec.size[a])
            }),
            _ => core::array::from_fn(|a| {
                [spec.plane::<T>(a, 0), spec.plane::<T>(a, spec.cells[a])][rng.random_range(0..2)]
            }),
        };
        let n = if rng.random_bool(0.3) {
            // Aimed at a lattice point: through edges and corners where the rounding allows.
            let target: SVector<f64, D> =
                SVector::from_fn(|a, _| spec.plane::<T>(a, rng.random_range(0..=spec.cells[a])));
            target - SVector::from(o)
        } else {
            direction::<D>(rng)
        };
        let Some(ray) = ray::<T, D>(o, n) else {
            continue;
        };
        let max = [f64::INFINITY, rng.random_range(0.0..20.0), 0.0][rng.random_range(0..3)];
        check(&spec, &ray, T::from_wide(max), &format!("walk {round}"));
    }
}

#[test]
fn walks_match_the_exact_walk_f32() {
    walks::<f32, 2>(1, 0.0, 6000);
    walks::<f32, 3>(2, 0.0, 6000);
    walks::<f32, 3>(3, 1e4, 3000);
}

#[test]
fn walks_match_the_exact_walk_f64() {
    walks::<f64, 2>(4, 0.0, 6000);
    walks::<f64, 3>(5, 0.0, 6000);
    walks::<f64, 3>(6, 1e9, 3000);
}

/// A direction component of 6·10⁻¹⁷ and an origin 10⁻¹⁶ below a plane of that axis: the
/// crossing, at 1.8, is ill-conditioned, and a key computed as `k·(h/n) − (o − min)/n` put it at
/// 4.0, past the grid's exit at 3.0, so that the walk lost every later cell (found by the CT
/// example at 256³, where the ray of angle 90° has `cos θ = 6.1·10⁻¹⁷`).
#[test]
fn a_nearly_parallel_axis_does_not_end_the_walk_early() {
    let spec = Spec {
        min: [-1.0; 3],
        size: [2.0 / 256.0; 3],
        cells: [256; 3],
    };
    let o = [2.0, 0.2109374999999999, -0.8859375];
    let n = SVector::from([-1.0, 6.123233995736766e-17, 0.0]);
    let ray = ray::<f64, 3>(o, n).unwrap();
    check(&spec, &ray, f64::INFINITY, "nearly parallel");
    let cells: Vec<_> = spec.grid::<f64>().walk(&ray, f64::INFINITY).collect();
    assert_eq!(cells.last().map(|c| (c.index[0], c.exit)), Some((0, 3.0)));
}

/// Rays inside the planes between cells belong to the cell of higher index; on the last plane,
/// to the last cell.
#[test]
fn a_ray_in_a_plane_takes_the_cell_above_it() {
    let rows = |grid: &Grid<f64, 2>, y: f64| -> Vec<[usize; 2]> {
        let ray = Ray::new(
            Point::from(SVector::from([-1.0, y])),
            SVector::from([1.0, 0.0]),
        );
        grid.walk(&ray.unwrap(), f64::INFINITY)
            .map(|c| c.index)
            .collect()
    };
    let origin = Point::from(SVector::from([0.0, 0.0]));
    // Plane 2 of cells fl(0.1) is 2·fl(0.1), which is fl(0.2): the ray lies in it.
    let tenths = Grid::new(origin, SVector::from([0.1, 0.1]), [5, 5]).unwrap();
    assert_eq!(
        rows(&tenths, 0.2),
        (0..5).map(|i| [i, 2]).collect::<Vec<_>>()
    );
    let quarters = Grid::new(origin, SVector::from([0.25, 0.25]), [4, 4]).unwrap();
    assert_eq!(
        rows(&quarters, 0.0),
        (0..4).map(|i| [i, 0]).collect::<Vec<_>>()
    );
    assert_eq!(
        rows(&quarters, 0.5),
        (0..4).map(|i| [i, 2]).collect::<Vec<_>>()
    );
    assert_eq!(
        rows(&quarters, 1.0),
        (0..4).map(|i| [i, 3]).collect::<Vec<_>>()
    );
    assert!(rows(&quarters, 1.0f64.next_up()).is_empty());
    assert!(rows(&quarters, (-0.0f64).next_down()).is_empty());
}

/// No panic, no endless walk, no NaN: huge cell counts, tiny and huge direction components,
/// far origins, zero and infinite reach.
#[test]
fn every_walk_ends() {
    let big = Grid::new(
        Point::from(SVector::from([0.0f64, 0.0, 0.0])),
        SVector::from([1e-9, 1e-9, 1e-9]),
        [1 << 40, 1 << 40, 3],
    )
    .unwrap();
    for (o, n, max) in [
        ([-1.0, 0.5e-9, 0.5e-9], [1.0, 0.0, 0.0], 1.0 + 5e-8),
        ([0.5e-9, 0.5e-9, 0.5e-9], [1e-300, 1.0, 1e-300], 1e-7),
        ([1e300, -1e300, 1.0], [-1.0, 1.0, 0.0], f64::INFINITY),
        ([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], 0.0),
    ] {
        let ray = Ray::new(Point::from(SVector::from(o)), SVector::from(n)).unwrap();
        let cells: Vec<_> = big.walk(&ray, max).take(1000).collect();
        assert!(cells.len() < 1000, "{o:?} {n:?}");
        assert!(
            cells
                .iter()
                .all(|c| c.enter.is_finite() && c.exit.is_finite() && c.exit > c.enter)
        );
    }
    // A walk that does cross many cells runs on as long as asked, in order.
    let ray = Ray::new(
        Point::from(SVector::from([-1.0, 0.5e-9, 0.5e-9])),
        SVector::from([1.0, 0.0, 0.0]),
    )
    .unwrap();
    let cells: Vec<_> = big.walk(&ray, f64::INFINITY).take(100_000).collect();
    assert_eq!(cells.len(), 100_000);
    assert!(cells.iter().enumerate().all(|(k, c)| c.index == [k, 0, 0]));
    // Bad reach gives nothing.
    for max in [-1.0, f64::NAN, 0.0] {
        assert_eq!(big.walk(&ray, max).count(), 0);
    }
}

#[test]
fn bad_grids_are_refused() {
    let p = Point::from(SVector::from([0.0f32, 0.0]));
    let size = SVector::from([1.0f32, 1.0]);
    assert_eq!(
        Grid::new(Point::from(SVector::from([0.0f32, f32::NAN])), size, [2, 2]).unwrap_err(),
        Error::NonFinite {
            what: "min",
            index: 1,
            value: f64::NAN
        }
    );
    assert_eq!(
        Grid::new(p, SVector::from([f32::INFINITY, 1.0]), [2, 2]).unwrap_err(),
        Error::NonFinite {
            what: "cell_size",
            index: 0,
            value: f64::INFINITY
        }
    );
    assert_eq!(
        Grid::new(p, SVector::from([1.0, -1.0]), [2, 2]).unwrap_err(),
        Error::NonPositiveCellSize {
            axis: 1,
            value: -1.0
        }
    );
    assert_eq!(
        Grid::new(p, size, [0, 2]).unwrap_err(),
        Error::CellCount {
            axis: 0,
            cells: 0.0
        }
    );
    assert_eq!(
        Grid::new(p, size, [2, (1 << 53) + 1]).unwrap_err(),
        Error::CellCount {
            axis: 1,
            cells: ((1u64 << 53) + 1) as f64
        }
    );
    assert!(matches!(
        Grid::new(p, SVector::from([3e38f32, 1.0]), [2, 2]).unwrap_err(),
        Error::GridOverflow { axis: 0, .. }
    ));
    assert!(matches!(
        Grid::new(
            Point::from(SVector::from([0.0, 1.1e301])),
            SVector::from([1.0, 1.0]),
            [2, 2]
        )
        .unwrap_err(),
        Error::GridOverflow { axis: 1, .. }
    ));
}

/// `flat_index` numbers the cells in C order: the cells enumerated with the last axis fastest
/// get 0, 1, 2, … in turn, in 2D and 3D and for every axis length from 1 up.
#[test]
fn flat_index_counts_cells_in_c_order() {
    fn check<const D: usize>(cells: [usize; D]) {
        let grid = raysweep::Grid::<f64, D>::new(
            raysweep::nalgebra::Point::origin(),
            raysweep::nalgebra::SVector::repeat(0.5),
            cells,
        )
        .unwrap();
        let total: usize = cells.iter().product();
        let mut index = [0usize; D];
        for expected in 0..total {
            assert_eq!(grid.flat_index(index), expected, "{cells:?} {index:?}");
            // The next index in C order: the last axis fastest.
            for a in (0..D).rev() {
                index[a] += 1;
                if index[a] < cells[a] {
                    break;
                }
                index[a] = 0;
            }
        }
    }
    check([1, 1]);
    check([5, 3]);
    check([1, 7, 2]);
    check([4, 3, 5]);
}

#[test]
#[should_panic(expected = "flat_index: index 3 on axis 1 is not below the grid's 3 cells")]
fn flat_index_refuses_an_index_beyond_the_cells() {
    let grid = raysweep::Grid::<f32, 3>::new(
        raysweep::nalgebra::Point::origin(),
        raysweep::nalgebra::SVector::repeat(1.0),
        [4, 3, 2],
    )
    .unwrap();
    let _ = grid.flat_index([0, 3, 0]);
}

#[test]
#[should_panic(expected = "flat_index: the position exceeds usize::MAX")]
fn flat_index_refuses_a_position_beyond_usize() {
    let n = 1usize << 40;
    let grid = raysweep::Grid::<f64, 2>::new(
        raysweep::nalgebra::Point::origin(),
        raysweep::nalgebra::SVector::repeat(1.0),
        [n, n],
    )
    .unwrap();
    let _ = grid.flat_index([n - 1, n - 1]);
}
