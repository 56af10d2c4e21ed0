//! approx's `AbsDiffEq`, `RelativeEq` and `UlpsEq` for hits, spans and shapes: two values are
//! approximately equal when every number in them is.

use approx::{AbsDiffEq, RelativeEq, UlpsEq};

use crate::bounds::Aabb;
use crate::hit::{Hit, Span};
use crate::real::Real;
use crate::shape::{Ellipsoid, Sphere};

/// The three approx traits for a type, comparing the listed parts of `self` and `other`.
macro_rules! approx_by_parts {
    ($ty:ty, [$($generics:tt)*], |$a:ident, $b:ident| [$($part_a:expr, $part_b:expr);+ $(;)?]) => {
        impl<$($generics)*> AbsDiffEq for $ty {
            type Epsilon = T;
            fn default_epsilon() -> T {
                T::default_epsilon()
            }
            fn abs_diff_eq(&self, other: &Self, epsilon: T) -> bool {
                let ($a, $b) = (self, other);
                true $(&& $part_a.abs_diff_eq(&$part_b, epsilon))+
            }
        }

        impl<$($generics)*> RelativeEq for $ty {
            fn default_max_relative() -> T {
                T::default_max_relative()
            }
            fn relative_eq(&self, other: &Self, epsilon: T, max_relative: T) -> bool {
                let ($a, $b) = (self, other);
                true $(&& $part_a.relative_eq(&$part_b, epsilon, max_relative))+
            }
        }

        impl<$($generics)*> UlpsEq for $ty {
            fn default_max_ulps() -> u32 {
                T::default_max_ulps()
            }
            fn ulps_eq(&self, other: &Self, epsilon: T, max_ulps: u32) -> bool {
                let ($a, $b) = (self, other);
                true $(&& $part_a.ulps_eq(&$part_b, epsilon, max_ulps))+
            }
        }
    };
}

approx_by_parts!(Span<T>, [T: Real], |a, b| [a.enter, b.enter; a.exit, b.exit]);
approx_by_parts!(Hit<T, D>, [T: Real, const D: usize], |a, b| [
    a.distance, b.distance;
    a.point, b.point;
    a.normal, b.normal;
]);
approx_by_parts!(Sphere<T, D>, [T: Real, const D: usize], |a, b| [
    *a.center(), *b.center();
    a.radius(), b.radius();
]);
approx_by_parts!(Ellipsoid<T, D>, [T: Real, const D: usize], |a, b| [
    *a.center(), *b.center();
    *a.semi_axes(), *b.semi_axes();
    a.rotation(), b.rotation();
]);
approx_by_parts!(Aabb<T, D>, [T: Real, const D: usize], |a, b| [
    *a.min(), *b.min();
    *a.max(), *b.max();
]);

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{Point2, Rotation2, Vector2};

    #[test]
    fn shapes_compare_part_by_part() {
        let a = Sphere::new(Point2::new(1.0, 2.0), 3.0).unwrap();
        let b = Sphere::new(Point2::new(1.0, 2.0 + 1e-12), 3.0).unwrap();
        approx::assert_relative_eq!(a, b, epsilon = 1e-9);
        approx::assert_relative_ne!(a, b, epsilon = 1e-15, max_relative = 1e-15);
        let e = Ellipsoid::oriented(
            Point2::origin(),
            Vector2::new(2.0, 1.0),
            Rotation2::new(0.1),
        )
        .unwrap();
        let f = Ellipsoid::oriented(
            Point2::origin(),
            Vector2::new(2.0, 1.0),
            Rotation2::new(0.1 + 1e-13),
        )
        .unwrap();
        approx::assert_ulps_eq!(e, f, epsilon = 1e-12);
        let g = Ellipsoid::new(Point2::origin(), Vector2::new(2.0, 1.0)).unwrap();
        approx::assert_abs_diff_ne!(e, g);
    }

    #[test]
    fn spans_and_hits_compare() {
        approx::assert_abs_diff_eq!(
            Span {
                enter: 1.0f32,
                exit: 2.0
            },
            Span {
                enter: 1.0,
                exit: 2.0 + 1e-7
            },
            epsilon = 1e-6
        );
        let b = Aabb::new(Point2::new(0.0, 0.0), Point2::new(1.0, 1.0)).unwrap();
        approx::assert_abs_diff_eq!(b, b);
    }
}
