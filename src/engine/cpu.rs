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

/// The `i`-th lowest square of `bits` (counting from 0) as a set of that
/// square alone, or 0 when `bits` has `i` squares or fewer: the square of
/// the unit a playout drew among those it counted.
///
/// Where the CPU has `bmi2`, one `pdep` (bit `i` deposited on the squares
/// of `bits`), inlined in the copy with the bit instructions. Else the
/// loop that clears the lowest square `i` times: its trip count is the
/// drawn index, so its last test is mispredicted about as often as not,
/// which cost the playouts 9 to 19 % of their time on the machine of
/// docs/performance.md. (AMD CPUs before Zen 3 run `pdep` in microcode,
/// where it may cost more than the loop saves.)
#[inline(always)]
pub(crate) fn nth_square(bits: u64, i: usize) -> u64 {
    debug_assert!(i < 64);
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the CPU has `bmi2`, as has just been checked.
        return unsafe { std::arch::x86_64::_pdep_u64(1 << (i & 63), bits) };
    }
    let mut rest = bits;
    for _ in 0..i {
        rest &= rest.wrapping_sub(1);
    }
    rest & rest.wrapping_neg()
}

/// Whether [`with_bit_instructions`] takes the copy with the bit
/// instructions on this machine.
pub fn bit_instructions_in_use() -> bool {
    #[cfg(target_arch = "x86_64")]
    return has_bit_instructions();
    #[cfg(not(target_arch = "x86_64"))]
    false
}
