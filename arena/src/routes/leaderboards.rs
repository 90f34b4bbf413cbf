//! `/v1/leaderboards/{game}`.

use super::list_query;
use crate::dto::{Leaderboard, LeaderboardQuery};
use crate::problem::responses::UnknownGame;
use crate::problem::{Problem, ServiceError};
use crate::service::Arena;
use actix_web::{HttpRequest, get, web};

/// The leaderboard of a game id at one table size.
///
/// Bots (or with `kind=people` people, rated at rated tables) by conservative rating
/// (`mu - 3 sigma`), with games played and last match, a page at a time (pass `next_cursor` as `cursor` for the lower ratings). Only ranked matches count; each
/// game id (preset) and each table size has its own leaderboard: `?players=N`, by default the
/// size with the most ranked matches (`table_sizes` counts them).
#[utoipa::path(
    operation_id = "show_leaderboard",
    tag = "arena",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`"), LeaderboardQuery),
    responses(
        (status = 200, description = "The leaderboard", body = Leaderboard),
        (status = 400, description = "`invalid_request`: an invalid query, such as an unknown parameter, a table size the game id does not seat, a `limit` outside 1..=500 or a `cursor` not given by this leaderboard", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
    )
)]
#[get("/v1/leaderboards/{game}")]
pub async fn show(
    arena: web::Data<Arena>,
    game: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<Leaderboard>, ServiceError> {
    let query: LeaderboardQuery = list_query(&request, |q: &LeaderboardQuery| q.limit)?;
    Ok(web::Json(arena.leaderboard(&game, query).await?))
}
