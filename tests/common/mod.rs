//! Helpers shared by the integration tests: a description of a query in plain `f64` numbers
//! (exact copies of the `f32`/`f64` inputs), conversion to raysweep objects, and random scenes.
#![allow(dead_code)] // each test binary uses part of this module

pub mod grid;
pub mod point;
pub mod random;
pub mod reference;
pub mod scenes;
pub mod sweep;

use raysweep::nalgebra::{Point, Rotation, SMatrix, SVector};
use raysweep::{Aabb, Cast, Ellipsoid, Hit, Ray, Real, Span, Sphere};

/// The float widths under test, with what the tests need to know about them.
pub trait Width: Real + core::fmt::Debug {
    const NAME: &'static str;
    /// Significand bits, including the implicit one.
    const BITS: i32;
    /// Smallest positive subnormal, as f64.
    const TINY: f64;
    /// `x` rounded to the nearest value of this width (as f64).
    fn fit(x: f64) -> f64 {
        Self::from_wide(x).to_wide()
    }
    /// The gap between `|x|` (rounded to this width) and the next larger value of this width.
    fn ulp(x: f64) -> f64 {
        let a = Self::fit(x).abs();
        if a == 0.0 {
            return Self::TINY;
        }
        let e = a.log2().floor() as i32;
        let spacing = 2f64.powi(e - Self::BITS + 1);
        spacing.max(Self::TINY)
    }
    /// The next value of this width above `x` (a value of this width).
    fn next_up(x: f64) -> f64;
    /// The next value of this width below `x` (a value of this width).
    fn next_down(x: f64) -> f64;
}

impl Width for f32 {
    const NAME: &'static str = "f32";
    const BITS: i32 = 24;
    const TINY: f64 = f32::from_bits(1) as f64;
    fn next_up(x: f64) -> f64 {
        (x as f32).next_up() as f64
    }
    fn next_down(x: f64) -> f64 {
        (x as f32).next_down() as f64
    }
}

impl Width for f64 {
    const NAME: &'static str = "f64";
    const BITS: i32 = 53;
    const TINY: f64 = f64::from_bits(1);
    fn next_up(x: f64) -> f64 {
        x.next_up()
    }
    fn next_down(x: f64) -> f64 {
        x.next_down()
    }
}

/// A solid, with every number an exact copy of a value of the width under test.
#[derive(Clone, Debug)]
pub enum Target {
    Sphere {
        center: Vec<f64>,
        radius: f64,
    },
    /// `rotation` is row-major, `D × D`; `None` for axis-aligned.
    Ellipsoid {
        center: Vec<f64>,
        semi_axes: Vec<f64>,
        rotation: Option<Vec<f64>>,
    },
    Box {
        min: Vec<f64>,
        max: Vec<f64>,
    },
}

/// A ray query: a target, a ray and a maximum distance.
#[derive(Clone, Debug)]
pub struct Case {
    pub target: Target,
    pub origin: Vec<f64>,
    /// The direction given to `Ray::new`.
    pub raw_dir: Vec<f64>,
    /// The unit direction `Ray::new` stores for `raw_dir`: the ray's actual input.
    pub dir: Vec<f64>,
    pub max_distance: f64,
    /// The radius of the moving ball: 0 for a ray cast.
    pub ball: f64,
}

pub fn point<T: Width, const D: usize>(v: &[f64]) -> Point<T, D> {
    Point::from(vector::<T, D>(v))
}

pub fn vector<T: Width, const D: usize>(v: &[f64]) -> SVector<T, D> {
    SVector::from_fn(|i, _| T::from_wide(v[i]))
}

/// The raysweep shape of a target, as a trait object over the three shape types.
pub enum Built<T: Width, const D: usize> {
    Sphere(Sphere<T, D>),
    Ellipsoid(Ellipsoid<T, D>),
    Box(Aabb<T, D>),
}

impl<T: Width, const D: usize> Built<T, D> {
    pub fn new(target: &Target) -> Self {
        match target {
            Target::Sphere { center, radius } => Built::Sphere(
                Sphere::new(point(center), T::from_wide(*radius)).expect("valid sphere"),
            ),
            Target::Ellipsoid {
                center,
                semi_axes,
                rotation,
            } => {
                let (c, a) = (point(center), vector(semi_axes));
                Built::Ellipsoid(
                    match rotation {
                        None => Ellipsoid::new(c, a),
                        Some(m) => Ellipsoid::oriented(c, a, rotation_from_rows::<T, D>(m)),
                    }
                    .expect("valid ellipsoid"),
                )
            }
            Target::Box { min, max } => {
                Built::Box(Aabb::new(point(min), point(max)).expect("valid box"))
            }
        }
    }

    pub fn shape(&self) -> &dyn Cast<T, D> {
        match self {
            Built::Sphere(s) => s,
            Built::Ellipsoid(e) => e,
            Built::Box(b) => b,
        }
    }
}

pub fn rotation_from_rows<T: Width, const D: usize>(rows: &[f64]) -> Rotation<T, D> {
    Rotation::from_matrix_unchecked(SMatrix::from_fn(|i, j| T::from_wide(rows[i * D + j])))
}

/// The ray of a case.
pub fn ray<T: Width, const D: usize>(case: &Case) -> Ray<T, D> {
    let ray: Ray<T, D> = Ray::new(point(&case.origin), vector(&case.raw_dir)).expect("valid ray");
    let dir: SVector<T, D> = ray.dir().into_inner();
    assert!(dir.iter().zip(&case.dir).all(|(a, b)| a.to_wide() == *b));
    ray
}

/// What raysweep answers for a case.
pub struct Ours<T: Width, const D: usize> {
    pub hit: Option<Hit<T, D>>,
    pub span: Option<Span<T>>,
}

/// What raysweep answers for a case: `cast_ray` and `ray_span`, or `cast_sphere` and
/// `sphere_span` when the case moves a ball.
pub fn ours<T: Width, const D: usize>(case: &Case) -> Ours<T, D> {
    let built = Built::<T, D>::new(&case.target);
    let shape = built.shape();
    let ray = ray::<T, D>(case);
    let max = T::from_wide(case.max_distance);
    if case.ball == 0.0 {
        Ours {
            hit: shape.cast_ray(&ray, max),
            span: shape.ray_span(&ray),
        }
    } else {
        let ball = T::from_wide(case.ball);
        Ours {
            hit: shape.cast_sphere(&ray, ball, max),
            span: shape.sphere_span(&ray, ball),
        }
    }
}
