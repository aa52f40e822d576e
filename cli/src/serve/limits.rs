//! What one client, or many, may ask of the server: a request rate per client address (a token
//! bucket: `429` with `Retry-After`), a cap on requests in flight (`503`), a time limit per
//! request (`503`), and a bound on a request's body (`413`). Each answer is in the project's
//! words ([`ApiError`]) and counted by `/metrics` like any other.

use std::{
    collections::HashMap,
    net::{IpAddr, SocketAddr},
    sync::{Arc, Mutex, PoisonError},
    time::{Duration, Instant},
};

use axum::{
    extract::Request,
    http::{header, HeaderValue},
    response::{IntoResponse, Response},
};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::api::{ApiError, Problem};

/// The largest request body taken, in bytes: the API reads none.
pub const MAX_BODY_BYTES: u64 = 16 << 10;
/// Client addresses remembered before the idle ones are forgotten.
const MAX_CLIENTS: usize = 1 << 16;

/// A token bucket per client address.
struct RateLimit {
    per_second: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl RateLimit {
    /// Takes a token of `client`'s bucket: `Ok`, or the seconds until one is there.
    fn take(&self, client: IpAddr) -> Result<(), u64> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(PoisonError::into_inner);
        if buckets.len() >= MAX_CLIENTS && !buckets.contains_key(&client) {
            // Forget the clients whose buckets have refilled: they lose nothing.
            let full = self.burst / self.per_second;
            buckets.retain(|_, (_, last)| now.duration_since(*last).as_secs_f64() < full);
        }
        let (tokens, last) = buckets.entry(client).or_insert((self.burst, now));
        let refilled = now.duration_since(*last).as_secs_f64() * self.per_second;
        *tokens = (*tokens + refilled).min(self.burst);
        *last = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / self.per_second).ceil().max(1.0) as u64)
        }
    }
}

/// The limits the operator set.
pub struct Limits {
    rate: Option<RateLimit>,
    in_flight: Arc<Semaphore>,
    timeout: Duration,
}

impl Limits {
    /// `rate` requests a second per client address with bursts of `burst` (`rate` 0: no rate
    /// limit), at most `in_flight` requests at once, each answered within `timeout`.
    #[must_use]
    pub fn new(rate: u32, burst: u32, in_flight: usize, timeout: Duration) -> Limits {
        Limits {
            rate: (rate > 0).then(|| RateLimit {
                per_second: f64::from(rate),
                burst: f64::from(burst.max(1)),
                buckets: Mutex::default(),
            }),
            in_flight: Arc::new(Semaphore::new(in_flight.max(1))),
            timeout,
        }
    }

    /// The time a request may take.
    #[must_use]
    pub fn timeout(&self) -> Duration {
        self.timeout
    }
}

/// Whether `request` from `client` may be answered now: a place among the requests in flight,
/// held until it is dropped; or the answer that refuses it (body bound, rate, places).
///
/// # Errors
/// The refusal, in the project's words: 413, 429 with `Retry-After`, or 503.
// The refusal is sent as it is, at once: a box would be one more allocation for nothing.
#[allow(clippy::result_large_err)]
pub fn admit(
    limits: &Limits,
    client: SocketAddr,
    request: &Request,
) -> Result<OwnedSemaphorePermit, Response> {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY_BYTES) {
        return Err(ApiError::new(
            Problem::TooLarge,
            format!("request body over {MAX_BODY_BYTES} bytes: the API reads none"),
        )
        .into_response());
    }
    if let Some(rate) = &limits.rate {
        if let Err(wait) = rate.take(client.ip()) {
            let mut response = ApiError::new(
                Problem::RateLimited,
                format!(
                    "too many requests from {}: at most {} a second (bursts of {}); try again \
                     in {wait} s",
                    client.ip(),
                    rate.per_second,
                    rate.burst
                ),
            )
            .into_response();
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(wait));
            return Err(response);
        }
    }
    Arc::clone(&limits.in_flight)
        .try_acquire_owned()
        .map_err(|_| {
            ApiError::new(
                Problem::Busy,
                "the server is answering as many requests as it takes: try again".to_owned(),
            )
            .into_response()
        })
}

/// The answer to a request that took longer than the time limit: 503.
pub fn timed_out(limits: &Limits) -> Response {
    ApiError::new(
        Problem::Busy,
        format!(
            "no answer within {} s: try again",
            limits.timeout.as_secs_f64()
        ),
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use std::future::Future;

    use super::*;

    /// Answers `request` from `client` with `run`, within the limits: body bound, rate, requests
    /// in flight, time limit, in that order.
    async fn within<F, A>(limits: &Limits, client: SocketAddr, request: Request, run: F) -> Response
    where
        F: FnOnce(Request) -> A,
        A: Future<Output = Response>,
    {
        match admit(limits, client, &request) {
            Ok(_permit) => match tokio::time::timeout(limits.timeout, run(request)).await {
                Ok(response) => response,
                Err(_) => timed_out(limits),
            },
            Err(refused) => refused,
        }
    }

    #[test]
    fn a_bucket_lets_a_burst_through_then_the_rate() {
        let rate = RateLimit {
            per_second: 2.0,
            burst: 3.0,
            buckets: Mutex::default(),
        };
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "127.0.0.2".parse().unwrap();
        for _ in 0..3 {
            assert_eq!(rate.take(a), Ok(()));
        }
        assert_eq!(rate.take(a), Err(1));
        // Another client has its own bucket.
        assert_eq!(rate.take(b), Ok(()));
    }

    fn client() -> SocketAddr {
        "127.0.0.1:1".parse().unwrap()
    }

    async fn answered_after(wait: Duration) -> Response {
        tokio::time::sleep(wait).await;
        StatusCode::OK.into_response()
    }

    use axum::{body::Body, http::StatusCode};

    #[tokio::test]
    async fn a_request_over_the_time_limit_gets_503() {
        let limits = Limits::new(0, 0, 8, Duration::from_millis(50));
        let request = || Request::new(Body::empty());
        let quick = within(&limits, client(), request(), |_| {
            answered_after(Duration::ZERO)
        })
        .await;
        assert_eq!(quick.status(), StatusCode::OK);
        let slow = within(&limits, client(), request(), |_| {
            answered_after(Duration::from_secs(5))
        })
        .await;
        assert_eq!(slow.status(), StatusCode::SERVICE_UNAVAILABLE);
        let body = axum::body::to_bytes(slow.into_body(), 1 << 16)
            .await
            .unwrap();
        assert!(String::from_utf8_lossy(&body).contains("no answer within 0.05 s"));
    }

    #[tokio::test]
    async fn requests_over_the_cap_in_flight_get_503_until_one_ends() {
        let limits = Arc::new(Limits::new(0, 0, 2, Duration::from_secs(30)));
        let (release, released) = tokio::sync::watch::channel(false);
        // Two requests that wait until released hold both places.
        let held: Vec<_> = (0..2)
            .map(|_| {
                let (limits, mut released) = (Arc::clone(&limits), released.clone());
                tokio::spawn(async move {
                    within(
                        &limits,
                        client(),
                        Request::new(Body::empty()),
                        |_| async move {
                            let _ = released.wait_for(|&r| r).await;
                            StatusCode::OK.into_response()
                        },
                    )
                    .await
                    .status()
                })
            })
            .collect();
        while limits.in_flight.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        let third = within(&limits, client(), Request::new(Body::empty()), |_| {
            answered_after(Duration::ZERO)
        })
        .await;
        assert_eq!(third.status(), StatusCode::SERVICE_UNAVAILABLE);
        release.send(true).unwrap();
        for h in held {
            assert_eq!(h.await.unwrap(), StatusCode::OK);
        }
        let fourth = within(&limits, client(), Request::new(Body::empty()), |_| {
            answered_after(Duration::ZERO)
        })
        .await;
        assert_eq!(fourth.status(), StatusCode::OK);
    }

    #[tokio::test]
    async fn a_declared_body_over_the_bound_gets_413() {
        let limits = Limits::new(0, 0, 8, Duration::from_secs(30));
        let mut request = Request::new(Body::empty());
        request.headers_mut().insert(
            header::CONTENT_LENGTH,
            HeaderValue::from(MAX_BODY_BYTES + 1),
        );
        let answer = within(&limits, client(), request, |_| {
            answered_after(Duration::ZERO)
        })
        .await;
        assert_eq!(answer.status(), StatusCode::PAYLOAD_TOO_LARGE);
    }
}
