//! `cardroom play`: one match, run locally from the command line, against bot URLs or built-in
//! bots, with a readable move log and the result. Nothing is kept: the arena runs on an
//! in-memory database.

use crate::client::FaultKind;
use crate::config::ArenaConfig;
use crate::dto::{CreateMatch, RegisterBot};
use crate::runner::compact;
use crate::service::Arena;
use crate::store::MoveRecord;
use std::io::Write;
use std::sync::Mutex;

/// Flags of `cardroom play`.
#[derive(Debug, Clone, clap::Args)]
pub struct PlayArgs {
    /// Game id, e.g. `twenty_two`.
    #[arg(long)]
    pub game: String,
    /// A bot per seat, in seat order: a URL, or a built-in bot (`random`, `heuristic`).
    #[arg(long = "bot", required = true)]
    pub bots: Vec<String>,
    /// Seed of the match (random if absent).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Option overrides as a JSON object, e.g. `{"target": 11}`.
    #[arg(long)]
    pub options: Option<String>,
    /// Per-move deadline in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub deadline_ms: u64,
    /// Deny non-public bot addresses (loopback bots are allowed by default).
    #[arg(long)]
    pub public: bool,
}

/// Plays the match and writes the move log and the result to `out`. Returns the result JSON.
pub async fn play(
    args: &PlayArgs,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<serde_json::Value> {
    let mut config = ArenaConfig::local("sqlite::memory:");
    if args.public {
        config.policy = crate::bots::safety::AddressPolicy::public();
    }
    config.deadline_ms = args.deadline_ms;
    // No workers: this command plays its one match itself, below.
    config.role = crate::config::Role::Api;
    let arena = Arena::open(config).await?;
    let builtins = arena.register_builtins().await?;
    let mut bots = Vec::new();
    let mut labels = Vec::new();
    for spec in &args.bots {
        if let Some(i) = crate::builtin::NAMES.iter().position(|n| n == spec) {
            bots.push(builtins[i].clone());
            labels.push(format!("{spec} (built-in)"));
            continue;
        }
        // The same URL in two seats (self-play) is one bot: names are unique.
        if let Some(seat) = args.bots.iter().position(|other| other == spec)
            && seat < bots.len()
        {
            bots.push(bots[seat].clone());
            labels.push(labels[seat].clone());
            continue;
        }
        let name: String = spec.chars().filter(|c| !c.is_control()).take(64).collect();
        let registered = arena
            .register_bot(RegisterBot {
                name,
                url: spec.clone(),
                games: vec![args.game.clone()],
            })
            .await
            .map_err(|e| anyhow::anyhow!("bot {spec}: {}", e.detail))?;
        labels.push(format!(
            "{} {} by {} ({spec})",
            registered.bot.name, registered.bot.version, registered.bot.author
        ));
        bots.push(registered.id);
    }
    let options = match &args.options {
        Some(text) => Some(
            serde_json::from_str(text)
                .map_err(|e| anyhow::anyhow!("--options is not a JSON object: {e}"))?,
        ),
        None => None,
    };
    let record = arena
        .new_match(
            CreateMatch {
                game: args.game.clone(),
                bots,
                options,
                seed: args.seed,
                deals: None,
                ranked: Some(false),
                deadline_ms: Some(args.deadline_ms),
                clock: None,
            },
            false,
            false,
        )
        .await
        .map_err(|e| anyhow::anyhow!("{}", e.detail))?;
    writeln!(
        out,
        "{} · seed {} · match {}",
        record.game, record.seed, record.id
    )?;
    for (seat, label) in labels.iter().enumerate() {
        writeln!(out, "  seat {seat}: {label}")?;
    }
    let record_id = record.id.clone();
    let outcome = {
        let out = Mutex::new(&mut *out);
        let print = |m: &MoveRecord| {
            if let Ok(mut out) = out.lock() {
                let fault = match &m.fault {
                    Some(f) if f.kind == FaultKind::Disqualified => {
                        "  (disqualified: first legal action)".to_string()
                    }
                    Some(f) => format!(
                        "  FAULT {}: {} → first legal action",
                        serde_json::to_value(f.kind)
                            .unwrap_or_default()
                            .as_str()
                            .unwrap_or(""),
                        f.detail
                    ),
                    None => String::new(),
                };
                let _ = writeln!(
                    out,
                    "{:>4}  seat {}  {}  {} ms{fault}",
                    m.index,
                    m.seat,
                    compact(&m.action),
                    m.latency_ms
                );
            }
        };
        arena.runner().run(&record_id, Some(&print)).await?
    };
    let finished = arena
        .wait_for(&record_id, std::time::Duration::from_secs(5))
        .await?;
    let Some(result) = finished.result else {
        anyhow::bail!(
            "the match did not finish: {outcome:?} {}",
            finished.error.unwrap_or_default()
        );
    };
    writeln!(out, "result:")?;
    let scores = result["scores"].as_array().cloned().unwrap_or_default();
    if let Some(ranking) = result["ranking"].as_array() {
        for (place, group) in ranking.iter().enumerate() {
            for seat in group
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|s| s.as_u64())
            {
                let seat = seat as usize;
                writeln!(
                    out,
                    "  {}. seat {seat} {}  score {}",
                    place + 1,
                    labels.get(seat).map(String::as_str).unwrap_or(""),
                    scores.get(seat).cloned().unwrap_or_default()
                )?;
            }
        }
    }
    if let Some(dq) = result["disqualified"].as_array().filter(|d| !d.is_empty()) {
        writeln!(
            out,
            "  disqualified seats: {}",
            serde_json::Value::Array(dq.clone())
        )?;
    }
    Ok(result)
}
