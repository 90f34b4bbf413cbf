//! Issue 48: each attack on an open server reproduced, and shown stopped (one file per part).

mod connections;
mod pages;
mod search;
