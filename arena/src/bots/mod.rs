//! Bots: registration (probe, validation), owner tokens and secrets, public views, and the
//! health policy of bots that fail.

mod health;

pub use health::HealthPolicy;

use crate::client::{Fault, Target, hex};
use crate::dto::{BotView, GameRating};
use crate::problem::{ErrorCode, ServiceError};
use crate::store::{BotRecord, RatingRecord};
pub use crate::text::printable_name;
use crate::wire::BotInfo;
use sha2::{Digest, Sha256};

/// A fresh random secret: 32 random bytes in hex.
pub fn new_secret() -> String {
    hex(&rand::random::<[u8; 32]>())
}

/// A fresh id with a prefix: `b_` + 16 hex digits.
pub fn new_id(prefix: &str) -> String {
    format!("{prefix}_{}", hex(&rand::random::<[u8; 8]>()))
}

/// The stored form of an owner token: hex SHA-256.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// The bearer token of a request (a bot's owner token), if any.
pub fn bearer(request: &actix_web::HttpRequest) -> Option<&str> {
    request
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// True if `token` hashes to `stored`, compared in constant time.
pub fn token_matches(token: &str, stored: &str) -> bool {
    let computed = hash_token(token);
    let (a, b) = (computed.as_bytes(), stored.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Checks a name others see: a bot's, a person's at a table, a player's (issue 48; the rule is
/// docs/api.md's "Names"). 1 to 64 characters, in Unicode Normalization Form C (a decomposed
/// form is refused, not rewritten: the name stored is the one sent), none of them unprintable
/// (a control, format, private-use or unassigned character, or a line or paragraph separator:
/// bidi controls such as U+202E and zero-width characters such as U+200B are format
/// characters), no `<` or `>` (a name is text, never markup), not blank nor padded with spaces.
/// A refused character is 422 `invalid_name`, its `detail` naming it; a wrong length or a name
/// shaped like a bot id stays 400 `invalid_request`.
pub fn check_name(name: &str) -> Result<(), ServiceError> {
    check_shown_text("name", name)?;
    // Matches name bots by id or name: a name shaped like an id would be ambiguous.
    if name.len() == 18
        && name.starts_with("b_")
        && name[2..].bytes().all(|b| b.is_ascii_hexdigit())
    {
        return Err(ServiceError::invalid(
            "`name` must not look like a bot id (`b_` and 16 hex digits)",
        ));
    }
    Ok(())
}

/// Checks text others see under `field` (a name, a version) by [`check_name`]'s rule, the id
/// shape apart.
fn check_shown_text(field: &str, text: &str) -> Result<(), ServiceError> {
    use crate::text::unprintable;
    use unicode_normalization::is_nfc;
    let refuse = |why: String| Err(ServiceError::new(ErrorCode::InvalidName, why));
    let length = text.chars().count();
    if !(1..=64).contains(&length) {
        // A wrong length was 400 `invalid_request` before names had rules of their own: kept.
        return Err(ServiceError::invalid(format!(
            "`{field}` must be 1 to 64 printable characters (it has {length})"
        )));
    }
    if let Some(c) = text.chars().find(|&c| unprintable(c).is_some()) {
        let what = unprintable(c).unwrap_or_default();
        return refuse(format!(
            "`{field}` must be printable text: it contains U+{:04X}, {what}",
            u32::from(c)
        ));
    }
    if let Some(c) = text.chars().find(|c| matches!(c, '<' | '>')) {
        return refuse(format!(
            "`{field}` must not contain `{c}`: it is plain text, never markup"
        ));
    }
    if text.trim().is_empty() || text.trim() != text {
        return refuse(format!(
            "`{field}` must not be blank nor start or end with white space"
        ));
    }
    if !is_nfc(text) {
        return refuse(format!(
            "`{field}` must be in Unicode Normalization Form C (NFC): send composed characters \
             (`é` as U+00E9, not `e` followed by U+0301)"
        ));
    }
    Ok(())
}

/// Checks a version a stream bot reports through `PATCH`: [`check_name`]'s rule (a version is
/// shown beside the name).
pub fn check_version(version: &str) -> Result<(), ServiceError> {
    check_shown_text("version", version)
}

/// Checks a requested game list against the registry and the bot's own list.
pub fn check_games(games: &[String], info: &BotInfo) -> Result<(), ServiceError> {
    if games.is_empty() {
        return Err(ServiceError::invalid("`games` must name at least one game"));
    }
    for game in games {
        if engine::registry::find(game).is_none() {
            return Err(ServiceError::unknown_game(game));
        }
        if !info.games.contains(game) {
            return Err(ServiceError::new(
                ErrorCode::BotGameMismatch,
                format!("the bot's `GET /` does not list `{game}` in its `games`"),
            ));
        }
    }
    Ok(())
}

/// The problem for a bot that failed its probe.
pub fn probe_problem(url: &str, fault: &Fault) -> ServiceError {
    use crate::client::FaultKind;
    match fault.kind {
        FaultKind::BadJson => ServiceError::new(
            ErrorCode::BotNonconforming,
            format!(
                "GET {url}/ must answer {{\"name\", \"author\", \"version\", \"games\"}}: {}",
                fault.detail
            ),
        ),
        _ => ServiceError::new(
            ErrorCode::BotUnreachable,
            format!("GET {url}/ failed: {}", fault.detail),
        ),
    }
}

/// The call target of a stored bot.
pub fn target(bot: &BotRecord) -> Target {
    Target {
        url: bot.url.clone(),
        signing_secret: bot.signing_secret.clone(),
        previous_secret: bot.previous_secret.clone(),
    }
}

/// A bot's public view.
pub fn view(bot: &BotRecord, ratings: &[RatingRecord]) -> BotView {
    BotView {
        id: bot.id.clone(),
        name: bot.name.clone(),
        author: bot.author.clone(),
        version: bot.version.clone(),
        games: bot.games.clone(),
        builtin: bot.builtin,
        transport: bot.transport,
        history: bot.history,
        open_to_challenges: bot.open_to_challenges || bot.builtin,
        // The caller knows who is connected (one read for a whole list).
        connected: None,
        paused: bot.paused,
        pause_reason: bot.paused.then_some(bot.pause_reason).flatten(),
        trial_match: bot.trial_match.clone(),
        created_at: crate::dto::rfc3339(bot.created_at),
        ratings: ratings.iter().map(GameRating::from).collect(),
        recent_matches: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_stored_as_hashes_and_compared_exactly() {
        let token = new_secret();
        let stored = hash_token(&token);
        assert_ne!(stored, token);
        assert!(token_matches(&token, &stored));
        assert!(!token_matches("wrong", &stored));
        assert!(!token_matches("", &stored));
        assert_eq!(
            hash_token("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn a_version_follows_the_rule_of_names() {
        assert!(check_version("2.1.0-beta+7").is_ok());
        for bad in ["1.0\u{202E}", "<b>1</b>", " 1.0", "1\u{200B}"] {
            let refused = check_version(bad).expect_err(bad);
            assert_eq!(refused.code, ErrorCode::InvalidName, "{bad:?}");
            assert!(refused.detail.contains("`version`"), "{}", refused.detail);
        }
        assert_eq!(
            check_version(&"9".repeat(65)).expect_err("long").code,
            ErrorCode::InvalidRequest
        );
    }
}
