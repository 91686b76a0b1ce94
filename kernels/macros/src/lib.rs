//! `#[kernel]`: marks a `pub unsafe fn` as a GPU entry point.
//!
//! On `nvptx64` it becomes `#[no_mangle] pub unsafe extern "ptx-kernel" fn`. On the host the body
//! is dropped and, in its place, a typed launcher of the same name and parameters is emitted:
//! `pub unsafe fn name<L: kernel_std::Launch>(on: &L, config: L::Config, a: impl KernelArg<A>, …)`,
//! so that a wrong argument count or type is a compile error. Either way it emits a
//! `pub const <NAME_IN_CAPS>: kernel_std::KernelInfo` describing the name and parameter layout,
//! which the host looks the kernel up by and the builder checks the PTX against. The generated
//! code names `::kernel_std`: a kernel crate depends on it under that name.
//!
//! `#[kernel(sm_90a)]` compiles the body only into `sm_90a` PTX (Hopper-only instructions).
//! `#[kernel(max_threads = 256, min_blocks = 2)]` are CUDA's launch bounds: the builder writes
//! them into the PTX entry (`.maxntid`, `.minnctapersm`), so ptxas caps the registers to fit
//! `min_blocks` blocks of `max_threads` threads per multiprocessor. Arguments combine:
//! `#[kernel(sm_90a, max_threads = 384)]`.
//!
//! Rejected at compile time: a safe fn (launching is always unsafe: the caller vouches for
//! pointer validity), a return value, generics, `self`, patterns in parameters, and parameters
//! that are not `Copy` (kernel arguments are copied bit for bit into the launch).

use proc_macro::TokenStream;
use proc_macro2::Span;
use quote::{format_ident, quote};
use syn::{FnArg, ItemFn, Pat, ReturnType, Type, parse_macro_input, spanned::Spanned};

#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args = match parse_args(attr.into()) {
        Ok(a) => a,
        Err(e) => return e.to_compile_error().into(),
    };
    let func = parse_macro_input!(item as ItemFn);
    match expand(func, args) {
        Ok(ts) => ts.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// What `#[kernel(…)]` was given.
struct Args {
    min_arch: MinArch,
    /// Launch bounds (0: none).
    max_threads: u32,
    min_blocks: u32,
}

fn parse_args(attr: proc_macro2::TokenStream) -> syn::Result<Args> {
    use syn::{Expr, ExprLit, Lit, Meta, punctuated::Punctuated, token::Comma};
    let mut args = Args { min_arch: MinArch::Any, max_threads: 0, min_blocks: 0 };
    let metas = syn::parse::Parser::parse2(Punctuated::<Meta, Comma>::parse_terminated, attr)?;
    for meta in metas {
        match &meta {
            Meta::Path(p) if p.is_ident("sm_90a") => args.min_arch = MinArch::Sm90a,
            Meta::NameValue(nv) if nv.path.is_ident("max_threads") || nv.path.is_ident("min_blocks") => {
                let Expr::Lit(ExprLit { lit: Lit::Int(i), .. }) = &nv.value else {
                    return Err(syn::Error::new(nv.value.span(), "expected an integer literal"));
                };
                let v: u32 = i.base10_parse()?;
                if v == 0 {
                    return Err(syn::Error::new(i.span(), "launch bounds must be positive"));
                }
                if nv.path.is_ident("max_threads") {
                    if v > 1024 {
                        return Err(syn::Error::new(i.span(), "a block has at most 1024 threads"));
                    }
                    args.max_threads = v;
                } else {
                    args.min_blocks = v;
                }
            }
            other => {
                let msg = "unknown #[kernel] argument: expected `sm_90a`, `max_threads = N` or `min_blocks = N`";
                return Err(syn::Error::new(other.span(), msg));
            }
        }
    }
    if args.min_blocks != 0 && args.max_threads == 0 {
        return Err(syn::Error::new(Span::call_site(), "`min_blocks` needs `max_threads` (as in CUDA's __launch_bounds__)"));
    }
    Ok(args)
}

#[derive(Clone, Copy)]
enum MinArch {
    Any,
    Sm90a,
}

fn expand(func: ItemFn, args: Args) -> syn::Result<proc_macro2::TokenStream> {
    let Args { min_arch, max_threads, min_blocks } = args;
    let sig = &func.sig;
    if sig.unsafety.is_none() {
        return Err(syn::Error::new(sig.fn_token.span(), "a #[kernel] must be `pub unsafe fn`: its caller vouches for every pointer"));
    }
    if !matches!(func.vis, syn::Visibility::Public(_)) {
        return Err(syn::Error::new(sig.ident.span(), "a #[kernel] must be `pub`"));
    }
    if let ReturnType::Type(_, ty) = &sig.output {
        return Err(syn::Error::new(ty.span(), "a #[kernel] cannot return a value: write results through a pointer"));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        return Err(syn::Error::new(sig.generics.span(), "a #[kernel] cannot be generic: PTX entries need one concrete signature"));
    }
    if sig.asyncness.is_some() || sig.constness.is_some() || sig.abi.is_some() || sig.variadic.is_some() {
        return Err(syn::Error::new(sig.span(), "a #[kernel] is a plain `pub unsafe fn` (no async, const, extern or variadics)"));
    }

    let mut kinds = Vec::new();
    let mut copy_checks = Vec::new();
    let mut names = Vec::new();
    let mut types = Vec::new();
    for arg in &sig.inputs {
        let FnArg::Typed(pt) = arg else {
            return Err(syn::Error::new(arg.span(), "a #[kernel] cannot take `self`"));
        };
        let Pat::Ident(pi) = &*pt.pat else {
            return Err(syn::Error::new(pt.pat.span(), "a #[kernel] parameter must be a plain name"));
        };
        let ty = &*pt.ty;
        names.push(pi.ident.clone());
        types.push(ty.clone());
        copy_checks.push(quote! { __assert_copy::<#ty>(); });
        kinds.push(param_kind(ty));
    }

    let name = &sig.ident;
    let name_str = name.to_string();
    let info_ident = format_ident!("{}", name_str.to_uppercase());
    let attrs = &func.attrs;
    let inputs = &sig.inputs;
    let block = &func.block;
    let doc = format!("Launch descriptor of the `{name_str}` kernel: its PTX name and parameter layout.");
    let check_fn = format_ident!("__kernel_param_checks_{}", name_str);
    let docs: Vec<_> = func.attrs.iter().filter(|a| a.path().is_ident("doc")).collect();
    let launcher_doc = format!(
        "Host launcher of the `{name_str}` kernel: launches it through `on` with `config`, one argument per kernel \
         parameter, each of the parameter's type or convertible to it ([`::kernel_std::KernelArg`])."
    );
    let count = names.len();

    let (device_cfg, min_arch) = match min_arch {
        MinArch::Any => (quote! { #[cfg(target_arch = "nvptx64")] }, quote! { ::kernel_std::MinArch::Any }),
        MinArch::Sm90a => (quote! { #[cfg(all(target_arch = "nvptx64", target_feature = "sm_90a"))] }, quote! { ::kernel_std::MinArch::Sm90a }),
    };
    Ok(quote! {
        #device_cfg
        #(#attrs)*
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn #name(#inputs) #block

        #[cfg(not(target_arch = "nvptx64"))]
        #(#docs)*
        #[doc = ""]
        #[doc = #launcher_doc]
        #[allow(clippy::too_many_arguments)]
        pub unsafe fn #name<L: ::kernel_std::Launch + ?::core::marker::Sized>(
            on: &L,
            config: L::Config,
            #(#names: impl ::kernel_std::KernelArg<#types>),*
        ) -> ::core::result::Result<(), L::Error> {
            #(let mut #names: #types = ::kernel_std::KernelArg::<#types>::into_kernel_arg(#names);)*
            let mut args: [*mut ::core::ffi::c_void; #count] = [#(&mut #names as *mut #types as *mut ::core::ffi::c_void),*];
            // SAFETY: one pointer per parameter, in order, each to a value of the parameter's
            // own type; the caller vouches for the device memory (this fn's contract).
            unsafe { ::kernel_std::Launch::launch_raw(on, &#info_ident, config, &mut args) }
        }

        #[doc = #doc]
        pub const #info_ident: ::kernel_std::KernelInfo = ::kernel_std::KernelInfo {
            name: #name_str,
            params: &[#(#kinds),*],
            min_arch: #min_arch,
            max_threads: #max_threads,
            min_blocks: #min_blocks,
        };

        #[allow(non_snake_case, dead_code)]
        fn #check_fn() {
            fn __assert_copy<T: ::core::marker::Copy>() {}
            #(#copy_checks)*
        }
    })
}

/// Maps a parameter type to its `kernel_std::ParamKind`. Anything that is not a pointer or a known
/// scalar is passed by value as an aggregate of `size_of::<T>()` bytes.
fn param_kind(ty: &Type) -> proc_macro2::TokenStream {
    match ty {
        Type::Ptr(_) => quote! { ::kernel_std::ParamKind::Pointer },
        Type::Path(p) if p.qself.is_none() && p.path.segments.len() == 1 => match p.path.segments[0].ident.to_string().as_str() {
            "f32" => quote! { ::kernel_std::ParamKind::F32 },
            "u32" | "i32" => quote! { ::kernel_std::ParamKind::Word },
            "u64" | "i64" | "usize" | "isize" => quote! { ::kernel_std::ParamKind::DoubleWord },
            "TensorMap" => quote! { ::kernel_std::ParamKind::TensorMap },
            _ => quote! { ::kernel_std::ParamKind::Aggregate(::core::mem::size_of::<#ty>() as u32) },
        },
        _ => quote! { ::kernel_std::ParamKind::Aggregate(::core::mem::size_of::<#ty>() as u32) },
    }
}
