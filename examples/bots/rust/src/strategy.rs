//! The policy: which legal action to play. Make it your own.

use crate::protocol::{Action, MoveRequest};
use serde_json::Value;

const RANKS: &str = "23456789TJQKA";
const TEN: i64 = 8;

/// Rank of a card code (`"TH"` → 8, `"AS"` → 12, `"JK"` → 13); -1 for anything else (tiles).
pub fn rank_of(code: &str) -> i64 {
    if code == "JK" {
        return RANKS.len() as i64;
    }
    match code.as_bytes() {
        [rank, _] => RANKS
            .bytes()
            .position(|r| r == *rank)
            .map_or(-1, |i| i as i64),
        _ => -1,
    }
}

/// The cards an action names: its `cards` list or its single `card`.
fn cards_of(action: &Action) -> Vec<&str> {
    match (action.get("cards"), action.get("card")) {
        (Some(Value::Array(cards)), _) => cards.iter().filter_map(Value::as_str).collect(),
        (_, Some(Value::String(card))) => vec![card.as_str()],
        _ => Vec::new(),
    }
}

/// Sheds high cards early, as a penalty game like 22 rewards. Each legal action gets a score and
/// the best one wins (ties keep the engine's canonical order): in the exchange, discard a ten or
/// better, otherwise draw; leading (no target to beat), the highest card, as a set if possible;
/// following, the highest total. Actions naming no card (accept, fold, ...) keep the canonical
/// order. Returns an index into `request.legal_actions` (`None` if there is none).
pub fn choose(request: &MoveRequest) -> Option<usize> {
    let leading = request.view.get("target").is_none_or(Value::is_null);
    let mut best: Option<(usize, i64)> = None;
    for (index, action) in request.legal_actions.iter().enumerate() {
        let ranks: Vec<i64> = cards_of(action).into_iter().map(rank_of).collect();
        let top = ranks.iter().copied().max().unwrap_or(-1);
        let score = match action.get("type").and_then(Value::as_str) {
            Some("draw") => 100,
            Some("discard") if top >= TEN => 200 + top,
            Some("discard") => 0,
            _ if ranks.is_empty() => 0,
            _ if leading => top * 100 + ranks.len() as i64,
            _ => ranks.iter().map(|r| r.max(&0)).sum::<i64>() * 100 + top,
        };
        if best.is_none_or(|(_, best_score)| score > best_score) {
            best = Some((index, score));
        }
    }
    best.map(|(index, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn request(view: Value, legal: Value) -> MoveRequest {
        serde_json::from_value(json!({
            "match": "m_1", "game": "twenty_two", "seat": 0, "view": view,
            "legal_actions": legal, "deadline_ms": 1000
        }))
        .expect("a move request")
    }

    #[test]
    fn card_ranks_run_from_two_to_ace_joker_highest() {
        let ranks: Vec<i64> = ["2S", "9H", "TH", "AS", "JK", "2-5"]
            .into_iter()
            .map(rank_of)
            .collect();
        assert_eq!(ranks, [0, 7, 8, 12, 13, -1]);
    }

    #[test]
    fn the_policy_sheds_high_cards_and_discards_only_high_ones() {
        let lead = json!([{"type": "play", "cards": ["3S"]}, {"type": "play", "cards": ["KD"]},
                          {"type": "play", "cards": ["9C", "9H"]}]);
        assert_eq!(choose(&request(json!({"target": null}), lead)), Some(1));
        let exchange = json!([{"type": "discard", "card": "4S"}, {"type": "draw"},
                              {"type": "discard", "card": "QH"}]);
        assert_eq!(choose(&request(json!({}), exchange)), Some(2));
        let exchange = json!([{"type": "discard", "card": "4S"}, {"type": "draw"}]);
        assert_eq!(choose(&request(json!({}), exchange)), Some(1));
        let other = json!([{"type": "accept"}, {"type": "fold"}]);
        assert_eq!(choose(&request(json!({}), other)), Some(0));
        assert_eq!(choose(&request(json!({}), json!([]))), None);
    }
}
