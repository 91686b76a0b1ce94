//! `F32x4`: four floats moved as one 16-byte access (`ld.global.v4.f32`), the widest a thread
//! can issue, which elementwise kernels need to reach memory bandwidth.

#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct F32x4(pub [f32; 4]);

impl F32x4 {
    #[inline(always)]
    pub fn map(self, f: impl Fn(f32) -> f32) -> F32x4 {
        let [a, b, c, d] = self.0;
        F32x4([f(a), f(b), f(c), f(d)])
    }

    #[inline(always)]
    pub fn zip(self, other: F32x4, f: impl Fn(f32, f32) -> f32) -> F32x4 {
        let ([a, b, c, d], [e, g, h, i]) = (self.0, other.0);
        F32x4([f(a, e), f(b, g), f(c, h), f(d, i)])
    }
}
