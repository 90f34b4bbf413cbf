//! `GET /v1/games/{game}/openapi.json`: one game id's own OpenAPI document ([`crate::contract`]).

use crate::error::{Problem, ServiceError};
use crate::routes::games::find_game;
use actix_web::{HttpRequest, HttpResponse, get, web};
use arena::http::NoQuery;
use arena::problem::responses::UnknownGame;
use engine::Game;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Makes (or finds made) a game id's own document, as app data. The server hands in
/// [`crate::contract::cached_document`]: a game's document is derived from the whole-service
/// document, which is built from these routes, so the routes do not build it themselves.
#[derive(Debug, Clone, Copy)]
pub struct GameDocuments(pub fn(&'static dyn Game) -> Arc<str>);

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
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`"), NoQuery),
    responses(
        (status = 200, description = "The game's OpenAPI 3.1 document", body = Object, content_type = "application/json"),
        (status = 400, description = "`invalid_request`: a query parameter (this route takes none)", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
    ),
)]
#[get("/v1/games/{game}/openapi.json")]
pub async fn game_openapi(
    game: web::Path<String>,
    documents: web::Data<GameDocuments>,
    request: HttpRequest,
) -> Result<HttpResponse, ServiceError> {
    let game = find_game(&game)?;
    let NoQuery {} = arena::http::query(&request)?;
    let GameDocuments(document) = **documents;
    let text = web::block(move || document(game)).await.map_err(|e| {
        ServiceError::new(
            crate::error::ErrorCode::Internal,
            format!("cannot build the document: {e}"),
        )
    })?;
    // The documents are fixed for the process: each one's tag is computed once.
    static ETAGS: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    let id = &game.info().id;
    let etags = ETAGS.get_or_init(Default::default);
    let known = etags.lock().ok().and_then(|t| t.get(id).cloned());
    let etag = known.unwrap_or_else(|| {
        let etag = arena::http::etag(text.as_bytes());
        if let Ok(mut etags) = etags.lock() {
            etags.insert(id.clone(), etag.clone());
        }
        etag
    });
    Ok(arena::http::validated(
        "application/json",
        text.to_string(),
        &etag,
        arena::http::RELEASE,
    ))
}
