//! Mechanics shared by several families: name what is shared (`trick`, `capture`, ...), never `utils`.
pub mod capture;
pub mod determinize;
pub mod trick;
