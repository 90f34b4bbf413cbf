//! Bots: registration (with a probe), updates by their owner, deletion, listing.

use super::{Arena, dedup, matches::summary};
use crate::bots::{
    self, check_games, check_name, check_version, hash_token, new_id, new_secret, probe_problem,
    token_matches,
};
use crate::client::{BUILTIN_SCHEME, FaultKind, Target};
use crate::dto::{BotList, BotQuery, BotView, RegisterBot, RegisteredBot, TokenRotated, UpdateBot};
use crate::paging;
use crate::problem::{ErrorCode, ServiceError};
use crate::safety::Refusal;
use crate::store::{
    BotHealth, BotRecord, MatchFilter, PauseReason, RatingRecord, Transport, now_ms,
};
use crate::wire::BotInfo;
use std::collections::HashMap;

impl Arena {
    async fn probe(&self, url: &str, secret: &str) -> Result<BotInfo, ServiceError> {
        let probed = self
            .inner
            .client
            .probe(
                &Target {
                    url: url.to_string(),
                    signing_secret: secret.to_string(),
                    ..Target::default()
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
        let (url, info) = match request.transport {
            Transport::Url => {
                let url = self.check_url(&request.url).await?;
                let info = self.probe(&url, &signing_secret).await?;
                (url, info)
            }
            Transport::Stream => {
                if !request.url.is_empty() {
                    return Err(ServiceError::invalid(
                        "a stream bot has no `url`: it connects out to GET /v1/bot/stream",
                    ));
                }
                (String::new(), stream_info(&request.name, ""))
            }
            Transport::Person => return Err(person_transport()),
        };
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
            previous_secret: None,
            builtin: false,
            transport: request.transport,
            paused: false,
            failures: 0,
            failing_since: None,
            retry_at: None,
            pause_reason: None,
            trial_match: None,
            created_at: now_ms(),
            history: request.history,
            open_to_challenges: request.open_to_challenges,
        };
        if !self.inner.store.insert_bot(&record).await? {
            return Err(ServiceError::name_taken(&record.name));
        }
        Ok(RegisteredBot {
            id: record.id.clone(),
            bot: bots::view(&record, &[]),
            url: (record.transport == Transport::Url).then_some(url),
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
                previous_secret: None,
                builtin: true,
                transport: Transport::Url,
                paused: false,
                failures: 0,
                failing_since: None,
                retry_at: None,
                pause_reason: None,
                trial_match: None,
                created_at: now_ms(),
                history: Default::default(),
                open_to_challenges: true,
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

    pub(super) async fn owned_bot(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<BotRecord, ServiceError> {
        let bot = self
            .inner
            .store
            .bot(id)
            .await?
            .ok_or_else(|| ServiceError::unknown_bot(id))?;
        match token {
            Some(token) if !bot.builtin && token_matches(token, &bot.token_hash) => Ok(bot),
            Some(token) => {
                self.check_token(Some(token)).await?;
                Err(ServiceError::unauthorized())
            }
            None => Err(ServiceError::unauthorized()),
        }
    }

    /// A bearer token sent must be valid wherever it is sent: the admin token, the owner
    /// token of a live bot or a player's token; 401 `invalid_token` otherwise (also on routes that work without a
    /// token, so a typo is never silently served as an anonymous request).
    pub async fn check_token(&self, token: Option<&str>) -> Result<(), ServiceError> {
        let Some(token) = token else {
            return Ok(());
        };
        if self.is_admin(Some(token))
            || self
                .inner
                .store
                .bot_by_token(&hash_token(token))
                .await?
                .is_some()
            || self.player_of_token(token).await?.is_some()
        {
            Ok(())
        } else {
            Err(ServiceError::invalid_token())
        }
    }

    /// Changes a bot: its owner changes anything but `paused` (the bot is probed again; a
    /// paused bot that answers gets its trial match at the ladder's next round); the admin
    /// renames, pauses and returns any registered bot ([`Arena::moderate_bot`]).
    pub async fn update_bot(
        &self,
        id: &str,
        token: Option<&str>,
        patch: UpdateBot,
    ) -> Result<BotView, ServiceError> {
        if self.is_admin(token) {
            return self.moderate_bot(id, patch).await;
        }
        let mut bot = self.owned_bot(id, token).await?;
        if patch.paused.is_some() {
            return Err(ServiceError::new(
                ErrorCode::Forbidden,
                "only the admin pauses or returns a bot: a paused bot returns to the ladder after a clean probe and trial match",
            ));
        }
        if let Some(name) = patch.name {
            self.rename(&mut bot, name).await?;
        }
        let info = match bot.transport {
            Transport::Url => {
                if let Some(url) = patch.url {
                    bot.url = self.check_url(&url).await?;
                }
                self.probe(&bot.url, &bot.signing_secret).await?
            }
            Transport::Stream => {
                if patch.url.is_some() {
                    return Err(ServiceError::invalid(
                        "a stream bot has no `url`: it connects out to GET /v1/bot/stream",
                    ));
                }
                let version = match &patch.version {
                    Some(version) => {
                        check_version(version)?;
                        version.as_str()
                    }
                    None => bot.version.as_str(),
                };
                stream_info(&bot.name, version)
            }
            Transport::Person => return Err(person_transport()),
        };
        if patch.version.is_some() && bot.transport != Transport::Stream {
            return Err(ServiceError::invalid(
                "a bot the arena calls reports its `version` at `GET /` (read at every probe): only a stream bot sets it here",
            ));
        }
        if let Some(history) = patch.history {
            bot.history = history;
        }
        if let Some(open) = patch.open_to_challenges {
            bot.open_to_challenges = open;
        }
        if let Some(games) = patch.games {
            check_games(&games, &info)?;
            bot.games = dedup(games);
        } else {
            check_games(&bot.games, &info)?;
        }
        bot.author = info.author;
        bot.version = info.version;
        // It answered: a failing bot's streak ends; a paused one is tried at the ladder's next
        // round (a trial match decides whether it returns), without waiting for its back-off.
        if !bot.paused {
            bot.failures = 0;
            bot.failing_since = None;
        }
        bot.retry_at = None;
        if !self.inner.store.update_bot(&bot).await? {
            return Err(ServiceError::name_taken(&bot.name));
        }
        let ratings = self.inner.store.bot_ratings(&bot.id).await?;
        Ok(bots::view(&bot, &ratings))
    }

    /// Gives `bot` a new name (checked, and free among live bots); stored by the caller.
    async fn rename(&self, bot: &mut BotRecord, name: String) -> Result<(), ServiceError> {
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
        Ok(())
    }

    /// The admin's changes to a registered bot: `name`, and `paused` (`true`: off the ladder
    /// with `pause_reason` `moderated`, no trial match returns it; `false`: back, its health
    /// cleared). No probe: the bot may be down. Other fields are its owner's.
    async fn moderate_bot(&self, id: &str, patch: UpdateBot) -> Result<BotView, ServiceError> {
        let mut bot = self
            .inner
            .store
            .bot(id)
            .await?
            .ok_or_else(|| ServiceError::unknown_bot(id))?;
        if bot.builtin {
            return Err(ServiceError::new(
                ErrorCode::Forbidden,
                "the built-in bots are part of the arena: they are not renamed, paused or deleted",
            ));
        }
        let UpdateBot {
            name,
            paused,
            url: None,
            games: None,
            history: None,
            version: None,
            open_to_challenges: None,
        } = patch
        else {
            return Err(ServiceError::invalid(
                "with the admin token a bot's `name` and `paused` change; the rest is its owner's",
            ));
        };
        if let Some(name) = name {
            self.rename(&mut bot, name).await?;
        }
        let health = match paused {
            Some(true) => Some(BotHealth {
                paused: true,
                pause_reason: Some(PauseReason::Moderated),
                retry_at: None,
                trial_match: None,
                ..bot.health()
            }),
            Some(false) => Some(BotHealth::default()),
            None => None,
        };
        if let Some(health) = health {
            bot.paused = health.paused;
            bot.failures = health.failures;
            bot.failing_since = health.failing_since;
            bot.retry_at = health.retry_at;
            bot.pause_reason = health.pause_reason;
            bot.trial_match = health.trial_match;
        }
        if !self.inner.store.update_bot(&bot).await? {
            return Err(ServiceError::name_taken(&bot.name));
        }
        tracing::info!(
            bot = bot.id,
            name = bot.name,
            paused = bot.paused,
            "bot moderated"
        );
        let ratings = self.inner.store.bot_ratings(&bot.id).await?;
        Ok(bots::view(&bot, &ratings))
    }

    /// Deletes a bot (its owner, or the admin for any registered bot). Its past matches and
    /// ratings history stay; its token and stream connection stop at once.
    pub async fn delete_bot(&self, id: &str, token: Option<&str>) -> Result<(), ServiceError> {
        let bot = if self.is_admin(token) {
            let bot = self
                .inner
                .store
                .bot(id)
                .await?
                .ok_or_else(|| ServiceError::unknown_bot(id))?;
            if bot.builtin {
                return Err(ServiceError::new(
                    ErrorCode::Forbidden,
                    "the built-in bots are part of the arena: they are not renamed, paused or deleted",
                ));
            }
            bot
        } else {
            self.owned_bot(id, token).await?
        };
        self.inner.store.delete_bot(&bot.id).await?;
        self.inner.metrics.forget_bot(&bot.id);
        self.revoke_token(&bot.id).await?;
        Ok(())
    }

    /// Gives a bot a new owner token (owner only): the previous one stops at once, in every
    /// process, and the stream connection it opened ends.
    pub async fn rotate_token(
        &self,
        id: &str,
        token: Option<&str>,
    ) -> Result<TokenRotated, ServiceError> {
        let bot = self.owned_bot(id, token).await?;
        let token = new_secret();
        if !self
            .inner
            .store
            .set_bot_token(&bot.id, &hash_token(&token))
            .await?
        {
            return Err(ServiceError::unknown_bot(id));
        }
        self.revoke_token(&bot.id).await?;
        tracing::info!(bot = bot.id, "owner token replaced");
        Ok(TokenRotated { id: bot.id, token })
    }

    /// A page of live bots in the order they registered, with their ratings: three queries
    /// whatever the page's size (`query.connected`: only the stream bots connected now, or not).
    pub async fn list_bots(&self, query: BotQuery) -> Result<BotList, ServiceError> {
        let limit = paging::limit(query.limit, 100);
        let rows = self
            .inner
            .store
            .bots_after(paging::after(query.cursor.as_deref())?, limit + 1)
            .await?;
        let (page, next) = paging::page(rows, limit, |bot| (bot.created_at, bot.id.clone()));
        let ids: Vec<String> = page.iter().map(|bot| bot.id.clone()).collect();
        let mut ratings: HashMap<String, Vec<RatingRecord>> = HashMap::new();
        for rating in self.inner.store.ratings_of_bots(&ids).await? {
            ratings
                .entry(rating.bot_id.clone())
                .or_default()
                .push(rating);
        }
        let connected = self.inner.store.connected_bots().await?;
        let bots = page
            .iter()
            .map(|bot| {
                let mut view = bots::view(bot, ratings.get(&bot.id).map_or(&[][..], Vec::as_slice));
                view.connected = connected_view(bot, &connected);
                view
            })
            .filter(|view| query.connected.is_none() || view.connected == query.connected)
            .collect();
        Ok(BotList {
            bots,
            next_cursor: next,
        })
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
        view.connected = connected_view(&bot, &self.inner.store.connected_bots().await?);
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
}

/// Whether a stream bot is connected (None for the bots the arena calls).
fn connected_view(bot: &BotRecord, connected: &std::collections::HashSet<String>) -> Option<bool> {
    (bot.transport == Transport::Stream).then(|| connected.contains(&bot.id))
}

/// What a stream bot stands for (it answers no `GET /`): its name, the version its owner set,
/// and every game the arena serves, so each requested game is checked against the catalog only.
fn stream_info(name: &str, version: &str) -> BotInfo {
    BotInfo {
        name: name.to_string(),
        author: String::new(),
        version: version.to_string(),
        games: engine::registry::games()
            .iter()
            .map(|g| g.info().id.clone())
            .collect(),
    }
}

/// `invalid_request`: `person` is the transport of people's seats at tables, never a bot's.
fn person_transport() -> ServiceError {
    ServiceError::invalid(
        "`person` is the transport of people's seats at a table (POST /v1/tables): a bot is `url` or `stream`",
    )
}
