//! The arena's core rule, without HTTP, database or engine: what a seat's turn plays and what
//! the seat is charged. A timeout, a connection error, a non-2xx status, malformed JSON or an
//! action the engine refuses is a *fault*, and the seat's first legal action is played instead; a
//! seat with `max_faults` counted faults is disqualified (its first legal action is played without
//! asking); a seat whose time bank runs out is flagged (the same, for the rest of the match).
//!
//! A turn goes [`Standing::ask`] (ask the bot, or not), [`Standing::judge`] (its answer and the
//! time it took), [`Decision::refuse`] if the engine refuses the bot's action, then
//! [`Standing::count`] charges the fault.

use super::banks::Banks;
use super::compact;
use crate::client::{BotAnswer, Fault, FaultKind};
use crate::store::MoveRecord;
use crate::wire::{Clock, MoveResponse};
use serde_json::Value;

/// The longest bot comment kept in the match log, in characters.
const COMMENT_CHARS: usize = 280;

/// Each seat's standing in a match: its faults so far and, with a clock, its time bank.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    faults: Vec<u32>,
    banks: Option<Banks>,
    max_faults: u32,
    deadline_ms: u64,
}

/// Whether the bot in a seat is asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Ask {
    /// Not asked: the seat is disqualified or flagged, and this is played for it.
    Skip(Decision),
    /// Asked, with this time to answer; `time_left_ms` is its bank, told to the bot.
    Bot {
        /// The bot's bank or the per-move deadline, whichever is shorter.
        timeout_ms: u64,
        /// The seat's bank, in a match with a clock.
        time_left_ms: Option<u64>,
    },
}

/// What a turn plays for a seat and what it records.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The bot's action, to be applied; None: the seat's first legal action is played.
    pub action: Option<Value>,
    /// The fault charged for this turn.
    pub fault: Option<Fault>,
    /// The bot's comment, shortened.
    pub comment: Option<String>,
    /// Time the bot took, in milliseconds (0 when not asked).
    pub latency_ms: u64,
}

impl Decision {
    /// The seat's first legal action, with `fault`, without asking.
    fn fallback(fault: Fault) -> Decision {
        Decision {
            action: None,
            fault: Some(fault),
            comment: None,
            latency_ms: 0,
        }
    }

    /// The engine refused the bot's action (`error`): its first legal action is played instead,
    /// an illegal-action fault.
    pub fn refuse(&mut self, action: &Value, error: impl std::fmt::Display) {
        self.action = None;
        if self.fault.is_none() {
            self.fault = Some(
                Fault::new(
                    FaultKind::IllegalAction,
                    format!("{} is refused: {error}", compact(action)),
                )
                .with_answer(BotAnswer::excerpt(None, action.to_string().as_bytes()))
                .expecting("one of the move request's legal_actions, exactly as sent"),
            );
        }
    }
}

impl Standing {
    /// A fresh match of `players` seats: no faults, full banks if it has a `clock`.
    pub fn new(players: usize, max_faults: u32, deadline_ms: u64, clock: Option<Clock>) -> Self {
        Standing {
            faults: vec![0; players],
            banks: clock.map(|clock| Banks::new(clock, players)),
            max_faults,
            deadline_ms,
        }
    }

    /// Replays a logged move (a match resumes): the same faults and bank charges as when it was
    /// played.
    pub fn replay(&mut self, logged: &MoveRecord) {
        self.count(logged.seat, logged.fault.as_ref());
        if let Some(banks) = &mut self.banks {
            banks.replay(logged);
        }
    }

    /// Whether to ask the bot in `seat`, and with how much time.
    pub fn ask(&self, seat: usize) -> Ask {
        if self.faults[seat] >= self.max_faults {
            return Ask::Skip(Decision::fallback(Fault::new(
                FaultKind::Disqualified,
                "the seat is disqualified; its first legal action was played",
            )));
        }
        if self.banks.as_ref().is_some_and(|b| b.flagged(seat)) {
            return Ask::Skip(Decision::fallback(Fault::new(
                FaultKind::Flagged,
                "the seat's time bank ran out earlier in the match; its first legal action was played",
            )));
        }
        let time_left_ms = self.banks.as_ref().map(|b| b.left(seat));
        Ask::Bot {
            timeout_ms: time_left_ms
                .map_or(self.deadline_ms, |left| left.clamp(1, self.deadline_ms)),
            time_left_ms,
        }
    }

    /// Judges the bot's answer (or its failure) that took `latency_ms`: the time is taken from
    /// its bank first, and a bank that runs out flags the seat whatever the answer.
    pub fn judge(
        &mut self,
        seat: usize,
        answer: Result<MoveResponse, Fault>,
        latency_ms: u64,
    ) -> Decision {
        let mut decision = Decision {
            action: None,
            fault: None,
            comment: None,
            latency_ms,
        };
        if let Some(banks) = &mut self.banks {
            let left = banks.left(seat);
            if banks.charge(seat, latency_ms) {
                decision.fault = Some(
                    Fault::new(
                        FaultKind::Flagged,
                        format!(
                            "the seat's time bank ran out ({left} ms left, the answer took {latency_ms} ms); its first legal action is played for the rest of the match"
                        ),
                    )
                    .expecting(format!(
                        "an answer within the {left} ms left in the seat's time bank"
                    )),
                );
                return decision;
            }
        }
        match answer {
            Ok(answer) => {
                decision.action = Some(answer.action);
                decision.comment = answer
                    .comment
                    .map(|c| c.chars().take(COMMENT_CHARS).collect());
            }
            Err(fault) => decision.fault = Some(fault),
        }
        decision
    }

    /// Charges a played turn's fault to `seat` (the arena's own fallbacks for a disqualified or
    /// flagged seat do not count).
    pub fn count(&mut self, seat: usize, fault: Option<&Fault>) {
        if fault.is_some_and(|f| f.kind.counts()) {
            self.faults[seat] += 1;
        }
    }

    /// Counted faults per seat.
    pub fn faults(&self) -> &[u32] {
        &self.faults
    }

    /// The seats with `max_faults` faults: ranked last.
    pub fn disqualified(&self) -> Vec<usize> {
        (0..self.faults.len())
            .filter(|s| self.faults[*s] >= self.max_faults)
            .collect()
    }

    /// The seats whose bank ran out.
    pub fn flagged(&self) -> Vec<usize> {
        self.banks
            .as_ref()
            .map(Banks::flagged_seats)
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn answer(action: Value) -> Result<MoveResponse, Fault> {
        Ok(MoveResponse {
            action,
            comment: None,
        })
    }

    fn failure(kind: FaultKind) -> Result<MoveResponse, Fault> {
        Err(Fault::new(kind, "as the client reported it"))
    }

    fn kind(decision: &Decision) -> Option<FaultKind> {
        decision.fault.as_ref().map(|f| f.kind)
    }

    /// Asks `seat` and judges `answer`, the way the runner does (engine refusals aside).
    fn turn(
        standing: &mut Standing,
        seat: usize,
        answer: Result<MoveResponse, Fault>,
        latency_ms: u64,
    ) -> Decision {
        let decision = match standing.ask(seat) {
            Ask::Skip(decision) => decision,
            Ask::Bot { .. } => standing.judge(seat, answer, latency_ms),
        };
        standing.count(seat, decision.fault.as_ref());
        decision
    }

    #[test]
    fn a_bot_that_answers_in_time_plays_its_action_with_its_comment_cut() {
        let mut standing = Standing::new(2, 3, 1000, None);
        assert_eq!(
            standing.ask(0),
            Ask::Bot {
                timeout_ms: 1000,
                time_left_ms: None
            }
        );
        let long = "x".repeat(300);
        let decision = standing.judge(
            0,
            Ok(MoveResponse {
                action: json!({"type": "draw"}),
                comment: Some(long),
            }),
            12,
        );
        assert_eq!(decision.action, Some(json!({"type": "draw"})));
        assert_eq!(decision.fault, None);
        assert_eq!(decision.latency_ms, 12);
        assert_eq!(decision.comment.map(|c| c.chars().count()), Some(280));
    }

    #[test]
    fn a_faulty_bot_gets_its_first_legal_action_and_a_counted_fault() {
        for fault in [
            FaultKind::Timeout,
            FaultKind::Transport,
            FaultKind::BadStatus,
            FaultKind::BadJson,
        ] {
            let mut standing = Standing::new(2, 3, 1000, None);
            let decision = turn(&mut standing, 1, failure(fault), 1000);
            assert_eq!(
                decision.action, None,
                "{fault:?}: the first legal action is played"
            );
            assert_eq!(kind(&decision), Some(fault));
            assert_eq!(decision.fault.unwrap().detail, "as the client reported it");
            assert_eq!(standing.faults(), [0, 1]);
        }
    }

    #[test]
    fn an_action_the_engine_refuses_is_an_illegal_action_fault() {
        let mut standing = Standing::new(2, 3, 1000, None);
        let action = json!({"type": "play", "card": "ZZ"});
        let mut decision = standing.judge(0, answer(action.clone()), 5);
        decision.refuse(&action, "no such card");
        standing.count(0, decision.fault.as_ref());
        assert_eq!(decision.action, None);
        assert_eq!(
            decision.fault,
            Some(
                Fault::new(
                    FaultKind::IllegalAction,
                    r#"{"card":"ZZ","type":"play"} is refused: no such card"#
                )
                // The action as the arena read it, and what it should have been.
                .with_answer(BotAnswer::excerpt(None, br#"{"card":"ZZ","type":"play"}"#))
                .expecting("one of the move request's legal_actions, exactly as sent")
            )
        );
        assert_eq!(standing.faults(), [1, 0]);
    }

    #[test]
    fn max_faults_disqualify_a_seat_which_is_then_played_for_without_asking() {
        let mut standing = Standing::new(2, 2, 1000, None);
        turn(&mut standing, 0, failure(FaultKind::Timeout), 1000);
        assert!(standing.disqualified().is_empty());
        turn(&mut standing, 0, failure(FaultKind::BadJson), 3);
        assert_eq!(standing.disqualified(), [0]);
        let Ask::Skip(skipped) = standing.ask(0) else {
            panic!("a disqualified seat is not asked");
        };
        assert_eq!(
            (kind(&skipped), skipped.action.clone(), skipped.latency_ms),
            (Some(FaultKind::Disqualified), None, 0)
        );
        // The arena's own fallbacks are not further faults.
        standing.count(0, skipped.fault.as_ref());
        assert_eq!(standing.faults(), [2, 0]);
        assert!(matches!(standing.ask(1), Ask::Bot { .. }));
    }

    #[test]
    fn a_bank_that_runs_out_flags_the_seat_for_the_rest_of_the_match() {
        let clock = Clock {
            initial_ms: 1000,
            increment_ms: 100,
        };
        let mut standing = Standing::new(2, 3, 700, Some(clock));
        // The bot has the shorter of its bank and the deadline.
        assert_eq!(
            standing.ask(0),
            Ask::Bot {
                timeout_ms: 700,
                time_left_ms: Some(1000)
            }
        );
        let played = turn(&mut standing, 0, answer(json!({"a": 1})), 600);
        assert_eq!((played.action, played.fault), (Some(json!({"a": 1})), None));
        assert_eq!(
            standing.ask(0),
            Ask::Bot {
                timeout_ms: 500,
                time_left_ms: Some(500)
            }
        );
        // A valid answer that took the whole bank is not played.
        let flagged = turn(&mut standing, 0, answer(json!({"a": 2})), 500);
        assert_eq!(flagged.action, None);
        assert_eq!(
            flagged.fault.unwrap().detail,
            "the seat's time bank ran out (500 ms left, the answer took 500 ms); its first legal action is played for the rest of the match"
        );
        let Ask::Skip(later) = standing.ask(0) else {
            panic!("a flagged seat is not asked");
        };
        assert_eq!(kind(&later), Some(FaultKind::Flagged));
        // Flags are not faults: the seat keeps its place in the ranking.
        assert_eq!(standing.faults(), [0, 0]);
        assert!(standing.disqualified().is_empty());
        assert_eq!(standing.flagged(), [0]);
    }

    #[test]
    fn a_resumed_match_rebuilds_the_same_standing_from_its_log() {
        let clock = Clock {
            initial_ms: 1000,
            increment_ms: 0,
        };
        let mut played = Standing::new(2, 3, 1000, Some(clock));
        let mut log = Vec::new();
        for (seat, answer, latency) in [
            (0, failure(FaultKind::Timeout), 400),
            (1, answer(json!({})), 30),
            (0, answer(json!({})), 700),
            (0, answer(json!({})), 0),
        ] {
            let decision = turn(&mut played, seat, answer, latency);
            log.push(MoveRecord {
                index: log.len(),
                seat,
                action: json!({}),
                latency_ms: decision.latency_ms,
                fault: decision.fault,
                comment: None,
                events: Vec::new(),
            });
        }
        let mut resumed = Standing::new(2, 3, 1000, Some(clock));
        for logged in &log {
            resumed.replay(logged);
        }
        assert_eq!(resumed, played);
        assert_eq!(
            (resumed.faults(), resumed.flagged()),
            (&[1, 0][..], vec![0])
        );
    }
}
