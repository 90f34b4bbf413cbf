//! The recorded legal lists: for every game id and player count, a digest of everything seeded
//! random playouts see (the seats to act, every legal list in its canonical order as JSON, the
//! action chosen, every move's events and the final result), against `playout_digests.txt`.
//!
//! `random_playouts_play_the_recorded_games` (conformance) pins how long each game is; this pins
//! what every step lists and what every game ends with, over a thousand games or more per id
//! and player count. Speed work on a family (a faster legal list, a cheaper capture search, a
//! move applied without its checks) must leave every digest as it was; a rules fix that changes
//! games on purpose re-records the file, `CARDROOM_RECORD_DIGESTS=1 cargo test -p engine --test
//! main playout_digests`, and says so.

use engine::NewGame;
use engine::erased::PresetGame;
use engine::game::{GameDef, GameState};
use engine::games::{
    basra::Basra, bird_dog::BirdDog, chinese_ten::ChineseTen, marglia::Maniglia, marglia::Marglia,
    sloppy_seconds::SloppySeconds, taihe_abao::TaiheAbao, tjak_mat_tchi_ki::TjakMatTchiKi,
    trump_crew::TrumpCrew, twenty_two::TwentyTwo, watten::Watten,
};
use engine::registry;
use engine::rng::PlayoutRng;
use std::io::Write;

/// Games per id and player count: at least a thousand, fewer where one game is long (a table
/// of many players, or a family whose games run to hundreds of deals), so every line costs
/// about the same.
fn games_for(total_recorded_actions: u64) -> u64 {
    // `playout_totals.txt` holds the actions of 40 games: aim at about 400,000 actions a line.
    (400_000 * 40 / total_recorded_actions.max(1)).clamp(250, 4000)
}

/// FNV-1a over the bytes written: serde_json writes straight into it, nothing is buffered.
struct Digest(u64);

impl Write for Digest {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Digest {
    fn new() -> Digest {
        Digest(0xcbf2_9ce4_8422_2325)
    }

    fn json(&mut self, value: &impl serde::Serialize) {
        serde_json::to_writer(&mut *self, value).expect("serializable");
        self.0 = (self.0 ^ 0xff).wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// The digest of `games` seeded random games of `id` (seeds from 7000), typed: the same setups
/// as the registry's, `apply_listed` as the playout loop applies.
fn digest<G: GameDef>(id: &str, players: usize, games: u64) -> Option<u64> {
    let preset = PresetGame::<G>::preset(id)?;
    let mut digest = Digest::new();
    let (mut legal, mut events) = (Vec::new(), Vec::new());
    for seed in 7000..7000 + games {
        let request = NewGame {
            players,
            seed,
            ..NewGame::default()
        };
        // A count the id does not seat (with its default options): nothing to record.
        let setup = preset.typed_setup(&request).ok()?;
        events.clear();
        let mut state = G::setup(&setup, &mut events).expect("a checked setup plays");
        digest.json(&events);
        let mut rng = PlayoutRng::new(seed);
        let mut steps = 0u32;
        loop {
            let actors = state.to_act();
            let seats = actors.as_slice();
            digest.json(&seats);
            let Some(&seat) = seats.get(rng.below(seats.len().max(1))) else {
                break;
            };
            legal.clear();
            state.legal_actions(seat, &mut legal);
            digest.json(&legal);
            assert!(
                !legal.is_empty(),
                "{id} seed {seed}: seat {seat} has nothing listed"
            );
            let action = &legal[rng.below(legal.len())];
            events.clear();
            state
                .apply_listed(seat, action, &mut events)
                .unwrap_or_else(|e| panic!("{id} seed {seed}: a listed action is refused: {e}"));
            digest.json(&events);
            steps += 1;
            assert!(steps < 1_000_000, "{id} seed {seed}: no end");
        }
        digest.json(&state.result().expect("a finished game has a result"));
    }
    Some(digest.0)
}

fn family_digest(family: &str, id: &str, players: usize, games: u64) -> Option<u64> {
    match family {
        "twenty_two" => digest::<TwentyTwo>(id, players, games),
        "sloppy_seconds" => digest::<SloppySeconds>(id, players, games),
        "marglia" => digest::<Marglia>(id, players, games),
        "maniglia" => digest::<Maniglia>(id, players, games),
        "watten" => digest::<Watten>(id, players, games),
        "chinese_ten" => digest::<ChineseTen>(id, players, games),
        "basra" => digest::<Basra>(id, players, games),
        "taihe_abao" => digest::<TaiheAbao>(id, players, games),
        "tjak_mat_tchi_ki" => digest::<TjakMatTchiKi>(id, players, games),
        "trump_crew" => digest::<TrumpCrew>(id, players, games),
        "bird_dog" => digest::<BirdDog>(id, players, games),
        other => panic!("family {other} has no line in playout_digests.rs"),
    }
}

#[test]
fn random_playouts_list_the_recorded_legal_actions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let totals = std::fs::read_to_string(dir.join("playout_totals.txt")).expect("recorded totals");
    let work: Vec<(String, String, usize, u64)> = totals
        .lines()
        .map(|line| {
            let [id, players, total] = line.split(' ').collect::<Vec<_>>()[..] else {
                panic!("malformed line `{line}`");
            };
            let game = registry::find(id).unwrap_or_else(|| panic!("unknown id {id}"));
            let games = games_for(total.parse().expect("a total"));
            (
                id.to_string(),
                game.info().family.clone(),
                players.parse().expect("a player count"),
                games,
            )
        })
        .collect();
    // Lines spread over one worker per core, each worker taking the next line.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut lines = vec![String::new(); work.len()];
    let workers = std::thread::available_parallelism().map_or(2, |p| p.get());
    let done: Vec<Vec<(usize, String)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((id, family, players, games)) = work.get(i) else {
                            break out;
                        };
                        let digest = family_digest(family, id, *players, *games)
                            .unwrap_or_else(|| panic!("{id} {players}: not seated"));
                        out.push((i, format!("{id} {players} {games} {digest:016x}")));
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    for (i, line) in done.into_iter().flatten() {
        lines[i] = line;
    }
    let digests = lines.join("\n") + "\n";
    let path = dir.join("playout_digests.txt");
    if std::env::var_os("CARDROOM_RECORD_DIGESTS").is_some() {
        std::fs::write(&path, &digests).expect("write the recorded digests");
        return;
    }
    let recorded = std::fs::read_to_string(&path).expect("the recorded digests");
    let changed: Vec<String> = recorded
        .lines()
        .zip(digests.lines())
        .filter(|(was, now)| was != now)
        .map(|(was, now)| format!("recorded `{was}`, now `{now}`"))
        .collect();
    assert!(
        changed.is_empty() && recorded.lines().count() == digests.lines().count(),
        "seeded random playouts no longer list, play or end as recorded (a legal list, its \
         order, an event, a chance draw or a result changed): {changed:#?}"
    );
}
