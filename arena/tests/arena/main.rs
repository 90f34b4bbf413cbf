//! Integration tests of the arena: fake bots on loopback (well-behaved, slow, garbage, illegal,
//! closing the connection, answering 500), the HTTP routes, ratings by table, URL safety, the
//! store, a restart in the middle of a match, the built-in bots, and the bot-protocol spec.

mod support;

mod bot_faults;
mod cancels;
mod consent;
mod controls;
mod drain;
mod fair_deals;
mod fairness;
mod feedback;
mod grace;
mod hardening;
mod history;
mod idempotency;
mod module_graph;
mod operations;
mod people;
mod play;
mod protocol;
mod queue;
mod ratings;
mod ratings_by_size;
mod restart;
mod routes;
mod safety;
mod storage;
mod store;
mod stream;
mod strength;
mod tournaments;
