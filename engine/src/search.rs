//! Information-set Monte Carlo tree search (single-observer IS-MCTS, Cowling, Powley and
//! Whitehouse 2012) over the engine's own determinizations: every iteration draws a full state
//! consistent with what the searching seat has seen ([`GameState::determinize`]), walks one tree
//! of action sequences shared by all of them (a child is available when its action is legal in
//! the iteration's state, and UCB counts availability rather than parent visits), expands one
//! action, plays a rollout policy's moves (the family's choice by default) to the end of the game
//! and credits every node with the final standing of the seat that chose it. The moves it weighs,
//! in the tree and in rollouts, are the legal ones a family's `narrow` keeps (all of them unless
//! the family abstracts some away, see [`crate::game::GameDef::search_actions`]). No clock here:
//! the caller's `keep_going` bounds the work (the arena turns a budget in milliseconds into it).

use crate::game::{GameResult, GameState, Seat};
use crate::rng::PlayoutRng;

/// Exploration constant of UCB1 (rewards are in [0, 1]).
const EXPLORATION: f64 = 0.7;
/// A rollout longer than this many actions stops and counts as a draw for everyone.
const MAX_ROLLOUT: usize = 20_000;

struct Node<A> {
    /// The action that leads here and the seat that chose it (None at the root).
    action: Option<(Seat, A)>,
    children: Vec<usize>,
    visits: u32,
    available: u32,
    reward: f64,
}

/// How the search plays its rollouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rollout {
    /// What the family measured best ([`crate::game::GameDef::SEARCH_ROLLOUT`]): what the
    /// built-in `ismcts` bot plays.
    #[default]
    Family,
    /// Uniformly random moves.
    Uniform,
    /// The family's heuristic bot, on the view of the seat to act, for `percent` of the moves;
    /// uniformly random for the rest (some noise keeps the samples of the future varied).
    Heuristic {
        /// The share of rollout moves the heuristic plays, 0 to 100.
        percent: u8,
    },
}

/// The uniformly random rollout policy.
pub fn uniform<S, A>(_: &S, _: Seat, legal: &[A], rng: &mut PlayoutRng) -> usize {
    rng.below(legal.len())
}

/// The standing of `seat` in a result, in [0, 1]: 1 for sole first, 0 for sole last, ties shared.
/// When every seat shares one place (a cooperative crew), its score decides instead, squashed
/// into (0, 1), so that going further still counts.
pub fn standing(result: &GameResult, seat: Seat, players: usize) -> f64 {
    if players < 2 || result.ranking.len() == 1 {
        let score = result.scores.get(seat).copied().unwrap_or(0.0);
        return 0.5 + (score / 10.0).atan() / std::f64::consts::PI;
    }
    let mut above = 0usize;
    for group in &result.ranking {
        if group.contains(&seat) {
            // Seats sharing the group split its places.
            let beaten = players - above - group.len();
            let shared = (group.len() - 1) as f64 / 2.0;
            return (beaten as f64 + shared) / (players - 1) as f64;
        }
        above += group.len();
    }
    0.0
}

/// Searches for `seat`'s move in `state` and answers the index of the chosen action in
/// `state.legal_actions(seat)`, or `None` when the seat has no legal action. `keep_going` is asked
/// before every iteration with the number done so far; `narrow` cuts a seat's legal list down to
/// the moves the search weighs (a non-empty subset in the same order; `|_, _, _| {}` keeps all);
/// `rollout` picks the index of each rollout move among those ([`uniform`], or a family's
/// heuristic).
pub fn ismcts<S: GameState>(
    state: &S,
    seat: Seat,
    rng: &mut PlayoutRng,
    mut keep_going: impl FnMut(u32) -> bool,
    narrow: impl Fn(&S, Seat, &mut Vec<S::Action>),
    mut rollout: impl FnMut(&S, Seat, &[S::Action], &mut PlayoutRng) -> usize,
) -> Option<usize> {
    // A family's narrowing that empties a non-empty list breaks its contract: the tests (debug
    // builds, every id searched) catch it; a release build searches the full list at the root.
    let narrow = |game: &S, actor: Seat, legal: &mut Vec<S::Action>| {
        let had = legal.len();
        narrow(game, actor, legal);
        debug_assert!(
            had == 0 || !legal.is_empty(),
            "search_actions emptied seat {actor}'s {had} legal actions"
        );
    };
    let mut all_legal = Vec::new();
    state.legal_actions(seat, &mut all_legal);
    let mut root_legal = all_legal.clone();
    narrow(state, seat, &mut root_legal);
    if root_legal.is_empty() {
        root_legal.clone_from(&all_legal);
    }
    // The answer is an index into the full list, whatever the narrowed one holds.
    let index_in_all = |action: &S::Action| all_legal.iter().position(|a| a == action);
    if root_legal.len() <= 1 {
        return root_legal.first().and_then(index_in_all);
    }
    let players = state.players();
    let mut nodes: Vec<Node<S::Action>> = vec![Node {
        action: None,
        children: Vec::new(),
        visits: 0,
        available: 0,
        reward: 0.0,
    }];
    let mut scratch = Scratch {
        legal: Vec::new(),
        events: Vec::new(),
        path: Vec::new(),
    };
    let mut iterations = 0u32;
    while keep_going(iterations) {
        iterations += 1;
        let Some(mut game) = state.determinize(seat, rng) else {
            break;
        };
        scratch.path.clear();
        select_and_expand(&mut nodes, &mut game, &narrow, rng, &mut scratch);
        roll_out(&mut game, &narrow, &mut rollout, rng, &mut scratch);
        let result = game.result();
        // Backpropagation: each node scores for the seat that chose its action.
        for &n in &scratch.path {
            let Some((who, _)) = &nodes[n].action else {
                continue;
            };
            let reward = result.as_ref().map_or(0.5, |r| standing(r, *who, players));
            nodes[n].visits += 1;
            nodes[n].reward += reward;
        }
    }
    // The most visited of the root's moves (the seat's own legal list never changes across
    // determinizations).
    let mut choice = &root_legal[0];
    let mut most = 0;
    for &child in &nodes[0].children {
        if let Some((_, action)) = &nodes[child].action
            && root_legal.contains(action)
            && nodes[child].visits > most
        {
            most = nodes[child].visits;
            choice = action;
        }
    }
    index_in_all(choice)
}

/// The buffers one search reuses across its iterations: a legal list, the events an apply
/// writes (unread), the path of the nodes an iteration went through.
struct Scratch<A, E> {
    legal: Vec<A>,
    events: Vec<E>,
    path: Vec<usize>,
}

/// One iteration's selection (UCB among the children the determinization allows) and expansion
/// (one untried move, chosen at random), applied to `game`; the nodes gone through in
/// `scratch.path`.
fn select_and_expand<S: GameState>(
    nodes: &mut Vec<Node<S::Action>>,
    game: &mut S,
    narrow: &impl Fn(&S, Seat, &mut Vec<S::Action>),
    rng: &mut PlayoutRng,
    scratch: &mut Scratch<S::Action, S::Event>,
) {
    let mut node = 0usize;
    while let Some(&actor) = game.to_act().as_slice().first() {
        scratch.legal.clear();
        game.legal_actions(actor, &mut scratch.legal);
        narrow(game, actor, &mut scratch.legal);
        if scratch.legal.is_empty() {
            break;
        }
        let mut best: Option<(f64, usize)> = None;
        let mut tried = vec![false; scratch.legal.len()];
        for ci in 0..nodes[node].children.len() {
            let child = nodes[node].children[ci];
            let Some((who, action)) = &nodes[child].action else {
                continue;
            };
            if *who != actor {
                continue;
            }
            let Some(i) = scratch.legal.iter().position(|a| a == action) else {
                continue;
            };
            tried[i] = true;
            nodes[child].available += 1;
            let c = &nodes[child];
            let visits = f64::from(c.visits.max(1));
            let score =
                c.reward / visits + EXPLORATION * (f64::from(c.available).ln() / visits).sqrt();
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, child));
            }
        }
        let untried: Vec<usize> = (0..scratch.legal.len()).filter(|&i| !tried[i]).collect();
        if !untried.is_empty() {
            let action = scratch.legal[untried[rng.below(untried.len())]].clone();
            scratch.events.clear();
            if game
                .apply_listed(actor, &action, &mut scratch.events)
                .is_err()
            {
                break;
            }
            nodes.push(Node {
                action: Some((actor, action)),
                children: Vec::new(),
                visits: 0,
                available: 1,
                reward: 0.0,
            });
            let child = nodes.len() - 1;
            nodes[node].children.push(child);
            scratch.path.push(child);
            break;
        }
        let Some((_, child)) = best else { break };
        let Some((_, action)) = nodes[child].action.clone() else {
            break;
        };
        scratch.events.clear();
        if game
            .apply_listed(actor, &action, &mut scratch.events)
            .is_err()
        {
            break;
        }
        scratch.path.push(child);
        node = child;
    }
}

/// One iteration's rollout from `game`: the policy's moves to the end (at most
/// [`MAX_ROLLOUT`]).
fn roll_out<S: GameState>(
    game: &mut S,
    narrow: &impl Fn(&S, Seat, &mut Vec<S::Action>),
    rollout: &mut impl FnMut(&S, Seat, &[S::Action], &mut PlayoutRng) -> usize,
    rng: &mut PlayoutRng,
    scratch: &mut Scratch<S::Action, S::Event>,
) {
    let mut steps = 0;
    while let Some(&actor) = game.to_act().as_slice().first() {
        if steps >= MAX_ROLLOUT {
            break;
        }
        scratch.legal.clear();
        game.legal_actions(actor, &mut scratch.legal);
        narrow(game, actor, &mut scratch.legal);
        if scratch.legal.is_empty() {
            break;
        }
        let index = rollout(game, actor, &scratch.legal, rng);
        // A policy answers an index into the list it was given; one that does not is a bug
        // in that policy, not a reason to play another move in its place.
        debug_assert!(
            index < scratch.legal.len(),
            "rollout index {index} of {}",
            scratch.legal.len()
        );
        let Some(action) = scratch.legal.get(index).cloned() else {
            break;
        };
        scratch.events.clear();
        if game
            .apply_listed(actor, &action, &mut scratch.events)
            .is_err()
        {
            break;
        }
        steps += 1;
    }
}

/// Where the playouts of [`rollouts`] start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RolloutStart {
    /// From the state itself (its holder sees everything), with the chance still to come redrawn
    /// for every round.
    Exact,
    /// From a state drawn for every round among those the seat cannot tell apart from this one
    /// ([`GameState::determinize`]): what the seat may learn, and nothing else.
    Determinized,
}

/// What playouts that began with one action found: every seat's final score and standing.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionValue {
    /// Playouts run (each one played to the end of the game).
    pub playouts: u32,
    sums: Vec<f64>,
    squares: Vec<f64>,
    /// Per seat, the sum of its [`standing`]s.
    standings: Vec<f64>,
    /// Per seat, the sum of its squared [`standing`]s (the standard error of the mean standing).
    standing_squares: Vec<f64>,
}

impl ActionValue {
    fn new(players: usize) -> ActionValue {
        ActionValue {
            playouts: 0,
            sums: vec![0.0; players],
            squares: vec![0.0; players],
            standings: vec![0.0; players],
            standing_squares: vec![0.0; players],
        }
    }

    fn add(&mut self, result: &GameResult) {
        self.playouts += 1;
        let scores = &result.scores;
        for ((sum, square), score) in self.sums.iter_mut().zip(&mut self.squares).zip(scores) {
            *sum += score;
            *square += score * score;
        }
        let players = self.standings.len();
        for (seat, (standing_sum, square)) in self
            .standings
            .iter_mut()
            .zip(&mut self.standing_squares)
            .enumerate()
        {
            let value = standing(result, seat, players);
            *standing_sum += value;
            *square += value * value;
        }
    }

    /// Every seat's mean [`standing`] in [0, 1] (1: sole first, 0: sole last): a value to
    /// maximise whichever way the game counts its scores.
    pub fn mean_standing(&self) -> Vec<f64> {
        let n = f64::from(self.playouts.max(1));
        self.standings.iter().map(|sum| sum / n).collect()
    }

    /// The mean final score of every seat.
    pub fn mean(&self) -> Vec<f64> {
        let n = f64::from(self.playouts.max(1));
        self.sums.iter().map(|sum| sum / n).collect()
    }

    /// The standard error of each mean (the sample standard deviation over the square root of
    /// the playouts; 0 with fewer than two).
    pub fn standard_error(&self) -> Vec<f64> {
        standard_errors(self.playouts, &self.sums, &self.squares)
    }

    /// The standard error of each seat's [`ActionValue::mean_standing`] (0 with fewer than two
    /// playouts): how far apart two actions' standings must be to tell them apart.
    pub fn standing_error(&self) -> Vec<f64> {
        standard_errors(self.playouts, &self.standings, &self.standing_squares)
    }
}

/// Per seat, the standard error of a mean of `playouts` values from their sums and sums of
/// squares (the sample standard deviation over the square root of the count).
fn standard_errors(playouts: u32, sums: &[f64], squares: &[f64]) -> Vec<f64> {
    if playouts < 2 {
        return vec![0.0; sums.len()];
    }
    let n = f64::from(playouts);
    sums.iter()
        .zip(squares)
        .map(|(sum, square)| {
            let variance = ((square - sum * sum / n) / (n - 1.0)).max(0.0);
            (variance / n).sqrt()
        })
        .collect()
}

/// Why [`rollouts`] answered nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RolloutStop {
    /// `keep_going` said stop before every playout was run.
    Budget,
    /// The state admits no deal consistent with what the seat has seen.
    NoConsistentDeal,
}

/// What [`rollouts`] plays: `count` rounds from `start`, one playout per round after each of
/// `actions` (indices into the seat's legal list).
#[derive(Debug, Clone, Copy)]
pub struct RolloutPlan<'a> {
    /// The actions to weigh, as indices into the seat's legal list.
    pub actions: &'a [usize],
    /// Rounds: playouts per action.
    pub count: u32,
    /// Where each round starts.
    pub start: RolloutStart,
    /// What a stop of `keep_going` answers: the rounds run so far (a budget in time: what
    /// fitted), or [`RolloutStop::Budget`] (a count that had to be met whole).
    pub partial: bool,
}

/// Flat Monte Carlo for `seat`: `plan.count` rounds; in each, one starting state (see
/// [`RolloutStart`]) and, from it, one playout after each of `plan.actions` (indices into
/// `state.legal_actions(seat)`), the rest of the game played by `policy` for every seat. The
/// actions of a round share its starting state and chance (common random numbers: their
/// difference is measured with less noise than their values). Answers one [`ActionValue`] per
/// action, in the order given. `keep_going` is asked before every round with the playouts run so
/// far; when it says stop, `plan.partial` decides whether the rounds run so far are the answer.
/// No clock here: the caller turns its budget into `keep_going`.
pub fn rollouts<S: GameState>(
    state: &S,
    seat: Seat,
    plan: RolloutPlan<'_>,
    rng: &mut PlayoutRng,
    mut keep_going: impl FnMut(u64) -> bool,
    mut policy: impl FnMut(&S, Seat, &[S::Action], &mut PlayoutRng) -> usize,
) -> Result<Vec<ActionValue>, RolloutStop> {
    let RolloutPlan {
        actions,
        count,
        start,
        partial,
    } = plan;
    let players = state.players();
    let mut values = vec![ActionValue::new(players); actions.len()];
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let mut played = 0u64;
    for _ in 0..count {
        if !keep_going(played) {
            if partial {
                break;
            }
            return Err(RolloutStop::Budget);
        }
        let round_start = match start {
            RolloutStart::Exact => {
                let mut game = state.clone();
                crate::common::determinize::reseed(&mut game.table_mut().rng, rng);
                game
            }
            RolloutStart::Determinized => state
                .determinize(seat, rng)
                .ok_or(RolloutStop::NoConsistentDeal)?,
        };
        // Every playout of the round draws its choices from the same stream.
        let round_seed = rng.next_u64();
        for (value, &index) in values.iter_mut().zip(actions) {
            let mut game = round_start.clone();
            let mut choices = PlayoutRng::new(round_seed);
            legal.clear();
            // A seat's own legal list is the same in every state it cannot tell apart.
            game.legal_actions(seat, &mut legal);
            let Some(first) = legal.get(index).cloned() else {
                continue;
            };
            events.clear();
            if game.apply_listed(seat, &first, &mut events).is_err() {
                continue;
            }
            let mut steps = 0;
            while let Some(&actor) = game.to_act().as_slice().first() {
                if steps >= MAX_ROLLOUT {
                    break;
                }
                legal.clear();
                game.legal_actions(actor, &mut legal);
                if legal.is_empty() {
                    break;
                }
                let choice = policy(&game, actor, &legal, &mut choices);
                let Some(action) = legal.get(choice).cloned() else {
                    break;
                };
                events.clear();
                if game.apply_listed(actor, &action, &mut events).is_err() {
                    break;
                }
                steps += 1;
            }
            // Only playouts that reached the end count: a game cut short has no final score.
            if let Some(result) = game.result() {
                value.add(&result);
                played += 1;
            }
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn action_value_answers_each_seats_mean_standard_error_and_standing() {
        let mut value = ActionValue::new(2);
        assert_eq!(value.standard_error(), vec![0.0, 0.0]);
        for scores in [[1.0, -1.0], [3.0, -3.0], [5.0, -5.0], [7.0, -7.0]] {
            // Seat 0 wins three of the four (lower is better in the last).
            let ranking = if scores[0] == 7.0 {
                vec![vec![1], vec![0]]
            } else {
                vec![vec![0], vec![1]]
            };
            value.add(
                &serde_json::from_value(serde_json::json!({"ranking": ranking, "scores": scores}))
                    .unwrap(),
            );
        }
        assert_eq!(value.playouts, 4);
        assert_eq!(value.mean(), vec![4.0, -4.0]);
        assert_eq!(value.mean_standing(), vec![0.75, 0.25]);
        // Standings 1, 1, 1, 0: sample variance 1/4, so the standard error sqrt(1/4/4).
        assert_eq!(value.standing_error(), vec![0.25, 0.25]);
        // Sample variance of 1, 3, 5, 7 is 20/3; the standard error sqrt(20/3/4).
        let expected = (20.0f64 / 3.0 / 4.0).sqrt();
        for error in value.standard_error() {
            assert!(
                (error - expected).abs() < 1e-12,
                "{error} against {expected}"
            );
        }
    }

    #[test]
    fn standing_shares_ties_and_spans_zero_to_one() {
        let result: GameResult = serde_json::from_value(serde_json::json!({
            "ranking": [[2], [0, 3], [1]],
            "scores": [0.0, 0.0, 0.0, 0.0],
        }))
        .unwrap();
        assert_eq!(standing(&result, 2, 4), 1.0);
        assert_eq!(standing(&result, 1, 4), 0.0);
        assert_eq!(standing(&result, 0, 4), 0.5);
        assert_eq!(standing(&result, 3, 4), 0.5);
        let crew: GameResult = serde_json::from_value(serde_json::json!({
            "ranking": [[0, 1, 2]],
            "scores": [3.0, 3.0, 3.0],
        }))
        .unwrap();
        assert!(standing(&crew, 0, 3) > 0.5);
    }
}
