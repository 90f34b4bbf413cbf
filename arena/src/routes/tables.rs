//! `/v1/tables`: tables people share with bots.

use super::{created, list_query, parse_body};
use crate::http::{self, NoQuery, location};
use crate::limits::Meter;
use crate::problem::responses::{
    IdempotencyHeader, InvalidToken, JsonBodyErrors, RateLimitedResponse, SeatKeyRefused,
    UnknownTable,
};
use crate::problem::{Problem, ServiceError};
use crate::service::{Arena, Caller};
use crate::tables::{
    CreateTable, JoinTable, SeatJoined, SeatKey, SeatState, TableCreated, TableList, TableMove,
    TableQuery, TableView,
};
use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, get, post, web};

/// Open a table people share with bots.
///
/// Each seat is a bot (by id or name), a person invited by name (`{"human": "Anna"}`: the answer
/// holds the seat's secret `join_url`), a player (`{"player": "p_…"}`: a `join_url` too, opened
/// with the player's token) or an open seat anyone with the table's `watch_url` may take
/// (`{"open": true}`). The match (unranked unless `"rated": true`, which takes players and bots
/// only and rates every seat at the end) starts once every person has joined; bots are
/// called as in any match, people move through the table's page or `POST /v1/tables/{id}/move`.
/// A registered bot sits at a table only with its owner's token, the admin token, or when its
/// owner opened it to challenges; built-in bots are open.
#[utoipa::path(
    operation_id = "create_table",
    tag = "arena",
    request_body = CreateTable,
    params(IdempotencyHeader),
    security((), ("owner_token" = []), ("admin_token" = [])),
    responses(
        (status = 201, description = "Created: keep each `join_url`, it is shown once (an `Idempotency-Key` gets them again on a retry); `Location` is the table", body = TableCreated),
        (status = 400, description = "`malformed_json`, or `invalid_request`: seats not matching `players`, a bad name, `pace_ms` or `clock` out of range", body = Problem, content_type = "application/problem+json"),
        InvalidToken,
        (status = 403, description = "`consent_required`: a bot (named in `detail`) not open to challenges, without its owner's token or the admin token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_game`, `unknown_bot` or `unknown_player`", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "Invalid setup (players, options), a bot not registered for the game, `ranked_overrides` (`options` or `seed` at a rated table), `duplicate_bots` (a bot twice at a rated table), `idempotency_key_reused`, or `invalid_name`: a name not in NFC, or with an unprintable, bidi control or zero-width character, or `<`/`>` (docs/api.md, \"Names\")", body = Problem, content_type = "application/problem+json"),
        RateLimitedResponse,
    )
)]
#[post("/v1/tables")]
pub async fn create(
    arena: web::Data<Arena>,
    request: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    let (arena, http_request) = (&arena, &request);
    let meter = &Meter::of(arena.limits(), http_request);
    super::create_metered(
        arena,
        http_request,
        &body,
        "POST /v1/tables",
        meter,
        |table: CreateTable| async move {
            let creator = arena.creator(Caller::of(http_request)).await?;
            let made = arena.create_table_metered(table, creator, meter).await?;
            created(StatusCode::CREATED, location("/v1/tables", &made.id), &made)
        },
    )
    .await
}

/// List tables: the lobby.
///
/// Newest first, a page at a time (pass `next_cursor` as `cursor`). `status=waiting` is the
/// lobby: the tables waiting for people with an open seat anyone may take (`open_seats`;
/// take one with `POST /v1/tables/{id}/join`); a table leaves it once its open seats are taken.
/// Other statuses select tables by their match's status.
#[utoipa::path(
    operation_id = "list_tables",
    tag = "arena",
    params(TableQuery),
    responses(
        (status = 200, description = "Tables, newest first", body = TableList),
        (status = 400, description = "`invalid_request`: an invalid query, such as an unknown parameter or status, a `limit` outside 1..=500 or a `cursor` not given by this list", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`unknown_game`: a filter naming no game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/tables")]
pub async fn list(
    arena: web::Data<Arena>,
    request: HttpRequest,
) -> Result<web::Json<TableList>, ServiceError> {
    let query: TableQuery = list_query(&request, |q: &TableQuery| q.limit)?;
    Ok(web::Json(arena.list_tables(query).await?))
}

/// Play again.
///
/// Once a table's match is over, any seat (its `seat` and `key`) opens the table's rematch: a
/// new table of the same seats (the same bots, players and invited people; an open seat goes
/// to whoever took it), game, options, clock, pace and rating, with a new seed. One per table:
/// every seat that asks gets the same table. The answer holds every person seat's new
/// `join_url` (invitations renewed: pass them on); a player's seat is joined with the player's
/// token, as before.
#[utoipa::path(
    operation_id = "rematch_table",
    tag = "arena",
    params(("id" = String, Path, description = "Table id"), IdempotencyHeader),
    request_body = SeatKey,
    responses(
        (status = 201, description = "The rematch, opened now: `Location` is the new table", body = TableCreated),
        (status = 200, description = "The rematch another seat opened first", body = TableCreated),
        (status = 400, description = "`malformed_json`", body = Problem, content_type = "application/problem+json"),
        InvalidToken,
        SeatKeyRefused,
        UnknownTable,
        (status = 409, description = "`match_underway`: the table's match is not over", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "`idempotency_key_reused`", body = Problem, content_type = "application/problem+json"),
        RateLimitedResponse,
    )
)]
#[post("/v1/tables/{id}/rematch")]
pub async fn rematch(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
    body: web::Bytes,
) -> HttpResponse {
    let (arena, http_request, id) = (&arena, &request, id.as_str());
    let meter = &Meter::of(arena.limits(), http_request);
    super::create_metered(
        arena,
        http_request,
        &body,
        "POST /v1/tables/{id}/rematch",
        meter,
        |asker: SeatKey| async move {
            let creator = arena.creator(Caller::of(http_request)).await?;
            let (made, opened) = arena
                .rematch_table_metered(id, asker, creator, meter)
                .await?;
            let status = if opened {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            };
            created(status, location("/v1/tables", &made.id), &made)
        },
    )
    .await
}

/// Show a table.
///
/// Its seats (who sits there, who has joined), the match's status and the table's page. Never a
/// key.
#[utoipa::path(
    operation_id = "show_table",
    tag = "arena",
    params(("id" = String, Path, description = "Table id"), NoQuery),
    responses(
        (status = 200, description = "The table", body = TableView),
        (status = 400, description = "`invalid_request`: a query parameter (this route takes none)", body = Problem, content_type = "application/problem+json"),
        UnknownTable,
    )
)]
#[get("/v1/tables/{id}")]
pub async fn show(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    request: HttpRequest,
) -> Result<web::Json<TableView>, ServiceError> {
    let NoQuery {} = http::query(&request)?;
    Ok(web::Json(arena.get_table(&id).await?))
}

/// Take a seat at a table.
///
/// With `key` (from a seat's `join_url`): the invited person joins that seat, which resumes it
/// when joined already; a seat held for a player also needs the player's token
/// (`Authorization: Bearer <token>`). Without: an open seat (`seat`, or the first one free)
/// under `name`, with a new key and link. A person or open seat joined with a player's token
/// becomes that player's, under their name. The match starts once every person seat is taken.
#[utoipa::path(
    operation_id = "join_table",
    tag = "arena",
    security((), ("player_token" = [])),
    params(("id" = String, Path, description = "Table id")),
    request_body = JoinTable,
    responses(
        (status = 200, description = "The seat is yours: keep its `join_url`", body = SeatJoined),
        (status = 400, description = "`malformed_json`, `invalid_request` (a name of the wrong length) or `invalid_seat`", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "`seat_key_refused`: the key holds no seat of this table; `not_your_seat`: it holds another seat; `player_token_refused`: a seat held for a player, joined without that player's token", body = Problem, content_type = "application/problem+json"),
        UnknownTable,
        (status = 409, description = "`seat_taken`: the seat is not open or was taken first; `table_full`: no open seat is left; `match_finished`: an open seat of a table that is over (expired: `table_expired`, or cancelled)", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "`invalid_name`: a name not in NFC, or with an unprintable, bidi control or zero-width character, or `<`/`>` (docs/api.md, \"Names\")", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tables/{id}/join")]
pub async fn join(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    http_request: HttpRequest,
    body: web::Bytes,
) -> Result<web::Json<SeatJoined>, ServiceError> {
    let request: JoinTable = parse_body(&http_request, &body)?;
    let token = crate::bots::bearer(&http_request);
    Ok(web::Json(arena.join_table(&id, request, token).await?))
}

/// A person's seat at a table.
///
/// The seat's view, every public event so far and, while the arena waits for this seat's move,
/// its legal actions and the `request_id` a move answers. Needs the seat's key; opening the
/// seat's link again resumes the seat this way.
#[utoipa::path(
    operation_id = "show_table_seat",
    tag = "arena",
    params(("id" = String, Path, description = "Table id")),
    request_body = SeatKey,
    responses(
        (status = 200, description = "The seat", body = SeatState),
        (status = 400, description = "`malformed_json`", body = Problem, content_type = "application/problem+json"),
        SeatKeyRefused,
        UnknownTable,
        JsonBodyErrors,
    )
)]
#[post("/v1/tables/{id}/seat")]
pub async fn seat(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    http_request: HttpRequest,
    body: web::Bytes,
) -> Result<web::Json<SeatState>, ServiceError> {
    let request: SeatKey = parse_body(&http_request, &body)?;
    Ok(web::Json(arena.table_seat(&id, request).await?))
}

/// Move at a table.
///
/// A person's move for their seat (its key), answering the request pending for it. A refused
/// move is no fault: the arena goes on waiting for the seat.
#[utoipa::path(
    operation_id = "move_at_table",
    tag = "arena",
    params(("id" = String, Path, description = "Table id")),
    request_body = TableMove,
    responses(
        (status = 204, description = "The move is taken"),
        (status = 400, description = "`malformed_json`", body = Problem, content_type = "application/problem+json"),
        SeatKeyRefused,
        UnknownTable,
        (status = 409, description = "`stale_request`: the arena is not waiting for this seat, or the move answers an earlier request; `table_waiting`: not every person has joined; `match_finished`: the match is over", body = Problem, content_type = "application/problem+json"),
        JsonBodyErrors,
        (status = 422, description = "`illegal_action` (with the engine's `reason`), `not_your_turn`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/tables/{id}/move")]
pub async fn move_at_table(
    arena: web::Data<Arena>,
    id: web::Path<String>,
    http_request: HttpRequest,
    body: web::Bytes,
) -> Result<HttpResponse, ServiceError> {
    let request: TableMove = parse_body(&http_request, &body)?;
    arena.table_move(&id, request).await?;
    Ok(HttpResponse::NoContent().finish())
}
