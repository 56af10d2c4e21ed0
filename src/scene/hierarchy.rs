//! The hierarchy's store: its nodes (in steps, or whole), the back links that refits and
//! insertions follow, and the refit of a body's path after it moves. The builder fills it
//! (`src/scene/build/`), insertion adds to it (`src/scene/insert.rs`), and the traversals read
//! it (`Hierarchy::meets`, `src/scene/probe/mod.rs`).

use alloc::vec::Vec;
use core::marker::PhantomData;

use crate::real::Real;

use super::node::packed::{Packed, QUANTISED};
use super::node::{Child, Node, Planes};

/// A hierarchy over bodies `0..n`, for bodies of width `T`.
#[derive(Clone, Debug)]
pub(crate) struct Hierarchy<T, const D: usize> {
    /// The nodes, the root first (none for no bodies).
    pub(crate) nodes: Vec<Packed<D>>,
    /// The planes of the nodes stored whole ([`Packed::full`]).
    pub(crate) full: Vec<Planes<D>>,
    /// How many bodies.
    pub(super) bodies: usize,
    /// Each node's parent (`u32::MAX` for the root), for refits and insertions: empty until
    /// [`Hierarchy::link`] (the queries need no back links, and a scene that is only queried
    /// keeps them out of memory).
    pub(super) parents: Vec<u32>,
    /// The node that holds each body, with [`Hierarchy::parents`].
    pub(super) node_of: Vec<u32>,
    /// The most nodes on a path from the root to a body.
    pub(crate) depth: usize,
    /// The bodies inserted since the hierarchy was built (`src/scene/insert.rs`).
    pub(crate) inserted: usize,
    /// [`Hierarchy::depth`] as built: `Scene::push` builds anew once insertions have deepened the
    /// tree a few levels beyond it (`src/scene/insert.rs`).
    pub(crate) built_depth: usize,
    width: PhantomData<fn() -> T>,
}

impl<T: Real, const D: usize> Hierarchy<T, D> {
    /// A hierarchy over `bodies` bodies with no nodes yet, for the builder to fill.
    pub(super) fn empty(bodies: usize) -> Self {
        Hierarchy {
            nodes: Vec::new(),
            full: Vec::new(),
            bodies,
            parents: Vec::new(),
            node_of: Vec::new(),
            depth: 0,
            inserted: 0,
            built_depth: 0,
            width: PhantomData,
        }
    }

    /// Node `index`, decoded.
    #[inline(always)]
    pub(crate) fn node(&self, index: usize) -> Node<D> {
        self.nodes[index].decode(&self.full)
    }

    /// Node `index`, decoded but for its unused children's boxes ([`Packed::raw`]), and its used
    /// children as bits.
    #[inline(always)]
    pub(crate) fn raw(&self, index: usize) -> (Node<D>, u32) {
        let node = &self.nodes[index];
        (node.raw(&self.full), node.used())
    }

    /// Node `index` becomes `node`: in steps, or whole where it must be (reusing its place in
    /// [`Hierarchy::full`] if it had one).
    pub(super) fn store(&mut self, index: usize, node: &Node<D>) {
        let was = self.nodes[index].full;
        self.nodes[index] = Packed::pack(node, &mut self.full, was, was != QUANTISED);
    }

    /// A new node, `node`; its index.
    pub(super) fn add(&mut self, node: &Node<D>) -> usize {
        self.nodes.push(Packed::BLANK);
        self.store(self.nodes.len() - 1, node);
        self.nodes.len() - 1
    }

    /// Builds the back links ([`Hierarchy::parents`], [`Hierarchy::node_of`]) from the nodes,
    /// where they are not built yet: once after a build, on the first refit or insertion.
    pub(super) fn link(&mut self) {
        if self.parents.len() == self.nodes.len() && self.node_of.len() == self.bodies {
            return;
        }
        self.parents = alloc::vec![u32::MAX; self.nodes.len()];
        self.node_of = alloc::vec![0; self.bodies];
        for (index, node) in self.nodes.iter().enumerate() {
            for &child in &node.child {
                match Child::of(child) {
                    Child::Body(id) => self.node_of[id] = index as u32,
                    Child::Node(below) => self.parents[below] = index as u32,
                    Child::Empty => {}
                }
            }
        }
    }

    /// Refits the boxes on the path from body `id` to the root to its box `(min, max)`, so that
    /// every node again holds its bodies, grown as at the build.
    pub(crate) fn refit(&mut self, id: usize, (min, max): ([T; D], [T; D])) {
        self.link();
        let node = self.node_of[id] as usize;
        let mut decoded = self.node(node);
        let lane = decoded.lane_of(Child::Body(id).raw());
        decoded.set_box::<T>(lane, (&min.map(T::to_wide), &max.map(T::to_wide)));
        self.store(node, &decoded);
        self.refit_from(node, false);
    }

    /// Refits the boxes on the path from `node` to the root: each parent's lane for a node on
    /// the path becomes the union of that node's children's boxes. Where `growing` (boxes on the
    /// path have only grown), a lane that already holds that union is left as it is: re-encoding
    /// a node costs far more than reading one.
    pub(super) fn refit_from(&mut self, mut node: usize, growing: bool) {
        while self.parents[node] != u32::MAX {
            let parent = self.parents[node] as usize;
            let (min, max) = self.node(node).union();
            let mut decoded = self.node(parent);
            let lane = decoded.lane_of(Child::Node(node).raw());
            if growing && decoded.lane_holds(lane, (&min, &max)) {
                node = parent;
                continue;
            }
            decoded.set_lane(lane, (&min, &max));
            self.store(parent, &decoded);
            node = parent;
        }
    }

    /// The memory the hierarchy holds, in bytes.
    pub(crate) fn bytes(&self) -> usize {
        self.nodes.capacity() * core::mem::size_of::<Packed<D>>()
            + self.full.capacity() * core::mem::size_of::<Planes<D>>()
            + self.parents.capacity() * 4
            + self.node_of.capacity() * 4
    }
}
