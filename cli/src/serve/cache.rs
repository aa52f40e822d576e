//! Every API answer is a pure function of the request and the table files, so it can be
//! cached: each answer of `/api/...` carries an `ETag` (from the query, the server's version and
//! a digest of the rule set's table files, [`Tables::fingerprint`]) and `Cache-Control`; a
//! request whose `If-None-Match` names the current tag gets `304 Not Modified`; and recent
//! answers are kept in memory, so that a repeated request is not computed again. An answer of
//! 1,400 bytes or more goes gzipped to a client that takes gzip (compressed once, kept beside
//! the answer); the tag names the answer, whichever encoding carries it.

use jtb_edge::{Rules, Tables};
use std::sync::Arc;

use axum::{
    body::{Body, Bytes},
    extract::Request,
    http::{header, HeaderMap, HeaderValue, Method, StatusCode},
    response::{IntoResponse, Response},
};
use quick_cache::{sync::Cache, Weighter};

use crate::api::ApiError;

/// Browsers and proxies keep an answer but ask again each time (a 304 is cheap): tables may be
/// added or replaced while the server runs, and the page must see them.
const CACHE_CONTROL: &str = "public, no-cache";
/// The largest answer kept in memory.
const MAX_CACHED_BYTES: usize = 4 << 20;

/// Answers at least this long are sent gzipped to a client that takes it (a shorter one fits
/// in a packet as it is).
const MIN_GZIP_BYTES: usize = 1400;

/// An answer kept in memory: its content type and body, and the body gzipped once a client
/// asked for it.
struct Cached {
    /// Its tag (the cache's key as text), made once.
    etag: HeaderValue,
    content_type: Option<HeaderValue>,
    body: Bytes,
    gzipped: std::sync::OnceLock<Bytes>,
}

/// Whether `Accept-Encoding` takes gzip (`gzip`, `gzip;q=0.5`; not `gzip;q=0`).
fn takes_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';').map(str::trim);
            let name = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

/// `body` gzipped (the fastest level: answers are JSON, which compresses well at any level).
fn gzip(body: &[u8]) -> Bytes {
    use std::io::Write;
    let mut out = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::fast(),
    );
    // Writing to memory cannot fail.
    out.write_all(body).expect("writing to memory");
    Bytes::from(out.finish().expect("writing to memory"))
}

/// The answer with `body`, gzipped (`gzipped` gives those bytes) where the client takes it and
/// the body is long enough ([`tagged`] adds `Vary: Accept-Encoding`, so that caches keep both).
fn sent(
    mut response: Response,
    body: Bytes,
    gzip_ok: bool,
    gzipped: impl FnOnce(&Bytes) -> Bytes,
) -> Response {
    let headers = response.headers_mut();
    if gzip_ok && body.len() >= MIN_GZIP_BYTES {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        headers.remove(header::CONTENT_LENGTH);
        *response.body_mut() = Body::from(gzipped(&body));
    } else {
        *response.body_mut() = Body::from(body);
    }
    response
}

#[derive(Clone)]
struct Weight;

impl Weighter<u64, Arc<Cached>> for Weight {
    fn weight(&self, _: &u64, value: &Arc<Cached>) -> u64 {
        value.body.len() as u64 + 128
    }
}

/// The answers' cache and the tables they come from.
pub struct Answers {
    lib: Arc<Tables>,
    /// Recent answers by tag; `None` when the operator turned it off (size 0).
    cache: Option<Cache<u64, Arc<Cached>, Weight>>,
}

impl Answers {
    /// The cache of answers over `lib`, holding up to `bytes` of answer bodies (0: none kept,
    /// tags and 304s still given).
    #[must_use]
    pub fn new(lib: Arc<Tables>, bytes: u64) -> Answers {
        let cache = (bytes > 0).then(|| Cache::with_weighter(4096, bytes, Weight));
        Answers { lib, cache }
    }
}

impl Answers {
    /// The answers kept in memory and their bytes (counted as the cache weighs them).
    #[must_use]
    pub fn usage(&self) -> (u64, u64) {
        self.cache
            .as_ref()
            .map_or((0, 0), |c| (c.len() as u64, c.weight()))
    }
}

/// The rule set an API path is about (`/api/v1/{rules}/...`), or `""` for the index.
fn rules_of(path: &str) -> &str {
    path.strip_prefix("/api/v1/")
        .map_or("", |rest| rest.split('/').next().unwrap_or(""))
}

/// Whether the answer to `path` depends on which tables are there (so the directory is looked
/// at again before its tag is made), rather than only on tables it names.
fn lists_tables(path: &str) -> bool {
    path == "/api/v1" || path.ends_with("/materials")
}

/// The tag of an answer: the request's path and query, the server's version, and what the
/// rule set's table files are (one pass of xxh3 over the target, seeded with the rest).
fn tag_of(target: &str, fingerprint: u64) -> u64 {
    let version = xxhash_rust::xxh3::xxh3_64(env!("CARGO_PKG_VERSION").as_bytes());
    xxhash_rust::xxh3::xxh3_64_with_seed(target.as_bytes(), fingerprint ^ version)
}

/// The text of the tag `key`: `"` and 16 hex digits and `"` (made on the stack: every request
/// compares it, few need it as a header).
fn etag_text(key: u64) -> [u8; 18] {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = [b'"'; 18];
    for (i, digit) in text[1..17].iter_mut().enumerate() {
        *digit = HEX[(key >> (60 - 4 * i) & 0xf) as usize];
    }
    text
}

/// The tag `key` as a header value.
fn etag_header(key: u64) -> HeaderValue {
    HeaderValue::from_bytes(&etag_text(key)).expect("hex is a header value")
}

/// The digest of the tables an answer about `rules` comes from (every rule set's for the
/// index, `""`): reads of what the last scans found, no file system access.
fn fingerprint(lib: &Tables, rules: &str) -> u64 {
    let all = Rules::all().into_iter();
    if !rules.is_empty() {
        return all
            .into_iter()
            .find(|r| r.name() == rules)
            .map_or(0, |r| lib.fingerprint(r));
    }
    all.fold(0u64, |acc, r| acc.rotate_left(7) ^ lib.fingerprint(r))
}

/// Whether `If-None-Match` names `etag` (`*` is not taken: it would answer 304 for a request
/// whose answer is an error).
fn matches(headers: &HeaderMap, etag: &[u8]) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .map(<[u8]>::trim_ascii)
        .any(|t| t == etag || t.strip_prefix(b"W/") == Some(etag))
}

/// Sets the caching headers of an answer tagged `etag` (weak, `W/`, when it is sent gzipped:
/// the bytes differ from the plain answer's, as nginx does).
fn tagged(mut response: Response, etag: &HeaderValue) -> Response {
    let headers = response.headers_mut();
    let etag = if headers.contains_key(header::CONTENT_ENCODING) {
        let weak = format!("W/{}", etag.to_str().expect("ascii"));
        HeaderValue::from_str(&weak).expect("ascii")
    } else {
        etag.clone()
    };
    headers.insert(header::ETAG, etag);
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(CACHE_CONTROL),
    );
    // Whether it went gzipped or not, a tagged answer varies with `Accept-Encoding` (a 304
    // says so too, as its 200 would).
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    response
}

/// The rule set (its id as the server knows it; `""` for the index) of a `GET` or `HEAD` of
/// `/api/...` whose answer is tagged; `None` for anything else, which passes untagged. Only a
/// rule set named as the server knows it counts (not `%6Distboard`, which routing decodes).
fn tagged_rules(request: &Request) -> Option<&'static str> {
    let method = request.method();
    let path = request.uri().path();
    if !(method == Method::GET || method == Method::HEAD) || !path.starts_with("/api/") {
        return None;
    }
    let rules = rules_of(path);
    if rules.is_empty() {
        return Some("");
    }
    Rules::all()
        .into_iter()
        .map(Rules::name)
        .find(|&id| id == rules)
}

/// Whether the table directory is to be looked at again before `request` is answered: about
/// once a second, and for every answer that lists the tables.
pub fn needs_refresh(answers: &Answers, request: &Request) -> bool {
    // The rule set is read only for a listing's path: [`prepare`] reads it for every request.
    answers.lib.due_for_check()
        || (lists_tables(request.uri().path()) && tagged_rules(request).is_some())
}

/// Looks at the table directory again (a few `stat`s, and reading the trailers of a changed
/// directory), off the async threads.
pub async fn refresh(answers: &Answers) {
    let lib = Arc::clone(&answers.lib);
    let _ = tokio::task::spawn_blocking(move || lib.refresh()).await;
}

/// What the cache makes of a request before the routes see it.
pub enum Prepared {
    /// Answered already: `304 Not Modified`, or an answer kept in memory.
    Answered(Response),
    /// To be answered by the routes, then tagged and kept as [`Pending::finish`] says.
    Pending(Pending),
}

/// How an answer the routes make is finished: tagged and kept, or (`None`: not an API answer
/// of a known rule set) passed on as it is.
pub struct Pending(Option<Miss>);

/// An API answer not in memory.
struct Miss {
    key: u64,
    etag: HeaderValue,
    gzip_ok: bool,
    keep: bool,
}

/// Tags, 304s and the answers kept in memory, for `GET` and `HEAD` of `/api/...`; anything
/// else passes through to the routes. Synchronous, after [`refresh`] where
/// [`needs_refresh`]: the request goes whole into the routes' future, not through one of the
/// cache's (every request's futures are boxed together; a small box is a cheap one).
pub fn prepare(answers: &Answers, request: &Request) -> Prepared {
    let Some(rules) = tagged_rules(request) else {
        return Prepared::Pending(Pending(None));
    };
    let uri = request.uri();
    let target = uri.path_and_query().map_or(uri.path(), |p| p.as_str());
    let key = tag_of(target, fingerprint(&answers.lib, rules));
    if matches(request.headers(), &etag_text(key)) {
        let response = StatusCode::NOT_MODIFIED.into_response();
        return Prepared::Answered(tagged(response, &etag_header(key)));
    }
    let gzip_ok = takes_gzip(request.headers());
    let cache = answers
        .cache
        .as_ref()
        .filter(|_| request.method() == Method::GET);
    if let Some(hit) = cache.and_then(|c| c.get(&key)) {
        let mut response = Response::new(Body::empty());
        if let Some(ct) = &hit.content_type {
            response
                .headers_mut()
                .insert(header::CONTENT_TYPE, ct.clone());
        }
        let response = sent(response, hit.body.clone(), gzip_ok, |body| {
            hit.gzipped.get_or_init(|| gzip(body)).clone()
        });
        return Prepared::Answered(tagged(response, &hit.etag));
    }
    let etag = etag_header(key);
    Prepared::Pending(Pending(Some(Miss {
        key,
        etag,
        gzip_ok,
        keep: cache.is_some(),
    })))
}

impl Pending {
    /// The routes' `response`, tagged, kept in memory and gzipped where it should be. Errors are
    /// neither tagged nor kept: a missing table may be generated at any moment.
    pub async fn finish(self, answers: &Answers, response: Response) -> Response {
        let Some(miss) = self.0 else {
            return response;
        };
        if response.status() != StatusCode::OK {
            return response;
        }
        if !miss.keep && !miss.gzip_ok {
            return tagged(response, &miss.etag);
        }
        let cache = answers.cache.as_ref().filter(|_| miss.keep);
        Box::pin(kept(cache, miss.key, response, miss.gzip_ok, miss.etag)).await
    }
}

/// A successful answer, kept in `cache` under `key` (when there is one and the answer is not
/// too large) and sent gzipped where the client takes it.
async fn kept(
    cache: Option<&Cache<u64, Arc<Cached>, Weight>>,
    key: u64,
    response: Response,
    gzip_ok: bool,
    etag: HeaderValue,
) -> Response {
    let (parts, body) = response.into_parts();
    // The answers are made in memory (JSON): collecting them costs no more than sending.
    let body = match axum::body::to_bytes(body, usize::MAX).await {
        Ok(body) => body,
        Err(_) => return ApiError::internal("an answer could not be read").into_response(),
    };
    let kept = Arc::new(Cached {
        etag: etag.clone(),
        content_type: parts.headers.get(header::CONTENT_TYPE).cloned(),
        body: body.clone(),
        gzipped: std::sync::OnceLock::new(),
    });
    let response = sent(
        Response::from_parts(parts, Body::empty()),
        body,
        gzip_ok,
        |body| kept.gzipped.get_or_init(|| gzip(body)).clone(),
    );
    if let Some(cache) = cache {
        if kept.body.len() <= MAX_CACHED_BYTES {
            cache.insert(key, kept);
        }
    }
    tagged(response, &etag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_set_of_a_path() {
        assert_eq!(rules_of("/api/v1"), "");
        assert_eq!(rules_of("/api/v1/mistboard"), "mistboard");
        assert_eq!(rules_of("/api/v1/clesto/stats/LvE"), "clesto");
    }

    #[test]
    fn if_none_match_lists_and_weak_tags() {
        let mut h = HeaderMap::new();
        h.insert(
            header::IF_NONE_MATCH,
            HeaderValue::from_static("\"a\", W/\"b\""),
        );
        assert!(matches(&h, b"\"a\""));
        assert!(matches(&h, b"\"b\""));
        assert!(!matches(&h, b"\"c\""));
        h.insert(header::IF_NONE_MATCH, HeaderValue::from_static("*"));
        assert!(!matches(&h, b"\"a\""));
    }

    #[test]
    fn a_tag_is_its_key_in_sixteen_hex_digits_quoted() {
        for key in [0, 1, 0xdead_beef, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert_eq!(etag_header(key), format!("\"{key:016x}\"").as_str());
        }
    }
}
