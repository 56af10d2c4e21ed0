//! `Grid::project` and `Grid::backproject` (and their `_par` forms on 1, 2, 3 and 8 threads: the
//! back projection in slabs of several layers down to one)
//! against the loops over `Grid::walk` that define them, bit for bit: random grids (offset, cell
//! sizes that are rarely binary fractions), rays from around the grid and from its lattice
//! points, largest distances of every kind, volumes with an infinite and a NaN cell; slices of the wrong length refused with nothing
//! written; and the adjoint identity `⟨project(x), y⟩ = ⟨x, backproject(y)⟩` to rounding.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::nalgebra::{Point, SVector};
use raysweep::{Error, Grid, Ray};

use crate::common::Width;
use crate::common::random::unit;

/// A random grid, rays through and around it, and a largest distance.
fn case<T: Width, const D: usize>(rng: &mut StdRng) -> (Grid<T, D>, Vec<Ray<T, D>>, T) {
    let min: [f64; D] = core::array::from_fn(|_| T::fit(rng.random_range(-3.0..3.0)));
    let size: [f64; D] = core::array::from_fn(|_| {
        T::fit([0.1, 0.3, 0.5, 1.0, 0.7][rng.random_range(0..5)] * rng.random_range(1.0..1.5))
    });
    let cells: [usize; D] = core::array::from_fn(|_| rng.random_range(1..12));
    let grid = Grid::new(
        Point::from(SVector::from(min.map(T::from_wide))),
        SVector::from(size.map(T::from_wide)),
        cells,
    )
    .unwrap();
    let rays = (0..150)
        .filter_map(|_| {
            let o: [f64; D] = if rng.random_bool(0.3) {
                // A lattice point: rays through edges and corners, in planes.
                core::array::from_fn(|a| {
                    T::fit(min[a] + (rng.random_range(0..=cells[a] + 2) as f64 - 1.0) * size[a])
                })
            } else {
                core::array::from_fn(|a| {
                    T::fit(min[a] + rng.random_range(-0.5..1.5) * cells[a] as f64 * size[a])
                })
            };
            let mut n = unit::<D>(rng);
            if rng.random_bool(0.3) {
                n[rng.random_range(0..D)] = 0.0;
            }
            Ray::new(
                Point::from(SVector::from(o.map(T::from_wide))),
                n.map(T::from_wide),
            )
            .ok()
        })
        .collect();
    (grid, rays, reach(rng))
}

/// A largest distance of one of the kinds a caller may pass.
fn reach<T: Width>(rng: &mut StdRng) -> T {
    let max = [
        f64::INFINITY,
        rng.random_range(0.0..10.0),
        0.0,
        f64::NAN,
        -1.0,
    ][rng.random_range(0..5)];
    T::from_wide(max)
}

fn flat<T: Width, const D: usize>(grid: &Grid<T, D>) -> usize {
    grid.cells().iter().product()
}

fn bits<T: Width>(values: &[T]) -> Vec<u64> {
    values.iter().map(|v| v.to_wide().to_bits()).collect()
}

fn run<T: Width + Send + Sync, const D: usize>(seed: u64) {
    let rng = &mut StdRng::seed_from_u64(seed);
    #[cfg(feature = "rayon")]
    let pools: Vec<rayon::ThreadPool> = [1, 2, 3, 8]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect();
    for round in 0..30 {
        let (grid, rays, max) = case::<T, D>(rng);
        let what = format!("{} D={D} round {round}: {grid:?} max {max:?}", T::NAME);
        let mut volume: Vec<T> = (0..flat(&grid))
            .map(|_| T::from_wide(rng.random_range(-2.0..3.0)))
            .collect();
        if round % 3 == 0 {
            // An infinite cell and a NaN one: a walk that crosses either for no length adds
            // nothing (not `∞·0`), one that crosses it for a length carries it to its sum.
            for bad in [f64::INFINITY, f64::NAN] {
                let at = rng.random_range(0..volume.len());
                volume[at] = T::from_wide(bad);
            }
        }
        let values: Vec<T> = rays
            .iter()
            .map(|_| T::from_wide(rng.random_range(-2.0..3.0)))
            .collect();
        // The loops that define them (over the walk's `next`, which `fold` does not use).
        let want_sums: Vec<T> = rays
            .iter()
            .map(|ray| {
                let mut sum = T::from_wide(0.0);
                for c in grid.walk(ray, max) {
                    sum += volume[grid.flat_index(c.index)] * (c.exit - c.enter);
                }
                sum
            })
            .collect();
        let start = volume.clone();
        let mut want_volume = start.clone();
        for (ray, &v) in rays.iter().zip(&values) {
            for c in grid.walk(ray, max) {
                let at = grid.flat_index(c.index);
                want_volume[at] += v * (c.exit - c.enter);
            }
        }
        let mut sums = vec![T::from_wide(7.0); rays.len()];
        grid.project(&volume, &rays, max, &mut sums).unwrap();
        assert_eq!(bits(&sums), bits(&want_sums), "project {what}");
        // Each ray its own largest distance.
        let reaches: Vec<T> = rays.iter().map(|_| reach(rng)).collect();
        let want_ends: Vec<T> = rays
            .iter()
            .zip(&reaches)
            .map(|(ray, &max)| {
                let mut sum = T::from_wide(0.0);
                for c in grid.walk(ray, max) {
                    sum += volume[grid.flat_index(c.index)] * (c.exit - c.enter);
                }
                sum
            })
            .collect();
        grid.project_segments(&volume, &rays, &reaches, &mut sums)
            .unwrap();
        assert_eq!(bits(&sums), bits(&want_ends), "project_segments {what}");
        let mut want = volume.clone();
        for ((ray, &v), &max) in rays.iter().zip(&values).zip(&reaches) {
            for c in grid.walk(ray, max) {
                want[grid.flat_index(c.index)] += v * (c.exit - c.enter);
            }
        }
        let mut back = volume.clone();
        grid.backproject_segments(&values, &rays, &reaches, &mut back)
            .unwrap();
        assert_eq!(bits(&back), bits(&want), "backproject_segments {what}");
        #[cfg(feature = "rayon")]
        for pool in &pools {
            let mut sums = vec![T::from_wide(7.0); rays.len()];
            let mut back = volume.clone();
            pool.install(|| {
                grid.project_segments_par(&volume, &rays, &reaches, &mut sums)
                    .unwrap();
                grid.backproject_segments_par(&values, &rays, &reaches, &mut back)
                    .unwrap();
            });
            assert_eq!(bits(&sums), bits(&want_ends), "project_segments_par {what}");
            assert_eq!(bits(&back), bits(&want), "backproject_segments_par {what}");
        }
        let mut back = start.clone();
        grid.backproject(&values, &rays, max, &mut back).unwrap();
        assert_eq!(bits(&back), bits(&want_volume), "backproject {what}");
        #[cfg(feature = "rayon")]
        for pool in &pools {
            let mut sums = vec![T::from_wide(7.0); rays.len()];
            let mut back = start.clone();
            pool.install(|| {
                grid.project_par(&volume, &rays, max, &mut sums).unwrap();
                grid.backproject_par(&values, &rays, max, &mut back)
                    .unwrap();
            });
            assert_eq!(bits(&sums), bits(&want_sums), "project_par {what}");
            assert_eq!(bits(&back), bits(&want_volume), "backproject_par {what}");
        }
    }
}

#[test]
fn projections_are_the_loops_over_the_walks_on_every_thread_count() {
    run::<f32, 2>(1);
    run::<f32, 3>(2);
    run::<f64, 2>(3);
    run::<f64, 3>(4);
}

#[test]
fn wrong_lengths_are_refused_and_nothing_is_written() {
    let rng = &mut StdRng::seed_from_u64(5);
    let (grid, rays, _) = case::<f64, 3>(rng);
    let cells = flat(&grid);
    let volume = vec![1.0; cells];
    let mut sums = vec![9.0; rays.len()];
    let short = Error::Length {
        what: "volume",
        len: cells - 1,
        expected: cells,
    };
    assert_eq!(
        grid.project(&volume[1..], &rays, 5.0, &mut sums),
        Err(short)
    );
    #[cfg(feature = "rayon")]
    assert_eq!(
        grid.project_par(&volume[1..], &rays, 5.0, &mut sums),
        Err(short)
    );
    let err = grid
        .project(&volume, &rays, 5.0, &mut sums[1..])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "sums has {} entries: expected {}",
            rays.len() - 1,
            rays.len()
        )
    );
    assert_eq!(
        grid.project_segments(&volume, &rays, &[1.0], &mut sums),
        Err(Error::Length {
            what: "max_distances",
            len: 1,
            expected: rays.len()
        })
    );
    assert!(sums.iter().all(|&s| s == 9.0));
    let mut back = vec![2.0; cells];
    assert!(matches!(
        grid.backproject_segments(&sums, &rays, &[1.0], &mut back),
        Err(Error::Length {
            what: "max_distances",
            ..
        })
    ));
    assert!(back.iter().all(|&v| v == 2.0));
    let mut back = vec![2.0; cells];
    let values = vec![1.0; rays.len() + 1];
    assert!(matches!(
        grid.backproject(&values, &rays, 5.0, &mut back),
        Err(Error::Length { what: "values", .. })
    ));
    assert!(matches!(
        grid.backproject(&values[1..], &rays, 5.0, &mut back[1..]),
        Err(Error::Length { what: "volume", .. })
    ));
    #[cfg(feature = "rayon")]
    assert!(matches!(
        grid.backproject_par(&values, &rays, 5.0, &mut back),
        Err(Error::Length { what: "values", .. })
    ));
    assert!(back.iter().all(|&v| v == 2.0));
}

#[test]
fn backproject_is_the_adjoint_of_project() {
    let rng = &mut StdRng::seed_from_u64(6);
    for _ in 0..20 {
        let (grid, rays, _) = case::<f64, 3>(rng);
        let x: Vec<f64> = (0..flat(&grid))
            .map(|_| rng.random_range(-1.0..1.0))
            .collect();
        let y: Vec<f64> = rays.iter().map(|_| rng.random_range(-1.0..1.0)).collect();
        let mut px = vec![0.0; rays.len()];
        grid.project(&x, &rays, f64::INFINITY, &mut px).unwrap();
        let mut pty = vec![0.0; x.len()];
        grid.backproject(&y, &rays, f64::INFINITY, &mut pty)
            .unwrap();
        let lhs: f64 = px.iter().zip(&y).map(|(a, b)| a * b).sum();
        let rhs: f64 = x.iter().zip(&pty).map(|(a, b)| a * b).sum();
        let scale: f64 = px.iter().zip(&y).map(|(a, b)| (a * b).abs()).sum::<f64>() + 1.0;
        assert!((lhs - rhs).abs() <= 1e-12 * scale, "{lhs} against {rhs}");
    }
}

/// A line past a grid's corners a rounding apart crosses a cell between them for a length that
/// rounds to zero in `f32`: the walk leaves that cell out, and so do the projection, even where
/// the cell holds an infinity (`∞·0` would make the sum NaN), and the back projection.
#[test]
fn a_cell_crossed_for_no_length_adds_nothing() {
    use raysweep::nalgebra::{Point2, Vector2};
    let n = 1002;
    let grid = Grid::new(Point2::origin(), Vector2::repeat(1.0f32), [n, n]).unwrap();
    // Each y = k plane is crossed 2^-24/√½ before the x = k plane: far less than an `f32` step
    // of the distance beyond the first few cells, far more than the exact order's margin.
    let ray = Ray::new(
        Point2::new(0.5, 0.5 + 2f32.powi(-24)),
        Vector2::new(1.0, 1.0),
    )
    .unwrap();
    let skipped = [500, 501];
    assert!(grid.walk(&ray, f32::INFINITY).all(|c| c.index != skipped));
    assert!(
        grid.walk(&ray, f32::INFINITY)
            .any(|c| c.index == [501, 501])
    );
    let mut volume = vec![1.0f32; n * n];
    volume[grid.flat_index(skipped)] = f32::INFINITY;
    // The ray in every lane, and alone.
    for rays in [vec![ray; 7], vec![ray]] {
        let mut sums = vec![0.0; rays.len()];
        grid.project(&volume, &rays, f32::INFINITY, &mut sums)
            .unwrap();
        let want = grid.walk(&ray, f32::INFINITY).fold(0.0, |s, c| {
            s + volume[grid.flat_index(c.index)] * (c.exit - c.enter)
        });
        assert!(want.is_finite());
        assert!(
            sums.iter().all(|s| s.to_bits() == want.to_bits()),
            "{sums:?} {want}"
        );
        // A back projection adds nothing there either: not even +0 to a −0.
        let mut back = vec![0.0f32; n * n];
        back[grid.flat_index(skipped)] = -0.0;
        let values = vec![1.0; rays.len()];
        grid.backproject(&values, &rays, f32::INFINITY, &mut back)
            .unwrap();
        assert_eq!(
            back[grid.flat_index(skipped)].to_bits(),
            (-0.0f32).to_bits()
        );
        let through = grid
            .walk(&ray, f32::INFINITY)
            .find(|c| c.index == [501, 501]);
        let length = through.map(|c| c.exit - c.enter).unwrap();
        let mut want = 0.0;
        for _ in &rays {
            want += length;
        }
        assert_eq!(back[grid.flat_index([501, 501])], want);
    }
}
