//! Wide nodes whose boxes are stored in 8-bit steps: 64 bytes a node in three dimensions (per
//! axis eight lower and eight upper steps, the grid's `f32` origin and its step's exponent, and
//! the mask of used lanes), the node's children stored contiguously in breadth-first order and its
//! leaves' ids in a run, both found from base indices kept apart ([`Links`]), so that a node is
//! one cache line. Each axis's grid and each bound's step are chosen as
//! `src/scene/node/packed.rs` chooses them for four lanes ([`AxisSteps`]), whose argument (a
//! decoded plane is the grid value itself, never inside the bound) does not depend on the number
//! of lanes; every node encoded here is decoded again and checked.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use super::super::node::packed::AxisSteps;
use super::super::node::{LOWER, UPPER};
use super::super::packet::lanes::Eight;
use super::planes::Planes8;
use super::traverse::{Lines, Store};
use super::{COUNT, LANES, LEAF, NONE, START};

/// A node of eight children, their boxes in steps: `steps[LOWER][i][k]` and
/// `steps[UPPER][i][k]` are child `k`'s bounds on axis `i`, `origin[i] + q·2^(scale[i] − 127)`.
#[derive(Clone, Copy, Debug)]
#[repr(C)]
pub(super) struct StepNode<const D: usize> {
    steps: [[[u8; LANES]; D]; 2],
    origin: [f32; D],
    scale: [u8; D],
    /// The used lanes, as bits.
    used: u8,
}

/// Where a node's children are: its child nodes from `nodes` on, in lane order, and its leaves'
/// bodies' ids from `ids` on in [`Steps8::ids`], in lane order; `leaves` and `inner` the lanes
/// of each, as bits.
#[derive(Clone, Copy, Debug)]
struct Links {
    nodes: u32,
    ids: u32,
    leaves: u8,
    inner: u8,
}

/// Wide nodes in steps, the root first, breadth first; each node's links; the leaves' ids;
/// or, where `inline`, each node's children beside its steps.
#[doc(hidden)]
#[derive(Clone, Debug)]
pub struct Steps8<const D: usize> {
    nodes: Vec<Lined<D>>,
    links: Vec<Links>,
    ids: Vec<u32>,
    inline: Vec<Inline<D>>,
    depth: usize,
}

/// A node in steps on a cache line of its own.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Lined<const D: usize>(StepNode<D>);

/// A node in steps with its children beside it: 96 bytes in three dimensions.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
struct Inline<const D: usize> {
    node: StepNode<D>,
    child: [u32; LANES],
}

impl<const D: usize> Steps8<D> {
    /// `planes`'s nodes (whose leaves hold one body each) in steps, their children found from
    /// links or (`inline`) beside them; `None` where a node's boxes do not encode.
    pub(super) fn of(planes: &Planes8<D>, inline: bool) -> Option<Self> {
        let mut stepped = Steps8 {
            nodes: Vec::new(),
            links: Vec::new(),
            ids: Vec::new(),
            inline: Vec::new(),
            depth: planes.depth,
        };
        if planes.nodes.is_empty() {
            return Some(stepped);
        }
        let mut queue = VecDeque::from([0u32]);
        let mut placed = 1u32;
        while let Some(old) = queue.pop_front() {
            let node = &planes.nodes[old as usize];
            let mut links = Links {
                nodes: placed,
                ids: stepped.ids.len() as u32,
                leaves: 0,
                inner: 0,
            };
            let mut used = 0u8;
            for (k, &child) in node.child.iter().enumerate() {
                if child == NONE {
                    continue;
                }
                used |= 1 << k;
                if child & LEAF != 0 {
                    debug_assert_eq!(child >> COUNT & 7, 0, "leaves of one body");
                    links.leaves |= 1 << k;
                    stepped.ids.push(child & START);
                } else {
                    links.inner |= 1 << k;
                    queue.push_back(child);
                    placed += 1;
                }
            }
            let mut made = StepNode {
                steps: [[[255; LANES]; D], [[0; LANES]; D]],
                origin: [0.0; D],
                scale: [127; D],
                used,
            };
            for i in 0..D {
                let lanes = (0..LANES).filter(|&k| used >> k & 1 != 0);
                let low = lanes
                    .clone()
                    .map(|k| node.planes[LOWER][i][k])
                    .fold(f32::INFINITY, f32::min);
                let high = lanes
                    .clone()
                    .map(|k| node.planes[UPPER][i][k])
                    .fold(f32::NEG_INFINITY, f32::max);
                let (grid, scale) = AxisSteps::of(low, high)?;
                made.origin[i] = grid.origin();
                made.scale[i] = scale;
                for k in lanes {
                    for side in [LOWER, UPPER] {
                        made.steps[side][i][k] = grid.step(side, node.planes[side][i][k]);
                    }
                    let step = f32::from_bits(u32::from(scale) << 23);
                    let decoded =
                        |side: usize| made.origin[i] + f32::from(made.steps[side][i][k]) * step;
                    assert!(
                        decoded(LOWER) <= node.planes[LOWER][i][k]
                            && node.planes[UPPER][i][k] <= decoded(UPPER),
                        "a decoded box holds its child's"
                    );
                }
            }
            if inline {
                let child = core::array::from_fn(|k| {
                    if used >> k & 1 == 0 {
                        NONE
                    } else if links.leaves >> k & 1 != 0 {
                        node.child[k]
                    } else {
                        links.nodes + (u32::from(links.inner) & ((1 << k) - 1)).count_ones()
                    }
                });
                stepped.inline.push(Inline { node: made, child });
            } else {
                stepped.nodes.push(Lined(made));
                stepped.links.push(links);
            }
        }
        if inline {
            stepped.ids = Vec::new();
        }
        Some(stepped)
    }

    /// Node `index`'s steps.
    #[inline(always)]
    fn node(&self, index: u32) -> &StepNode<D> {
        if self.inline.is_empty() {
            &self.nodes[index as usize].0
        } else {
            &self.inline[index as usize].node
        }
    }
}

impl<const D: usize> Store<D> for Steps8<D> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.nodes.len() + self.inline.len()
    }

    #[inline(always)]
    fn depth(&self) -> usize {
        self.depth
    }

    fn bytes(&self) -> usize {
        self.nodes.len() * (core::mem::size_of::<Lined<D>>() + core::mem::size_of::<Links>())
            + self.ids.len() * 4
            + self.inline.len() * core::mem::size_of::<Inline<D>>()
    }

    #[inline(always)]
    fn meets<L: Eight>(&self, index: u32, lines: &Lines<L, D>, cutoff: f32) -> (u32, L) {
        let node = self.node(index);
        let (met, enter) = lines.meets(
            |side, i| {
                let step = f32::from_bits(u32::from(node.scale[i]) << 23);
                L::bytes(&node.steps[side][i])
                    .exact_mul_add(L::splat(step), L::splat(node.origin[i]))
            },
            cutoff,
        );
        (met & u32::from(node.used), enter)
    }

    #[inline(always)]
    fn child(&self, index: u32, k: usize) -> u32 {
        if !self.inline.is_empty() {
            return self.inline[index as usize].child[k];
        }
        let links = &self.links[index as usize];
        let below = (1u32 << k) - 1;
        if links.leaves >> k & 1 != 0 {
            let rank = (u32::from(links.leaves) & below).count_ones();
            LEAF | self.ids[(links.ids + rank) as usize]
        } else {
            links.nodes + (u32::from(links.inner) & below).count_ones()
        }
    }

    #[inline(always)]
    fn leaf(&self, child: u32) -> (u32, &[u32]) {
        (child & START, &[])
    }

    #[inline(always)]
    fn prefetch_node(&self, index: u32) {
        use super::super::prefetch::prefetch;
        if self.inline.is_empty() {
            prefetch(self.nodes.as_ptr().wrapping_add(index as usize));
            prefetch(self.links.as_ptr().wrapping_add(index as usize));
        } else {
            prefetch(self.inline.as_ptr().wrapping_add(index as usize));
        }
    }

    #[inline(always)]
    fn leaf_start(&self, _: u32) -> Option<*const u32> {
        None
    }
}
