//! The hierarchy built top down by the splits of [`split`]: a node takes its bodies split in two,
//! then splits a part again, until it has [`WIDTH`] parts or every part fills a node of its own
//! ([`parts`]; after Wald, Benthin and Boulos, "Getting rid of packets: efficient SIMD
//! single-ray traversal using multi-branching BVHs", IEEE Symposium on Interactive Ray Tracing,
//! 2008); each part of several bodies becomes a node in turn. Since every body is a child of its
//! own, with its own box, a query tests a body's box before it loads the body, and the bodies a
//! node holds need not be stored next to each other. Below the top levels, the parts are built
//! on rayon's threads (feature `rayon`), each into nodes of its own, then appended.

use alloc::vec::Vec;

use crate::real::Real;

use super::hierarchy::Hierarchy;
use super::node::packed::{Packed, QUANTISED};
use super::node::{Child, Node, Planes, WIDTH};

pub(super) mod split;

pub(crate) use split::Bounds;
use split::{ItemStore, Items, Subset};

impl<T: Real, const D: usize> Hierarchy<T, D> {
    /// The hierarchy over bodies with the given boxes (as `min`, `max` in the width; none NaN;
    /// at most [`MAX_BODIES`](super::node::MAX_BODIES)).
    ///
    /// With the `rayon` feature, the parts below the top levels are built on rayon's threads,
    /// each into nodes of its own, then appended; the hierarchy is the same.
    pub(crate) fn build(boxes: impl ExactSizeIterator<Item = ([T; D], [T; D])>) -> Self {
        let count = boxes.len();
        let (mut store, all) = ItemStore::new(boxes);
        let mut hierarchy = Hierarchy::empty(count);
        let Some(all) = all else {
            return hierarchy;
        };
        let mut items = store.view();
        let top = build_nodes(&mut items, all, subtree_size(count), WHOLE);
        let mut left = top.left.clone();
        left.sort_unstable_by_key(|part| part.bodies.first);
        let parts: Vec<Subset<D>> = left.iter().map(|part| part.bodies).collect();
        let whole: Vec<usize> = left
            .iter()
            .map(|part| WHOLE.saturating_sub(part.depth))
            .collect();
        let subtrees = build_each(items.carve(&parts), &parts, &whole);
        // The boxes and bins are done with: freed before the nodes are gathered, whose peak they
        // would add to.
        drop(store);
        hierarchy.append(top, None);
        for (part, subtree) in left.iter().zip(subtrees) {
            hierarchy.append(subtree, Some(part));
        }
        hierarchy.nodes.shrink_to_fit();
        hierarchy.full.shrink_to_fit();
        hierarchy.built_depth = hierarchy.depth;
        hierarchy
    }

    /// Appends `built`'s nodes, as the child that `part` left (or as the root).
    fn append(&mut self, built: Built<D>, part: Option<&Left<D>>) {
        let offset = self.nodes.len() as u32;
        match part {
            Some(part) => {
                self.nodes[part.node as usize].child[part.lane] = offset;
                self.depth = self.depth.max(part.depth + built.depth);
            }
            None => self.depth = self.depth.max(built.depth),
        }
        let whole = self.full.len() as u32;
        for mut node in built.nodes {
            for child in &mut node.child {
                if let Child::Node(index) = Child::of(*child) {
                    *child = Child::Node(index + offset as usize).raw();
                }
            }
            if node.full != QUANTISED {
                node.full += whole;
            }
            self.nodes.push(node);
        }
        self.full.extend(built.full);
    }
}

/// The levels of nodes, from the root, stored whole (`f32` planes aside, `src/scene/node/packed.rs`):
/// every query reads them, and skipping their decoding made first hits in small scenes faster,
/// for `1 + 4 + 16` nodes, 2 kB. (Storing whole as many levels as a node per 24 bodies allows
/// made rays in large scenes slower: the planes aside cost a second cache line per node.)
const WHOLE: usize = 3;

/// Parts of more bodies than this are left by the top levels' build for subtrees of their own:
/// an eighth of the bodies, enough parts for two threads to share evenly; with one thread, all
/// the bodies.
fn subtree_size(bodies: usize) -> usize {
    if cfg!(feature = "rayon") && bodies >= 8192 {
        bodies / 8
    } else {
        usize::MAX
    }
}

/// Nodes built over some of the bodies, indexed from their root (0).
struct Built<const D: usize> {
    nodes: Vec<Packed<D>>,
    /// The planes of those stored whole.
    full: Vec<Planes<D>>,
    /// The most nodes on a path from the root to a body.
    depth: usize,
    /// The parts left for subtrees of their own.
    left: Vec<Left<D>>,
}

/// A part left for a subtree of its own: its bodies, and the node (with its depth) and lane
/// that take it.
#[derive(Clone, Copy)]
struct Left<const D: usize> {
    bodies: Subset<D>,
    node: u32,
    lane: usize,
    depth: usize,
}

/// The nodes over `bodies` (at least one), top down; the parts of more than `leave` bodies are
/// left to [`Built::left`]; the nodes at depths up to `whole` (the root's is 1) are stored whole.
fn build_nodes<T: Real, const D: usize>(
    items: &mut Items<'_, T, D>,
    bodies: Subset<D>,
    leave: usize,
    whole: usize,
) -> Built<D> {
    let mut built = Built {
        nodes: alloc::vec![Packed::BLANK],
        full: Vec::new(),
        depth: 0,
        left: Vec::new(),
    };
    // (bodies, the node that takes them, that node's depth)
    let mut work = alloc::vec![(bodies, 0usize, 1usize)];
    while let Some((bodies, node, depth)) = work.pop() {
        built.depth = built.depth.max(depth);
        let (parts, count) = parts(items, bodies);
        let mut made = Node::BLANK;
        for (k, part) in parts[..count].iter().enumerate() {
            made.set_box::<T>(k, (&part.bounds.min, &part.bounds.max));
            if part.count == 1 {
                made.child[k] = Child::Body(items.first_id(part) as usize).raw();
            } else if part.count > leave {
                // A placeholder, not EMPTY, so that the lane's box is encoded: `append` sets it.
                made.child[k] = 0;
                built.left.push(Left {
                    bodies: *part,
                    node: node as u32,
                    lane: k,
                    depth,
                });
            } else {
                let index = built.nodes.len();
                built.nodes.push(Packed::BLANK);
                work.push((*part, index, depth + 1));
                made.child[k] = index as u32;
            }
        }
        built.nodes[node] = Packed::pack(&made, &mut built.full, QUANTISED, depth <= whole);
    }
    built
}

/// [`build_nodes`] over each of `parts` (whose items are `items`), whole: on rayon's threads with the
/// `rayon` feature.
fn build_each<T: Real, const D: usize>(
    items: Vec<Items<'_, T, D>>,
    parts: &[Subset<D>],
    whole: &[usize],
) -> Vec<Built<D>> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        items
            .into_par_iter()
            .zip(parts.par_iter().zip(whole.par_iter()))
            .map(|(mut items, (part, &whole))| build_nodes(&mut items, *part, usize::MAX, whole))
            .collect()
    }
    #[cfg(not(feature = "rayon"))]
    {
        items
            .into_iter()
            .zip(parts.iter().zip(whole))
            .map(|(mut items, (part, &whole))| build_nodes(&mut items, *part, usize::MAX, whole))
            .collect()
    }
}

/// The parts a node's `bodies` are split into, and how many: `bodies` in two, then, while the
/// node has a free lane, the part of largest area among those of more than [`WIDTH`] bodies in
/// two again, or where there is none, the smallest part of two or three bodies (the widest of
/// those); a part of [`WIDTH`] bodies or one body stays whole, unless the node has no more
/// bodies than lanes, and takes each as a child. A part of two to [`WIDTH`] bodies
/// becomes a node of single bodies: splitting one of two saves that node, one of three costs
/// none, one of four would make two nodes of one, so the nodes stay full (fewer nodes per body
/// than splitting the widest part of any size; `docs/performance.md`, "Against obvhs 0.4").
fn parts<T: Real, const D: usize>(
    items: &mut Items<T, D>,
    bodies: Subset<D>,
) -> ([Subset<D>; WIDTH], usize) {
    let mut parts = [bodies; WIDTH];
    let mut count = 1;
    while count < WIDTH {
        let area = |k: usize| parts[k].bounds.area();
        let large = (0..count)
            .filter(|&k| parts[k].count > WIDTH)
            .max_by(|&a, &b| area(a).total_cmp(&area(b)));
        // A node of at most `WIDTH` bodies holds them all.
        let most = if bodies.count <= WIDTH {
            WIDTH + 1
        } else {
            WIDTH
        };
        let small = || {
            (0..count)
                .filter(|&k| (2..most).contains(&parts[k].count))
                .min_by(|&a, &b| {
                    (parts[a].count.cmp(&parts[b].count)).then(area(b).total_cmp(&area(a)))
                })
        };
        let Some(k) = large.or_else(small) else {
            break;
        };
        [parts[k], parts[count]] = items.split(&parts[k]);
        count += 1;
    }
    (parts, count)
}
