//! The match loop. Re-entrant: a match is (re)started from its logged moves, replayed through the
//! engine, and continued; finishing is a conditional update, so a match never finishes twice.
//! A run plays a match only while its worker holds the match's lease (see [`Store::claim`]):
//! every move and the finish are written fenced by the lease, and a run whose lease was taken
//! over by another worker stops without writing ([`Outcome::NotHeld`]).
//!
//! A match that starts (no logged move) first probes every seat's bot (`GET /`, retried for
//! [`Runner::start_probe_window`]): a bot that does not answer aborts it (`bot_unavailable`, no
//! rating moves); the name and version each bot reports are kept with the match. A match
//! cancelled meanwhile (`DELETE /v1/matches/{id}`: the row is no longer `running`) stops at its
//! next move, whose write the store refuses.
//!
//! A run is four steps, each with one job: [`Runner::resume`] sets the table from the store,
//! [`Runner::turn`] plays one seat's move, [`Runner::record`] stores and publishes it, and
//! [`Runner::finish`] writes the result and tells the bots. What a turn plays for a bot's answer
//! (the arena's core rule: a faulty bot gets its first legal action) is decided in [`decision`],
//! without HTTP, database or engine.
//!
//! A match with a [`Clock`](crate::wire::Clock) also gives each seat a time bank ([`Banks`]): each
//! answer's latency is taken from it and the increment added; a seat whose bank runs out is
//! *flagged* and its first legal action is played for the rest of the match (it keeps its place in
//! the ranking: the moves it no longer chooses are its penalty). Banks are rebuilt from the logged
//! latencies when a match resumes.
//!
//! A paced match (`pace_ms`, for spectators) stores and publishes each move no earlier than
//! `pace_ms` after the previous one (after the start for the first move of a run). The hold
//! falls between a bot's timed answer and the next request, so no deadline or bank pays for it.

mod banks;
pub mod decision;
mod drain;
mod history;
pub mod outside;
pub mod presence;

pub use banks::Banks;
pub use drain::suspended;

use crate::bots::{self, HealthPolicy};
use crate::bus::{Bus, topic};
use crate::client::{BotClient, BotKeys, FaultKind, MoveSigner, Target};
use crate::live::{LiveEnd, LiveEvent, LiveHub, LiveMove};
use crate::metrics::{ArenaMetrics, MatchOutcome};
use crate::ratings;
use crate::result::MatchResult;
use crate::seal::{InfoClaims, Sealer};
use crate::store::{
    AbortReason, BotHealth, BotRecord, Finish, MatchRecord, MatchStatus, MoveRecord, SeatReport,
    Store, Transport, now_ms,
};
use crate::wire::{EndNotice, HistoryMode, OutgoingMove, SeatInfo, StartNotice};
use decision::{Ask, Standing};
use engine::Viewer;
use engine::erased::Match;
use history::Histories;
use presence::Presence;
use serde_json::{Map, Value};
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    pub live: LiveHub,
    /// The event bus: outside seats' move lines and answers, stream bots' notices.
    pub bus: Arc<dyn Bus>,
    /// How long a starting match tries its bots' probes before it is aborted as
    /// `bot_unavailable` (each try has the match's move deadline).
    pub start_probe_window: Duration,
    /// The match workers' slots (their `concurrency`), when this runner is a worker's: a run
    /// waiting for a person gives its slot back meanwhile, so tables people left open never
    /// stop the bots' matches.
    pub slots: Option<Arc<tokio::sync::Semaphore>>,
    /// Seals the `info` of each move request (the arena's key).
    pub sealer: Arc<Sealer>,
    /// How long, per match, a stream seat waits for its bot to connect again before the time
    /// of its move runs on (see [`presence`]).
    pub reconnect_grace: Duration,
    /// How long a table waits for its people (`--table-expiry-minutes`; zero: for ever): to
    /// join, and, without a clock, over each move (then the table is aborted as left).
    pub table_expiry: Duration,
    /// Turns true when the process's drain time is up: the run stops at its next move boundary
    /// ([`Outcome::Suspended`], see [`crate::service::drain`]).
    pub suspension: tokio::sync::watch::Receiver<bool>,
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
    /// The process is stopping (its drain time is up): the run stopped at a move boundary and
    /// gave its lease up; the match resumes from its logged moves on another worker or after
    /// the restart.
    Suspended,
}

/// Called with each move once it is stored (`cardroom play` prints them).
pub type OnMove<'a> = Option<&'a (dyn Fn(&MoveRecord) + Send + Sync)>;

/// A step either goes on with its value or ends the run with an outcome.
type Step<T> = anyhow::Result<ControlFlow<Outcome, T>>;

/// A match being played: what [`Runner::resume`] sets up and each turn moves on.
struct Table {
    record: MatchRecord,
    /// The bots in seat order.
    seats: Vec<BotRecord>,
    targets: Vec<Target>,
    game: Box<dyn Match>,
    standing: Standing,
    /// Every move as each seat may know it, kept up to date move by move.
    history: Histories,
    /// How much of it each seat's requests carry (its bot's choice; reread with the secrets).
    history_modes: Vec<HistoryMode>,
    /// Each seat's move requests are signed incrementally over its growing history.
    signers: Vec<MoveSigner>,
    /// Per stream seat, its bot's presence: away, its move's time stands still within the
    /// seat's reconnect grace; connected again, the bot may have lost the history it had, so
    /// its next line carries all of it.
    presences: Vec<Option<Presence>>,
    /// When the URL bots' signing secrets were last read, and the client's rotation count then
    /// (see [`SECRETS_REFRESH`]).
    secrets_read: (Instant, u64),
    /// When the previous move was published (this run's start before its first move): a paced
    /// match publishes the next no earlier than `pace_ms` after it.
    published_at: Instant,
}

/// How often a running match rereads its URL bots' signing secrets: a rotation
/// (`POST /v1/bots/{id}/secret`) made through another process reaches the matches already
/// running within this time; one made through this process, before their next move.
const SECRETS_REFRESH: Duration = Duration::from_secs(2);

impl Runner {
    /// Claims the match `id` and plays (or resumes) it to its end. Infrastructure errors
    /// (database) are returned; the match stays `running` and is resumed by a worker once the
    /// lease runs out.
    pub async fn run(&self, id: &str, on_move: OnMove<'_>) -> anyhow::Result<Outcome> {
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
    pub async fn play_claimed(&self, id: &str, on_move: OnMove<'_>) -> anyhow::Result<Outcome> {
        let mut table = match self.resume(id).await? {
            ControlFlow::Continue(table) => table,
            ControlFlow::Break(outcome) => return Ok(outcome),
        };
        while !table.game.is_over() {
            let Some(&seat) = table.game.to_act().first() else {
                break;
            };
            if *self.suspension.borrow() {
                return self.suspend(&table).await;
            }
            self.refresh_secrets(&mut table).await?;
            // A turn waiting for its answer when the drain time is up is void: no move is
            // logged, and the run that resumes the match asks again, with the whole time.
            let turned = tokio::select! {
                turned = self.turn(&mut table, seat) => Some(turned),
                () = suspended(self.suspension.clone()) => None,
            };
            let Some(turned) = turned else {
                return self.suspend(&table).await;
            };
            let played = match turned? {
                ControlFlow::Continue(played) => played,
                ControlFlow::Break(outcome) => return Ok(outcome),
            };
            // The hold comes after the bot's answer was timed and before the next bot is asked,
            // so it is charged to no bot's deadline or bank.
            // (Unpaced matches skip the timer: a deadline already past still waits for its tick.)
            if table.record.pace_ms > 0 {
                let pace = Duration::from_millis(table.record.pace_ms);
                tokio::time::sleep_until((table.published_at + pace).into()).await;
            }
            if let ControlFlow::Break(outcome) = self.record(&table, played, on_move).await? {
                return Ok(outcome);
            }
            table.published_at = Instant::now();
        }
        self.finish(table).await
    }

    /// Sets the table of a claimed match from the store: its bots, the game after its logged
    /// moves, each seat's faults, bank and history; a match not started yet tells its bots.
    async fn resume(&self, id: &str) -> Step<Table> {
        let Some(record) = self.store.get_match(id).await? else {
            anyhow::bail!("match {id} does not exist");
        };
        if matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted) {
            return Ok(ControlFlow::Break(Outcome::AlreadyOver));
        }
        if engine::registry::find(&record.game).is_none() {
            let reason = format!("the game `{}` is no longer served", record.game);
            return self
                .abort(&record, AbortReason::Failed, reason)
                .await
                .map(ControlFlow::Break);
        };
        let mut seats: Vec<BotRecord> = Vec::new();
        for bot_id in &record.bots {
            match self.store.bot_any(bot_id).await? {
                Some(bot) => seats.push(bot),
                None => {
                    let reason = format!("bot {bot_id} does not exist");
                    return self
                        .abort(&record, AbortReason::Failed, reason)
                        .await
                        .map(ControlFlow::Break);
                }
            }
        }
        let mut logged = self.store.moves(id).await?;
        if logged.is_empty()
            && let ControlFlow::Break(outcome) = self.probe_seats(&record, &seats).await?
        {
            return Ok(ControlFlow::Break(outcome));
        }
        // The store keeps actions only: the replay gives each logged move its events back.
        let game = match crate::replay::logged(&record, &mut logged) {
            Ok(replayed) => replayed.game,
            Err(error) => {
                return self
                    .abort(&record, AbortReason::Failed, error.to_string())
                    .await
                    .map(ControlFlow::Break);
            }
        };
        let players = record.bots.len();
        // Stream seats follow their bots from now on, starting from who is connected (read after
        // subscribing: a resumed run may find a bot away).
        let mut presences: Vec<Option<Presence>> = seats
            .iter()
            .map(|bot| {
                (bot.transport == Transport::Stream)
                    .then(|| Presence::new(&*self.bus, &bot.id, self.reconnect_grace))
            })
            .collect();
        if presences.iter().any(Option::is_some) {
            let connected = self.store.connected_bots().await?;
            for (bot, presence) in seats.iter().zip(&mut presences) {
                if let Some(presence) = presence {
                    presence.start_from(connected.contains(&bot.id));
                }
            }
        }
        let mut standing =
            Standing::new(players, record.max_faults, record.deadline_ms, record.clock);
        let mut history = Histories::new(players);
        for logged_move in &logged {
            standing.replay(logged_move);
            history.push(logged_move.seat, &logged_move.action, &logged_move.events);
        }
        self.metrics.match_started(&record.game, !logged.is_empty());
        tracing::info!(
            match_id = id,
            game = record.game,
            bots = ?record.bots,
            ranked = record.ranked,
            resumed_at_move = logged.len(),
            "match started"
        );
        let table = Table {
            targets: seats.iter().map(bots::target).collect(),
            // A stream bot's lines always carry the delta (a reconnection gets the whole history
            // with its pending move, see `outside::ask`).
            history_modes: seats
                .iter()
                .map(|bot| match bot.transport {
                    Transport::Stream => HistoryMode::Delta,
                    _ => bot.history,
                })
                .collect(),
            presences,
            seats,
            game,
            standing,
            history,
            signers: (0..players).map(|_| MoveSigner::default()).collect(),
            secrets_read: (Instant::now(), self.client.rotations()),
            published_at: Instant::now(),
            record,
        };
        if logged.is_empty() {
            self.notify_start(&table).await;
        }
        Ok(ControlFlow::Continue(table))
    }

    /// Rereads the URL bots' signing secrets (and history modes) every [`SECRETS_REFRESH`], and
    /// after a rotation through this process: the requests then carry the new secret's signature
    /// and, while it is valid, the replaced one's. A bot that changed its history mode gets the
    /// whole history on its next request. The keys come from the client's copy when another
    /// match read them less than half the time ago, so what a match uses is never older than
    /// [`SECRETS_REFRESH`] (it looks every half of it): one read per bot, not per match and seat.
    async fn refresh_secrets(&self, table: &mut Table) -> anyhow::Result<()> {
        let half = SECRETS_REFRESH / 2;
        let (read_at, rotations) = table.secrets_read;
        if read_at.elapsed() < half && rotations == self.client.rotations() {
            return Ok(());
        }
        let rotations = self.client.rotations();
        table.secrets_read = (Instant::now(), rotations);
        for (seat, bot) in table.seats.iter().enumerate() {
            if bot.builtin || bot.transport.answers_from_outside() {
                continue;
            }
            let keys = match self.client.fresh_keys(&bot.id, half) {
                Some(keys) => keys,
                None => {
                    let read_at = Instant::now();
                    let Some(current) = self.store.bot_any(&bot.id).await? else {
                        continue;
                    };
                    let keys = BotKeys {
                        signing_secret: current.signing_secret,
                        previous_secret: current.previous_secret,
                        history: current.history,
                    };
                    self.client
                        .keep_keys(&bot.id, keys.clone(), read_at, rotations);
                    keys
                }
            };
            let target = &mut table.targets[seat];
            if target.signing_secret != keys.signing_secret {
                // The seat's incremental signature was made with the replaced key.
                table.signers[seat] = MoveSigner::default();
                target.signing_secret = keys.signing_secret;
            }
            target.previous_secret = keys.previous_secret;
            if table.history_modes[seat] != keys.history {
                table.history_modes[seat] = keys.history;
                table.history.restart(seat);
            }
        }
        Ok(())
    }

    /// Before a match's first move: every seat's bot must answer `GET /` (each try within the
    /// move deadline, tried again for [`Runner::start_probe_window`]). What each reports (name,
    /// version) is kept with the match and, when it changed, on the bot. A bot that does not
    /// answer aborts the match (`bot_unavailable`, no rating moves) and counts one more failed
    /// probe in its health.
    async fn probe_seats(&self, record: &MatchRecord, seats: &[BotRecord]) -> Step<()> {
        let mut probes = tokio::task::JoinSet::new();
        // People are not asked: their match is queued once they have all joined its table.
        for (seat, bot) in seats.iter().enumerate() {
            let window = self.start_probe_window;
            if bot.transport == Transport::Person {
                continue;
            }
            if bot.transport.answers_from_outside() {
                // An outside seat answers `GET /` by being connected.
                let store = self.store.clone();
                let bot = bot.clone();
                probes.spawn(async move {
                    (seat, outside::connected_within(&*store, &bot, window).await)
                });
                continue;
            }
            let client = self.client.clone();
            let target = bots::target(bot);
            let timeout = Duration::from_millis(record.deadline_ms);
            probes
                .spawn(async move { (seat, client.probe_within(&target, timeout, window).await) });
        }
        let mut reports = Vec::new();
        let mut unavailable = Vec::new();
        while let Some(joined) = probes.join_next().await {
            let (seat, probed) = joined?;
            match probed {
                Ok(info) => reports.push((
                    SeatReport {
                        seat,
                        name: info.name,
                        version: info.version,
                    },
                    info.author,
                )),
                Err(fault) => unavailable.push((seat, fault)),
            }
        }
        if let Some((seat, fault)) = unavailable.iter().min_by_key(|(seat, _)| *seat) {
            for (seat, _) in &unavailable {
                let bot = &seats[*seat];
                // Only the ladder's and the owner's own matches count toward its health.
                if !record.counts_for_health(&bot.id) {
                    continue;
                }
                if let Some(current) = self.store.bot(&bot.id).await? {
                    let health = self.health.failed(&current.health(), now_ms(), true);
                    self.store.set_bot_health(&bot.id, &health).await?;
                }
            }
            let reason = format!(
                "seat {seat} (bot {}) did not answer GET / before the match: {}",
                seats[*seat].id, fault.detail
            );
            return self
                .abort(record, AbortReason::BotUnavailable, reason)
                .await
                .map(ControlFlow::Break);
        }
        reports.sort_by_key(|(report, _)| report.seat);
        for (report, author) in &reports {
            let bot = &seats[report.seat];
            if !bot.builtin && (bot.version != report.version || &bot.author != author) {
                self.store
                    .set_bot_info(&bot.id, author, &report.version)
                    .await?;
            }
        }
        let reports: Vec<SeatReport> = reports.into_iter().map(|(report, _)| report).collect();
        self.store.set_seat_reports(&record.id, &reports).await?;
        Ok(ControlFlow::Continue(()))
    }

    /// Tells every seat's bot the match starts (a URL bot's notice is not awaited: it is best
    /// effort; a stream bot's line is published before any `move` line of the match).
    async fn notify_start(&self, table: &Table) {
        let record = &table.record;
        let seats: Vec<SeatInfo> = table
            .seats
            .iter()
            .enumerate()
            .map(|(seat, bot)| SeatInfo {
                seat,
                bot: bot.id.clone(),
                name: bot.name.clone(),
            })
            .collect();
        for (seat, target) in table.targets.iter().enumerate() {
            let notice = StartNotice {
                match_id: record.id.clone(),
                game: record.game.clone(),
                seat,
                seats: seats.clone(),
                options: match table.game.options() {
                    Value::Object(options) => options,
                    _ => Map::new(),
                },
                deadline_ms: record.deadline_ms,
                clock: record.clock,
            };
            match table.seats[seat].transport {
                // A person's page reads the table.
                Transport::Person => continue,
                Transport::Stream => {
                    self.tell_outside(&table.seats[seat].id, "match_start", &record.id, &notice)
                        .await;
                    continue;
                }
                Transport::Url => {}
            }
            let client = self.client.clone();
            let target = target.clone();
            let timeout = self.notify_timeout;
            tokio::spawn(async move { client.notify(&target, "/start", &notice, timeout).await });
        }
    }

    /// Publishes a notice line (`match_start`, `match_end`) to an outside seat's bot, in order
    /// with the match's `move` lines (a spawned publish could let the first `move` overtake
    /// `match_start`); a failure is logged, not fatal: a notice is best effort.
    async fn tell_outside(
        &self,
        bot_id: &str,
        kind: &str,
        match_id: &str,
        notice: &impl serde::Serialize,
    ) {
        let Some(line) = outside::notice_line(kind, match_id, notice) else {
            return;
        };
        let topic = topic::bot(bot_id);
        if let Err(error) = self.bus.publish(&topic, line).await {
            tracing::info!(
                topic,
                error = format!("{error:#}"),
                "a notice was not published (ignored)"
            );
        }
    }

    /// Plays `seat`'s move: asks its bot unless the seat is disqualified or flagged, plays the
    /// bot's action or, after a fault, the seat's first legal action (canonical order).
    async fn turn(&self, table: &mut Table, seat: usize) -> Step<MoveRecord> {
        let record = &table.record;
        // The list as the bot reads it, written straight from the typed actions; the first
        // one (the fallback) is built as a `Value` only when a fallback is played.
        let legal = table.game.legal_actions_json(seat);
        let no_legal_action = || format!("seat {seat} is to act but has no legal action");
        if legal == "[]" {
            return self
                .abort(record, AbortReason::Failed, no_legal_action())
                .await
                .map(ControlFlow::Break);
        }
        let index = table.history.len();
        let mut decision = match table.standing.ask(seat) {
            Ask::Skip(decision) => decision,
            Ask::Bot {
                timeout_ms,
                time_left_ms,
            } => {
                let view = table.game.view_json(Viewer::Seat(seat));
                // Built-in bots are handed the state in process; a URL bot gets the position
                // sealed for its seat, to search from over the rules API.
                let info = if table.seats[seat].builtin {
                    None
                } else {
                    let claims = InfoClaims {
                        game: record.game.clone(),
                        match_id: record.id.clone(),
                        seat,
                        // The moves stored so far: the position is rebuilt from them.
                        moves: index,
                    };
                    Some(self.sealer.seal_info(&claims))
                };
                let mut presence = table.presences.get_mut(seat).and_then(Option::as_mut);
                if let Some(presence) = presence.as_deref_mut() {
                    presence.catch_up();
                    if presence.take_reconnected() {
                        table.history.restart(seat);
                    }
                }
                let history = table.history.part(seat, table.history_modes[seat]);
                let request = OutgoingMove {
                    match_id: &record.id,
                    game: &record.game,
                    seat,
                    view: &view,
                    legal_actions: &legal,
                    deadline_ms: timeout_ms,
                    time_left_ms,
                    history_from: history.from,
                    info: info.as_deref(),
                    state: Some(table.game.as_ref()),
                };
                let bot = &table.seats[seat];
                // A person has no per-move deadline: only the clock, if the table has one.
                let idle_person = bot.transport == Transport::Person && time_left_ms.is_none();
                let timeout_ms = match (bot.transport, time_left_ms) {
                    (Transport::Person, Some(bank)) => bank.max(1),
                    (Transport::Person, None) => self.person_wait().as_millis() as u64,
                    _ => timeout_ms,
                };
                let request = OutgoingMove {
                    deadline_ms: timeout_ms,
                    ..request
                };
                let timeout = Duration::from_millis(timeout_ms);
                let (answer, latency, illegal) = if bot.transport.answers_from_outside() {
                    let answered = self
                        .ask_outside(bot, &request, history.entries, timeout, presence)
                        .await?;
                    if idle_person && answered.answer.is_err() {
                        // Nobody moved for the seat in the table's time: the table was left.
                        let minutes = timeout.as_secs() / 60;
                        let reason = format!(
                            "nobody moved for seat {seat} in {minutes} minutes: the table was left"
                        );
                        return self
                            .abort(record, AbortReason::TableExpired, reason)
                            .await
                            .map(ControlFlow::Break);
                    }
                    (answered.answer, answered.latency_ms, answered.illegal)
                } else {
                    let (answer, latency) = self
                        .client
                        .ask_move(
                            &table.targets[seat],
                            &request,
                            history.entries,
                            &mut table.signers[seat],
                            timeout,
                        )
                        .await;
                    (answer, latency, None)
                };
                // A person's think time is no bot's latency.
                match (
                    bot.transport,
                    bot.url.strip_prefix(crate::client::BUILTIN_SCHEME),
                ) {
                    (Transport::Person, _) => {}
                    (_, Some(name)) if bot.builtin => self.metrics.builtin_call(name, latency),
                    _ => self.metrics.bot_call(&bot.id, latency),
                }
                // A 2xx answer (even a bad one) means the bot read the request.
                if answer
                    .as_ref()
                    .map_or_else(|fault| fault.kind == FaultKind::BadJson, |_| true)
                {
                    table.history.delivered(seat);
                }
                let mut decision = table.standing.judge(seat, answer, latency);
                // Not one of the request's legal actions, as the process that took it found.
                if let Some(reason) = illegal
                    && let Some(action) = decision.action.take()
                {
                    decision.refuse(&action, reason);
                }
                if decision
                    .fault
                    .as_ref()
                    .is_some_and(|f| f.kind == FaultKind::Flagged)
                {
                    tracing::info!(
                        match_id = record.id,
                        seat,
                        "seat flagged: its time bank ran out"
                    );
                }
                decision
            }
        };
        let answered = match decision.action.take() {
            Some(action) => match table.game.apply(seat, &action) {
                Ok(applied) => Some((action, applied.events)),
                Err(error) => {
                    decision.refuse(&action, error);
                    None
                }
            },
            None => None,
        };
        let (action, events) = match answered {
            Some(played) => played,
            None => {
                // The state is unchanged by a refused action: its list is the one sent.
                let Some(action) = table.game.legal_actions(seat).into_iter().next() else {
                    return self
                        .abort(record, AbortReason::Failed, no_legal_action())
                        .await
                        .map(ControlFlow::Break);
                };
                match table.game.apply(seat, &action) {
                    Ok(applied) => (action, applied.events),
                    Err(error) => {
                        let reason =
                            format!("the first legal action of seat {seat} was refused: {error}");
                        return self
                            .abort(record, AbortReason::Failed, reason)
                            .await
                            .map(ControlFlow::Break);
                    }
                }
            }
        };
        table.standing.count(seat, decision.fault.as_ref());
        let events = crate::replay::tagged(events, index);
        table.history.push(seat, &action, &events);
        Ok(ControlFlow::Continue(MoveRecord {
            index,
            seat,
            action,
            latency_ms: decision.latency_ms,
            fault: decision.fault,
            comment: decision.comment,
            events,
        }))
    }

    /// Stores a played move (durable before the match goes on: the next bot sees its effects),
    /// then counts it and publishes it to live watchers. Stops the run if the lease was lost.
    async fn record(&self, table: &Table, played: MoveRecord, on_move: OnMove<'_>) -> Step<()> {
        let id = &table.record.id;
        if !self
            .store
            .append_move(table.record.seq, &self.worker, &played)
            .await?
        {
            // Cancelled (the row is aborted), or another worker took the match over.
            if let Some(current) = self.store.get_match(id).await?
                && current.status == MatchStatus::Aborted
            {
                let reason = current.error.unwrap_or_default();
                tracing::info!(
                    match_id = id,
                    reason,
                    "match aborted while it played: stopped"
                );
                self.live
                    .close(
                        id,
                        LiveEnd {
                            status: MatchStatus::Aborted,
                            result: None,
                            error: Some(reason.clone()),
                        },
                    )
                    .await;
                return Ok(ControlFlow::Break(Outcome::Aborted(reason)));
            }
            tracing::warn!(
                match_id = id,
                index = played.index,
                "lease lost: another worker plays this match"
            );
            return Ok(ControlFlow::Break(Outcome::NotHeld));
        }
        let fault = played.fault.as_ref().map(|f| f.kind);
        self.metrics.move_played(&table.record.game, fault);
        // After the store: a watcher subscribing now reads this move from there.
        if self.live.is_watched(id) {
            self.live
                .publish(
                    id,
                    LiveEvent::Move(Box::new(LiveMove {
                        index: played.index,
                        seat: played.seat,
                        events: played.events.clone(),
                        view: table.game.view(Viewer::Spectator),
                        to_act: table.game.to_act(),
                        latency_ms: played.latency_ms,
                        fault,
                    })),
                )
                .await;
        }
        if let Some(on_move) = on_move {
            on_move(&played);
        }
        Ok(ControlFlow::Continue(()))
    }

    /// Writes the result (and, for a ranked match, the ratings) once the game is over, closes
    /// the live stream, tells the bots, and updates the health of bots that were disqualified or
    /// played cleanly.
    async fn finish(&self, table: Table) -> anyhow::Result<Outcome> {
        let record = &table.record;
        let Some(game_result) = table.game.result() else {
            return self
                .abort(
                    record,
                    AbortReason::Failed,
                    "the game ended without a result".to_string(),
                )
                .await;
        };
        let standing = &table.standing;
        let faults = standing.faults().to_vec();
        let result = MatchResult::new(
            &game_result,
            standing.disqualified(),
            standing.flagged(),
            faults.clone(),
        );
        // Who is rated in each seat: its bot, or at a rated table the player sitting there.
        let mut members = record.bots.clone();
        if record.ranked
            && members.iter().any(|b| b == crate::tables::PERSON_BOT_ID)
            && let Some(seated) = self.store.table_of_match(&record.id).await?
        {
            for seat in seated.seats {
                if let (Some(player), Some(member)) = (seat.player_id, members.get_mut(seat.seat)) {
                    *member = crate::players::rated_key(&player);
                }
            }
        }
        // A side with a disqualified seat forfeited (its whole team ranks last): it loses.
        let (sides, forfeited) = if record.ranked {
            ratings::sides_of(&result.ranking, result.teams.as_deref())
                .into_iter()
                .map(|(side_seats, place)| {
                    let forfeited = side_seats.iter().any(|s| result.disqualified.contains(s));
                    (
                        (
                            side_seats.iter().map(|s| members[*s].clone()).collect(),
                            place,
                        ),
                        forfeited,
                    )
                })
                .unzip()
        } else {
            (Vec::new(), Vec::new())
        };
        let finish = Finish {
            result,
            sides: record.ranked.then_some(sides),
            forfeited,
            faults: members
                .iter()
                .cloned()
                .zip(faults.iter().copied())
                .collect(),
        };
        let finished = self
            .store
            .finish_match(&record.id, &self.worker, &finish)
            .await?;
        let result = finish.result;
        self.store.clear_pending(&record.id).await?;
        self.live
            .close(
                &record.id,
                LiveEnd {
                    status: MatchStatus::Finished,
                    result: Some(result.clone()),
                    error: None,
                },
            )
            .await;
        if finished {
            let flagged = result.flagged.as_deref().unwrap_or_default();
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
                match_id = record.id,
                game = record.game,
                ranking = ?result.ranking,
                faults = ?faults,
                disqualified = ?result.disqualified,
                flagged = ?flagged,
                moves = table.history.len(),
                "match finished"
            );
            self.notify_end(&table, &result).await;
            self.update_health(&table, &result).await?;
        }
        Ok(Outcome::Finished(finished))
    }

    /// Tells every seat's bot the result (a URL bot's notice is not awaited: it is best effort).
    async fn notify_end(&self, table: &Table, result: &MatchResult) {
        let result = result.to_object();
        for (seat, target) in table.targets.iter().enumerate() {
            let notice = EndNotice {
                match_id: table.record.id.clone(),
                game: table.record.game.clone(),
                seat,
                result: result.clone(),
            };
            match table.seats[seat].transport {
                Transport::Person => continue,
                Transport::Stream => {
                    self.tell_outside(
                        &table.seats[seat].id,
                        "match_end",
                        &table.record.id,
                        &notice,
                    )
                    .await;
                    continue;
                }
                Transport::Url => {}
            }
            let client = self.client.clone();
            let target = target.clone();
            let timeout = self.notify_timeout;
            tokio::spawn(async move { client.notify(&target, "/end", &notice, timeout).await });
        }
    }

    /// A disqualification is one more failure of a registered bot (see [`HealthPolicy`]); a
    /// match played to its end without one clears a failing bot's streak. A paused bot's trial
    /// match returns it to the ladder if it played without a fault of its own (no counted fault,
    /// no flag), and keeps it paused otherwise. Only the matches the ladder or the bot's owner
    /// created count, either way: a stranger's matches (with a deadline the bot cannot meet,
    /// say) never pause a bot, nor clear a failing one's streak.
    async fn update_health(&self, table: &Table, result: &MatchResult) -> anyhow::Result<()> {
        let flagged = result.flagged.as_deref().unwrap_or_default();
        let mut done: Vec<&str> = Vec::new();
        for bot in &table.seats {
            if bot.builtin
                || done.contains(&bot.id.as_str())
                || !table.record.counts_for_health(&bot.id)
            {
                continue;
            }
            done.push(&bot.id);
            // A bot may hold several seats of an unranked match.
            let own: Vec<usize> = (0..table.seats.len())
                .filter(|s| table.seats[*s].id == bot.id)
                .collect();
            // Reread: another match may have changed the bot's health meanwhile.
            let Some(current) = self.store.bot(&bot.id).await? else {
                continue;
            };
            if current.trial_match.as_deref() == Some(table.record.id.as_str()) {
                let clean = own
                    .iter()
                    .all(|s| result.faults.get(*s) == Some(&0) && !flagged.contains(s));
                let health = self.health.trial_ended(&current.health(), now_ms(), clean);
                tracing::info!(
                    bot = bot.id,
                    match_id = table.record.id,
                    clean,
                    "trial match of a paused bot ended"
                );
                self.store.set_bot_health(&bot.id, &health).await?;
            } else if own.iter().any(|s| result.disqualified.contains(s)) {
                let health = self.health.failed(&current.health(), now_ms(), false);
                self.store.set_bot_health(&bot.id, &health).await?;
            } else if current.failures > 0 && !current.paused {
                self.store
                    .set_bot_health(&bot.id, &BotHealth::default())
                    .await?;
            }
        }
        Ok(())
    }

    async fn abort(
        &self,
        record: &MatchRecord,
        code: AbortReason,
        reason: String,
    ) -> anyhow::Result<Outcome> {
        tracing::warn!(
            match_id = record.id,
            game = record.game,
            code = code.as_str(),
            reason,
            "match aborted"
        );
        let aborted = self.store.abort_match(&record.id, code, &reason).await?;
        if aborted {
            self.metrics
                .match_finished(&record.game, MatchOutcome::Aborted);
            self.metrics.match_aborted(code);
        }
        self.store.clear_pending(&record.id).await?;
        self.live
            .close(
                &record.id,
                LiveEnd {
                    status: MatchStatus::Aborted,
                    result: None,
                    error: Some(reason.clone()),
                },
            )
            .await;
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
