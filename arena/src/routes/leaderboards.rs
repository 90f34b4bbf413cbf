//! `/v1/leaderboards/{game}`.

use crate::dto::Leaderboard;
use crate::problem::ServiceError;
use crate::problem::responses::UnknownGame;
use crate::service::Arena;
use actix_web::{get, web};

/// The leaderboard of a game id.
///
/// Bots by conservative rating (`mu - 3 sigma`), with games played and last match. Only ranked
/// matches count; each game id (preset) has its own leaderboard.
#[utoipa::path(
    operation_id = "show_leaderboard",
    tag = "arena",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    responses(
        (status = 200, description = "The leaderboard", body = Leaderboard),
        UnknownGame,
    )
)]
#[get("/v1/leaderboards/{game}")]
pub async fn show(
    arena: web::Data<Arena>,
    game: web::Path<String>,
) -> Result<web::Json<Leaderboard>, ServiceError> {
    Ok(web::Json(arena.leaderboard(&game).await?))
}
