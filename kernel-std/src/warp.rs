//! Warp shuffles and reductions (`__shfl_xor_sync`, `__shfl_down_sync` with the full mask).
//!
//! Every function here must be reached by all 32 lanes of the warp, converged: the shuffles
//! name the full lane mask.

/// Lanes in a warp.
pub const WARP_SIZE: u32 = 32;

macro_rules! shuffle {
    ($(#[$doc:meta])* $name:ident, $t:ty, $op:literal, $clamp:literal) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(v: $t, lane_arg: u32) -> $t {
            let r: $t;
            // SAFETY: a register-only shuffle; callers run it with all 32 lanes converged (module docs).
            unsafe {
                core::arch::asm!(
                    concat!("shfl.sync.", $op, ".b32 {r}, {v}, {m}, ", $clamp, ", 0xffffffff;"),
                    r = out(reg32) r, v = in(reg32) v, m = in(reg32) lane_arg
                )
            };
            r
        }
    };
}

shuffle!(
    /// `__shfl_xor_sync(~0, v, mask)`: the value of lane `lane ^ mask`.
    shfl_xor_f32, f32, "bfly", "0x1f"
);
shuffle!(
    /// As [`shfl_xor_f32`] for a `u32`.
    shfl_xor_u32, u32, "bfly", "0x1f"
);
shuffle!(
    /// `__shfl_down_sync(~0, v, delta)`: the value of lane `lane + delta` (its own past lane 31).
    shfl_down_f32, f32, "down", "0x1f"
);
shuffle!(
    /// `__shfl_sync(~0, v, src)`: the value of lane `src` (a broadcast).
    shfl_idx_f32, f32, "idx", "0x1f"
);

/// Sum over the warp (butterfly: every lane gets the total, added in the same order on every
/// lane, so every lane holds the same bits).
#[inline(always)]
pub fn warp_sum(mut v: f32) -> f32 {
    let mut m = 16;
    while m > 0 {
        v += shfl_xor_f32(v, m);
        m >>= 1;
    }
    v
}

/// Maximum over the warp (every lane gets it).
#[inline(always)]
pub fn warp_max(mut v: f32) -> f32 {
    let mut m = 16;
    while m > 0 {
        let o = shfl_xor_f32(v, m);
        if o > v {
            v = o;
        }
        m >>= 1;
    }
    v
}
