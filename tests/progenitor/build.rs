//! Generates the client from the committed OpenAPI 3.0 document named by `CARDROOM_SPEC` (the
//! e2e test sets it to `openapi/3.0/games/basra.json`) with progenitor, into `$OUT_DIR/client.rs`.

fn main() {
    let spec = std::env::var("CARDROOM_SPEC").expect("CARDROOM_SPEC names the OpenAPI document");
    println!("cargo:rerun-if-changed={spec}");
    println!("cargo:rerun-if-env-changed=CARDROOM_SPEC");
    let text = std::fs::read_to_string(&spec).expect("the OpenAPI document");
    let spec = serde_json::from_str(&text).expect("an OpenAPI 3.0 document");
    let mut generator = progenitor::Generator::default();
    let tokens = generator
        .generate_tokens(&spec)
        .expect("progenitor generates a client");
    let ast = syn::parse2(tokens).expect("the generated client parses");
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("client.rs");
    std::fs::write(out, prettyplease::unparse(&ast)).expect("client.rs");
}
