//! The time a request's body has to arrive (`--body-timeout-ms`, 48s). actix's
//! `client_request_timeout` bounds the request head only: a body trickled a byte a second would
//! hold its connection (and the handler waiting for it) for as long as the client likes. This
//! middleware wraps the body stream: once the time since the request arrived is up, the stream
//! fails, whichever extractor reads it, and the answer becomes 408 `request_timeout` with
//! `Connection: close` (the rest of the body is never read).

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{Payload, Service, ServiceRequest, ServiceResponse, Transform, forward_ready};
use actix_web::error::PayloadError;
use actix_web::http::ConnectionType;
use actix_web::web::Bytes;
use actix_web::{Error, HttpMessage as _, ResponseError as _};
use arena::problem::{ErrorCode, ServiceError};
use futures_util::Stream;
use std::cell::Cell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// Milliseconds a request's body has to arrive by default (`--body-timeout-ms`).
pub const BODY_TIMEOUT_MS: u64 = 10_000;

/// The middleware: the time a body has, from the request's arrival.
#[derive(Debug, Clone, Copy)]
pub struct BodyTimeout(pub Duration);

impl<S, B> Transform<S, ServiceRequest> for BodyTimeout
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = Error;
    type Transform = BodyTimeoutService<S>;
    type InitError = ();
    type Future = std::future::Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        std::future::ready(Ok(BodyTimeoutService {
            service: Rc::new(service),
            timeout: self.0,
        }))
    }
}

/// [`BodyTimeout`] around one worker's app.
pub struct BodyTimeoutService<S> {
    service: Rc<S>,
    timeout: Duration,
}

impl<S, B> Service<ServiceRequest> for BodyTimeoutService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<B>>;
    type Error = Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, Self::Error>>>>;

    forward_ready!(service);

    fn call(&self, mut request: ServiceRequest) -> Self::Future {
        let expired = Rc::new(Cell::new(false));
        let payload = request.take_payload();
        let timed = TimedPayload {
            inner: payload,
            deadline: Instant::now() + self.timeout,
            sleep: None,
            expired: expired.clone(),
        };
        request.set_payload(Payload::from(
            Box::pin(timed) as actix_http::BoxedPayloadStream
        ));
        let timeout = self.timeout;
        let answer = self.service.call(request);
        Box::pin(async move {
            let response = answer.await?;
            if !expired.get() {
                return Ok(response.map_into_left_body());
            }
            let mut refused = ServiceError::new(
                ErrorCode::RequestTimeout,
                format!(
                    "the request body did not arrive within {} ms: send it whole at once",
                    timeout.as_millis()
                ),
            )
            .error_response();
            refused
                .head_mut()
                .set_connection_type(ConnectionType::Close);
            Ok(response.into_response(refused).map_into_right_body())
        })
    }
}

/// A body stream that fails once its deadline has passed.
struct TimedPayload {
    inner: Payload,
    deadline: Instant,
    /// Made when the body first waits for the network (a body that came with its head never
    /// needs a timer).
    sleep: Option<Pin<Box<Sleep>>>,
    expired: Rc<Cell<bool>>,
}

impl Stream for TimedPayload {
    type Item = Result<Bytes, PayloadError>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        let this = &mut *self;
        if this.expired.get() {
            return Poll::Ready(None);
        }
        if let Poll::Ready(item) = Pin::new(&mut this.inner).poll_next(cx) {
            return Poll::Ready(item);
        }
        let deadline = this.deadline;
        let sleep = this
            .sleep
            .get_or_insert_with(|| Box::pin(tokio::time::sleep_until(deadline)));
        match sleep.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => {
                this.expired.set(true);
                Poll::Ready(Some(Err(PayloadError::Io(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "the request body did not arrive in time",
                )))))
            }
        }
    }
}
