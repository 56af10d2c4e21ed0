//! Scenes: many bodies, and queries over all of them that answer exactly what a loop over every
//! body answers, through a bounding volume hierarchy. This file is the folder's face: its map
//! and what it exports; every part imports the parts it needs directly.
//!
//! The query surface:
//!
//! - [`surface`]: [`Geometry`] and [`Proximity`], the queries every kind of scene answers.
//! - [`inherent`]: each kind's queries as inherent methods, forwarded to the traits.
//! - [`answer`]: what a scene's queries return, [`BodyHit`], [`BodySpan`] and [`BodyNearest`],
//!   and [`Answer`], how generic code reads the answers of any kind.
//!
//! The kinds:
//!
//! - [`plain`]: [`Scene`], its construction and its ray queries.
//! - [`insert`]: [`Scene::push`], a body added to a built hierarchy where it costs least.
//! - [`proximity`]: a scene's nearest body to a point and its bodies within a distance.
//! - [`bulk`]: the proximity batches, each block of neighbouring points' candidates gathered in
//!   one descent.
//! - [`crossing`]: the next crossing along a ray, a span's next end and the normal there.
//! - [`instance`]: [`Instance`] and [`InstancedScene`], scenes placed at offsets.
//! - [`periodic`]: [`PeriodicScene`], bodies repeated on a lattice without end.
//! - [`moved`]: a query's origin or point moved by an exact offset, the scene asked from there
//!   (instances and periodic images).
//!
//! The hierarchy:
//!
//! - [`node`]: a node of four children (nodes or bodies), its vocabulary, and [`node::packed`],
//!   the node as stored, each child's box in 8-bit steps (64 bytes a node), with the argument why
//!   a decoded box holds the child's.
//! - [`hierarchy`]: the store of nodes, their back links, and the refit when a body moves.
//! - [`build`]: the hierarchy built top down, by binned SAH splits (`build/split.rs`).
//! - [`probe`]: a query's line against a node's children's boxes, conservatively, in `f64` and
//!   in `f32` lanes, with the argument why a skipped child holds no answer.
//! - [`lower_bound`]: a point's signed distance to a node's children's boxes, from below, with
//!   the argument why a skipped child holds no answer.
//! - [`mod@prefetch`]: loading the children a traversal meets ahead of their visit.
//! - [`traverse`]: the one descent, the depth-first and the breadth-first visits the queries
//!   share.
//! - [`asked`]: the point a proximity query is asked at (a point, or a point moved exactly).
//! - [`search`]: one nearest search as a state advanced a node at a time, so that batches run
//!   several side by side.
//! - [`order`]: a batch's points (or rays' origins) along a space-filling curve, cut into blocks
//!   of neighbours.
//! - [`ray_batch`]: the ray batches, traced in the curve order of the rays' origins where the
//!   scene is larger than the cache.
//! - [`packet`]: coherent rays of a batch traced together, sixteen to a packet, each node's
//!   children tested against all of them in one pass of `f32` lanes.
//! - [`wide`]: the eight-wide spike, first hits through nodes of eight children, kept for its
//!   measurements (`docs/performance.md`, "The eight-wide spike").

mod answer;
mod asked;
mod build;
mod bulk;
mod crossing;
mod hierarchy;
mod inherent;
mod insert;
mod instance;
mod lower_bound;
mod moved;
mod node;
mod order;
mod packet;
mod periodic;
mod plain;
mod prefetch;
mod probe;
mod proximity;
mod ray_batch;
mod search;
mod surface;
mod traverse;
mod wide;

pub use answer::{Answer, BodyCrossing, BodyHit, BodyNearest, BodySpan};
pub use instance::{
    Instance, InstanceCrossing, InstanceHit, InstanceNearest, InstanceSpan, InstancedScene,
};
pub use order::batch_order;
pub use periodic::{
    Image, PeriodicCrossing, PeriodicHit, PeriodicNearest, PeriodicScene, PeriodicSpan,
    Periodicity, REACH_BOXES,
};
pub use plain::Scene;
pub use surface::{Geometry, Proximity};
#[doc(hidden)]
pub use wide::{Planes8, Steps8, Visits, Wide};
