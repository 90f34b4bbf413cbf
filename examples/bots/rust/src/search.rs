//! The search example: flat Monte Carlo over the rules API.
//!
//! Every move request carries `info`, a token naming this seat's position.
//! `POST {api}/v1/games/{game}/rollouts` plays `playouts` games to the end after each legal
//! action, from deals this seat cannot tell from the real one, and answers each seat's
//! `mean_standing` (0 sole last .. 1 sole first, whichever way the game counts its scores). The
//! action with the best standing for our seat wins; a forced move, or a failed call, falls back
//! to the simple policy.

use crate::protocol::{Action, MoveRequest, MoveResponse};
use serde::Deserialize;
use std::time::Duration;

/// Playouts per legal action (`--playouts`).
pub const DEFAULT_PLAYOUTS: u32 = 16;

/// What `/rollouts` found after one action (the fields read here).
#[derive(Debug, Clone, Deserialize)]
pub struct ActionRollouts {
    /// The action.
    pub action: Action,
    /// Every seat's mean standing, 0 to 1.
    pub mean_standing: Vec<f64>,
}

#[derive(Deserialize)]
struct Rollouts {
    results: Vec<ActionRollouts>,
}

/// Where and how hard to search.
pub struct Search {
    http: reqwest::Client,
    api: String,
    playouts: u32,
}

impl Search {
    /// A search over the rules API at `api` (e.g. `https://arena.example`).
    pub fn new(api: &str, playouts: u32) -> Result<Self, reqwest::Error> {
        // reqwest is built without a default TLS provider (see Cargo.toml): install ring's.
        let _ = rustls::crypto::ring::default_provider().install_default();
        Ok(Self {
            http: reqwest::Client::builder()
                .connect_timeout(Duration::from_secs(10))
                .build()?,
            api: api.trim_end_matches('/').to_owned(),
            playouts,
        })
    }

    /// The answer chosen by rollouts from the request's `info` (`choose`'s on a forced move or
    /// a failed call, saying why in the comment). None without a legal action.
    pub async fn decide(
        &self,
        request: &MoveRequest,
        choose: impl Fn(&MoveRequest) -> Option<usize>,
    ) -> Option<MoveResponse> {
        let simple = |comment: String| {
            choose(request).map(|index| MoveResponse {
                action: request.legal_actions[index].clone(),
                comment: Some(comment),
            })
        };
        let Some(info) = request
            .info
            .as_deref()
            .filter(|_| request.legal_actions.len() > 1)
        else {
            return simple("forced".into());
        };
        match self.rollouts(request, info).await {
            Ok(results) if !results.is_empty() => {
                Some(best_of(&results, request.seat, self.playouts))
            }
            Ok(_) => simple("search failed (no results): the simple policy".into()),
            Err(error) => simple(format!("search failed ({error}): the simple policy")),
        }
    }

    async fn rollouts(
        &self,
        request: &MoveRequest,
        info: &str,
    ) -> Result<Vec<ActionRollouts>, reqwest::Error> {
        let body = serde_json::json!({"info": info, "count": self.playouts, "policy": "heuristic"});
        let rolled: Rollouts = self
            .http
            .post(format!("{}/v1/games/{}/rollouts", self.api, request.game))
            .json(&body)
            // Leave time to answer: the search gets about half the move's deadline.
            .timeout(Duration::from_millis((request.deadline_ms / 2).max(50)))
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        Ok(rolled.results)
    }
}

/// The answer with the best mean standing for `seat` (ties keep the canonical order).
pub fn best_of(results: &[ActionRollouts], seat: usize, playouts: u32) -> MoveResponse {
    let standing = |result: &ActionRollouts| result.mean_standing.get(seat).copied().unwrap_or(0.0);
    let mut best = &results[0];
    for result in results {
        if standing(result) > standing(best) {
            best = result;
        }
    }
    MoveResponse {
        action: best.action.clone(),
        comment: Some(format!(
            "rollouts: {playouts} per action, best standing {:.2}",
            standing(best)
        )),
    }
}

/// The answer to a move request: searched with `search`, else `choose`'s.
pub async fn decide(
    request: &MoveRequest,
    choose: impl Fn(&MoveRequest) -> Option<usize>,
    search: Option<&Search>,
) -> Option<MoveResponse> {
    match search {
        Some(search) => search.decide(request, choose).await,
        None => choose(request).map(|index| MoveResponse {
            action: request.legal_actions[index].clone(),
            comment: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_best_mean_standing_for_the_seat_wins_ties_keep_the_canonical_order() {
        let results: Vec<ActionRollouts> = serde_json::from_value(json!([
            {"action": {"type": "play", "cards": ["3S"]}, "mean_standing": [0.2, 0.8]},
            {"action": {"type": "play", "cards": ["KD"]}, "mean_standing": [0.6, 0.4]},
            {"action": {"type": "play", "cards": ["9C"]}, "mean_standing": [0.6, 0.1]},
        ]))
        .unwrap();
        let best = best_of(&results, 0, 8);
        assert_eq!(best.action, json!({"type": "play", "cards": ["KD"]}));
        assert_eq!(
            best.comment.as_deref(),
            Some("rollouts: 8 per action, best standing 0.60")
        );
        assert_eq!(
            best_of(&results, 1, 8).action,
            json!({"type": "play", "cards": ["3S"]})
        );
    }

    #[tokio::test]
    async fn a_forced_move_or_an_unreachable_api_falls_back_to_the_simple_policy() {
        let request: MoveRequest = serde_json::from_value(json!({
            "match": "m_1", "game": "twenty_two", "seat": 0, "view": {}, "deadline_ms": 200,
            "info": "i2.m_1.0.0.x",
            "legal_actions": [{"type": "play", "cards": ["3S"]}, {"type": "play", "cards": ["KD"]}],
        }))
        .unwrap();
        let search = Search::new("http://127.0.0.1:9", 8).unwrap();
        let last = |request: &MoveRequest| Some(request.legal_actions.len() - 1);
        let failed = search.decide(&request, last).await.expect("an answer");
        assert_eq!(failed.action, json!({"type": "play", "cards": ["KD"]}));
        assert!(
            failed
                .comment
                .as_deref()
                .is_some_and(|c| c.starts_with("search failed")),
            "{failed:?}"
        );
        let mut forced = request.clone();
        forced.legal_actions.truncate(1);
        let answer = search.decide(&forced, last).await.expect("an answer");
        assert_eq!(answer.comment.as_deref(), Some("forced"));
    }
}
