//! The engine's one integration test binary: the conformance suite over every game id and one
//! rules module per family (`rules_<family>`), driven through the public, JSON-level interface
//! (`registry`, `Game`, `Match`) with stacked deals; `determinize` checks sampled deals against exact
//! enumeration; `rulings` checks that every cited ruling id is stated in `docs/rules/<family>.md`;
//! `playout_smoke` runs the benchmarks' playout loop on every id (a few hundred games, debug
//! checks on); `schemas` checks the generated JSON Schemas
//! against what seeded games write; `search` runs IS-MCTS on every game id; `strength` plays the
//! built-in heuristic against random play on every game id; `table_layouts` checks each family's
//! declared table against its views and schemas; `support` holds the shared helpers.

mod conformance;
mod determinize;
mod playout_digests;
mod playout_smoke;
mod rules_basra;
mod rules_bird_dog;
mod rules_chinese_ten;
mod rules_marglia;
mod rules_sloppy_seconds;
mod rules_taihe_abao;
mod rules_tjak_mat_tchi_ki;
mod rules_trump_crew;
mod rules_twenty_two;
mod rules_watten;
mod rulings;
mod schemas;
mod search;
mod strength;
mod support;
mod table_layouts;
