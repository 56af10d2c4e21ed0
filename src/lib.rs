//! Exact ray casts against spheres, ellipsoids and axis-aligned boxes, generic over `f32`/`f64`
//! and over the dimension.
//!
//! Where does a ray first touch a solid, and where does its line enter and leave it? raysweep
//! answers to the last bit or two, with nalgebra types (re-exported as [`nalgebra`]).
//!
//! # Example
//!
//! ```
//! use raysweep::nalgebra::{Point2, Vector2};
//! use raysweep::{Cast, Ellipse, Ray};
//!
//! let e = Ellipse::new(Point2::new(4.0, 0.0), Vector2::new(1.0, 2.0))?;
//! let ray = Ray::new(Point2::origin(), Vector2::x())?;
//! let hit = e.cast_ray(&ray, 100.0).unwrap();
//! assert_eq!((hit.distance, hit.point), (3.0, Point2::new(3.0, 0.0)));
//! assert_eq!(e.ray_span(&ray).unwrap().length(), 2.0);
//! # Ok::<(), raysweep::Error>(())
//! ```
//!
//! # Which query for which question
//!
//! | question | call |
//! |---|---|
//! | what does this ray (or segment `A → B`) hit first, where, with which normal? | [`Cast::cast_ray`] (with [`Ray::between`] for a segment) |
//! | where does the line enter and leave the solid; what is the path length through it? | [`Cast::ray_span`], [`Span::length`] |
//! | the same for many rays | [`Cast::cast_rays`] |
//! | where does a moving ball first touch the solid (contact point and normal on the solid)? | [`Cast::cast_sphere`] |
//! | over which travel of its centre does a moving ball touch the solid? | [`Cast::sphere_span`] |
//! | is a point in the solid? its bounding box? | [`Shape::contains`], [`Shape::aabb`] |
//! | the same questions over many bodies (first hit, any hit, every body crossed with its chord, every body holding a point) | [`Scene`], with [`Body`] for mixed scenes |
//! | add bodies one at a time (random sequential addition), or move one | [`Scene::push`], [`Scene::set_body`] |
//! | one scene placed many times (a reactor core of identical pebbles), traced as if every body were translated exactly | [`Instance`], [`InstancedScene`] |
//! | which cells of a voxel grid does a ray cross, and for what length in each? | [`Grid::walk`], with [`Grid::flat_index`] into a C-order volume |
//! | a volume's line integrals along many rays, and their adjoint (tomography's projector and back projector) | [`Grid::project`], [`Grid::backproject`] |
//! | a scene as voxels: which cells' centres lie in a body (a porous sample's image, a phantom) | [`Grid::occupancy`], [`Grid::center`] |
//! | how far is a point from the surface (negative inside), and which surface point is nearest, with which normal? | [`PointQuery::signed_distance`], [`PointQuery::closest_point`] |
//! | which body of many is nearest to a point (deepest, if inside several)? which bodies lie within a distance of it? | [`Scene::nearest`], [`Scene::within`] |
//! | when does a moving ball first touch a moving body? | [`Sphere::time_of_impact`] |
//! | every question above in a medium that repeats without end (a periodic box of particles, a porous sample's periodic volume), rays that wrap and neighbours at any distance, no body copied | [`PeriodicScene`], [`Periodicity`] |
//! | the bodies a segment crosses, each with its chord; the intervals of the union of overlapping bodies (grains, a Boolean model), and where a probe ball of a radius passes | [`Geometry::ray_spans_to`], [`Span::clipped`], [`Geometry::union_spans`], [`Geometry::union_sphere_spans`] |
//! | one transport or packing routine for every kind of scene | [`Geometry`], [`Proximity`], [`Answer`] |
//!
//! # Semantics at the edges
//!
//! - Solids are closed: a tangent ray, a ray exactly along a box face, or one starting on the
//!   surface, touches the solid.
//! - A ray whose origin is in the solid (or a ball that already touches it) hits at distance 0,
//!   at the ray's origin, with normal `-dir`.
//! - A sphere cast with radius 0 is exactly the ray cast; a negative, NaN or infinite radius gives
//!   `None`.
//! - `max_distance` is inclusive and may be `+∞`; a NaN or negative one gives `None`.
//! - Spans cover the whole line, so `enter` is negative when the entry is behind the origin.
//! - Constructors return an [`Error`] naming the offending value; casts never panic and never
//!   return NaN.
//!
//! # Batches
//!
//! Every batch ([`Cast::cast_rays`], [`Geometry::cast_rays`], [`Proximity::nearest_batch`] and
//! the rest) answers each slot exactly as the single query does, bit for bit, in any order and on
//! any number of threads. Its slices must have matching lengths: a mismatch is a programming
//! error, and the batch panics before it writes anything, with a message that names the call
//! and both slices (`Scene::nearest_batch: 2 points but 1 answer slots`). The grid's projectors
//! are the one exception: [`Grid::project`] and [`Grid::backproject`] take volumes and sinograms
//! that usually come from files, and return [`Error::Length`] instead, writing nothing.
//!
//! # Debug builds
//!
//! The queries are generic, so they are compiled in your crate with your crate's settings: an
//! unoptimised build runs them about 35 times slower than release, and optimising the package
//! `raysweep` alone does not change that. `[profile.dev] opt-level = 1` in your `Cargo.toml`
//! brings a debug build within 1.5 times of release (the README has the measurement).
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | the standard library's float functions |
//! | `libm` | no | float functions from libm instead, for `no_std` builds (`--no-default-features --features libm`) |
//! | `serde` | no | `Serialize` and `Deserialize` for every public type, through nalgebra's serde support; shapes and rays deserialize through their constructors, so bad input is an error there too |
//! | `rayon` | no | the `_par` batches ([`Cast::cast_rays_par`], [`Geometry::cast_rays_par`], [`Proximity::nearest_batch_par`] and the rest, on every kind of scene), on rayon's thread pool; [`Scene::new`] builds on it too |
//!
//! approx's `AbsDiffEq`, `RelativeEq` and `UlpsEq` are implemented for [`Hit`], [`Span`] and the
//! shapes in every build, comparing each number they hold.
//!
//! # Precision
//!
//! Every query is evaluated in `f64` and rounded once to the public width. For `f32` inputs this
//! gives results within 1 ulp of the exact answer to the given inputs (0.5 ulp in practice); for
//! `f64` inputs the cores use error-free transformations (compensated dot products, exact
//! differences) so that results stay within a few ulps where the problem is well conditioned, and
//! within a small multiple of the answer's own sensitivity to half-ulp changes of the inputs
//! everywhere. The methods, their sources and the measured tables, per family of hard cases and
//! next to the textbook formulas, are in
//! [`docs/precision.md`](https://github.com/raysweep/raysweep/blob/main/docs/precision.md); speed
//! against parry is in
//! [`docs/performance.md`](https://github.com/raysweep/raysweep/blob/main/docs/performance.md),
//! and how the crate is built in
//! [`docs/ARCHITECTURE.md`](https://github.com/raysweep/raysweep/blob/main/docs/ARCHITECTURE.md).
//!
//! # Example: a sphere cast
//!
//! ```
//! use raysweep::nalgebra::{Point3, Vector3};
//! use raysweep::{Aabb, Cast, Ray};
//!
//! // A ball of radius 0.5 slides past a box's edge at (0, 1, z): it touches the edge itself,
//! // where the box grown by the radius would report a face hit half an edge-rounding too early.
//! let b = Aabb::new(Point3::new(-1.0, -1.0, -1.0), Point3::new(0.0, 1.0, 1.0))?;
//! let ray = Ray::new(Point3::new(-5.0, 1.4, 0.0), Vector3::x())?;
//! let hit = b.cast_sphere(&ray, 0.5, 10.0).unwrap();
//! assert_eq!(hit.point, Point3::new(-1.0, 1.0, 0.0));
//! assert!((hit.distance - (4.0 - 0.09f64.sqrt())).abs() < 1e-15);
//! # Ok::<(), raysweep::Error>(())
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
// docs.rs builds with `--cfg docsrs` on nightly: feature-gated items carry their feature there.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]
#![warn(missing_docs)]
// `!(a <= b)` is this crate's way of saying "not ordered, or NaN": every such test is deliberate.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

#[cfg(not(any(feature = "std", feature = "libm")))]
compile_error!("raysweep needs its `std` feature or, in `no_std` builds, its `libm` feature");

extern crate alloc;

pub use nalgebra;

mod batch;
mod bounds;
mod cast;
mod compare;
mod core;
mod error;
mod fused;
mod grid;
mod hit;
mod point;
mod ray;
mod real;
mod scene;
#[cfg(feature = "serde")]
mod serialization;
mod shape;
mod traits;

pub use bounds::{Aabb, Rect};
pub use error::{Error, ORTHONORMAL_TOLERANCE};
pub use grid::{Grid, GridCell, GridWalk};
pub use hit::{Crossing, Hit, Span};
pub use point::{Impact, PointQuery};
pub use ray::Ray;
pub use real::Real;
pub use scene::{
    Answer, BodyCrossing, BodyHit, BodyNearest, BodySpan, Geometry, Image, Instance,
    InstanceCrossing, InstanceHit, InstanceNearest, InstanceSpan, InstancedScene, PeriodicCrossing,
    PeriodicHit, PeriodicNearest, PeriodicScene, PeriodicSpan, Periodicity, Proximity, REACH_BOXES,
    Scene, batch_order,
};
#[doc(hidden)]
pub use scene::{Planes8, Steps8, Visits, Wide};
pub use shape::{Body, Circle, Ellipse, Ellipsoid, Sphere};
pub use traits::{Cast, Shape};

/// The code of `README.md`, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The code of `docs/instances.md`, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../docs/instances.md")]
pub struct InstancesDoctests;

/// The code of `docs/periodic.md`, compiled and run as a doc test.
#[cfg(doctest)]
#[doc = include_str!("../docs/periodic.md")]
pub struct PeriodicDoctests;
