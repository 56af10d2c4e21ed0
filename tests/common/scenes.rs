//! Random scenes for the tests, seeded and reproducible, with every number rounded to the width
//! under test before use.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use raysweep::Ray;
use raysweep::nalgebra::SVector;

use super::{Case, Target, Width, point, vector};

pub struct Scenes {
    pub rng: StdRng,
}

impl Scenes {
    pub fn new(seed: u64) -> Self {
        Scenes {
            rng: StdRng::seed_from_u64(seed),
        }
    }

    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.rng.random_range(lo..=hi)
    }

    /// `10^e` with `e` uniform in `[lo, hi]`.
    pub fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        10f64.powf(self.uniform(lo, hi))
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.rng.random_bool(p)
    }

    /// A point uniform in the unit ball of dimension `d`.
    pub fn in_ball(&mut self, d: usize) -> Vec<f64> {
        loop {
            let v: Vec<f64> = (0..d).map(|_| self.uniform(-1.0, 1.0)).collect();
            if v.iter().map(|x| x * x).sum::<f64>() <= 1.0 {
                return v;
            }
        }
    }

    /// A unit vector uniform on the sphere of dimension `d`.
    pub fn on_sphere(&mut self, d: usize) -> Vec<f64> {
        loop {
            let v = self.in_ball(d);
            let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            if n > 1e-3 {
                return v.iter().map(|x| x / n).collect();
            }
        }
    }

    /// A random rotation matrix (row-major), a product of plane rotations computed in f64 and
    /// rounded to the width.
    pub fn rotation<T: Width>(&mut self, d: usize) -> Vec<f64> {
        let mut m: Vec<f64> = (0..d * d)
            .map(|k| if k % (d + 1) == 0 { 1.0 } else { 0.0 })
            .collect();
        for i in 0..d {
            for j in i + 1..d {
                let (s, c) = self.uniform(-3.2, 3.2).sin_cos();
                for row in 0..d {
                    let (a, b) = (m[row * d + i], m[row * d + j]);
                    m[row * d + i] = c * a - s * b;
                    m[row * d + j] = s * a + c * b;
                }
            }
        }
        m.iter().map(|x| T::fit(*x)).collect()
    }
}

pub fn fit_all<T: Width>(v: &[f64]) -> Vec<f64> {
    v.iter().map(|x| T::fit(*x)).collect()
}

pub fn add(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

pub fn scale(a: &[f64], s: f64) -> Vec<f64> {
    a.iter().map(|x| x * s).collect()
}

/// The unit direction `Ray::new` stores for `raw`, as f64.
pub fn stored_dir<T: Width, const D: usize>(raw: &[f64]) -> Vec<f64> {
    let ray = Ray::<T, D>::new(point(&vec![0.0; D]), vector(raw)).expect("non-zero direction");
    let dir: SVector<T, D> = ray.dir().into_inner();
    dir.iter().map(|x| x.to_wide()).collect()
}

/// A case with the ray from `origin` towards `aim` (both rounded to the width).
pub fn aimed<T: Width, const D: usize>(
    target: Target,
    origin: &[f64],
    aim: &[f64],
    max: f64,
) -> Case {
    let origin = fit_all::<T>(origin);
    let raw: Vec<f64> = aim.iter().zip(&origin).map(|(a, o)| a - o).collect();
    with_dir::<T, D>(target, origin, &raw, max)
}

/// A case with the ray from `origin` along `raw` (rounded to the width).
pub fn with_dir<T: Width, const D: usize>(
    target: Target,
    origin: Vec<f64>,
    raw: &[f64],
    max: f64,
) -> Case {
    let raw_dir = fit_all::<T>(raw);
    Case {
        target,
        dir: stored_dir::<T, D>(&raw_dir),
        raw_dir,
        origin,
        max_distance: T::fit(max),
        ball: 0.0,
    }
}

pub fn sphere(center: Vec<f64>, radius: f64) -> Target {
    Target::Sphere { center, radius }
}

/// A ball near the origin and a ray aimed within 1.3 radii of its centre.
pub fn ordinary_sphere<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let c = fit_all::<T>(&scale(&s.in_ball(D), 10.0));
    let r = T::fit(s.uniform(0.5, 2.0));
    let o = scale(&s.in_ball(D), 20.0);
    let aim = add(&c, &scale(&s.in_ball(D), 1.3 * r));
    let max = if s.chance(0.2) {
        s.uniform(0.0, 40.0)
    } else {
        f64::INFINITY
    };
    aimed::<T, D>(sphere(c, r), &o, &aim, max)
}

pub fn ellipsoid_target<T: Width>(s: &mut Scenes, d: usize, flat: f64, rotated: bool) -> Target {
    squashed_ellipsoid::<T>(s, d, (0.0, flat), rotated)
}

/// An ellipsoid of semi-axes in `[0.5, 2]`, one of them divided by `10^x` for `x` uniform in
/// `flat`, centred within 10 of the origin.
pub fn squashed_ellipsoid<T: Width>(
    s: &mut Scenes,
    d: usize,
    flat: (f64, f64),
    rotated: bool,
) -> Target {
    let mut semi_axes: Vec<f64> = (0..d).map(|_| s.uniform(0.5, 2.0)).collect();
    let squashed = s.rng.random_range(0..d);
    semi_axes[squashed] /= s.log_uniform(flat.0, flat.1);
    Target::Ellipsoid {
        center: fit_all::<T>(&scale(&s.in_ball(d), 10.0)),
        semi_axes: fit_all::<T>(&semi_axes),
        rotation: rotated.then(|| s.rotation::<T>(d)),
    }
}

/// A point within `1.3` times the ellipsoid (in its local frame), in world coordinates.
pub fn near_ellipsoid(s: &mut Scenes, target: &Target, within: f64) -> Vec<f64> {
    let Target::Ellipsoid {
        center,
        semi_axes,
        rotation,
    } = target
    else {
        unreachable!()
    };
    let d = center.len();
    let local: Vec<f64> = s
        .in_ball(d)
        .iter()
        .zip(semi_axes)
        .map(|(u, a)| u * a * within)
        .collect();
    let world: Vec<f64> = match rotation {
        None => local,
        Some(m) => (0..d)
            .map(|i| (0..d).map(|j| m[i * d + j] * local[j]).sum())
            .collect(),
    };
    add(center, &world)
}

pub fn rotated_ellipsoid<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let target = ellipsoid_target::<T>(s, D, 1.0, true);
    let aim = near_ellipsoid(s, &target, 1.3);
    aimed::<T, D>(target, &scale(&s.in_ball(D), 20.0), &aim, f64::INFINITY)
}

pub fn box_target<T: Width>(centre: &[f64], half: &[f64]) -> Target {
    Target::Box {
        min: fit_all::<T>(
            &centre
                .iter()
                .zip(half)
                .map(|(c, h)| c - h)
                .collect::<Vec<_>>(),
        ),
        max: fit_all::<T>(
            &centre
                .iter()
                .zip(half)
                .map(|(c, h)| c + h)
                .collect::<Vec<_>>(),
        ),
    }
}

/// A point within `within` times the box of centre `c` and half extents `h`, per axis.
pub fn near_box(s: &mut Scenes, c: &[f64], h: &[f64], within: f64) -> Vec<f64> {
    let u = s.in_ball(c.len());
    (0..c.len()).map(|i| c[i] + within * u[i] * h[i]).collect()
}

pub fn ordinary_box<T: Width, const D: usize>(s: &mut Scenes) -> Case {
    let c = scale(&s.in_ball(D), 10.0);
    let h: Vec<f64> = (0..D).map(|_| s.uniform(0.2, 3.0)).collect();
    let aim = near_box(s, &c, &h, 1.3);
    let max = if s.chance(0.2) {
        s.uniform(0.0, 40.0)
    } else {
        f64::INFINITY
    };
    aimed::<T, D>(
        box_target::<T>(&c, &h),
        &scale(&s.in_ball(D), 20.0),
        &aim,
        max,
    )
}
