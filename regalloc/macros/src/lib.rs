//! The `regalloc!` proc-macro: a thin shell over `tdgen` that turns a `.td` file into static tables.
use proc_macro::TokenStream;

/// Compiles a `.td` target description (path relative to the calling crate's
/// manifest) into a module of static tables.
///
/// Until the emitter lands the macro only checks the description: every
/// diagnostic becomes a `compile_error!` naming the `.td` file, line and column.
#[proc_macro]
pub fn regalloc(input: TokenStream) -> TokenStream {
    let path: syn::LitStr = match syn::parse(input) {
        Ok(p) => p,
        Err(e) => return e.to_compile_error().into(),
    };
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let full = std::path::Path::new(&dir).join(path.value());
    let mut loader = tdgen::Loader::new();
    match loader.records(&full) {
        Ok(_) => quote::quote! {}.into(),
        Err(diags) => {
            let text = loader.render(&diags);
            syn::Error::new(path.span(), text).to_compile_error().into()
        }
    }
}
