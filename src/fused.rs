//! The error-free products this CPU forms fastest ([`Products`]): fused where it has a fused
//! multiply-add, split (Dekker) where it has none.
//!
//! Code compiled for the default x86-64 target may not use FMA, and a function compiled with a
//! target feature cannot be inlined into one without it. So on x86 [`with_fused_products`]
//! detects FMA at run time and runs a closure inside a function compiled with it (an `unsafe`
//! call, guarded by the detection), where the closure and what it inlines are compiled with it
//! too. On AArch64 the fused multiply-add (`fmadd`) is part of the base architecture, so
//! [`Products::Fused`] is chosen there at compile time, in line, with no detection. The two
//! [`Products`] give the same exact pairs but where they underflow, which [`Products`] describes
//! (Rust never fuses a multiply and an add on its own).

use crate::core::exact::Products;

/// Whether every CPU of the target architecture has a fused multiply-add that code compiled for
/// its base target uses: AArch64, whose floating point includes `fmadd`, so that `mul_add` is
/// one instruction there (also through `libm`, which uses it on AArch64). x86 has FMA only as an
/// extension, detected at run time.
const FUSED_IN_BASE: bool = cfg!(target_arch = "aarch64");

/// The [`Products`] that code compiled for the base target computes fastest: fused where the
/// base target has a fused multiply-add ([`FUSED_IN_BASE`]), split elsewhere (a fused product
/// outside [`with_fused_products`] would be a call to the math library's `fma` on x86).
pub(crate) const BASE_PRODUCTS: Products = if FUSED_IN_BASE {
    Products::Fused
} else {
    Products::Split
};

/// The [`Products`] this CPU computes fastest, as [`with_fused_products`] chooses them (and the
/// batches, `crate::batch::dispatch`, for their base registers).
#[inline(always)]
pub(crate) fn detected_products() -> Products {
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

/// `f` with the products split (Dekker): for the shapes whose casts measured no gain from FMA.
#[inline(always)]
pub(crate) fn with_split_products<R>(f: impl FnOnce(Products) -> R) -> R {
    f(Products::Split)
}
