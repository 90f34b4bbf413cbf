//! One module per game family, each with the same file names (mod.rs, rules.rs, action.rs,
//! state.rs, view.rs, ...).

pub mod basra;
pub mod chinese_ten;
pub mod marglia;
pub mod sloppy_seconds;
pub mod taihe_abao;
pub mod tjak_mat_tchi_ki;
pub mod twenty_two;
pub mod watten;
