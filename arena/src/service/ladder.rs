//! The ranked ladder: every round, for each game, schedule one ranked match among the active bots
//! of that game (unless the ladder's previous match of that game is still being played, or the
//! game's pace says wait). A game plays at `--ladder-matches-per-minute` while one of its bots has
//! an unsettled rating (sigma at least `--ladder-settled-sigma`); once all are settled, built-in
//! bots stop playing each other, and a registered bot keeps playing at
//! `--ladder-settled-matches-per-hour`, so an arena left alone goes quiet instead of filling its
//! disk. The
//! first seat goes to the most uncertain bot (highest sigma, so new bots get games), the others to
//! the bots whose mu is closest to it. External bots are probed each round. A bot whose probe
//! fails sits out and is probed again after a back-off (1 s, 2 s, 4 s, ... up to half the pause
//! window, at most 30 s); it is paused only once its failures (failed probes or
//! disqualifications in a row, at least `pause_after`) span the pause window (60 s by default),
//! so a bot restarted in a few seconds keeps its place. A paused bot resumes play as soon as its
//! probe answers again. [`HealthPolicy`] holds these rules.
//!
//! One process schedules at a time, whatever the number of workers on the database: the leader
//! holds [`crate::store::Leadership`] (a PostgreSQL advisory lock on a connection of its own) and
//! the others try to take it every round, which they get when the leader's session ends.

use super::Arena;
use crate::bots::{self, HealthPolicy};
use crate::dto::CreateMatch;
use crate::ratings::Rating;
use crate::store::{BotHealth, BotRecord, MatchFilter, MatchStatus, now_ms};
use std::collections::HashMap;
use std::time::Duration;

/// Runs the ladder forever: a round every interval while this process leads it.
pub async fn run(arena: Arena) {
    let mut ticker = tokio::time::interval(arena.config().ladder_interval);
    let mut leadership: Option<crate::store::Leadership> = None;
    loop {
        ticker.tick().await;
        if let Some(held) = &mut leadership
            && !held.holds().await
        {
            tracing::warn!("lost the ladder leadership (its database connection failed)");
            leadership = None;
        }
        if leadership.is_none() {
            match arena.store().try_lead().await {
                Ok(Some(held)) => {
                    tracing::info!("this process now schedules the ladder");
                    leadership = Some(held);
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
    // on the ladder; a bot that does not answer sits out (see [`HealthPolicy`]).
    let mut probes = tokio::task::JoinSet::new();
    for (i, bot) in bots
        .iter()
        .enumerate()
        .filter(|(_, b)| !b.builtin && !unreachable.contains(&b.id))
    {
        let client = arena.client().clone();
        let target = bots::target(bot);
        let timeout = arena.config().probe_timeout;
        probes.spawn(async move { (i, client.probe(&target, timeout).await.is_ok()) });
    }
    while let Some(joined) = probes.join_next().await {
        let Ok((i, answered)) = joined else { continue };
        let bot = &mut bots[i];
        if answered && (bot.paused || bot.retry_at.is_some()) {
            if bot.paused {
                tracing::info!(
                    bot = bot.id,
                    "paused bot answers its probe again: back on the ladder"
                );
            }
            let healthy = BotHealth::default();
            store.set_bot_health(&bot.id, &healthy).await?;
            bot.paused = false;
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
    let config = arena.config();
    // The wait between two ladder matches of a game: the full pace while a bot there is
    // unsettled, the settled pace once all are (None: no wait).
    let per = |matches: u32, period: Duration| (matches > 0).then(|| period / matches);
    let unsettled_pace = per(config.ladder_matches_per_minute, Duration::from_secs(60));
    let settled_pace = per(
        config.ladder_settled_matches_per_hour,
        Duration::from_secs(3600),
    );
    let round_start = std::time::Instant::now();
    let busy = store
        .matches(&MatchFilter {
            statuses: vec![MatchStatus::Queued, MatchStatus::Running],
            limit: 10_000,
            ..MatchFilter::default()
        })
        .await?;
    let mut scheduled = Vec::new();
    for game in engine::registry::games() {
        let id = &game.info().id;
        if busy.iter().any(|m| m.ladder && &m.game == id) {
            continue;
        }
        let last = arena.ladder_pace().lock().expect("pace").get(id).copied();
        // The faster pace is the first that can allow a match.
        if let (Some(last), Some(pace)) = (last, unsettled_pace)
            && round_start < last + pace
        {
            continue;
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
        let players = game.info().players;
        if candidates.len() < players.min.max(2) {
            continue;
        }
        let ratings: HashMap<String, Rating> = store
            .leaderboard(id)
            .await?
            .into_iter()
            .map(|r| (r.bot_id, r.rating))
            .collect();
        let rating = |bot: &BotRecord| ratings.get(&bot.id).copied().unwrap_or_default();
        // A bot whose rating is unsettled here needs opponents: the game plays at the full pace.
        // Once every bot is settled, built-in bots (yardsticks) stop playing each other, and a
        // registered bot keeps its rating current at the settled pace.
        let unsettled = candidates
            .iter()
            .any(|b| rating(b).sigma >= config.ladder_settled_sigma);
        if !unsettled {
            if !candidates.iter().any(|b| !b.builtin) {
                continue;
            }
            if let (Some(last), Some(pace)) = (last, settled_pace)
                && round_start < last + pace
            {
                continue;
            }
        }
        // A settled game is played for its registered bots: one of them takes the first seat
        // (built-in bots count as certain for that pick), the others are the closest in mu.
        let seats = choose(
            &candidates
                .iter()
                .map(|b| {
                    let mut pick = rating(b);
                    if !unsettled && b.builtin {
                        pick.sigma = 0.0;
                    }
                    (b.id.clone(), pick)
                })
                .collect::<Vec<_>>(),
            players.min.max(2),
            rand::random(),
        );
        let request = CreateMatch {
            game: id.clone(),
            bots: seats,
            ranked: Some(true),
            ..CreateMatch::default()
        };
        match arena.new_match(request, true, true).await {
            Ok(record) => {
                arena
                    .ladder_pace()
                    .lock()
                    .expect("pace")
                    .insert(id.clone(), round_start);
                scheduled.push(record.id)
            }
            Err(error) => {
                tracing::warn!(game = id, error = %error, "ladder could not schedule a match")
            }
        }
    }
    Ok(scheduled)
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
