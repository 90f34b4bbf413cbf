//! Duplicate tournaments: each deal (one seed) is played once per rotation of the seats, so every
//! bot holds every seat's cards, and the luck of the deal cancels out of the comparison. This
//! module turns a tournament's matches into standings (mean score per deal with a 95% confidence
//! interval) and head-to-head counts; the service stores and serves them.

use crate::dto::{HeadToHead, TournamentStanding};
use crate::store::{MatchStatus, TournamentMatch};
use std::collections::{BTreeMap, BTreeSet};

/// True once a match can no longer change.
pub fn over(status: MatchStatus) -> bool {
    matches!(status, MatchStatus::Finished | MatchStatus::Aborted)
}

/// The deals that some table still plays (a match queued or running).
pub fn open_deals(matches: &[TournamentMatch]) -> BTreeSet<u32> {
    matches
        .iter()
        .filter(|m| !over(m.record.status))
        .map(|m| m.deal)
        .collect()
}

/// The deals that count: every table over and finished (none aborted).
fn counted_deals(matches: &[TournamentMatch]) -> BTreeSet<u32> {
    let open = open_deals(matches);
    let aborted: BTreeSet<u32> = matches
        .iter()
        .filter(|m| m.record.status == MatchStatus::Aborted)
        .map(|m| m.deal)
        .collect();
    matches
        .iter()
        .map(|m| m.deal)
        .filter(|d| !open.contains(d) && !aborted.contains(d))
        .collect()
}

/// The per-seat scores of a finished match.
pub fn scores(entry: &TournamentMatch) -> Option<Vec<f64>> {
    Some(entry.record.result.as_ref()?.scores.clone())
}

/// The place (0 = best) of every seat of a finished match, from its ranking.
fn places(entry: &TournamentMatch) -> Option<Vec<usize>> {
    entry
        .record
        .result
        .as_ref()?
        .places(entry.record.bots.len())
}

/// Student's t quantile for a two-sided 95% interval with `df` degrees of freedom.
pub fn t95(df: usize) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::INFINITY,
        1..=30 => TABLE[df - 1],
        // Beyond the table, the normal quantile with its first-order correction (error < 0.001).
        _ => 1.959_964 + 2.372 / df as f64,
    }
}

/// Mean and 95% confidence interval of `samples`.
pub fn mean_ci(samples: &[f64]) -> (Option<f64>, Option<[f64; 2]>) {
    let n = samples.len();
    if n == 0 {
        return (None, None);
    }
    let mean = samples.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (Some(mean), None);
    }
    let variance = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    let half = t95(n - 1) * (variance / n as f64).sqrt();
    (Some(mean), Some([mean - half, mean + half]))
}

/// Standings, best mean first (bots without a counted deal last, in seat order): each bot's score
/// per deal is its seats' scores averaged over the tables of that deal, then the mean and its
/// interval are taken over the counted deals. `bots` lists every bot once, in seat order.
pub fn standings(
    bots: &[(String, String)],
    matches: &[TournamentMatch],
) -> Vec<TournamentStanding> {
    let counted = counted_deals(matches);
    // bot -> deal -> (sum, count) of its seats' scores at that deal's tables.
    let mut per_deal: BTreeMap<&str, BTreeMap<u32, (f64, u32)>> = BTreeMap::new();
    for entry in matches.iter().filter(|m| counted.contains(&m.deal)) {
        let Some(scores) = scores(entry) else {
            continue;
        };
        for (seat, bot) in entry.record.bots.iter().enumerate() {
            if let Some(score) = scores.get(seat) {
                let slot = per_deal
                    .entry(bot.as_str())
                    .or_default()
                    .entry(entry.deal)
                    .or_default();
                slot.0 += score;
                slot.1 += 1;
            }
        }
    }
    let mut standings: Vec<TournamentStanding> = bots
        .iter()
        .map(|(bot, name)| {
            let samples: Vec<f64> = per_deal
                .get(bot.as_str())
                .map(|deals| deals.values().map(|(sum, n)| sum / f64::from(*n)).collect())
                .unwrap_or_default();
            let (mean_score, ci95) = mean_ci(&samples);
            TournamentStanding {
                bot: bot.clone(),
                name: name.clone(),
                deals: samples.len() as u32,
                mean_score,
                ci95,
            }
        })
        .collect();
    // Stable: equal means keep seat order.
    standings.sort_by(|a, b| {
        let key = |s: &TournamentStanding| s.mean_score.unwrap_or(f64::NEG_INFINITY);
        key(b).total_cmp(&key(a))
    });
    standings
}

/// Head-to-head counts for every pair of bots that sat at one finished table of a counted deal,
/// each pair once (in the order of `bots`). A bot in several seats (partners) places as its best
/// seat.
pub fn head_to_head(bots: &[(String, String)], matches: &[TournamentMatch]) -> Vec<HeadToHead> {
    let counted = counted_deals(matches);
    let order: Vec<&str> = bots.iter().map(|(bot, _)| bot.as_str()).collect();
    let mut pairs: BTreeMap<(usize, usize), HeadToHead> = BTreeMap::new();
    for entry in matches.iter().filter(|m| counted.contains(&m.deal)) {
        let Some(places) = places(entry) else {
            continue;
        };
        // Each bot's best place at this table.
        let mut best: BTreeMap<usize, usize> = BTreeMap::new();
        for (seat, bot) in entry.record.bots.iter().enumerate() {
            if let Some(index) = order.iter().position(|b| b == bot) {
                let place = best.entry(index).or_insert(usize::MAX);
                *place = (*place).min(places[seat]);
            }
        }
        let seated: Vec<(usize, usize)> = best.into_iter().collect();
        for (i, &(a, place_a)) in seated.iter().enumerate() {
            for &(b, place_b) in &seated[i + 1..] {
                let pair = pairs.entry((a, b)).or_insert_with(|| HeadToHead {
                    bot: order[a].to_string(),
                    opponent: order[b].to_string(),
                    wins: 0,
                    losses: 0,
                    ties: 0,
                });
                match place_a.cmp(&place_b) {
                    std::cmp::Ordering::Less => pair.wins += 1,
                    std::cmp::Ordering::Greater => pair.losses += 1,
                    std::cmp::Ordering::Equal => pair.ties += 1,
                }
            }
        }
    }
    pairs.into_values().collect()
}

/// The rotations a tournament plays for `players` seats: every rotation, or the first only; a
/// rotation that seats the bots exactly as an earlier one is left out (it would replay the same
/// table). Returns `(rotation, bots in seat order)`.
pub fn rotations(bots: &[String], seat_rotations: bool) -> Vec<(u32, Vec<String>)> {
    let players = bots.len();
    let count = if seat_rotations { players } else { 1 };
    let mut seatings: Vec<(u32, Vec<String>)> = Vec::new();
    for rotation in 0..count {
        let seating: Vec<String> = (0..players)
            .map(|seat| bots[(seat + rotation) % players].clone())
            .collect();
        if !seatings.iter().any(|(_, s)| *s == seating) {
            seatings.push((rotation as u32, seating));
        }
    }
    seatings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::MatchResult;
    use crate::store::MatchRecord;
    use serde_json::json;

    fn table(deal: u32, bots: &[&str], status: MatchStatus, scores: &[f64]) -> TournamentMatch {
        // Ranking from the scores, higher first, equal scores sharing a place.
        let mut seats: Vec<usize> = (0..scores.len()).collect();
        seats.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]));
        let mut ranking: Vec<Vec<usize>> = Vec::new();
        for seat in seats {
            match ranking.last_mut() {
                Some(group) if scores[group[0]] == scores[seat] => group.push(seat),
                _ => ranking.push(vec![seat]),
            }
        }
        TournamentMatch {
            deal,
            rotation: 0,
            record: MatchRecord {
                id: format!("m_{deal}_{}", bots.join("")),
                seq: 0,
                moves_pruned: false,
                game: "g".into(),
                bots: bots.iter().map(|b| b.to_string()).collect(),
                options: json!({}),
                seed: 1,
                seed_salt: None,
                deals: Vec::new(),
                ranked: false,
                ladder: false,
                deadline_ms: 1000,
                max_faults: 3,
                clock: None,
                pace_ms: 0,
                status,
                result: (status == MatchStatus::Finished).then(|| MatchResult {
                    scores: scores.to_vec(),
                    ranking,
                    ..MatchResult::default()
                }),
                error: None,
                abort_reason: None,
                created_at: 0,
                started_at: None,
                finished_at: None,
                creator: None,
            },
        }
    }

    fn named(bots: &[&str]) -> Vec<(String, String)> {
        bots.iter()
            .map(|b| (b.to_string(), b.to_uppercase()))
            .collect()
    }

    #[test]
    fn rotations_cover_every_seat_once_and_skip_repeated_seatings() {
        let bots: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let all = rotations(&bots, true);
        assert_eq!(all.len(), 3);
        assert_eq!(all[1].1, ["b", "c", "a"]);
        // Every bot sits in every seat once.
        for seat in 0..3 {
            let sitters: BTreeSet<&str> = all.iter().map(|(_, s)| s[seat].as_str()).collect();
            assert_eq!(sitters.len(), 3);
        }
        assert_eq!(rotations(&bots, false).len(), 1);
        // Partners A B A B: rotations 2 and 3 repeat 0 and 1.
        let partners: Vec<String> = ["a", "b", "a", "b"].iter().map(|s| s.to_string()).collect();
        let played = rotations(&partners, true);
        assert_eq!(
            played.iter().map(|(r, _)| *r).collect::<Vec<_>>(),
            vec![0, 1]
        );
    }

    #[test]
    fn standings_average_a_deals_tables_then_the_deals() {
        let matches = vec![
            // Deal 0: a scores 10 then 6 across the two rotations (8 per deal); b 2 then 4 (3).
            table(0, &["a", "b"], MatchStatus::Finished, &[10.0, 2.0]),
            table(0, &["b", "a"], MatchStatus::Finished, &[4.0, 6.0]),
            // Deal 1: a 4 (4+4)/2, b 0.
            table(1, &["a", "b"], MatchStatus::Finished, &[4.0, 0.0]),
            table(1, &["b", "a"], MatchStatus::Finished, &[0.0, 4.0]),
            // Deal 2 is still in play at one table: not counted.
            table(2, &["a", "b"], MatchStatus::Finished, &[100.0, 0.0]),
            table(2, &["b", "a"], MatchStatus::Running, &[]),
            // Deal 3 has an aborted table: not counted for anyone.
            table(3, &["a", "b"], MatchStatus::Finished, &[0.0, 100.0]),
            table(3, &["b", "a"], MatchStatus::Aborted, &[]),
        ];
        let standings = standings(&named(&["a", "b"]), &matches);
        assert_eq!(standings[0].bot, "a");
        assert_eq!(standings[0].name, "A");
        assert_eq!(standings[0].deals, 2);
        assert_eq!(standings[0].mean_score, Some(6.0));
        // Samples 8 and 4: sd = 2.828, se = 2, t(1) = 12.706.
        let [lo, hi] = standings[0].ci95.unwrap();
        assert!((lo - (6.0 - 25.412)).abs() < 1e-9 && (hi - (6.0 + 25.412)).abs() < 1e-9);
        assert_eq!(standings[1].mean_score, Some(1.5));
        assert_eq!(open_deals(&matches), BTreeSet::from([2]));
    }

    #[test]
    fn head_to_head_counts_places_at_shared_tables_partners_tie() {
        let matches = vec![
            table(0, &["a", "b"], MatchStatus::Finished, &[10.0, 2.0]),
            table(0, &["b", "a"], MatchStatus::Finished, &[4.0, 4.0]),
            table(
                1,
                &["a", "b", "a", "b"],
                MatchStatus::Finished,
                &[1.0, 5.0, 1.0, 5.0],
            ),
        ];
        let pairs = head_to_head(&named(&["a", "b"]), &matches);
        assert_eq!(pairs.len(), 1);
        assert_eq!(pairs[0].bot, "a");
        assert_eq!(pairs[0].opponent, "b");
        assert_eq!((pairs[0].wins, pairs[0].losses, pairs[0].ties), (1, 1, 1));
    }

    #[test]
    fn t_quantiles_and_intervals() {
        assert_eq!(t95(1), 12.706);
        assert_eq!(t95(30), 2.042);
        assert!((t95(120) - 1.980).abs() < 0.001);
        assert_eq!(mean_ci(&[]), (None, None));
        assert_eq!(mean_ci(&[3.0]), (Some(3.0), None));
        let (mean, ci) = mean_ci(&[1.0, 2.0, 3.0, 4.0, 5.0]);
        assert_eq!(mean, Some(3.0));
        // sd = 1.5811, se = sqrt(2.5 / 5) = 1 / sqrt(2), t(4) = 2.776.
        let [lo, hi] = ci.unwrap();
        assert!((hi - 3.0 - 2.776 * std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-6);
        assert!((3.0 - lo - 2.776 * std::f64::consts::FRAC_1_SQRT_2).abs() < 1e-6);
    }
}
