//! Coherent rays traced together: packets of up to [`LANES`] rays whose directions share the
//! signs of their components (one octant), each node's children tested against every ray of the
//! packet at once, lanes across rays (Wald, Slusallek, Benthin and Wagner, "Interactive rendering
//! with coherent ray tracing", Eurographics 2001; the masked packet traversal of Wald, Benthin
//! and Boulos, "Getting rid of packets", RT 2008, keeps one mask of active rays per stacked child).
//!
//! Each ray keeps what its single cast keeps: its own line ([`F32Probe`], the same parameters in
//! the same `f32` operations, so the argument of `src/scene/probe/f32.rs` holds lane by lane),
//! its own limit, best answer and entry cutoff. A child is stacked with the rays that meet it
//! (each ray's entry no further than its entry cutoff) and each of their entries; when it is
//! popped, the rays whose entry cutoff has since fallen below their entry are dropped from it,
//! and a body is cast only for the rays left. A child is so dropped for a ray only where its
//! entry exceeds the ray's entry cutoff, which never falls below that of the ray's final answer:
//! the child that holds the final answer, whose entry is at most that (the probe's argument), is
//! never dropped, and equal entries are still visited, for the lowest id. So the body of each
//! ray's answer is cast for it, every body cast is one the loop casts too, and the best answer
//! over them, nearest and then lowest id ([`better`]), is the loop's: each answer is the single
//! cast's, bit for bit. Only the order of the visits differs: a packet visits the child whose
//! first ray enters it nearest first.
//!
//! Packets are made of consecutive rays of a batch given in order ([`Coherence`]: a camera's
//! pixels, a beam's rays), in one octant, whose origins `f32` holds; the other rays are cast one
//! at a time. The node test runs in [`lanes::Eight`] lanes, AVX where the CPU has it
//! (`src/batch/dispatch.rs`), portable elsewhere, with the same bits.
//!
//! The traversal is its own, not the one descent of `src/scene/traverse.rs` (`descend!`): a
//! stacked child carries the rays that meet it and each one's entry (sixteen lanes), where the
//! descent's entries are a child and one key.
//!
pub(super) mod lanes;

use alloc::vec::Vec;

use lanes::Eight;

use super::answer::BodyHit;
use super::node::packed::{Packed, QUANTISED};
use super::node::{Sides, WIDTH, body_of};
use super::plain::Scene;
use super::probe::{F32Probe, entry_cutoff};
use super::traverse::{better, stack_size};
use crate::batch::dispatch::{Job, Registers, with_vector_registers};
use crate::batch::lanes::Four;
use crate::core::exact::Products;
use crate::ray::Ray;
use crate::real::Real;
use crate::traits::Cast;

/// The most rays a packet holds: two 256-bit registers of `f32`s (sixteen measured faster per ray
/// than eight or thirty-two, `docs/performance.md`, "Ray batches").
const LANES: usize = 16;

/// A packet's rays in one child's bits.
const RAYS: u64 = (1 << LANES) - 1;

/// The groups of eight lanes a packet's rays take.
const HALVES: usize = LANES / 8;

/// The rays a thread of a parallel batch takes at a time.
#[cfg(feature = "rayon")]
const TASK: usize = 256;

/// The fewest coherent rays traced as a packet; fewer are cast one at a time.
const FEWEST: usize = 4;

// A node's children's ray bits fit in one `u64`, [`LANES`] bits a child; the lanes go in eights.
const _: () = assert!(LANES * WIDTH <= 64 && LANES.is_multiple_of(8));

/// A packet's lines, lane `j` for ray `j`, all in one octant.
struct Packet<const D: usize> {
    /// Per axis, whether the directions are negative there (the near plane is the upper bound).
    negative: [bool; D],
    /// Per axis and ray, the origin moved from the near and the far plane, and the reciprocals
    /// ([`F32Probe`]'s).
    near: [[f32; LANES]; D],
    far: [[f32; LANES]; D],
    to_near: [[f32; LANES]; D],
    to_far: [[f32; LANES]; D],
    /// The rays held, as bits.
    rays: u32,
}

impl<const D: usize> Packet<D> {
    /// An empty packet.
    fn new() -> Self {
        Packet {
            negative: [false; D],
            near: [[0.0; LANES]; D],
            far: [[0.0; LANES]; D],
            to_near: [[0.0; LANES]; D],
            to_far: [[0.0; LANES]; D],
            rays: 0,
        }
    }

    /// Adds `probe` in lane `j` if it is the first or lies in the packet's octant; whether it
    /// did.
    fn add(&mut self, j: usize, probe: &F32Probe<D>) -> bool {
        let slabs = probe.slabs();
        if self.rays == 0 {
            self.negative = slabs.negative;
        } else if self.negative != slabs.negative {
            return false;
        }
        for i in 0..D {
            self.near[i][j] = slabs.near[i];
            self.far[i][j] = slabs.far[i];
            self.to_near[i][j] = slabs.to_near[i];
            self.to_far[i][j] = slabs.to_far[i];
        }
        self.rays |= 1 << j;
        true
    }

    /// The rays that meet each child of `node` with an entry no further than their limit
    /// `cutoffs` (8 bits a child, child `k`'s from bit `8k`), and their entries, in lanes `L`.
    #[inline(always)]
    fn meets<L: Eight>(
        &self,
        node: &impl Sides<D>,
        cutoffs: &[f32; LANES],
        enters: &mut [[f32; LANES]; WIDTH],
    ) -> u64 {
        let mut near = [[0.0f32; WIDTH]; D];
        let mut far = [[0.0f32; WIDTH]; D];
        for i in 0..D {
            near[i] = node.side(usize::from(self.negative[i]), i);
            far[i] = node.side(usize::from(!self.negative[i]), i);
        }
        let mut met = 0;
        for h in 0..HALVES {
            let cutoff = L::load(eight(cutoffs, h));
            for k in 0..WIDTH {
                let mut enter = L::splat(0.0);
                let mut exit = cutoff;
                for i in 0..D {
                    let to_near = L::splat(near[i][k])
                        .sub(L::load(eight(&self.near[i], h)))
                        .mul(L::load(eight(&self.to_near[i], h)));
                    let to_far = L::splat(far[i][k])
                        .sub(L::load(eight(&self.far[i], h)))
                        .mul(L::load(eight(&self.to_far[i], h)));
                    enter = to_near.above(enter);
                    exit = to_far.below(exit);
                }
                met |= u64::from(enter.at_most(exit)) << (LANES * k + 8 * h);
                enter.store(eight_mut(&mut enters[k], h));
            }
        }
        met
    }
}

/// Lanes `8h..8h + 8` of `lanes`.
#[inline(always)]
fn eight(lanes: &[f32; LANES], h: usize) -> &[f32; 8] {
    lanes[8 * h..][..8].try_into().expect("eight lanes")
}

/// Lanes `8h..8h + 8` of `lanes`, to write.
#[inline(always)]
fn eight_mut(lanes: &mut [f32; LANES], h: usize) -> &mut [f32; 8] {
    (&mut lanes[8 * h..][..8]).try_into().expect("eight lanes")
}

/// The lanes where `a` is at most `b`, as bits, in lanes `L`.
#[inline(always)]
fn at_most<L: Eight>(a: &[f32; LANES], b: &[f32; LANES]) -> u32 {
    (0..HALVES).fold(0, |bits, h| {
        bits | L::load(eight(a, h)).at_most(L::load(eight(b, h))) << (8 * h)
    })
}

/// A child yet to visit, the rays that meet it, and their entries.
#[derive(Clone, Copy)]
struct Stacked {
    child: u32,
    rays: u32,
    enter: [f32; LANES],
}

impl<T: Real, const D: usize, S> Scene<T, D, S> {
    /// Prefetches the children of `node` in `kept` (bits).
    #[inline(always)]
    fn prefetch_kept(&self, node: &Packed<D>, kept: u32) {
        let mut rest = kept;
        while rest != 0 {
            self.prefetch_child(node.child[rest.trailing_zeros() as usize]);
            rest &= rest - 1;
        }
    }

    /// The first answer of each ray of `packet` (lane by lane), as [`Scene::first`] gives it for
    /// the ray alone within `max[j]`: `cast(j, id, body)` casts ray `j` at body `id`. A lane
    /// whose limit is negative or a NaN answers nothing, as the single cast does.
    #[inline(always)]
    fn first_packet<L: Eight, A: Copy>(
        &self,
        packet: &Packet<D>,
        max: &[f64; LANES],
        stack: &mut [Stacked],
        mut cast: impl FnMut(usize, usize, &S) -> Option<(f64, A)>,
    ) -> [Option<(usize, A)>; LANES] {
        let mut best: [Option<(usize, A)>; LANES] = [None; LANES];
        let mut best_at: [Option<(usize, f64)>; LANES] = [None; LANES];
        let ahead = (0..LANES).fold(0, |bits, j| bits | u32::from(max[j] >= 0.0) << j);
        if self.hierarchy.nodes.is_empty() || packet.rays & ahead == 0 {
            return best;
        }
        let mut cutoffs = max.map(entry_cutoff);
        'traverse: {
            let mut top = 0;
            let (mut child, mut rays) = (0u32, packet.rays & ahead);
            let mut enters = [[0.0f32; LANES]; WIDTH];
            loop {
                if let Some(id) = body_of(child) {
                    let mut left = rays;
                    while left != 0 {
                        let j = left.trailing_zeros() as usize;
                        left &= left - 1;
                        if let Some((d, answer)) = cast(j, id, &self.bodies[id])
                            && better(best_at[j], id, d)
                        {
                            best[j] = Some((id, answer));
                            best_at[j] = Some((id, d));
                            cutoffs[j] = entry_cutoff(d);
                        }
                    }
                } else {
                    let node = &self.hierarchy.nodes[child as usize];
                    let mut met = if node.full == QUANTISED {
                        packet.meets::<L>(node, &cutoffs, &mut enters)
                    } else {
                        packet.meets::<L>(
                            &self.hierarchy.full[node.full as usize],
                            &cutoffs,
                            &mut enters,
                        )
                    };
                    // The rays of this child in each child's bits, and the unused children's
                    // cleared.
                    let used = node.used();
                    let (spread, every) = (0..WIDTH).fold((0, 0), |(spread, every), k| {
                        (
                            spread | (u64::from(used >> k & 1) * RAYS) << (LANES * k),
                            every | u64::from(rays) << (LANES * k),
                        )
                    });
                    met &= every & spread;
                    let mut keys = [f32::INFINITY; WIDTH];
                    let mut kept = 0u32;
                    for k in 0..WIDTH {
                        let bits = met >> (LANES * k) & RAYS;
                        keys[k] = enters[k][(bits | 1 << LANES).trailing_zeros() as usize % LANES];
                        kept |= u32::from(bits != 0) << k;
                    }
                    if kept != 0 {
                        self.prefetch_kept(node, kept);
                        // The nearest visited next, the others stacked farthest first.
                        let mut order = [0usize; WIDTH];
                        let mut count = 0;
                        let mut rest = kept;
                        while rest != 0 {
                            order[count] = rest.trailing_zeros() as usize;
                            rest &= rest - 1;
                            count += 1;
                        }
                        order[..count].sort_unstable_by(|&a, &b| keys[b].total_cmp(&keys[a]));
                        for &k in &order[..count - 1] {
                            stack[top] = Stacked {
                                child: node.child[k],
                                rays: (met >> (LANES * k) & RAYS) as u32,
                                enter: enters[k],
                            };
                            top += 1;
                        }
                        let k = order[count - 1];
                        (child, rays) = (node.child[k], (met >> (LANES * k) & RAYS) as u32);
                        continue;
                    }
                }
                // The next child: the top of the stack, with the rays still cutoffs their limit.
                loop {
                    if top == 0 {
                        break 'traverse;
                    }
                    top -= 1;
                    let entry = &stack[top];
                    (child, rays) = (
                        entry.child,
                        entry.rays & at_most::<L>(&entry.enter, &cutoffs),
                    );
                    if rays != 0 {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// A batch's rays, traced in packets where they are coherent (the work
/// [`with_vector_registers`] runs in the registers it picks): ray `i` within `limit(i)`, over
/// the bodies `filter` keeps.
struct Batch<'a, T: Real, const D: usize, S, M, F> {
    scene: &'a Scene<T, D, S>,
    rays: &'a [Ray<T, D>],
    limit: M,
    filter: F,
    hits: &'a mut [Option<BodyHit<T, D>>],
}

impl<T, const D: usize, S, M, F> Job for Batch<'_, T, D, S, M, F>
where
    T: Real,
    S: Cast<T, D>,
    M: Fn(usize) -> T,
    F: Fn(usize) -> bool,
{
    type Output = ();

    #[inline(always)]
    fn run<V: Four>(self, _: Products, registers: Registers) {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        if registers >= Registers::Avx2 {
            return self.trace::<lanes::Avx8>();
        }
        let _ = registers;
        self.trace::<lanes::F32x8>()
    }
}

impl<T, const D: usize, S, M, F> Batch<'_, T, D, S, M, F>
where
    T: Real,
    S: Cast<T, D>,
    M: Fn(usize) -> T,
    F: Fn(usize) -> bool,
{
    /// Every ray's answer: runs of coherent rays ([`Coherence`]) of at least [`FEWEST`] traced
    /// as packets of up to [`LANES`] in lanes `L`, the other rays cast one at a time.
    #[inline(always)]
    fn trace<L: Eight>(self) {
        let Batch {
            scene,
            rays,
            limit,
            filter,
            hits,
        } = self;
        let blank = Stacked {
            child: 0,
            rays: 0,
            enter: [0.0; LANES],
        };
        let mut stack: Vec<Stacked> = alloc::vec![blank; stack_size(scene.hierarchy.depth)];
        let coherence = Coherence::of(scene);
        let mut start = 0;
        while start < rays.len() {
            let run = coherence.map_or(1, |c| c.run(&rays[start..]));
            let mut packet = Packet::new();
            let mut taken = 0;
            if run >= FEWEST {
                for ray in &rays[start..start + run] {
                    match F32Probe::of(ray, 0.0) {
                        Some(probe) if packet.add(taken, &probe) => taken += 1,
                        _ => break,
                    }
                }
            }
            if taken < FEWEST {
                hits[start] = scene.cast_ray_filtered(&rays[start], limit(start), &filter);
                start += 1;
                continue;
            }
            let group = &rays[start..start + taken];
            let limits: [T; LANES] = core::array::from_fn(|j| limit(start + j.min(taken - 1)));
            let max = limits.map(Real::to_wide);
            let answers = scene.first_packet::<L, _>(&packet, &max, &mut stack, |j, id, body| {
                if !filter(id) {
                    return None;
                }
                body.cast_ray(&group[j], limits[j])
                    .map(|hit| (hit.distance.to_wide(), hit))
            });
            for (hit, answer) in hits[start..start + taken].iter_mut().zip(answers) {
                *hit = answer.map(|(body, hit)| BodyHit { body, hit });
            }
            start += taken;
        }
    }
}

/// When consecutive rays are traced as one packet: their origins lie within the bodies'
/// spacing of the first's (`extent / n^(1/D)` for `n` bodies whose box is `extent` across on its
/// widest axis, as a coordinate difference), and their unit directions differ from the first's
/// by at most `n^(-1/D)` in each component, so that the rays stay about a spacing apart across the
/// scene. A camera's neighbouring pixels and a beam's neighbouring rays are; rays from scattered
/// points, or from one point in scattered directions, are not, and a packet of them would visit
/// the nodes of each ray in turn, at sixteen rays' cost each.
#[derive(Clone, Copy)]
struct Coherence {
    /// The largest difference of origins' coordinates.
    apart: f64,
    /// The largest difference of directions' components.
    turned: f64,
}

impl Coherence {
    /// The test for `scene`'s rays; `None` where its box is empty, a point or not finite.
    fn of<T: Real, const D: usize, S>(scene: &Scene<T, D, S>) -> Option<Self> {
        if scene.hierarchy.nodes.is_empty() {
            return None;
        }
        let (low, high) = scene.hierarchy.node(0).union();
        let extent = (0..D).fold(0.0, |m: f64, i| {
            m.max(f64::from(high[i]) - f64::from(low[i]))
        });
        let root = num_traits::Float::powf(scene.bodies.len() as f64, 1.0 / D as f64);
        let turned = 1.0 / root;
        (extent.is_finite() && extent > 0.0).then_some(Coherence {
            apart: extent * turned,
            turned,
        })
    }

    /// How many of `rays` from the first, up to [`LANES`], are coherent with the first.
    #[inline(always)]
    fn run<T: Real, const D: usize>(self, rays: &[Ray<T, D>]) -> usize {
        let first = &rays[0];
        let (o, n) = (first.origin(), first.dir());
        let mut count = 1;
        for ray in rays.iter().take(LANES).skip(1) {
            let close = (0..D).all(|i| {
                (ray.origin()[i].to_wide() - o[i].to_wide()).abs() <= self.apart
                    && (ray.dir()[i].to_wide() - n[i].to_wide()).abs() <= self.turned
            });
            if !close {
                break;
            }
            count += 1;
        }
        count
    }
}

impl<T: Real, const D: usize, S: Cast<T, D>> Scene<T, D, S> {
    /// `hits[i] = self.cast_ray_filtered(&rays[i], limit(i), &filter)` for every ray (`rays` and
    /// `hits` of one length), coherent rays traced as packets (the module's documentation), in
    /// the widest registers up to AVX2 the CPU has.
    pub(crate) fn cast_in_packets(
        &self,
        rays: &[Ray<T, D>],
        limit: impl Fn(usize) -> T,
        filter: impl Fn(usize) -> bool,
        hits: &mut [Option<BodyHit<T, D>>],
    ) {
        let batch = Batch {
            scene: self,
            rays,
            limit,
            filter,
            hits,
        };
        with_vector_registers(Registers::Avx2, batch);
    }

    /// [`Scene::cast_in_packets`] with one limit for every ray, on rayon's threads, [`TASK`]
    /// rays at a time: the same answers.
    #[cfg(feature = "rayon")]
    pub(crate) fn cast_in_packets_par(
        &self,
        rays: &[Ray<T, D>],
        max_distance: T,
        hits: &mut [Option<BodyHit<T, D>>],
    ) where
        Self: Sync,
    {
        use rayon::prelude::*;
        rays.par_chunks(TASK)
            .zip(hits.par_chunks_mut(TASK))
            .for_each(|(rays, hits)| {
                self.cast_in_packets(rays, |_| max_distance, |_| true, hits);
            });
    }
}
