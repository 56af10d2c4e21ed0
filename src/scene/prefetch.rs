//! Asking the processor to start loading what a traversal will read next.
//!
//! A first-hit traversal reads a node, picks the nearest child it meets to visit next and puts
//! the others on its stack: each read waits on the one before, and a scene larger than the
//! processor's caches waits on memory at each. Prefetching every child met as soon as it is found
//! lets those loads overlap the work on the nearer ones. It measured faster where the hierarchy
//! is larger than the caches (`10^5` spheres, the workload of `benches/benches/obvhs.rs`) and
//! the same where it sits in the first-level cache (`10^3`); `docs/performance.md`, "Scenes".

/// Starts loading the cache lines that hold `*item`, as far as its first four; reads nothing
/// and does nothing on targets other than x86-64.
#[inline(always)]
pub(crate) fn prefetch<X>(item: *const X) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        const LINE: usize = 64;
        let size = core::mem::size_of::<X>().clamp(1, 4 * LINE);
        let first = item.cast::<i8>();
        // Each line the item starts in or reaches into: one every 64 bytes, and the last byte's.
        let mut offset = 0;
        while offset < size {
            #[allow(unsafe_code)]
            // SAFETY: a prefetch is a hint: it reads nothing the program sees, and never faults,
            // at any address (the pointer is never dereferenced); SSE, which has the
            // instruction, is part of every x86-64 target.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(offset));
            }
            offset += LINE;
        }
        #[allow(unsafe_code)]
        // SAFETY: as above.
        unsafe {
            _mm_prefetch::<_MM_HINT_T0>(first.wrapping_add(size - 1));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
