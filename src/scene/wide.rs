//! The hierarchy a scene traverses: nodes of [`WIDTH`] children, each child a node or a body,
//! with the children's boxes stored axis by axis, so that a query tests all of a node's
//! children in one pass over its lanes (`src/scene/probe.rs`).
//!
//! It is built top down by the splits of `src/scene/build.rs`: a node takes its bodies split in
//! two, then splits a part again, until it has [`WIDTH`] parts or every part fills a node of its
//! own ([`parts`]; after Wald, Benthin and Boulos, "Getting rid of packets: efficient SIMD
//! single-ray traversal using multi-branching BVHs", IEEE Symposium on Interactive Ray Tracing,
//! 2008); each part of several bodies becomes a node in turn. Since every body is a child of its
//! own, with its own box, a query tests a body's box before it loads the body, and the bodies a
//! node holds need not be stored next to each other.
//!
//! A child's box holds the union of the bodies' [`Shape::aabb`](crate::Shape::aabb) boxes below
//! it, grown on each axis by [`slack`] times the larger magnitude of its bounds there, and
//! rounded outward to `f32` in both widths: never tighter than what the child holds (the probe
//! adds the query's own share). In `f64`, `f32` bounds cost a box up to `2^-24` of its
//! coordinates' magnitude, so a scene of bodies smaller than about `10^-6` of their distance from
//! the origin traverses more nodes than it would with `f64` bounds (its answers are the same).
//! A node is stored with those boxes in 8-bit steps on a grid of its own, decoded exactly where it
//! is read (`src/scene/packed.rs`): 64 bytes in three dimensions, in both widths, where a node
//! of `f32` planes ([`Wide`]) takes 112.

use alloc::vec::Vec;
use core::marker::PhantomData;

use crate::real::Real;

use super::build::{Bounds, ItemStore, Items, Subset};
use super::packed::{Packed, QUANTISED};
use super::probe::Line;

/// The children of a node.
pub(crate) const WIDTH: usize = 4;

/// The flag of a child that is a body (its id in the other bits).
pub(crate) const BODY: u32 = 1 << 31;

/// An unused child (its box is empty, so no query enters it).
pub(crate) const EMPTY: u32 = u32::MAX;

/// The most bodies a scene holds: ids below `BODY - 1`, so that no body's child is [`EMPTY`].
pub(crate) const MAX_BODIES: usize = (BODY - 1) as usize;

/// How much a box grows, relative to the magnitudes of its bounds (and a probe's origin): `2^-18`
/// for `f32`, `2^-36` for `f64`. Far above either width's rounding, and above the errors of the
/// bodies' casts (`src/scene/probe.rs`).
#[inline(always)]
pub(crate) fn slack<T: Real>() -> f64 {
    if T::EPSILON_WIDE > f64::EPSILON {
        1.0 / 262_144.0
    } else {
        1.0 / 68_719_476_736.0
    }
}

/// The side of [`Wide::planes`] that holds the children's lower bounds.
pub(crate) const LOWER: usize = 0;

/// The side of [`Wide::planes`] that holds the children's upper bounds.
pub(crate) const UPPER: usize = 1;

/// A node's children's boxes: `planes[LOWER][i][k]` and `planes[UPPER][i][k]` are child `k`'s
/// bounds on axis `i`, the two sides side by side so that a query picks its near and far side by
/// index, once per ray.
pub(crate) type Planes<const D: usize> = [[[f32; WIDTH]; D]; 2];

/// A node's children's bounds, one side of one axis at a time: what the node tests read.
pub(crate) trait Sides<const D: usize> {
    /// The children's bounds on axis `i`, the lower ones for [`LOWER`], the upper for [`UPPER`].
    fn side(&self, side: usize, i: usize) -> [f32; WIDTH];
}

impl<const D: usize> Sides<D> for Planes<D> {
    #[inline(always)]
    fn side(&self, side: usize, i: usize) -> [f32; WIDTH] {
        self[side][i]
    }
}

impl<const D: usize> Sides<D> for Wide<D> {
    #[inline(always)]
    fn side(&self, side: usize, i: usize) -> [f32; WIDTH] {
        self.planes[side][i]
    }
}

/// A node as the queries read it: its children's boxes, lane `k` for child `k`, and the children
/// (a node's index, a body's id with [`BODY`], or [`EMPTY`]). The hierarchy stores it as a
/// [`Packed`] node (`src/scene/packed.rs`) and decodes it where it is read.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(16))]
pub(crate) struct Wide<const D: usize> {
    pub(crate) planes: Planes<D>,
    pub(crate) child: [u32; WIDTH],
}

impl<const D: usize> Wide<D> {
    /// A node of no children.
    pub(super) const BLANK: Self = Wide {
        planes: [[[f32::INFINITY; WIDTH]; D], [[f32::NEG_INFINITY; WIDTH]; D]],
        child: [EMPTY; WIDTH],
    };

    /// Sets child `k`'s box to `bounds`, grown as the module's documentation says.
    pub(super) fn set_box<T: Real>(&mut self, k: usize, bounds: &Bounds<D>) {
        for i in 0..D {
            let by = slack::<T>() * bounds.min[i].abs().max(bounds.max[i].abs());
            self.planes[LOWER][i][k] = <f32 as Real>::from_wide_down(bounds.min[i] - by);
            self.planes[UPPER][i][k] = <f32 as Real>::from_wide_up(bounds.max[i] + by);
        }
    }

    /// The union of the used children's boxes (already grown): empty (`+∞` to `−∞`) for a node
    /// of none. Unused lanes are masked by their ids rather than branched on.
    #[inline(always)]
    pub(super) fn union(&self) -> ([f32; D], [f32; D]) {
        let used: [u32; WIDTH] =
            core::array::from_fn(|k| u32::from(self.child[k] != EMPTY).wrapping_neg());
        let fold = |lanes: &[f32; WIDTH], none: f32, pick: fn(f32, f32) -> f32| {
            (0..WIDTH).fold(none, |best, k| {
                pick(
                    best,
                    f32::from_bits(lanes[k].to_bits() & used[k] | none.to_bits() & !used[k]),
                )
            })
        };
        (
            self.planes[LOWER].map(|l| fold(&l, f32::INFINITY, f32::min)),
            self.planes[UPPER].map(|l| fold(&l, f32::NEG_INFINITY, f32::max)),
        )
    }

    /// Whether each used child's box holds that of the same child in `other`.
    pub(super) fn holds(&self, other: &Self) -> bool {
        (0..WIDTH).filter(|&k| other.child[k] != EMPTY).all(|k| {
            let lower = core::array::from_fn(|i| other.planes[LOWER][i][k]);
            let upper = core::array::from_fn(|i| other.planes[UPPER][i][k]);
            self.lane_holds(k, (&lower, &upper))
        })
    }

    /// Whether child `k`'s box holds the box from `lower` to `upper`.
    pub(super) fn lane_holds(&self, k: usize, (lower, upper): (&[f32; D], &[f32; D])) -> bool {
        (0..D).all(|i| self.planes[LOWER][i][k] <= lower[i] && upper[i] <= self.planes[UPPER][i][k])
    }

    /// The lane of `child`.
    pub(super) fn lane_of(&self, child: u32) -> usize {
        self.child
            .iter()
            .position(|&c| c == child)
            .expect("a node holds its child")
    }
}

/// The lanes `0..WIDTH` for which `test` holds, as bits (bit `k` for lane `k`).
#[inline(always)]
pub(crate) fn lanes(test: impl Fn(usize) -> bool) -> u32 {
    (0..WIDTH).fold(0, |bits, k| bits | u32::from(test(k)) << k)
}

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
    /// The bodies inserted since the hierarchy was built (`src/scene/grow.rs`).
    pub(crate) inserted: usize,
    /// [`Hierarchy::depth`] as built: `Scene::push` builds anew once insertions have deepened the
    /// tree a few levels beyond it (`src/scene/grow.rs`).
    pub(crate) built_depth: usize,
    width: PhantomData<fn() -> T>,
}

impl<T: Real, const D: usize> Hierarchy<T, D> {
    /// The hierarchy over bodies with the given boxes (as `min`, `max` in the width; none NaN;
    /// at most [`MAX_BODIES`]).
    ///
    /// With the `rayon` feature, the parts below the top levels are built on rayon's threads,
    /// each into nodes of its own, then appended; the hierarchy is the same.
    pub(crate) fn build(boxes: impl ExactSizeIterator<Item = ([T; D], [T; D])>) -> Self {
        let count = boxes.len();
        let (mut store, all) = ItemStore::new(boxes);
        let mut hierarchy = Hierarchy {
            nodes: Vec::new(),
            full: Vec::new(),
            bodies: count,
            parents: Vec::new(),
            node_of: Vec::new(),
            depth: 0,
            inserted: 0,
            built_depth: 0,
            width: PhantomData,
        };
        let Some(all) = all else {
            return hierarchy;
        };
        let mut items = store.view();
        let top = grow(&mut items, all, subtree_size(count), WHOLE);
        let mut left = top.left.clone();
        left.sort_unstable_by_key(|part| part.bodies.first);
        let parts: Vec<Subset<D>> = left.iter().map(|part| part.bodies).collect();
        let whole: Vec<usize> = left
            .iter()
            .map(|part| WHOLE.saturating_sub(part.depth))
            .collect();
        let subtrees = grow_each(items.carve(&parts), &parts, &whole);
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

    /// Appends `grown`'s nodes, as the child that `part` left (or as the root).
    fn append(&mut self, grown: Grown<D>, part: Option<&Left<D>>) {
        let offset = self.nodes.len() as u32;
        match part {
            Some(part) => {
                self.nodes[part.node as usize].child[part.lane] = offset;
                self.depth = self.depth.max(part.depth + grown.depth);
            }
            None => self.depth = self.depth.max(grown.depth),
        }
        let whole = self.full.len() as u32;
        for mut node in grown.nodes {
            for child in &mut node.child {
                if *child & BODY == 0 {
                    *child += offset;
                }
            }
            if node.full != QUANTISED {
                node.full += whole;
            }
            self.nodes.push(node);
        }
        self.full.extend(grown.full);
    }

    /// Node `index`, decoded.
    #[inline(always)]
    pub(crate) fn node(&self, index: usize) -> Wide<D> {
        self.nodes[index].wide(&self.full)
    }

    /// Node `index`, decoded but for its unused children's boxes ([`Packed::raw`]), and its used
    /// children as bits.
    #[inline(always)]
    pub(crate) fn raw(&self, index: usize) -> (Wide<D>, u32) {
        let node = &self.nodes[index];
        (node.raw(&self.full), node.used())
    }

    /// The children of `node` that `line` meets with an entry of at most `reach`, and their
    /// entries ([`Line::meets`]), read from the node in steps or whole.
    #[inline(always)]
    pub(crate) fn meets(
        &self,
        line: &impl Line<D>,
        node: &Packed<D>,
        reach: f32,
    ) -> (u32, [f32; WIDTH]) {
        let (met, enter) = if node.full == QUANTISED {
            line.meets(node, reach)
        } else {
            line.meets(&self.full[node.full as usize], reach)
        };
        (met & node.used(), enter)
    }

    /// Node `index` becomes `node`: in steps, or whole where it must be (reusing its place in
    /// [`Hierarchy::full`] if it had one).
    pub(super) fn store(&mut self, index: usize, node: &Wide<D>) {
        let was = self.nodes[index].full;
        self.nodes[index] = pack(node, &mut self.full, was, was != QUANTISED);
    }

    /// A new node, `node`; its index.
    pub(super) fn add(&mut self, node: &Wide<D>) -> usize {
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
                if child == EMPTY {
                    continue;
                }
                if child & BODY != 0 {
                    self.node_of[(child & !BODY) as usize] = index as u32;
                } else {
                    self.parents[child as usize] = index as u32;
                }
            }
        }
    }

    /// Refits the boxes on the path from body `id` to the root to its box `(min, max)`, so that
    /// every node again holds its bodies, grown as at the build.
    pub(crate) fn refit(&mut self, id: usize, (min, max): ([T; D], [T; D])) {
        self.link();
        let node = self.node_of[id] as usize;
        let mut wide = self.node(node);
        let lane = wide.lane_of(BODY | id as u32);
        let bounds = Bounds {
            min: min.map(T::to_wide),
            max: max.map(T::to_wide),
        };
        wide.set_box::<T>(lane, &bounds);
        self.store(node, &wide);
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
            let mut wide = self.node(parent);
            let lane = wide.lane_of(node as u32);
            if growing && wide.lane_holds(lane, (&min, &max)) {
                node = parent;
                continue;
            }
            for i in 0..D {
                wide.planes[LOWER][i][lane] = min[i];
                wide.planes[UPPER][i][lane] = max[i];
            }
            self.store(parent, &wide);
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

/// The levels of nodes, from the root, stored whole (`f32` planes aside, `src/scene/packed.rs`):
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

/// `node` in steps, or whole (where `whole`, or where it must be), its planes in `full` (at
/// `was`, if it is an index there).
fn pack<const D: usize>(
    node: &Wide<D>,
    full: &mut Vec<Planes<D>>,
    was: u32,
    whole: bool,
) -> Packed<D> {
    let encoded = if whole { None } else { Packed::encode(node) };
    // Every node of every scene a debug build makes (the tests') is decoded and checked.
    debug_assert!(
        encoded.is_none_or(|packed| packed.wide(&[]).holds(node)),
        "a decoded node holds its children's boxes: {node:?}"
    );
    encoded.unwrap_or_else(|| {
        let mut packed = Packed::BLANK;
        packed.child = node.child;
        if was == QUANTISED {
            packed.full = full.len() as u32;
            full.push(node.planes);
        } else {
            packed.full = was;
            full[was as usize] = node.planes;
        }
        packed
    })
}

/// Nodes built over some of the bodies, indexed from their root (0).
struct Grown<const D: usize> {
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
/// left to [`Grown::left`]; the nodes at depths up to `whole` (the root's is 1) are stored whole.
fn grow<T: Real, const D: usize>(
    items: &mut Items<'_, T, D>,
    bodies: Subset<D>,
    leave: usize,
    whole: usize,
) -> Grown<D> {
    let mut grown = Grown {
        nodes: alloc::vec![Packed::BLANK],
        full: Vec::new(),
        depth: 0,
        left: Vec::new(),
    };
    // (bodies, the node that takes them, that node's depth)
    let mut work = alloc::vec![(bodies, 0usize, 1usize)];
    while let Some((bodies, node, depth)) = work.pop() {
        grown.depth = grown.depth.max(depth);
        let (parts, count) = parts(items, bodies);
        let mut wide = Wide::BLANK;
        for (k, part) in parts[..count].iter().enumerate() {
            wide.set_box::<T>(k, &part.bounds);
            if part.count == 1 {
                wide.child[k] = BODY | items.first_id(part);
            } else if part.count > leave {
                // A placeholder, not EMPTY, so that the lane's box is encoded: `append` sets it.
                wide.child[k] = 0;
                grown.left.push(Left {
                    bodies: *part,
                    node: node as u32,
                    lane: k,
                    depth,
                });
            } else {
                let index = grown.nodes.len();
                grown.nodes.push(Packed::BLANK);
                work.push((*part, index, depth + 1));
                wide.child[k] = index as u32;
            }
        }
        grown.nodes[node] = pack(&wide, &mut grown.full, QUANTISED, depth <= whole);
    }
    grown
}

/// [`grow`] over each of `parts` (whose items are `items`), whole: on rayon's threads with the
/// `rayon` feature.
fn grow_each<T: Real, const D: usize>(
    items: Vec<Items<'_, T, D>>,
    parts: &[Subset<D>],
    whole: &[usize],
) -> Vec<Grown<D>> {
    #[cfg(feature = "rayon")]
    {
        use rayon::prelude::*;
        items
            .into_par_iter()
            .zip(parts.par_iter().zip(whole.par_iter()))
            .map(|(mut items, (part, &whole))| grow(&mut items, *part, usize::MAX, whole))
            .collect()
    }
    #[cfg(not(feature = "rayon"))]
    {
        items
            .into_iter()
            .zip(parts.iter().zip(whole))
            .map(|(mut items, (part, &whole))| grow(&mut items, *part, usize::MAX, whole))
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
