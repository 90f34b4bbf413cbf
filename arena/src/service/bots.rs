//! Bots: registration (with a probe), updates by their owner, deletion, listing.

use super::{Arena, dedup, matches::summary};
use crate::bots::{
    self, check_games, check_name, hash_token, new_id, new_secret, probe_problem, token_matches,
};
use crate::client::{BUILTIN_SCHEME, FaultKind, Target};
use crate::dto::{BotList, BotQuery, BotView, RegisterBot, RegisteredBot, UpdateBot};
use crate::paging;
use crate::problem::{ErrorCode, ServiceError};
use crate::safety::Refusal;
use crate::store::{BotRecord, MatchFilter, RatingRecord, Transport, now_ms};
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
                (String::new(), stream_info(&request.name))
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

    /// A bearer token sent must be valid wherever it is sent: the admin token or the owner
    /// token of a live bot; 401 `invalid_token` otherwise (also on routes that work without a
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
        {
            Ok(())
        } else {
            Err(ServiceError::invalid_token())
        }
    }

    /// Changes a bot (owner only); the bot is probed again. A paused bot that answers gets its
    /// trial match at the ladder's next round.
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
                stream_info(&bot.name)
            }
            Transport::Person => return Err(person_transport()),
        };
        if let Some(history) = patch.history {
            bot.history = history;
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

    /// Deletes a bot (owner only). Its past matches and ratings history stay.
    pub async fn delete_bot(&self, id: &str, token: Option<&str>) -> Result<(), ServiceError> {
        let bot = self.owned_bot(id, token).await?;
        self.inner.store.delete_bot(&bot.id).await?;
        // Its token stops answering at once in this process (other processes: within the
        // cache's few seconds).
        self.inner.stream_tokens.clear();
        Ok(())
    }

    /// A page of live bots in the order they registered, with their ratings: two queries
    /// whatever the page's size.
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
        let bots = page
            .iter()
            .map(|bot| bots::view(bot, ratings.get(&bot.id).map_or(&[][..], Vec::as_slice)))
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

/// What a stream bot stands for at registration (it answers no `GET /`): its name, and every
/// game the arena serves, so each requested game is checked against the catalog only.
fn stream_info(name: &str) -> BotInfo {
    BotInfo {
        name: name.to_string(),
        author: String::new(),
        version: String::new(),
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
