//! Wide nodes whose boxes are stored whole, as `f32` planes: the store the spike's nodes are
//! made in (collapsed here from the four-wide hierarchy, or built in `build.rs`), and timed in.

use alloc::vec::Vec;

use super::super::hierarchy::Hierarchy;
use super::super::node::{Child, LOWER, Node, UPPER};
use super::super::packet::lanes::Eight;
use super::traverse::{Lines, Store};
use super::{COUNT, LANES, LEAF, NONE, START};
use crate::real::Real;

/// A node of eight children, their boxes as `f32` planes: `planes[LOWER][i][k]` and
/// `planes[UPPER][i][k]` are child `k`'s bounds on axis `i`; `child[k]` a node's index, a leaf
/// ([`LEAF`]) or [`NONE`].
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct WideNode<const D: usize> {
    pub(super) planes: [[[f32; LANES]; D]; 2],
    pub(super) child: [u32; LANES],
}

impl<const D: usize> WideNode<D> {
    /// A node of no children: every box empty.
    pub(super) const BLANK: Self = WideNode {
        planes: [[[f32::INFINITY; LANES]; D], [[f32::NEG_INFINITY; LANES]; D]],
        child: [NONE; LANES],
    };
}

/// Wide nodes stored whole, the root first, and the ids of the leaves of several bodies.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct Planes8<const D: usize> {
    pub(super) nodes: Vec<WideNode<D>>,
    pub(super) ids: Vec<u32>,
    /// The most nodes on a path from the root to a leaf.
    pub(super) depth: usize,
}

/// A child of a wide node being made: a four-wide child (a node or a body, as stored) and its
/// box.
#[derive(Clone, Copy)]
struct Slot<const D: usize> {
    child: u32,
    lower: [f32; D],
    upper: [f32; D],
}

impl<const D: usize> Slot<D> {
    /// Half the box's surface (its perimeter in two dimensions): the collapse's measure.
    fn area(&self) -> f64 {
        let extent: [f64; D] =
            core::array::from_fn(|i| f64::from(self.upper[i]) - f64::from(self.lower[i]));
        (0..D)
            .map(|i| {
                (0..D)
                    .filter(|&j| j != i)
                    .map(|j| extent[j])
                    .product::<f64>()
            })
            .sum()
    }
}

/// The used children of four-wide node `index`, as slots.
fn slots_of<T: Real, const D: usize>(hierarchy: &Hierarchy<T, D>, index: usize) -> Vec<Slot<D>> {
    let node: Node<D> = hierarchy.node(index);
    (0..node.child.len())
        .filter(|&k| Child::of(node.child[k]) != Child::Empty)
        .map(|k| {
            let (lower, upper) = node.lane(k);
            Slot {
                child: node.child[k],
                lower,
                upper,
            }
        })
        .collect()
}

impl<const D: usize> Planes8<D> {
    /// No nodes yet.
    pub(super) fn new() -> Self {
        Planes8 {
            nodes: Vec::new(),
            ids: Vec::new(),
            depth: 0,
        }
    }

    /// `hierarchy` collapsed (the module's documentation of `src/scene/wide/mod.rs`), with
    /// leaves of up to `leaf` bodies; fewer than `2^28` bodies.
    pub(super) fn collapsed<T: Real>(hierarchy: &Hierarchy<T, D>, leaf: usize) -> Self {
        let mut wide = Planes8::new();
        if hierarchy.nodes.is_empty() {
            return wide;
        }
        let counts = counts(hierarchy);
        wide.nodes.push(WideNode::BLANK);
        // (the four-wide node, the wide node it becomes, that node's depth)
        let mut work = alloc::vec![(0usize, 0usize, 1usize)];
        while let Some((four, at, depth)) = work.pop() {
            wide.depth = wide.depth.max(depth);
            let mut slots = slots_of(hierarchy, four);
            // The child node of largest area whose children fit in the lanes left, opened.
            loop {
                let open = slots
                    .iter()
                    .enumerate()
                    .filter_map(|(k, s)| match Child::of(s.child) {
                        Child::Node(index) => Some((k, s.area(), slots_of(hierarchy, index))),
                        _ => None,
                    })
                    .filter(|(_, _, inner)| slots.len() - 1 + inner.len() <= LANES)
                    .max_by(|a, b| a.1.total_cmp(&b.1));
                let Some((k, _, inner)) = open else { break };
                slots.swap_remove(k);
                slots.extend(inner);
            }
            let mut made = WideNode::BLANK;
            for (k, slot) in slots.iter().enumerate() {
                for i in 0..D {
                    made.planes[LOWER][i][k] = slot.lower[i];
                    made.planes[UPPER][i][k] = slot.upper[i];
                }
                made.child[k] = match Child::of(slot.child) {
                    Child::Body(id) => LEAF | id as u32,
                    Child::Node(four) if counts[four] <= leaf => {
                        let start = wide.ids.len() as u32;
                        gather(hierarchy, four, &mut wide.ids);
                        let count = wide.ids.len() as u32 - start;
                        if count == 1 {
                            LEAF | wide.ids.pop().expect("one body")
                        } else {
                            LEAF | (count - 1) << COUNT | start
                        }
                    }
                    Child::Node(four) => {
                        let index = wide.nodes.len();
                        wide.nodes.push(WideNode::BLANK);
                        work.push((four, index, depth + 1));
                        index as u32
                    }
                    Child::Empty => NONE,
                };
            }
            wide.nodes[at] = made;
        }
        wide
    }
}

/// The bodies below each four-wide node.
fn counts<T: Real, const D: usize>(hierarchy: &Hierarchy<T, D>) -> Vec<usize> {
    let mut counts = alloc::vec![0usize; hierarchy.nodes.len()];
    // Children follow their parents in the builder's order, not always after insertions: so
    // counted by a walk from the root, children before parents.
    let mut order = Vec::with_capacity(hierarchy.nodes.len());
    let mut stack = alloc::vec![0usize];
    while let Some(index) = stack.pop() {
        order.push(index);
        for &child in &hierarchy.nodes[index].child {
            if let Child::Node(below) = Child::of(child) {
                stack.push(below);
            }
        }
    }
    for &index in order.iter().rev() {
        counts[index] = hierarchy.nodes[index]
            .child
            .iter()
            .map(|&c| match Child::of(c) {
                Child::Body(_) => 1,
                Child::Node(below) => counts[below],
                Child::Empty => 0,
            })
            .sum();
    }
    counts
}

/// Appends the ids of the bodies below four-wide node `index` to `ids`.
fn gather<T: Real, const D: usize>(hierarchy: &Hierarchy<T, D>, index: usize, ids: &mut Vec<u32>) {
    for &child in &hierarchy.nodes[index].child {
        match Child::of(child) {
            Child::Body(id) => ids.push(id as u32),
            Child::Node(below) => gather(hierarchy, below, ids),
            Child::Empty => {}
        }
    }
}

impl<const D: usize> Store<D> for Planes8<D> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.nodes.len()
    }

    #[inline(always)]
    fn depth(&self) -> usize {
        self.depth
    }

    fn bytes(&self) -> usize {
        self.nodes.len() * core::mem::size_of::<WideNode<D>>() + self.ids.len() * 4
    }

    #[inline(always)]
    fn meets<L: Eight>(&self, index: u32, lines: &Lines<L, D>, cutoff: f32) -> (u32, L) {
        let node = &self.nodes[index as usize];
        lines.meets(|side, i| L::load(&node.planes[side][i]), cutoff)
    }

    #[inline(always)]
    fn child(&self, index: u32, k: usize) -> u32 {
        self.nodes[index as usize].child[k]
    }

    #[inline(always)]
    fn leaf(&self, child: u32) -> (u32, &[u32]) {
        let many = child >> COUNT & 7;
        let start = child & START;
        if many == 0 {
            (start, &[])
        } else {
            (0, &self.ids[start as usize..][..many as usize + 1])
        }
    }

    #[inline(always)]
    fn prefetch_node(&self, index: u32) {
        super::super::prefetch::prefetch(self.nodes.as_ptr().wrapping_add(index as usize));
    }

    #[inline(always)]
    fn leaf_start(&self, child: u32) -> Option<*const u32> {
        (child >> COUNT & 7 != 0).then(|| self.ids.as_ptr().wrapping_add((child & START) as usize))
    }
}
