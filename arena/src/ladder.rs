//! The ranked ladder: every round, for each game, schedule one ranked match among the active bots
//! of that game (unless the ladder's previous match of that game is still being played). The
//! first seat goes to the most uncertain bot (highest sigma, so new bots get games), the others to
//! the bots whose mu is closest to it. External bots are probed each round: a bot that fails
//! `pause_after` probes or matches (disqualified) in a row is paused, and resumes play as soon as
//! its probe answers again.
//!
//! One process schedules at a time, whatever the number of workers on the database: the leader
//! holds [`crate::store::Leadership`] (a PostgreSQL advisory lock on a connection of its own) and
//! the others try to take it every round, which they get when the leader's session ends.

use crate::bots;
use crate::dto::CreateMatch;
use crate::ratings::Rating;
use crate::service::Arena;
use crate::store::{BotRecord, MatchFilter, MatchStatus};
use std::collections::HashMap;

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
    let mut bots = store.bots().await?;
    // Probe every external bot, all at once: a paused bot that answers is back on the ladder; an
    // active bot that does not answer sits this round out, and is paused after `pause_after`
    // failures in a row (failed probes or disqualifications).
    let mut probes = tokio::task::JoinSet::new();
    for (i, bot) in bots.iter().enumerate().filter(|(_, b)| !b.builtin) {
        let client = arena.client().clone();
        let target = bots::target(bot);
        let timeout = arena.config().probe_timeout;
        probes.spawn(async move { (i, client.probe(&target, timeout).await.is_ok()) });
    }
    let mut unreachable = Vec::new();
    while let Some(joined) = probes.join_next().await {
        let Ok((i, answered)) = joined else { continue };
        let bot = &mut bots[i];
        if answered && bot.paused {
            tracing::info!(
                bot = bot.id,
                "paused bot answers its probe again: back on the ladder"
            );
            store.set_bot_health(&bot.id, false, 0).await?;
            bot.paused = false;
            bot.failures = 0;
        } else if !answered && !bot.paused {
            bot.failures += 1;
            bot.paused = bot.failures >= arena.config().pause_after;
            if bot.paused {
                tracing::warn!(
                    bot = bot.id,
                    failures = bot.failures,
                    "bot paused from the ladder"
                );
            }
            store
                .set_bot_health(&bot.id, bot.paused, bot.failures)
                .await?;
            unreachable.push(bot.id.clone());
        }
    }
    bots.retain(|b| !unreachable.contains(&b.id));
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
        let candidates: Vec<&BotRecord> = bots
            .iter()
            .filter(|b| !b.paused && b.games.contains(id))
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
        let seats = choose(
            &candidates
                .iter()
                .map(|b| (b.id.clone(), rating(b)))
                .collect::<Vec<_>>(),
            players.min.max(2),
            rand::random(),
        );
        let request = CreateMatch {
            game: id.clone(),
            bots: seats,
            options: None,
            seed: None,
            deals: None,
            ranked: Some(true),
            deadline_ms: None,
        };
        match arena.new_match(request, true, true).await {
            Ok(record) => scheduled.push(record.id),
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
