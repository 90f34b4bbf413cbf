//! The uniform game API: [`GameDef`], implemented by every game family with its own typed rules,
//! actions, state, events and views, plus the shared types it speaks ([`Setup`], [`Actors`],
//! [`Viewer`], [`GameResult`], [`Family`]).
//!
//! The API server and the arena never see these types: they use the object-safe, JSON-level
//! [`crate::erased::Game`] that [`crate::erased`] builds from any `GameDef`.

use crate::error::{ActionError, SetupError};
use crate::options::{OptionSpec, PlayerRange, PlayersWhen, Preset};
use crate::rng::{GameRng, PlayoutRng};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// A seat number, 0-based, in order of play.
pub type Seat = usize;

/// Who looks at a game: one seat, or a spectator who sees only public information.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// The player in this seat.
    Seat(Seat),
    /// Someone with public information only.
    Spectator,
}

/// A short list of seats, inline up to six (the most seats of any game): `to_act` runs before
/// every move, and a list on the heap for it was a share of Watten's playout time.
pub type Seats = smallvec::SmallVec<[Seat; 6]>;

/// The seats that may act now. With several, the seat whose turn it is comes first; the others may
/// act out of turn (a raise in Watten, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Actors {
    /// Nobody: the game is over.
    None,
    /// Exactly one seat.
    One(Seat),
    /// Several seats, the seat whose turn it is first.
    Many(Seats),
}

impl Actors {
    /// True if `seat` may act now.
    pub fn contains(&self, seat: Seat) -> bool {
        match self {
            Actors::None => false,
            Actors::One(one) => *one == seat,
            Actors::Many(many) => many.contains(&seat),
        }
    }

    /// The seats as a list, the seat whose turn it is first.
    pub fn to_vec(&self) -> Vec<Seat> {
        self.as_slice().to_vec()
    }

    /// The seats as a slice.
    pub fn as_slice(&self) -> &[Seat] {
        match self {
            Actors::None => &[],
            Actors::One(one) => std::slice::from_ref(one),
            Actors::Many(many) => many,
        }
    }

    /// True if nobody may act.
    pub fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }
}

/// Everything setup needs: player count, the game's typed options, the seed and stacked deals.
#[derive(Debug, Clone, PartialEq)]
pub struct Setup<O> {
    /// Number of players (seats 0..players).
    pub players: usize,
    /// The merged, checked options.
    pub options: O,
    /// Seed of the game's [`crate::rng::GameRng`].
    pub seed: u64,
    /// Stacked deals: entry d fixes the first pieces of deal d's sequence (codes as written by the
    /// client; the game parses and checks them with [`crate::deal`]).
    pub deals: Vec<Vec<String>>,
}

/// The final result of a game: a full ranking of seats, best first, ties grouped, and scores.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    /// Groups of seats, best first; seats in one group share that place (partners always do).
    pub ranking: Vec<Vec<Seat>>,
    /// One score per seat, in the game's own unit (partners repeat their side's score).
    pub scores: Vec<f64>,
    /// The partnerships, if the game is played in teams (each a list of seats); ratings go by team.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teams: Option<Vec<Vec<Seat>>>,
    /// Game-specific facts (payoffs, pot, how far a cooperative crew got, ...).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub details: serde_json::Value,
}

impl GameResult {
    /// Ranks seats by a key, smaller key = better, equal keys share a place, seats in order
    /// within a place; as [`Ranking::by_key`], for any number of seats.
    pub fn ranking_by_key<K: Ord + Copy>(
        seats: impl IntoIterator<Item = Seat>,
        key: impl Fn(Seat) -> K,
    ) -> Vec<Vec<Seat>> {
        // Any number of seats: a result is stored, and is never cut to what an event holds.
        let keyed = keyed_seats(seats, key);
        let mut ordered = vec![(0, false); keyed.len()];
        for (index, seat, tied) in placements(&keyed) {
            if let Some(slot) = ordered.get_mut(index) {
                *slot = (seat, tied);
            }
        }
        let mut ranking: Vec<Vec<Seat>> = Vec::new();
        for (seat, tied) in ordered {
            match ranking.last_mut() {
                Some(place) if tied => place.push(seat),
                _ => ranking.push(vec![seat]),
            }
        }
        ranking
    }
}

/// The seats with their keys, each key computed once (inline up to eight seats).
fn keyed_seats<K: Ord + Copy>(
    seats: impl IntoIterator<Item = Seat>,
    key: impl Fn(Seat) -> K,
) -> smallvec::SmallVec<[(K, Seat); 8]> {
    seats.into_iter().map(|seat| (key(seat), seat)).collect()
}

/// Each seat's index in the order by (key, seat), and whether it shares its place with the seat
/// before it (an equal key). Counted rather than sorted: a game's few seats compared each with
/// each, without a branch on the outcome, where a sort's mispredicted swaps were most of a short
/// game's end. Seats are distinct, so the indices are too.
fn placements<K: Ord + Copy>(
    keyed: &[(K, Seat)],
) -> impl Iterator<Item = (usize, Seat, bool)> + '_ {
    keyed.iter().map(move |&(key, seat)| {
        let mut index = 0;
        let mut tied = false;
        for &(other_key, other_seat) in keyed {
            index += usize::from((other_key, other_seat) < (key, seat));
            tied |= (other_key == key) & (other_seat < seat);
        }
        (index, seat, tied)
    })
}

/// A ranking of seats as an event carries it: places best first, the seats of a tie sharing one
/// place. Plain data for up to [`Ranking::MAX_SEATS`] seats (more than any game seats), so the
/// game-over event of every playout allocates and frees nothing for it. Serialized and described
/// exactly as [`GameResult::ranking`]: a list of places, each a list of seats.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Ranking {
    /// The seats, best first.
    seats: [u8; Ranking::MAX_SEATS],
    len: u8,
    /// Bit `i` set: `seats[i]` shares the place of `seats[i - 1]`.
    tied: u32,
}

impl Ranking {
    /// The most seats a ranking holds: more than any game seats (Trump Crew's seventeen; a test
    /// holds every game's player range to it).
    pub const MAX_SEATS: usize = 24;

    /// Ranks seats by a key, smaller key = better, equal keys share a place, seats in order
    /// within a place. Seats past [`Ranking::MAX_SEATS`] (no game has them) are left out.
    pub fn by_key<K: Ord + Copy>(
        seats: impl IntoIterator<Item = Seat>,
        key: impl Fn(Seat) -> K,
    ) -> Ranking {
        let keyed = keyed_seats(seats, key);
        debug_assert!(
            keyed.len() <= Ranking::MAX_SEATS,
            "more than {} seats",
            Ranking::MAX_SEATS
        );
        let mut ranking = Ranking {
            seats: [0; Ranking::MAX_SEATS],
            len: keyed.len().min(Ranking::MAX_SEATS) as u8,
            tied: 0,
        };
        // Seats placed past the bound (no game has them) are left out.
        for (index, seat, tied) in placements(&keyed) {
            if let Some(slot) = ranking.seats.get_mut(index) {
                *slot = seat as u8;
                ranking.tied |= u32::from(tied) << index;
            }
        }
        ranking
    }

    /// The places, best first, each the seats that share it.
    pub fn places(&self) -> impl Iterator<Item = &[u8]> {
        let seats = self.seats.get(..usize::from(self.len)).unwrap_or(&[]);
        let tied = self.tied;
        let mut start = 0;
        std::iter::from_fn(move || {
            let mut end = start + 1;
            while end < seats.len() && tied >> end & 1 == 1 {
                end += 1;
            }
            let place = seats.get(start..end);
            start = end;
            place
        })
    }

    /// The places as lists of seats, as [`GameResult::ranking`] holds them.
    pub fn to_vec(&self) -> Vec<Vec<Seat>> {
        self.places()
            .map(|place| place.iter().map(|s| usize::from(*s)).collect())
            .collect()
    }
}

impl Debug for Ranking {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.places()).finish()
    }
}

impl Serialize for Ranking {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.places())
    }
}

impl JsonSchema for Ranking {
    fn inline_schema() -> bool {
        <Vec<Vec<Seat>>>::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        <Vec<Vec<Seat>>>::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        <Vec<Vec<Seat>>>::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        <Vec<Vec<Seat>>>::json_schema(generator)
    }
}

/// What a game family publishes about itself: names, player range, options and presets.
#[derive(Debug, Clone)]
pub struct Family {
    /// Family id (also the module name), e.g. `twenty_two`.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// Short description of the family.
    pub description: &'static str,
    /// A rules summary (a few paragraphs) shown in the catalog.
    pub rules_summary: &'static str,
    /// Player range of the family.
    pub players: PlayerRange,
    /// Every option, with its default.
    pub options: Vec<OptionSpec>,
    /// The published game ids; the first is the family's default.
    pub presets: Vec<Preset>,
    /// Player ranges that follow the options (the first whose `when` holds decides; else the
    /// preset's range): e.g. `watten` with `{"variant": "bohemian"}` seats 2 to 6.
    pub players_when: Vec<PlayersWhen>,
    /// How a table draws this family's view (`table.rs` of the family).
    pub table: crate::table::TableLayout,
}

/// The header every family's state starts with: the seats, the typed options and the seeded RNG
/// (which holds the seed). `players`, `options` and `seed` are answered from it once, here.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table<O> {
    /// Number of seats.
    pub players: usize,
    /// The options the game was set up with.
    pub options: O,
    /// The game's chance (its seed included).
    pub rng: GameRng,
}

impl<O> Table<O> {
    /// A table for a setup: its player count, options and a fresh RNG from its seed.
    pub fn new(setup: &Setup<O>) -> Table<O>
    where
        O: Clone,
    {
        Table {
            players: setup.players,
            options: setup.options.clone(),
            rng: GameRng::new(setup.seed),
        }
    }
}

/// Appends the value `make` builds, built in the list's own memory: `list.push(value)` builds
/// it on the stack and copies it, and that copy stalls on the narrow fields just stored (store
/// forwarding fails). Hot event and action lists use it; `extend` over `once_with` runs `make`
/// after making room, which lets the compiler write the fields in place.
#[inline(always)]
pub fn push_in_place<T>(list: &mut Vec<T>, make: impl FnOnce() -> T) {
    list.extend(std::iter::once_with(make));
}

/// A game in progress, typed: what every family implements once, on its state.
///
/// Contract:
/// - `apply` is only called for a seat in `to_act` of a game not over (the erased layer checks that,
///   in the order game over, not your turn, illegal); it validates fully before mutating, so on
///   `Err` the state is unchanged; it runs automatic steps (dealing, scoring) before returning.
/// - `legal_actions` lists every legal action of `seat` in a canonical, deterministic order.
/// - `view` is built by whitelisting what the viewer may know.
///
/// Shared field names of family states, for new code (older fields that name the same thing
/// otherwise keep their serialized name with `#[serde(rename = ...)]`, since saved states and
/// recorded games must load unchanged):
/// - `deals_played`: deals (hands) finished so far, thrown-in ones included;
/// - `deal_number`: the number of the deal in progress, from 1;
/// - `totals`: each seat's (or side's) score over the deals so far;
/// - `stacked`: the setup's stacked deals, parsed, entry `d` for deal `d`.
pub trait GameState: Serialize + DeserializeOwned + Clone + Debug + Send + Sync + 'static {
    /// The family's options (serde: `deny_unknown_fields`; every field has an [`OptionSpec`]).
    type Options: Serialize
        + DeserializeOwned
        + JsonSchema
        + Clone
        + Debug
        + PartialEq
        + Send
        + Sync;
    /// The action vocabulary, serialized as `{"type": ...}`; unknown fields are refused.
    type Action: Serialize + DeserializeOwned + JsonSchema + Clone + Debug + PartialEq + Send + Sync;
    /// Public events produced by `apply`.
    type Event: Serialize + JsonSchema + Debug;
    /// What one seat (or a spectator) may see. Deserializable, so bots built on the engine can read
    /// the view they are sent.
    type View: Serialize + DeserializeOwned + JsonSchema;

    /// The shared header: players, options, RNG and seed.
    fn table(&self) -> &Table<Self::Options>;

    /// The shared header, to change: rollouts redraw the chance still to come
    /// ([`crate::search::rollouts`]).
    fn table_mut(&mut self) -> &mut Table<Self::Options>;

    /// Seats that may act now (empty when the game is over).
    fn to_act(&self) -> Actors;

    /// The legal actions of `seat`, in canonical order, appended to `out` (cleared by the caller).
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Self::Action>);

    /// Applies a checked seat's action, appending the public events it produced to `events`.
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), ActionError>;

    /// [`GameState::apply`] for an action taken from this state's own [`GameState::legal_actions`]
    /// of `seat` (random playouts, searches): the same move and events. A family whose legality
    /// check costs a fair part of a move overrides it to skip re-checking what the list
    /// guarantees (checking it under `debug_assertions`).
    fn apply_listed(
        &mut self,
        seat: Seat,
        action: &Self::Action,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), ActionError> {
        self.apply(seat, action, events)
    }

    /// Whether `action` is one of `seat`'s legal actions: what an [`GameState::apply_listed`]
    /// override asserts under `debug_assertions` before skipping the checks.
    fn lists(&self, seat: Seat, action: &Self::Action) -> bool {
        let mut listed = Vec::new();
        self.legal_actions(seat, &mut listed);
        listed.contains(action)
    }

    /// What `viewer` may know, and nothing else.
    fn view(&self, viewer: Viewer) -> Self::View;

    /// The final result, once the game is over.
    fn result(&self) -> Option<GameResult>;

    /// Checks a state that came from outside (a client's transparent state) before any use:
    /// pieces conserved, seats and counters in range, phase data coherent (hand sizes per phase).
    /// Every state reachable by play passes; anything that could make another method panic, or a
    /// move lead to a state this refuses, must fail here.
    fn validate(&self) -> Result<(), String>;

    /// Every piece anywhere in the game (hands, stock, tricks, piles, markers), as codes. The
    /// multiset never changes during a game (checked by the conformance tests).
    fn pieces(&self) -> Vec<String>;

    /// Codes of pieces `viewer` must not be able to see, excluding codes of which some copy is
    /// visible to the viewer. The conformance tests check no such code appears in the view.
    fn hidden_from(&self, viewer: Viewer) -> Vec<String>;

    /// A full state drawn uniformly among those consistent with everything `seat` has seen and
    /// what the rules let it infer (a failure to follow suit shows a void; cards it passed are
    /// where it put them), with a fresh seed for the chance still to come. The family's
    /// `view.rs` says what it infers. `None` when the state contradicts itself (no consistent
    /// deal exists); a reachable state never does.
    fn determinize(&self, seat: Seat, rng: &mut PlayoutRng) -> Option<Self>;

    /// Number of seats.
    fn players(&self) -> usize {
        self.table().players
    }

    /// The options the game was set up with.
    fn options(&self) -> &Self::Options {
        &self.table().options
    }

    /// The seed of the game.
    fn seed(&self) -> u64 {
        self.table().rng.seed
    }
}

/// The options type of a family.
pub type OptionsOf<G> = <<G as GameDef>::State as GameState>::Options;
/// The action type of a family.
pub type ActionOf<G> = <<G as GameDef>::State as GameState>::Action;
/// The view type of a family.
pub type ViewOf<G> = <<G as GameDef>::State as GameState>::View;
/// The event type of a family.
pub type EventOf<G> = <<G as GameDef>::State as GameState>::Event;

/// One game family, typed: its catalog entry, its setup and its built-in bot. Everything about a
/// game in progress is its [`GameDef::State`]'s [`GameState`]. Implemented once per family in
/// `engine/src/games/<family>/mod.rs`.
pub trait GameDef: Sized + Send + Sync + 'static {
    /// The full state, hidden cards and RNG included.
    type State: GameState;

    /// How the built-in `ismcts` bot plays its rollouts in this family
    /// ([`crate::search::Rollout::Family`] stands for this; it is not a value for it). Uniform
    /// unless the family's heuristic measured stronger in rollouts at the bot's 200 ms (22: 77% of
    /// paired games against `heuristic`, uniform 53%): the heuristic costs a view per move, so it
    /// must add more than the iterations it takes away.
    const SEARCH_ROLLOUT: crate::search::Rollout = crate::search::Rollout::Uniform;

    /// Cuts `legal` (the legal actions of `seat` in `state`, canonical order) down to the moves
    /// the built-in `ismcts` bot weighs, in its tree and in its rollouts; the bot only ever plays
    /// one of those. For a family whose lists hold many moves that differ only by degree (a bid's
    /// price), so that the search's iterations are not spread over them; keeps at least one
    /// action and the order. The default keeps every action.
    fn search_actions(state: &Self::State, seat: Seat, legal: &mut Vec<ActionOf<Self>>) {
        let _ = (state, seat, legal);
    }

    /// The family description, options and presets.
    fn family() -> Family;

    /// Completes the merged options knowing which ids the request gave explicitly (`requested`):
    /// defaults that depend on another option (a variant's own target...). Called before the
    /// options are typed and before each option's declared constraints are checked; the default
    /// changes nothing.
    fn resolve_options(
        requested: &serde_json::Map<String, serde_json::Value>,
        merged: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Result<(), SetupError> {
        let _ = (requested, merged);
        Ok(())
    }

    /// Sets up a game (and deals, if the game starts with a deal), appending to `events` the
    /// public events of the setup: the deal as every seat may see it (who got how many cards, never
    /// which), a card turned up, a cut, a dealer drawn. Draws all chance from the state's
    /// [`crate::rng::GameRng`]; checks player-dependent options. The player count is within the
    /// game id's range (the generic layer refused any other), so setups do not check it again.
    fn setup(
        setup: &Setup<OptionsOf<Self>>,
        events: &mut Vec<EventOf<Self>>,
    ) -> Result<Self::State, SetupError>;

    /// A simple heuristic policy for the built-in bot (the family's `bot.rs`): the index into
    /// `legal` of the action to play, chosen from the seat's view only (never the full state). It
    /// must beat uniform random play clearly; the rules tests of each family show by how much.
    fn heuristic(view: &ViewOf<Self>, legal: &[ActionOf<Self>]) -> usize;
}

/// Serde for a value an event shares with the state (`Arc<T>`: one deal scoring, not a copy per
/// event), written and read as the value itself (serde's `Arc` support is a feature the workspace
/// leaves off). `#[serde(serialize_with = "crate::game::shared::serialize")]` on an event's field,
/// `#[serde(with = "crate::game::shared::option")]` on the state's `Option<Arc<T>>`.
pub mod shared {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    /// Writes the shared value.
    pub fn serialize<T: Serialize, S: Serializer>(value: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
        value.as_ref().serialize(s)
    }

    /// `Option<Arc<T>>`, written and read as `Option<T>`.
    pub mod option {
        use super::*;

        /// Writes the shared value, or null.
        pub fn serialize<T: Serialize, S: Serializer>(
            value: &Option<Arc<T>>,
            s: S,
        ) -> Result<S::Ok, S::Error> {
            value.as_deref().serialize(s)
        }

        /// Reads the value, or null.
        pub fn deserialize<'de, T: Deserialize<'de>, D: Deserializer<'de>>(
            d: D,
        ) -> Result<Option<Arc<T>>, D::Error> {
            Option::<T>::deserialize(d).map(|value| value.map(Arc::new))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ranking_groups_equal_keys_best_first_and_serializes_as_lists() {
        let points = [30, 50, 30, 10, 50, 0];
        let ranking = Ranking::by_key(0..points.len(), |s| std::cmp::Reverse(points[s]));
        let expected: Vec<Vec<Seat>> = vec![vec![1, 4], vec![0, 2], vec![3], vec![5]];
        assert_eq!(ranking.to_vec(), expected);
        assert_eq!(
            GameResult::ranking_by_key(0..points.len(), |s| std::cmp::Reverse(points[s])),
            expected
        );
        assert_eq!(
            serde_json::to_value(ranking).ok(),
            serde_json::to_value(&expected).ok()
        );
        assert_eq!(format!("{ranking:?}"), "[[1, 4], [0, 2], [3], [5]]");
        // Everyone tied, one seat, no seat.
        assert_eq!(
            Ranking::by_key(0..4, |_| 0).to_vec(),
            vec![vec![0, 1, 2, 3]]
        );
        assert_eq!(Ranking::by_key(0..1, |s| s).to_vec(), vec![vec![0]]);
        assert!(Ranking::by_key(0..0, |s| s).to_vec().is_empty());
        assert_eq!(
            <Ranking as JsonSchema>::schema_name(),
            <Vec<Vec<Seat>> as JsonSchema>::schema_name()
        );
        // Many seats (Trump Crew seats up to seventeen): two places of equals.
        let seventeen = Ranking::by_key(0..17, |s| s % 2);
        assert_eq!(
            seventeen.to_vec(),
            vec![
                (0..17).step_by(2).collect::<Vec<_>>(),
                (1..17).step_by(2).collect()
            ]
        );
    }

    /// The counted placement against a plain sort and grouping, for every key pattern of five
    /// seats over three values, seats listed out of order.
    #[test]
    fn a_ranking_is_the_sorted_grouping_of_its_keys() {
        let seats = [4, 1, 3, 0, 2];
        for pattern in 0..3usize.pow(5) {
            let key = |s: Seat| pattern / 3usize.pow(s as u32) % 3;
            let mut sorted: Vec<(usize, Seat)> = seats.iter().map(|&s| (key(s), s)).collect();
            sorted.sort();
            let mut expected: Vec<Vec<Seat>> = Vec::new();
            for (i, (k, seat)) in sorted.iter().enumerate() {
                match expected.last_mut() {
                    Some(place) if i > 0 && sorted[i - 1].0 == *k => place.push(*seat),
                    _ => expected.push(vec![*seat]),
                }
            }
            assert_eq!(Ranking::by_key(seats, key).to_vec(), expected);
            assert_eq!(GameResult::ranking_by_key(seats, key), expected);
        }
    }

    #[test]
    fn a_results_ranking_keeps_every_seat() {
        let ranking = GameResult::ranking_by_key(0..30, |s| s / 10);
        let expected: Vec<Vec<Seat>> = (0..3).map(|p| (p * 10..p * 10 + 10).collect()).collect();
        assert_eq!(ranking, expected);
    }

    #[test]
    fn every_game_seats_no_more_than_a_ranking_holds() {
        for game in crate::registry::games() {
            let info = game.info();
            assert!(
                info.players.max <= Ranking::MAX_SEATS,
                "{} seats up to {}",
                info.id,
                info.players.max
            );
        }
    }
}
