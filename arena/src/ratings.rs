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

/// New ratings of a match in which the sides flagged in `forfeited` were disqualified (faults
/// lose): a side that played is rated against every other side, forfeited ones below it; a
/// forfeited side is rated as losing to the sides that played and to `yardstick` (the game's
/// `random` rating, a virtual opponent), never against another forfeited side (sides disqualified
/// together learn nothing from each other, so their shared last place is no draw). A bot that
/// faults on every move only ever loses rating, and at least as fast as against `random` alone.
/// Without a forfeit this is [`update`].
pub fn update_forfeits(sides: &[Side], forfeited: &[bool], yardstick: Rating) -> Vec<Vec<Rating>> {
    let forfeits = |i: usize| forfeited.get(i).copied().unwrap_or(false);
    let mut after = update(sides);
    let played: Vec<&Side> = (0..sides.len())
        .filter(|i| !forfeits(*i))
        .map(|i| &sides[i])
        .collect();
    for (i, side) in sides.iter().enumerate().filter(|(i, _)| forfeits(*i)) {
        let last = sides.iter().map(|s| s.place).max().unwrap_or(1) + 1;
        let mut alone: Vec<Side> = played.iter().map(|s| (*s).clone()).collect();
        alone.push(Side {
            members: vec![yardstick],
            place: 1,
        });
        alone.push(Side {
            members: side.members.clone(),
            place: last,
        });
        if let Some(own) = update(&alone).pop() {
            after[i] = own;
        }
    }
    after
}

/// How a side's match counts on the leaderboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Alone in first place, not disqualified.
    Win,
    /// First place shared with another side, neither disqualified.
    Draw,
    /// Any other place, and every disqualified side's result.
    Loss,
}

/// The outcome of each side from its place (1 = best) and whether it forfeited: a forfeited
/// side always loses, even when every side forfeited and all share the one place.
pub fn outcomes(places: &[usize], forfeited: &[bool]) -> Vec<Outcome> {
    let forfeits = |i: usize| forfeited.get(i).copied().unwrap_or(false);
    let first = (0..places.len())
        .filter(|i| !forfeits(*i))
        .map(|i| places[i])
        .min();
    let winners = (0..places.len())
        .filter(|i| !forfeits(*i) && Some(places[*i]) == first)
        .count();
    (0..places.len())
        .map(
            |i| match (forfeits(i) || Some(places[i]) != first, winners) {
                (true, _) => Outcome::Loss,
                (false, 1) => Outcome::Win,
                (false, _) => Outcome::Draw,
            },
        )
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

/// The rated sides of a finished match: per side its bots (`bots` in seat order) and its place
/// (from the ranking and, in partnership games, the teams: each seat is rated from its side's
/// result), and whether each side forfeited (a seat of it was disqualified).
pub fn rated_sides(
    ranking: &[Vec<usize>],
    teams: Option<&[Vec<usize>]>,
    disqualified: &[usize],
    bots: &[String],
) -> (Vec<(Vec<String>, usize)>, Vec<bool>) {
    sides_of(ranking, teams)
        .into_iter()
        .map(|(seats, place)| {
            let forfeited = seats.iter().any(|s| disqualified.contains(s));
            let members = seats.iter().filter_map(|s| bots.get(*s).cloned()).collect();
            ((members, place), forfeited)
        })
        .unzip()
}

/// What a ranked match does to its sides: each member's new rating (as
/// [`update_forfeits`], a forfeited side against `yardstick`) and each side's outcome.
pub fn rate(
    sides: &[Side],
    forfeited: &[bool],
    yardstick: Rating,
) -> (Vec<Vec<Rating>>, Vec<Outcome>) {
    let places: Vec<usize> = sides.iter().map(|side| side.place).collect();
    (
        update_forfeits(sides, forfeited, yardstick),
        outcomes(&places, forfeited),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alone(rating: Rating, place: usize) -> Side {
        Side {
            members: vec![rating],
            place,
        }
    }

    #[test]
    fn sides_disqualified_together_lose_to_the_yardstick_instead_of_drawing() {
        let fresh = Rating::default();
        let random = Rating {
            mu: 20.0,
            sigma: 2.0,
        };
        // Everyone forfeited: no draw between them (whose sigma would shrink and lift their
        // displayed rating), each loses to `random` only.
        let all = [alone(fresh, 1), alone(fresh, 1)];
        let after = update_forfeits(&all, &[true, true], random);
        let lost = update(&[alone(random, 1), alone(fresh, 2)])[1][0];
        assert_eq!(after, vec![vec![lost], vec![lost]]);
        assert!(lost.mu < fresh.mu && lost.display() < fresh.display());
        assert_eq!(
            outcomes(&[1, 1], &[true, true]),
            [Outcome::Loss, Outcome::Loss]
        );
    }

    #[test]
    fn a_forfeited_side_loses_to_those_that_played_and_they_are_rated_as_usual() {
        let fresh = Rating::default();
        let sides = [alone(fresh, 1), alone(fresh, 2), alone(fresh, 2)];
        let after = update_forfeits(&sides, &[false, true, true], Rating::default());
        assert_eq!(after[0], update(&sides)[0]);
        let lost = update(&[
            alone(fresh, 1),
            alone(Rating::default(), 1),
            alone(fresh, 3),
        ])[2]
            .clone();
        assert_eq!(
            (after[1].clone(), after[2].clone()),
            (lost.clone(), lost.clone())
        );
        // Worse than losing to the one side that played.
        assert!(lost[0].mu < update(&[alone(fresh, 1), alone(fresh, 2)])[1][0].mu);
        assert_eq!(
            outcomes(&[1, 2, 2], &[false, true, true]),
            [Outcome::Win, Outcome::Loss, Outcome::Loss]
        );
        // Without a forfeit: the plain update, a shared first place is a draw.
        assert_eq!(update_forfeits(&sides, &[], fresh), update(&sides));
        assert_eq!(
            outcomes(&[1, 1, 2], &[false, false, false]),
            [Outcome::Draw, Outcome::Draw, Outcome::Loss]
        );
    }
}
