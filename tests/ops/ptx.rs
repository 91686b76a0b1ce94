//! The embedded PTX and the kernel table agree (no GPU needed).

use host::module::{PTX_SM80, PTX_SM90A, SOURCE_HASH};
use integration_tests::Suite;
use xtask::ptxinfo;

pub fn register(s: &mut Suite) {
    for (arch, ptx) in [("sm_80", PTX_SM80), ("sm_90a", PTX_SM90A)] {
        s.cpu(format!("ptx::{arch}::entries_match_kernel_table"), move |_| {
            if ptxinfo::source_hash(ptx) != Some(SOURCE_HASH) {
                return Err(format!("{arch}: PTX hash {:?} != {SOURCE_HASH}", ptxinfo::source_hash(ptx)));
            }
            if ptxinfo::target(ptx) != Some(arch) {
                return Err(format!("{arch}: .target is {:?}", ptxinfo::target(ptx)));
            }
            let entries = ptxinfo::entries(ptx);
            for k in kernels::KERNELS.iter().filter(|k| k.available_on(arch)) {
                let e = entries.iter().find(|e| e.name == k.name).ok_or(format!("{arch}: {} missing", k.name))?;
                let want: Vec<(u32, bool)> = k.params.iter().map(|p| (p.bytes(), p.is_pointer())).collect();
                let got: Vec<(u32, bool)> = e.params.iter().map(|p| (p.bytes, p.is_ptr)).collect();
                if want != got {
                    return Err(format!("{arch}: {} params {got:?} in PTX vs {want:?}", k.name));
                }
            }
            if entries.len() != kernels::KERNELS.iter().filter(|k| k.available_on(arch)).count() {
                return Err(format!("{arch}: PTX has {} entries, table lists fewer: add new kernels to kernels::KERNELS", entries.len()));
            }
            Ok(())
        });
    }
}
