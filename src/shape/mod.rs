//! The solids: thin wrappers that validate their input and call a core; [`inside`], their fast
//! exact point-in-solid tests.

mod aabb;
mod body;
mod ellipsoid;
mod inside;
#[cfg(test)]
mod products_agree;
mod sphere;

pub use body::Body;
pub(crate) use body::on_solid;
pub(crate) use ellipsoid::scaled_to_unit;
pub use ellipsoid::{Ellipse, Ellipsoid, ORTHONORMAL_TOLERANCE};
pub use sphere::{Circle, Sphere};
