//! Final ranking, scores and payoffs (spec §5.2, R19, R20, R24, R31).

use super::rules::{EndCondition, SimultaneousElimination};
use super::state::{Phase, State};
use crate::game::{GameResult, Seat};
use serde_json::json;

/// The result of a finished game: ranking per §5.2; scores are the final penalty totals (lower
/// is better); `details` carries the pot, stakes and payoffs when stakes were paid (R31).
pub fn result(state: &State) -> Option<GameResult> {
    if state.phase != Phase::Over {
        return None;
    }
    let final_deal = state.deal;
    let shared = state.table.options.simultaneous_elimination == SimultaneousElimination::Shared;
    let total = |s: Seat| state.totals.get(s).copied().unwrap_or(0);
    let out_in = |s: Seat| state.eliminated_in.get(s).copied().flatten();
    // Earlier eliminations rank lower; within one deal by lower total unless `shared` (R20).
    let by_elimination = |s: Seat| -> (u32, u32) {
        match out_in(s) {
            None => (0, 0),
            Some(d) => (
                1 + final_deal.saturating_sub(d),
                if shared { 0 } else { total(s) },
            ),
        }
    };
    let seats = 0..state.table.players;
    let ranking = match state.table.options.end_condition {
        EndCondition::LastSurvivor => GameResult::ranking_by_key(seats, by_elimination),
        // Survivors by lower total, then the eliminated by lower total (§5.2).
        EndCondition::FirstElimination => {
            GameResult::ranking_by_key(seats, |s| (out_in(s).is_some(), total(s)))
        }
        // Players of the final deal by lower total, then earlier eliminations (§5.2).
        EndCondition::Pot => GameResult::ranking_by_key(seats, |s| match out_in(s) {
            Some(d) if d < final_deal => (1, by_elimination(s)),
            _ => (0, (total(s), 0)),
        }),
    };
    let scores = (0..state.table.players).map(|s| total(s) as f64).collect();
    let details = if state.table.options.has_stakes() {
        let pot: u32 = state.stakes.iter().sum();
        let winners: Vec<Seat> = ranking.first().cloned().unwrap_or_default();
        let share = pot as f64 / winners.len().max(1) as f64;
        let payoffs: Vec<f64> = (0..state.table.players)
            .map(|s| {
                let won = if winners.contains(&s) { share } else { 0.0 };
                won - state.stakes.get(s).copied().unwrap_or(0) as f64
            })
            .collect();
        json!({
            "pot": pot,
            "pot_winners": winners,
            "stakes": state.stakes,
            "payoffs": payoffs,
            "scores": "final penalty totals: lower is better",
        })
    } else {
        json!({"scores": "final penalty totals: lower is better"})
    };
    Some(GameResult {
        ranking,
        scores,
        teams: None,
        details,
    })
}
