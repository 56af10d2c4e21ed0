//! The spike's second way to make its nodes: built directly, top down, by the builder's own
//! binned SAH splits (`src/scene/build/split.rs`), each node's bodies split until it has eight
//! parts or no part is worth splitting (the four-wide builder's rule, `src/scene/build/mod.rs`,
//! for eight lanes and leaves): the part of largest area of more than eight bodies (or than a
//! leaf's, where leaves hold more) first; then, with leaves of one, the smallest part of two or
//! more, so that a node of a few bodies takes them all as children; with larger leaves, the part
//! of largest area of more than a leaf holds. Each child's box is its bodies' boxes' union grown
//! and rounded outward as a four-wide child's is ([`grown`]), so every argument of
//! `src/scene/probe/` holds of it.

use alloc::vec::Vec;

use super::super::build::split::{ItemStore, Subset};
use super::super::node::{LOWER, UPPER, grown};
use super::super::plain::{Scene, box_of};
use super::planes::{Planes8, WideNode};
use super::{COUNT, LANES, LEAF};
use crate::real::Real;
use crate::traits::Cast;

impl<const D: usize> Planes8<D> {
    /// `scene`'s bodies in wide nodes built directly, with leaves of up to `leaf` bodies
    /// (`1..=8`); fewer than `2^28` bodies.
    pub(super) fn built<T: Real, S: Cast<T, D>>(scene: &Scene<T, D, S>, leaf: usize) -> Self {
        let mut wide = Planes8::new();
        let (mut store, all) = ItemStore::new(scene.bodies.iter().map(box_of));
        let Some(all) = all else {
            return wide;
        };
        let mut items = store.view();
        wide.nodes.push(WideNode::BLANK);
        let mut work = alloc::vec![(all, 0usize, 1usize)];
        let split_above = LANES.max(leaf);
        while let Some((bodies, at, depth)) = work.pop() {
            wide.depth = wide.depth.max(depth);
            let mut parts: Vec<Subset<D>> = alloc::vec![bodies];
            while parts.len() < LANES {
                let area = |k: usize| parts[k].bounds.area();
                let largest = |above: usize| {
                    (0..parts.len())
                        .filter(|&k| parts[k].count > above)
                        .max_by(|&a, &b| area(a).total_cmp(&area(b)))
                };
                let next = largest(split_above).or_else(|| {
                    if leaf == 1 {
                        // A node of at most eight bodies holds them all.
                        let most = if bodies.count <= LANES {
                            LANES + 1
                        } else {
                            LANES
                        };
                        (0..parts.len())
                            .filter(|&k| (2..most).contains(&parts[k].count))
                            .min_by(|&a, &b| {
                                (parts[a].count.cmp(&parts[b].count))
                                    .then(area(b).total_cmp(&area(a)))
                            })
                    } else {
                        largest(leaf)
                    }
                });
                let Some(k) = next else { break };
                let [left, right] = items.split(&parts[k]);
                parts[k] = left;
                parts.push(right);
            }
            let mut made = WideNode::BLANK;
            for (k, part) in parts.iter().enumerate() {
                let (lower, upper) = grown::<T, D>((&part.bounds.min, &part.bounds.max));
                for i in 0..D {
                    made.planes[LOWER][i][k] = lower[i];
                    made.planes[UPPER][i][k] = upper[i];
                }
                made.child[k] = if part.count == 1 {
                    LEAF | items.first_id(part)
                } else if part.count <= leaf {
                    let start = wide.ids.len() as u32;
                    wide.ids.extend(items.ids(part));
                    LEAF | (part.count as u32 - 1) << COUNT | start
                } else {
                    let index = wide.nodes.len();
                    wide.nodes.push(WideNode::BLANK);
                    work.push((*part, index, depth + 1));
                    index as u32
                };
            }
            wide.nodes[at] = made;
        }
        wide
    }
}
