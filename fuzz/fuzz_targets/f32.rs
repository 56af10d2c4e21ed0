//! Fuzzes every constructor and cast in f32, 2D and 3D, with the checks of
//! `tests/robust/mod.rs`: `cargo fuzz run f32 --sanitizer none`.
#![no_main]

#[path = "../../tests/robust/mod.rs"]
mod robust;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    robust::replay::<f32>(data, "fuzz input");
});
