//! bf16 device matrices: `DeviceMatrixBf16` holds a row-major matrix as raw bf16 bits (`u16`),
//! for the BF16 tensor-core GEMM. The host converts with round-to-nearest-even.

use crate::buffer::DeviceVector;
use crate::context::Gpu;
use crate::error::{Error, Result};

/// The rounding shared with the kernels (one definition for host and device).
pub use kernels::math::{bf16_to_f32, f32_to_bf16};

/// A row-major `rows × cols` bf16 matrix on the device.
pub struct DeviceMatrixBf16 {
    data: DeviceVector<u16>,
    rows: usize,
    cols: usize,
}

impl DeviceMatrixBf16 {
    /// Rounds row-major f32 `data` (`rows·cols` values) to bf16 and copies it to the device.
    pub fn from_f32(gpu: &Gpu, rows: usize, cols: usize, data: &[f32]) -> Result<Self> {
        match rows.checked_mul(cols) {
            Some(n) if n == data.len() => {}
            _ => return Err(Error::DataLength { op: "DeviceMatrixBf16::from_f32", rows, cols, len: data.len() }),
        }
        let bits: Vec<u16> = data.iter().map(|&x| f32_to_bf16(x)).collect();
        Ok(DeviceMatrixBf16 { data: DeviceVector::from_host(gpu, &bits)?, rows, cols })
    }

    /// A `rows × cols` bf16 matrix with unspecified contents (to be written by a kernel).
    pub(crate) fn uninit(gpu: &Gpu, rows: usize, cols: usize) -> Result<Self> {
        let n = rows.checked_mul(cols).ok_or_else(|| Error::InvalidArgument { op: "DeviceMatrixBf16::uninit", reason: format!("{rows}×{cols} overflows") })?;
        Ok(DeviceMatrixBf16 { data: DeviceVector::uninit(gpu, n)?, rows, cols })
    }

    /// Sets every element to the bf16 bits `bits` (e.g. a NaN, 0x7fc0, to poison an output), in
    /// stream order.
    pub fn fill_bits(&mut self, gpu: &Gpu, bits: u16) -> Result<()> {
        if self.data.is_empty() {
            return Ok(());
        }
        gpu.bind()?;
        // SAFETY: sets exactly the buffer's len() 16-bit words, on our stream.
        crate::error::check(unsafe { cust::sys::cuMemsetD16Async(self.data.device_ptr(), bits, self.data.len(), gpu.stream().as_inner()) }, "cuMemsetD16Async")
    }

    /// Overwrites the contents with row-major f32 `data` rounded to bf16 (same shape).
    pub fn copy_from_f32(&mut self, gpu: &Gpu, data: &[f32]) -> Result<()> {
        if data.len() != self.data.len() {
            return Err(Error::DataLength { op: "DeviceMatrixBf16::copy_from_f32", rows: self.rows, cols: self.cols, len: data.len() });
        }
        let bits: Vec<u16> = data.iter().map(|&x| f32_to_bf16(x)).collect();
        self.data.copy_from_host(gpu, &bits)
    }

    /// Elements (rows·cols).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The device address as a kernel's `*mut u16` parameter.
    pub fn as_mut_ptr(&mut self) -> *mut u16 {
        self.data.device_ptr() as *mut u16
    }

    /// The contents widened back to f32 (exact), row-major.
    pub fn to_f32(&self, gpu: &Gpu) -> Result<Vec<f32>> {
        Ok(self.data.to_host(gpu)?.into_iter().map(bf16_to_f32).collect())
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// `(rows, cols)`.
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// The device address, as kernels take it.
    pub fn device_ptr(&self) -> u64 {
        self.data.device_ptr()
    }
}

/// A bf16 matrix passed to a typed launcher where the kernel reads `*const u16` (the bf16 bits,
/// row-major).
impl kernels::KernelArg<*const u16> for &DeviceMatrixBf16 {
    fn into_kernel_arg(self) -> *const u16 {
        self.device_ptr() as *const u16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bf16_rounding() {
        assert_eq!(f32_to_bf16(1.0), 0x3f80);
        assert_eq!(bf16_to_f32(f32_to_bf16(-2.5)), -2.5);
        // 1 + 2⁻⁸ is halfway between 1 and 1 + 2⁻⁷: ties to even (1.0).
        assert_eq!(f32_to_bf16(1.0 + 1.0 / 256.0), 0x3f80);
        // Just above halfway rounds up.
        assert_eq!(f32_to_bf16(f32::from_bits(0x3f80_8001)), 0x3f81);
        assert!(bf16_to_f32(f32_to_bf16(f32::NAN)).is_nan());
        assert_eq!(bf16_to_f32(f32_to_bf16(f32::INFINITY)), f32::INFINITY);
        assert_eq!(bf16_to_f32(f32_to_bf16(f32::MAX)), f32::INFINITY); // rounds past the largest bf16
        for &x in &[0.1f32, -3.7, 1e-20, 6.5e4, 123.456] {
            let r = bf16_to_f32(f32_to_bf16(x));
            assert!(((r - x) / x).abs() <= 1.0 / 256.0, "{x} -> {r}");
        }
    }
}
