//! What each seat is told of the match so far: the whole history in every move request, or in
//! delta mode ([`HistoryMode::Delta`]) the entries since the seat's previous request.

use crate::wire::HistoryMode;
use serde_json::Value;

/// The match history as each seat may know it ([`crate::wire::HistoryEntry`]: every move's
/// public events, and the action itself only for the seat's own moves), kept serialized per
/// seat: one entry is appended per move, so a move request costs no re-serialization of the
/// match.
pub(super) struct Histories {
    /// Per seat, the JSON of its entries joined by commas.
    seats: Vec<Vec<u8>>,
    /// Per seat, in delta mode, how far its bot has the history (entries, bytes of `seats`):
    /// up to the end of its last answered request of this run. None until then, so a run's
    /// first request carries the whole history.
    delivered: Vec<Option<(usize, usize)>>,
    moves: usize,
}

/// What one move request carries of a seat's history.
pub(super) struct HistoryPart<'a> {
    /// `history_from`: in delta mode, the index of the first entry carried.
    pub(super) from: Option<usize>,
    /// The entries' JSON, joined by commas.
    pub(super) entries: &'a [u8],
}

impl Histories {
    pub(super) fn new(players: usize) -> Histories {
        Histories {
            seats: vec![Vec::new(); players],
            delivered: vec![None; players],
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

    /// What `seat`'s next move request carries: every entry, or in delta mode those after the
    /// ones its bot has ([`Histories::delivered`]).
    pub(super) fn part(&self, seat: usize, mode: HistoryMode) -> HistoryPart<'_> {
        let json = self.json(seat);
        match mode {
            HistoryMode::Full => HistoryPart {
                from: None,
                entries: json,
            },
            HistoryMode::Delta => {
                let (from, at) = self
                    .delivered
                    .get(seat)
                    .copied()
                    .flatten()
                    .unwrap_or((0, 0));
                let rest = &json[at.min(json.len())..];
                HistoryPart {
                    from: Some(from),
                    // Entries are joined by commas: the first one after a cut follows one.
                    entries: rest.strip_prefix(b",").unwrap_or(rest),
                }
            }
        }
    }

    /// `seat`'s bot answered a request carrying its history so far: in delta mode the next one
    /// carries only the moves after it. (Unanswered, the next request starts from the same
    /// point again: the bot may not have read it.)
    pub(super) fn delivered(&mut self, seat: usize) {
        if let Some(delivered) = self.delivered.get_mut(seat) {
            *delivered = Some((self.moves, self.seats[seat].len()));
        }
    }

    /// `seat`'s next request carries the whole history again (its bot changed mode, or lost
    /// what it had, as a stream bot that connects again).
    pub(super) fn restart(&mut self, seat: usize) {
        if let Some(delivered) = self.delivered.get_mut(seat) {
            *delivered = None;
        }
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
            history_from: None,
            info: Some("i2.m_1.1.2.AAAAAAAAAAAAAAAAAAAAAA"),
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
            history_from: None,
            info: Some("i2.m_1.1.2.AAAAAAAAAAAAAAAAAAAAAA".into()),
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
            info: None,
            ..outgoing
        };
        let parsed: MoveRequest =
            serde_json::from_slice(&crate::wire::move_request_body(&without, b"").unwrap())
                .unwrap();
        assert_eq!(parsed.time_left_ms, None);
        assert_eq!(parsed.info, None);

        // A delta request past the run's first leaves the view's options out (the start notice
        // and the first request carry them); the view's other fields stay, in their order.
        let view =
            r#"{"seat":1,"hand":["7H"],"options":{"packs":"auto","x":{"options":1}},"trick":[]}"#;
        let body_of = |history_from| {
            let request = OutgoingMove {
                view,
                history_from,
                ..outgoing
            };
            String::from_utf8(crate::wire::move_request_body(&request, b"").unwrap()).unwrap()
        };
        assert!(body_of(None).contains(&format!(r#""view":{view},"#)));
        assert!(body_of(Some(0)).contains(&format!(r#""view":{view},"#)));
        let delta = body_of(Some(3));
        assert!(
            delta.contains(r#""view":{"seat":1,"hand":["7H"],"trick":[]},"#),
            "{delta}"
        );
        serde_json::from_str::<MoveRequest>(&delta).unwrap();
    }

    /// In delta mode a seat gets the whole history on its first request, then only what came
    /// after its last answered request; its copy (cut to `history_from`, then extended) is
    /// always the full history. A restart sends everything again.
    #[test]
    fn delta_parts_rebuild_the_full_history() {
        let mut histories = Histories::new(2);
        let mut rebuilt: Vec<Value> = Vec::new();
        let take = |histories: &Histories, rebuilt: &mut Vec<Value>| {
            let part = histories.part(1, HistoryMode::Delta);
            let mut text = b"[".to_vec();
            text.extend_from_slice(part.entries);
            text.push(b']');
            let entries: Vec<Value> = serde_json::from_slice(&text).expect("entries");
            rebuilt.truncate(part.from.expect("delta"));
            rebuilt.extend(entries.iter().cloned());
            entries.len()
        };
        let push = |histories: &mut Histories, n: usize| {
            histories.push(n % 2, &json!({"type": "play", "n": n}), &[json!({"n": n})]);
        };
        let full = |histories: &Histories| -> Vec<Value> {
            let mut text = b"[".to_vec();
            text.extend_from_slice(histories.json(1));
            text.push(b']');
            serde_json::from_slice(&text).unwrap()
        };
        push(&mut histories, 0);
        push(&mut histories, 1);
        assert_eq!(
            take(&histories, &mut rebuilt),
            2,
            "first request: everything"
        );
        histories.delivered(1);
        push(&mut histories, 2);
        push(&mut histories, 3);
        assert_eq!(take(&histories, &mut rebuilt), 2, "only the two new moves");
        // Not answered: the next request starts from the same point, with one more move.
        push(&mut histories, 4);
        assert_eq!(take(&histories, &mut rebuilt), 3);
        histories.delivered(1);
        assert_eq!(take(&histories, &mut rebuilt), 0, "nothing new");
        assert_eq!(rebuilt, full(&histories));
        histories.restart(1);
        assert_eq!(take(&histories, &mut rebuilt), 5);
        assert_eq!(rebuilt, full(&histories));
        let whole = histories.part(1, HistoryMode::Full);
        assert_eq!(whole.from, None);
        assert_eq!(whole.entries, histories.json(1));
    }
}
