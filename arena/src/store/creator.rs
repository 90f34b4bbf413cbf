//! Who created a match: kept on every match row, so consent, health, the fault list and the
//! queue's fairness between clients all know whose request it was.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What kind of client created a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CreatorKind {
    /// The ranked ladder (its trial matches of paused bots included).
    Ladder,
    /// A request with the server's admin token.
    Admin,
    /// A request with a bot's owner token (the bot is named).
    Owner,
    /// A request without a token the arena knows: an anonymous client, keyed by its address.
    Client,
}

impl CreatorKind {
    /// The stored (and wire) name.
    pub fn as_str(self) -> &'static str {
        match self {
            CreatorKind::Ladder => "ladder",
            CreatorKind::Admin => "admin",
            CreatorKind::Owner => "owner",
            CreatorKind::Client => "client",
        }
    }

    /// From the stored name.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "ladder" => CreatorKind::Ladder,
            "admin" => CreatorKind::Admin,
            "owner" => CreatorKind::Owner,
            "client" => CreatorKind::Client,
            _ => return None,
        })
    }
}

/// Who created a match: its kind, the bot whose owner token it held, and a stable key of the
/// client (`ladder`, `admin`, `bot:<id>`, `addr:<ip>`) that every match of the same client
/// shares: what a queue fair between clients, or a cap per client, counts by.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Creator {
    /// The kind of client.
    pub kind: CreatorKind,
    /// With [`CreatorKind::Owner`]: the bot whose owner token the request held.
    pub bot: Option<String>,
    /// The stable key of the client.
    pub key: String,
}

impl Creator {
    /// The ladder.
    pub fn ladder() -> Creator {
        Creator {
            kind: CreatorKind::Ladder,
            bot: None,
            key: "ladder".into(),
        }
    }

    /// The admin (its token, or the process itself: `cardroom play`, tools, tests).
    pub fn admin() -> Creator {
        Creator {
            kind: CreatorKind::Admin,
            bot: None,
            key: "admin".into(),
        }
    }

    /// The holder of `bot_id`'s owner token.
    pub fn owner(bot_id: &str) -> Creator {
        Creator {
            kind: CreatorKind::Owner,
            bot: Some(bot_id.to_string()),
            key: format!("bot:{bot_id}"),
        }
    }

    /// An anonymous client, by its address (None: unknown, one key for all such clients).
    pub fn client(address: Option<std::net::IpAddr>) -> Creator {
        Creator {
            kind: CreatorKind::Client,
            bot: None,
            key: match address {
                Some(address) => format!("addr:{address}"),
                None => "addr:unknown".into(),
            },
        }
    }

    /// Whether faults in a match this client created count toward `bot_id`'s ladder health:
    /// only the ladder's and the bot owner's own matches do.
    pub fn counts_for(&self, bot_id: &str) -> bool {
        match self.kind {
            CreatorKind::Ladder => true,
            CreatorKind::Owner => self.bot.as_deref() == Some(bot_id),
            CreatorKind::Admin | CreatorKind::Client => false,
        }
    }

    /// From the stored columns (None when the kind is absent or unknown).
    pub fn from_columns(
        kind: Option<&str>,
        bot: Option<String>,
        key: Option<String>,
    ) -> Option<Self> {
        let kind = CreatorKind::parse(kind?)?;
        Some(Creator {
            kind,
            bot,
            key: key.unwrap_or_default(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_ladders_and_the_owners_own_matches_count_for_a_bot() {
        assert!(Creator::ladder().counts_for("b_1"));
        assert!(Creator::owner("b_1").counts_for("b_1"));
        assert!(!Creator::owner("b_2").counts_for("b_1"));
        assert!(!Creator::admin().counts_for("b_1"));
        let client = Creator::client(Some("10.0.0.7".parse().expect("address")));
        assert!(!client.counts_for("b_1"));
        assert_eq!(client.key, "addr:10.0.0.7");
        assert_eq!(Creator::owner("b_1").key, "bot:b_1");
        let stored =
            Creator::from_columns(Some("owner"), Some("b_1".into()), Some("bot:b_1".into()));
        assert_eq!(stored, Some(Creator::owner("b_1")));
        assert_eq!(Creator::from_columns(None, None, None), None);
    }
}
