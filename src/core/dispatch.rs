//! What the CPU offers beyond the default target, detected at run time: wider registers for the
//! batch casts, and a fused multiply-add for the error-free products ([`Products`]).
//!
//! Code compiled for the default x86-64 target may use neither, and a function compiled with a
//! target feature cannot be inlined into one without it. So each of these runs a closure inside
//! a function compiled with the feature (the crate's only `unsafe` calls, each guarded by the
//! detection), where the closure and what it inlines are compiled with it too. The results are
//! the same bits either way: the instructions differ in width, and the two [`Products`] give the
//! same exact pairs but where they underflow, which [`Products`] describes (Rust never fuses a
//! multiply and an add on its own).

use super::exact::Products;

/// The [`Products`] this CPU computes fastest, as [`with_fused_products`] chooses them.
#[inline(always)]
fn detected_products() -> Products {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if std::is_x86_feature_detected!("fma") {
        return Products::Fused;
    }
    Products::Split
}

/// Runs `f` with [`Products::Fused`], compiled for FMA, on an x86 CPU that has it (detected at
/// run time, with `std`); with [`Products::Split`] as it is elsewhere.
///
/// The call into the FMA copy is not inlined: for a single `f64` sphere cast, whose error-free
/// products sit on its critical path, it takes 70 cycles against 88 inlined (docs/performance.md).
#[inline(always)]
pub(crate) fn with_fused_products<R>(f: impl FnOnce(Products) -> R) -> R {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if std::is_x86_feature_detected!("fma") {
        // SAFETY: `fma` only requires the CPU to support FMA, which was just checked.
        #[allow(unsafe_code)]
        return unsafe { fma(f) };
    }
    f(Products::Split)
}

/// `f` with [`Products::Fused`], with FMA enabled for it and whatever is inlined into it.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
#[target_feature(enable = "fma")]
fn fma<R>(f: impl FnOnce(Products) -> R) -> R {
    f(Products::Fused)
}

/// Runs `f` compiled for the CPU's widest registers where that pays and is known to be safe: with
/// AVX2 and FMA on an x86 CPU that has both (detected at run time, with `std`; Intel's since
/// Haswell and AMD's since Excavator have both), so that a four-lane operation is one instruction instead of two,
/// and an error-free product one more; as it is elsewhere.
///
/// `f` is given the [`Products`] that [`with_fused_products`] would choose on this CPU, so that a
/// batch and the single casts it must match recover their products alike. Where only FMA is
/// present, that is [`Products::Fused`] in code compiled without it: the math library's `fma`,
/// correct and slower.
#[inline(always)]
pub(crate) fn with_wide_registers<R>(f: impl FnOnce(Products) -> R) -> R {
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: `avx2_fma` only requires the CPU to support AVX2 and FMA, which was just
        // checked.
        #[allow(unsafe_code)]
        return unsafe { avx2_fma(f) };
    }
    f(detected_products())
}

/// `f` with [`Products::Fused`], with AVX2 and FMA enabled for it and whatever is inlined into it.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
#[target_feature(enable = "avx2,fma")]
fn avx2_fma<R>(f: impl FnOnce(Products) -> R) -> R {
    f(Products::Fused)
}
