//! `cardroom`: thin entry point; see `cardroom --help` and [`api::cli`].

use api::cli::{Cli, Command, LogFormat};
use clap::Parser;

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    arena::client::install_crypto_provider();
    match cli.command {
        Command::Serve(args) => {
            api::telemetry::init(&args.log, args.log_format == LogFormat::Json);
            let mut config = args.config()?;
            let sealed = config.codec.is_sealed();
            let arena_config = args.arena.config();
            actix_web::rt::System::new().block_on(async move {
                // The arena opens (and migrates) its database, resumes interrupted matches and
                // starts the ladder; the built-in bots are registered so the ladder has players.
                let arena = arena::Arena::open(arena_config).await?;
                arena.register_builtins().await?;
                config.arena = Some(arena);
                let running = api::startup::build(config)?;
                tracing::info!(addr = %running.addr, sealed, "cardroom listening");
                running.server.await?;
                tracing::info!("cardroom stopped");
                anyhow::Ok(())
            })
        }
        Command::Openapi(args) => api::cli::openapi(&args),
        Command::Play(args) => actix_web::rt::System::new()
            .block_on(async move { arena::play(&args, &mut std::io::stdout()).await.map(|_| ()) }),
        Command::Playouts(args) => {
            let report = api::cli::playouts(&args)?;
            println!("{}", serde_json::to_string(&report)?);
            Ok(())
        }
    }
}
