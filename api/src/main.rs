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
                let admin = match args.admin_listen() {
                    Some(address) => {
                        let running = api::startup::build_admin(&address, arena.clone())
                            .with_context(|| format!(
                                "cannot listen on {address} for /livez, /readyz and /metrics \
                                 (--admin-listen): give each process on this machine its own \
                                 address, or `off`"
                            ))?;
                        tracing::info!(addr = %running.addr, "cardroom admin listening (/livez, /readyz, /metrics)");
                        let handle = running.server.handle();
                        actix_web::rt::spawn(running.server);
                        Some(handle)
                    }
                    None => None,
                };
                if role.serves_api() {
                    config.arena = Some(arena.clone());
                    let running = api::startup::build(config)?;
                    tracing::info!(addr = %running.addr, sealed, ?role, "cardroom listening");
                    running.server.await?;
                } else {
                    // A worker serves no HTTP: it plays matches until SIGTERM or Ctrl-C.
                    tracing::info!("cardroom arena worker running");
                    let mut terminate = actix_web::rt::signal::unix::signal(
                        actix_web::rt::signal::unix::SignalKind::terminate(),
                    )?;
                    tokio::select! {
                        _ = actix_web::rt::signal::ctrl_c() => {}
                        _ = terminate.recv() => {}
                    }
                }
                if let Some(admin) = admin {
                    admin.stop(true).await;
                }
                // Clean stop: other workers resume this process's matches at once.
                match arena.release().await {
                    Ok(released) => tracing::info!(released, "cardroom stopped"),
                    Err(error) => tracing::warn!(
                        error = format!("{error:#}"),
                        "cardroom stopped; its match leases will run out instead"
                    ),
                }
                anyhow::Ok(())
            })
        }
        Command::Openapi(args) => api::cli::openapi(&args),
        Command::Play(args) => actix_web::rt::System::new()
            .block_on(async move { arena::play(&args, &mut std::io::stdout()).await.map(|_| ()) }),
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
