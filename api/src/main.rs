//! `cardroom`: thin entry point; see `cardroom --help` and [`api::cli`].

use api::cli::{Cli, Command, LogFormat};
use clap::Parser;

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Serve(args) => {
            api::telemetry::init(&args.log, args.log_format == LogFormat::Json);
            let config = args.config()?;
            let sealed = config.codec.is_sealed();
            actix_web::rt::System::new().block_on(async move {
                let running = api::startup::build(config)?;
                tracing::info!(addr = %running.addr, sealed, "cardroom listening");
                running.server.await?;
                tracing::info!("cardroom stopped");
                anyhow::Ok(())
            })
        }
        Command::Openapi(args) => api::cli::openapi(&args),
        Command::Playouts(args) => {
            let report = api::cli::playouts(&args)?;
            println!("{}", serde_json::to_string(&report)?);
            Ok(())
        }
    }
}
