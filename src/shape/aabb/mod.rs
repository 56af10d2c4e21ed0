//! Axis-aligned boxes and rectangles as solids: `contains` (the box itself, its constructors and
//! accessors, is in `crate::bounds`). Their casts are in [`casts`], their batch lanes in
//! [`lanes`], their point queries in `src/point/aabb.rs`.

use nalgebra::{Point, SVector};

use crate::bounds::Aabb;
use crate::core::exact::two_sum;
use crate::real::Real;
use crate::traits::Shape;

mod casts;
mod lanes;

impl<T: Real, const D: usize> Shape<T, D> for Aabb<T, D> {
    fn aabb(&self) -> Aabb<T, D> {
        *self
    }

    fn contains(&self, p: &Point<T, D>) -> bool {
        (0..D).all(|i| p[i] >= self.min()[i] && p[i] <= self.max()[i])
    }
}

impl<T: Real, const D: usize> Aabb<T, D> {
    /// [`Shape::contains`] at `p + lo` (`lo` held apart exactly, [`Beyond`](crate::cast::Beyond)): on each axis the
    /// exact signs of `p + lo − min` and `max − p − lo`.
    pub(crate) fn contains_beyond(&self, p: &Point<T, D>, lo: SVector<f64, D>) -> bool {
        (0..D).all(|i| {
            let x = p[i].to_wide();
            let above = |b: f64| {
                // (x − b) + lo as an exact expansion: its sign is its leading term's.
                let (s, e) = two_sum(x, -b);
                let (t, f) = two_sum(e, lo[i]);
                let (u, g) = two_sum(s, t);
                if u != 0.0 { u } else { g + f }
            };
            above(self.min()[i].to_wide()) >= 0.0 && above(self.max()[i].to_wide()) <= 0.0
        })
    }
}
