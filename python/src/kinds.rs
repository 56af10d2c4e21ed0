//! The kinds Python gets: a width and a dimension (`float32` or `float64`, in 2 or 3
//! dimensions) for every class, and for a scene's bodies a kind of solid (all balls, all
//! ellipsoids, all boxes, or mixed as `Body`). One generic enum for each ([`ByWidth`],
//! [`BySolid`]) over a family of types ([`OfWidth`], [`OfSolid`]: a grid, a scene, an instanced
//! scene, a periodic scene), and the macros that run generic code on whichever a value holds.

use std::sync::Arc;

use raysweep::{Aabb, Body, Ellipsoid, Real, Sphere};

use crate::arrays::Width;

/// A family of types, one for each width and dimension.
pub(crate) trait OfWidth {
    type Of<T: Width, const D: usize>;
}

/// A value of one of the four widths and dimensions Python gets.
pub(crate) enum ByWidth<F: OfWidth> {
    F32x2(F::Of<f32, 2>),
    F32x3(F::Of<f32, 3>),
    F64x2(F::Of<f64, 2>),
    F64x3(F::Of<f64, 3>),
}

impl<F: OfWidth> ByWidth<F> {
    /// The dimension: 2 or 3.
    pub(crate) fn dim(&self) -> usize {
        match self {
            ByWidth::F32x2(_) | ByWidth::F64x2(_) => 2,
            ByWidth::F32x3(_) | ByWidth::F64x3(_) => 3,
        }
    }

    /// The width's numpy name.
    pub(crate) fn dtype(&self) -> &'static str {
        match self {
            ByWidth::F32x2(_) | ByWidth::F32x3(_) => "float32",
            ByWidth::F64x2(_) | ByWidth::F64x3(_) => "float64",
        }
    }
}

impl<F: OfWidth> Clone for ByWidth<F>
where
    F::Of<f32, 2>: Clone,
    F::Of<f32, 3>: Clone,
    F::Of<f64, 2>: Clone,
    F::Of<f64, 3>: Clone,
{
    fn clone(&self) -> Self {
        match self {
            ByWidth::F32x2(v) => ByWidth::F32x2(v.clone()),
            ByWidth::F32x3(v) => ByWidth::F32x3(v.clone()),
            ByWidth::F64x2(v) => ByWidth::F64x2(v.clone()),
            ByWidth::F64x3(v) => ByWidth::F64x3(v.clone()),
        }
    }
}

/// The widths and dimensions whose value a [`ByWidth`] may hold: for generic code that needs the
/// value of its own width and dimension from another object (a grid for a scene's query).
pub(crate) trait Picks<const D: usize>: Width {
    /// The value inside `value` where it is of this width and dimension.
    fn pick<F: OfWidth>(value: &ByWidth<F>) -> Option<&F::Of<Self, D>>;
    /// The same, to change.
    fn pick_mut<F: OfWidth>(value: &mut ByWidth<F>) -> Option<&mut F::Of<Self, D>>;
}

macro_rules! picks {
    ($variant:ident, $t:ty, $d:literal) => {
        impl Picks<$d> for $t {
            fn pick<F: OfWidth>(value: &ByWidth<F>) -> Option<&F::Of<$t, $d>> {
                match value {
                    ByWidth::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn pick_mut<F: OfWidth>(value: &mut ByWidth<F>) -> Option<&mut F::Of<$t, $d>> {
                match value {
                    ByWidth::$variant(v) => Some(v),
                    _ => None,
                }
            }
        }
    };
}
picks!(F32x2, f32, 2);
picks!(F32x3, f32, 3);
picks!(F64x2, f64, 2);
picks!(F64x3, f64, 3);

/// A family of types, one for each kind of solid.
pub(crate) trait OfSolid<T: Real, const D: usize> {
    type Of<S>;
}

/// A value of one of the four kinds of solid: of balls, ellipsoids or boxes alone (the crate's
/// homogeneous scenes: a `Sphere` is 32 bytes in `f64` against 240 for a `Body`), or of `Body`.
pub(crate) enum BySolid<T: Real, const D: usize, F: OfSolid<T, D>> {
    Spheres(F::Of<Sphere<T, D>>),
    Ellipsoids(F::Of<Ellipsoid<T, D>>),
    Boxes(F::Of<Aabb<T, D>>),
    Mixed(F::Of<Body<T, D>>),
}

impl<T: Real, const D: usize, F: OfSolid<T, D>> Clone for BySolid<T, D, F>
where
    F::Of<Sphere<T, D>>: Clone,
    F::Of<Ellipsoid<T, D>>: Clone,
    F::Of<Aabb<T, D>>: Clone,
    F::Of<Body<T, D>>: Clone,
{
    fn clone(&self) -> Self {
        match self {
            BySolid::Spheres(v) => BySolid::Spheres(v.clone()),
            BySolid::Ellipsoids(v) => BySolid::Ellipsoids(v.clone()),
            BySolid::Boxes(v) => BySolid::Boxes(v.clone()),
            BySolid::Mixed(v) => BySolid::Mixed(v.clone()),
        }
    }
}

/// A value held behind an `Arc`, known by where it is in memory.
pub(crate) trait Shares {
    /// Whether the two are the same value in memory (not equal ones).
    fn same(&self, other: &Self) -> bool;
}

impl<V> Shares for Arc<V> {
    fn same(&self, other: &Self) -> bool {
        Arc::ptr_eq(self, other)
    }
}

impl<T: Real, const D: usize, F: OfSolid<T, D>> BySolid<T, D, F>
where
    F::Of<Sphere<T, D>>: Shares,
    F::Of<Ellipsoid<T, D>>: Shares,
    F::Of<Aabb<T, D>>: Shares,
    F::Of<Body<T, D>>: Shares,
{
    /// Whether the two hold the same value in memory, of the same kind (a change made meanwhile
    /// makes them differ).
    pub(crate) fn same(&self, other: &Self) -> bool {
        match (self, other) {
            (BySolid::Spheres(a), BySolid::Spheres(b)) => a.same(b),
            (BySolid::Ellipsoids(a), BySolid::Ellipsoids(b)) => a.same(b),
            (BySolid::Boxes(a), BySolid::Boxes(b)) => a.same(b),
            (BySolid::Mixed(a), BySolid::Mixed(b)) => a.same(b),
            _ => false,
        }
    }
}

/// `$body` with `$s` bound to the value inside `$value` (a [`ByWidth`]), whichever its kind.
macro_rules! on_kind {
    ($value:expr, $s:ident => $body:expr) => {
        match $value {
            $crate::kinds::ByWidth::F32x2($s) => $body,
            $crate::kinds::ByWidth::F32x3($s) => $body,
            $crate::kinds::ByWidth::F64x2($s) => $body,
            $crate::kinds::ByWidth::F64x3($s) => $body,
        }
    };
}

/// `$run::<T, D>($args)?` for the width named `$dtype` ("float32" or "float64") and the
/// dimension `$dim`, in the matching [`ByWidth`] variant; a `ValueError` for any other pair.
macro_rules! for_kind {
    ($dtype:expr, $dim:expr, $run:ident($($arg:expr),*)) => {
        match ($dtype, $dim) {
            ("float32", 2) => $crate::kinds::ByWidth::F32x2($run::<f32, 2>($($arg),*)?),
            ("float32", 3) => $crate::kinds::ByWidth::F32x3($run::<f32, 3>($($arg),*)?),
            ("float64", 2) => $crate::kinds::ByWidth::F64x2($run::<f64, 2>($($arg),*)?),
            ("float64", 3) => $crate::kinds::ByWidth::F64x3($run::<f64, 3>($($arg),*)?),
            (dtype, dim) => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "float32 or float64, in 2 or 3 dimensions: not {dtype} in {dim}"
                )))
            }
        }
    };
}

/// `$body` with `$s` bound to the value inside `$value` (a [`BySolid`]), whichever its kind.
macro_rules! on_solid {
    ($value:expr, $s:ident => $body:expr) => {
        match $value {
            $crate::kinds::BySolid::Spheres($s) => $body,
            $crate::kinds::BySolid::Ellipsoids($s) => $body,
            $crate::kinds::BySolid::Boxes($s) => $body,
            $crate::kinds::BySolid::Mixed($s) => $body,
        }
    };
}
