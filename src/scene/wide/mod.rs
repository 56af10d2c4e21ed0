//! The eight-wide spike (issue "Single rays at Embree's speed", step 1): a scene's bodies under
//! nodes of eight children, each child a node or a leaf of up to eight bodies, their first hits
//! traversed with a node's eight boxes tested in one pass of eight `f32` lanes (`traverse.rs`).
//! It answers first hits only, and is measured against today's four-wide traversal
//! (`benches/benches/wide.rs`): its figures decide the node format of the rewrite, and whether
//! there is one (`docs/performance.md`, "The eight-wide spike").
//!
//! # The nodes
//!
//! Two ways to make them, two ways to store them:
//!
//! - collapsed (`planes.rs`): a wide node starts from a four-wide node's children and replaces
//!   the child node of largest area by its own children while they fit in eight lanes (Wald,
//!   Benthin and Boulos's multi-branching BVHs, 2008; Ylitie, Karras and Laine 2017 collapse by a
//!   cost, here by area); each child node whose subtree holds at most a leaf's bodies becomes a
//!   leaf of them, each other one a wide node in turn;
//! - built (`build.rs`): by the builder's own binned SAH splits, eight parts a node;
//! - whole (`planes.rs`): each child's box as `f32` planes, side by side per axis and side as
//!   [`Node`](super::node::Node) has them for four (256 bytes a node in three dimensions);
//! - in steps (`steps.rs`): each box in 8-bit steps on a grid of the node's own, encoded as
//!   `src/scene/node/packed.rs` encodes four, 64 bytes a node, with its children stored
//!   contiguously and found from two base indices kept apart.
//!
//! # Why a skipped child holds no answer
//!
//! Every box a wide node holds holds its bodies' boxes grown and rounded outward as a four-wide
//! child's box does (`src/scene/node/mod.rs`): a collapsed node's lanes are the four-wide
//! hierarchy's own decoded boxes (a leaf's, the lane of the subtree it replaces), a built node's
//! are made by the same function ([`grown`](super::node::grown)), and a box in steps decodes to
//! a box that holds the whole one (the argument of `src/scene/node/packed.rs`, which does not
//! depend on the number of lanes). The lanes test each box with the operations of
//! [`F32Probe`](super::probe::F32Probe) on its own line, lane by lane: the difference and the
//! product rounded once each, the larger entry and the smaller exit kept with NaN leaving each as
//! it was (`src/scene/packet/lanes.rs`), so each lane's entry and verdict are the bits the
//! four-wide test gives for that box, and `src/scene/probe/f32.rs`'s argument holds unchanged.
//! An unused lane's box is empty (`+∞` to `−∞`) where stored whole, whose entry exceeds its exit
//! for any line from a finite origin (`src/scene/probe/mod.rs`), and dropped by the node's mask
//! of used lanes where stored in steps. A leaf's bodies are each cast in turn, none skipped, and
//! the best answer is kept by the one tie rule ([`better`](super::traverse::better)): so the
//! answer is the loop's, bit for bit.

mod build;
mod planes;
mod steps;
mod traverse;

pub use planes::Planes8;
pub use steps::Steps8;

use super::answer::BodyHit;
use super::plain::Scene;
use crate::ray::Ray;
use crate::real::Real;
use crate::traits::Cast;
use traverse::Store;

/// The children of a wide node.
pub(crate) const LANES: usize = 8;

/// The flag of a child that is a leaf. The three bits below it hold the leaf's bodies less one;
/// the rest, a single body's id, or where the leaf's bodies start in its store's ids.
const LEAF: u32 = 1 << 31;

/// A wide node's unused child.
const NONE: u32 = u32::MAX;

/// Where a leaf's count of bodies (less one) starts.
const COUNT: u32 = 28;

/// The bits of a leaf's id or start.
const START: u32 = (1 << COUNT) - 1;

/// How often a traversal read a node and a leaf, and cast a body.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Visits {
    pub nodes: u64,
    pub leaves: u64,
    pub bodies: u64,
}

/// A scene's bodies under wide nodes stored as `N` (the module's documentation), for first
/// hits. Made by [`Scene::wide_spike`]; a measurement, not a query surface.
#[doc(hidden)]
#[derive(Debug)]
pub struct Wide<'s, T: Real, const D: usize, S, N> {
    scene: &'s Scene<T, D, S>,
    store: N,
}

impl<T: Real, const D: usize, S: Cast<T, D>> Scene<T, D, S> {
    /// The eight-wide spike over this scene's bodies, with leaves of up to `leaf` bodies (held to
    /// `1..=8`): its hierarchy collapsed, or (`built`) nodes built directly, stored whole
    /// (`src/scene/wide/mod.rs`); `None` for `2^28` bodies or more. A measurement: its first
    /// hits are [`Scene::cast_ray`]'s, bit for bit.
    #[doc(hidden)]
    #[must_use]
    pub fn wide_spike(&self, leaf: usize, built: bool) -> Option<Wide<'_, T, D, S, Planes8<D>>> {
        if self.bodies.len() >= START as usize {
            return None;
        }
        let leaf = leaf.clamp(1, LANES);
        let store = if built {
            Planes8::built(self, leaf)
        } else {
            Planes8::collapsed(&self.hierarchy, leaf)
        };
        Some(Wide { scene: self, store })
    }

    /// The spike's built nodes with leaves of one body, stored in steps
    /// (`src/scene/wide/steps.rs`), their children found from links kept apart or (`inline`)
    /// beside them; `None` for `2^28` bodies or more, or where a node's boxes do not encode
    /// (bodies beyond `f32`'s range).
    #[doc(hidden)]
    #[must_use]
    pub fn wide_spike_steps(&self, inline: bool) -> Option<Wide<'_, T, D, S, Steps8<D>>> {
        if self.bodies.len() >= START as usize {
            return None;
        }
        let store = Steps8::of(&Planes8::built(self, 1), inline)?;
        Some(Wide { scene: self, store })
    }
}

/// The spike's measurements on a store of wide nodes (a macro for the two stores, whose trait is
/// the spike's own).
macro_rules! measured {
    ($store:ident) => {
        impl<T: Real, const D: usize, S: Cast<T, D>> Wide<'_, T, D, S, $store<D>> {
            /// [`Scene::cast_ray`], through the wide nodes (the scene's own traversal for
            /// origins beyond `f32`'s range).
            #[must_use]
            pub fn cast_ray(&self, ray: &Ray<T, D>, max_distance: T) -> Option<BodyHit<T, D>> {
                traverse::first_hit(self, ray, max_distance, &mut ())
            }

            /// How many nodes and leaves [`Wide::cast_ray`] reads for `ray`, and bodies it
            /// casts.
            #[must_use]
            pub fn visits(&self, ray: &Ray<T, D>, max_distance: T) -> Visits {
                let mut visits = Visits::default();
                let _ = traverse::first_hit(self, ray, max_distance, &mut visits);
                visits
            }

            /// The bytes of the wide nodes and what they index.
            #[must_use]
            pub fn bytes(&self) -> usize {
                self.store.bytes()
            }

            /// How many wide nodes there are.
            #[must_use]
            pub fn nodes(&self) -> usize {
                self.store.count()
            }
        }
    };
}

measured!(Planes8);
measured!(Steps8);
