//! Playout loops compiled a second time for the bit instructions of
//! today's x86-64 CPUs, picked at run time.
//!
//! The generator works on square sets: it counts their bits, finds the
//! lowest one and clears it, over and over. The baseline x86-64 that a
//! distributed binary targets has none of the instructions for that
//! (`popcnt`, `lzcnt`, `tzcnt`, `blsr`, ...): `count_ones` is a dozen
//! instructions there, `trailing_zeros` a scan and a test for zero.
//! [`with_bit_instructions`] runs a loop in a copy compiled with them when
//! the CPU has them (most x86-64 CPUs made since 2013, not all), else in the copy
//! built for the baseline, so that the binary runs everywhere and the
//! results are the same either way.

/// Runs `f` in a copy compiled with `popcnt`, `lzcnt`, `bmi1` and `bmi2`
/// where the CPU has all four (asked once, then cached by the standard
/// library), else as built.
///
/// Only code inlined into `f` gains: pass a closure marked
/// `#[inline(always)]` whose callees are inlined too (the generator's
/// stages are); a function called out of line runs as built.
#[inline(always)]
pub fn with_bit_instructions<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    if has_bit_instructions() {
        // SAFETY: the CPU has every feature `bit_instructions` is
        // compiled with, as `has_bit_instructions` has just checked.
        return unsafe { bit_instructions(f) };
    }
    f()
}

/// Whether the CPU has the instructions [`with_bit_instructions`] uses.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn has_bit_instructions() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("lzcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
}

/// `f()`, compiled with the bit instructions: `f` inlined here is
/// compiled with them too.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2")]
fn bit_instructions<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Whether [`with_bit_instructions`] takes the copy with the bit
/// instructions on this machine.
pub fn bit_instructions_in_use() -> bool {
    #[cfg(target_arch = "x86_64")]
    return has_bit_instructions();
    #[cfg(not(target_arch = "x86_64"))]
    false
}
