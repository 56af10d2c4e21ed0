//! raysweep's integration tests, in one binary so that the crate's generic code is compiled once
//! for all of them: each module is one concern, and `cargo test --test suite precision` runs one.

#[path = "../common/mod.rs"]
mod common;
#[path = "../robust/mod.rs"]
mod robust;

mod api;
mod batch;
mod grid;
mod impact;
mod instances;
mod layers;
mod periodic;
mod periodic_precision;
mod phantom;
mod point;
mod precision;
mod projectors;
mod properties;
mod proximity;
mod push;
mod robustness;
mod scene;
mod seeds;
mod serialization;
mod surface;
mod time_zero;
mod wide;
