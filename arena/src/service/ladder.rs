//! The ranked ladder: every round, for each game, schedule one ranked match among the active bots
//! of that game (unless the ladder's previous match of that game is still being played, or the
//! game's pace says wait). Built-in bots play each other only to seed a game id's ratings
//! (`--ladder-builtin-matches` ranked matches among themselves); after that every ladder match of
//! the game id seats a registered bot. A game plays at `--ladder-matches-per-minute` while one of
//! its bots has an unsettled rating (sigma at least `--ladder-settled-sigma`; once seeded, a
//! registered bot's); once all are settled, built-in bots stop playing each other, and a
//! registered bot keeps playing at `--ladder-settled-matches-per-hour`, so an arena left alone
//! goes quiet instead of filling its disk; and the whole ladder starts at most
//! `--ladder-matches-per-day` matches a day (the game ids that waited longest first). The
//! first seat goes to the most uncertain bot (highest sigma, so new bots get games), the others to
//! the bots whose mu is closest to it. Each match's table size is the one the game id allows
//! among its bots that has the fewest ranked matches so far, so every size gets played (the
//! leaderboard shows the counts). External bots are probed each round (the version a bot reports
//! is kept on it). A bot whose probe
//! fails sits out and is probed again after a back-off (1 s, 2 s, 4 s, ... up to half the pause
//! window, at most 30 s); it is paused only once its failures (failed probes or
//! disqualifications in a row, at least `pause_after`) span the pause window (60 s by default),
//! so a bot restarted in a few seconds keeps its place. A paused bot that answers its probe plays
//! an unranked trial match against the built-in `random`; only a trial without a fault of its own
//! returns it to the ladder (the runner judges it). [`HealthPolicy`] holds these rules.
//!
//! One process schedules at a time, whatever the number of workers on the database: the leader
//! holds [`crate::store::Leadership`] (a PostgreSQL advisory lock on a connection of its own) and
//! the others try to take it every round, which they get when the leader's session ends.

use super::Arena;
use crate::bots::{self, HealthPolicy};
use crate::client::BUILTIN_SCHEME;
use crate::dto::CreateMatch;
use crate::ratings::Rating;
use crate::store::{BotHealth, BotRecord, Creator, MatchFilter, MatchStatus, PauseReason, now_ms};
use crate::wire::BotInfo;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Runs the ladder forever: a round every interval while this process leads it.
pub async fn run(arena: Arena) {
    let mut ticker = tokio::time::interval(arena.config().ladder_interval);
    let mut leadership: Option<crate::store::Leadership> = None;
    loop {
        ticker.tick().await;
        // A draining process schedules nothing more and hands the ladder over at once.
        if arena.is_draining() {
            if leadership.take().is_some() {
                tracing::info!("draining: this process no longer schedules the ladder");
                arena.metrics().set_ladder_leader(false);
            }
            continue;
        }
        if let Some(held) = &mut leadership
            && !held.holds().await
        {
            tracing::warn!("lost the ladder leadership (its database connection failed)");
            leadership = None;
            arena.metrics().set_ladder_leader(false);
        }
        if leadership.is_none() {
            match arena.store().try_lead().await {
                Ok(Some(held)) => {
                    tracing::info!("this process now schedules the ladder");
                    leadership = Some(held);
                    arena.metrics().set_ladder_leader(true);
                }
                Ok(None) => continue,
                Err(error) => {
                    tracing::warn!(error = format!("{error:#}"), "ladder election failed");
                    continue;
                }
            }
        }
        if let Err(error) = round(&arena).await {
            tracing::warn!(error = format!("{error:#}"), "ladder round failed");
        }
    }
}

/// One ladder round. Returns the ids of the matches scheduled.
pub async fn round(arena: &Arena) -> anyhow::Result<Vec<String>> {
    let bots = available_bots(arena).await?;
    schedule(arena, &bots).await
}

/// The bots the ladder may seat this round: every bot but those sitting out a back-off or
/// failing their probe (probed now, all at once) or not connected.
async fn available_bots(arena: &Arena) -> anyhow::Result<Vec<BotRecord>> {
    let store = arena.store();
    let policy = HealthPolicy::of(arena.config());
    let mut bots = store.bots().await?;
    let now = now_ms();
    // A bot whose last probe failed sits out until its back-off has passed.
    let mut unreachable: Vec<String> = bots
        .iter()
        .filter(|b| b.retry_at.is_some_and(|at| at > now))
        .map(|b| b.id.clone())
        .collect();
    // Probe every other external bot, all at once: a failing or paused bot that answers is back
    // on the ladder; a bot that does not answer sits out (see [`HealthPolicy`]). A bot that
    // connects out answers by being connected; one that is not sits out without a failure (it
    // is offline by choice, as a URL bot never is).
    let connected = store.connected_bots().await?;
    let mut probes = tokio::task::JoinSet::new();
    for (i, bot) in bots
        .iter()
        .enumerate()
        .filter(|(_, b)| !b.builtin && !unreachable.contains(&b.id))
    {
        if bot.transport.answers_from_outside() {
            let info = connected.contains(&bot.id).then(|| BotInfo {
                name: bot.name.clone(),
                author: bot.author.clone(),
                version: bot.version.clone(),
                games: bot.games.clone(),
            });
            probes.spawn(async move { (i, info) });
            continue;
        }
        let client = arena.client().clone();
        let target = bots::target(bot);
        let timeout = arena.config().probe_timeout;
        probes.spawn(async move { (i, client.probe(&target, timeout).await.ok()) });
    }
    while let Some(joined) = probes.join_next().await {
        let Ok((i, info)) = joined else { continue };
        if info.is_none() && bots[i].transport.answers_from_outside() {
            unreachable.push(bots[i].id.clone());
            continue;
        }
        let bot = &mut bots[i];
        if let Some(info) = &info {
            keep_version(arena, bot, info).await?;
        }
        let answered = info.is_some();
        if answered && bot.paused && bot.pause_reason == Some(PauseReason::Moderated) {
            // Paused by the admin: only the admin returns it.
        } else if answered && bot.paused {
            // Paused (it stays out of ranked play): a clean trial match returns it.
            trial(arena, bot, &policy).await?;
        } else if answered && bot.retry_at.is_some() {
            let healthy = BotHealth::default();
            store.set_bot_health(&bot.id, &healthy).await?;
            bot.failures = 0;
        } else if !answered {
            let health = policy.failed(&bot.health(), now_ms(), true);
            if health.paused && !bot.paused {
                tracing::warn!(
                    bot = bot.id,
                    failures = health.failures,
                    "bot paused from the ladder"
                );
            }
            store.set_bot_health(&bot.id, &health).await?;
            unreachable.push(bot.id.clone());
        }
    }
    bots.retain(|b| !unreachable.contains(&b.id));
    Ok(bots)
}

/// The ladder's pace, kept by the process leading it: when each game id last started a match,
/// and the whole ladder's daily budget (`--ladder-matches-per-day`, a GCRA: one match every
/// day / N, a burst of an hour's share), which bounds the storage the ladder adds a day
/// whatever its phase.
#[derive(Debug)]
pub struct LadderPace {
    last: HashMap<String, Instant>,
    /// One match of the budget per this (None: no budget).
    interval: Option<Duration>,
    burst: u32,
    /// When the budget is all there again (the GCRA's theoretical arrival time).
    full_at: Option<Instant>,
}

impl LadderPace {
    /// A pace with a budget of `per_day` matches a day (0: none).
    pub fn new(per_day: u32) -> Self {
        LadderPace {
            last: HashMap::new(),
            interval: (per_day > 0).then(|| Duration::from_secs(86_400) / per_day),
            burst: (per_day / 24).max(1),
            full_at: None,
        }
    }

    /// When the ladder last started a match of `game`.
    pub fn last(&self, game: &str) -> Option<Instant> {
        self.last.get(game).copied()
    }

    /// Takes one match from the daily budget at `now`; false (and nothing taken) when spent.
    pub fn take(&mut self, now: Instant) -> bool {
        let Some(interval) = self.interval else {
            return true;
        };
        let full_at = self.full_at.map_or(now, |at| at.max(now));
        if full_at > now + interval * (self.burst - 1) {
            return false;
        }
        self.full_at = Some(full_at + interval);
        true
    }

    fn started(&mut self, game: &str, at: Instant) {
        self.last.insert(game.to_string(), at);
    }
}

/// Schedules this round's matches among `bots`: the game ids that waited longest first, so a
/// spent daily budget delays every game id alike.
async fn schedule(arena: &Arena, bots: &[BotRecord]) -> anyhow::Result<Vec<String>> {
    let round_start = Instant::now();
    let busy = arena
        .store()
        .matches(&MatchFilter {
            statuses: vec![MatchStatus::Queued, MatchStatus::Running],
            limit: 10_000,
            ..MatchFilter::default()
        })
        .await?;
    let mut games: Vec<_> = engine::registry::games()
        .iter()
        .filter(|game| !busy.iter().any(|m| m.ladder && m.game == game.info().id))
        .map(|game| {
            let last = arena
                .ladder_pace()
                .lock()
                .expect("pace")
                .last(&game.info().id);
            (last, game)
        })
        .collect();
    // Never started first (None sorts first), then the oldest start; stable: registry order.
    games.sort_by_key(|(last, _)| *last);
    let mut scheduled = Vec::new();
    for (last, game) in games {
        let Some(request) = plan(arena, game.as_ref(), bots, last, round_start).await? else {
            continue;
        };
        if !arena
            .ladder_pace()
            .lock()
            .expect("pace")
            .take(Instant::now())
        {
            tracing::debug!("the ladder's daily budget is spent until its next share");
            break;
        }
        let id = request.game.clone();
        match arena.new_match(request, Creator::ladder(), true).await {
            Ok(record) => {
                arena
                    .ladder_pace()
                    .lock()
                    .expect("pace")
                    .started(&id, round_start);
                scheduled.push(record.id)
            }
            Err(error) => {
                tracing::warn!(game = id, error = %error, "ladder could not schedule a match")
            }
        }
    }
    Ok(scheduled)
}

/// The ladder match of `game` this round, if its pace and bots allow one (`last`: when its
/// previous ladder match started).
async fn plan(
    arena: &Arena,
    game: &dyn engine::erased::Game,
    bots: &[BotRecord],
    last: Option<Instant>,
    round_start: Instant,
) -> anyhow::Result<Option<CreateMatch>> {
    let config = arena.config();
    // The wait between two ladder matches of a game: the full pace while a bot there is
    // unsettled, the settled pace once all are (None: no wait).
    let per = |matches: u32, period: Duration| (matches > 0).then(|| period / matches);
    let unsettled_pace = per(config.ladder_matches_per_minute, Duration::from_secs(60));
    let settled_pace = per(
        config.ladder_settled_matches_per_hour,
        Duration::from_secs(3600),
    );
    let id = &game.info().id;
    // The faster pace is the first that can allow a match.
    if let (Some(last), Some(pace)) = (last, unsettled_pace)
        && round_start < last + pace
    {
        return Ok(None);
    }
    // The built-in searchers spend their budget of CPU on every move: they play the matches
    // and tournaments that name them, not the automatic ladder.
    let candidates: Vec<&BotRecord> = bots
        .iter()
        .filter(|b| !b.paused && b.games.contains(id))
        .filter(|b| {
            !(b.builtin
                && crate::builtin::SEARCHES
                    .iter()
                    .any(|s| b.url == format!("{}{s}", crate::client::BUILTIN_SCHEME)))
        })
        .collect();
    let Some(players) = table_size(arena, game, candidates.len()).await? else {
        return Ok(None);
    };
    // The ratings at this table size: each size is its own competition.
    let ratings: HashMap<String, Rating> = arena
        .store()
        .leaderboard(id, players)
        .await?
        .into_iter()
        .map(|r| (r.bot_id, r.rating))
        .collect();
    let rating = |bot: &BotRecord| ratings.get(&bot.id).copied().unwrap_or_default();
    // Built-in bots play each other only to seed the game id's ratings
    // (`--ladder-builtin-matches`); after that every ladder match seats a registered bot.
    let seeded = builtins_seeded(arena, id).await?;
    let registered = candidates.iter().any(|b| !b.builtin);
    if seeded && !registered {
        return Ok(None);
    }
    // A bot whose rating is unsettled here needs opponents: the game plays at the full pace
    // (once seeded, only a registered bot's rating counts). Once every bot is settled,
    // built-in bots (yardsticks) stop playing each other, and a registered bot keeps its
    // rating current at the settled pace.
    let unsettled = candidates
        .iter()
        .filter(|b| !(seeded && b.builtin))
        .any(|b| rating(b).sigma >= config.ladder_settled_sigma);
    if !unsettled {
        if !registered {
            return Ok(None);
        }
        if let (Some(last), Some(pace)) = (last, settled_pace)
            && round_start < last + pace
        {
            return Ok(None);
        }
    }
    // A seeded or settled game is played for its registered bots: one of them takes the
    // first seat (built-in bots count as certain for that pick), the others are the closest
    // in mu.
    let seats = choose(
        &candidates
            .iter()
            .map(|b| {
                let mut pick = rating(b);
                if (seeded || !unsettled) && b.builtin {
                    pick.sigma = 0.0;
                }
                (b.id.clone(), pick)
            })
            .collect::<Vec<_>>(),
        players,
        rand::random(),
    );
    let request = CreateMatch {
        game: id.clone(),
        bots: seats,
        ranked: Some(true),
        ..CreateMatch::default()
    };
    Ok(Some(request))
}

/// Whether the built-in bots have played their `--ladder-builtin-matches` ranked matches among
/// themselves in `game` (remembered once true: the count never goes down).
async fn builtins_seeded(arena: &Arena, game: &str) -> anyhow::Result<bool> {
    if arena
        .builtins_seeded()
        .lock()
        .expect("seeded")
        .contains(game)
    {
        return Ok(true);
    }
    let wanted = arena.config().ladder_builtin_matches;
    let played = arena.store().builtin_matches(game, wanted).await?;
    let seeded = played >= u64::from(wanted);
    if seeded {
        arena
            .builtins_seeded()
            .lock()
            .expect("seeded")
            .insert(game.to_string());
    }
    Ok(seeded)
}

/// Keeps the author and version a bot reported at its probe.
async fn keep_version(arena: &Arena, bot: &mut BotRecord, info: &BotInfo) -> anyhow::Result<()> {
    if bot.version != info.version || bot.author != info.author {
        tracing::info!(
            bot = bot.id,
            version = info.version,
            "bot reports a new version"
        );
        arena
            .store()
            .set_bot_info(&bot.id, &info.author, &info.version)
            .await?;
        bot.version = info.version.clone();
        bot.author = info.author.clone();
    }
    Ok(())
}

/// A paused bot answered its probe: it plays an unranked trial match against the built-in
/// `random` (its first game, the fewest seats), unless its trial is on. A trial the runner did
/// not judge counts as failed: aborted (the bot did not answer when it began), or finished a
/// minute ago without a judgement (its worker died between the two).
async fn trial(arena: &Arena, bot: &mut BotRecord, policy: &HealthPolicy) -> anyhow::Result<()> {
    let store = arena.store();
    if let Some(trial) = &bot.trial_match {
        let unjudged = store
            .get_match(trial)
            .await?
            .is_none_or(|m| match m.status {
                MatchStatus::Aborted => true,
                MatchStatus::Finished => m.finished_at.is_some_and(|at| at < now_ms() - 60_000),
                MatchStatus::Waiting | MatchStatus::Queued | MatchStatus::Running => false,
            });
        if unjudged {
            let health = policy.trial_ended(&bot.health(), now_ms(), false);
            store.set_bot_health(&bot.id, &health).await?;
        }
        return Ok(());
    }
    let Some(random) = store
        .bots()
        .await?
        .into_iter()
        .find(|b| b.builtin && b.url == format!("{BUILTIN_SCHEME}random"))
    else {
        return Ok(());
    };
    let Some(game) = bot
        .games
        .iter()
        .find_map(|id| engine::registry::find(id).filter(|_| random.games.contains(id)))
    else {
        return Ok(());
    };
    let seats = std::iter::once(bot.id.clone())
        .chain(std::iter::repeat_n(
            random.id.clone(),
            game.info().players.min.max(2) - 1,
        ))
        .collect();
    let request = CreateMatch {
        game: game.info().id.clone(),
        bots: seats,
        ..CreateMatch::default()
    };
    // Created by the ladder: the trial's faults count toward the bot's health.
    match arena.new_match(request, Creator::ladder(), true).await {
        Ok(record) => {
            tracing::info!(
                bot = bot.id,
                match_id = record.id,
                "paused bot answers its probe: trial match queued"
            );
            let health = BotHealth {
                trial_match: Some(record.id.clone()),
                ..bot.health()
            };
            store.set_bot_health(&bot.id, &health).await?;
            bot.trial_match = Some(record.id);
        }
        Err(error) => {
            tracing::warn!(bot = bot.id, error = %error, "could not queue a trial match")
        }
    }
    Ok(())
}

/// The table size of a game's next ladder match among `bots` candidates: of the sizes the game
/// id allows (with its own options) and the bots fill, the one with the fewest ranked matches so
/// far (the smallest on a tie). None if the bots fill no table.
async fn table_size(
    arena: &Arena,
    game: &dyn engine::erased::Game,
    bots: usize,
) -> anyhow::Result<Option<usize>> {
    let range = game.info().players;
    let sizes: Vec<usize> = (range.min.max(2)..=range.max.min(bots))
        .filter(|players| {
            game.start(&engine::erased::NewGame {
                players: *players,
                options: Default::default(),
                seed: 1,
                deals: Vec::new(),
            })
            .is_ok()
        })
        .collect();
    if sizes.len() < 2 {
        return Ok(sizes.first().copied());
    }
    let played = arena.store().table_sizes(&game.info().id).await?;
    let count = |players: usize| {
        played
            .iter()
            .find(|(size, _)| *size == players)
            .map_or(0, |(_, matches)| *matches)
    };
    Ok(sizes.iter().copied().min_by_key(|players| count(*players)))
}

/// Picks `players` distinct bots: the most uncertain first (ties broken by `salt`), then the bots
/// whose mu is closest to it; then shuffles the seat order with `salt`.
pub fn choose(candidates: &[(String, Rating)], players: usize, salt: u64) -> Vec<String> {
    if candidates.len() < players || players == 0 {
        return Vec::new();
    }
    let jitter =
        |i: usize| (salt.rotate_left(i as u32 * 7) ^ (i as u64).wrapping_mul(0x9E37_79B9)) % 1000;
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by(|a, b| {
        candidates[*b]
            .1
            .sigma
            .total_cmp(&candidates[*a].1.sigma)
            .then(jitter(*a).cmp(&jitter(*b)))
    });
    let first = order[0];
    let anchor = candidates[first].1.mu;
    let mut rest: Vec<usize> = order[1..].to_vec();
    rest.sort_by(|a, b| {
        (candidates[*a].1.mu - anchor)
            .abs()
            .total_cmp(&(candidates[*b].1.mu - anchor).abs())
            .then(jitter(*a).cmp(&jitter(*b)))
    });
    let mut picked: Vec<usize> = std::iter::once(first)
        .chain(rest.into_iter().take(players - 1))
        .collect();
    // Seat order matters in card games: rotate it by the salt.
    let shift = (salt % players as u64) as usize;
    picked.rotate_left(shift);
    picked
        .into_iter()
        .map(|i| candidates[i].0.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(mu: f64, sigma: f64) -> Rating {
        Rating { mu, sigma }
    }

    #[test]
    fn the_daily_budget_lets_an_hours_share_through_then_one_match_per_share() {
        let mut pace = LadderPace::new(4800);
        let start = Instant::now();
        // A burst of an hour's share (200), then nothing more at once.
        assert_eq!((0..1000).filter(|_| pace.take(start)).count(), 200);
        // One match every 18 s (86,400 s / 4,800) from then on.
        assert!(!pace.take(start + Duration::from_secs(17)));
        assert!(pace.take(start + Duration::from_secs(18)));
        assert!(!pace.take(start + Duration::from_secs(18)));
        // Over a whole day, asked every second, it never gives more than the day's budget and
        // the first burst.
        let mut pace = LadderPace::new(4800);
        let given = (0..86_400)
            .filter(|s| pace.take(start + Duration::from_secs(*s)))
            .count();
        assert!((4800..=4800 + 200).contains(&given), "{given}");
        // No budget: no cap.
        let mut free = LadderPace::new(0);
        assert!((0..10_000).all(|_| free.take(start)));
    }

    #[test]
    fn the_most_uncertain_bot_plays_the_closest_rated_one() {
        let candidates = vec![
            ("a".to_string(), r(30.0, 1.0)),
            ("b".to_string(), r(25.0, 8.0)),
            ("c".to_string(), r(26.0, 2.0)),
            ("d".to_string(), r(10.0, 2.0)),
        ];
        let mut seats = choose(&candidates, 2, 0);
        seats.sort();
        assert_eq!(seats, vec!["b", "c"]);
        assert!(choose(&candidates, 5, 0).is_empty());
    }
}
