//! The [`Arena`] handle: opens the store, runs the match workers and the ladder, and implements
//! every operation the HTTP routes and the `play` command need.
//!
//! Matches are a durable queue in the database: a worker claims one (a row lease, see
//! [`Store::claim_next`]), renews its leases while it plays, and another worker resumes a dead
//! worker's matches once their leases run out. Several processes can share one PostgreSQL
//! database; SQLite serves one process.

use crate::bots::safety::Refusal;
use crate::bots::{
    self, check_games, check_name, hash_token, new_id, new_secret, probe_problem, token_matches,
};
use crate::client::{BUILTIN_SCHEME, BotClient, FaultKind, Target};
use crate::config::{ArenaConfig, Role};
use crate::dto::{
    BotList, BotView, CreateMatch, CreateTournament, Leaderboard, LeaderboardEntry, MatchCreated,
    MatchList, MatchQuery, MatchSummary, MatchView, MoveView, RegisterBot, RegisteredBot,
    ReplayAction, ReplayInput, SeatView, TournamentCreated, TournamentList, TournamentMatchView,
    TournamentQuery, TournamentStatus, TournamentSummary, TournamentView, UpdateBot, rfc3339,
};
use crate::ladder::HealthPolicy;
use crate::limits::Limits;
use crate::metrics::ArenaMetrics;
use crate::problem::{ErrorCode, ServiceError};
use crate::runner::{Outcome, Runner};
use crate::store::{
    BotRecord, Dialect, MatchFilter, MatchRecord, MatchStatus, SqlStore, Store, TournamentMatch,
    TournamentRecord, deal_seed, now_ms,
};
use crate::tournament;
use crate::wire::{BotInfo, Clock};
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};

/// The arena: a cheap, clonable handle.
#[derive(Debug, Clone)]
pub struct Arena {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    config: ArenaConfig,
    store: Arc<dyn Store>,
    client: BotClient,
    /// This process's id in match leases.
    worker: String,
    /// Wakes this process's idle workers when it queues a match.
    wake: Arc<Notify>,
    live: crate::live::LiveHub,
    /// Counters for `/metrics`.
    metrics: Arc<ArenaMetrics>,
    /// Rate limits of registrations and match creations.
    limits: Limits,
    /// When the ladder last started a match of each game id (its pace); held by the process
    /// that leads the ladder.
    ladder_pace: std::sync::Mutex<std::collections::HashMap<String, std::time::Instant>>,
}

/// The clock of ranked matches of `game`: a 60 s bank per seat plus 200 ms per move, beside the
/// per-move deadline (1 s by default). The same for every game id today; a game whose seats
/// make many more decisions would get a larger bank here (docs/bots.md lists the values).
pub fn ranked_clock(_game: &str) -> Clock {
    Clock {
        initial_ms: 60_000,
        increment_ms: 200,
    }
}

impl Arena {
    /// Opens the arena: creates and migrates the database and, if the role plays matches,
    /// starts the match workers (which also resume matches whose worker died: on SQLite at once,
    /// on PostgreSQL when their lease runs out) and the ladder (run by one leader among every
    /// process on the database). Must be called inside a tokio runtime.
    pub async fn open(config: ArenaConfig) -> anyhow::Result<Arena> {
        let sql = SqlStore::open(&config.database).await?;
        if sql.dialect() == Dialect::Sqlite
            && config.role != Role::All
            && !config.database.contains(":memory:")
        {
            anyhow::bail!(
                "--role {} needs PostgreSQL (--database postgres://...): a SQLite database serves \
                 one process, which must be both API and worker (--role all)",
                if config.role == Role::Api {
                    "api"
                } else {
                    "worker"
                }
            );
        }
        let store: Arc<dyn Store> = Arc::new(sql);
        let client = BotClient::new(config.policy.clone())?.with_ismcts_ms(config.ismcts_ms);
        let arena = Arena {
            inner: Arc::new(Inner {
                config: config.clone(),
                store: store.clone(),
                client: client.clone(),
                // The pid in the id tells an operator which process holds a lease.
                worker: format!(
                    "w_{}_{}",
                    std::process::id(),
                    new_id("w").trim_start_matches("w_")
                ),
                wake: Arc::new(Notify::new()),
                live: crate::live::LiveHub::default(),
                metrics: Arc::new(ArenaMetrics::default()),
                limits: Limits::new(config.registrations_per_minute, config.matches_per_minute),
                ladder_pace: Default::default(),
            }),
        };
        if config.role.runs_matches() {
            tracing::info!(worker = arena.inner.worker, "arena match workers starting");
            tokio::spawn(work(
                arena.runner(),
                config.concurrency,
                arena.inner.wake.clone(),
                config.poll_interval,
            ));
            tokio::spawn(renew(
                store.clone(),
                arena.inner.worker.clone(),
                config.lease,
            ));
            if config.ladder {
                tokio::spawn(crate::ladder::run(arena.clone()));
            }
            tokio::spawn(crate::maintenance::run(arena.clone()));
        }
        Ok(arena)
    }

    /// Ends this process's match leases so other workers resume its matches at once (call it on
    /// a clean shutdown; after a crash the leases run out instead).
    pub async fn release(&self) -> anyhow::Result<u64> {
        self.inner
            .store
            .release_leases(&self.inner.worker, None)
            .await
    }

    /// The configuration.
    pub fn config(&self) -> &ArenaConfig {
        &self.inner.config
    }

    /// The store (tests, tools).
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// This process's worker id, as written in the leases of the matches it plays
    /// (`w_<pid>_<random>`).
    pub fn worker(&self) -> &str {
        &self.inner.worker
    }

    /// The arena's counters (rendered by the API's `/metrics`).
    pub fn metrics(&self) -> &ArenaMetrics {
        &self.inner.metrics
    }

    /// The rate limits of registrations and match creations.
    pub fn limits(&self) -> &Limits {
        &self.inner.limits
    }

    /// The bot client.
    pub fn client(&self) -> &BotClient {
        &self.inner.client
    }

    /// A match runner on this arena's store and client (the workers use the same).
    pub fn runner(&self) -> Runner {
        Runner {
            store: self.inner.store.clone(),
            client: self.inner.client.clone(),
            notify_timeout: self.inner.config.probe_timeout,
            health: HealthPolicy::of(&self.inner.config),
            metrics: self.inner.metrics.clone(),
            worker: self.inner.worker.clone(),
            lease: self.inner.config.lease,
            live: self.inner.live.clone(),
        }
    }

    /// When the ladder last started a match of each game id.
    pub fn ladder_pace(
        &self,
    ) -> &std::sync::Mutex<std::collections::HashMap<String, std::time::Instant>> {
        &self.inner.ladder_pace
    }

    /// The hub of live matches (the runner publishes to it; `/v1/matches/{id}/events` reads it).
    pub fn live(&self) -> &crate::live::LiveHub {
        &self.inner.live
    }

    fn enqueue(&self) {
        // The match is queued in the database; this only wakes an idle worker of this process.
        self.inner.wake.notify_one();
    }

    async fn probe(&self, url: &str, secret: &str) -> Result<BotInfo, ServiceError> {
        let probed = self
            .inner
            .client
            .probe(
                &Target {
                    url: url.to_string(),
                    signing_secret: secret.to_string(),
                },
                self.inner.config.probe_timeout,
            )
            .await;
        match probed {
            Ok(info) => Ok(info),
            Err(fault) => {
                // The name may have moved into a refused range since `check_url` (the resolver
                // refused the connection): that is a refusal, not an unreachable bot.
                if fault.kind == FaultKind::Transport {
                    self.check_url(url).await?;
                }
                Err(probe_problem(url, &fault))
            }
        }
    }

    /// The URL, without a trailing slash, if the address policy admits it and every address its
    /// host resolves to now; otherwise `bot_url_refused` with the reason.
    async fn check_url(&self, url: &str) -> Result<String, ServiceError> {
        let policy = self.inner.client.policy();
        let refused =
            |refusal: Refusal| ServiceError::new(ErrorCode::BotUrlRefused, refusal.to_string());
        let parsed = policy.check_url(url).map_err(refused)?;
        policy.check_resolved(&parsed).await.map_err(refused)?;
        Ok(url.trim_end_matches('/').to_string())
    }

    /// Registers a bot after probing it.
    pub async fn register_bot(&self, request: RegisterBot) -> Result<RegisteredBot, ServiceError> {
        self.register_bot_with_secret(request, new_secret()).await
    }

    /// Registers a bot under a signing secret the caller chose: `cardroom play` uses it for a bot
    /// already running with its secret, in its own in-memory arena. No route reaches it: over HTTP
    /// the arena always makes the secret, so nobody registers a bot under a guessed or reused one.
    pub(crate) async fn register_bot_with_secret(
        &self,
        request: RegisterBot,
        signing_secret: String,
    ) -> Result<RegisteredBot, ServiceError> {
        check_name(&request.name)?;
        // Checked before the probe (which takes time), and again by the insert.
        if self.inner.store.bot_named(&request.name).await?.is_some() {
            return Err(ServiceError::name_taken(&request.name));
        }
        let url = self.check_url(&request.url).await?;
        let info = self.probe(&url, &signing_secret).await?;
        check_games(&request.games, &info)?;
        let token = new_secret();
        let record = BotRecord {
            id: new_id("b"),
            name: request.name,
            url: url.clone(),
            games: dedup(request.games),
            author: info.author,
            version: info.version,
            token_hash: hash_token(&token),
            signing_secret: signing_secret.clone(),
            builtin: false,
            paused: false,
            failures: 0,
            failing_since: None,
            retry_at: None,
            created_at: now_ms(),
        };
        if !self.inner.store.insert_bot(&record).await? {
            return Err(ServiceError::name_taken(&record.name));
        }
        Ok(RegisteredBot {
            id: record.id.clone(),
            bot: bots::view(&record, &[]),
            url,
            token,
            signing_secret,
        })
    }

    /// Registers the built-in bots (`random`, `heuristic`) for every game, once: they are found
    /// again by their `builtin:` URL on later starts. Returns their ids.
    pub async fn register_builtins(&self) -> anyhow::Result<Vec<String>> {
        let existing = self.inner.store.bots().await?;
        let games: Vec<String> = engine::registry::games()
            .iter()
            .map(|g| g.info().id.clone())
            .collect();
        let mut ids = Vec::new();
        for name in crate::builtin::NAMES {
            let url = format!("{BUILTIN_SCHEME}{name}");
            if let Some(mut bot) = existing.iter().find(|b| b.url == url).cloned() {
                if bot.games != games {
                    bot.games = games.clone();
                    self.inner.store.update_bot(&bot).await?;
                }
                ids.push(bot.id);
                continue;
            }
            let record = BotRecord {
                id: new_id("b"),
                name: name.to_string(),
                url,
                games: games.clone(),
                author: "cardroom".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                // Nobody holds a token for a built-in bot: this hash matches no token.
                token_hash: "-".into(),
                signing_secret: new_secret(),
                builtin: true,
                paused: false,
                failures: 0,
                failing_since: None,
                retry_at: None,
                created_at: now_ms(),
            };
            self.inner.store.insert_bot(&record).await?;
            // Another process may have registered it first (one row per built-in URL): use
            // the stored row.
            let stored = self.inner.store.bots().await?;
            let id = stored
                .iter()
                .find(|b| b.builtin && b.url == record.url)
                .map(|b| b.id.clone())
                .ok_or_else(|| anyhow::anyhow!("built-in bot {name} was not stored"))?;
            ids.push(id);
        }
        Ok(ids)
    }

    async fn owned_bot(&self, id: &str, token: Option<&str>) -> Result<BotRecord, ServiceError> {
        let bot = self
            .inner
            .store
            .bot(id)
            .await?
            .ok_or_else(|| ServiceError::unknown_bot(id))?;
        match token {
            Some(token) if !bot.builtin && token_matches(token, &bot.token_hash) => Ok(bot),
            _ => Err(ServiceError::unauthorized()),
        }
    }

    /// Changes a bot (owner only); the bot is probed again and unpaused if it answers.
    pub async fn update_bot(
        &self,
        id: &str,
        token: Option<&str>,
        patch: UpdateBot,
    ) -> Result<BotView, ServiceError> {
        let mut bot = self.owned_bot(id, token).await?;
        if let Some(name) = patch.name {
            check_name(&name)?;
            if self
                .inner
                .store
                .bot_named(&name)
                .await?
                .is_some_and(|other| other.id != bot.id)
            {
                return Err(ServiceError::name_taken(&name));
            }
            bot.name = name;
        }
        if let Some(url) = patch.url {
            bot.url = self.check_url(&url).await?;
        }
        let info = self.probe(&bot.url, &bot.signing_secret).await?;
        if let Some(games) = patch.games {
            check_games(&games, &info)?;
            bot.games = dedup(games);
        } else {
            check_games(&bot.games, &info)?;
        }
        bot.author = info.author;
        bot.version = info.version;
        bot.paused = false;
        bot.failures = 0;
        bot.failing_since = None;
        bot.retry_at = None;
        if !self.inner.store.update_bot(&bot).await? {
            return Err(ServiceError::name_taken(&bot.name));
        }
        let ratings = self.inner.store.bot_ratings(&bot.id).await?;
        Ok(bots::view(&bot, &ratings))
    }

    /// Deletes a bot (owner only). Its past matches and ratings history stay.
    pub async fn delete_bot(&self, id: &str, token: Option<&str>) -> Result<(), ServiceError> {
        let bot = self.owned_bot(id, token).await?;
        self.inner.store.delete_bot(&bot.id).await?;
        Ok(())
    }

    /// Every bot.
    pub async fn list_bots(&self) -> Result<BotList, ServiceError> {
        // Two queries whatever the number of bots: the bots, then every live bot's ratings.
        let mut ratings: std::collections::HashMap<String, Vec<crate::store::RatingRecord>> =
            std::collections::HashMap::new();
        for rating in self.inner.store.live_bots_ratings().await? {
            ratings
                .entry(rating.bot_id.clone())
                .or_default()
                .push(rating);
        }
        let out = self
            .inner
            .store
            .bots()
            .await?
            .iter()
            .map(|bot| bots::view(bot, ratings.get(&bot.id).map_or(&[][..], Vec::as_slice)))
            .collect();
        Ok(BotList { bots: out })
    }

    /// One bot, with ratings and recent matches.
    pub async fn bot(&self, id: &str) -> Result<BotView, ServiceError> {
        let bot = self
            .inner
            .store
            .bot(id)
            .await?
            .ok_or_else(|| ServiceError::unknown_bot(id))?;
        let ratings = self.inner.store.bot_ratings(id).await?;
        let mut view = bots::view(&bot, &ratings);
        let recent = self
            .inner
            .store
            .matches(&MatchFilter {
                bot: Some(id.to_string()),
                limit: 20,
                ..MatchFilter::default()
            })
            .await?;
        view.recent_matches = Some(recent.iter().map(summary).collect());
        Ok(view)
    }

    /// Creates a match and queues it.
    pub async fn create_match(&self, request: CreateMatch) -> Result<MatchCreated, ServiceError> {
        let record = self.new_match(request, false, true).await?;
        Ok(MatchCreated {
            id: record.id,
            status: MatchStatus::Queued,
        })
    }

    pub(crate) async fn new_match(
        &self,
        request: CreateMatch,
        ladder: bool,
        enqueue: bool,
    ) -> Result<MatchRecord, ServiceError> {
        let record = self.build_match(request, ladder).await?;
        self.inner.store.insert_match(&record).await?;
        if enqueue {
            self.enqueue();
        }
        Ok(record)
    }

    /// A queued match checked against the catalog, the bots and the limits, not yet stored.
    async fn build_match(
        &self,
        request: CreateMatch,
        ladder: bool,
    ) -> Result<MatchRecord, ServiceError> {
        let game = engine::registry::find(&request.game)
            .ok_or_else(|| ServiceError::unknown_game(&request.game))?;
        let ranked = request.ranked.unwrap_or(false);
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
        // Every seat gets the same clock; ranked matches play the game id's own (fair across
        // the ladder), so a caller may not choose it.
        if ranked && request.clock.is_some() {
            return Err(ServiceError::new(
                ErrorCode::RankedOverrides,
                "ranked matches play the game id's own clock: drop `clock`, or set `ranked` to false",
            ));
        }
        let clock = if ranked {
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
        for key in &request.bots {
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
            bot_ids.push(bot.id);
        }
        if ranked && dedup(bot_ids.clone()).len() != bot_ids.len() {
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
            deals,
            ranked,
            ladder,
            deadline_ms,
            max_faults: self.inner.config.max_faults,
            clock,
            status: MatchStatus::Queued,
            result: None,
            error: None,
            created_at: now_ms(),
            started_at: None,
            finished_at: None,
        };
        game.start(&crate::runner::new_game(&record))?;
        Ok(record)
    }

    /// Queues a duplicate tournament: each deal once per distinct rotation of the seats, every
    /// rotation of a deal with the same seed (the same cards in the same seats), all stored in
    /// one transaction.
    pub async fn create_tournament(
        &self,
        request: CreateTournament,
    ) -> Result<TournamentCreated, ServiceError> {
        if !(1..=1000).contains(&request.deals) {
            return Err(ServiceError::invalid("`deals` must be between 1 and 1000"));
        }
        let seed = request
            .seed
            .unwrap_or_else(|| rand::random::<u64>() & engine::rng::MAX_SEED);
        if seed > engine::rng::MAX_SEED {
            return Err(ServiceError::new(
                ErrorCode::InvalidSeed,
                "`seed` must be at most 2^53 - 1",
            ));
        }
        let seat_rotations = request.seat_rotations.unwrap_or(true);
        // The first table of the first deal checks the game, bots, options and deadline.
        let template = self
            .build_match(
                CreateMatch {
                    game: request.game.clone(),
                    bots: request.bots,
                    options: request.options,
                    seed: Some(deal_seed(seed, 0)),
                    deals: None,
                    ranked: Some(false),
                    deadline_ms: request.deadline_ms,
                    clock: None,
                },
                false,
            )
            .await?;
        let tournament = TournamentRecord {
            id: new_id("t"),
            game: template.game.clone(),
            options: template.options.clone(),
            seed,
            deals: request.deals,
            seat_rotations,
            deadline_ms: template.deadline_ms,
            bots: template.bots.clone(),
            created_at: template.created_at,
        };
        let seatings = tournament::rotations(&template.bots, seat_rotations);
        let mut matches = Vec::with_capacity(request.deals as usize * seatings.len());
        for deal in 0..request.deals {
            for (rotation, bots) in &seatings {
                matches.push(TournamentMatch {
                    deal,
                    rotation: *rotation,
                    record: MatchRecord {
                        id: new_id("m"),
                        seq: 0,
                        moves_pruned: false,
                        bots: bots.clone(),
                        seed: deal_seed(seed, deal),
                        // Queued deal by deal (the queue runs oldest first), so a deal's tables
                        // play together and its results open early.
                        created_at: template.created_at + i64::from(deal),
                        ..template.clone()
                    },
                });
            }
        }
        self.inner
            .store
            .insert_tournament(&tournament, &matches)
            .await?;
        self.enqueue();
        tracing::info!(
            tournament = tournament.id,
            game = tournament.game,
            matches = matches.len(),
            "tournament queued"
        );
        Ok(TournamentCreated {
            id: tournament.id,
            status: TournamentStatus::Running,
            matches: matches.len(),
        })
    }

    /// A tournament with its matches, standings and head-to-head counts.
    pub async fn get_tournament(&self, id: &str) -> Result<TournamentView, ServiceError> {
        let tournament = self.inner.store.get_tournament(id).await?.ok_or_else(|| {
            ServiceError::new(
                ErrorCode::UnknownTournament,
                format!("there is no tournament `{id}`"),
            )
        })?;
        let matches = self.inner.store.tournament_matches(id).await?;
        let open = tournament::open_deals(&matches);
        let mut bots: Vec<(String, String)> = Vec::new();
        for bot in &tournament.bots {
            if !bots.iter().any(|(b, _)| b == bot) {
                let name = self
                    .inner
                    .store
                    .bot_any(bot)
                    .await?
                    .map(|b| b.name)
                    .unwrap_or_default();
                bots.push((bot.clone(), name));
            }
        }
        let seats = tournament
            .bots
            .iter()
            .enumerate()
            .map(|(seat, bot)| SeatView {
                seat,
                bot: bot.clone(),
                name: bots
                    .iter()
                    .find(|(b, _)| b == bot)
                    .map(|(_, name)| name.clone())
                    .unwrap_or_default(),
            })
            .collect();
        Ok(TournamentView {
            id: tournament.id,
            status: if open.is_empty() {
                TournamentStatus::Finished
            } else {
                TournamentStatus::Running
            },
            game: tournament.game,
            options: tournament.options,
            seed: open.is_empty().then_some(tournament.seed),
            deals: tournament.deals,
            seat_rotations: tournament.seat_rotations,
            deadline_ms: tournament.deadline_ms,
            seats,
            standings: tournament::standings(&bots, &matches),
            head_to_head: tournament::head_to_head(&bots, &matches),
            matches: matches
                .iter()
                .map(|entry| TournamentMatchView {
                    id: entry.record.id.clone(),
                    deal: entry.deal,
                    rotation: entry.rotation,
                    status: entry.record.status,
                    bots: entry.record.bots.clone(),
                    // Another table of the deal still plays these cards.
                    scores: if open.contains(&entry.deal) {
                        None
                    } else {
                        tournament::scores(entry)
                    },
                })
                .collect(),
            created_at: rfc3339(tournament.created_at),
        })
    }

    /// Tournaments, newest first.
    pub async fn list_tournaments(
        &self,
        query: TournamentQuery,
    ) -> Result<TournamentList, ServiceError> {
        let limit = query.limit.unwrap_or(50).clamp(1, 500);
        let tournaments = self.inner.store.tournaments(limit).await?;
        Ok(TournamentList {
            tournaments: tournaments
                .into_iter()
                .map(|t| TournamentSummary {
                    id: t.id,
                    game: t.game,
                    bots: t.bots,
                    deals: t.deals,
                    seat_rotations: t.seat_rotations,
                    created_at: rfc3339(t.created_at),
                })
                .collect(),
        })
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
        let mut seats = Vec::new();
        for (seat, bot_id) in record.bots.iter().enumerate() {
            let name = self
                .inner
                .store
                .bot_any(bot_id)
                .await?
                .map(|b| b.name)
                .unwrap_or_default();
            seats.push(SeatView {
                seat,
                bot: bot_id.clone(),
                name,
            });
        }
        Ok(MatchView {
            id: record.id.clone(),
            status: record.status,
            game: record.game.clone(),
            options: record.options.clone(),
            seed: ended.then_some(record.seed),
            deals: ended.then(|| record.deals.clone()),
            ranked: record.ranked,
            ladder: record.ladder,
            deadline_ms: record.deadline_ms,
            max_faults: record.max_faults,
            clock: record.clock,
            seats,
            events: moves
                .iter()
                .flat_map(|m| m.events.iter().cloned())
                .collect(),
            moves_pruned: record.moves_pruned,
            replay: (ended && !record.moves_pruned).then(|| ReplayInput {
                players: record.bots.len(),
                options: record.options.clone(),
                seed: record.seed,
                deals: record.deals.clone(),
                actions: moves
                    .iter()
                    .map(|m| ReplayAction {
                        seat: m.seat,
                        action: m.action.clone(),
                    })
                    .collect(),
            }),
            moves: moves
                .into_iter()
                .map(|m| MoveView {
                    seat: m.seat,
                    action: ended.then_some(m.action),
                    latency_ms: m.latency_ms,
                    fault: m.fault,
                    comment: m.comment,
                })
                .collect(),
            result: record.result,
            error: record.error,
            created_at: rfc3339(record.created_at),
            started_at: record.started_at.map(rfc3339),
            finished_at: record.finished_at.map(rfc3339),
        })
    }

    /// Matches, newest first.
    pub async fn list_matches(&self, query: MatchQuery) -> Result<MatchList, ServiceError> {
        let filter = MatchFilter {
            game: query.game,
            bot: query.bot,
            statuses: Vec::new(),
            limit: query.limit.unwrap_or(50).clamp(1, 500),
        };
        let matches = self.inner.store.matches(&filter).await?;
        let ids: Vec<&str> = matches.iter().map(|m| m.id.as_str()).collect();
        let embargoed = self.inner.store.embargoed(&ids).await?;
        Ok(MatchList {
            matches: matches
                .iter()
                .map(|record| {
                    let mut row = summary(record);
                    // A tournament table's result waits for the other tables of its deal.
                    if embargoed.contains(&record.id) {
                        row.ranking = None;
                        row.faults = None;
                    }
                    row
                })
                .collect(),
        })
    }

    /// The leaderboard of a game.
    pub async fn leaderboard(&self, game: &str) -> Result<Leaderboard, ServiceError> {
        if engine::registry::find(game).is_none() {
            return Err(ServiceError::unknown_game(game));
        }
        let rows = self.inner.store.leaderboard(game).await?;
        let mut entries = Vec::new();
        for (i, row) in rows.into_iter().enumerate() {
            let name = self
                .inner
                .store
                .bot_any(&row.bot_id)
                .await?
                .map(|b| b.name)
                .unwrap_or_default();
            entries.push(LeaderboardEntry {
                rank: i + 1,
                bot: row.bot_id,
                name,
                display: row.rating.display(),
                mu: row.rating.mu,
                sigma: row.rating.sigma,
                games: row.played,
                wins: row.wins,
                draws: row.draws,
                losses: row.losses,
                faults: row.faults,
                played: row.played,
                last_match: row.last_match,
                last_played_at: rfc3339(row.updated_at),
            });
        }
        Ok(Leaderboard {
            game: game.to_string(),
            entries,
        })
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

/// A worker: claims matches from the database queue while it has a free slot, and plays each.
async fn work(runner: Runner, concurrency: usize, wake: Arc<Notify>, poll: Duration) {
    let store = runner.store.clone();
    let permits = Arc::new(Semaphore::new(concurrency.max(1)));
    loop {
        let Ok(permit) = permits.clone().acquire_owned().await else {
            return;
        };
        match store.claim_next(&runner.worker, runner.lease).await {
            Ok(Some(id)) => {
                let runner = runner.clone();
                tokio::spawn(async move {
                    match runner.play_claimed(&id, None).await {
                        Ok(Outcome::Finished(false)) => {
                            tracing::warn!(match_id = id, "match was already finished")
                        }
                        Ok(_) => {}
                        Err(error) if error.is::<crate::store::WriterStopped>() => {
                            tracing::info!(
                                match_id = id,
                                "match interrupted: the process is stopping; it resumes from its logged moves"
                            );
                        }
                        Err(error) => {
                            tracing::error!(
                                match_id = id,
                                error = format!("{error:#}"),
                                "match run failed"
                            );
                            // The match stays running: give up its lease so a worker (maybe
                            // this one) resumes it from its logged moves.
                            if let Err(error) =
                                runner.store.release_leases(&runner.worker, Some(&id)).await
                            {
                                tracing::warn!(
                                    match_id = id,
                                    error = format!("{error:#}"),
                                    "could not release the lease"
                                );
                            }
                            tokio::time::sleep(Duration::from_millis(200)).await;
                        }
                    }
                    drop(permit);
                });
            }
            Ok(None) => {
                drop(permit);
                tokio::select! {
                    _ = wake.notified() => {}
                    _ = tokio::time::sleep(poll) => {}
                }
            }
            Err(error) => {
                drop(permit);
                tracing::warn!(error = format!("{error:#}"), "claiming a match failed");
                tokio::time::sleep(poll).await;
            }
        }
    }
}

/// Renews this worker's leases every third of the lease, so they outlive a slow renewal.
async fn renew(store: Arc<dyn Store>, worker: String, lease: Duration) {
    let mut ticker = tokio::time::interval(lease / 3);
    loop {
        ticker.tick().await;
        if let Err(error) = store.renew_leases(&worker, lease).await {
            tracing::warn!(error = format!("{error:#}"), "renewing match leases failed");
        }
    }
}

fn dedup(items: Vec<String>) -> Vec<String> {
    let mut seen = HashSet::new();
    items
        .into_iter()
        .filter(|item| seen.insert(item.clone()))
        .collect()
}

fn summary(record: &MatchRecord) -> MatchSummary {
    MatchSummary {
        id: record.id.clone(),
        status: record.status,
        game: record.game.clone(),
        bots: record.bots.clone(),
        ranked: record.ranked,
        ranking: record.result.as_ref().and_then(|r| {
            serde_json::from_value(r.get("ranking").cloned().unwrap_or_default()).ok()
        }),
        faults: record.result.as_ref().and_then(|r| {
            serde_json::from_value(r.get("faults").cloned().unwrap_or_default()).ok()
        }),
        created_at: rfc3339(record.created_at),
        finished_at: record.finished_at.map(rfc3339),
    }
}
