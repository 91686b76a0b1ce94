//! TMA tensor maps: the descriptors Hopper's copy engine reads to move 2-D boxes of a matrix into
//! shared memory (`cuTensorMapEncodeTiled`, a host-only driver call that cust 0.3 predates).

use std::ffi::c_void;

use kernels::matmul::TensorMap;

use crate::error::{Error, Result, check};

/// `CUtensorMap` as the driver writes it: 128 bytes, 64-byte aligned.
#[repr(C, align(64))]
struct RawTensorMap([u64; 16]);

unsafe extern "C" {
    /// CUDA 12.0+ driver API (`cuda.h`). Enum arguments are passed as their C values.
    fn cuTensorMapEncodeTiled(
        tensor_map: *mut RawTensorMap,
        data_type: u32,
        rank: u32,
        global_address: *mut c_void,
        global_dim: *const u64,
        global_strides: *const u64,
        box_dim: *const u32,
        element_strides: *const u32,
        interleave: u32,
        swizzle: u32,
        l2_promotion: u32,
        oob_fill: u32,
    ) -> cust::sys::CUresult;
}

/// Element type of a tensor map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TmaElement {
    Bf16,
    F32,
}

impl TmaElement {
    /// Bytes per element.
    pub fn bytes(self) -> usize {
        match self {
            TmaElement::Bf16 => 2,
            TmaElement::F32 => 4,
        }
    }
    /// `CU_TENSOR_MAP_DATA_TYPE_BFLOAT16` / `_FLOAT32`.
    fn code(self) -> u32 {
        match self {
            TmaElement::Bf16 => 9,
            TmaElement::F32 => 7,
        }
    }
}

/// `CU_TENSOR_MAP_SWIZZLE_128B`: the layout `wgmma` reads without bank conflicts.
const SWIZZLE_128B: u32 = 3;
/// `CU_TENSOR_MAP_SWIZZLE_64B`: the same for boxes whose rows are 64 bytes (the MN-major tile of
/// a 32-wide bf16 `wgmma` operand).
const SWIZZLE_64B: u32 = 2;
/// `CU_TENSOR_MAP_L2_PROMOTION_L2_128B`.
const L2_PROMOTION_128B: u32 = 2;
/// `CU_TENSOR_MAP_L2_PROMOTION_L2_256B`.
const L2_PROMOTION_256B: u32 = 3;

/// The L2 promotion for rows of `row_bytes`: 256 bytes when rows start on 256-byte boundaries,
/// else 128. A box row that straddles lines drags a second 256-byte sector in: BF16 nt 3000³
/// took 146 µs with 256 and 126 with 128, 5000³ 635 and 532, TF32 3000³ 238 and 219; aligned
/// rows ran 0.5–1 % faster with 256 (2944³, 4096×784×4096; H100,
/// docs/runs/2026-11-23-h100-s8/r5).
fn l2_promotion(row_bytes: usize) -> u32 {
    if row_bytes.is_multiple_of(256) { L2_PROMOTION_256B } else { L2_PROMOTION_128B }
}

/// A row-major matrix in device memory as the copy engine sees it.
#[derive(Debug, Clone, Copy)]
pub struct TmaMatrix {
    pub ptr: u64,
    pub element: TmaElement,
    pub rows: usize,
    pub cols: usize,
    /// Row stride in elements.
    pub ld: usize,
}

impl TmaMatrix {
    /// Whether the copy engine can read it: 16-byte aligned base and row stride (so, for a
    /// packed matrix, cols a multiple of 8 bf16 or 4 f32), and dimensions it can index.
    pub fn is_supported(&self) -> bool {
        let e = self.element.bytes();
        self.ptr.is_multiple_of(16)
            && (self.ld * e).is_multiple_of(16)
            && self.ld >= self.cols
            && self.rows > 0
            && self.cols > 0
            && self.rows <= i32::MAX as usize
            && self.cols <= i32::MAX as usize
            && ((self.ld * e) as u64) < (1u64 << 40)
    }

    /// The tensor map for boxes of `box_cols` × `box_rows` elements (box_cols · element size
    /// ≤ 128 bytes), 128-byte swizzled (64-byte where a box row is 64 bytes or less),
    /// out-of-bounds elements read as zero.
    pub fn tiled(&self, op: &'static str, box_cols: u32, box_rows: u32) -> Result<TensorMap> {
        if !self.is_supported() {
            return Err(Error::InvalidArgument {
                op,
                reason: format!("matrix {self:?} cannot be read by the tensor copy engine (needs 16-byte aligned base and row stride)"),
            });
        }
        let dims = [self.cols as u64, self.rows as u64];
        let strides = [(self.ld * self.element.bytes()) as u64];
        let boxes = [box_cols, box_rows];
        let elem_strides = [1u32, 1];
        let mut raw = RawTensorMap([0; 16]);
        // SAFETY: every pointer refers to a live local of the documented length (rank 2: two
        // dims, one stride, two box dims, two element strides); the driver only writes `raw`.
        let r = unsafe {
            cuTensorMapEncodeTiled(
                &mut raw,
                self.element.code(),
                2,
                self.ptr as *mut c_void,
                dims.as_ptr(),
                strides.as_ptr(),
                boxes.as_ptr(),
                elem_strides.as_ptr(),
                0,
                if box_cols as usize * self.element.bytes() <= 64 { SWIZZLE_64B } else { SWIZZLE_128B },
                l2_promotion(self.ld * self.element.bytes()),
                0,
            )
        };
        check(r, "cuTensorMapEncodeTiled")?;
        Ok(TensorMap(raw.0))
    }
}
