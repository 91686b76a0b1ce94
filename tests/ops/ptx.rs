//! The embedded PTX and cubins agree with the kernel table and the kernel sources (no GPU
//! needed).

use host::module::{CUBIN_SM80, CUBIN_SM90A, PTX_SM80, PTX_SM90A, SOURCE_HASH};
use integration_tests::Suite;
use xtask::ptxinfo;

pub fn register(s: &mut Suite) {
    for (arch, ptx) in [("sm_80", PTX_SM80.text()), ("sm_90a", PTX_SM90A.text())] {
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
    // A build without ptxas embeds no cubins (and says so): these are then reported ignored.
    for (arch, image) in [("sm_80", &CUBIN_SM80), ("sm_90a", &CUBIN_SM90A)] {
        s.cpu_if(image.is_embedded(), format!("cubin::{arch}::built_from_these_sources"), move |_| {
            let cubin = image.bytes();
            check_cubin(arch, cubin)?;
            // The same cubin with another hash in it must fail the check.
            let at = cubin.windows(SOURCE_HASH.len()).position(|w| w == SOURCE_HASH.as_bytes()).ok_or("hash not found")?;
            let mut stale = cubin.to_vec();
            stale[at..at + SOURCE_HASH.len()].copy_from_slice(b"0123456789abcdef");
            match check_cubin(arch, &stale) {
                Err(e) if e.contains("other kernel sources") => Ok(()),
                other => Err(format!("{arch}: a cubin with another source hash passed the check: {other:?}")),
            }
        });
    }
}

/// The cubin is CUDA SASS for `arch`, carries this build's source hash (the PTX's
/// `xtask::ptx::HASH_GLOBAL`, which ptxas keeps as initialized data), and defines every kernel.
fn check_cubin(arch: &str, cubin: &[u8]) -> Result<(), String> {
    const EM_CUDA: u16 = 190;
    if cubin.len() < 64 || cubin[..4] != *b"\x7fELF" {
        return Err(format!("{arch}: not an ELF file ({} bytes)", cubin.len()));
    }
    let machine = u16::from_le_bytes([cubin[18], cubin[19]]);
    if machine != EM_CUDA {
        return Err(format!("{arch}: ELF machine {machine}, expected {EM_CUDA} (CUDA)"));
    }
    // The SM number sits in e_flags: bits 8..16 in ELF ABI 8 (CUDA 12.8+), bits 0..8 before.
    let flags = u32::from_le_bytes([cubin[48], cubin[49], cubin[50], cubin[51]]);
    let sm: u32 = arch.trim_start_matches("sm_").trim_end_matches('a').parse().map_err(|e| format!("{arch}: {e}"))?;
    if (flags >> 8) & 0xff != sm && flags & 0xff != sm {
        return Err(format!("{arch}: ELF flags {flags:#x} do not name SM {sm}"));
    }
    let has = |needle: &[u8]| cubin.windows(needle.len()).any(|w| w == needle);
    if !has(SOURCE_HASH.as_bytes()) || !has(format!("\0{}\0", xtask::ptx::HASH_GLOBAL).as_bytes()) {
        return Err(format!("{arch}: the cubin does not carry source hash {SOURCE_HASH}: it was built from other kernel sources"));
    }
    for k in kernels::KERNELS.iter().filter(|k| k.available_on(arch)) {
        if !has(format!("\0{}\0", k.name).as_bytes()) {
            return Err(format!("{arch}: kernel {} is missing from the cubin", k.name));
        }
    }
    Ok(())
}
