//! Error-free transformations: sums and products whose rounding error is recovered exactly, and
//! a dot product accumulated in twice the working precision.
//!
//! Sources: Knuth's TwoSum (TAOCP vol. 2, 4.2.2); Dekker's TwoProduct with Veltkamp's splitting
//! (Dekker, "A floating-point technique for extending the available precision", Numer. Math. 18,
//! 1971); the compensated dot product `Dot2` of Ogita, Rump and Oishi ("Accurate sum and dot
//! product", SIAM J. Sci. Comput. 26(6), 2005), whose result is as accurate as if it were computed
//! in twice the working precision and then rounded once.
//!
//! Everything here is generic over [`Lane`], so the same transformations run on one value or on
//! four side by side.

use super::lane::Lane;

/// `(s, e)` with `s = fl(a + b)` and `a + b = s + e` exactly (Knuth's TwoSum, no branch).
#[inline(always)]
pub(crate) fn two_sum<L: Lane>(a: L, b: L) -> (L, L) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// How [`two_product`] recovers the rounding error of a product. Both give the same exact pair
/// unless the product overflows or its error falls below the normal range (a factor below about
/// `2^-960`, such as a direction component far smaller than the others), where both are inexact
/// and may differ in the last subnormal bit. The choice changes the speed, not the answers: the
/// single casts and the batches of one CPU choose alike (see [`with_vector_registers`](
/// crate::batch::dispatch::with_vector_registers)), so a batch returns the single casts' bits either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Products {
    /// Dekker's product with Veltkamp's split: about 17 operations, for code that has no fused
    /// multiply-add (x86 code compiled without the `fma` target feature, as the default x86-64
    /// target is, and architectures other than AArch64). Exact for `|a|, |b| < 2^995`.
    Split,
    /// One fused multiply-add, `a·b − p`. On AArch64, and in x86 code compiled with the `fma`
    /// target feature, that is one instruction; elsewhere it is a call to the math library's
    /// `fma`, correct but slow, so this is chosen only inside
    /// [`with_fused_products`](crate::fused::with_fused_products) and
    /// [`with_vector_registers`](crate::batch::dispatch::with_vector_registers) on a CPU that has FMA.
    Fused,
}

/// `(p, e)` with `p = fl(a * b)` and `a * b = p + e` exactly, barring underflow, by `products`
/// (always fused where the whole build has the `fma` target feature).
#[inline(always)]
pub(crate) fn two_product<L: Lane>(a: L, b: L, products: Products) -> (L, L) {
    let p = a * b;
    if cfg!(target_feature = "fma") || products == Products::Fused {
        (p, a.mul_add(b, -p))
    } else {
        let (ah, al) = split(a);
        let (bh, bl) = split(b);
        (p, al * bl - (((p - ah * bh) - al * bh) - ah * bl))
    }
}

/// Veltkamp's split of `a` into two halves of 26 bits each, `a = hi + lo` exactly.
#[inline(always)]
fn split<L: Lane>(a: L) -> (L, L) {
    let factor = L::splat(134_217_729.0); // 2^27 + 1
    let c = factor * a;
    let hi = c - (c - a);
    (hi, a - hi)
}

/// Accumulates `Σ aᵢ·bᵢ` as if in twice the working precision (Ogita-Rump-Oishi `Dot2`).
///
/// The rounded result has a relative error of about one ulp plus `n·2^-104` times `Σ|aᵢ·bᵢ|`
/// over the value, so a sum that cancels to `10^-15` of its terms is still right to the last bits.
#[derive(Clone, Copy)]
pub(crate) struct Dot2<L = f64> {
    sum: L,
    err: L,
    products: Products,
}

impl<L: Lane> Dot2<L> {
    /// The empty sum, whose products are recovered by `products`.
    #[inline(always)]
    pub(crate) fn new(products: Products) -> Self {
        Dot2 {
            sum: L::splat(0.0),
            err: L::splat(0.0),
            products,
        }
    }

    /// Adds `a * b`.
    #[inline(always)]
    pub(crate) fn add(&mut self, a: L, b: L) {
        let (p, pe) = two_product(a, b, self.products);
        let (s, se) = two_sum(self.sum, p);
        self.sum = s;
        self.err = self.err + (pe + se);
    }

    /// The sum, rounded once.
    #[inline(always)]
    pub(crate) fn value(self) -> L {
        self.sum + self.err
    }

    /// The sum as an unevaluated pair `hi + lo` with `hi` the rounded sum: about twice the
    /// working precision.
    #[inline(always)]
    pub(crate) fn pair(self) -> (L, L) {
        let hi = self.sum + self.err;
        (hi, self.err - (hi - self.sum))
    }
}

/// `(hi + lo) / d` as an unevaluated pair, for `hi + lo` a pair from [`Dot2::pair`]: the quotient
/// rounded, and the correction that the exact remainder gives (its product recovered by
/// `products`).
#[inline(always)]
pub(crate) fn div_pair<L: Lane>(hi: L, lo: L, d: L, products: Products) -> (L, L) {
    let q = hi / d;
    let (p, pe) = two_product(q, d, products);
    (q, ((hi - p) - pe + lo) / d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_sum_recovers_the_rounding_error() {
        let (s, e) = two_sum(1.0, 1e-20);
        assert_eq!(s, 1.0);
        assert_eq!(e, 1e-20);
    }

    #[test]
    fn two_product_recovers_the_rounding_error() {
        // (1 + 2^-30)^2 = 1 + 2^-29 + 2^-60: the last term is lost by the rounded product.
        let x = 1.0 + (-30f64).exp2();
        for products in [Products::Split, Products::Fused] {
            let (p, e) = two_product(x, x, products);
            assert_eq!(p, 1.0 + (-29f64).exp2());
            assert_eq!(e, (-60f64).exp2());
        }
    }

    #[test]
    fn split_and_fused_products_agree() {
        // Products of values spread over 2^±300 with every bit pattern of the significands: the
        // error terms are far from underflow and the products from overflow, where both are
        // exact.
        let mut bits = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..10_000 {
            bits = bits.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let a = f64::from_bits((bits >> 12) | (0x3ff << 52))
                * (((bits >> 3) % 600) as f64 - 300.0).exp2();
            bits = bits.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let b = -f64::from_bits((bits >> 12) | (0x3ff << 52))
                * (((bits >> 3) % 600) as f64 - 300.0).exp2();
            assert_eq!(
                two_product(a, b, Products::Split),
                two_product(a, b, Products::Fused),
                "{a:e} · {b:e}"
            );
        }
    }

    #[test]
    fn dot2_survives_cancellation_that_plain_sums_lose() {
        // x·x - y·y with x = 1 + 2^-30, y = 1: exactly 2^-29 + 2^-60.
        let x = 1.0 + (-30f64).exp2();
        let mut acc = Dot2::new(Products::Split);
        acc.add(x, x);
        acc.add(1.0, -1.0);
        assert_eq!(acc.value(), (-29f64).exp2() + (-60f64).exp2());
        assert_eq!(x * x - 1.0, (-29f64).exp2());
    }
}
