//! A cardroom arena bot: [`protocol`] holds the typed messages and the signature check,
//! [`strategy`] the policy to make your own, [`stream`] the stream mode (the bot connects out);
//! `src/main.rs` is the HTTP server.
#![forbid(unsafe_code)]

pub mod protocol;
pub mod strategy;
pub mod stream;
