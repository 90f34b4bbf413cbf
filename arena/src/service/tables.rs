//! Tables people share with bots: creation, the public table, joining a seat, a person's seat
//! (view, legal actions) and a person's move. The match itself is an ordinary unranked match;
//! its person seats are moved from outside the worker (see [`crate::tables`]).

use super::Arena;
use crate::bots::{check_name, hash_token, new_id, new_secret, token_matches};
use crate::dto::{CreateMatch, rfc3339};
use crate::limits::Meter;
use crate::paging;
use crate::problem::{ErrorCode, ServiceError};
use crate::store::tables::{TableFilter, TableListing};
use crate::store::{
    Creator, MatchRecord, MatchStatus, PlayerRecord, SeatKind, TableRecord, TableSeat,
};
use crate::tables::{
    CreateTable, CreatedSeat, JoinTable, SeatJoined, SeatKey, SeatRequest, SeatState, TableCreated,
    TableList, TableMove, TableQuery, TableSeatView, TableView, join_url, watch_url,
};
use engine::Viewer;

/// A rematch being opened: the old table, and each seat's key (None for a bot's seat).
pub(super) struct Rematch {
    pub(super) of: String,
    pub(super) keys: Vec<Option<String>>,
}

impl Arena {
    /// Creates a table: its match (unranked; `waiting` until every person seat is taken, queued
    /// at once when none is to be taken) and its seats, each human seat with a fresh key.
    /// Every seated bot must consent to `creator` (403 `consent_required` otherwise).
    pub async fn create_table(
        &self,
        request: CreateTable,
        creator: Creator,
    ) -> Result<TableCreated, ServiceError> {
        self.create_table_metered(request, creator, &Meter::unmetered())
            .await
    }

    /// [`Arena::create_table`] for an HTTP request: charged to `meter` (the client's rate limit:
    /// a table with people against its own allowance, one without against the matches') before
    /// it is stored.
    pub async fn create_table_metered(
        &self,
        request: CreateTable,
        creator: Creator,
        meter: &Meter<'_>,
    ) -> Result<TableCreated, ServiceError> {
        self.open_table(request, creator, None, meter)
            .await?
            .ok_or_else(|| ServiceError::from(anyhow::anyhow!("a new table lost no race")))
    }

    /// [`Arena::create_table`], or with `rematch` a table's rematch: its person seats keyed as
    /// given, stored only if the old table has none yet (None otherwise). It counts one match
    /// against its creator's cap and allowance (a table with people: the people's own).
    pub(super) async fn open_table(
        &self,
        request: CreateTable,
        creator: Creator,
        rematch: Option<&Rematch>,
        meter: &Meter<'_>,
    ) -> Result<Option<TableCreated>, ServiceError> {
        if request.seats.len() != request.players {
            return Err(ServiceError::invalid(format!(
                "`seats` lists {} seats for {} players: give one entry per seat",
                request.seats.len(),
                request.players
            )));
        }
        let rated = request.rated.unwrap_or(false);
        let SeatPlan {
            persons,
            bots,
            players,
        } = self.seat_plan(&request, rated).await?;
        let mut record = self
            .build_seated_match(
                CreateMatch {
                    game: request.game,
                    bots,
                    options: request.options,
                    clock: request.clock,
                    seed: request.seed,
                    // Checked (0 to 5000) with the match.
                    pace_ms: request.pace_ms,
                    ranked: Some(rated),
                    ..CreateMatch::default()
                },
                creator.clone(),
                &persons,
            )
            .await?;
        if !persons.is_empty() {
            record.status = MatchStatus::Waiting;
        }
        let table_id = new_id("tb");
        let key_of = |seat: usize| {
            rematch
                .and_then(|r| r.keys.get(seat).cloned().flatten())
                .unwrap_or_else(new_secret)
        };
        let mut seats = Vec::with_capacity(request.players);
        let mut created = Vec::with_capacity(request.players);
        for (seat, entry) in request.seats.iter().enumerate() {
            let (kind, name, key) = match entry {
                SeatRequest::Bot(_) => (
                    SeatKind::Bot,
                    Some(self.bot_name(&record, seat).await?),
                    None,
                ),
                SeatRequest::Human(name) => (SeatKind::Human, name.clone(), Some(key_of(seat))),
                SeatRequest::Open(_) => (SeatKind::Open, None, None),
                SeatRequest::Player(_) => (
                    SeatKind::Player,
                    players[seat].as_ref().map(|p| p.name.clone()),
                    Some(key_of(seat)),
                ),
            };
            seats.push(TableSeat {
                seat,
                kind,
                name: name.clone(),
                key_hash: key.as_deref().map(hash_token),
                joined_at: None,
                player_id: players[seat].as_ref().map(|p| p.id.clone()),
            });
            created.push(CreatedSeat {
                seat,
                kind,
                name,
                join_url: key.map(|key| join_url(&table_id, seat, &key)),
            });
        }
        let table = TableRecord {
            id: table_id,
            match_id: record.id.clone(),
            pace_ms: record.pace_ms,
            created_at: record.created_at,
            seats,
            rematch: None,
        };
        let admitted = self.admit(&creator, !persons.is_empty(), 1, meter).await?;
        if !self
            .inner
            .store
            .insert_table(&table, &record, rematch.map(|r| r.of.as_str()))
            .await?
        {
            return Ok(None);
        }
        drop(admitted);
        if record.status == MatchStatus::Queued {
            self.enqueue();
        }
        tracing::info!(
            table = table.id,
            match_id = record.id,
            game = record.game,
            people = persons.len(),
            rated,
            "table created"
        );
        Ok(Some(TableCreated {
            watch_url: watch_url(&table.id),
            id: table.id,
            match_id: record.id,
            seats: created,
        }))
    }

    /// Who sits where at a new table: the seats people take (`persons`), each seat's bot (empty
    /// for a person), each player seat's player (404 `unknown_player` first); refuses a seat a
    /// rated table cannot rate, a player seated twice, a bad name and a closed "open" seat.
    async fn seat_plan(
        &self,
        request: &CreateTable,
        rated: bool,
    ) -> Result<SeatPlan, ServiceError> {
        let mut persons = Vec::new();
        let mut bots = Vec::with_capacity(request.players);
        // Each player seat's player (404 `unknown_player` first).
        let mut players: Vec<Option<PlayerRecord>> = Vec::with_capacity(request.players);
        for (seat, entry) in request.seats.iter().enumerate() {
            if rated && matches!(entry, SeatRequest::Human(_) | SeatRequest::Open(_)) {
                return Err(ServiceError::invalid(format!(
                    "seat {seat}: a rated table seats players (`{{\"player\": id}}`) and bots only: whoever sits there is rated"
                )));
            }
            let player = match entry {
                SeatRequest::Player(id) => Some(self.player_record(id).await?),
                _ => None,
            };
            if let Some(player) = &player
                && players.iter().flatten().any(|p| p.id == player.id)
            {
                return Err(ServiceError::invalid(format!(
                    "seat {seat}: player `{}` holds another seat of this table",
                    player.id
                )));
            }
            players.push(player);
            match entry {
                SeatRequest::Bot(key) => bots.push(key.clone()),
                SeatRequest::Player(_) => {
                    persons.push(seat);
                    bots.push(String::new());
                }
                SeatRequest::Human(name) => {
                    if let Some(name) = name {
                        check_name(name)?;
                    }
                    persons.push(seat);
                    bots.push(String::new());
                }
                SeatRequest::Open(true) => {
                    persons.push(seat);
                    bots.push(String::new());
                }
                SeatRequest::Open(false) => {
                    return Err(ServiceError::invalid(format!(
                        "seat {seat}: an open seat is `{{\"open\": true}}`"
                    )));
                }
            }
        }
        Ok(SeatPlan {
            persons,
            bots,
            players,
        })
    }

    /// The name of the bot in `seat` of `record`.
    async fn bot_name(&self, record: &MatchRecord, seat: usize) -> Result<String, ServiceError> {
        Ok(self
            .inner
            .store
            .bot_any(&record.bots[seat])
            .await?
            .map(|bot| bot.name)
            .unwrap_or_default())
    }

    /// A table and its match, or 404 `unknown_table`.
    pub(super) async fn table_and_match(
        &self,
        id: &str,
    ) -> Result<(TableRecord, MatchRecord), ServiceError> {
        let unknown =
            || ServiceError::new(ErrorCode::UnknownTable, format!("there is no table `{id}`"));
        let table = self.inner.store.get_table(id).await?.ok_or_else(unknown)?;
        let record = self
            .inner
            .store
            .get_match(&table.match_id)
            .await?
            .ok_or_else(unknown)?;
        Ok((table, record))
    }

    /// A table as anyone may see it.
    pub async fn get_table(&self, id: &str) -> Result<TableView, ServiceError> {
        let (table, record) = self.table_and_match(id).await?;
        Ok(table_view(&table, &record))
    }

    /// A page of tables, newest first: with `status=waiting` the lobby (tables with an open
    /// seat nobody took).
    pub async fn list_tables(&self, query: TableQuery) -> Result<TableList, ServiceError> {
        if let Some(game) = &query.game
            && engine::registry::find(game).is_none()
        {
            return Err(ServiceError::unknown_game(game));
        }
        let limit = paging::limit(query.limit, 50);
        let rows = self
            .inner
            .store
            .tables(&TableFilter {
                status: query.status,
                game: query.game,
                limit: limit + 1,
                before: paging::after(query.cursor.as_deref())?,
            })
            .await?;
        let (rows, next_cursor) = paging::page(rows, limit, |row| {
            (row.table.created_at, row.table.id.clone())
        });
        Ok(TableList {
            tables: rows.iter().map(listed_view).collect(),
            next_cursor,
        })
    }

    /// Takes a seat: the human or player seat `request.key` holds, or an open seat under
    /// `request.name`. A player seat needs its player's `token` (403 `player_token_refused`);
    /// a person or open seat taken with a player's token becomes that player's (under their
    /// name; a token of no player is ignored there). Once every person seat is taken the match
    /// is queued.
    pub async fn join_table(
        &self,
        id: &str,
        request: JoinTable,
        token: Option<&str>,
    ) -> Result<SeatJoined, ServiceError> {
        let (table, record) = self.table_and_match(id).await?;
        // An expired or cancelled table is over: nobody takes an open seat there any more (a
        // seat's key still resumes its seat, to see how it ended).
        if request.key.is_none()
            && matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted)
        {
            return Err(ServiceError::new(
                ErrorCode::MatchFinished,
                format!("table `{id}` is over: nobody joins it any more"),
            ));
        }
        if let Some(name) = &request.name {
            check_name(name)?;
        }
        let player = match token {
            Some(token) => self.player_of_token(token).await?,
            None => None,
        };
        let joined = match &request.key {
            Some(key) => {
                let seat = seat_of_key(&table, key, request.seat)?;
                if seat.kind == SeatKind::Player
                    && (player.as_ref().map(|p| &p.id) != seat.player_id.as_ref())
                {
                    return Err(ServiceError::new(
                        ErrorCode::PlayerTokenRefused,
                        format!(
                            "seat {} is held for player `{}`: join it with their token (`Authorization: Bearer <token>`)",
                            seat.seat,
                            seat.player_id.as_deref().unwrap_or_default()
                        ),
                    ));
                }
                // A player sits under their name; an invited person may name themselves; a
                // seat taken through the table's link keeps the name it was taken under.
                let claimed = player.as_ref().filter(|_| {
                    seat.kind == SeatKind::Player
                        || (seat.kind == SeatKind::Human && seat.player_id.is_none())
                });
                let name = match (seat.kind, claimed) {
                    (SeatKind::Human | SeatKind::Player, Some(player)) => Some(player.name.clone()),
                    (SeatKind::Human, None) => request.name.clone().or_else(|| seat.name.clone()),
                    _ => seat.name.clone(),
                }
                .unwrap_or_else(|| guest(seat.seat));
                if matches!(seat.kind, SeatKind::Human | SeatKind::Player) {
                    self.inner
                        .store
                        .join_person_seat(id, seat.seat, &name, claimed.map(|p| p.id.as_str()))
                        .await?;
                }
                SeatJoined {
                    seat: seat.seat,
                    join_url: join_url(id, seat.seat, key),
                    key: key.clone(),
                    name,
                }
            }
            None => self.take_open_seat(&table, request, player).await?,
        };
        if self.inner.store.start_table(id).await? {
            tracing::info!(
                table = id,
                match_id = table.match_id,
                "every person joined: table started"
            );
            self.enqueue();
        }
        Ok(joined)
    }

    /// Takes `request.seat`, or the first free open seat, with a fresh key.
    async fn take_open_seat(
        &self,
        table: &TableRecord,
        request: JoinTable,
        player: Option<PlayerRecord>,
    ) -> Result<SeatJoined, ServiceError> {
        let free: Vec<usize> = table
            .seats
            .iter()
            .filter(|s| s.kind == SeatKind::Open && s.key_hash.is_none())
            .map(|s| s.seat)
            .collect();
        let seat = match request.seat {
            Some(seat) => {
                let Some(wanted) = table.seats.get(seat) else {
                    return Err(ServiceError::new(
                        ErrorCode::InvalidSeat,
                        format!("the table has seats 0 to {}", table.seats.len() - 1),
                    ));
                };
                if wanted.kind != SeatKind::Open || !free.contains(&seat) {
                    return Err(seat_taken(seat, wanted.kind));
                }
                seat
            }
            None => *free.first().ok_or_else(|| {
                ServiceError::new(
                    ErrorCode::TableFull,
                    format!("every open seat of table `{}` is taken", table.id),
                )
            })?,
        };
        let name = match &player {
            Some(player) => player.name.clone(),
            None => request.name.unwrap_or_else(|| guest(seat)),
        };
        let key = new_secret();
        if !self
            .inner
            .store
            .take_open_seat(
                &table.id,
                seat,
                &name,
                &hash_token(&key),
                player.as_ref().map(|p| p.id.as_str()),
            )
            .await?
        {
            return Err(seat_taken(seat, SeatKind::Open));
        }
        tracing::info!(table = table.id, seat, "open seat taken");
        Ok(SeatJoined {
            seat,
            name,
            join_url: join_url(&table.id, seat, &key),
            key,
        })
    }

    /// What the person holding `request.key` sees from `request.seat`: the table, the seat's
    /// view, the public events so far and, while the arena waits for the seat's move, its legal
    /// actions and the request a move answers.
    pub async fn table_seat(&self, id: &str, request: SeatKey) -> Result<SeatState, ServiceError> {
        let (table, record) = self.table_and_match(id).await?;
        seat_of_key(&table, &request.key, Some(request.seat))?;
        let seat = request.seat;
        // The pending request is read before the moves: a move is stored before the next request
        // is made, so the moves read next hold at least every move the request saw. Read the
        // other way round, the moves could lag the request (the person asked to play from a
        // position missing the bots' last cards, a completed trick never shown).
        let pending = self.pending_request(&record.id, seat).await?;
        let mut moves = self.inner.store.moves(&record.id).await?;
        let replayed = crate::replay::logged(&record, &mut moves)
            .map_err(|error| ServiceError::from(anyhow::Error::from(error)))?;
        let game = replayed.game;
        let view = game.view(Viewer::Seat(seat));
        // The legal actions exactly as the arena listed them in the pending request, if it was
        // made from the position shown (else it was answered meanwhile: the next poll shows the
        // newer one).
        let (request_id, legal_actions) = match pending {
            Some(pending) if pending.view.as_ref().is_none_or(|asked| *asked == view) => {
                (Some(pending.request_id), pending.legal_actions)
            }
            _ => (None, Vec::new()),
        };
        let mut events = replayed.setup_events;
        events.extend(moves.iter().flat_map(|m| m.events.iter().cloned()));
        Ok(SeatState {
            table: table_view(&table, &record),
            seat,
            moves: moves.len(),
            view,
            to_act: game.to_act(),
            legal_actions,
            request_id,
            events,
            result: record.result,
        })
    }

    /// A person's move at a table: checked against the seat's key, the match's status and the
    /// rules before the arena takes it, so a person's refused move is no fault and the arena
    /// goes on waiting for the seat.
    pub async fn table_move(&self, id: &str, request: TableMove) -> Result<(), ServiceError> {
        let (table, record) = self.table_and_match(id).await?;
        seat_of_key(&table, &request.key, Some(request.seat))?;
        match record.status {
            MatchStatus::Waiting => {
                return Err(ServiceError::new(
                    ErrorCode::TableWaiting,
                    format!(
                        "table `{id}` waits for its people: its match starts once every seat is taken"
                    ),
                ));
            }
            MatchStatus::Finished | MatchStatus::Aborted => {
                return Err(ServiceError::new(
                    ErrorCode::MatchFinished,
                    format!("the match of table `{id}` is over"),
                ));
            }
            MatchStatus::Queued | MatchStatus::Running => {}
        }
        let seat = request.seat;
        let Some(pending) = self.pending_request(&record.id, seat).await? else {
            return Err(stale(format!(
                "the arena is not waiting for a move of seat {seat} now"
            )));
        };
        if let Some(answered) = &request.request_id
            && *answered != pending.request_id
        {
            return Err(stale(format!(
                "request `{answered}` is not the one pending for seat {seat} (it was answered, or a newer one replaced it)"
            )));
        }
        if !pending.legal_actions.contains(&request.action) {
            // The engine's reason, from the position the request was made in.
            let mut moves = self.inner.store.moves(&record.id).await?;
            let mut game = crate::replay::logged(&record, &mut moves)
                .map_err(|error| ServiceError::from(anyhow::Error::from(error)))?
                .game;
            game.apply(seat, &request.action)?;
            return Err(ServiceError::new(
                ErrorCode::IllegalAction,
                format!(
                    "{} is not one of the seat's legal actions as listed",
                    crate::runner::compact(&request.action)
                ),
            ));
        }
        self.submit_move(
            &record.id,
            seat,
            Some(&pending.request_id),
            request.action,
            None,
        )
        .await
    }

    /// The move the arena waits for from `seat` of `match_id`, if it waits for one.
    async fn pending_request(
        &self,
        match_id: &str,
        seat: usize,
    ) -> Result<Option<PendingRequest>, ServiceError> {
        let Some(pending) = self
            .match_pending_moves(match_id)
            .await?
            .into_iter()
            .find(|pending| pending.seat == seat)
        else {
            return Ok(None);
        };
        let line: serde_json::Value =
            serde_json::from_str(&pending.request).map_err(anyhow::Error::from)?;
        let legal_actions = match line.get("legal_actions") {
            Some(serde_json::Value::Array(legal)) => legal.clone(),
            _ => Vec::new(),
        };
        Ok(Some(PendingRequest {
            request_id: pending.request_id,
            legal_actions,
            view: line.get("view").cloned(),
        }))
    }
}

/// A move the arena waits for from a person's seat.
struct PendingRequest {
    request_id: String,
    /// The legal actions as the request listed them.
    legal_actions: Vec<serde_json::Value>,
    /// The seat's view the request was made from.
    view: Option<serde_json::Value>,
}

/// The seat `key` holds at `table` (it must be `wanted`, when named): 403 `seat_key_refused`
/// for a key of no seat, 403 `not_your_seat` for another seat's key.
pub(super) fn seat_of_key<'t>(
    table: &'t TableRecord,
    key: &str,
    wanted: Option<usize>,
) -> Result<&'t TableSeat, ServiceError> {
    let held = table
        .seats
        .iter()
        .find(|s| {
            s.key_hash
                .as_deref()
                .is_some_and(|hash| token_matches(key, hash))
        })
        .ok_or_else(|| {
            ServiceError::new(
                ErrorCode::SeatKeyRefused,
                format!(
                    "this key holds no seat of table `{}`: use the seat's link",
                    table.id
                ),
            )
        })?;
    match wanted {
        Some(seat) if seat != held.seat => Err(ServiceError::new(
            ErrorCode::NotYourSeat,
            format!("this key holds seat {}, not seat {seat}", held.seat),
        )),
        _ => Ok(held),
    }
}

/// 409 `stale_request`: the move answers no request pending for the seat.
fn stale(detail: String) -> ServiceError {
    ServiceError::new(ErrorCode::StaleRequest, detail)
}

fn seat_taken(seat: usize, kind: SeatKind) -> ServiceError {
    let why = match kind {
        SeatKind::Open => "someone took it first",
        SeatKind::Human => "it is kept for an invited person (their link takes it)",
        SeatKind::Player => "it is kept for an invited player (their link and token take it)",
        SeatKind::Bot => "a bot sits there",
    };
    ServiceError::new(
        ErrorCode::SeatTaken,
        format!("seat {seat} is not free: {why}"),
    )
}

/// The name of a person who chose none.
fn guest(seat: usize) -> String {
    format!("guest {seat}")
}

/// A table as anyone may see it.
fn table_view(table: &TableRecord, record: &MatchRecord) -> TableView {
    let mut view = listed_view(&TableListing {
        table: table.clone(),
        game: record.game.clone(),
        status: record.status,
        rated: record.ranked,
        abort_reason: record.abort_reason,
    });
    view.clock = record.clock;
    view
}

/// A table as the lists show it (without its clock, which the match holds).
pub(super) fn listed_view(listed: &TableListing) -> TableView {
    let table = &listed.table;
    TableView {
        id: table.id.clone(),
        match_id: table.match_id.clone(),
        game: listed.game.clone(),
        players: table.seats.len(),
        status: listed.status,
        abort_reason: listed.abort_reason,
        rated: listed.rated,
        open_seats: table
            .seats
            .iter()
            .filter(|s| s.kind == SeatKind::Open && s.key_hash.is_none())
            .map(|s| s.seat)
            .collect(),
        seats: table
            .seats
            .iter()
            .map(|s| TableSeatView {
                seat: s.seat,
                kind: s.kind,
                name: s.name.clone(),
                joined: s.kind == SeatKind::Bot || s.joined_at.is_some(),
                player: s.player_id.clone(),
            })
            .collect(),
        clock: None,
        pace_ms: table.pace_ms,
        watch_url: watch_url(&table.id),
        created_at: rfc3339(table.created_at),
    }
}

/// A new table's seats as [`Arena::seat_plan`] reads them.
struct SeatPlan {
    persons: Vec<usize>,
    bots: Vec<String>,
    players: Vec<Option<PlayerRecord>>,
}
