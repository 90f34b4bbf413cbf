//! End-to-end tests of cardroom live in `e2e/` (one integration binary, `cargo test -p e2e`).
