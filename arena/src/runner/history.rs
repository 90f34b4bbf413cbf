//! What each seat is told of the match so far.

use serde_json::Value;

/// The match history as each seat may know it ([`crate::wire::HistoryEntry`]: every move's
/// public events, and the action itself only for the seat's own moves), kept serialized per
/// seat: one entry is appended per move, so a move request costs no re-serialization of the
/// match.
pub(super) struct Histories {
    /// Per seat, the JSON of its entries joined by commas.
    seats: Vec<Vec<u8>>,
    moves: usize,
}

impl Histories {
    pub(super) fn new(players: usize) -> Histories {
        Histories {
            seats: vec![Vec::new(); players],
            moves: 0,
        }
    }

    /// Appends a move to every seat's history: `{"seat":..,"action":..,"events":[..]}` for the
    /// mover, the same without `action` for the others (the shape of
    /// [`crate::wire::HistoryEntry`]). The events are serialized once for every seat.
    pub(super) fn push(&mut self, mover: usize, action: &Value, events: &[Value]) {
        let events = serde_json::to_vec(events).unwrap_or_else(|_| b"[]".to_vec());
        let action = serde_json::to_vec(action).unwrap_or_else(|_| b"{}".to_vec());
        let seat_field = format!("{{\"seat\":{mover},");
        for (seat, history) in self.seats.iter_mut().enumerate() {
            if !history.is_empty() {
                history.push(b',');
            }
            history.extend_from_slice(seat_field.as_bytes());
            if seat == mover {
                history.extend_from_slice(b"\"action\":");
                history.extend_from_slice(&action);
                history.push(b',');
            }
            history.extend_from_slice(b"\"events\":");
            history.extend_from_slice(&events);
            history.push(b'}');
        }
        self.moves += 1;
    }

    pub(super) fn len(&self) -> usize {
        self.moves
    }

    /// The seat's entries as JSON, joined by commas.
    pub(super) fn json(&self, seat: usize) -> &[u8] {
        self.seats.get(seat).map_or(&[], Vec::as_slice)
    }

    /// The seat's entries.
    #[cfg(test)]
    fn entries(&self, seat: usize) -> Vec<crate::wire::HistoryEntry> {
        let mut text = b"[".to_vec();
        text.extend_from_slice(self.json(seat));
        text.push(b']');
        serde_json::from_slice(&text).expect("history JSON")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{MoveRequest, OutgoingMove};
    use serde_json::json;

    #[test]
    fn history_shows_a_seat_only_its_own_actions_and_everyones_public_events() {
        let moves = vec![
            (
                0,
                json!({"type": "discard", "card": "QS"}),
                vec![json!({"type": "discard", "seat": 0})],
            ),
            (
                1,
                json!({"type": "draw"}),
                vec![json!({"type": "draw", "seat": 1, "count": 0})],
            ),
        ];
        let mut histories = Histories::new(2);
        for (seat, action, events) in &moves {
            histories.push(*seat, action, events);
        }
        let for_seat_1 = histories.entries(1);
        assert_eq!(for_seat_1[0].action, None);
        assert_eq!(for_seat_1[0].events, moves[0].2);
        assert_eq!(for_seat_1[1].action, Some(json!({"type": "draw"})));
        let for_seat_0 = histories.entries(0);
        assert_eq!(
            for_seat_0[0].action,
            Some(json!({"type": "discard", "card": "QS"}))
        );
        assert!(!serde_json::to_string(&for_seat_1).unwrap().contains("QS"));

        // The body written from the typed view and the serialized history reads back as the
        // request serialized whole, and a first move's body has an empty history.
        let legal = vec![json!({"type": "play", "cards": ["7H"]})];
        let legal_json = serde_json::to_string(&legal).unwrap();
        let outgoing = OutgoingMove {
            match_id: "m_1",
            game: "twenty_two",
            seat: 1,
            view: r#"{"hand":["7H"]}"#,
            legal_actions: &legal_json,
            deadline_ms: 1000,
            time_left_ms: Some(5000),
            state: None,
        };
        let whole = MoveRequest {
            match_id: "m_1".into(),
            game: "twenty_two".into(),
            seat: 1,
            view: json!({"hand": ["7H"]}),
            legal_actions: legal.clone(),
            deadline_ms: 1000,
            time_left_ms: Some(5000),
            history: Some(for_seat_1),
            state: None,
        };
        let body = crate::wire::move_request_body(&outgoing, histories.json(1)).unwrap();
        assert_eq!(
            serde_json::from_slice::<Value>(&body).unwrap(),
            serde_json::to_value(&whole).unwrap()
        );
        let first = crate::wire::move_request_body(&outgoing, b"").unwrap();
        let parsed: MoveRequest = serde_json::from_slice(&first).unwrap();
        assert_eq!(parsed.history, Some(Vec::new()));
        let without = OutgoingMove {
            time_left_ms: None,
            ..outgoing
        };
        let parsed: MoveRequest =
            serde_json::from_slice(&crate::wire::move_request_body(&without, b"").unwrap())
                .unwrap();
        assert_eq!(parsed.time_left_ms, None);
    }
}
