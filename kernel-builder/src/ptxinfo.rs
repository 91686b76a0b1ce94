//! Reading PTX text: the kernel entries with their parameter lists, the `.target`, and the
//! source hash that [`crate::ptx`] stamps on the first line.

/// One `.entry` of a PTX module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub name: String,
    pub params: Vec<Param>,
}

/// A kernel parameter as PTX declares it: its size in bytes and whether it is marked `.ptr`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Param {
    pub bytes: u32,
    pub is_ptr: bool,
}

pub use kernel_std::launch::{ptx_source_hash as source_hash, ptx_target as target};

/// All `.entry` directives with their parameter lists.
pub fn entries(ptx: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut rest = ptx;
    while let Some(pos) = rest.find(".entry ") {
        rest = &rest[pos + ".entry ".len()..];
        let Some(open) = rest.find('(') else { break };
        let name = rest[..open].trim().to_string();
        let Some(close) = rest.find(')') else { break };
        let params = rest[open + 1..close].split(',').map(str::trim).filter(|p| !p.is_empty()).map(parse_param).collect();
        out.push(Entry { name, params });
        rest = &rest[close..];
    }
    out
}

fn parse_param(decl: &str) -> Param {
    // `.param .u64 .ptr .align 1 k_param_0`, `.param .f32 k_param_1`, `.param .align 8 .b8 k_param_2[24]`
    let is_ptr = decl.contains(".ptr");
    let bytes = if let (Some(open), Some(close)) = (decl.rfind('['), decl.rfind(']')) {
        decl[open + 1..close].trim().parse().unwrap_or(0)
    } else {
        decl.split_whitespace()
            .filter_map(|w| w.strip_prefix('.'))
            .find_map(|t| {
                let digits = t.trim_start_matches(|c: char| c.is_ascii_alphabetic());
                matches!(&t[..1], "u" | "s" | "b" | "f").then(|| digits.parse::<u32>().ok()).flatten()
            })
            .map(|bits| bits / 8)
            .unwrap_or(0)
    };
    Param { bytes, is_ptr }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = "// kernels-source-hash: 00ff\n.version 8.0\n.target sm_90a\n.address_size 64\n\
        .visible .entry k(\n\t.param .u64 .ptr .align 1 k_param_0,\n\t.param .u64 k_param_1,\n\
        \t.param .f32 k_param_2,\n\t.param .u32 k_param_3,\n\t.param .align 8 .b8 k_param_4[24]\n)\n{ ret; }\n\
        .visible .entry empty()\n{ ret; }\n";

    #[test]
    fn reads_entries_target_and_hash() {
        assert_eq!(target(PTX), Some("sm_90a"));
        assert_eq!(source_hash(PTX), Some("00ff"));
        let e = entries(PTX);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].name, "k");
        let p: Vec<(u32, bool)> = e[0].params.iter().map(|p| (p.bytes, p.is_ptr)).collect();
        assert_eq!(p, [(8, true), (8, false), (4, false), (4, false), (24, false)]);
        assert_eq!(e[1], Entry { name: "empty".into(), params: vec![] });
    }
}
