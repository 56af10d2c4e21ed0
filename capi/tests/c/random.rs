//! xorshift64* (Vigna, "An experimental exploration of Marsaglia's xorshift generators,
//! scrambled", 2016), seeded the same in every run: the inputs of the C suite's answers file and
//! of the timing program's Rust anchor. capi/benches/first_hit.c repeats it in C, so that the C
//! loop and the Rust loop time the same rays.

/// The generator's state.
pub struct Random(u64);

impl Random {
    /// The generator every program here starts from.
    pub fn seeded() -> Self {
        Random(0x9e37_79b9_7f4a_7c15)
    }

    /// Uniform in `[low, high)`: the top 53 bits of the scrambled state as a fraction.
    pub fn uniform(&mut self, low: f64, high: f64) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let u = (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64;
        low + (high - low) * u
    }
}
