//! The match loop. Re-entrant: a match is (re)started from its logged moves, replayed through the
//! engine, and continued; finishing is a conditional update, so a match never finishes twice.
//! A run plays a match only while its worker holds the match's lease (see [`Store::claim`]):
//! every move and the finish are written fenced by the lease, and a run whose lease was taken
//! over by another worker stops without writing ([`Outcome::NotHeld`]).
//!
//! For each turn the arena asks the bot in the seat to act. A timeout, a connection error, a
//! non-2xx status, malformed JSON or an action the engine refuses is a *fault*: it is recorded
//! with the move, and the seat's first legal action (canonical order) is played instead. A seat
//! with `max_faults` faults is disqualified: from then on its first legal action is played
//! without asking, and it ranks last in the match (with its team, in team games).
//!
//! A match with a [`Clock`] also gives each seat a time bank ([`Banks`]): each answer's latency
//! is taken from it and the increment added; a seat whose bank runs out is *flagged* and its
//! first legal action is played for the rest of the match (it keeps its place in the ranking:
//! the moves it no longer chooses are its penalty). Banks are rebuilt from the logged latencies
//! when a match resumes.

use crate::bots;
use crate::client::{BotClient, Fault, FaultKind, MoveSigner, Target};
use crate::ladder::HealthPolicy;
use crate::metrics::{ArenaMetrics, MatchOutcome};
use crate::ratings;
use crate::store::{
    BotHealth, BotRecord, Finish, MatchRecord, MatchStatus, MoveRecord, Store, now_ms,
};
use crate::wire::{Clock, EndNotice, OutgoingMove, SeatInfo, StartNotice};
use engine::{GameResult, NewGame, Viewer};
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::time::Duration;

/// What the runner needs from the arena.
#[derive(Debug, Clone)]
pub struct Runner {
    /// Persistence.
    pub store: Arc<dyn Store>,
    /// Bot calls.
    pub client: BotClient,
    /// Timeout of notifications.
    pub notify_timeout: Duration,
    /// When repeated disqualifications pause a bot from the ladder.
    pub health: HealthPolicy,
    /// Counters for `/metrics`.
    pub metrics: Arc<ArenaMetrics>,
    /// The id of this worker (process) in match leases.
    pub worker: String,
    /// The lease a claim takes.
    pub lease: Duration,
    /// Where each move and the end are published for live watchers.
    pub live: crate::live::LiveHub,
}

/// The setup of a stored match, as the engine takes it.
pub fn new_game(record: &MatchRecord) -> NewGame {
    NewGame {
        players: record.bots.len(),
        options: record.options.as_object().cloned().unwrap_or_default(),
        seed: record.seed,
        deals: record.deals.clone(),
    }
}

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

/// Applies disqualifications to a ranking: disqualified seats (and, in team games, their whole
/// team) are taken out of their groups and ranked last together.
pub fn rank_disqualified(
    ranking: &[Vec<usize>],
    teams: Option<&[Vec<usize>]>,
    disqualified: &[usize],
) -> Vec<Vec<usize>> {
    let mut last: Vec<usize> = Vec::new();
    for seat in disqualified {
        let team: Vec<usize> = teams
            .and_then(|teams| teams.iter().find(|t| t.contains(seat)).cloned())
            .unwrap_or_else(|| vec![*seat]);
        for member in team {
            if !last.contains(&member) {
                last.push(member);
            }
        }
    }
    last.sort_unstable();
    let mut out: Vec<Vec<usize>> = ranking
        .iter()
        .map(|group| {
            group
                .iter()
                .copied()
                .filter(|s| !last.contains(s))
                .collect::<Vec<_>>()
        })
        .filter(|group| !group.is_empty())
        .collect();
    if !last.is_empty() {
        out.push(last);
    }
    out
}

/// The result JSON of a finished match.
pub fn result_json(
    result: &GameResult,
    ranking: &[Vec<usize>],
    disqualified: &[usize],
    flagged: &[usize],
    faults: &[u32],
) -> Value {
    let mut value = json!({
        "ranking": ranking,
        "scores": result.scores,
        "disqualified": disqualified,
        "flagged": flagged,
        "faults": faults,
    });
    if let Some(teams) = &result.teams {
        value["teams"] = json!(teams);
    }
    if !result.details.is_null() {
        value["details"] = result.details.clone();
    }
    if ranking != result.ranking.as_slice() {
        value["game_ranking"] = json!(result.ranking);
    }
    value
}

/// How a match ended, for callers that wait on it.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Finished now (false if another run had already finished it).
    Finished(bool),
    /// Aborted with a reason.
    Aborted(String),
    /// Already over before this run.
    AlreadyOver,
    /// Another worker holds the match (or took it over during this run, after this worker's
    /// lease ran out): this run stopped without writing anything more.
    NotHeld,
}

impl Runner {
    /// Claims the match `id` and plays (or resumes) it to its end. Infrastructure errors
    /// (database) are returned; the match stays `running` and is resumed by a worker once the
    /// lease runs out.
    pub async fn run(
        &self,
        id: &str,
        on_move: Option<&(dyn Fn(&MoveRecord) + Send + Sync)>,
    ) -> anyhow::Result<Outcome> {
        if !self.store.claim(id, &self.worker, self.lease).await? {
            return match self.store.get_match(id).await? {
                None => anyhow::bail!("match {id} does not exist"),
                Some(record)
                    if matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted) =>
                {
                    Ok(Outcome::AlreadyOver)
                }
                Some(_) => Ok(Outcome::NotHeld),
            };
        }
        self.play_claimed(id, on_move).await
    }

    /// Plays (or resumes) the match `id`, which this worker has just claimed, to its end.
    pub async fn play_claimed(
        &self,
        id: &str,
        on_move: Option<&(dyn Fn(&MoveRecord) + Send + Sync)>,
    ) -> anyhow::Result<Outcome> {
        let Some(record) = self.store.get_match(id).await? else {
            anyhow::bail!("match {id} does not exist");
        };
        if matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted) {
            return Ok(Outcome::AlreadyOver);
        }
        if engine::registry::find(&record.game).is_none() {
            return self
                .abort(
                    &record,
                    format!("the game `{}` is no longer served", record.game),
                )
                .await;
        };
        let mut seats: Vec<BotRecord> = Vec::new();
        for bot_id in &record.bots {
            match self.store.bot_any(bot_id).await? {
                Some(bot) => seats.push(bot),
                None => {
                    return self
                        .abort(&record, format!("bot {bot_id} does not exist"))
                        .await;
                }
            }
        }
        let targets: Vec<Target> = seats.iter().map(bots::target).collect();
        let mut logged = self.store.moves(id).await?;
        // The store keeps actions only: the replay gives each logged move its events back.
        let mut state = match crate::replay::logged(&record, &mut logged) {
            Ok(replayed) => replayed.game,
            Err(error) => return self.abort(&record, error.to_string()).await,
        };
        let players = record.bots.len();
        let mut faults = vec![0u32; players];
        let mut banks = record.clock.map(|clock| Banks::new(clock, players));
        for logged_move in &logged {
            if let Some(fault) = &logged_move.fault
                && fault.kind.counts()
            {
                faults[logged_move.seat] += 1;
            }
            if let Some(banks) = &mut banks {
                banks.replay(logged_move);
            }
        }
        self.metrics.match_started(&record.game);
        tracing::info!(
            match_id = id,
            game = record.game,
            bots = ?record.bots,
            ranked = record.ranked,
            resumed_at_move = logged.len(),
            "match started"
        );
        // Every move as each seat may know it, kept up to date move by move.
        let mut history = Histories::new(record.bots.len());
        for m in &logged {
            history.push(m.seat, &m.action, &m.events);
        }
        // Each seat's move requests are signed incrementally over its growing history.
        let mut signers: Vec<MoveSigner> = (0..players).map(|_| MoveSigner::default()).collect();
        let deadline = Duration::from_millis(record.deadline_ms);
        let seat_infos: Vec<SeatInfo> = seats
            .iter()
            .enumerate()
            .map(|(seat, bot)| SeatInfo {
                seat,
                bot: bot.id.clone(),
                name: bot.name.clone(),
            })
            .collect();
        if logged.is_empty() {
            for (seat, target) in targets.iter().enumerate() {
                let notice = StartNotice {
                    match_id: id.to_string(),
                    game: record.game.clone(),
                    seat,
                    seats: seat_infos.clone(),
                    options: match state.options() {
                        Value::Object(options) => options,
                        _ => Map::new(),
                    },
                    deadline_ms: record.deadline_ms,
                    clock: record.clock,
                };
                let client = self.client.clone();
                let target = target.clone();
                let timeout = self.notify_timeout;
                tokio::spawn(
                    async move { client.notify(&target, "/start", &notice, timeout).await },
                );
            }
        }

        while !state.is_over() {
            let Some(&seat) = state.to_act().first() else {
                break;
            };
            // The list as the bot reads it, written straight from the typed actions; the first
            // one (the fallback) is built as a `Value` only when a fallback is played.
            let legal = state.legal_actions_json(seat);
            let no_legal_action = || format!("seat {seat} is to act but has no legal action");
            if legal == "[]" {
                return self.abort(&record, no_legal_action()).await;
            }
            let index = history.len();
            let disqualified = faults[seat] >= record.max_faults;
            let (mut answered, mut fault, mut comment, mut latency_ms) = (None, None, None, 0);
            if disqualified {
                fault = Some(Fault::new(
                    FaultKind::Disqualified,
                    "the seat is disqualified; its first legal action was played",
                ));
            } else if banks.as_ref().is_some_and(|b| b.flagged(seat)) {
                fault = Some(Fault::new(
                    FaultKind::Flagged,
                    "the seat's time bank ran out earlier in the match; its first legal action was played",
                ));
            } else {
                // With a clock, the bot has its bank or the per-move deadline, whichever is
                // shorter.
                let time_left_ms = banks.as_ref().map(|b| b.left(seat));
                let timeout_ms = time_left_ms
                    .map_or(record.deadline_ms, |left| left.clamp(1, record.deadline_ms));
                let view = state.view_json(Viewer::Seat(seat));
                let request = OutgoingMove {
                    match_id: id,
                    game: &record.game,
                    seat,
                    view: &view,
                    legal_actions: &legal,
                    deadline_ms: timeout_ms,
                    time_left_ms,
                    state: Some(state.as_ref()),
                };
                let timeout = deadline.min(Duration::from_millis(timeout_ms));
                let (answer, latency) = self
                    .client
                    .ask_move(
                        &targets[seat],
                        &request,
                        history.json(seat),
                        &mut signers[seat],
                        timeout,
                    )
                    .await;
                latency_ms = latency;
                self.metrics.bot_call(latency);
                if let Some(banks) = &mut banks
                    && banks.charge(seat, latency)
                {
                    tracing::info!(match_id = id, seat, "seat flagged: its time bank ran out");
                    fault = Some(Fault::new(
                        FaultKind::Flagged,
                        format!(
                            "the seat's time bank ran out ({} ms left, the answer took {latency} ms); its first legal action is played for the rest of the match",
                            time_left_ms.unwrap_or(0)
                        ),
                    ));
                } else {
                    match answer {
                        Ok(answer) => {
                            answered = Some(answer.action);
                            comment = answer.comment.map(|c| c.chars().take(280).collect());
                        }
                        Err(bot_fault) => fault = Some(bot_fault),
                    }
                }
            }
            // Without an answer to play, the seat's first legal action (canonical order).
            let answered_applied = match answered {
                Some(action) => match state.apply(seat, &action) {
                    Ok(applied) => Ok((action, applied.events)),
                    Err(error) => Err(Some(format!("{} is refused: {error}", compact(&action)))),
                },
                None => Err(None),
            };
            let (action, events) = match answered_applied {
                Ok(played) => played,
                Err(refusal) => {
                    if let Some(refusal) = refusal
                        && fault.is_none()
                    {
                        fault = Some(Fault::new(FaultKind::IllegalAction, refusal));
                    }
                    // The state is unchanged by a refused action: its list is the one sent.
                    let Some(action) = state.legal_actions(seat).into_iter().next() else {
                        return self.abort(&record, no_legal_action()).await;
                    };
                    match state.apply(seat, &action) {
                        Ok(applied) => (action, applied.events),
                        Err(error) => {
                            return self
                                .abort(
                                    &record,
                                    format!(
                                        "the first legal action of seat {seat} was refused: {error}"
                                    ),
                                )
                                .await;
                        }
                    }
                }
            };
            if let Some(fault) = &fault
                && fault.kind.counts()
            {
                faults[seat] += 1;
            }
            let events = crate::replay::tagged(events, index);
            history.push(seat, &action, &events);
            let record_move = MoveRecord {
                index,
                seat,
                action,
                latency_ms,
                fault,
                comment,
                events,
            };
            // Durable before the match goes on (the next bot sees this move's effects).
            if !self
                .store
                .append_move(record.seq, &self.worker, &record_move)
                .await?
            {
                tracing::warn!(
                    match_id = id,
                    index,
                    "lease lost: another worker plays this match"
                );
                return Ok(Outcome::NotHeld);
            }
            self.metrics
                .move_played(&record.game, record_move.fault.as_ref().map(|f| f.kind));
            // After the store: a watcher subscribing now reads this move from there.
            if self.live.is_watched(id) {
                self.live.publish(
                    id,
                    crate::live::LiveEvent::Move(Box::new(crate::live::LiveMove {
                        index,
                        seat,
                        events: record_move.events.clone(),
                        view: state.view(Viewer::Spectator),
                        to_act: state.to_act(),
                        latency_ms,
                        fault: record_move.fault.as_ref().map(|f| f.kind),
                    })),
                );
            }
            if let Some(on_move) = on_move {
                on_move(&record_move);
            }
        }

        let Some(result) = state.result() else {
            return self
                .abort(&record, "the game ended without a result".to_string())
                .await;
        };
        let disqualified: Vec<usize> = (0..players)
            .filter(|s| faults[*s] >= record.max_faults)
            .collect();
        let flagged = banks.as_ref().map(Banks::flagged_seats).unwrap_or_default();
        let ranking = rank_disqualified(&result.ranking, result.teams.as_deref(), &disqualified);
        let result_value = result_json(&result, &ranking, &disqualified, &flagged, &faults);
        let sides = record.ranked.then(|| {
            ratings::sides_of(&ranking, result.teams.as_deref())
                .into_iter()
                .map(|(side_seats, place)| {
                    (
                        side_seats.iter().map(|s| record.bots[*s].clone()).collect(),
                        place,
                    )
                })
                .collect()
        });
        let finished = self
            .store
            .finish_match(
                id,
                &self.worker,
                &Finish {
                    result: result_value.clone(),
                    sides,
                    faults: record
                        .bots
                        .iter()
                        .cloned()
                        .zip(faults.iter().copied())
                        .collect(),
                },
            )
            .await?;
        self.live.close(
            id,
            crate::live::LiveEnd {
                status: MatchStatus::Finished,
                result: Some(result_value.clone()),
                error: None,
            },
        );
        if finished {
            let faulted = !flagged.is_empty() || faults.iter().any(|n| *n > 0);
            self.metrics.match_finished(
                &record.game,
                if faulted {
                    MatchOutcome::Faulted
                } else {
                    MatchOutcome::Clean
                },
            );
            tracing::info!(
                match_id = id,
                game = record.game,
                ranking = ?ranking,
                faults = ?faults,
                disqualified = ?disqualified,
                flagged = ?flagged,
                moves = history.len(),
                "match finished"
            );
            for (seat, target) in targets.iter().enumerate() {
                let notice = EndNotice {
                    match_id: id.to_string(),
                    game: record.game.clone(),
                    seat,
                    result: match &result_value {
                        Value::Object(result) => result.clone(),
                        _ => Map::new(),
                    },
                };
                let client = self.client.clone();
                let target = target.clone();
                let timeout = self.notify_timeout;
                tokio::spawn(async move { client.notify(&target, "/end", &notice, timeout).await });
            }
            for (seat, bot) in seats.iter().enumerate() {
                if bot.builtin {
                    continue;
                }
                // Reread: another match may have changed the bot's health meanwhile.
                let Some(current) = self.store.bot(&bot.id).await? else {
                    continue;
                };
                if disqualified.contains(&seat) {
                    let health = self.health.failed(&current.health(), now_ms(), false);
                    self.store.set_bot_health(&bot.id, &health).await?;
                } else if current.failures > 0 && !current.paused {
                    self.store
                        .set_bot_health(&bot.id, &BotHealth::default())
                        .await?;
                }
            }
        }
        Ok(Outcome::Finished(finished))
    }

    async fn abort(&self, record: &MatchRecord, reason: String) -> anyhow::Result<Outcome> {
        tracing::warn!(
            match_id = record.id,
            game = record.game,
            reason,
            "match aborted"
        );
        let aborted = self.store.abort_match(&record.id, &reason).await?;
        if aborted {
            self.metrics
                .match_finished(&record.game, MatchOutcome::Aborted);
        }
        self.live.close(
            &record.id,
            crate::live::LiveEnd {
                status: MatchStatus::Aborted,
                result: None,
                error: Some(reason.clone()),
            },
        );
        Ok(Outcome::Aborted(reason))
    }
}

/// An action as short JSON for messages (at most 200 characters).
pub fn compact(action: &Value) -> String {
    let text = action.to_string();
    if text.chars().count() > 200 {
        format!("{}…", text.chars().take(200).collect::<String>())
    } else {
        text
    }
}

/// The match history as each seat may know it ([`crate::wire::HistoryEntry`]: every move's
/// public events, and the action itself only for the seat's own moves), kept serialized per
/// seat: one entry is appended per move, so a move request costs no re-serialization of the
/// match.
struct Histories {
    /// Per seat, the JSON of its entries joined by commas.
    seats: Vec<Vec<u8>>,
    moves: usize,
}

impl Histories {
    fn new(players: usize) -> Histories {
        Histories {
            seats: vec![Vec::new(); players],
            moves: 0,
        }
    }

    /// Appends a move to every seat's history: `{"seat":..,"action":..,"events":[..]}` for the
    /// mover, the same without `action` for the others (the shape of
    /// [`crate::wire::HistoryEntry`]). The events are serialized once for every seat.
    fn push(&mut self, mover: usize, action: &Value, events: &[Value]) {
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

    fn len(&self) -> usize {
        self.moves
    }

    /// The seat's entries as JSON, joined by commas.
    fn json(&self, seat: usize) -> &[u8] {
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
    use crate::wire::MoveRequest;

    #[test]
    fn disqualified_seats_rank_last() {
        let ranking = vec![vec![2], vec![0, 1], vec![3]];
        assert_eq!(rank_disqualified(&ranking, None, &[]), ranking);
        assert_eq!(
            rank_disqualified(&ranking, None, &[2]),
            vec![vec![0, 1], vec![3], vec![2]]
        );
        assert_eq!(
            rank_disqualified(&ranking, None, &[3, 0]),
            vec![vec![2], vec![1], vec![0, 3]]
        );
    }

    #[test]
    fn a_disqualified_seat_takes_its_team_down() {
        let ranking = vec![vec![0, 2], vec![1, 3]];
        let teams = vec![vec![0, 2], vec![1, 3]];
        assert_eq!(
            rank_disqualified(&ranking, Some(&teams), &[2]),
            vec![vec![1, 3], vec![0, 2]]
        );
    }

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
