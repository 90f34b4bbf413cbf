//! The search endpoints: `/determinize` and `/rollouts`. Both are bounded ([`crate::search`]):
//! admitted per client, estimated before they run, run on the search pool.

use super::games::{check_seat, find_game};
use crate::codec::StateCodec;
use crate::dto::{
    ActionRollouts, DeterminizeRequest, DeterminizeResponse, RolloutPolicy, RolloutsRequest,
    RolloutsResponse,
};
use crate::error::{ErrorCode, Problem, ServiceError, guard};
use crate::search::{CostKind, SearchClock, SearchPool, budget, check_estimate};
use actix_web::{HttpRequest, post, web};
use arena::problem::responses::{JsonBodyErrors, SearchRefusals, UnknownGame};
use engine::search::{Rollout, RolloutPlan, RolloutStart, RolloutStop};
use engine::{Game, Match};
use serde_json::Value;
use std::time::Instant;

/// Sample full states a seat cannot tell apart from this one.
///
/// The position is `state` and `seat`, or the `info` token of an arena move request (the
/// position sealed for its seat). Answers `count` full states (sealed when the server seals) drawn uniformly among the deals
/// consistent with everything `seat` has seen and what the rules let it infer: its own pieces,
/// every public event, voids shown by a failure to follow suit, cards it passed or was shown
/// (docs/api.md lists what each family infers). Each shows `seat` exactly the view this state
/// shows it, and play continues from it with `apply`: the building block of search over hidden
/// information (IS-MCTS, PIMC) from any language. The chance still to come (the next deals) is
/// redrawn too. A state with nothing hidden from the seat answers copies of itself.
///
/// Bounded like `/rollouts`: its cost is estimated before it runs (refused at once over 2 s,
/// 422 `search_over_budget`, unless `budget_ms` asks for what fits), it runs on the search
/// pool, and a client has at most `--search-per-client` searches at once (429
/// `too_many_searches`, with `Retry-After`).
#[utoipa::path(
    operation_id = "determinize_state",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    request_body = DeterminizeRequest,
    responses(
        (status = 200, description = "The sampled states", body = DeterminizeResponse),
        (status = 400, description = "`malformed_json`, `invalid_request` (a `count` outside 1..=256, a `budget_ms` outside 1..=2000, neither or both of `state` and `info`, `state` without `seat`, or a `seat` other than the `info` token's), `invalid_state`, `state_tampered`, `invalid_info` (an `info` token changed, cut, sealed by another arena, or of another game), `sealed_state_required` or `invalid_seat`", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
        JsonBodyErrors,
        (status = 422, description = "`invalid_seed`, `no_consistent_deal` (the state's record admits no deal), or `search_over_budget` (the states asked would take more than 2 s: ask fewer, or give `budget_ms`)", body = Problem, content_type = "application/problem+json"),
        SearchRefusals,
    ),
)]
#[post("/v1/games/{game}/determinize")]
pub async fn determinize(
    game: web::Path<String>,
    request: web::Json<DeterminizeRequest>,
    codec: web::Data<StateCodec>,
    pool: web::Data<SearchPool>,
    http: HttpRequest,
) -> Result<web::Json<DeterminizeResponse>, ServiceError> {
    let arrived = Instant::now();
    let game = find_game(&game)?;
    let request = request.into_inner();
    if !(1..=MAX_DETERMINIZE).contains(&request.count) {
        return Err(ServiceError::invalid(format!(
            "count must be 1 to {MAX_DETERMINIZE}, not {}",
            request.count
        )));
    }
    let budget = budget(request.budget_ms)?;
    let seed = request_seed(request.seed)?;
    let permit = pool.admit(http.peer_addr().map(|peer| peer.ip()))?;
    let position =
        Position::open(game, &codec, &request.state, request.seat, &request.info).await?;
    let unit = pool.cost(game, CostKind::Determinization, &codec).await;
    if budget.is_none() {
        check_estimate(request.count as u64, unit, "states")?;
    }
    let codec = codec.into_inner();
    let count = request.count;
    pool.run(permit, move |gone| {
        guard(|| {
            let mut clock = SearchClock::new(arrived, budget);
            clock.start();
            let mut rng = position.sampling_rng(&codec, seed);
            let (state, seat) = (position.state, position.seat);
            let mut states = Vec::with_capacity(count);
            // At least one state: what fitted may be less than asked, never nothing.
            while states.len() < count && (states.is_empty() || clock.keep_going()) && !gone() {
                let sample = state
                    .determinize(seat, &mut rng)
                    .ok_or_else(|| no_consistent_deal(seat))?;
                states.push(codec.encode(sample.as_ref())?);
            }
            Ok(DeterminizeResponse {
                seat,
                seed,
                count_done: states.len(),
                complete: states.len() == count,
                states,
            })
        })
    })
    .await?
    .map(web::Json)
}

/// The position a `determinize` or `rollouts` request names: `state` and `seat`, or an arena
/// move request's `info` (the seat from the token).
struct Position {
    state: Box<dyn Match>,
    seat: usize,
    /// Whether the holder may see the whole state: a transparent one. A sealed state or an
    /// `info` token stands for what `seat` may know only.
    transparent: bool,
    /// The sealed state or `info` token as sent: sampling from it is seeded through the key
    /// ([`StateCodec::sampling_seed`]), so no client seed can undo a sample back to the deal.
    hidden_token: Option<String>,
}

impl Position {
    /// The random numbers that sample from this position for a client's `seed`.
    fn sampling_rng(&self, codec: &StateCodec, seed: u64) -> engine::rng::PlayoutRng {
        engine::rng::PlayoutRng::new(codec.sampling_seed(self.hidden_token.as_deref(), seed))
    }
}

/// The position an `info` token names and whose it is, rebuilt by the arena.
type OpenedInfo = (Box<dyn Match>, arena::seal::InfoClaims);

impl Position {
    /// Rebuilds the position of `info` when it is the request's only position (the arena reads
    /// the match's stored moves): [`Position::of`] then checks the request with it.
    async fn open_info(
        game: &dyn Game,
        codec: &StateCodec,
        has_state: bool,
        info: Option<&str>,
    ) -> Result<Option<OpenedInfo>, ServiceError> {
        match info {
            Some(token) if !has_state => Ok(Some(codec.open_info(game, token).await?)),
            _ => Ok(None),
        }
    }

    fn of(
        game: &dyn Game,
        codec: &StateCodec,
        state: Option<&serde_json::value::RawValue>,
        seat: Option<usize>,
        info: Option<&str>,
        opened: Option<OpenedInfo>,
    ) -> Result<Position, ServiceError> {
        let invalid = |detail: String| ServiceError::new(ErrorCode::InvalidRequest, detail);
        let position = match (state, info) {
            (Some(state), None) => {
                let Some(seat) = seat else {
                    return Err(invalid("`seat` is needed with `state`".into()));
                };
                let token: Option<String> = serde_json::from_str::<String>(state.get()).ok();
                Position {
                    transparent: token.is_none(),
                    state: codec.decode_raw(game, state)?,
                    seat,
                    hidden_token: token,
                }
            }
            (None, Some(info)) => {
                let Some((state, claims)) = opened else {
                    return Err(ServiceError::new(
                        ErrorCode::Internal,
                        "the `info` token was not opened",
                    ));
                };
                if let Some(seat) = seat.filter(|&seat| seat != claims.seat) {
                    return Err(invalid(format!(
                        "this `info` token is seat {}'s (match {}), not seat {seat}'s: omit `seat` or give {}",
                        claims.seat, claims.match_id, claims.seat
                    )));
                }
                Position {
                    state,
                    seat: claims.seat,
                    transparent: false,
                    hidden_token: Some(info.to_string()),
                }
            }
            (Some(_), Some(_)) => {
                return Err(invalid(
                    "give `state` and `seat`, or `info`, not both".into(),
                ));
            }
            (None, None) => return Err(invalid("give `state` and `seat`, or `info`".into())),
        };
        check_seat(position.state.as_ref(), position.seat)?;
        Ok(position)
    }
}

impl Position {
    /// The position of a request: `state` and `seat`, or `info` (rebuilt by the arena), decoded
    /// and checked here (as `/apply` decodes its state) so a refusal costs the pool nothing.
    async fn open(
        game: &'static dyn Game,
        codec: &StateCodec,
        state: &Option<Box<serde_json::value::RawValue>>,
        seat: Option<usize>,
        info: &Option<String>,
    ) -> Result<Position, ServiceError> {
        let opened = Position::open_info(game, codec, state.is_some(), info.as_deref()).await?;
        guard(|| Position::of(game, codec, state.as_deref(), seat, info.as_deref(), opened))
    }
}

/// The most states one `determinize` request may ask for.
const MAX_DETERMINIZE: usize = 256;

/// Play out a seat's actions.
///
/// The position is `state` and `seat`, or the `info` token of an arena move request (its seat's;
/// played out from determinizations, as a sealed state). Plays `count` games to their end after each of `seat`'s legal actions (or the `actions`
/// listed), every seat then playing `policy` (uniformly random moves, or the built-in
/// `heuristic` bot's on its own view), and answers per action every seat's mean final score and
/// its standard error: flat Monte Carlo at the engine's speed, for bots in any language. A sealed
/// state is played out from states drawn among those `seat` cannot tell apart from it (as
/// `/determinize` draws them), so the figures tell nothing `seat` may not know; a transparent
/// state (its holder sees everything) from itself, the chance still to come redrawn each round.
/// The actions of a round share its starting state and chance, so their differences are
/// measured with less noise than their values.
///
/// Bounded: `count` at most 10000; the cost is estimated before anything runs (from the game's
/// playout cost, measured once per game id), and a request estimated over 2 s is refused at once
/// (422 `search_over_budget`, naming what fits). With `budget_ms` (at most 2000) nothing is
/// refused for its size: the answer holds the rounds that fitted in that time from the request's
/// arrival (`count_done` per action, `complete: false` when short of `count`). Searches run on
/// a bounded pool, never beside the server's request handling, and a client has at most
/// `--search-per-client` at once (429 `too_many_searches`, with `Retry-After`; 503
/// `server_busy` when the pool's queue is full).
#[utoipa::path(
    operation_id = "rollout_actions",
    tag = "rules",
    params(("game" = String, Path, description = "Game id, e.g. `twenty_two`")),
    request_body = RolloutsRequest,
    responses(
        (status = 200, description = "Per action, every seat's mean final score", body = RolloutsResponse),
        (status = 400, description = "`invalid_request` (a `count` outside 1..=10000, a `budget_ms` outside 1..=2000, no action to weigh, neither or both of `state` and `info`, `state` without `seat`, or a `seat` other than the `info` token's), `invalid_state`, `state_tampered`, `invalid_info` (an `info` token changed, cut, sealed by another arena, or of another game), `sealed_state_required` or `invalid_seat`", body = Problem, content_type = "application/problem+json"),
        UnknownGame,
        JsonBodyErrors,
        (status = 422, description = "`game_over`, `not_your_turn` (the seat may not act now), `illegal_action` (a listed action is not legal), `invalid_seed`, `no_consistent_deal`, or `search_over_budget` (the playouts asked would take more than 2 s: ask fewer, or give `budget_ms`)", body = Problem, content_type = "application/problem+json"),
        SearchRefusals,
    ),
)]
#[post("/v1/games/{game}/rollouts")]
pub async fn rollouts(
    game: web::Path<String>,
    request: web::Json<RolloutsRequest>,
    codec: web::Data<StateCodec>,
    pool: web::Data<SearchPool>,
    http: HttpRequest,
) -> Result<web::Json<RolloutsResponse>, ServiceError> {
    let arrived = Instant::now();
    let game = find_game(&game)?;
    let request = request.into_inner();
    if !(1..=MAX_ROLLOUTS).contains(&request.count) {
        return Err(ServiceError::invalid(format!(
            "count must be 1 to {MAX_ROLLOUTS}, not {}",
            request.count
        )));
    }
    let budget = budget(request.budget_ms)?;
    let seed = request_seed(request.seed)?;
    let permit = pool.admit(http.peer_addr().map(|peer| peer.ip()))?;
    let position =
        Position::open(game, &codec, &request.state, request.seat, &request.info).await?;
    let weighed = guard(|| weighed_actions(&position, request.actions.as_deref()))?;
    let kind = match request.policy {
        RolloutPolicy::Random => CostKind::RandomPlayout,
        RolloutPolicy::Heuristic => CostKind::HeuristicPlayout,
    };
    let unit = pool.cost(game, kind, &codec).await;
    let playouts = u64::from(request.count) * weighed.indices.len() as u64;
    if budget.is_none() {
        check_estimate(playouts, unit, "playouts")?;
    }
    let estimated_ms = unit
        .saturating_mul(u32::try_from(playouts).unwrap_or(u32::MAX))
        .as_millis() as u64;
    let codec = codec.into_inner();
    pool.run(permit, move |gone| {
        guard(|| {
            let mut clock = SearchClock::new(arrived, budget);
            clock.start();
            let mut rng = position.sampling_rng(&codec, seed);
            let run = RolloutRun {
                position,
                weighed,
                request: &request,
                seed,
                estimated_ms,
            };
            run.play(&mut rng, &clock, gone)
        })
    })
    .await?
    .map(web::Json)
}

/// The actions a `rollouts` request weighs: indices into the seat's legal list, and that list.
struct Weighed {
    indices: Vec<usize>,
    legal_actions: Vec<Value>,
}

/// The actions to weigh: those listed (each legal), or every legal action; refused when the
/// game is over or the seat may not act.
fn weighed_actions(
    position: &Position,
    actions: Option<&[Value]>,
) -> Result<Weighed, ServiceError> {
    let (state, seat) = (&position.state, position.seat);
    if state.is_over() {
        return Err(ServiceError::new(ErrorCode::GameOver, "the game is over"));
    }
    if !state.to_act().contains(&seat) {
        return Err(ServiceError::new(
            ErrorCode::NotYourTurn,
            format!("seat {seat} may not act now"),
        ));
    }
    let legal_actions = state.legal_actions(seat);
    let indices: Vec<usize> = match actions {
        None => (0..legal_actions.len()).collect(),
        Some(actions) => actions
            .iter()
            .map(|action| {
                legal_actions
                    .iter()
                    .position(|a| a == action)
                    .ok_or_else(|| {
                        ServiceError::new(
                            ErrorCode::IllegalAction,
                            format!("{action} is not a legal action of seat {seat}"),
                        )
                    })
            })
            .collect::<Result<_, _>>()?,
    };
    if indices.is_empty() {
        return Err(ServiceError::new(
            ErrorCode::InvalidRequest,
            "no action to weigh: `actions` is empty",
        ));
    }
    Ok(Weighed {
        indices,
        legal_actions,
    })
}

/// One admitted `rollouts` request, run on the search pool.
struct RolloutRun<'a> {
    position: Position,
    weighed: Weighed,
    request: &'a RolloutsRequest,
    seed: u64,
    estimated_ms: u64,
}

impl RolloutRun<'_> {
    /// Plays the rounds that fit (all of them, unless the budget, the CPU cap or a client that
    /// hung up stops it first; at least one).
    fn play(
        self,
        rng: &mut engine::rng::PlayoutRng,
        clock: &SearchClock,
        gone: &dyn Fn() -> bool,
    ) -> Result<RolloutsResponse, ServiceError> {
        let RolloutRun {
            position,
            weighed,
            request,
            seed,
            estimated_ms,
        } = self;
        let (state, seat, determinized) = (position.state, position.seat, !position.transparent);
        let plan = RolloutPlan {
            actions: &weighed.indices,
            count: request.count,
            start: if determinized {
                RolloutStart::Determinized
            } else {
                RolloutStart::Exact
            },
            partial: true,
        };
        let policy = match request.policy {
            RolloutPolicy::Random => Rollout::Uniform,
            RolloutPolicy::Heuristic => Rollout::Heuristic { percent: 100 },
        };
        let mut rounds = 0u32;
        let values = state
            .rollouts(seat, plan, policy, rng, &mut |_| {
                let go = rounds == 0 || (clock.keep_going() && !gone());
                rounds += u32::from(go);
                go
            })
            .map_err(|stop| match stop {
                RolloutStop::Budget => {
                    ServiceError::new(ErrorCode::Internal, "the rollouts stopped")
                }
                RolloutStop::NoConsistentDeal => no_consistent_deal(seat),
            })?;
        Ok(RolloutsResponse {
            seat,
            seed,
            policy: request.policy,
            determinized,
            count: request.count,
            complete: rounds == request.count,
            budget_ms: request.budget_ms,
            estimated_ms,
            results: weighed
                .indices
                .iter()
                .zip(values)
                .map(|(&index, value)| ActionRollouts {
                    action: weighed.legal_actions[index].clone(),
                    playouts: value.playouts,
                    count_done: value.playouts,
                    mean: value.mean(),
                    standard_error: value.standard_error(),
                    mean_standing: value.mean_standing(),
                    mean_standing_error: value.standing_error(),
                })
                .collect(),
        })
    }
}

/// The most playouts per action one `rollouts` request may ask for.
const MAX_ROLLOUTS: u32 = 10_000;

/// A request's sampling seed, checked, or a fresh one.
fn request_seed(seed: Option<u64>) -> Result<u64, ServiceError> {
    match seed {
        Some(seed) if seed > engine::rng::MAX_SEED => Err(ServiceError::new(
            ErrorCode::InvalidSeed,
            format!("seed {seed} is above 2^53 - 1"),
        )),
        Some(seed) => Ok(seed),
        None => Ok(rand::random::<u64>() & engine::rng::MAX_SEED),
    }
}

fn no_consistent_deal(seat: usize) -> ServiceError {
    ServiceError::new(
        ErrorCode::NoConsistentDeal,
        format!("no deal is consistent with this state's record as seat {seat} sees it"),
    )
}
