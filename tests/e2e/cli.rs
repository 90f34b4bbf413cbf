//! The `cardroom` subcommands that run without a server.

use api::cli::{Cli, Command, PlayoutArgs, playouts};
use clap::Parser as _;

#[test]
fn playouts_report_games_and_actions_per_second() {
    let report = playouts(&PlayoutArgs {
        game: crate::support::GAME.into(),
        players: 4,
        seconds: 0.2,
        seed: 1,
    })
    .expect("playouts run");
    assert!(report.games >= 1 && report.actions > report.games);
    let line = serde_json::to_value(&report).unwrap();
    for field in [
        "game",
        "players",
        "games",
        "actions",
        "seconds",
        "actions_per_s",
        "games_per_s",
    ] {
        assert!(line.get(field).is_some(), "{field} in {line}");
    }
    assert!(
        playouts(&PlayoutArgs {
            game: "chess".into(),
            players: 2,
            seconds: 0.1,
            seed: 0
        })
        .is_err()
    );
}

#[test]
fn serve_flags_parse_and_require_sealed_needs_a_key() {
    let cli =
        Cli::try_parse_from(["cardroom", "serve", "--port", "0", "--require-sealed"]).unwrap();
    let Command::Serve(args) = cli.command else {
        panic!("serve")
    };
    assert_eq!(args.host, "127.0.0.1");
    assert!(
        args.config().is_err(),
        "--require-sealed without a key is refused"
    );
    let cli = Cli::try_parse_from([
        "cardroom",
        "serve",
        "--seal-key",
        &"ab".repeat(32),
        "--require-sealed",
    ])
    .unwrap();
    let Command::Serve(args) = cli.command else {
        panic!("serve")
    };
    let config = args.config().unwrap();
    assert!(config.codec.is_sealed() && config.codec.requires_sealed());
    assert!(
        Cli::try_parse_from(["cardroom", "playouts", "--game", "twenty_two"]).is_err(),
        "--players is required"
    );
}

#[test]
fn serve_sets_the_ismcts_budget_per_move() {
    let budget = |extra: &[&str]| {
        let cli = Cli::try_parse_from([&["cardroom", "serve"], extra].concat())?;
        let Command::Serve(args) = cli.command else {
            panic!("serve")
        };
        Ok::<u64, clap::Error>(args.arena.config().expect("no files to read").ismcts_ms)
    };
    assert_eq!(budget(&[]).unwrap(), arena::builtin::ISMCTS_BUDGET_MS);
    assert_eq!(budget(&["--ismcts-ms", "1500"]).unwrap(), 1500);
    assert!(
        budget(&["--ismcts-ms", "0"]).is_err(),
        "a search needs time"
    );
    assert!(budget(&["--ismcts-ms", "60001"]).is_err(), "over a minute");
}

#[test]
fn openapi_writes_and_checks_every_game_document() {
    use api::cli::{OpenapiArgs, openapi};
    // `games/` does not exist yet: `--write-games` creates it. Removed when the test ends.
    let scratch = crate::support::temp_dir("games");
    let dir = scratch.path().join("games");
    let args = |write: bool| OpenapiArgs {
        write: None,
        check: None,
        write_games: write.then(|| dir.clone()),
        check_games: (!write).then(|| dir.clone()),
        write_3_0: None,
        check_3_0: None,
    };
    openapi(&args(true)).expect("writes every game document");
    let written = std::fs::read_dir(&dir).expect("dir").count();
    assert_eq!(written, engine::registry::games().len());
    openapi(&args(false)).expect("freshly written documents pass the check");

    let watten = dir.join("watten.json");
    std::fs::write(&watten, "{}\n").expect("edit");
    let error = openapi(&args(false))
        .expect_err("an edited document fails")
        .to_string();
    assert!(error.contains("watten.json"), "{error}");
    openapi(&args(true)).expect("rewrites");
    std::fs::write(dir.join("chess.json"), "{}\n").expect("stray");
    let error = openapi(&args(false))
        .expect_err("a stray document fails")
        .to_string();
    assert!(
        error.contains("chess.json") && !error.contains("watten.json"),
        "{error}"
    );
}

/// Issue 43: `--write-3-0` writes the 3.0.3 copy of every document, `--check-3-0` finds an edited
/// or stray one.
#[test]
fn openapi_writes_and_checks_every_3_0_copy() {
    use api::cli::{OpenapiArgs, openapi};
    let scratch = crate::support::temp_dir("openapi30");
    let dir = scratch.path().join("3.0");
    let args = |write: bool| OpenapiArgs {
        write: None,
        check: None,
        write_games: None,
        check_games: None,
        write_3_0: write.then(|| dir.clone()),
        check_3_0: (!write).then(|| dir.clone()),
    };
    openapi(&args(true)).expect("writes every 3.0 copy");
    assert!(dir.join("cardroom.json").exists() && dir.join("bot-protocol.json").exists());
    assert_eq!(
        std::fs::read_dir(dir.join("games")).expect("games").count(),
        engine::registry::games().len()
    );
    openapi(&args(false)).expect("freshly written copies pass the check");
    let basra: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("games/basra.json")).expect("basra"),
    )
    .expect("json");
    assert_eq!(basra["openapi"], "3.0.3");
    std::fs::write(dir.join("games/basra.json"), "{}\n").expect("edit");
    std::fs::write(dir.join("games/chess.json"), "{}\n").expect("stray");
    let error = openapi(&args(false))
        .expect_err("an edited and a stray copy fail")
        .to_string();
    assert!(
        error.contains("basra.json") && error.contains("chess.json"),
        "{error}"
    );
}
