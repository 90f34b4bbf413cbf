//! "Play again": a table's rematch, asked for by any seat holding its key once the match is
//! over. A new table of the same seats (the same bots, players and invited people, the same
//! game, options, clock, pace and rating; a new seed), one per table: every seat that asks gets
//! the same rematch. Its person seats' keys are derived from a secret of the old table and each
//! seat's old key hash, so the arena can give every asking seat the links again (invitations
//! renewed) while keeping only hashes of the new keys.

use super::Arena;
use super::tables::{Rematch, seat_of_key};
use crate::bots::hash_token;
use crate::limits::Meter;
use crate::problem::{ErrorCode, ServiceError};
use crate::store::{Creator, MatchStatus, SeatKind};
use crate::tables::{
    CreateTable, CreatedSeat, SeatKey, SeatRequest, TableCreated, join_url, watch_url,
};

/// The key of `seat` at the rematch of a table whose rematch secret is `secret`, from the
/// seat's old key hash.
fn rematch_key(secret: &str, seat: usize, old_key_hash: &str) -> String {
    hash_token(&format!("rematch:{secret}:{seat}:{old_key_hash}"))
}

impl Arena {
    /// The rematch of table `id` for the seat `request` proves (its key): opened by the first
    /// seat that asks (true), the same table for every later one (false). 409 `match_underway`
    /// while the table's match is not over.
    pub async fn rematch_table(
        &self,
        id: &str,
        request: SeatKey,
        creator: Creator,
    ) -> Result<(TableCreated, bool), ServiceError> {
        self.rematch_table_metered(id, request, creator, &Meter::unmetered())
            .await
    }

    /// [`Arena::rematch_table`] for an HTTP request: a new table is charged to `meter` (the
    /// client's rate limit) before it is stored.
    pub async fn rematch_table_metered(
        &self,
        id: &str,
        request: SeatKey,
        creator: Creator,
        meter: &Meter<'_>,
    ) -> Result<(TableCreated, bool), ServiceError> {
        let (table, record) = self.table_and_match(id).await?;
        seat_of_key(&table, &request.key, Some(request.seat))?;
        if !matches!(record.status, MatchStatus::Finished | MatchStatus::Aborted) {
            return Err(ServiceError::new(
                ErrorCode::MatchUnderway,
                format!("table `{id}` is still playing: ask to play again once its match is over"),
            ));
        }
        let secret = self.inner.store.rematch_secret(id).await?;
        let keys: Vec<Option<String>> = table
            .seats
            .iter()
            .map(|s| match s.kind {
                SeatKind::Bot => None,
                _ => s
                    .key_hash
                    .as_deref()
                    .map(|hash| rematch_key(&secret, s.seat, hash)),
            })
            .collect();
        if let Some(existing) = &table.rematch {
            return Ok((self.rematch_answer(existing, &keys).await?, false));
        }
        let seats = table
            .seats
            .iter()
            .map(|s| match (s.kind, &s.player_id) {
                (SeatKind::Bot, _) => SeatRequest::Bot(record.bots[s.seat].clone()),
                (_, Some(player)) => SeatRequest::Player(player.clone()),
                // An open seat someone took is theirs again, under the name they chose.
                _ => SeatRequest::Human(s.name.clone()),
            })
            .collect();
        let options = match &record.options {
            serde_json::Value::Object(map) if !map.is_empty() && !record.ranked => {
                Some(map.clone())
            }
            _ => None,
        };
        let again = CreateTable {
            game: record.game.clone(),
            players: table.seats.len(),
            options,
            seats,
            seed: None,
            clock: record.clock,
            pace_ms: Some(table.pace_ms),
            rated: Some(record.ranked),
        };
        let rematch = Rematch {
            of: id.to_string(),
            keys: keys.clone(),
        };
        if let Some(created) = self
            .open_table(again, creator, Some(&rematch), meter)
            .await?
        {
            tracing::info!(table = id, rematch = created.id, "rematch opened");
            return Ok((created, true));
        }
        // Another seat opened it meanwhile.
        let (table, _) = self.table_and_match(id).await?;
        let existing = table.rematch.ok_or_else(|| {
            ServiceError::from(anyhow::anyhow!(
                "table `{id}` lost its rematch race to none"
            ))
        })?;
        Ok((self.rematch_answer(&existing, &keys).await?, false))
    }

    /// The rematch `rematch_id` as its creator saw it: every person seat with its link.
    async fn rematch_answer(
        &self,
        rematch_id: &str,
        keys: &[Option<String>],
    ) -> Result<TableCreated, ServiceError> {
        let (table, _) = self.table_and_match(rematch_id).await?;
        Ok(TableCreated {
            watch_url: watch_url(&table.id),
            match_id: table.match_id.clone(),
            seats: table
                .seats
                .iter()
                .map(|s| CreatedSeat {
                    seat: s.seat,
                    kind: s.kind,
                    name: s.name.clone(),
                    join_url: keys
                        .get(s.seat)
                        .cloned()
                        .flatten()
                        .filter(|_| s.kind != SeatKind::Bot)
                        .map(|key| join_url(&table.id, s.seat, &key)),
                })
                .collect(),
            id: table.id,
        })
    }
}
