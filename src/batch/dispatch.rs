//! The vector registers a batch's loop is compiled for ([`Registers`]): on x86, AVX2 or AVX-512
//! where the CPU has them, detected at run time (with `std`).
//!
//! Code compiled for the default x86-64 target may not use them, and a function compiled with a
//! target feature cannot be inlined into one without it. So [`with_vector_registers`] runs the
//! batch's loop inside a function compiled with the features (the crate's `unsafe` calls, each
//! guarded by the detection), where the loop and everything it inlines are compiled with them
//! too. The results are the same bits in every tier: the instructions differ in width, not in
//! rounding.

#[cfg(all(feature = "std", target_arch = "x86_64"))]
use super::avx::Avx4;
use super::lanes::{F64x4, Four};
use crate::core::exact::Products;
use crate::fused::detected_products;

/// The vector registers a batch's loop is compiled for, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Registers {
    /// The base target's: on x86-64, SSE2's sixteen of 128 bits, two lanes per instruction; on
    /// AArch64, NEON's.
    Base,
    /// AVX2 and FMA on x86: sixteen of 256 bits, four lanes per instruction.
    Avx2,
    /// AVX-512F and VL with AVX2 and FMA on x86-64: thirty-two of (up to) 512 bits and eight
    /// mask registers. The four lanes still take 256 bits; what a batch gains is the registers
    /// and the masks, with its rays read by vector loads (`batch::transpose`).
    Avx512,
}

impl Registers {
    /// The value of [`MAX_REGISTERS`] that names these registers.
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    fn named(name: &std::ffi::OsStr) -> Option<Self> {
        [Self::Base, Self::Avx2, Self::Avx512]
            .into_iter()
            .find(|registers| name == registers.name())
    }

    /// The name [`MAX_REGISTERS`] gives these registers.
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    fn name(self) -> &'static str {
        match self {
            Self::Base => "base",
            Self::Avx2 => "avx2",
            Self::Avx512 => "avx512",
        }
    }
}

/// The environment variable that caps the registers of the batches: `base`, `avx2` or `avx512`
/// (read once, with `std`; another value is ignored). The results are the same bits under every
/// cap; it is there to run the tests, and to time the batches, in each tier a CPU offers.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
pub(crate) const MAX_REGISTERS: &str = "RAYSWEEP_MAX_REGISTERS";

/// The widest [`Registers`] this CPU has, within the cap [`MAX_REGISTERS`] sets: detected and
/// read once.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
fn available() -> Registers {
    static AVAILABLE: std::sync::OnceLock<Registers> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
        let avx512 = cfg!(target_arch = "x86_64")
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512vl");
        let detected = match (avx2, avx512) {
            (true, true) => Registers::Avx512,
            (true, false) => Registers::Avx2,
            (false, _) => Registers::Base,
        };
        let cap = std::env::var_os(MAX_REGISTERS).and_then(|name| Registers::named(&name));
        cap.map_or(detected, |cap| detected.min(cap))
    })
}

/// A batch's work, generic over the [`Four`] lanes it runs on, so that [`with_vector_registers`]
/// can run it in the lanes that go with the registers it chooses.
pub(crate) trait Job {
    /// What the work returns.
    type Output;

    /// Does the work in lanes `V`, with `products` (those a single cast on this CPU uses), in
    /// code compiled for `registers`.
    fn run<V: Four>(self, products: Products, registers: Registers) -> Self::Output;
}

/// The lanes of the batches compiled for AVX2 or AVX-512: one AVX register ([`Avx4`]) on
/// x86-64; the portable [`F64x4`] on 32-bit x86, which the compiler vectorises there.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
type WideLanes = Avx4;
#[cfg(all(feature = "std", target_arch = "x86"))]
type WideLanes = F64x4;

/// Runs `job` compiled for the widest [`Registers`] up to `widest` that the CPU has and
/// [`MAX_REGISTERS`] allows, in the lanes that go with them, and tells it which: with AVX-512F
/// and VL, AVX2 and FMA on an x86-64 CPU that has them all (Intel's server CPUs since
/// Skylake-SP, AMD's since Zen 4); with AVX2 and FMA on an x86 CPU that has both (Intel's since
/// Haswell, AMD's since Excavator), in both cases on [`Avx4`] lanes (x86-64); as it is elsewhere,
/// on [`F64x4`] lanes (detected at run time, with `std`). A shape chooses `widest` by what its
/// batch measured (docs/performance.md).
///
/// `job` is given the [`Products`] that [`with_fused_products`](crate::fused::with_fused_products)
/// would choose on this CPU, so that a batch and the single casts it must match recover their
/// products alike. Where only FMA is present on x86, that is [`Products::Fused`] in code compiled
/// without it: the math library's `fma`, correct and slower. On AArch64 the base target's 128-bit
/// registers are what there is, and the products are fused.
#[inline(always)]
pub(crate) fn with_vector_registers<J: Job>(widest: Registers, job: J) -> J::Output {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    match available().min(widest) {
        // SAFETY: `avx512` only requires the CPU to support AVX-512F, AVX-512VL, AVX2 and FMA,
        // which `available` has detected: it gives `Avx512` only then.
        #[allow(unsafe_code)]
        Registers::Avx512 => return unsafe { avx512(job) },
        // SAFETY: `avx2_fma` only requires the CPU to support AVX2 and FMA, which `available`
        // has detected: it gives `Avx2` or wider only then.
        #[allow(unsafe_code)]
        Registers::Avx2 => return unsafe { avx2_fma(job) },
        Registers::Base => {}
    }
    #[cfg(not(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64"))))]
    let _ = widest;
    job.run::<F64x4>(detected_products(), Registers::Base)
}

/// `job` on [`WideLanes`] with [`Products::Fused`], with AVX2 and FMA enabled for it and whatever
/// is inlined into it.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
#[target_feature(enable = "avx2,fma")]
fn avx2_fma<J: Job>(job: J) -> J::Output {
    job.run::<WideLanes>(Products::Fused, Registers::Avx2)
}

/// `job` on [`WideLanes`] with [`Products::Fused`], with AVX-512F and VL, AVX2 and FMA enabled for
/// it and whatever is inlined into it.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
#[target_feature(enable = "avx512f,avx512vl,avx2,fma")]
fn avx512<J: Job>(job: J) -> J::Output {
    job.run::<WideLanes>(Products::Fused, Registers::Avx512)
}

#[cfg(all(
    test,
    feature = "std",
    any(target_arch = "x86", target_arch = "x86_64")
))]
mod tests {
    use super::*;

    /// A batch runs in registers no wider than its shape asks for, nor than [`MAX_REGISTERS`]
    /// allows (CI runs the tests under each cap), with the products of the single casts; and each
    /// tier's name reads back as that tier.
    #[test]
    fn registers_stay_within_the_request_and_the_cap() {
        let tiers = [Registers::Base, Registers::Avx2, Registers::Avx512];
        for tier in tiers {
            assert_eq!(Registers::named(tier.name().as_ref()), Some(tier));
        }
        assert_eq!(Registers::named("AVX2".as_ref()), None);
        let cap = std::env::var_os(MAX_REGISTERS).and_then(|name| Registers::named(&name));
        /// The products and registers a job is run with.
        struct Tier;
        impl Job for Tier {
            type Output = (Products, Registers);
            fn run<V: Four>(self, products: Products, registers: Registers) -> Self::Output {
                (products, registers)
            }
        }
        for widest in tiers {
            let (products, used) = with_vector_registers(widest, Tier);
            assert!(used <= widest, "{used:?} for {widest:?}");
            assert!(cap.is_none_or(|cap| used <= cap), "{used:?} under {cap:?}");
            assert_eq!(used, available().min(widest));
            assert_eq!(products, detected_products(), "{used:?}");
        }
    }
}
