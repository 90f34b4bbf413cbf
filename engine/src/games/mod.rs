//! One module per game family, each with the same file names (mod.rs, rules.rs, action.rs,
//! state.rs, view.rs, ...).
pub mod twenty_two;
