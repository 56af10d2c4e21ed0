//! The solids. Each shape is a folder of one pattern: `mod.rs` the solid (its constructors and
//! accessors, validated, and `contains`), `casts.rs` its casts (`LineQuery`, `SweepQuery` and
//! `Cast` over one of the cores), `lanes.rs` its batch lanes (`FourQuery`) where it has a batch;
//! its point queries are in `src/point/` under its name. [`inside`] holds their fast exact
//! point-in-solid tests, [`body`] the enum of any of them.

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
pub use ellipsoid::{Ellipse, Ellipsoid};
pub use sphere::{Circle, Sphere};
