//! Bench-only baseline, not part of the service: a minimal actix server that parses a JSON body
//! and serializes it back, the practical ceiling `bench/apply_load.sh` compares `apply` with.
//!
//! `cargo run --release -p api --example echo_server -- 127.0.0.1:18082`

use actix_web::{App, HttpServer, post, web};

// The same allocator as the `cardroom` binary, so the comparison is of the request handling.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[post("/echo")]
async fn echo(body: web::Json<serde_json::Value>) -> web::Json<serde_json::Value> {
    body
}

fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18082".into());
    actix_web::rt::System::new().block_on(
        HttpServer::new(|| {
            App::new()
                .app_data(web::JsonConfig::default().limit(256 * 1024))
                .service(echo)
        })
        .bind(addr)?
        .run(),
    )
}
