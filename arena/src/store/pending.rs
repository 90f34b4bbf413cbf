//! SQLite's pending moves, in memory. A SQLite database serves one process (it refuses a second
//! opener), so the moves its runner waits for from outside need not cross processes: kept here,
//! an outside answer costs no database write and no read, where the `pending_moves` table cost
//! two statements per move on a busy single-writer file. Lost in a crash, they need not be kept:
//! the restarted process resumes each match and asks its seat again. PostgreSQL keeps the table,
//! which every process sharing the database reads.

use super::PendingMove;
use std::collections::HashMap;
use std::sync::Mutex;

/// The pending moves by match and seat (one per seat at a time).
#[derive(Debug, Default)]
pub(super) struct PendingMemory {
    moves: Mutex<HashMap<(String, usize), PendingMove>>,
}

impl PendingMemory {
    fn moves(&self) -> std::sync::MutexGuard<'_, HashMap<(String, usize), PendingMove>> {
        // A panic while the lock was held cannot leave the map half-changed (each operation is
        // one map call): keep using it.
        self.moves
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Stores `pending`, replacing the seat's previous one.
    pub(super) fn put(&self, pending: &PendingMove) {
        self.moves()
            .insert((pending.match_id.clone(), pending.seat), pending.clone());
    }

    /// Takes the seat's pending move if its request id is `request_id` (None: any).
    pub(super) fn take(
        &self,
        match_id: &str,
        seat: usize,
        request_id: Option<&str>,
    ) -> Option<PendingMove> {
        let mut moves = self.moves();
        let key = (match_id.to_string(), seat);
        let pending = moves.get(&key)?;
        if request_id.is_some_and(|id| id != pending.request_id) {
            return None;
        }
        moves.remove(&key)
    }

    /// Takes the pending move of `request_id` in `match_id` if it is `bot_id`'s.
    pub(super) fn take_bot(
        &self,
        match_id: &str,
        bot_id: &str,
        request_id: &str,
    ) -> Option<PendingMove> {
        let mut moves = self.moves();
        let key = moves
            .iter()
            .find(|((id, _), pending)| {
                id == match_id && pending.bot_id == bot_id && pending.request_id == request_id
            })
            .map(|(key, _)| key.clone())?;
        moves.remove(&key)
    }

    /// The pending moves of a match or of a bot (both: of that bot in that match), oldest
    /// first, as the table's `ORDER BY created_at, match_id, seat`.
    pub(super) fn list(&self, match_id: Option<&str>, bot_id: Option<&str>) -> Vec<PendingMove> {
        let mut listed: Vec<PendingMove> = self
            .moves()
            .values()
            .filter(|pending| match_id.is_none_or(|id| pending.match_id == id))
            .filter(|pending| bot_id.is_none_or(|id| pending.bot_id == id))
            .cloned()
            .collect();
        listed.sort_by(|a, b| {
            (a.created_at, &a.match_id, a.seat).cmp(&(b.created_at, &b.match_id, b.seat))
        });
        listed
    }

    /// Sets the time of the seat's pending move `request_id` (see
    /// [`super::Store::set_pending_clock`]); false if it is no longer pending.
    pub(super) fn set_clock(
        &self,
        match_id: &str,
        seat: usize,
        request_id: &str,
        deadline_at: i64,
        frozen_left_ms: Option<i64>,
    ) -> bool {
        let mut moves = self.moves();
        match moves.get_mut(&(match_id.to_string(), seat)) {
            Some(pending) if pending.request_id == request_id => {
                pending.deadline_at = deadline_at;
                pending.frozen_left_ms = frozen_left_ms;
                true
            }
            _ => false,
        }
    }

    /// Forgets a match's pending moves.
    pub(super) fn clear(&self, match_id: &str) {
        self.moves().retain(|(id, _), _| id != match_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(
        match_id: &str,
        seat: usize,
        request_id: &str,
        bot_id: &str,
        at: i64,
    ) -> PendingMove {
        PendingMove {
            match_id: match_id.into(),
            seat,
            request_id: request_id.into(),
            bot_id: bot_id.into(),
            request: "{}".into(),
            created_at: at,
            deadline_at: at + 1000,
            frozen_left_ms: None,
        }
    }

    /// One per seat (a newer one replaces it), taken once, by its request id or its bot's, and
    /// listed oldest first.
    #[test]
    fn pending_moves_are_taken_once_and_listed_oldest_first() {
        let memory = PendingMemory::default();
        memory.put(&pending("m_1", 0, "r_1", "b_a", 10));
        memory.put(&pending("m_1", 0, "r_2", "b_a", 20));
        memory.put(&pending("m_1", 1, "r_3", "b_b", 5));
        memory.put(&pending("m_2", 0, "r_4", "b_a", 7));
        let ids = |listed: Vec<PendingMove>| -> Vec<String> {
            listed.into_iter().map(|p| p.request_id).collect()
        };
        assert_eq!(ids(memory.list(None, None)), ["r_3", "r_4", "r_2"]);
        assert_eq!(ids(memory.list(Some("m_1"), None)), ["r_3", "r_2"]);
        assert_eq!(ids(memory.list(None, Some("b_a"))), ["r_4", "r_2"]);
        assert!(memory.take("m_1", 0, Some("r_1")).is_none(), "replaced");
        assert!(
            memory.take_bot("m_1", "b_b", "r_2").is_none(),
            "another bot's"
        );
        assert!(memory.set_clock("m_1", 0, "r_2", 99, Some(400)));
        assert!(!memory.set_clock("m_1", 0, "r_1", 99, None), "not pending");
        let frozen = memory.list(Some("m_1"), Some("b_a")).remove(0);
        assert_eq!((frozen.deadline_at, frozen.left_ms(1_000_000)), (99, 400));
        assert_eq!(memory.take_bot("m_1", "b_a", "r_2").expect("taken").seat, 0);
        assert!(memory.take("m_1", 0, None).is_none(), "taken once");
        assert!(memory.take("m_1", 1, None).is_some());
        memory.clear("m_2");
        assert!(memory.list(None, None).is_empty());
    }
}
