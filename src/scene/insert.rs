//! A scene that grows ([`Scene::push`]): a body added to a built hierarchy goes where it adds
//! least to the hierarchy's cost, with the R-tree's split to keep the tree balanced:
//!
//! - down the path of least growth from the root, each place is priced as the area every box on
//!   the way gains, plus, for a free lane, the node's area (one more box for every query that
//!   enters it to test), or, beside a body, the area of a new node holding the two (Goldsmith and
//!   Salmon 1987; the cost of Bittner, Hapala and Havran 2013); the cheapest is taken;
//! - a place beside a body that would deepen the tree beyond its deepest body is not: there, as
//!   where no place is free, the body goes as an R-tree places an member (Guttman, "R-trees: a
//!   dynamic index structure for spatial searching", SIGMOD 1984): into the node without node
//!   children down the path of least growth; where it is full, its four children and the new
//!   one are split in two along the axis where their centres spread most (two and three, or
//!   three and two, whichever has the smaller sum of areas), and the new half is placed in the
//!   parent the same way, up to the root, which, split, gets a new root above it: the only way
//!   the tree's deepest body goes deeper, by one level for all, so that no order of bodies
//!   (sorted along a line, where placing each beside the last would make a chain) makes a chain;
//! - the boxes on the new body's path refitted, as for a move (`src/scene/hierarchy.rs`).
//!
//! A split node keeps its parent's box for it, which still holds what is left in it. Every box
//! holds what lies below it, grown as at the build, so the traversals' arguments hold unchanged.
//! A node changed here is decoded, changed and encoded again (`src/scene/node/packed.rs`): its other
//! children's boxes move to the new grid, outward by less than a step where it is coarser, and
//! exactly where it is as fine; so they grow no further than the coarsest grid the node has
//! had, however often it is refitted ([`Scene::rebuild`] restores the tightest boxes).
//! Each placement costs `O(depth)`. Placing bodies beside others deepens paths up to the deepest
//! one, and the R-tree's splits deepen the tree as it fills, so `Scene::push` builds the
//! hierarchy anew once the scene has doubled since its build or the tree has grown four levels
//! deeper than built (random sequential addition of `10^5` balls deepened it from 10 to 24
//! without), which restores its quality and keeps the cost amortised `O(log n)` per body.

use super::build::Bounds;
use super::hierarchy::Hierarchy;
use super::node::{Child, MAX_BODIES, Node, WIDTH};
use super::plain::{Scene, box_of};
use crate::real::Real;
use crate::traits::Cast;

/// How many levels [`Scene::push`] lets the hierarchy deepen beyond its depth as built before it
/// builds it anew.
const DEEPER: usize = 4;

impl<T: Real, const D: usize, S: Cast<T, D>> Scene<T, D, S> {
    /// Adds `body` and returns its id, the next index (`len()` before the call). Every query is
    /// exact at once: the body is placed where it adds least to the hierarchy's cost (beside a
    /// body, in a free place, or, where that would deepen the tree, by splitting full nodes as an
    /// R-tree does, so that the tree stays balanced in any order of bodies), and the hierarchy is
    /// built anew once the scene has doubled since it was last built, or the tree has grown four
    /// levels deeper than it was built: amortised `O(log n)` per body, a few times a body's share
    /// of a build. The first push (or [`Scene::set_body`]) after a build also links each node to
    /// its parent, which queries never need and a build does not keep: one pass over the nodes,
    /// a small part of the build. A scene grown one by one answers first hits a little slower
    /// than one built at once (as where half the bodies came after the last build, the most
    /// there can be); [`Scene::rebuild`] makes it one built at once. The measured figures are in
    /// `docs/performance.md`, "Growing scenes and `contains`".
    ///
    /// # Panics
    ///
    /// If the scene already holds `2^31 − 2` bodies.
    ///
    /// # Example
    ///
    /// ```
    /// use raysweep::nalgebra::{Point3, Vector3};
    /// use raysweep::{Ray, Scene, Sphere};
    ///
    /// // Random sequential addition: a ball is kept only where it overlaps none kept before.
    /// let mut scene: Scene<f64, 3, Sphere<f64>> = Scene::new(Vec::new());
    /// for k in 0..1000 {
    ///     let x = f64::from(k % 10) * 1.5;
    ///     let y = f64::from(k / 10 % 10) * 1.5;
    ///     let z = f64::from(k / 100) * 0.7;
    ///     let ball = Sphere::new(Point3::new(x, y, z), 0.5)?;
    ///     // Overlapping: some kept ball is nearer than 0.5 to the new centre.
    ///     let overlaps = scene.nearest(ball.center(), 0.5).is_some_and(|n| n.signed_distance < 0.5);
    ///     if !overlaps {
    ///         scene.push(ball);
    ///     }
    /// }
    /// assert_eq!(scene.len(), 500);
    /// let hit = scene.cast_ray(&Ray::new(Point3::new(0.0, 0.0, -5.0), Vector3::z())?, 100.0);
    /// assert_eq!(hit.map(|h| h.body), Some(0));
    /// # Ok::<(), raysweep::Error>(())
    /// ```
    pub fn push(&mut self, body: S) -> usize {
        let id = self.bodies.len();
        assert!(
            id + 1 < MAX_BODIES,
            "Scene::push: a scene holds fewer than 2^31 - 1 bodies"
        );
        let boxed = box_of(&body);
        self.bodies.push(body);
        self.hierarchy.insert(boxed);
        let grown = 2 * self.hierarchy.inserted > self.bodies.len();
        let deepened = self.hierarchy.depth > self.hierarchy.built_depth + DEEPER;
        if grown || deepened {
            self.rebuild();
        }
        id
    }
}

/// Where a new body goes ([`Hierarchy::spot_for`]).
enum Spot {
    /// Lane `k` of `node`, free.
    Lane(usize, usize),
    /// Beside the body in lane `k` of `node`, the two in a new node there.
    Pair(usize, usize),
    /// Into a node without node children, splitting it where it is full.
    Split,
}

/// A child and its box, on its way into a node.
#[derive(Clone, Copy)]
struct Member<const D: usize> {
    child: u32,
    lower: [f32; D],
    upper: [f32; D],
}

impl<const D: usize> Member<D> {
    /// Lane `k` of `node`.
    fn of(node: &Node<D>, k: usize) -> Self {
        let (lower, upper) = node.lane(k);
        Member {
            child: node.child[k],
            lower,
            upper,
        }
    }

    /// Lane `k` of `node` becomes this member.
    fn put(&self, node: &mut Node<D>, k: usize) {
        node.set_lane(k, (&self.lower, &self.upper));
        node.child[k] = self.child;
    }

    /// Its box's centre on axis `i`.
    fn centre(&self, i: usize) -> f64 {
        0.5 * (f64::from(self.lower[i]) + f64::from(self.upper[i]))
    }

    fn bounds(&self) -> Bounds<D> {
        Bounds {
            min: self.lower.map(f64::from),
            max: self.upper.map(f64::from),
        }
    }
}

/// The area (the SAH's cost to enter) of the union of `members`' boxes.
fn area_of<const D: usize>(members: &[Member<D>]) -> f64 {
    let mut union = Bounds::EMPTY;
    for e in members {
        union.grow(&e.bounds());
    }
    union.area()
}

impl<T: Real, const D: usize> Hierarchy<T, D> {
    /// Adds the next body (id `bodies`) with the box `(min, max)` (in the width; no NaN), as the
    /// module's documentation says.
    pub(crate) fn insert(&mut self, (min, max): ([T; D], [T; D])) {
        self.link();
        let id = self.bodies as u32;
        self.bodies += 1;
        self.node_of.push(0);
        self.inserted += 1;
        let mut holder = Node::BLANK;
        holder.set_box::<T>(0, (&min.map(T::to_wide), &max.map(T::to_wide)));
        holder.child[0] = Child::Body(id as usize).raw();
        let member = Member::of(&holder, 0);
        if self.nodes.is_empty() {
            self.add(&holder);
            self.parents.push(u32::MAX);
            self.depth = 1;
            return;
        }
        match self.spot_for(&member) {
            Spot::Lane(node, k) => self.set_lane(node, k, &member),
            Spot::Pair(node, k) => self.pair(node, k, &member),
            Spot::Split => {
                let (leaf, depth) = self.leaf_for(&member);
                self.depth = self.depth.max(depth);
                self.place(leaf, member);
            }
        }
        self.refit_from(self.node_of[id as usize] as usize, true);
    }

    /// Where `member` costs least (Goldsmith and Salmon, "Automatic creation of object hierarchies
    /// for ray tracing", IEEE CG&A 7(5), 1987; the cost as in Bittner, Hapala and Havran, "Fast
    /// insertion-based optimization of bounding volume hierarchies", CGF 32(1), 2013): down the
    /// path of least growth, the area every box on the way gains, plus, for a free lane, the
    /// node's area (one more box for every query entering it to test), or, beside a body, the
    /// area of the node that would hold the two. A pair that would deepen the tree beyond its
    /// deepest body is left to the R-tree's split.
    fn spot_for(&self, member: &Member<D>) -> Spot {
        let added = member.bounds();
        let (mut node, mut depth) = (0usize, 1usize);
        let root = {
            let (lower, upper) = self.node(0).union();
            Bounds {
                min: lower.map(f64::from),
                max: upper.map(f64::from),
            }
        };
        let grown = |b: &Bounds<D>| {
            let mut union = *b;
            union.grow(&added);
            union.area() - b.area()
        };
        // The area the boxes above `node` and `node`'s own gain, and `node`'s box.
        let mut induced = grown(&root);
        let mut node_box = root;
        let mut best: Option<(f64, Spot)> = None;
        loop {
            let decoded = &self.node(node);
            let mut down: Option<(f64, usize, Bounds<D>)> = None;
            for k in 0..WIDTH {
                let child = Child::of(decoded.child[k]);
                if child == Child::Empty {
                    // One more box for every query that enters the node to test.
                    let mut with = node_box;
                    with.grow(&added);
                    let cost = induced + with.area();
                    if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                        best = Some((cost, Spot::Lane(node, k)));
                    }
                    continue;
                }
                let lane = Member::of(decoded, k).bounds();
                if let Child::Node(below) = child {
                    let growth = grown(&lane);
                    if down.is_none_or(|(g, _, _)| growth < g) {
                        down = Some((growth, below, lane));
                    }
                } else {
                    let mut pair = lane;
                    pair.grow(&added);
                    let cost = induced + pair.area();
                    if depth < self.depth && best.as_ref().is_none_or(|(c, _)| cost < *c) {
                        best = Some((cost, Spot::Pair(node, k)));
                    }
                }
            }
            match down {
                Some((growth, child, lane))
                    if best.as_ref().is_none_or(|(c, _)| induced + growth < *c) =>
                {
                    induced += growth;
                    node_box = lane;
                    node = child;
                    depth += 1;
                }
                _ => break,
            }
        }
        best.map_or(Spot::Split, |(_, spot)| spot)
    }

    /// A new node in lane `k` of `node` holding the body there and `member`.
    fn pair(&mut self, node: usize, k: usize, member: &Member<D>) {
        let old = Member::of(&self.node(node), k);
        let pair = self.fresh(&node_of_members(&[old, *member]), node as u32);
        let (lower, upper) = self.node(pair).union();
        self.set_lane(
            node,
            k,
            &Member {
                child: pair as u32,
                lower,
                upper,
            },
        );
    }

    /// The node without node children that takes `member`, down the children whose boxes grow
    /// least, and its depth (the root's is 1).
    fn leaf_for(&self, member: &Member<D>) -> (usize, usize) {
        let (mut node, mut depth) = (0usize, 1usize);
        loop {
            let decoded = &self.node(node);
            let mut best: Option<(f64, f64, usize)> = None;
            for k in 0..WIDTH {
                let Child::Node(child) = Child::of(decoded.child[k]) else {
                    continue;
                };
                let lane = Member::of(decoded, k);
                let area = lane.bounds().area();
                let growth = area_of(&[lane, *member]) - area;
                if best.is_none_or(|(g, a, _)| growth < g || (growth == g && area < a)) {
                    best = Some((growth, area, child));
                }
            }
            match best {
                Some((_, _, child)) => {
                    node = child;
                    depth += 1;
                }
                None => return (node, depth),
            }
        }
    }

    /// Puts `member` into `node`: into a free lane, or by splitting the node (and its ancestors,
    /// as far as they are full).
    fn place(&mut self, node: usize, member: Member<D>) {
        let free = |&c: &u32| Child::of(c) == Child::Empty;
        if let Some(k) = self.nodes[node].child.iter().position(free) {
            self.set_lane(node, k, &member);
            return;
        }
        let mut members = [member; WIDTH + 1];
        let full = self.node(node);
        for (k, e) in members.iter_mut().take(WIDTH).enumerate() {
            *e = Member::of(&full, k);
        }
        let (kept, moved) = split(&mut members);
        let sibling = self.fresh(&node_of_members(moved), u32::MAX);
        self.fill(node, kept);
        let halves = |hierarchy: &Self, n: usize| {
            let (lower, upper) = hierarchy.node(n).union();
            Member {
                child: n as u32,
                lower,
                upper,
            }
        };
        if self.parents[node] == u32::MAX {
            // The root splits: its half moves out, and a new root takes both halves.
            let old = self.fresh(&self.node(node), u32::MAX);
            let (a, b) = (halves(self, old), halves(self, sibling));
            self.fill(node, &[a, b]);
            self.depth += 1;
        } else {
            let parent = self.parents[node] as usize;
            let half = halves(self, sibling);
            self.place(parent, half);
        }
    }

    /// Lane `k` of `node` becomes `member`, whose child `node` now holds.
    fn set_lane(&mut self, node: usize, k: usize, member: &Member<D>) {
        let mut decoded = self.node(node);
        member.put(&mut decoded, k);
        self.store(node, &decoded);
        self.adopt(node, member.child);
    }

    /// `node` becomes a node of `members` (at most [`WIDTH`]), whose children it now holds:
    /// encoded once.
    fn fill(&mut self, node: usize, members: &[Member<D>]) {
        self.store(node, &node_of_members(members));
        for member in members {
            self.adopt(node, member.child);
        }
    }

    /// A new node, `made`, whose children it now holds, under `parent` (`u32::MAX` where the
    /// caller places it later): encoded once. Its index.
    fn fresh(&mut self, made: &Node<D>, parent: u32) -> usize {
        let index = self.add(made);
        self.parents.push(parent);
        for &child in &made.child {
            self.adopt(index, child);
        }
        index
    }

    /// Records that `node` holds `child` (a body's node, or a node's parent; nothing for an
    /// unused child).
    fn adopt(&mut self, node: usize, child: u32) {
        match Child::of(child) {
            Child::Body(id) => self.node_of[id] = node as u32,
            Child::Node(below) => self.parents[below] = node as u32,
            Child::Empty => {}
        }
    }
}

/// The node of `members` (at most [`WIDTH`]), in lane order.
fn node_of_members<const D: usize>(members: &[Member<D>]) -> Node<D> {
    let mut made = Node::BLANK;
    for (k, member) in members.iter().enumerate() {
        member.put(&mut made, k);
    }
    made
}

/// `members` split in two, sorted along the axis where their centres spread most: the first two
/// and the last three, or the first three and the last two, whichever union of boxes has the
/// smaller sum of areas.
fn split<const D: usize>(members: &mut [Member<D>; WIDTH + 1]) -> (&[Member<D>], &[Member<D>]) {
    let spread = |i: usize| {
        let (lo, hi) = members
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), e| {
                (lo.min(e.centre(i)), hi.max(e.centre(i)))
            });
        hi - lo
    };
    let axis = (0..D)
        .max_by(|&a, &b| spread(a).total_cmp(&spread(b)))
        .unwrap_or(0);
    members.sort_unstable_by(|a, b| a.centre(axis).total_cmp(&b.centre(axis)));
    let cost = |at: usize| area_of(&members[..at]) + area_of(&members[at..]);
    let at = if cost(2) <= cost(3) { 2 } else { 3 };
    members.split_at(at)
}

#[cfg(test)]
mod tests {
    use alloc::vec::Vec;

    use super::super::hierarchy::Hierarchy;
    use super::super::node::Child;

    /// Checks that every lane's box holds the box of every body below it, that the back links
    /// agree, and returns the most nodes on a path from the root to a body.
    fn checked<const D: usize>(h: &Hierarchy<f64, D>, boxes: &[([f64; D], [f64; D])]) -> usize {
        let mut deepest = 0;
        let mut seen = alloc::vec![false; boxes.len()];
        let mut stack: Vec<(usize, usize)> = alloc::vec![(0, 1)];
        while let Some((node, depth)) = stack.pop() {
            for (k, &child) in h.node(node).child.iter().enumerate() {
                let id = match Child::of(child) {
                    Child::Empty => continue,
                    Child::Node(below) => {
                        assert_eq!(h.parents[below] as usize, node, "node {below}'s parent");
                        stack.push((below, depth + 1));
                        continue;
                    }
                    Child::Body(id) => id,
                };
                assert_eq!(h.node_of[id] as usize, node, "body {id}'s node");
                assert!(!seen[id], "body {id} twice");
                seen[id] = true;
                deepest = deepest.max(depth);
                // Up the path: each lane on it holds the body's box.
                let (lo, hi) = (boxes[id].0.map(|v| v as f32), boxes[id].1.map(|v| v as f32));
                let (mut holder, mut lane) = (node, k);
                loop {
                    assert!(h.node(holder).lane_holds(lane, (&lo, &hi)));
                    let parent = h.parents[holder];
                    if parent == u32::MAX {
                        break;
                    }
                    lane = h.node(parent as usize).lane_of(Child::Node(holder).raw());
                    holder = parent as usize;
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "every body placed");
        deepest
    }

    /// Bodies pushed one by one, in order along a line (where placing each beside the last would
    /// make a chain) and scattered, into an empty hierarchy and into a built one: every lane
    /// holds the bodies below it, the links agree, and the depth stays logarithmic.
    #[test]
    fn inserted_bodies_keep_the_tree_whole_and_balanced() {
        let line = |k: usize| {
            let x = k as f64;
            ([x, 0.0, 0.0], [x + 0.5, 1.0, 1.0])
        };
        let scattered = |k: usize| {
            let h = (k as f64 * 0.618_033_988_749_895).fract() * 1000.0;
            let v = (k as f64 * 0.414_213_562_373_095).fract() * 1000.0;
            ([h, v, h * 0.5], [h + 1.0, v + 1.0, h * 0.5 + 1.0])
        };
        for (make, start) in [(line as fn(usize) -> _, 0), (scattered, 0), (line, 500)] {
            let boxes: Vec<([f64; 3], [f64; 3])> = (0..3000).map(make).collect();
            let mut h: Hierarchy<f64, 3> = Hierarchy::build(boxes[..start].iter().copied());
            for (k, b) in boxes.iter().enumerate().skip(start) {
                h.insert(*b);
                if k % 500 == 499 {
                    let depth = checked(&h, &boxes[..=k]);
                    assert_eq!(depth, h.depth);
                    // Logarithmic (no chain), if not as shallow as a built tree: bodies placed
                    // beside others deepen paths up to the deepest one.
                    let bound = 3 * (k as f64 + 1.0).log2() as usize + 2;
                    assert!(depth <= bound, "depth {depth} for {} bodies", k + 1);
                }
            }
        }
    }
}
