//! Duplicate tournaments: creation, one tournament with its standings, the list.

use super::matches::Actor;
use super::{Arena, Caller};
use crate::bots::new_id;
use crate::commitment;
use crate::dto::{
    CreateMatch, CreateTournament, SeatView, TournamentCancelled, TournamentCreated,
    TournamentList, TournamentMatchView, TournamentQuery, TournamentStatus, TournamentSummary,
    TournamentView, rfc3339,
};
use crate::limits::Meter;
use crate::live::LiveEnd;
use crate::paging;
use crate::problem::{ErrorCode, ServiceError};
use crate::store::{
    AbortReason, Cancelled, Creator, MatchRecord, MatchStatus, TournamentMatch, TournamentRecord,
    deal_seed,
};
use crate::tournament;

impl Arena {
    /// Queues a duplicate tournament for `creator` (every seated bot must consent to it): each
    /// deal once per distinct rotation of the seats, every rotation of a deal with the same seed
    /// (the same cards in the same seats), all stored in one transaction. The workers never run
    /// two tables of one deal that share a bot at the same time (see `Store::claim_next`).
    ///
    /// Every table counts: more than `--max-tournament-matches` need the admin token (403
    /// `admin_required`), and all of them are charged to the client's cap of queued matches and
    /// rate limit (429 `queue_full`, `rate_limited`) before anything is stored.
    pub async fn create_tournament(
        &self,
        request: CreateTournament,
        creator: Creator,
        meter: &Meter<'_>,
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
                    ranked: Some(false),
                    deadline_ms: request.deadline_ms,
                    ..CreateMatch::default()
                },
                creator.clone(),
            )
            .await?;
        let seatings = tournament::rotations(&template.bots, seat_rotations);
        let tables = request.deals as usize * seatings.len();
        self.check_tournament_size(&creator, tables)?;
        let admitted = self
            .admit(
                &creator,
                false,
                u32::try_from(tables).unwrap_or(u32::MAX),
                meter,
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
        let mut matches = Vec::with_capacity(tables);
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
                        // Each table its own salt: a salt revealed at one table's end must not
                        // help search the seed of a table still playing.
                        seed_salt: Some(commitment::new_salt()),
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
        drop(admitted);
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

    /// Cancels a tournament's open tables. The admin: every queued or running table. A bot's
    /// owner: withdraws the bot from the tables not yet started (no move played), so a running
    /// table is never aborted by a player who may be losing it; 409 `match_underway` if only
    /// started tables of its bot are left, `match_finished` if none is. The client that
    /// created it: every table still waiting for a worker (409 `match_underway` if only
    /// started ones are left).
    pub async fn cancel_tournament(
        &self,
        id: &str,
        caller: Caller<'_>,
    ) -> Result<TournamentCancelled, ServiceError> {
        let tournament = self.inner.store.get_tournament(id).await?.ok_or_else(|| {
            ServiceError::new(
                ErrorCode::UnknownTournament,
                format!("there is no tournament `{id}`"),
            )
        })?;
        let tables = self.inner.store.tournament_matches(id).await?;
        // Every table has the tournament's creator.
        let created_by = tables.first().and_then(|t| t.record.creator.as_ref());
        let actor = self
            .authorize_or_creator(caller, &tournament.bots, created_by)
            .await?;
        let withdrawn = match &actor {
            Actor::Admin | Actor::Creator => None,
            Actor::Owner(bot) => Some(bot.clone()),
        };
        let detail = match &withdrawn {
            None => format!("cancelled by {actor} with its tournament {id}"),
            Some(bot) => format!("bot {bot} withdrawn from tournament {id} by its owner"),
        };
        let mut cancelled = 0;
        let mut underway = false;
        for table in tables {
            let record = &table.record;
            if crate::tournament::over(record.status) {
                continue;
            }
            // The owner's bot's tables only, and only before anyone moved there.
            let unmoved: Vec<usize> = match &withdrawn {
                None => Vec::new(),
                Some(bot) if record.bots.contains(bot) => (0..record.bots.len()).collect(),
                Some(_) => continue,
            };
            let outcome = if actor == Actor::Creator {
                self.inner.store.cancel_waiting(&record.id, &detail).await?
            } else {
                self.inner
                    .store
                    .cancel_match(&record.id, &detail, &unmoved)
                    .await?
            };
            match outcome {
                Cancelled::Cancelled => {
                    cancelled += 1;
                    self.inner.metrics.match_aborted(AbortReason::Cancelled);
                    self.inner
                        .live
                        .close(
                            &record.id,
                            LiveEnd {
                                status: MatchStatus::Aborted,
                                result: None,
                                error: Some(detail.clone()),
                            },
                        )
                        .await;
                }
                Cancelled::Underway => underway = true,
                Cancelled::Over => {}
            }
        }
        if cancelled == 0 && underway {
            return Err(ServiceError::new(
                ErrorCode::MatchUnderway,
                format!(
                    "every open table of tournament `{id}` you may cancel has started: a bot is withdrawn only from tables not yet started, its creator cancels only tables still queued (the admin may still cancel)"
                ),
            ));
        }
        if cancelled == 0 {
            return Err(ServiceError::new(
                ErrorCode::MatchFinished,
                format!("every table of tournament `{id}` is already over: nothing to cancel"),
            ));
        }
        tracing::info!(tournament = id, by = %actor, cancelled, "tournament tables cancelled");
        Ok(TournamentCancelled {
            id: id.to_string(),
            cancelled,
            withdrawn,
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
                player: None,
                reported_name: None,
                version: None,
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
        let limit = paging::limit(query.limit, 50);
        let before = paging::after(query.cursor.as_deref())?;
        let rows = self.inner.store.tournaments(before, limit + 1).await?;
        let (tournaments, next_cursor) =
            paging::page(rows, limit, |t| (t.created_at, t.id.clone()));
        Ok(TournamentList {
            next_cursor,
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
}
