//! Issue 48: each attack on the open server reproduced, and shown stopped (one file per part).

mod connections;
mod search;
