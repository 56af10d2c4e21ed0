//! What the CPU offers beyond the default target: wider registers for the batch casts, and a
//! fused multiply-add for the error-free products ([`Products`]).
//!
//! Code compiled for the default x86-64 target may use neither, and a function compiled with a
//! target feature cannot be inlined into one without it. So on x86 each of these detects the
//! feature at run time and runs a closure inside a function compiled with it (the crate's only
//! `unsafe` calls, each guarded by the detection), where the closure and what it inlines are
//! compiled with it too. On AArch64 the fused multiply-add (`fmadd`) is part of the base
//! architecture, so [`Products::Fused`] is chosen there at compile time, in line, with no
//! detection. The results are the same bits either way: the instructions differ in width, and the
//! two [`Products`] give the same exact pairs but where they underflow, which [`Products`]
//! describes (Rust never fuses a multiply and an add on its own).

use super::exact::Products;

/// Whether every CPU of the target architecture has a fused multiply-add that code compiled for
/// its base target uses: AArch64, whose floating point includes `fmadd`, so that `mul_add` is
/// one instruction there (also through `libm`, which uses it on AArch64). x86 has FMA only as an
/// extension, detected at run time.
const FUSED_IN_BASE: bool = cfg!(target_arch = "aarch64");

/// The [`Products`] this CPU computes fastest, as [`with_fused_products`] chooses them.
#[inline(always)]
fn detected_products() -> Products {
    if FUSED_IN_BASE {
        return Products::Fused;
    }
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if std::is_x86_feature_detected!("fma") {
        return Products::Fused;
    }
    Products::Split
}

/// Runs `f` with [`Products::Fused`]: in line on AArch64 ([`FUSED_IN_BASE`]); compiled for FMA on
/// an x86 CPU that has it (detected at run time, with `std`); with [`Products::Split`] as it is
/// elsewhere.
///
/// On x86 the call into the FMA copy is not inlined: for a single `f64` sphere cast, whose
/// error-free products sit on its critical path, it takes 70 cycles against 88 inlined
/// (docs/performance.md).
#[inline(always)]
pub(crate) fn with_fused_products<R>(f: impl FnOnce(Products) -> R) -> R {
    let products = detected_products();
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    if products == Products::Fused {
        // SAFETY: `fma` only requires the CPU to support FMA, which `detected_products` has just
        // detected: on x86 it gives `Fused` only then.
        #[allow(unsafe_code)]
        return unsafe { fma(f) };
    }
    f(products)
}

/// `f` with [`Products::Fused`], with FMA enabled for it and whatever is inlined into it.
#[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
#[target_feature(enable = "fma")]
fn fma<R>(f: impl FnOnce(Products) -> R) -> R {
    f(Products::Fused)
}

/// Runs `f` compiled for the CPU's widest registers where that pays and is known to be safe: with
/// AVX2 and FMA on an x86 CPU that has both (detected at run time, with `std`; Intel's since
/// Haswell and AMD's since Excavator have both), so that a four-lane operation is one
/// instruction instead of two, and an error-free product one more; as it is elsewhere.
///
/// `f` is given the [`Products`] that [`with_fused_products`] would choose on this CPU, so that a
/// batch and the single casts it must match recover their products alike. Where only FMA is
/// present on x86, that is [`Products::Fused`] in code compiled without it: the math library's
/// `fma`, correct and slower. On AArch64 the base target's 128-bit registers are what there is,
/// and the products are fused.
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
