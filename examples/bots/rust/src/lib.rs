//! A cardroom arena bot: [`protocol`] holds the typed messages and the signature check,
//! [`strategy`] the policy to make your own, [`search`] the search example (rollouts over the
//! rules API), [`stream`] the stream mode (the bot connects out); `src/main.rs` is the HTTP
//! server.
#![forbid(unsafe_code)]

pub mod protocol;
pub mod search;
pub mod strategy;
pub mod stream;
