//! The result of a finished match: what the runner stores, `GET /v1/matches/{id}` and the live
//! stream show, bots get in their `/end` notice, and tournaments, match lists and `cardroom play`
//! read back.

use engine::GameResult;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A finished match's result. Its fields are declared in alphabetical order: results were
/// first written as JSON maps (whose keys serialize sorted), and this order keeps the stored and
/// served text byte for byte the same.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Game-specific facts from the engine (absent when the game gives none).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub details: Value,
    /// Seats disqualified for reaching the fault limit (ranked last, with their team).
    pub disqualified: Vec<usize>,
    /// Faults per seat.
    pub faults: Vec<u32>,
    /// Seats whose time bank ran out. Absent from results stored before matches had clocks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flagged: Option<Vec<usize>>,
    /// The game's own ranking, present only when disqualifications changed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_ranking: Option<Vec<Vec<usize>>>,
    /// Groups of seats, best first, after disqualifications.
    pub ranking: Vec<Vec<usize>>,
    /// One score per seat, in the game's unit.
    pub scores: Vec<f64>,
    /// The partnerships, in team games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<Vec<Vec<usize>>>,
}

impl MatchResult {
    /// The result of a match whose game ended with `game`: disqualified seats (and their teams)
    /// ranked last, the game's ranking kept beside when that changed it.
    pub fn new(
        game: &GameResult,
        disqualified: Vec<usize>,
        flagged: Vec<usize>,
        faults: Vec<u32>,
    ) -> MatchResult {
        let ranking = rank_disqualified(&game.ranking, game.teams.as_deref(), &disqualified);
        MatchResult {
            details: game.details.clone(),
            game_ranking: (ranking != game.ranking).then(|| game.ranking.clone()),
            disqualified,
            faults,
            flagged: Some(flagged),
            ranking,
            scores: game.scores.clone(),
            teams: game.teams.clone(),
        }
    }

    /// The place (0 = best) of each of `players` seats; None if the ranking names a seat beyond.
    pub fn places(&self, players: usize) -> Option<Vec<usize>> {
        let mut places = vec![usize::MAX; players];
        for (place, group) in self.ranking.iter().enumerate() {
            for &seat in group {
                *places.get_mut(seat)? = place;
            }
        }
        Some(places)
    }

    /// The result as a JSON object (the `/end` notice carries it so).
    pub fn to_object(&self) -> serde_json::Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(object)) => object,
            _ => serde_json::Map::new(),
        }
    }
}

/// Applies disqualifications to a ranking: disqualified seats (and, in team games, their whole
/// team) are taken out of their groups and ranked last together.
pub fn rank_disqualified(
    ranking: &[Vec<usize>],
    teams: Option<&[Vec<usize>]>,
    disqualified: &[usize],
) -> Vec<Vec<usize>> {
    let mut last: Vec<usize> = Vec::new();
    for seat in disqualified {
        let team: Vec<usize> = teams
            .and_then(|teams| teams.iter().find(|t| t.contains(seat)).cloned())
            .unwrap_or_else(|| vec![*seat]);
        for member in team {
            if !last.contains(&member) {
                last.push(member);
            }
        }
    }
    last.sort_unstable();
    let mut out: Vec<Vec<usize>> = ranking
        .iter()
        .map(|group| {
            group
                .iter()
                .copied()
                .filter(|s| !last.contains(s))
                .collect::<Vec<_>>()
        })
        .filter(|group| !group.is_empty())
        .collect();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn disqualified_seats_rank_last() {
        let ranking = vec![vec![2], vec![0, 1], vec![3]];
        assert_eq!(rank_disqualified(&ranking, None, &[]), ranking);
        assert_eq!(
            rank_disqualified(&ranking, None, &[2]),
            vec![vec![0, 1], vec![3], vec![2]]
        );
        assert_eq!(
            rank_disqualified(&ranking, None, &[3, 0]),
            vec![vec![2], vec![1], vec![0, 3]]
        );
    }

    #[test]
    fn a_disqualified_seat_takes_its_team_down() {
        let ranking = vec![vec![0, 2], vec![1, 3]];
        let teams = vec![vec![0, 2], vec![1, 3]];
        assert_eq!(
            rank_disqualified(&ranking, Some(&teams), &[2]),
            vec![vec![1, 3], vec![0, 2]]
        );
    }

    /// The JSON the runner wrote before this type existed, built the same way.
    fn as_written_before(
        result: &GameResult,
        ranking: &[Vec<usize>],
        disqualified: &[usize],
        flagged: &[usize],
        faults: &[u32],
    ) -> Value {
        let mut value = json!({
            "ranking": ranking,
            "scores": result.scores,
            "disqualified": disqualified,
            "flagged": flagged,
            "faults": faults,
        });
        if let Some(teams) = &result.teams {
            value["teams"] = json!(teams);
        }
        if !result.details.is_null() {
            value["details"] = result.details.clone();
        }
        if ranking != result.ranking.as_slice() {
            value["game_ranking"] = json!(result.ranking);
        }
        value
    }

    #[test]
    fn a_result_is_stored_and_served_as_the_same_text_as_before() {
        let plain = GameResult {
            ranking: vec![vec![1], vec![0, 2]],
            scores: vec![3.0, 7.5, 3.0],
            teams: None,
            details: Value::Null,
        };
        let teams = GameResult {
            ranking: vec![vec![0, 2], vec![1, 3]],
            scores: vec![2.0, 1.0, 2.0, 1.0],
            teams: Some(vec![vec![0, 2], vec![1, 3]]),
            details: json!({"pot": 12, "payoffs": [1, -1]}),
        };
        for (game, disqualified, flagged, faults) in [
            (&plain, vec![], vec![], vec![0, 0, 0]),
            (&plain, vec![1], vec![2], vec![3, 0, 1]),
            (&teams, vec![2], vec![], vec![0, 0, 3, 0]),
            (&teams, vec![], vec![0], vec![0, 1, 0, 0]),
        ] {
            let typed =
                MatchResult::new(game, disqualified.clone(), flagged.clone(), faults.clone());
            let before = as_written_before(game, &typed.ranking, &disqualified, &flagged, &faults);
            // Byte for byte: the stored column and the API's body.
            assert_eq!(
                serde_json::to_string(&typed).unwrap(),
                serde_json::to_string(&before).unwrap()
            );
            let parsed: MatchResult = serde_json::from_value(before).unwrap();
            assert_eq!(parsed, typed);
        }
    }

    #[test]
    fn a_result_stored_before_clocks_reads_and_is_served_unchanged() {
        let stored = r#"{"disqualified":[],"faults":[0,2],"ranking":[[0],[1]],"scores":[1.0,0.0]}"#;
        let parsed: MatchResult = serde_json::from_str(stored).unwrap();
        assert_eq!(parsed.flagged, None);
        assert_eq!(parsed.places(2), Some(vec![0, 1]));
        assert_eq!(serde_json::to_string(&parsed).unwrap(), stored);
    }
}
