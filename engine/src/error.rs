//! Typed errors of the engine. Each has a stable snake_case `code()` that the HTTP edge exposes as is.

use crate::game::Seat;

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The player count is outside the game's range.
    #[error("{game} is played by {min} to {max} players, not {got}{}", suggest(.alternatives, *.got))]
    PlayerCount {
        /// Game id.
        game: String,
        /// Smallest allowed count.
        min: usize,
        /// Largest allowed count.
        max: usize,
        /// The count asked for.
        got: usize,
        /// Game ids of the same family that are played by `got` players.
        alternatives: Vec<String>,
    },
    /// An option is unknown, of the wrong type, out of range, fixed by the preset, or incompatible.
    #[error("{0}")]
    InvalidOptions(String),
    /// A stacked deal names an unknown, duplicate or unavailable card, or is too long.
    #[error("{0}")]
    InvalidDeals(String),
    /// The seed is above [`crate::rng::MAX_SEED`] (2^53 - 1): larger integers lose precision in
    /// JSON readers such as JavaScript's, and the game would then not replay.
    #[error(
        "seed {0} is above the largest seed 9007199254740991 (2^53 - 1), which every JSON reader keeps exact"
    )]
    InvalidSeed(u64),
}

fn suggest(alternatives: &[String], got: usize) -> String {
    if alternatives.is_empty() {
        String::new()
    } else {
        format!("; for {got} players use {}", alternatives.join(" or "))
    }
}

impl SetupError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            SetupError::PlayerCount { .. } => "invalid_players",
            SetupError::InvalidOptions(_) => "invalid_options",
            SetupError::InvalidDeals(_) => "invalid_deals",
            SetupError::InvalidSeed(_) => "invalid_seed",
        }
    }
}

/// Why an action was refused. The state is unchanged whenever this is returned.
///
/// Checked in this order: [`ActionError::GameOver`], then [`ActionError::NotYourTurn`], then
/// [`ActionError::Illegal`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The game has ended; nobody may act.
    #[error("the game is over: no more actions are accepted")]
    GameOver,
    /// The seat is not among those who may act now.
    #[error("it is not seat {seat}'s turn: {}", describe_actors(.to_act))]
    NotYourTurn {
        /// The seat that tried to act.
        seat: Seat,
        /// The seats that may act now.
        to_act: Vec<Seat>,
    },
    /// The action breaks a rule (or is not an action of this game at all).
    #[error("{message}")]
    Illegal {
        /// A stable snake_case sub-reason, e.g. `card_not_in_hand`, `must_cover_or_play_lowest`.
        reason: &'static str,
        /// The reason in words a player understands, naming the cards involved.
        message: String,
    },
}

fn describe_actors(to_act: &[Seat]) -> String {
    match to_act {
        [] => "nobody may act".to_string(),
        [one] => format!("seat {one} is to act"),
        many => format!(
            "seats {} may act",
            many.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl ActionError {
    /// An illegal action with a sub-reason and a message.
    pub fn illegal(reason: &'static str, message: impl Into<String>) -> ActionError {
        ActionError::Illegal {
            reason,
            message: message.into(),
        }
    }

    /// Stable machine-readable code: `game_over`, `not_your_turn` or `illegal_action`.
    pub fn code(&self) -> &'static str {
        match self {
            ActionError::GameOver => "game_over",
            ActionError::NotYourTurn { .. } => "not_your_turn",
            ActionError::Illegal { .. } => "illegal_action",
        }
    }

    /// The finer reason: the sub-reason of an illegal action, else the code.
    pub fn reason(&self) -> &'static str {
        match self {
            ActionError::Illegal { reason, .. } => reason,
            other => other.code(),
        }
    }
}

/// Why a serialized state was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StateError {
    /// Not a state of this engine at all (bad JSON shape, missing fields, wrong types).
    #[error("the state is malformed: {0}")]
    Malformed(String),
    /// A state written by an incompatible version.
    #[error("state version {found} is not supported (this server reads version {supported})")]
    UnsupportedVersion {
        /// Version in the state.
        found: u64,
        /// Version this engine reads.
        supported: u64,
    },
    /// A state of another game id.
    #[error("this is a state of `{found}`, not of `{expected}`")]
    WrongGame {
        /// The game the request addressed.
        expected: String,
        /// The game named in the state.
        found: String,
    },
    /// The state parses but breaks an invariant (cards not conserved, seat out of range, ...).
    #[error("the state is inconsistent: {0}")]
    Inconsistent(String),
}

impl StateError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        "invalid_state"
    }
}

/// A replay stopped at a refused action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("action {index} (seat {seat}) was refused: {error}")]
pub struct ReplayError {
    /// Zero-based index of the refused action in the list.
    pub index: usize,
    /// The seat that tried it.
    pub seat: Seat,
    /// Why it was refused.
    pub error: ActionError,
}
