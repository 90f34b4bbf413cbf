//! Secrets stored sealed (issue 48): the bots' signing secrets (the current one and the one a
//! rotation replaced) and the tables' rematch secrets are written sealed under the arena's key
//! ([`crate::seal::StoredSecrets`]) and opened as they are read, so neither the database file nor
//! a backup of it holds one in the clear.
//!
//! Databases from before keep working: a plaintext value still reads as itself, and the first
//! start with a key seals every plaintext one ([`SqlStore::seal_stored_secrets`], each row
//! changed only if it still holds the value read, so a rotation meanwhile is never undone).

use super::{BotRecord, Columns, Pool, SqlStore, bot_row};
use crate::seal::{SealKey, StoredSecrets};

/// The owner a bot's sealed secrets are bound to.
pub(super) fn bot_owner(id: &str) -> String {
    format!("bot:{id}")
}

/// The owner a table's sealed rematch secret is bound to.
pub(super) fn table_owner(id: &str) -> String {
    format!("table:{id}")
}

/// What sealing the stored secrets found.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SealedSecrets {
    /// Plaintext secrets sealed now.
    pub sealed: u64,
    /// Bots whose sealed secret does not open under this key (sealed under a key since replaced
    /// with `--new-seal-key`): their owners must rotate it (`POST /v1/bots/{id}/secret`).
    pub unreadable_bots: u64,
    /// Tables whose rematch secret did not open: dropped (a new one is made when asked).
    pub dropped_rematch: u64,
}

impl SqlStore {
    /// Seals and opens stored secrets under `key` (the arena's seal key) from now on. The first
    /// key set stays.
    pub fn keep_secrets_under(&self, key: &SealKey) {
        let _ = self.secrets.set(StoredSecrets::new(key));
    }

    /// `secret` as stored for `owner`: sealed once the arena's key is set. A store no arena opened
    /// (the `db` tools, tests of the store alone) has no key and stores it as given.
    pub(super) fn seal_secret(&self, owner: &str, secret: &str) -> String {
        match self.secrets.get() {
            Some(secrets) => secrets.seal(owner, secret),
            None => secret.to_string(),
        }
    }

    /// The secret a stored value holds. One that does not open (sealed under a replaced key) is
    /// replaced by a fresh random value nobody knows: requests signed with it fail the bot's
    /// check, as they would with any secret but the bot's own.
    pub(super) fn open_secret(&self, owner: &str, stored: &str) -> String {
        let opened = match self.secrets.get() {
            Some(secrets) => secrets.open(owner, stored),
            None => (!StoredSecrets::is_sealed(stored)).then(|| stored.to_string()),
        };
        opened.unwrap_or_else(|| {
            tracing::debug!(owner, "a stored secret does not open under this seal key");
            crate::client::hex(&rand::random::<[u8; 32]>())
        })
    }

    /// A bot read from its row, its secrets opened.
    pub(super) fn bot_from(&self, row: &impl Columns) -> anyhow::Result<BotRecord> {
        let mut bot = bot_row(row)?;
        let owner = bot_owner(&bot.id);
        bot.signing_secret = self.open_secret(&owner, &bot.signing_secret);
        if let Some(previous) = &mut bot.previous_secret {
            previous.secret = self.open_secret(&owner, &previous.secret);
        }
        Ok(bot)
    }

    /// Seals every secret still stored in plaintext (a database from before secrets were
    /// sealed), counts the bots whose secret does not open, and drops the rematch secrets that
    /// do not. Needs the key ([`SqlStore::keep_secrets_under`]); without it, does nothing.
    pub async fn seal_stored_secrets(&self) -> anyhow::Result<SealedSecrets> {
        let Some(secrets) = self.secrets.get() else {
            return Ok(SealedSecrets::default());
        };
        let mut found = SealedSecrets::default();
        let bots: Vec<(String, String, Option<String>)> = on_pool!(&self.pool, p => {
            sqlx::query_as("SELECT id, signing_secret, previous_signing_secret FROM bots")
                .fetch_all(p)
                .await?
        });
        for (id, current, previous) in bots {
            let owner = bot_owner(&id);
            if StoredSecrets::is_sealed(&current) && secrets.open(&owner, &current).is_none() {
                found.unreadable_bots += 1;
            }
            let plain = |value: &str| !StoredSecrets::is_sealed(value);
            if !plain(&current) && !previous.as_deref().is_some_and(plain) {
                continue;
            }
            let seal = |value: &str| {
                if plain(value) {
                    secrets.seal(&owner, value)
                } else {
                    value.to_string()
                }
            };
            let changed = on_pool!(&self.pool, p => {
                sqlx::query(
                    "UPDATE bots SET signing_secret = $1, previous_signing_secret = $2 \
                     WHERE id = $3 AND signing_secret = $4 \
                     AND (previous_signing_secret = $5 \
                     OR (previous_signing_secret IS NULL AND $5 IS NULL))",
                )
                .bind(seal(&current))
                .bind(previous.as_deref().map(seal))
                .bind(&id)
                .bind(&current)
                .bind(&previous)
                .execute(p)
                .await?
                .rows_affected()
            });
            found.sealed += changed;
        }
        let tables: Vec<(String, String)> = on_pool!(&self.pool, p => {
            sqlx::query_as(
                "SELECT id, rematch_secret FROM tables WHERE rematch_secret IS NOT NULL",
            )
            .fetch_all(p)
            .await?
        });
        for (id, stored) in tables {
            let owner = table_owner(&id);
            let replacement = if !StoredSecrets::is_sealed(&stored) {
                Some(secrets.seal(&owner, &stored))
            } else if secrets.open(&owner, &stored).is_none() {
                None
            } else {
                continue;
            };
            let changed = on_pool!(&self.pool, p => {
                sqlx::query(
                    "UPDATE tables SET rematch_secret = $1 WHERE id = $2 AND rematch_secret = $3",
                )
                .bind(&replacement)
                .bind(&id)
                .bind(&stored)
                .execute(p)
                .await?
                .rows_affected()
            });
            match replacement {
                Some(_) => found.sealed += changed,
                None => found.dropped_rematch += changed,
            }
        }
        if found.sealed > 0 {
            // The log's copies of the pages that held them go too (SQLite).
            super::Store::checkpoint(self).await?;
        }
        Ok(found)
    }
}
