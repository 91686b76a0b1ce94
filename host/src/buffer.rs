//! Typed device memory: `DeviceVector<T>` (a length) and `DeviceMatrix` (row-major f32 with its
//! shape), so shapes are checked once, at construction, and ops check them against each other.
//!
//! Copies name their direction (`from_host`, `to_host`). Copies run on the GPU's own stream
//! (ordered after the kernels queued there) and are waited for before returning.

use cust::memory::{DeviceBuffer, DeviceCopy};
use kernels::KernelArg;
use nalgebra::DMatrix;

use std::sync::Arc;

use crate::context::{Gpu, Shared};
use crate::error::{CudaContext, Error, Result};

/// A device array of `T`. Its memory is 256-byte aligned (what `cuMemAlloc` returns), which the
/// 16-byte vectorized kernels rely on.
///
/// It keeps its GPU's context alive and makes it current when dropped, so it may be dropped on
/// any thread. It is `Send` and `Sync` (a device address and a reference-counted context); ops
/// that write it take `&mut`.
pub struct DeviceVector<T: DeviceCopy> {
    buf: DeviceBuffer<T>,
    owner: Arc<Shared>,
}

impl<T: DeviceCopy> Drop for DeviceVector<T> {
    fn drop(&mut self) {
        // The buffer field is freed right after this, through the context it was allocated in.
        let _ = self.owner.bind();
    }
}

fn alloc<T: DeviceCopy>(gpu: &Gpu, len: usize, op: &'static str) -> Result<DeviceBuffer<T>> {
    let bytes = len.checked_mul(size_of::<T>()).ok_or(Error::TooLarge { op, what: "bytes", value: u64::MAX, limit: usize::MAX as u64 })?;
    gpu.bind()?;
    // SAFETY: the buffer is written (copied, filled, or produced by a kernel) before it is read;
    // callers of `uninit` guarantee that.
    match unsafe { DeviceBuffer::uninitialized(len) } {
        Ok(b) => Ok(b),
        Err(cust::error::CudaError::OutOfMemory) => Err(Error::OutOfMemory { op, bytes }),
        Err(e) => Err(e).during("cuMemAlloc"),
    }
}

impl<T: DeviceCopy> DeviceVector<T> {
    /// Copies `data` to a new device array.
    pub fn from_host(gpu: &Gpu, data: &[T]) -> Result<Self> {
        let mut v = DeviceVector { buf: alloc(gpu, data.len(), "DeviceVector::from_host")?, owner: gpu.shared() };
        v.upload(gpu, data)?;
        Ok(v)
    }

    /// A device array whose contents are whatever the allocator left: for outputs a kernel
    /// writes in full before anything reads them.
    pub(crate) fn uninit(gpu: &Gpu, len: usize) -> Result<Self> {
        Ok(DeviceVector { buf: alloc(gpu, len, "DeviceVector::uninit")?, owner: gpu.shared() })
    }

    /// All bytes zero (0.0 for f32, 0 for integers).
    pub fn zeros(gpu: &Gpu, len: usize) -> Result<Self> {
        let v = Self::uninit(gpu, len)?;
        if len > 0 {
            gpu.bind()?;
            // SAFETY: clears exactly the buffer's bytes, on our stream (ordered before later work).
            let r = unsafe { cust::sys::cuMemsetD8Async(v.device_ptr(), 0, len * size_of::<T>(), gpu.stream().as_inner()) };
            crate::error::check(r, "cuMemsetD8Async")?;
        }
        Ok(v)
    }

    /// Overwrites the array with `data`, which must have the same length.
    pub fn copy_from_host(&mut self, gpu: &Gpu, data: &[T]) -> Result<()> {
        if data.len() != self.len() {
            return Err(Error::ShapeMismatch {
                op: "DeviceVector::copy_from_host",
                expected: format!("{} elements", self.len()),
                got: format!("{}", data.len()),
            });
        }
        self.upload(gpu, data)
    }

    /// Host → device on the GPU's own stream, then waits: copies never touch the legacy default
    /// stream, which would conflict with a CUDA-graph capture running on another thread.
    fn upload(&mut self, gpu: &Gpu, data: &[T]) -> Result<()> {
        debug_assert_eq!(data.len(), self.len());
        if data.is_empty() {
            return Ok(());
        }
        gpu.bind()?;
        // SAFETY: `data` covers exactly the buffer's bytes and outlives the copy (we wait below).
        let r = unsafe { cust::sys::cuMemcpyHtoDAsync_v2(self.device_ptr(), data.as_ptr().cast(), std::mem::size_of_val(data), gpu.stream().as_inner()) };
        crate::error::check(r, "cuMemcpyHtoDAsync")?;
        gpu.synchronize()
    }

    /// Copies the array back, after the GPU's queued work finishes.
    pub fn to_host(&self, gpu: &Gpu) -> Result<Vec<T>> {
        let mut out: Vec<T> = Vec::with_capacity(self.len());
        if self.is_empty() {
            return Ok(out);
        }
        gpu.bind()?;
        // SAFETY: the copy is ordered after the stream's queued work and fills the capacity
        // (`len` elements) before `set_len`; we wait for it first.
        let r = unsafe { cust::sys::cuMemcpyDtoHAsync_v2(out.as_mut_ptr().cast(), self.device_ptr(), self.len() * size_of::<T>(), gpu.stream().as_inner()) };
        crate::error::check(r, "cuMemcpyDtoHAsync")?;
        gpu.synchronize()?;
        // SAFETY: the synchronized copy wrote all `len` elements.
        unsafe { out.set_len(self.len()) };
        Ok(out)
    }

    pub fn len(&self) -> usize {
        self.buf.len()
    }

    pub fn is_empty(&self) -> bool {
        self.buf.len() == 0
    }

    /// The device address, as kernels take it.
    pub fn device_ptr(&self) -> u64 {
        self.buf.as_device_ptr().as_raw()
    }

    /// The device address as a kernel's `*const T` parameter (never dereferenced on the host).
    pub fn as_ptr(&self) -> *const T {
        self.device_ptr() as *const T
    }

    /// The device address as a kernel's `*mut T` parameter (never dereferenced on the host).
    pub fn as_mut_ptr(&mut self) -> *mut T {
        self.device_ptr() as *mut T
    }
}

/// A device array passed to a typed launcher where the kernel reads `*const T`.
impl<T: DeviceCopy> KernelArg<*const T> for &DeviceVector<T> {
    fn into_kernel_arg(self) -> *const T {
        self.as_ptr()
    }
}

/// A device array passed to a typed launcher where the kernel writes through `*mut T`: the
/// `&mut` borrow says so at the call site.
impl<T: DeviceCopy> KernelArg<*mut T> for &mut DeviceVector<T> {
    fn into_kernel_arg(self) -> *mut T {
        self.as_mut_ptr()
    }
}

/// As [`DeviceVector`]'s: a matrix is its row-major array of f32.
impl KernelArg<*const f32> for &DeviceMatrix {
    fn into_kernel_arg(self) -> *const f32 {
        self.as_vector().as_ptr()
    }
}

impl KernelArg<*mut f32> for &mut DeviceMatrix {
    fn into_kernel_arg(self) -> *mut f32 {
        self.as_vector_mut().as_mut_ptr()
    }
}

impl DeviceVector<f32> {
    /// Every element set to `value` (e.g. NaN, to poison an output before a test).
    pub fn filled(gpu: &Gpu, len: usize, value: f32) -> Result<Self> {
        let mut v = Self::uninit(gpu, len)?;
        v.fill(gpu, value)?;
        Ok(v)
    }

    /// Sets every element to `value`, in stream order.
    pub fn fill(&mut self, gpu: &Gpu, value: f32) -> Result<()> {
        if !self.is_empty() {
            gpu.bind()?;
            // SAFETY: memset on our stream, ordered with the kernels that use the buffer.
            unsafe { self.buf.set_32_async(value.to_bits(), gpu.stream()) }.during("cuMemsetD32Async")?;
        }
        Ok(())
    }
}

/// A row-major `rows × cols` f32 matrix on the device.
pub struct DeviceMatrix {
    data: DeviceVector<f32>,
    rows: usize,
    cols: usize,
}

impl DeviceMatrix {
    /// Copies a row-major host matrix; `data.len()` must be `rows·cols`.
    pub fn from_host(gpu: &Gpu, rows: usize, cols: usize, data: &[f32]) -> Result<Self> {
        check_len("DeviceMatrix::from_host", rows, cols, data.len())?;
        Ok(DeviceMatrix { data: DeviceVector::from_host(gpu, data)?, rows, cols })
    }

    /// Copies a nalgebra matrix (column-major on the host, row-major here).
    pub fn from_nalgebra(gpu: &Gpu, m: &DMatrix<f32>) -> Result<Self> {
        let row_major: Vec<f32> = m.transpose().as_slice().to_vec();
        Self::from_host(gpu, m.nrows(), m.ncols(), &row_major)
    }

    pub fn zeros(gpu: &Gpu, rows: usize, cols: usize) -> Result<Self> {
        let len = checked_area("DeviceMatrix::zeros", rows, cols)?;
        Ok(DeviceMatrix { data: DeviceVector::zeros(gpu, len)?, rows, cols })
    }

    /// Every element `value`.
    pub fn filled(gpu: &Gpu, rows: usize, cols: usize, value: f32) -> Result<Self> {
        let len = checked_area("DeviceMatrix::filled", rows, cols)?;
        Ok(DeviceMatrix { data: DeviceVector::filled(gpu, len, value)?, rows, cols })
    }

    pub(crate) fn uninit(gpu: &Gpu, rows: usize, cols: usize) -> Result<Self> {
        let len = checked_area("DeviceMatrix::uninit", rows, cols)?;
        Ok(DeviceMatrix { data: DeviceVector::uninit(gpu, len)?, rows, cols })
    }

    /// Row-major contents.
    pub fn to_host(&self, gpu: &Gpu) -> Result<Vec<f32>> {
        self.data.to_host(gpu)
    }

    pub fn to_nalgebra(&self, gpu: &Gpu) -> Result<DMatrix<f32>> {
        Ok(DMatrix::from_row_slice(self.rows, self.cols, &self.to_host(gpu)?))
    }

    /// Overwrites the contents with row-major `data` of the same shape.
    pub fn copy_from_host(&mut self, gpu: &Gpu, data: &[f32]) -> Result<()> {
        check_len("DeviceMatrix::copy_from_host", self.rows, self.cols, data.len())?;
        self.data.copy_from_host(gpu, data)
    }

    pub fn fill(&mut self, gpu: &Gpu, value: f32) -> Result<()> {
        self.data.fill(gpu, value)
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

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn device_ptr(&self) -> u64 {
        self.data.device_ptr()
    }

    /// The device address as a kernel's `*const f32` parameter.
    pub fn as_ptr(&self) -> *const f32 {
        self.data.as_ptr()
    }

    /// The device address as a kernel's `*mut f32` parameter.
    pub fn as_mut_ptr(&mut self) -> *mut f32 {
        self.data.as_mut_ptr()
    }

    /// The underlying array.
    pub fn as_vector(&self) -> &DeviceVector<f32> {
        &self.data
    }

    /// The underlying array, writable (its length stays rows·cols).
    pub fn as_vector_mut(&mut self) -> &mut DeviceVector<f32> {
        &mut self.data
    }

    /// Reinterprets the same memory with another shape of equal size.
    pub fn reshape(self, rows: usize, cols: usize) -> Result<Self> {
        check_len("DeviceMatrix::reshape", rows, cols, self.len())?;
        Ok(DeviceMatrix { data: self.data, rows, cols })
    }
}

fn checked_area(op: &'static str, rows: usize, cols: usize) -> Result<usize> {
    rows.checked_mul(cols).ok_or(Error::TooLarge { op, what: "rows × cols", value: u64::MAX, limit: usize::MAX as u64 })
}

fn check_len(op: &'static str, rows: usize, cols: usize, len: usize) -> Result<()> {
    match rows.checked_mul(cols) {
        Some(n) if n == len => Ok(()),
        _ => Err(Error::DataLength { op, rows, cols, len }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_length_is_checked_before_any_gpu_call() {
        assert!(matches!(check_len("t", 3, 4, 11), Err(Error::DataLength { rows: 3, cols: 4, len: 11, .. })));
        assert!(check_len("t", 3, 4, 12).is_ok());
        assert!(check_len("t", 0, 5, 0).is_ok());
        assert!(matches!(check_len("t", usize::MAX, 2, 0), Err(Error::DataLength { .. })));
        assert!(matches!(checked_area("t", usize::MAX, 2), Err(Error::TooLarge { .. })));
    }
}
