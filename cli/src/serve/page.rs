//! The explorer page: HTML, script, style sheet and icon, compiled into the binary (no build
//! step outside cargo).

use axum::{
    extract::{rejection::PathRejection, Path},
    http::{header, HeaderValue, StatusCode},
    response::{IntoResponse, Response},
};

use crate::api::ApiError;

pub(crate) const INDEX_HTML: &str = include_str!("../../assets/index.html");
const APP_JS: &str = include_str!("../../assets/app.js");
const BOARD_JS: &str = include_str!("../../assets/board.js");
const FACES_JS: &str = include_str!("../../assets/faces.js");
const CHARTS_JS: &str = include_str!("../../assets/charts.js");
const TEXT_JS: &str = include_str!("../../assets/text.js");
const APP_CSS: &str = include_str!("../../assets/app.css");
const FAVICON_SVG: &str = include_str!("../../assets/favicon.svg");

/// The page's files beside `index.html`, by name (under `assets/`): each with its text. The
/// static site of `jtb site` writes them.
pub(crate) const ASSETS: [(&str, &str); 7] = [
    ("app.js", APP_JS),
    ("board.js", BOARD_JS),
    ("faces.js", FACES_JS),
    ("charts.js", CHARTS_JS),
    ("text.js", TEXT_JS),
    ("app.css", APP_CSS),
    ("favicon.svg", FAVICON_SVG),
];

/// Only the page's own files run in it: no inline script, nothing from elsewhere.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

fn asset(body: &'static str, content_type: &'static str) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
            (
                header::CONTENT_SECURITY_POLICY,
                HeaderValue::from_static(CSP),
            ),
        ],
        body,
    )
        .into_response()
}

/// `GET /`: the explorer; its script reads `rules`, `position` and `material` from the URL.
pub async fn index() -> Response {
    asset(INDEX_HTML, "text/html; charset=utf-8")
}

/// `GET /assets/{file}`: the scripts (one module each: the page, the board, the piece faces, the
/// charts, position text), the style sheet and the icon, by exact name.
///
/// # Errors
/// 404 for any other name, 400 for one that is not UTF-8.
pub async fn file(name: Result<Path<String>, PathRejection>) -> Result<Response, ApiError> {
    let Path(name) =
        name.map_err(|_| ApiError::bad_query("the path is not UTF-8 once percent-decoded"))?;
    Ok(match name.as_str() {
        "app.js" => asset(APP_JS, "text/javascript; charset=utf-8"),
        "board.js" => asset(BOARD_JS, "text/javascript; charset=utf-8"),
        "faces.js" => asset(FACES_JS, "text/javascript; charset=utf-8"),
        "charts.js" => asset(CHARTS_JS, "text/javascript; charset=utf-8"),
        "text.js" => asset(TEXT_JS, "text/javascript; charset=utf-8"),
        "app.css" => asset(APP_CSS, "text/css; charset=utf-8"),
        "favicon.svg" => asset(FAVICON_SVG, "image/svg+xml"),
        _ => return Err(ApiError::not_found("no such asset")),
    })
}
