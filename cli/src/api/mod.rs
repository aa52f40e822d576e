//! The HTTP API's answers apart from HTTP: its one error type ([`ApiError`]), its words over the
//! edge's tables ([`ApiTables`]: a missing or damaged table, named relative to the root), and
//! what the table routes ask of each type of tables ([`TableRoutes`]). The server (`serve/`)
//! routes requests to them; each game's table answers are in its module of `games/`.

mod error;
mod tables;
mod words;

pub use error::{ApiError, Problem};
pub(crate) use tables::shown;
pub use tables::{damaged, index_entry, oriented_histogram, TableRoutes};
pub use words::ApiTables;
