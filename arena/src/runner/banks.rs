//! Time banks: with a [`Clock`], each seat's answers are timed against its bank.

use crate::client::FaultKind;
use crate::store::MoveRecord;
use crate::wire::Clock;

/// Each seat's time bank in a match with a [`Clock`].
#[derive(Debug, Clone, PartialEq)]
pub struct Banks {
    clock: Clock,
    left: Vec<u64>,
    flagged: Vec<bool>,
}

impl Banks {
    /// Full banks for `players` seats.
    pub fn new(clock: Clock, players: usize) -> Self {
        Banks {
            clock,
            left: vec![clock.initial_ms; players],
            flagged: vec![false; players],
        }
    }

    /// Milliseconds left in `seat`'s bank.
    pub fn left(&self, seat: usize) -> u64 {
        self.left[seat]
    }

    /// Whether `seat`'s bank has run out.
    pub fn flagged(&self, seat: usize) -> bool {
        self.flagged[seat]
    }

    /// The flagged seats.
    pub fn flagged_seats(&self) -> Vec<usize> {
        (0..self.flagged.len())
            .filter(|s| self.flagged[*s])
            .collect()
    }

    /// Takes `latency_ms` from `seat`'s bank, then adds the increment. Returns true if the bank
    /// ran out (the seat is flagged from now on).
    pub fn charge(&mut self, seat: usize, latency_ms: u64) -> bool {
        if latency_ms >= self.left[seat] {
            self.left[seat] = 0;
            self.flagged[seat] = true;
            return true;
        }
        self.left[seat] = self.left[seat] - latency_ms + self.clock.increment_ms;
        false
    }

    /// Replays a logged move: the same charges as when it was played.
    pub fn replay(&mut self, logged: &MoveRecord) {
        let seat = logged.seat;
        if self.flagged[seat] {
            return;
        }
        match logged.fault.as_ref().map(|f| f.kind) {
            Some(FaultKind::Disqualified) => {}
            Some(FaultKind::Flagged) => {
                self.left[seat] = 0;
                self.flagged[seat] = true;
            }
            _ => {
                self.charge(seat, logged.latency_ms);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Fault;
    use serde_json::json;

    fn timed(seat: usize, latency_ms: u64, fault: Option<FaultKind>) -> MoveRecord {
        MoveRecord {
            index: 0,
            seat,
            action: json!({}),
            latency_ms,
            fault: fault.map(|kind| Fault::new(kind, "x")),
            comment: None,
            events: Vec::new(),
        }
    }

    #[test]
    fn a_bank_loses_each_answers_time_gains_the_increment_and_flags_at_zero() {
        let clock = Clock {
            initial_ms: 1000,
            increment_ms: 100,
        };
        let mut banks = Banks::new(clock, 2);
        assert!(!banks.charge(0, 400));
        assert_eq!(banks.left(0), 700);
        assert!(!banks.charge(0, 650));
        assert_eq!(banks.left(0), 150);
        assert!(banks.charge(0, 150));
        assert!(banks.flagged(0) && banks.left(0) == 0);
        assert_eq!((banks.left(1), banks.flagged_seats()), (1000, vec![0]));
        // A resumed match rebuilds the same banks from the log.
        let mut replayed = Banks::new(clock, 2);
        for logged in [
            timed(0, 400, None),
            timed(1, 30, Some(FaultKind::Timeout)),
            timed(0, 650, None),
            timed(0, 150, Some(FaultKind::Flagged)),
            timed(0, 0, Some(FaultKind::Flagged)),
        ] {
            replayed.replay(&logged);
        }
        banks.charge(1, 30);
        assert_eq!(replayed, banks);
    }
}
