//! `cardroom`: thin entry point; see `cardroom --help` and [`api::cli`].

use anyhow::Context as _;
use api::cli::{Cli, Command, LogFormat};
use clap::Parser;

// mimalloc (its mature 2.x line): the engine, the HTTP stack and serde allocate on every move.
// Against glibc's malloc, under callgrind: 7% fewer instructions on the bot's side of an arena
// move and 15% fewer on the arena's, 1.5-9% fewer per playout action; resident memory of a busy
// arena 65 -> 108 MB (the 3.x line was no faster and used more).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    api::metrics::mark_process_start();
    let cli = Cli::parse();
    arena::client::install_crypto_provider();
    match cli.command {
        Command::Serve(args) => {
            api::telemetry::init(&args.log, args.log_format == LogFormat::Json);
            let mut config = args.config()?;
            let sealed = config.codec.is_sealed();
            let arena_config = args.arena_config()?;
            let role = arena_config.role;
            // The arena's match workers run on a multi-threaded runtime (`--arena-threads`);
            // the HTTP server keeps actix's own per-worker threads.
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let arena_threads = args.arena.runtime_threads(cores);
            actix_web::rt::System::with_tokio_rt(move || {
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(arena_threads)
                    .enable_all()
                    .thread_name("cardroom-arena")
                    .build()
                    .expect("a tokio runtime")
            })
            .block_on(async move {
                // The arena opens (and migrates) its database, starts the match workers (which
                // resume interrupted matches) and the ladder election, as the role says; the
                // built-in bots are registered so the ladder has players.
                let arena = arena::Arena::open(arena_config).await?;
                arena.register_builtins().await?;
                // Health and metrics of a process without the API (`--admin-listen`).
                let mut servers = Vec::new();
                if let Some(address) = args.admin_listen() {
                    let running = api::startup::build_admin(&address, arena.clone(), config.metrics_token.clone())
                        .with_context(|| format!(
                            "cannot listen on {address} for /livez, /readyz and /metrics \
                             (--admin-listen): give each process on this machine its own \
                             address, or `off`"
                        ))?;
                    tracing::info!(addr = %running.addr, "cardroom admin listening (/livez, /readyz, /metrics)");
                    servers.push(running.server.handle());
                    actix_web::rt::spawn(running.server);
                }
                let api_server = if role.serves_api() {
                    config.arena = Some(arena.clone());
                    // This process drains on SIGTERM before its listener closes (below).
                    config.handle_signals = false;
                    let running = api::startup::build(config)?;
                    tracing::info!(addr = %running.addr, sealed, ?role, "cardroom listening");
                    servers.push(running.server.handle());
                    Some(actix_web::rt::spawn(running.server))
                } else {
                    // A worker serves no API: it plays matches until SIGTERM or Ctrl-C.
                    tracing::info!("cardroom arena worker running");
                    None
                };
                api::startup::stop_signal().await?;
                tracing::info!("cardroom told to stop: draining");
                api::startup::drain_and_stop(&arena, &servers).await;
                if let Some(server) = api_server {
                    server.await??;
                }
                anyhow::Ok(())
            })
        }
        Command::Openapi(args) => api::cli::openapi(&args),
        Command::Play(args) => actix_web::rt::System::new().block_on(async move {
            let routes = api::cli::play_routes()?;
            arena::play_serving(&args, &mut std::io::stdout(), Some(routes))
                .await
                .map(|_| ())
        }),
        Command::Db(args) => actix_web::rt::System::new().block_on(async move {
            let report = api::cli::db(&args).await?;
            println!("{report}");
            Ok(())
        }),
        Command::Playouts(args) => {
            let report = api::cli::playouts(&args)?;
            println!("{}", serde_json::to_string(&report)?);
            Ok(())
        }
    }
}
