//! The hierarchy's nodes as stored: each child's box in 8-bit steps on a grid of the node's own,
//! a node of four children in one 64-byte cache line (three dimensions), half of a
//! [`Wide`] node's 112 bytes. The queries read a node through [`Packed::wide`], which gives the
//! boxes back as `f32` planes, exactly as the argument below says, so that the `f32` lanes' test
//! (`src/scene/narrow.rs`) and the `f64` probe (`src/scene/probe.rs`) hold unchanged.
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
//! The encoder takes each child's box as the [`Wide`] node has it (grown and rounded outward to
//! `f32`, `src/scene/wide.rs`), picks the smallest step whose grid spans all of them from an
//! origin at or below the lowest lower bound, and gives each lower bound the largest `q` whose
//! grid value is at most the bound, each upper bound the smallest whose value is at least it:
//! it estimates `q` in `f64`, then decodes it as above and steps it down (or up) until the
//! decoded plane lies outside the bound; `q = 0` and `q = 255` always do, since the grid spans
//! the bounds. So every decoded box holds the `f32` box the [`Wide`] node would have held, and
//! everything the probes' arguments say of that box holds of the decoded one.
//!
//! A node whose boxes have an infinite bound (bodies beyond `f32`'s range), or whose grid
//! would need a step beyond `2^104`, is stored whole: its [`Wide`] form in the hierarchy's list
//! of full nodes' planes, which [`Packed::full`] indexes. An unused child's planes are `255` and `0`;
//! [`Packed::wide`] gives it the empty box `+∞` to `−∞` that the probes expect.

use num_traits::Float;

use super::wide::{EMPTY, LOWER, Planes, Sides, UPPER, WIDTH, Wide, lanes};

/// A node, stored: 64 bytes in two and three dimensions.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(crate) struct Packed<const D: usize> {
    /// Per axis, the grid's origin.
    origin: [f32; D],
    /// The children, as in [`Wide::child`].
    pub(crate) child: [u32; WIDTH],
    /// `steps[LOWER][i][k]`, `steps[UPPER][i][k]`: child `k`'s bounds on axis `i`, in steps.
    steps: [[[u8; WIDTH]; D]; 2],
    /// Per axis, the step's exponent `e` biased by 127: the bits of the `f32` `2^e` above its
    /// 23 bits of fraction.
    scale: [u8; D],
    /// [`QUANTISED`], or the index of this node's [`Wide`] form in the hierarchy's full nodes.
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
    pub(crate) fn wide(&self, full: &[Planes<D>]) -> Wide<D> {
        if self.full != QUANTISED {
            return Wide {
                planes: full[self.full as usize],
                child: self.child,
            };
        }
        let used = self.used();
        let planes = core::array::from_fn(|side| {
            let empty = if side == LOWER {
                f32::INFINITY
            } else {
                f32::NEG_INFINITY
            };
            core::array::from_fn(|i| {
                let decoded = self.side(side, i);
                core::array::from_fn(|k| {
                    if used >> k & 1 != 0 {
                        decoded[k]
                    } else {
                        empty
                    }
                })
            })
        });
        Wide {
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
    pub(crate) fn encode(node: &Wide<D>) -> Option<Self> {
        let mut packed = Packed {
            origin: [0.0; D],
            child: node.child,
            steps: [[[255; WIDTH]; D], [[0; WIDTH]; D]],
            scale: [0; D],
            full: QUANTISED,
        };
        let used = |k: usize| node.child[k] != EMPTY;
        for i in 0..D {
            let (mut low, mut high) = (f32::INFINITY, f32::NEG_INFINITY);
            for k in (0..WIDTH).filter(|&k| used(k)) {
                low = low.min(node.planes[LOWER][i][k]);
                high = high.max(node.planes[UPPER][i][k]);
            }
            if low > high {
                (low, high) = (0.0, 0.0);
            }
            let (origin, e) = grid(f64::from(low), f64::from(high))?;
            let step = power_of_two(e);
            let (at, by) = (origin as f32, step as f32);
            let decoded = |q: u8| at + f32::from(q) * by;
            packed.origin[i] = at;
            packed.scale[i] = (e + 127) as u8;
            for k in (0..WIDTH).filter(|&k| used(k)) {
                let (lower, upper) = (node.planes[LOWER][i][k], node.planes[UPPER][i][k]);
                let mut q = estimate(Float::floor((f64::from(lower) - origin) / step));
                while decoded(q) > lower {
                    q -= 1;
                }
                packed.steps[LOWER][i][k] = q;
                let mut q = estimate(Float::ceil((f64::from(upper) - origin) / step));
                while decoded(q) < upper {
                    q += 1;
                }
                packed.steps[UPPER][i][k] = q;
            }
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
}

impl<const D: usize> Sides<D> for Packed<D> {
    /// The decoded bounds, as the module's documentation says (an unused child's are finite:
    /// [`Packed::used`] tells them apart).
    #[inline(always)]
    fn side(&self, side: usize, i: usize) -> [f32; WIDTH] {
        let step = f32::from_bits(u32::from(self.scale[i]) << 23);
        widen(self.steps[side][i]).map(|q| self.origin[i] + q * step)
    }
}

/// Four steps as `f32`s: two unpacks and one conversion on x86-64.
#[inline(always)]
fn widen(q: [u8; WIDTH]) -> [f32; WIDTH] {
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

/// `x` (an integer) held to `0..=255`.
fn estimate(x: f64) -> u8 {
    x.clamp(0.0, 255.0) as u8
}

/// `2^e`, for `e` within `f64`'s normal exponents.
fn power_of_two(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

/// The grid for bounds from `low` to `high` (finite, `low ≤ high`): the origin and the smallest
/// step's exponent `e` in `LOWEST..=HIGHEST` such that the origin is a multiple of `2^e` at or
/// below `low`, `origin + 255·2^e` reaches `high`, and both have magnitudes below `2^(e+24)`;
/// `None` where there is none.
fn grid(low: f64, high: f64) -> Option<(f64, i32)> {
    if !(low.is_finite() && high.is_finite()) {
        return None;
    }
    // A first guess: the exponent of the extent over 255, and of the largest bound's ulp.
    let exponent = |x: f64| ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023;
    let magnitude = low.abs().max(high.abs());
    let mut e = exponent((high - low) / 255.0)
        .max(exponent(magnitude) - 24)
        .max(LOWEST);
    while e <= HIGHEST {
        let step = power_of_two(e);
        let origin = Float::floor(low / step) * step;
        let top = origin + 255.0 * step;
        let bound = power_of_two(e + 24);
        if top >= high && origin.abs() < bound && top.abs() < bound {
            return Some((origin, e));
        }
        e += 1;
    }
    None
}
