//! What a front end keeps of a rule set's tables besides their blocks (a table's header
//! statistics, its histograms), computed once per scan of the rule set.

use std::{
    any::Any,
    collections::HashMap,
    fmt,
    sync::{Arc, Mutex, MutexGuard, PoisonError},
};

use crate::Rules;

/// What is kept, by rule set, what it is, and the table's name; and how many times each rule
/// set's was dropped, so that a value computed from tables since replaced is not kept.
#[derive(Default)]
struct Memos {
    values: HashMap<(Rules, &'static str, String), Arc<dyn Any + Send + Sync>>,
    scans: HashMap<Rules, u64>,
}

/// Values computed from a rule set's tables, each kept until the rule set's directory changes
/// ([`super::Tables::refresh`] forgets them).
#[derive(Default)]
pub struct Memo(Mutex<Memos>);

impl Memo {
    /// What `compute` gives for `what` of table `table` under `rules`, computed on the first
    /// ask after each scan of the rule set. `what` names one type of value.
    ///
    /// # Errors
    /// `compute`'s error (not kept: the next ask computes again).
    pub fn get<T: Send + Sync + 'static, E>(
        &self,
        rules: Rules,
        what: &'static str,
        table: &dyn fmt::Display,
        compute: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        let key = (rules, what, table.to_string());
        let scan = {
            let memos = self.lock();
            if let Some(found) = memos.values.get(&key).cloned() {
                // Another type under the same `what` is a bug: computed afresh, never mistaken.
                match found.downcast::<T>() {
                    Ok(found) => return Ok(found),
                    Err(_) => debug_assert!(false, "memo {what} asked as two types"),
                }
            }
            memos.scans.get(&rules).copied()
        };
        // Computed without the lock: two threads may both compute it, and either copy serves.
        let value = Arc::new(compute()?);
        let mut memos = self.lock();
        // Kept only if the rule set's tables were not replaced meanwhile.
        if memos.scans.get(&rules).copied() == scan {
            memos
                .values
                .insert(key, Arc::clone(&value) as Arc<dyn Any + Send + Sync>);
        }
        Ok(value)
    }

    /// Drops what is kept of `rules`' tables.
    pub(super) fn forget(&self, rules: Rules) {
        let mut memos = self.lock();
        memos.values.retain(|(r, _, _), _| *r != rules);
        *memos.scans.entry(rules).or_default() += 1;
    }

    fn lock(&self) -> MutexGuard<'_, Memos> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
