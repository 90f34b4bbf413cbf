//! The API's errors are the service's one error type, [`ServiceError`] with its closed
//! [`ErrorCode`] list, defined in the arena crate (the lowest crate that speaks HTTP) and
//! rendered there as `application/problem+json`. This module re-exports it and adds [`guard`],
//! the panic fence around engine calls on client-supplied states.

pub use arena::problem::{ErrorCode, Problem, ServiceError};

/// Runs engine code on client-supplied data, turning a panic into 400 `invalid_state`.
///
/// The engine validates states before use and must never panic; this is the second line of defence.
pub fn guard<T>(f: impl FnOnce() -> Result<T, ServiceError>) -> Result<T, ServiceError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(panic = %message, "the engine panicked on a client-supplied state");
            Err(ServiceError::new(
                ErrorCode::InvalidState,
                "the state could not be used: it is inconsistent",
            ))
        }
    }
}
