//! The HTTP API's answers apart from HTTP: its one error type and its words over the tables
//! (the edge's, [`jtb_edge::api`], which the browser's probe speaks too), what the server asks
//! of the tables ([`ApiTables`]), and what the table routes ask of each type of tables
//! ([`TableRoutes`]). The server (`serve/`) routes requests to them; each game's table answers
//! are in its module of `games/`.

mod tables;
mod words;

pub use jtb_edge::api::{ApiError, Problem};
pub(crate) use tables::shown;
pub use tables::{damaged, index_entry, oriented_histogram, TableRoutes};
pub use words::ApiTables;
