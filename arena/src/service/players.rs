//! People as players: creation, a player's page, and who holds a player token.

use super::Arena;
use crate::bots::{check_name, hash_token, new_id, new_secret};
use crate::dto::{GameRating, rfc3339};
use crate::players::{CreatePlayer, PlayerCreated, PlayerView, RECENT_TABLES};
use crate::problem::{ErrorCode, ServiceError};
use crate::store::now_ms;
use crate::store::players::PlayerRecord;

/// Whether `text` is shaped like a player id (`p_` and 16 hex digits).
fn looks_like_player_id(text: &str) -> bool {
    text.len() == 18 && text.starts_with("p_") && text[2..].bytes().all(|b| b.is_ascii_hexdigit())
}

/// 404 `unknown_player`.
pub fn unknown_player(id: &str) -> ServiceError {
    ServiceError::new(
        ErrorCode::UnknownPlayer,
        format!("there is no player `{id}`"),
    )
}

impl Arena {
    /// Creates a player: a checked, unique name and a fresh token (only its hash is kept).
    pub async fn create_player(
        &self,
        request: CreatePlayer,
    ) -> Result<PlayerCreated, ServiceError> {
        check_name(&request.name)?;
        if looks_like_player_id(&request.name) {
            return Err(ServiceError::invalid(
                "`name` must not look like a player id (`p_` and 16 hex digits)",
            ));
        }
        let token = new_secret();
        let player = PlayerRecord {
            id: new_id("p"),
            name: request.name,
            token_hash: hash_token(&token),
            created_at: now_ms(),
        };
        if !self.inner.store.insert_player(&player).await? {
            return Err(ServiceError::new(
                ErrorCode::PlayerNameTaken,
                format!(
                    "a player is named `{}` already: choose another name",
                    player.name
                ),
            ));
        }
        tracing::info!(player = player.id, "player created");
        Ok(PlayerCreated {
            id: player.id,
            name: player.name,
            token,
        })
    }

    /// A player, or 404 `unknown_player`.
    pub async fn player_record(&self, id: &str) -> Result<PlayerRecord, ServiceError> {
        self.inner
            .store
            .player(id)
            .await?
            .ok_or_else(|| unknown_player(id))
    }

    /// The player holding `token`, if any.
    pub async fn player_of_token(&self, token: &str) -> Result<Option<PlayerRecord>, ServiceError> {
        Ok(self.inner.store.player_by_token(&hash_token(token)).await?)
    }

    /// A player as anyone may see them: name, ratings and recent tables.
    pub async fn get_player(&self, id: &str) -> Result<PlayerView, ServiceError> {
        let player = self.player_record(id).await?;
        let ratings = self.inner.store.player_ratings(id).await?;
        let tables = self.inner.store.player_tables(id, RECENT_TABLES).await?;
        Ok(PlayerView {
            id: player.id,
            name: player.name,
            created_at: rfc3339(player.created_at),
            ratings: ratings.iter().map(GameRating::from).collect(),
            tables: tables.iter().map(super::tables::listed_view).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::looks_like_player_id;

    #[test]
    fn a_name_shaped_like_a_player_id_is_told_apart() {
        assert!(looks_like_player_id("p_0123456789abcdef"));
        assert!(!looks_like_player_id("p_0123456789abcdeg"));
        assert!(!looks_like_player_id("Anna"));
        assert!(!looks_like_player_id("p_0123"));
    }
}
