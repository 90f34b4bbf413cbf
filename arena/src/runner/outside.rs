//! Seats whose answers come from outside the worker (stream bots; see
//! [`crate::store::Transport`]): the runner stores a [`PendingMove`], announces its `move` line
//! on the bot's bus topic, and waits for the answer, which any process takes
//! ([`crate::Arena::submit_move`]) and publishes on the match's answers topic. The answer is then
//! judged like a URL bot's ([`super::decision::Standing::judge`]): the same deadline, clock and
//! faults.

use super::presence::{MoveTime, Presence};
use crate::bus::{Bus, topic};
use crate::client::{Fault, FaultKind};
use crate::store::{MatchRecord, MoveRecord, PendingMove, Store, now_ms};
use crate::wire::{MoveResponse, OutgoingMove};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the runner still waits, once the deadline has passed, for an answer that a process
/// took in time but had not yet published.
const IN_FLIGHT_GRACE: Duration = Duration::from_secs(1);

/// An answer to a pending move, as published on the match's answers topic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutsideAnswer {
    /// The seat it answers for.
    pub seat: usize,
    /// The pending move it answers.
    pub request_id: String,
    /// The action.
    pub action: Value,
    /// The comment, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Why it is not one of the request's legal actions (the process that took it checked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub illegal: Option<String>,
}

/// The notice that a `move` line was written to its bot's connection (published on the match's
/// answers topic by the process that holds the connection): the move's clock runs from then,
/// not from the announcement, so time the server spent busy before the line left is not the
/// bot's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WrittenNotice {
    /// Always `written`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The pending move whose line was written.
    pub request_id: String,
    /// When (unix milliseconds).
    pub written_at: i64,
}

impl WrittenNotice {
    /// The notice of `line` (a stream line as sent), when it is a `move` line: its match and
    /// the notice's JSON.
    pub fn of_line(line: &str) -> Option<(String, String)> {
        #[derive(Deserialize)]
        struct Head {
            #[serde(rename = "type")]
            kind: String,
            match_id: String,
            request_id: String,
        }
        let head: Head = serde_json::from_str(line).ok()?;
        (head.kind == "move").then(|| {
            let notice = WrittenNotice {
                kind: "written".into(),
                request_id: head.request_id,
                written_at: now_ms(),
            };
            (
                head.match_id,
                serde_json::to_string(&notice).unwrap_or_default(),
            )
        })
    }
}

/// What came back for a pending move.
pub struct Answered {
    /// The answer, or the fault (a timeout).
    pub answer: Result<MoveResponse, Fault>,
    /// Milliseconds from the announcement to the answer (at most the time given, for an answer
    /// taken in time).
    pub latency_ms: u64,
    /// Why the action is not one of the legal actions, if it is not.
    pub illegal: Option<String>,
}

/// A stream `move` line: `type`, `match_id` and `request_id` before the move request's own
/// fields (`body` as [`crate::wire::move_request_body`] writes it, with `history_from`).
pub fn move_line(match_id: &str, request_id: &str, body: &[u8]) -> Vec<u8> {
    let head = serde_json::json!({
        "type": "move",
        "match_id": match_id,
        "request_id": request_id,
    })
    .to_string();
    let mut line = Vec::with_capacity(head.len() + body.len());
    // Both are JSON objects: the head's closing brace and the body's opening one go.
    line.extend_from_slice(&head.as_bytes()[..head.len() - 1]);
    line.push(b',');
    line.extend_from_slice(&body[1..]);
    line
}

/// A stored `move` line made whole for a bot that connects (again): a line whose history is a
/// delta (`history_from` above 0) gets the seat's whole history and its whole view (with the
/// options), rebuilt by replaying the match's stored `moves` up to the line's position; a line
/// already whole comes back as it is. Storing the delta only keeps each move's pending row small
/// (a whole twenty_two history is 20 KB); connections are rare.
pub fn whole_move_line(
    record: &MatchRecord,
    mut moves: Vec<MoveRecord>,
    line: &str,
) -> anyhow::Result<String> {
    let mut fields: serde_json::Map<String, Value> = serde_json::from_str(line)?;
    let from = fields
        .get("history_from")
        .and_then(Value::as_u64)
        .unwrap_or(0) as usize;
    if from == 0 {
        return Ok(line.to_string());
    }
    let seat = fields
        .get("seat")
        .and_then(Value::as_u64)
        .ok_or_else(|| anyhow::anyhow!("a move line without its seat"))? as usize;
    let played = from
        + fields
            .get("history")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
    anyhow::ensure!(
        moves.len() >= played,
        "match {} keeps {} moves, the line follows {played}",
        record.id,
        moves.len()
    );
    moves.truncate(played);
    let replayed = crate::replay::logged(record, &mut moves)?;
    let mut histories = super::history::Histories::new(record.bots.len());
    for logged in &moves {
        histories.push(logged.seat, &logged.action, &logged.events);
    }
    let mut history = b"[".to_vec();
    history.extend_from_slice(histories.json(seat));
    history.push(b']');
    fields.insert("history".into(), serde_json::from_slice(&history)?);
    fields.insert("history_from".into(), Value::from(0));
    fields.insert(
        "view".into(),
        serde_json::from_str(&replayed.game.view_json(engine::Viewer::Seat(seat)))?,
    );
    line_text(fields)
}

/// A notice line (`match_start`, `match_end`): `type` and `match_id` before the notice's fields.
pub fn notice_line(kind: &str, match_id: &str, notice: &impl Serialize) -> Option<String> {
    let Ok(Value::Object(fields)) = serde_json::to_value(notice) else {
        return None;
    };
    let mut line = serde_json::Map::new();
    line.insert("type".into(), kind.into());
    line.insert("match_id".into(), match_id.into());
    line.extend(fields);
    Some(Value::Object(line).to_string())
}

/// Asks an outside seat: stores the pending move, announces it, waits for its answer until
/// `timeout` has passed (the clock runs from the announcement). The line announced and stored
/// carries `history_entries` (in delta mode, the moves since the bot's last answered request); a
/// bot that connects again gets it made whole ([`whole_move_line`]). A stream seat's `presence`
/// stops the clock while its bot is away, within its grace (see [`super::presence`]): the
/// pending move then keeps the time it has left, which a reconnected bot is told, and the
/// answer's latency counts only the time that ran.
pub async fn ask(
    store: &Arc<dyn Store>,
    bus: &Arc<dyn Bus>,
    bot_id: &str,
    request: &OutgoingMove<'_>,
    history_entries: &[u8],
    timeout: Duration,
    mut presence: Option<&mut Presence>,
) -> anyhow::Result<Answered> {
    let body = crate::wire::move_request_body(request, history_entries)?;
    let request_id = crate::bots::new_id("r");
    let line = String::from_utf8(move_line(request.match_id, &request_id, &body))?;
    let stored = line.clone();
    // Subscribed before the move is announced: no answer can come first.
    let mut answers = bus.subscribe(&topic::answers(request.match_id));
    if let Some(presence) = presence.as_deref_mut() {
        presence.catch_up();
    }
    let away = presence
        .as_deref()
        .is_some_and(|p| p.away() && !p.grace_left().is_zero());
    let created_at = now_ms();
    store
        .put_pending(&PendingMove {
            match_id: request.match_id.to_string(),
            seat: request.seat,
            request_id: request_id.clone(),
            bot_id: bot_id.to_string(),
            request: stored,
            created_at,
            deadline_at: created_at + timeout.as_millis() as i64,
            frozen_left_ms: away.then_some(timeout.as_millis() as i64),
        })
        .await?;
    bus.publish(&topic::bot(bot_id), line).await?;
    // The clock runs from the announcement (the line stored and published), and once the line
    // is written to the bot's connection, from then (a [`WrittenNotice`]).
    let mut time = MoveTime::new(timeout, Instant::now(), away);
    let mut written = false;
    let clock = PendingClock {
        store,
        match_id: request.match_id,
        seat: request.seat,
        request_id: &request_id,
    };
    let mut late_until: Option<tokio::time::Instant> = None;
    loop {
        let now = Instant::now();
        // The time runs out at its deadline (or, once taken by another process just before it,
        // after the in-flight grace); frozen, the grace runs out instead.
        let grace_end = time
            .frozen_since()
            .zip(presence.as_deref())
            .map(|(since, p)| since + p.grace_left());
        let wake = late_until
            .map(tokio::time::Instant::into_std)
            .or(time.deadline())
            .or(grace_end)
            .unwrap_or(now + timeout);
        tokio::select! {
            // An answer already heard wins over a deadline that passed meanwhile.
            biased;
            received = answers.recv() => {
                let Ok(message) = received else {
                    // Lagged behind other seats' answers: keep listening.
                    continue;
                };
                let Ok(answer) = serde_json::from_str::<OutsideAnswer>(&message) else {
                    clock_from_write(&message, &request_id, &mut written, &mut time, timeout);
                    continue;
                };
                if answer.seat != request.seat || answer.request_id != request_id {
                    continue;
                }
                return Ok(Answered {
                    answer: Ok(MoveResponse {
                        action: answer.action,
                        comment: answer.comment,
                    }),
                    // Any answer heard was taken before the deadline (the runner takes the
                    // pending move then): the bus's delay is not the bot's, nor the time it
                    // was away within its grace.
                    latency_ms: (time.used(Instant::now()).as_millis() as u64)
                        .min(timeout.as_millis() as u64),
                    illegal: answer.illegal,
                });
            }
            () = next_notice(presence.as_deref_mut()), if late_until.is_none() => {
                let Some(presence) = presence.as_deref_mut() else { continue };
                let now = Instant::now();
                if presence.away() && !time.frozen() && !presence.grace_left().is_zero() {
                    time.freeze(now);
                    clock.frozen(time.left(now)).await?;
                } else if !presence.away() && time.frozen() {
                    presence.spend(time.resume(now));
                    clock.running(time.left(now)).await?;
                }
            }
            () = tokio::time::sleep_until(wake.into()) => {
                let now = Instant::now();
                if time.frozen() {
                    // The grace is spent and the bot is still away: its time runs again.
                    if let Some(presence) = presence.as_deref_mut() {
                        presence.spend(time.resume(now));
                    }
                    clock.running(time.left(now)).await?;
                    continue;
                }
                if time.deadline().is_some_and(|deadline| deadline > now) {
                    continue;
                }
                if late_until.is_none() {
                    let taken_here = store
                        .take_pending(request.match_id, request.seat, Some(&request_id))
                        .await?
                        .is_some();
                    if !taken_here {
                        // Another process took the answer just before the deadline: it is on
                        // its way.
                        late_until = Some(tokio::time::Instant::now() + IN_FLIGHT_GRACE);
                        continue;
                    }
                }
                return Ok(Answered {
                    answer: Err(timeout_fault(request.match_id, &request_id, timeout)),
                    latency_ms: time.used(now).as_millis() as u64,
                    illegal: None,
                });
            }
        }
    }
}

/// On a [`WrittenNotice`] of this request (the first, and not while the clock is frozen), the
/// clock restarts from the write: the bus's delay since it counts (clocks of one arena agree to
/// well under a deadline); the server's time before it does not.
fn clock_from_write(
    message: &str,
    request_id: &str,
    written: &mut bool,
    time: &mut MoveTime,
    timeout: Duration,
) {
    if let Ok(notice) = serde_json::from_str::<WrittenNotice>(message)
        && notice.request_id == request_id
        && !*written
        && !time.frozen()
    {
        *written = true;
        let since = Duration::from_millis(u64::try_from(now_ms() - notice.written_at).unwrap_or(0))
            .min(timeout);
        let now = Instant::now();
        *time = MoveTime::new(timeout, now.checked_sub(since).unwrap_or(now), false);
    }
}

/// The fault of a move not answered within `timeout`.
fn timeout_fault(match_id: &str, request_id: &str, timeout: Duration) -> Fault {
    Fault::new(
        FaultKind::Timeout,
        format!(
            "no answer to request {request_id} within {} ms",
            timeout.as_millis()
        ),
    )
    .expecting(format!(
        "POST /v1/bot/matches/{match_id}/move with this request_id within {} ms (the move's deadline, or the seat's time bank if shorter)",
        timeout.as_millis()
    ))
}

/// The next presence notice of a stream seat; never, for a seat without one.
async fn next_notice(presence: Option<&mut Presence>) {
    match presence {
        Some(presence) => presence.next_notice().await,
        None => std::future::pending().await,
    }
}

/// A pending move's time, as stored for the processes that replay it to a reconnecting bot.
struct PendingClock<'a> {
    store: &'a Arc<dyn Store>,
    match_id: &'a str,
    seat: usize,
    request_id: &'a str,
}

impl PendingClock<'_> {
    /// The time stands still with `left` left.
    async fn frozen(&self, left: Duration) -> anyhow::Result<()> {
        let left = left.as_millis() as i64;
        self.store
            .set_pending_clock(
                self.match_id,
                self.seat,
                self.request_id,
                now_ms() + left,
                Some(left),
            )
            .await?;
        Ok(())
    }

    /// The time runs, `left` left.
    async fn running(&self, left: Duration) -> anyhow::Result<()> {
        let deadline_at = now_ms() + left.as_millis() as i64;
        self.store
            .set_pending_clock(self.match_id, self.seat, self.request_id, deadline_at, None)
            .await?;
        Ok(())
    }
}

/// A `move` line with the time the move actually has left, `left_ms`, for a bot that connects
/// (again) while it waits: `deadline_ms` becomes `left_ms`, and `time_left_ms` (the bank before
/// the move) loses the time already used. A line that does not parse comes back as it is.
pub fn with_time_left(line: &str, left_ms: u64) -> String {
    let Ok(mut fields) = serde_json::from_str::<serde_json::Map<String, Value>>(line) else {
        return line.to_string();
    };
    let Some(given) = fields.get("deadline_ms").and_then(Value::as_u64) else {
        return line.to_string();
    };
    if left_ms >= given {
        return line.to_string();
    }
    fields.insert("deadline_ms".into(), left_ms.into());
    if let Some(bank) = fields.get("time_left_ms").and_then(Value::as_u64) {
        fields.insert(
            "time_left_ms".into(),
            bank.saturating_sub(given - left_ms).into(),
        );
    }
    line_text(fields).unwrap_or_else(|_| line.to_string())
}

/// A line's text from its fields: the stream's own fields first, as in every line.
fn line_text(mut fields: serde_json::Map<String, Value>) -> anyhow::Result<String> {
    let mut head = serde_json::Map::new();
    for key in ["type", "match_id", "request_id"] {
        if let Some(value) = fields.remove(key) {
            head.insert(key.into(), value);
        }
    }
    let mut text = serde_json::to_string(&head)?;
    text.pop();
    for (key, value) in fields {
        if text.len() > 1 {
            text.push(',');
        }
        text.push_str(&serde_json::to_string(&key)?);
        text.push(':');
        text.push_str(&serde_json::to_string(&value)?);
    }
    text.push('}');
    Ok(text)
}

/// How often a starting match looks again whether an outside seat's bot is connected.
const CONNECTED_POLL: Duration = Duration::from_millis(200);

/// An outside seat's probe before its match: its bot is connected (`GET /v1/bot/stream`) now or
/// within `window`. Reports what the bot registered with.
pub(super) async fn connected_within(
    store: &dyn Store,
    bot: &crate::store::BotRecord,
    window: Duration,
) -> Result<crate::wire::BotInfo, crate::client::Fault> {
    let started = Instant::now();
    loop {
        match store.connected_bots().await {
            Ok(connected) if connected.contains(&bot.id) => {
                return Ok(crate::wire::BotInfo {
                    name: bot.name.clone(),
                    author: bot.author.clone(),
                    version: bot.version.clone(),
                    games: bot.games.clone(),
                });
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(
                bot = bot.id,
                error = format!("{error:#}"),
                "reading who is connected failed"
            ),
        }
        if started.elapsed() >= window {
            return Err(crate::client::Fault::new(
                crate::client::FaultKind::Transport,
                format!(
                    "the stream bot was not connected (GET /v1/bot/stream) within {} ms",
                    window.as_millis()
                ),
            ));
        }
        tokio::time::sleep(CONNECTED_POLL).await;
    }
}

/// How long the runner waits for a person without a clock when tables never expire: as good as
/// forever (the match's lease is renewed meanwhile), yet a finite time the clocks can add to.
const PERSON_WAIT: Duration = Duration::from_secs(365 * 24 * 3600);

impl super::Runner {
    /// How long a person without a clock may take over a move before the table counts as left:
    /// the table's expiry (`--table-expiry-minutes`), or as good as forever when it is 0.
    pub(super) fn person_wait(&self) -> Duration {
        if self.table_expiry.is_zero() {
            PERSON_WAIT
        } else {
            self.table_expiry
        }
    }

    /// Asks a seat answered from outside the worker (a stream bot, a person). A run waiting for
    /// a person gives its slot back meanwhile and takes one again for the bots' moves after.
    pub(super) async fn ask_outside(
        &self,
        bot: &crate::store::BotRecord,
        request: &OutgoingMove<'_>,
        history_entries: &[u8],
        timeout: Duration,
        presence: Option<&mut Presence>,
    ) -> anyhow::Result<Answered> {
        let person = bot.transport == crate::store::Transport::Person;
        if person && let Some(slots) = &self.slots {
            slots.add_permits(1);
        }
        let answered = ask(
            &self.store,
            &self.bus,
            &bot.id,
            request,
            history_entries,
            timeout,
            presence,
        )
        .await;
        if person
            && let Some(slots) = &self.slots
            && let Ok(permit) = slots.acquire().await
        {
            permit.forget();
        }
        answered
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_lines_write_is_noticed_for_its_match_and_request_and_other_lines_are_not() {
        let line = move_line(
            "m_1",
            "r_2",
            br#"{"history":[],"seat":0,"deadline_ms":1000}"#,
        );
        let line = String::from_utf8(line).expect("UTF-8");
        let before = now_ms();
        let (match_id, notice) = WrittenNotice::of_line(&line).expect("a move line");
        assert_eq!(match_id, "m_1");
        let notice: WrittenNotice = serde_json::from_str(&notice).expect("a notice");
        assert_eq!(
            (notice.kind.as_str(), notice.request_id.as_str()),
            ("written", "r_2")
        );
        assert!(notice.written_at >= before);
        // Not an answer: the runner reads it as a notice only.
        assert!(
            serde_json::from_str::<OutsideAnswer>(&serde_json::to_string(&notice).unwrap())
                .is_err()
        );
        assert!(WrittenNotice::of_line(r#"{"type":"match_start","match_id":"m_1"}"#).is_none());
    }

    #[test]
    fn a_replayed_line_carries_the_time_left_and_the_bank_after_the_time_used() {
        let line = move_line(
            "m_1",
            "r_2",
            br#"{"history":[],"seat":0,"deadline_ms":1000,"time_left_ms":60000}"#,
        );
        let line = String::from_utf8(line).expect("text");
        let replayed: Value = serde_json::from_str(&with_time_left(&line, 400)).expect("JSON");
        assert_eq!(replayed["deadline_ms"], 400);
        assert_eq!(replayed["time_left_ms"], 59_400);
        assert_eq!(replayed["request_id"], "r_2");
        assert_eq!(replayed["type"], "move");
        assert_eq!(with_time_left(&line, 1000), line, "no time used: as sent");
    }

    #[test]
    fn a_move_line_is_the_request_with_its_stream_fields_first() {
        let line = move_line("m_1", "r_2", br#"{"history":[],"seat":0,"history_from":0}"#);
        let parsed: Value = serde_json::from_slice(&line).expect("JSON");
        assert_eq!(
            parsed,
            serde_json::json!({"type": "move", "match_id": "m_1", "request_id": "r_2",
                               "history_from": 0, "history": [], "seat": 0})
        );
    }
}
