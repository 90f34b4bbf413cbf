//! The crew's shared result (spec §5, R17): the score x and the comparison of two results.

use crate::game::GameResult;
use serde_json::Value;
use std::cmp::Ordering;

/// x = stages cleared / stages to clear (S − start_stage + 1); exactly 1 when the crew cleared.
pub fn score(stages_cleared: u32, final_stage: u32, start_stage: u32) -> f64 {
    let total = (final_stage + 1).saturating_sub(start_stage).max(1);
    f64::from(stages_cleared) / f64::from(total)
}

/// Compares two Trump Crew results of the same configuration (§5): cleared beats not cleared;
/// among cleared results fewer deals is better; among failed results more stages cleared is
/// better; otherwise equal. `Greater` means `a` is better. `None` if the configurations differ
/// (players, final stage, start stage, deal limit) or a result is not a Trump Crew result.
pub fn compare(a: &GameResult, b: &GameResult) -> Option<Ordering> {
    let key = |r: &GameResult| -> Option<(Vec<Value>, bool, u64, u64)> {
        let d = &r.details;
        let config = vec![
            Value::from(r.scores.len()),
            d.get("final_stage")?.clone(),
            d.get("start_stage")?.clone(),
            d.get("max_deals")?.clone(),
        ];
        Some((
            config,
            d.get("cleared")?.as_bool()?,
            d.get("deals")?.as_u64()?,
            d.get("stages_cleared")?.as_u64()?,
        ))
    };
    let (config_a, cleared_a, deals_a, stages_a) = key(a)?;
    let (config_b, cleared_b, deals_b, stages_b) = key(b)?;
    if config_a != config_b {
        return None;
    }
    Some(match (cleared_a, cleared_b) {
        (true, false) => Ordering::Greater,
        (false, true) => Ordering::Less,
        (true, true) => deals_b.cmp(&deals_a),
        (false, false) => stages_a.cmp(&stages_b),
    })
}
