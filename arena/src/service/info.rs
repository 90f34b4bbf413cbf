//! The positions `info` tokens name (see [`crate::seal::Sealer::seal_info`]): the rules API's
//! `/determinize` and `/rollouts` rebuild them from the match's stored moves, whichever process
//! played the match. A bot that searches sends the same token many times while it thinks: the
//! positions rebuilt last are kept a little while.

use super::Arena;
use crate::problem::{ErrorCode, ServiceError};
use crate::seal::{InfoClaims, Sealer};
use dashmap::DashMap;
use engine::{Game, Match};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The positions kept at most (each a few KB of MessagePack).
const CACHED_POSITIONS: usize = 1024;
/// How long a rebuilt position is kept: a move's deadline is at most a minute.
const CACHE_TTL: Duration = Duration::from_secs(60);

/// Rebuilt positions by token, as MessagePack with their claims.
#[derive(Debug, Default)]
pub struct InfoCache {
    positions: DashMap<String, (Instant, Arc<[u8]>, InfoClaims)>,
}

impl InfoCache {
    fn get(&self, token: &str) -> Option<(Arc<[u8]>, InfoClaims)> {
        let entry = self.positions.get(token)?;
        let (at, state, claims) = entry.value();
        (at.elapsed() < CACHE_TTL).then(|| (state.clone(), claims.clone()))
    }

    fn put(&self, token: &str, state: Arc<[u8]>, claims: InfoClaims) {
        if self.positions.len() >= CACHED_POSITIONS {
            self.positions
                .retain(|_, (at, _, _)| at.elapsed() < CACHE_TTL);
            if self.positions.len() >= CACHED_POSITIONS {
                self.positions.clear();
            }
        }
        self.positions
            .insert(token.to_string(), (Instant::now(), state, claims));
    }
}

impl Arena {
    /// The position an `info` token names, for `game`, and whose it is. Refused as
    /// `invalid_info` when the token is malformed, its tag is not this arena's for its claims
    /// (changed, cut, or another arena's), it is of another game, or the match's moves are no
    /// longer kept.
    pub async fn open_info(
        &self,
        game: &dyn Game,
        token: &str,
    ) -> Result<(Box<dyn Match>, InfoClaims), ServiceError> {
        if let Some((state, claims)) = self.inner.info_cache.get(token) {
            return Ok((game_of(game, &claims)?.load_msgpack(&state)?, claims));
        }
        let refused = |why: String| ServiceError::new(ErrorCode::InvalidInfo, why);
        let (mut claims, tag) = Sealer::read_info(token)?;
        let forged = || {
            refused(
                "the `info` token was modified or truncated, or sealed by another arena: send the `info` of a move request exactly as the arena sent it".into(),
            )
        };
        let Some(record) = self.inner.store.get_match(&claims.match_id).await? else {
            return Err(forged());
        };
        claims.game = record.game.clone();
        if !self.inner.sealer.check_info(&claims, tag) {
            return Err(forged());
        }
        game_of(game, &claims)?;
        let mut moves = self.inner.store.moves(&claims.match_id).await?;
        if record.moves_pruned || moves.len() < claims.moves {
            return Err(refused(format!(
                "match {} no longer keeps its moves: its positions cannot be rebuilt",
                claims.match_id
            )));
        }
        moves.truncate(claims.moves);
        let rebuilt = crate::replay::logged(&record, &mut moves).map_err(|error| {
            ServiceError::new(
                ErrorCode::Internal,
                format!("match {} does not replay: {error}", claims.match_id),
            )
        })?;
        let mut state = Vec::with_capacity(4096);
        rebuilt
            .game
            .save_msgpack(&mut state)
            .map_err(|error| ServiceError::new(ErrorCode::Internal, error))?;
        self.inner
            .info_cache
            .put(token, state.into(), claims.clone());
        Ok((rebuilt.game, claims))
    }
}

/// `game` if the claims are of it (`invalid_info` naming the right one otherwise).
fn game_of<'g>(game: &'g dyn Game, claims: &InfoClaims) -> Result<&'g dyn Game, ServiceError> {
    let id = &game.info().id;
    if &claims.game != id {
        return Err(ServiceError::new(
            ErrorCode::InvalidInfo,
            format!(
                "this `info` token is of a `{}` match, not `{id}`: send it to /v1/games/{}/...",
                claims.game, claims.game
            ),
        ));
    }
    Ok(game)
}
