//! The hierarchy's nodes as stored: each child's box in 8-bit steps on a grid of the node's own,
//! a node of four children in one 64-byte cache line (three dimensions), where a [`Node`] node
//! of `f32` planes takes 112 bytes. A query reads a node's steps decoded to `f32` planes
//! ([`Sides`] for the first hits' test, [`Packed::raw`] for the unordered visits, [`Packed::decode`] where the
//! unused children's boxes must be empty), exactly as the argument below says, so that the `f32`
//! lanes' test (`src/scene/probe/f32.rs`) and the `f64` probe (`src/scene/probe/mod.rs`) hold unchanged.
//!
//! The layout follows the compressed wide BVHs (Ylitie, Karras and Laine, "Efficient incoherent
//! ray traversal on GPUs through compressed wide BVHs", High Performance Graphics 2017: a
//! per-node origin, a power-of-two step per axis, 8-bit planes), whose quantisation floors and
//! ceils in `f32` with no proof that the decoded box holds the child's; here it is proven, and
//! every encoded plane is checked where it is made.
//!
//! # Why a decoded box holds the child's
//!
//! On axis `i`, a node's grid is `oᵢ + q·2^e` for `q` in `0..=255`, with a step `2^e`
//! (`−126 ≤ e ≤ 104`) and an origin `oᵢ` that is a multiple of `2^e`, chosen so that every grid
//! value, `oᵢ` and `oᵢ + 255·2^e` included, has a magnitude below `2^(e+24)`. Each grid value is
//! then an integer multiple `m·2^e` with `|m| < 2^24`: an `f32` (normal, since `e ≥ −126`, and
//! finite, since `e ≤ 104`). Decoding computes `q` as `f32` (exact), `q·2^e` (exact: 8
//! significant bits), and `oᵢ + q·2^e`, whose exact value is a grid value, hence an `f32`, which
//! IEEE addition returns unrounded. So the decoded plane is the grid value itself, on every
//! machine, whether or not the compiler fuses the product and the sum.
//!
//! The encoder takes each child's box as the [`Node`] node has it (grown and rounded outward to
//! `f32`, `src/scene/node/mod.rs`), picks a step of at least `1/254` of the children's union's
//! extent (the smallest power of two that, from an origin within a step below the lowest lower
//! bound, spans the highest upper bound, and is no finer than the bounds' ulp), and gives each
//! lower bound the largest `q` whose grid value is at most the bound, each upper bound the
//! smallest whose value is at least it. It estimates `q` as the quotient `(bound − origin)·2^-e`
//! in `f32`, held to `0..=255` and rounded to the nearest whole number: the quotient has one
//! rounding (of the difference), so it lies within `2^-16` of the exact one `x`, and the
//! estimate within `1/2 + 2^-16` of `x`: at most `⌊x⌋ + 1` and at least `⌈x⌉ − 1`. It then decodes
//! the estimate as above and steps it down (for a lower bound) or up (an upper one) where the
//! decoded plane lies inside the bound; `q = 0` decodes to the origin, at most the lowest bound,
//! and `q = 255` to at least the highest, so no step leaves `0..=255`. So every decoded box holds
//! the `f32` box the [`Node`] node would have held, and everything the probes' arguments say of
//! that box holds of the decoded one; a debug build re-decodes every node it encodes and checks
//! it, which every scene test exercises.
//!
//! A node whose boxes have an infinite bound (bodies beyond `f32`'s range), or whose grid would
//! need a step beyond `2^104` (a union wider than `254·2^104`, or reaching that close to
//! `f32::MAX`), is stored whole, and so are the top three levels of nodes, which every query reads
//! (`src/scene/node/mod.rs`): the [`Node`] node's planes go to the hierarchy's list of full nodes'
//! planes, which [`Packed::full`] indexes. An unused child's steps are `255` and `0`:
//! [`Packed::decode`] gives it the empty box `+∞` to `−∞` that the probes expect, and the other
//! reads drop it by its id ([`Packed::used`]).

use alloc::vec::Vec;

use super::{EMPTY, LOWER, Node, Planes, Sides, UPPER, WIDTH, lanes};

/// A node, stored: 64 bytes in two and three dimensions.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Packed<const D: usize> {
    /// Per axis, the grid's origin.
    origin: [f32; D],
    /// The children, as in [`Node::child`].
    pub(crate) child: [u32; WIDTH],
    /// `steps[LOWER][i][k]`, `steps[UPPER][i][k]`: child `k`'s bounds on axis `i`, in steps.
    steps: [[[u8; WIDTH]; D]; 2],
    /// Per axis, the step's exponent `e` biased by 127: the bits of the `f32` `2^e` above its
    /// 23 bits of fraction.
    scale: [u8; D],
    /// [`QUANTISED`], or the index of this node's planes in the hierarchy's full nodes' planes.
    pub(crate) full: u32,
}

/// [`Packed::full`] of a node whose boxes are stored in steps.
pub(crate) const QUANTISED: u32 = u32::MAX;

/// The smallest and largest exponents of a step.
const LOWEST: i32 = -126;
const HIGHEST: i32 = 104;

impl<const D: usize> Packed<D> {
    /// The node, decoded: each used child's box as the module's documentation says, the unused
    /// ones empty. `full` is the hierarchy's list of full nodes' planes.
    #[inline(always)]
    pub(crate) fn decode(&self, full: &[Planes<D>]) -> Node<D> {
        let mut node = self.raw(full);
        let used = self.used();
        for k in (0..WIDTH).filter(|&k| used >> k & 1 == 0) {
            for i in 0..D {
                node.planes[LOWER][i][k] = f32::INFINITY;
                node.planes[UPPER][i][k] = f32::NEG_INFINITY;
            }
        }
        node
    }

    /// The node, decoded as [`Packed::decode`] does but for its unused children, whose boxes are
    /// left finite (the caller drops them by [`Packed::used`]): the cheaper read of the unordered visits.
    #[inline(always)]
    pub(crate) fn raw(&self, full: &[Planes<D>]) -> Node<D> {
        let planes = if self.full == QUANTISED {
            core::array::from_fn(|side| core::array::from_fn(|i| self.side(side, i)))
        } else {
            full[self.full as usize]
        };
        Node {
            planes,
            child: self.child,
        }
    }

    /// The used children, as bits (bit `k` for child `k`).
    #[inline(always)]
    pub(crate) fn used(&self) -> u32 {
        lanes(|k| self.child[k] != EMPTY)
    }
    /// `node` in steps, or `None` where it must be stored whole (the module's documentation).
    pub(crate) fn encode(node: &Node<D>) -> Option<Self> {
        let mut packed = Packed {
            origin: [0.0; D],
            child: node.child,
            steps: [[[255; WIDTH]; D], [[0; WIDTH]; D]],
            scale: [0; D],
            full: QUANTISED,
        };
        let used: [bool; WIDTH] = core::array::from_fn(|k| node.child[k] != EMPTY);
        let (lowest, highest) = node.union();
        for i in 0..D {
            let (mut low, mut high) = (lowest[i], highest[i]);
            if low > high {
                (low, high) = (0.0, 0.0);
            }
            let (grid, scale) = AxisSteps::of(low, high)?;
            packed.origin[i] = grid.origin();
            packed.scale[i] = scale;
            packed.steps[LOWER][i] = grid.steps(LOWER, node.planes[LOWER][i], &used);
            packed.steps[UPPER][i] = grid.steps(UPPER, node.planes[UPPER][i], &used);
        }
        Some(packed)
    }

    /// A node of no children.
    pub(crate) const BLANK: Self = Packed {
        origin: [0.0; D],
        child: [EMPTY; WIDTH],
        steps: [[[255; WIDTH]; D], [[0; WIDTH]; D]],
        scale: [127; D],
        full: QUANTISED,
    };

    /// `node` in steps, or whole (where `whole`, or where it must be), its planes in `full` (at
    /// `was`, if it is an index there).
    pub(crate) fn pack(node: &Node<D>, full: &mut Vec<Planes<D>>, was: u32, whole: bool) -> Self {
        let encoded = if whole { None } else { Packed::encode(node) };
        // Every node of every scene a debug build makes (the tests') is decoded and checked.
        debug_assert!(
            encoded.is_none_or(|packed| packed.decode(&[]).holds(node)),
            "a decoded node holds its children's boxes: {node:?}"
        );
        encoded.unwrap_or_else(|| {
            let mut packed = Self::BLANK;
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
}

impl<const D: usize> Sides<D> for Packed<D> {
    /// The decoded bounds, as the module's documentation says (an unused child's are finite:
    /// [`Packed::used`] tells them apart).
    #[inline(always)]
    fn side(&self, side: usize, i: usize) -> [f32; WIDTH] {
        let step = f32::from_bits(u32::from(self.scale[i]) << 23);
        as_floats(self.steps[side][i]).map(|q| self.origin[i] + q * step)
    }
}

/// Four steps as `f32`s: two unpacks and one conversion on x86-64.
#[inline(always)]
fn as_floats(q: [u8; WIDTH]) -> [f32; WIDTH] {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{
            _mm_cvtepi32_ps, _mm_cvtsi32_si128, _mm_setzero_si128, _mm_unpacklo_epi8,
            _mm_unpacklo_epi16,
        };
        #[allow(unsafe_code)]
        // SAFETY: the intrinsics need SSE2, which every x86-64 target has; `__m128` and
        // `[f32; 4]` have the same size, and every bit pattern is valid for both.
        unsafe {
            let zero = _mm_setzero_si128();
            let bytes = _mm_cvtsi32_si128(i32::from_le_bytes(q));
            let lanes = _mm_cvtepi32_ps(_mm_unpacklo_epi16(_mm_unpacklo_epi8(bytes, zero), zero));
            core::mem::transmute::<core::arch::x86_64::__m128, [f32; WIDTH]>(lanes)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    q.map(f32::from)
}

/// An axis's grid, in `f32`: the origin `at`, the step `by` (`2^e`) and `per` (`2^-e`).
#[derive(Clone, Copy)]
pub(crate) struct AxisSteps {
    at: f32,
    by: f32,
    per: f32,
}

impl AxisSteps {
    /// Child by child, the step of each bound of `bounds`, `side`'s (the module's
    /// documentation): the quotient `(bound − origin)·2^-e` in `f32`, held to `0..=255` and
    /// rounded to the nearest whole number (at most one step above the lower `q` sought and one
    /// below the upper one), then one check; an unused child's steps are `255` (lower) and `0`.
    /// The checks' outcomes are added as whole numbers, not branched on: they are as
    /// unpredictable as the bounds' fractions of a step. On x86-64, in SSE2 lanes
    /// (`cvtps2dq` rounds to nearest, `packssdw`/`packuswb` give the bytes).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn steps(self, side: usize, bounds: [f32; WIDTH], used: &[bool; WIDTH]) -> [u8; WIDTH] {
        use core::arch::x86_64::{
            _mm_add_epi32, _mm_add_ps, _mm_and_si128, _mm_andnot_si128, _mm_castps_si128,
            _mm_cmpgt_ps, _mm_cmplt_ps, _mm_cvtepi32_ps, _mm_cvtps_epi32, _mm_cvtsi128_si32,
            _mm_max_ps, _mm_min_ps, _mm_mul_ps, _mm_or_si128, _mm_packs_epi32, _mm_packus_epi16,
            _mm_set1_epi32, _mm_set1_ps, _mm_setr_epi32, _mm_setr_ps, _mm_setzero_ps,
            _mm_sub_epi32, _mm_sub_ps,
        };
        #[allow(unsafe_code)]
        // SAFETY: the intrinsics need SSE and SSE2, which every x86-64 target has; none reads
        // or writes memory.
        unsafe {
            let [b0, b1, b2, b3] = bounds;
            let b = _mm_setr_ps(b0, b1, b2, b3);
            let at = _mm_set1_ps(self.at);
            let x = _mm_mul_ps(_mm_sub_ps(b, at), _mm_set1_ps(self.per));
            let x = _mm_min_ps(_mm_max_ps(x, _mm_setzero_ps()), _mm_set1_ps(255.0));
            let q = _mm_cvtps_epi32(x);
            let plane = _mm_add_ps(at, _mm_mul_ps(_mm_cvtepi32_ps(q), _mm_set1_ps(self.by)));
            // A comparison's lanes are `-1` where it holds: one step down, or up.
            let (q, unused) = if side == LOWER {
                (
                    _mm_add_epi32(q, _mm_castps_si128(_mm_cmpgt_ps(plane, b))),
                    255,
                )
            } else {
                (
                    _mm_sub_epi32(q, _mm_castps_si128(_mm_cmplt_ps(plane, b))),
                    0,
                )
            };
            let keep = used.map(|used| -i32::from(used));
            let keep = _mm_setr_epi32(keep[0], keep[1], keep[2], keep[3]);
            let q = _mm_or_si128(
                _mm_and_si128(keep, q),
                _mm_andnot_si128(keep, _mm_set1_epi32(unused)),
            );
            let bytes = _mm_packus_epi16(_mm_packs_epi32(q, q), q);
            _mm_cvtsi128_si32(bytes).to_le_bytes()
        }
    }

    /// [`AxisSteps::steps`] elsewhere: rounding by adding and taking away `2^23`.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn steps(self, side: usize, bounds: [f32; WIDTH], used: &[bool; WIDTH]) -> [u8; WIDTH] {
        core::array::from_fn(|k| {
            let keep = u8::from(used[k]).wrapping_neg();
            let unused = if side == LOWER { 255 } else { 0 };
            self.step(side, bounds[k]) & keep | unused & !keep
        })
    }

    /// The step of `bound`, `side`'s, one at a time: as [`AxisSteps::steps`] does for a lane,
    /// rounding by adding and taking away `2^23`.
    #[inline(always)]
    pub(crate) fn step(self, side: usize, bound: f32) -> u8 {
        /// `2^23`: a whole number below it plus `2^23` has its value in the low bits.
        const MAGIC: f32 = 8_388_608.0;
        let AxisSteps { at, by, per } = self;
        let x = ((bound - at) * per).clamp(0.0, 255.0);
        let q = (x + MAGIC) - MAGIC;
        let plane = at + q * by;
        let moved = if side == LOWER {
            u8::from(plane > bound).wrapping_neg()
        } else {
            u8::from(plane < bound)
        };
        ((q + MAGIC).to_bits() as u8).wrapping_add(moved)
    }

    /// The grid of steps for bounds from `low` to `high` (`f32`s, `low ≤ high`), as
    /// [`Packed::encode`] chooses it for an axis, and its step's exponent biased by 127; `None`
    /// where the node must be stored whole.
    pub(crate) fn of(low: f32, high: f32) -> Option<(Self, u8)> {
        let (origin, e) = grid(f64::from(low), f64::from(high))?;
        let at = origin as f32;
        let steps = AxisSteps {
            at,
            by: power_of_two(e) as f32,
            per: power_of_two(-e) as f32,
        };
        Some((steps, (e + 127) as u8))
    }

    /// The grid's origin.
    pub(crate) fn origin(self) -> f32 {
        self.at
    }
}

/// `2^e`, for `e` within `f64`'s normal exponents.
#[inline(always)]
fn power_of_two(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// The grid for bounds from `low` to `high` (finite, `low ≤ high`): the origin and a step's
/// exponent `e` in `LOWEST..=HIGHEST` such that the origin is a multiple of `2^e` at or below
/// `low`, `origin + 255·2^e` reaches `high`, and both have magnitudes below `2^(e+24)`: the
/// smallest `e` whose step is at least `(high − low)/254` and the largest bound's ulp, or the
/// next, which always meets the tests where the first falls short; `None` where neither is in
/// range.
#[inline(always)]
fn grid(low: f64, high: f64) -> Option<(f64, i32)> {
    if !(low.is_finite() && high.is_finite()) {
        return None;
    }
    let exponent = |x: f64| ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    // A step of at least `(high − low)/254` (here within an ulp of it) spans the bounds from any
    // origin within a step below `low`; one at least the largest bound's ulp is needed for the
    // grid to be `f32`s. Twice that step spans them with room, and with both bounds below
    // `2^(e+24)` its origin and top are below `2^(e+25)`: so the next exponent passes where
    // the first fails. (Two tries, not a loop: the compiler vectorised a loop over `e`, at
    // 300 instructions a turn.)
    let least = (high - low) * (1.0 / 254.0);
    let spans = exponent(least) + i32::from(least.to_bits() & ((1 << 52) - 1) != 0);
    let magnitude = low.abs().max(high.abs());
    let e = spans.max(exponent(magnitude) - 23).max(LOWEST);
    on_grid(low, high, e).or_else(|| on_grid(low, high, e + 1))
}

/// The origin of the grid of step `2^e` for bounds from `low` to `high`, where `e` is at most
/// [`HIGHEST`] and the grid meets the tests [`grid`] names.
#[inline(always)]
fn on_grid(low: f64, high: f64, e: i32) -> Option<(f64, i32)> {
    let step = power_of_two(e);
    // `low / step` is exact (a power of two apart) and below `2^25` in magnitude here, or the
    // origin fails the test below: its floor by truncation, one less below zero.
    let steps = low * power_of_two(-e);
    let whole = steps as i64;
    let origin = (whole - i64::from((whole as f64) > steps)) as f64 * step;
    let top = origin + 255.0 * step;
    let bound = power_of_two(e + 24);
    (e <= HIGHEST && top >= high && origin.abs() < bound && top.abs() < bound)
        .then_some((origin, e))
}

#[cfg(test)]
mod tests {
    use super::super::{EMPTY, LOWER, Node, UPPER, WIDTH};
    use super::Packed;

    /// A generator of `f32` bounds over many magnitudes: each a random sign, significand and
    /// exponent in `lowest..=highest`, or zero.
    struct Bits(u64);

    impl Bits {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn value(&mut self, lowest: i32, highest: i32) -> f32 {
            let r = self.next();
            if r.is_multiple_of(17) {
                return 0.0;
            }
            let e = lowest + (r >> 8) as i32 % (highest - lowest + 1);
            let bits = ((e + 127) as u32) << 23 | (r >> 40) as u32 & 0x7f_ffff;
            let v = if e < -126 {
                // A subnormal: the significand alone.
                f32::from_bits((r >> 40) as u32 & 0x7f_ffff)
            } else {
                f32::from_bits(bits)
            };
            if r & 1 == 0 { v } else { -v }
        }
    }

    /// A node whose `used` children have boxes from `a` and `b` on each axis, ordered.
    fn node(bits: &mut Bits, used: usize, lowest: i32, highest: i32) -> Node<3> {
        let mut node = Node::BLANK;
        for k in 0..used {
            node.child[k] = k as u32;
            for i in 0..3 {
                let (a, b) = (bits.value(lowest, highest), bits.value(lowest, highest));
                node.planes[LOWER][i][k] = a.min(b);
                node.planes[UPPER][i][k] = a.max(b);
            }
        }
        node
    }

    /// Nodes of one to four children whose bounds span every magnitude `f32` has, mixed within a
    /// node (subnormals beside `10^38`), and within narrow ranges: every node that encodes
    /// decodes to boxes that hold its children's, its unused children stay empty, and the only
    /// nodes that do not encode are those the module's documentation names.
    #[test]
    fn decoded_boxes_hold_the_children_s() {
        let mut bits = Bits(0x9e37_79b9_7f4a_7c15);
        let mut encoded = 0;
        for round in 0..200_000 {
            let (lowest, highest) = match round % 4 {
                0 => (-149, 127),
                1 => (-149, -120),
                2 => (100, 127),
                _ => {
                    let e = (bits.next() % 250) as i32 - 125;
                    (e, e + 1)
                }
            };
            let used = 1 + round % WIDTH;
            let made = node(&mut bits, used, lowest, highest);
            let Some(packed) = Packed::encode(&made) else {
                // Only where a step of `2^104` is too fine: a union wider than `254·2^104`
                // (`5.2·10^33`) on some axis, or one reaching within that of `f32::MAX`.
                let (mut extent, mut magnitude) = (0.0f64, 0.0f64);
                for i in 0..3 {
                    let (lo, hi) = (0..used).fold((f64::MAX, f64::MIN), |(lo, hi), k| {
                        (
                            lo.min(f64::from(made.planes[LOWER][i][k])),
                            hi.max(f64::from(made.planes[UPPER][i][k])),
                        )
                    });
                    extent = extent.max(hi - lo);
                    magnitude = magnitude.max(hi.abs()).max(lo.abs());
                }
                let widest = 254.0 * 2f64.powi(104);
                assert!(
                    extent > widest / 2.0 || magnitude > f64::from(f32::MAX) - widest,
                    "{made:?} did not encode"
                );
                continue;
            };
            encoded += 1;
            let decoded = packed.decode(&[]);
            assert!(decoded.holds(&made), "{made:?} decoded as {decoded:?}");
            for k in used..WIDTH {
                assert_eq!(decoded.child[k], EMPTY);
                for i in 0..3 {
                    assert_eq!(decoded.planes[LOWER][i][k], f32::INFINITY);
                    assert_eq!(decoded.planes[UPPER][i][k], f32::NEG_INFINITY);
                }
            }
        }
        assert!(encoded > 130_000, "{encoded} of 200000 encoded");
    }

    /// Infinite bounds (bodies beyond `f32`'s range) leave a node whole; a box of one point and
    /// one of the largest finite extent still encode or not as the grid allows.
    #[test]
    fn infinite_bounds_keep_the_node_whole() {
        let mut node = Node::<3>::BLANK;
        node.child[0] = 0;
        for i in 0..3 {
            node.planes[LOWER][i][0] = 1.0;
            node.planes[UPPER][i][0] = 2.0;
        }
        assert!(Packed::encode(&node).is_some());
        node.planes[UPPER][1][0] = f32::INFINITY;
        assert!(Packed::encode(&node).is_none());
        node.planes[UPPER][1][0] = 2.0;
        node.planes[LOWER][2][0] = f32::NEG_INFINITY;
        assert!(Packed::encode(&node).is_none());
        node.planes[LOWER][2][0] = -f32::MAX;
        node.planes[UPPER][2][0] = f32::MAX;
        assert!(Packed::encode(&node).is_none());
        node.planes[LOWER][2][0] = 3.0e38;
        node.planes[UPPER][2][0] = 3.0e38;
        let packed = Packed::encode(&node).expect("a point near f32::MAX");
        assert!(packed.decode(&[]).holds(&node));
    }
}
