//! `GET /v1/games/{game}/openapi.json`: one game id's own OpenAPI document ([`crate::contract`]).

use crate::error::ServiceError;
use crate::routes::games::find_game;
use actix_web::{HttpResponse, get, web};
use arena::problem::responses::UnknownGame;

/// One game's OpenAPI document.
///
/// An OpenAPI 3.1 document for this game id alone, for client generators: its describe, new,
/// legal, apply, view and replay operations at concrete paths, every options object, action,
/// event and view typed with the schemas generated from the engine's types (named after the
/// family, e.g. `watten.Action`, `watten.Action.play`). The same document is committed as
/// `openapi/games/<id>.json`.
#[utoipa::path(
    operation_id = "game_openapi",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    responses(
        (status = 200, description = "The game's OpenAPI 3.1 document", body = Object, content_type = "application/json"),
        UnknownGame,
    ),
)]
#[get("/v1/games/{game}/openapi.json")]
pub async fn game_openapi(game: web::Path<String>) -> Result<HttpResponse, ServiceError> {
    let game = find_game(&game)?;
    let text = web::block(move || crate::contract::cached_document(game))
        .await
        .map_err(|e| {
            ServiceError::new(
                crate::error::ErrorCode::Internal,
                format!("cannot build the document: {e}"),
            )
        })?;
    Ok(HttpResponse::Ok()
        .content_type("application/json")
        .body(text.to_string()))
}
