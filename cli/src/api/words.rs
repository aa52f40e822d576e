//! What the server asks of the edge's tables ([`jtb_edge::Tables`], which find, open, rescan
//! and memo them for every front end), in the API's errors ([`ApiTables`]): a rule set's tables
//! or why there are none, and a second try when tables have appeared.

use std::sync::Arc;

use jtb_edge::{api::open_error, games::EdgeGame, Rules, Tables};
use jtb_probe::{Material, RuleSet, Tablebase};

use super::{ApiError, Problem};

/// What the server says of the edge's tables, in the API's errors.
pub trait ApiTables {
    /// Runs `answer`, and once more if it met a missing table and the table directory has
    /// changed since it was scanned: a table generated while the server runs is found on the
    /// first request that needs it.
    ///
    /// # Errors
    /// `answer`'s error.
    fn answer<T>(&self, answer: impl Fn(&Tables) -> Result<T, ApiError>) -> Result<T, ApiError>;

    /// The tables of `rules`, of its game `G`'s type, or why there are none.
    ///
    /// # Errors
    /// 404 naming the missing directory and the command that makes the tables; 500 for a rule
    /// set that is not `G`'s.
    fn game_tables<G: EdgeGame>(&self, rules: Rules)
        -> Result<Arc<Tablebase<G::Tables>>, ApiError>;

    /// The materials of a Jungle-family rule set's tables (Clesto's included), fewest pieces
    /// first, or why there are none.
    ///
    /// # Errors
    /// As [`ApiTables::game_tables`].
    fn materials(&self, rules: RuleSet) -> Result<Vec<Material>, ApiError>;

    /// The number of tables of `rules` and the most pieces of any, or why it has none.
    ///
    /// # Errors
    /// As [`ApiTables::game_tables`].
    fn table_size(&self, rules: Rules) -> Result<(usize, usize), ApiError>;
}

impl ApiTables for Tables {
    fn answer<T>(&self, answer: impl Fn(&Tables) -> Result<T, ApiError>) -> Result<T, ApiError> {
        match answer(self) {
            Err(e) if e.problem == Problem::MissingTable && self.refresh() => answer(self),
            other => other,
        }
    }

    fn game_tables<G: EdgeGame>(
        &self,
        rules: Rules,
    ) -> Result<Arc<Tablebase<G::Tables>>, ApiError> {
        self.of::<G>(rules).map_err(|e| open_error(rules, &e))
    }

    fn materials(&self, rules: RuleSet) -> Result<Vec<Material>, ApiError> {
        let rules = Rules::Jungle(rules);
        self.with_any(rules, jtb_edge::AnyTablebase::family_materials)
            .map_err(|e| open_error(rules, &e))?
            .ok_or_else(|| {
                ApiError::internal(format!("{rules}: its tables are held as another game's"))
            })
    }

    fn table_size(&self, rules: Rules) -> Result<(usize, usize), ApiError> {
        self.size(rules).map_err(|e| open_error(rules, &e))
    }
}
