//! Matches: creation (checked against the catalog, the bots and the limits), one match in full,
//! the list, and waiting for one to end.

use super::{Arena, Caller, dedup, ranked_clock};
use crate::bots::{hash_token, new_id, token_matches};
use crate::commitment;
use crate::dto::{
    CreateMatch, MatchCancelled, MatchCreated, MatchList, MatchParts, MatchQuery, MatchSummary,
    MatchView, MoveView, ReplayAction, ReplayInput, SeatView, rfc3339,
};
use crate::limits::Meter;
use crate::live::LiveEnd;
use crate::paging;
use crate::problem::{ErrorCode, ServiceError};
use crate::store::{
    AbortReason, BotRecord, Cancelled, Creator, CreatorKind, MatchFilter, MatchRecord, MatchStatus,
    MoveRecord, now_ms,
};
use crate::tables::PERSON_BOT_ID;
use std::time::Duration;

/// The hold between two moves a match may ask for (`pace_ms`): up to 5 s, long enough to follow
/// a card game move by move.
pub const PACE_MS: std::ops::RangeInclusive<u64> = 0..=5000;

/// The clock of a rated table with people when its creator gives none: 15 minutes a seat, and
/// 10 seconds more a move (a person thinks slower than a bot, and one who leaves still loses on
/// time, so no rating is saved by walking away).
const PEOPLE_RATED_CLOCK: crate::wire::Clock = crate::wire::Clock {
    initial_ms: 900_000,
    increment_ms: 10_000,
};

impl Arena {
    /// Creates a match and queues it, as the admin: the process's own matches (`cardroom play`,
    /// tools, tests). HTTP requests go through [`Arena::create_match_as`].
    pub async fn create_match(&self, request: CreateMatch) -> Result<MatchCreated, ServiceError> {
        self.create_match_by(request, Creator::admin()).await
    }

    /// Creates a match on behalf of `creator` (consent and health go by it) and queues it: it
    /// counts against the creator's cap of queued matches, not against a rate limit.
    pub async fn create_match_by(
        &self,
        request: CreateMatch,
        creator: Creator,
    ) -> Result<MatchCreated, ServiceError> {
        self.create_match_metered(request, creator, &Meter::unmetered())
            .await
    }

    /// [`Arena::create_match_by`], charged to `meter` (the rate limit of an HTTP request's
    /// client) once it is checked, before it is stored.
    async fn create_match_metered(
        &self,
        request: CreateMatch,
        creator: Creator,
        meter: &Meter<'_>,
    ) -> Result<MatchCreated, ServiceError> {
        let record = self.build_match(request, creator).await?;
        let creator = record.creator.clone().unwrap_or_else(Creator::admin);
        let admitted = self.admit(&creator, false, 1, meter).await?;
        self.inner.store.insert_match(&record).await?;
        drop(admitted);
        self.enqueue();
        Ok(MatchCreated {
            id: record.id,
            status: MatchStatus::Queued,
        })
    }

    /// Creates a match for an HTTP caller: a ranked one needs the admin token (ranked matches
    /// come from the ladder, where every bot meets its closest rivals); every seated bot must
    /// consent to the caller ([`BotRecord::consents_to`]).
    pub async fn create_match_as(
        &self,
        request: CreateMatch,
        caller: Caller<'_>,
        meter: &Meter<'_>,
    ) -> Result<MatchCreated, ServiceError> {
        if request.ranked == Some(true) && !self.is_admin(caller.token) {
            return Err(ServiceError::new(
                ErrorCode::RankedByLadderOnly,
                "ranked matches come from the ladder: `\"ranked\": true` needs the server's admin token (`Authorization: Bearer <admin token>`); leave `ranked` out (false) for an unranked match",
            ));
        }
        let creator = self.creator(caller).await?;
        self.create_match_metered(request, creator, meter).await
    }

    /// True if `token` is the server's admin token (`--admin-token`).
    pub fn is_admin(&self, token: Option<&str>) -> bool {
        match (token, &self.inner.config.admin_token) {
            // Compared as hashes, in constant time.
            (Some(token), Some(admin)) => token_matches(token, &hash_token(admin)),
            _ => false,
        }
    }

    /// Who `token` acts for among `bots`: the admin, or the owner of one of them (a built-in
    /// bot has no owner). 403 `forbidden` otherwise.
    pub(super) async fn authorize_for(
        &self,
        token: Option<&str>,
        bots: &[String],
    ) -> Result<Actor, ServiceError> {
        let forbidden = || {
            ServiceError::new(
                ErrorCode::Forbidden,
                "this needs the owner token of a seated bot or the server's admin token (`Authorization: Bearer <token>`)",
            )
        };
        let token = token.ok_or_else(forbidden)?;
        if self.is_admin(Some(token)) {
            return Ok(Actor::Admin);
        }
        self.check_token(Some(token)).await?;
        for id in super::dedup(bots.to_vec()) {
            if let Some(bot) = self.inner.store.bot_any(&id).await?
                && !bot.builtin
                && token_matches(token, &bot.token_hash)
            {
                return Ok(Actor::Owner(id));
            }
        }
        Err(forbidden())
    }

    /// [`Arena::authorize_for`], or else the client that created the match or tournament
    /// (`created_by`): [`Actor::Creator`]. 403 `forbidden` when neither.
    pub(super) async fn authorize_or_creator(
        &self,
        caller: Caller<'_>,
        bots: &[String],
        created_by: Option<&Creator>,
    ) -> Result<Actor, ServiceError> {
        match self.authorize_for(caller.token, bots).await {
            Err(refused) if refused.code == ErrorCode::Forbidden => {
                let me = self.creator(caller).await?;
                if Self::same_client(&me, created_by) {
                    Ok(Actor::Creator)
                } else {
                    Err(refused)
                }
            }
            decided => decided,
        }
    }

    /// Cancels a queued or running match: it is aborted (`cancelled`) and moves no rating. The
    /// admin may cancel at any time; a seated bot's owner only until that bot has made its
    /// first move (409 `match_underway` after: a bot must not abort the matches it is losing);
    /// the client that created it (the same token, or an anonymous client's address) while it
    /// is still waiting for a worker (`queued`, or a table waiting for people).
    /// A running match stops at its next move, whichever process plays it: its worker's next
    /// write is refused.
    pub async fn cancel_match(
        &self,
        id: &str,
        caller: Caller<'_>,
    ) -> Result<MatchCancelled, ServiceError> {
        let record = self.inner.store.get_match(id).await?.ok_or_else(|| {
            ServiceError::new(ErrorCode::UnknownMatch, format!("there is no match `{id}`"))
        })?;
        let actor = self
            .authorize_or_creator(caller, &record.bots, record.creator.as_ref())
            .await?;
        // The owner's bot's seats must not have moved yet.
        let unmoved: Vec<usize> = match &actor {
            Actor::Admin | Actor::Creator => Vec::new(),
            Actor::Owner(bot) => (0..record.bots.len())
                .filter(|seat| record.bots[*seat] == *bot)
                .collect(),
        };
        let detail = format!("cancelled by {actor}");
        let cancelled = match actor {
            Actor::Creator => self.inner.store.cancel_waiting(id, &detail).await?,
            _ => self.inner.store.cancel_match(id, &detail, &unmoved).await?,
        };
        match cancelled {
            Cancelled::Cancelled => {}
            Cancelled::Over => {
                return Err(ServiceError::new(
                    ErrorCode::MatchFinished,
                    format!("match `{id}` is already over: nothing to cancel"),
                ));
            }
            Cancelled::Underway if actor == Actor::Creator => {
                return Err(ServiceError::new(
                    ErrorCode::MatchUnderway,
                    format!(
                        "match `{id}` has started: its creator cancels it only while it waits for a worker (the admin, or a seated bot's owner before its bot's first move, may still cancel)"
                    ),
                ));
            }
            Cancelled::Underway => {
                return Err(ServiceError::new(
                    ErrorCode::MatchUnderway,
                    format!(
                        "your bot has made its first move in match `{id}`: from then on only the admin cancels it (a cancelled match moves no rating, so a bot may not abort the matches it is losing)"
                    ),
                ));
            }
        }
        self.inner.metrics.match_aborted(AbortReason::Cancelled);
        tracing::info!(match_id = id, by = %actor, "match cancelled");
        self.inner
            .live
            .close(
                id,
                LiveEnd {
                    status: MatchStatus::Aborted,
                    result: None,
                    error: Some(detail),
                },
            )
            .await;
        Ok(MatchCancelled {
            id: id.to_string(),
            status: MatchStatus::Aborted,
            abort_reason: AbortReason::Cancelled,
        })
    }

    pub(crate) async fn new_match(
        &self,
        request: CreateMatch,
        creator: Creator,
        enqueue: bool,
    ) -> Result<MatchRecord, ServiceError> {
        let record = self.build_match(request, creator).await?;
        self.inner.store.insert_match(&record).await?;
        if enqueue {
            self.enqueue();
        }
        Ok(record)
    }

    /// A queued match checked against the catalog, the bots and the limits, not yet stored.
    pub(super) async fn build_match(
        &self,
        request: CreateMatch,
        creator: Creator,
    ) -> Result<MatchRecord, ServiceError> {
        self.build_seated_match(request, creator, &[]).await
    }

    /// [`Arena::build_match`] where people hold the seats `persons` (their entries of
    /// `request.bots` are not read): those seats name the person bot row. Every seated bot must
    /// consent to `creator` (403 `consent_required` naming the first that does not).
    pub(super) async fn build_seated_match(
        &self,
        request: CreateMatch,
        creator: Creator,
        persons: &[usize],
    ) -> Result<MatchRecord, ServiceError> {
        let game = engine::registry::find(&request.game)
            .ok_or_else(|| ServiceError::unknown_game(&request.game))?;
        let ranked = request.ranked.unwrap_or(false);
        // The ladder's ranked matches (its trial matches of paused bots are unranked: they
        // never hold the ladder's one match per game id).
        let ladder = ranked && creator.kind == CreatorKind::Ladder;
        let options = request.options.unwrap_or_default();
        let deals = request.deals.unwrap_or_default();
        // A ranked match's chance must be secret from everyone, the match's creator included: a
        // known seed or stacked deal would reveal every hand.
        if ranked && (!options.is_empty() || !deals.is_empty() || request.seed.is_some()) {
            return Err(ServiceError::new(
                ErrorCode::RankedOverrides,
                "ranked matches play the game id's own options with a secret seed: drop `options`, `seed` and `deals`, or set `ranked` to false",
            ));
        }
        // Every seat gets the same clock; ranked matches of bots play the game id's own (fair
        // across the ladder), so a caller may not choose it. A rated table with people plays
        // its creator's clock (one for every seat), or people's.
        let people_rated = ranked && !persons.is_empty();
        if ranked && !people_rated && request.clock.is_some() {
            return Err(ServiceError::new(
                ErrorCode::RankedOverrides,
                "ranked matches play the game id's own clock: drop `clock`, or set `ranked` to false",
            ));
        }
        let clock = if people_rated {
            Some(request.clock.unwrap_or(PEOPLE_RATED_CLOCK))
        } else if ranked {
            Some(ranked_clock(&request.game))
        } else {
            request.clock
        };
        if let Some(clock) = &clock {
            clock.check().map_err(ServiceError::invalid)?;
        }
        if request.bots.is_empty() {
            return Err(ServiceError::invalid("`bots` must list one bot per seat"));
        }
        // Seats name bots by id or by name; the match stores ids.
        let mut bot_ids = Vec::with_capacity(request.bots.len());
        // Each seat's bot (None: a person's seat).
        let mut seated: Vec<Option<BotRecord>> = Vec::with_capacity(request.bots.len());
        for (seat, key) in request.bots.iter().enumerate() {
            if persons.contains(&seat) {
                seated.push(None);
                continue;
            }
            let bot = match self.inner.store.bot(key).await? {
                Some(bot) => bot,
                None => self
                    .inner
                    .store
                    .bot_named(key)
                    .await?
                    .ok_or_else(|| ServiceError::unknown_bot(key))?,
            };
            if !bot.games.contains(&request.game) {
                return Err(ServiceError::new(
                    ErrorCode::BotGameMismatch,
                    format!("bot {key} is not registered for `{}`", request.game),
                ));
            }
            seated.push(Some(bot));
        }
        // Every seat is known (404 first); then each registered bot must consent.
        if let Some(refusing) = seated
            .iter()
            .flatten()
            .find(|bot| !bot.consents_to(&creator))
        {
            return Err(consent_required(refusing));
        }
        bot_ids.extend(seated.into_iter().map(|bot| match bot {
            Some(bot) => bot.id,
            None => PERSON_BOT_ID.to_string(),
        }));
        // People's seats all name the person row: each table seat holds one player at most,
        // which the table checks.
        let seated_bots: Vec<String> = bot_ids
            .iter()
            .filter(|id| *id != PERSON_BOT_ID)
            .cloned()
            .collect();
        if ranked && dedup(seated_bots.clone()).len() != seated_bots.len() {
            return Err(ServiceError::new(
                ErrorCode::DuplicateBots,
                "a ranked match needs a different bot in every seat",
            ));
        }
        let deadline_ms = request.deadline_ms.unwrap_or(self.inner.config.deadline_ms);
        if !crate::wire::DEADLINE_MS.contains(&deadline_ms) {
            return Err(ServiceError::invalid(
                "`deadline_ms` must be between 10 and 60000",
            ));
        }
        let pace_ms = request.pace_ms.unwrap_or(0);
        if !PACE_MS.contains(&pace_ms) {
            return Err(ServiceError::invalid(
                "`pace_ms` must be between 0 and 5000",
            ));
        }
        let record = MatchRecord {
            id: new_id("m"),
            seq: 0,
            moves_pruned: false,
            game: request.game,
            bots: bot_ids,
            options: serde_json::Value::Object(options),
            // A drawn seed stays JSON-safe (at most 2^53 - 1), like the API's.
            seed: request
                .seed
                .unwrap_or_else(|| rand::random::<u64>() & engine::rng::MAX_SEED),
            seed_salt: Some(commitment::new_salt()),
            deals,
            ranked,
            ladder,
            deadline_ms,
            max_faults: self.inner.config.max_faults,
            clock,
            pace_ms,
            status: MatchStatus::Queued,
            result: None,
            error: None,
            abort_reason: None,
            created_at: now_ms(),
            started_at: None,
            finished_at: None,
            creator: Some(creator),
        };
        game.start(&crate::replay::new_game(&record))?;
        Ok(record)
    }

    /// Refuses to show a tournament match while another table plays the same deal.
    pub async fn check_not_embargoed(&self, match_id: &str) -> Result<(), ServiceError> {
        if self.inner.store.embargoed(&[match_id]).await?.is_empty() {
            Ok(())
        } else {
            Err(ServiceError::new(
                ErrorCode::DealInPlay,
                format!(
                    "match `{match_id}` is a tournament table whose deal another table still plays: its moves and result open once every table of the deal is over"
                ),
            ))
        }
    }

    /// One match in full.
    pub async fn get_match(&self, id: &str) -> Result<MatchView, ServiceError> {
        self.show_match(id, MatchParts::SHOWN).await
    }

    /// One match with the optional `parts` asked for (`?include=`).
    pub async fn show_match(&self, id: &str, parts: MatchParts) -> Result<MatchView, ServiceError> {
        let record = self.inner.store.get_match(id).await?.ok_or_else(|| {
            ServiceError::new(ErrorCode::UnknownMatch, format!("there is no match `{id}`"))
        })?;
        self.check_not_embargoed(id).await?;
        let mut moves = self.inner.store.moves(id).await?;
        // The store keeps actions only; the replay gives the events back. A game no longer
        // served cannot replay: its moves are shown without events.
        if let Err(error) = crate::replay::logged(&record, &mut moves) {
            tracing::warn!(match_id = id, error = %error, "a stored match does not replay");
        }
        // While a match is live its seed, stacked deals and actions stay secret (they would reveal
        // hidden cards, e.g. a 22 discard); moves then show who acted and the public events.
        let ended = matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted);
        let reports = self.inner.store.seat_reports(id).await?;
        // A person's seat shows the name the person chose at the table.
        let table = if record.bots.iter().any(|b| b == PERSON_BOT_ID) {
            self.inner.store.table_of_match(id).await?
        } else {
            None
        };
        let mut seats = Vec::new();
        for (seat, bot_id) in record.bots.iter().enumerate() {
            let person = table
                .as_ref()
                .filter(|_| bot_id == PERSON_BOT_ID)
                .and_then(|t| t.seats.get(seat));
            let player = person.and_then(|s| s.player_id.clone());
            let name = match person.map(|s| s.name.clone().unwrap_or_default()) {
                Some(name) => name,
                None => self
                    .inner
                    .store
                    .bot_any(bot_id)
                    .await?
                    .map(|b| b.name)
                    .unwrap_or_default(),
            };
            let report = reports.iter().find(|r| r.seat == seat);
            seats.push(SeatView {
                seat,
                bot: bot_id.clone(),
                name,
                player,
                reported_name: report.map(|r| r.name.clone()),
                version: report.map(|r| r.version.clone()),
            });
        }
        Ok(MatchView {
            id: record.id.clone(),
            status: record.status,
            game: record.game.clone(),
            options: record.options.clone(),
            seed: ended.then_some(record.seed),
            seed_commitment: record
                .seed_salt
                .as_deref()
                .map(|salt| commitment::seed_commitment(record.seed, salt)),
            seed_salt: record.seed_salt.clone().filter(|_| ended),
            deals: ended.then(|| record.deals.clone()),
            ranked: record.ranked,
            ladder: record.ladder,
            created_by: record.creator.as_ref().map(crate::dto::CreatedBy::from),
            deadline_ms: record.deadline_ms,
            max_faults: record.max_faults,
            clock: record.clock,
            pace_ms: record.pace_ms,
            seats,
            events: parts.events.then(|| {
                moves
                    .iter()
                    .flat_map(|m| m.events.iter().cloned())
                    .collect()
            }),
            moves_pruned: record.moves_pruned,
            // The actions are the moves' own: given here only when the moves are not.
            replay: parts.replay.then(|| {
                let mut replay = replay_input(&record, ended)?;
                if !parts.moves {
                    replay.actions = Some(
                        moves
                            .iter()
                            .map(|m| ReplayAction {
                                seat: m.seat,
                                action: m.action.clone(),
                            })
                            .collect(),
                    );
                }
                Some(replay)
            }),
            moves: parts.moves.then(|| move_views(moves, ended)),
            result: record.result,
            error: record.error,
            abort_reason: record.abort_reason,
            created_at: rfc3339(record.created_at),
            started_at: record.started_at.map(rfc3339),
            finished_at: record.finished_at.map(rfc3339),
        })
    }

    /// Matches, newest first: one page, and the cursor of the next.
    pub async fn list_matches(&self, query: MatchQuery) -> Result<MatchList, ServiceError> {
        let limit = paging::limit(query.limit, 50);
        let (mut filter, parts) = self.list_filter(&query, limit + 1).await?;
        filter.before = paging::after(query.cursor.as_deref())?;
        let (matches, next) = self.match_page(&filter, parts).await?;
        Ok(MatchList {
            matches,
            next_cursor: next.as_ref().map(paging::encode),
        })
    }

    /// The store's filter of a list query (the bot by id or by name, the game checked against
    /// the catalog) and the parts each match carries.
    async fn list_filter(
        &self,
        query: &MatchQuery,
        limit: u32,
    ) -> Result<(MatchFilter, MatchParts), ServiceError> {
        let parts = MatchParts::parse(
            query.include.as_deref(),
            &["moves", "result"],
            MatchParts::default(),
        )?;
        if let Some(game) = &query.game
            && engine::registry::find(game).is_none()
        {
            return Err(ServiceError::unknown_game(game));
        }
        let bot = match &query.bot {
            None => None,
            // An id first (a deleted bot's matches stay listed by its id), then a live name.
            Some(key) => Some(match self.inner.store.bot_any(key).await? {
                Some(bot) => bot.id,
                None => {
                    self.inner
                        .store
                        .bot_named(key)
                        .await?
                        .ok_or_else(|| ServiceError::unknown_bot(key))?
                        .id
                }
            }),
        };
        let filter = MatchFilter {
            game: query.game.clone(),
            bot,
            statuses: query.status.into_iter().collect(),
            people: query.people,
            limit,
            before: None,
        };
        Ok((filter, parts))
    }

    /// The page of matches `filter` selects (its limit one row more than the page, to tell
    /// whether another follows), as the lists show them with `parts`, and the key of the next
    /// page.
    async fn match_page(
        &self,
        filter: &MatchFilter,
        parts: MatchParts,
    ) -> Result<(Vec<MatchSummary>, Option<(i64, String)>), ServiceError> {
        let rows = self.inner.store.matches(filter).await?;
        let (matches, next) = paging::cut(rows, filter.limit - 1, |m| (m.created_at, m.id.clone()));
        let ids: Vec<&str> = matches.iter().map(|m| m.id.as_str()).collect();
        let embargoed = self.inner.store.embargoed(&ids).await?;
        let mut rows = Vec::with_capacity(matches.len());
        for record in &matches {
            let mut row = summary(record);
            // A tournament table's result waits for the other tables of its deal, and so do
            // its moves.
            if embargoed.contains(&record.id) {
                row.ranking = None;
                row.faults = None;
            } else {
                let ended = matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted);
                if parts.result && ended {
                    row.result = record.result.clone();
                }
                if parts.moves && !record.moves_pruned {
                    let moves = self.inner.store.moves(&record.id).await?;
                    row.moves = Some(move_views(moves, ended));
                    row.replay = replay_input(record, ended);
                }
            }
            rows.push(row);
        }
        Ok((rows, next))
    }

    /// Every match `query`'s filters select, newest first, as lines of JSON (one match each),
    /// read from the store a page at a time as the stream is consumed: a bot's whole history
    /// is never held at once.
    pub async fn match_lines(
        &self,
        query: MatchQuery,
    ) -> Result<impl futures_util::Stream<Item = Result<Vec<u8>, ServiceError>> + use<>, ServiceError>
    {
        /// Matches per read: one indexed range each (fewer with their moves).
        const PAGE: u32 = 200;
        const PAGE_WITH_MOVES: u32 = 20;
        let (filter, parts) = self.list_filter(&query, PAGE + 1).await?;
        let filter = MatchFilter {
            limit: if parts.moves {
                PAGE_WITH_MOVES + 1
            } else {
                PAGE + 1
            },
            ..filter
        };
        let arena = self.clone();
        Ok(futures_util::stream::try_unfold(
            Some(filter),
            move |filter| {
                let arena = arena.clone();
                async move {
                    let Some(mut filter) = filter else {
                        return Ok(None);
                    };
                    let (rows, next) = arena.match_page(&filter, parts).await?;
                    let mut lines = Vec::new();
                    for row in &rows {
                        serde_json::to_writer(&mut lines, row)
                            .map_err(|e| ServiceError::from(anyhow::Error::from(e)))?;
                        lines.push(b'\n');
                    }
                    filter.before = next;
                    let more = filter.before.is_some().then_some(filter);
                    Ok(Some((lines, more)))
                }
            },
        ))
    }

    /// Waits until the match is finished or aborted (polling the store), at most `timeout`.
    pub async fn wait_for(&self, id: &str, timeout: Duration) -> anyhow::Result<MatchRecord> {
        let start = std::time::Instant::now();
        loop {
            let record = self
                .inner
                .store
                .get_match(id)
                .await?
                .ok_or_else(|| anyhow::anyhow!("no match {id}"))?;
            if matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted) {
                return Ok(record);
            }
            if start.elapsed() > timeout {
                anyhow::bail!(
                    "match {id} still {} after {timeout:?}",
                    record.status.as_str()
                );
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

/// Who acts on a match or tournament (see [`Arena::authorize_for`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Actor {
    /// The server's admin token.
    Admin,
    /// The owner token of this seated bot.
    Owner(String),
    /// The client that created it (only while it waits for a worker).
    Creator,
}

impl std::fmt::Display for Actor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Actor::Admin => f.write_str("the admin"),
            Actor::Owner(bot) => write!(f, "the owner of bot {bot}"),
            // Never the client's key: an anonymous client's is its address.
            Actor::Creator => f.write_str("its creator"),
        }
    }
}

/// 403 `consent_required`: `bot` is not open to challenges and the request is not its owner's,
/// the admin's or the ladder's.
fn consent_required(bot: &BotRecord) -> ServiceError {
    ServiceError::new(
        ErrorCode::ConsentRequired,
        format!(
            "bot `{}` ({}) is not open to challenges: only its owner's token, the admin or the ladder may seat it (its owner opens it with `\"open_to_challenges\": true`)",
            bot.name, bot.id
        ),
    )
}

/// The moves as a match shows them: actions once it has ended (while it is live an action may
/// name a hidden card; the public events say what everyone saw).
fn move_views(moves: Vec<MoveRecord>, ended: bool) -> Vec<MoveView> {
    moves
        .into_iter()
        .map(|m| MoveView {
            seat: m.seat,
            action: ended.then_some(m.action),
            latency_ms: m.latency_ms,
            fault: m.fault,
            comment: m.comment,
        })
        .collect()
}

/// What `POST /v1/games/{game}/replay` needs beside the actions, once the match has ended and
/// while its moves are kept.
fn replay_input(record: &MatchRecord, ended: bool) -> Option<ReplayInput> {
    (ended && !record.moves_pruned).then(|| ReplayInput {
        players: record.bots.len(),
        options: record.options.clone(),
        seed: record.seed,
        deals: record.deals.clone(),
        actions: None,
    })
}

/// A match as the lists show it.
pub(super) fn summary(record: &MatchRecord) -> MatchSummary {
    MatchSummary {
        id: record.id.clone(),
        status: record.status,
        game: record.game.clone(),
        bots: record.bots.clone(),
        ranked: record.ranked,
        ranking: record.result.as_ref().map(|r| r.ranking.clone()),
        faults: record.result.as_ref().map(|r| r.faults.clone()),
        created_at: rfc3339(record.created_at),
        finished_at: record.finished_at.map(rfc3339),
        moves: None,
        replay: None,
        result: None,
    }
}
