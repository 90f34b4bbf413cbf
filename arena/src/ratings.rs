//! Ratings: pure functions over the Weng-Lin (OpenSkill) Bayesian rating of `skillratings`, which
//! handles free-for-all and teams with ties. No database here; the store applies the result in the
//! same transaction as the match result.

use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use utoipa::ToSchema;

/// A rating: mean skill `mu` and uncertainty `sigma`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Rating {
    /// Estimated skill.
    pub mu: f64,
    /// Uncertainty of the estimate.
    pub sigma: f64,
}

impl Default for Rating {
    fn default() -> Self {
        let fresh = WengLinRating::new();
        Rating {
            mu: fresh.rating,
            sigma: fresh.uncertainty,
        }
    }
}

impl Rating {
    /// The conservative value shown on leaderboards: `mu - 3 sigma` (0 for a new bot).
    pub fn display(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// One side of a finished match: its members' ratings and its place (1 = best; ties share a place).
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    /// Ratings of the side's members.
    pub members: Vec<Rating>,
    /// Place, 1-based; equal places are ties.
    pub place: usize,
}

/// New ratings for every member of every side, in the same order.
pub fn update(sides: &[Side]) -> Vec<Vec<Rating>> {
    let teams: Vec<Vec<WengLinRating>> = sides
        .iter()
        .map(|side| {
            side.members
                .iter()
                .map(|r| WengLinRating {
                    rating: r.mu,
                    uncertainty: r.sigma,
                })
                .collect()
        })
        .collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(sides)
        .map(|(team, side)| (team.as_slice(), MultiTeamOutcome::new(side.place)))
        .collect();
    weng_lin_multi_team(&input, &WengLinConfig::new())
        .into_iter()
        .map(|team| {
            team.into_iter()
                .map(|r| Rating {
                    mu: r.rating,
                    sigma: r.uncertainty,
                })
                .collect()
        })
        .collect()
}

/// The sides of a match from its final ranking (groups of seats, best first) and its teams (each
/// a list of seats; `None` = one seat per side). Returns, per side, its seats and its place.
pub fn sides_of(ranking: &[Vec<usize>], teams: Option<&[Vec<usize>]>) -> Vec<(Vec<usize>, usize)> {
    let place_of = |seat: usize| {
        ranking
            .iter()
            .position(|group| group.contains(&seat))
            .map(|i| i + 1)
            .unwrap_or(ranking.len() + 1)
    };
    match teams {
        Some(teams) => teams
            .iter()
            .filter(|team| !team.is_empty())
            .map(|team| {
                let place = team.iter().map(|s| place_of(*s)).max().unwrap_or(1);
                (team.clone(), place)
            })
            .collect(),
        None => ranking
            .iter()
            .flatten()
            .map(|seat| (vec![*seat], place_of(*seat)))
            .collect(),
    }
}
