//! Solved tables in memory, and the set of smaller tables that captures lead into.

use std::sync::Arc;

use jtb_probe::{
    clock, ClestoValue, Color, FreePieceIndex, Kind, Layout, Material, Piece, RuleSet, Square,
    Value,
};

use crate::{Codes, GenError};

/// Which distance a table's values count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Distance to mate, the game without a clock (RULES.md section 3).
    Dtm,
    /// Distance to conversion, the clock rule (RULES.md section 5): a capture or trade into a
    /// smaller table is worth its rule value at clock 0, one ply away.
    Dtc,
    /// Clesto's repetition ban (RULES.md 6): where the ban decides, the banned side's distance
    /// out of the material as a win or loss of the mover; a draw elsewhere.
    Ban,
}

impl Metric {
    /// The metric of a table's second file beside DTM under `rules`
    /// ([`RuleSet::second_kind`]): the distance to conversion, or Clesto's ban.
    #[must_use]
    pub const fn second(rules: RuleSet) -> Metric {
        match rules.second_kind() {
            Kind::Ban => Metric::Ban,
            _ => Metric::Dtc,
        }
    }

    /// The kind of file that holds this metric's codes.
    #[must_use]
    pub const fn kind(self) -> Kind {
        match self {
            Metric::Dtm => Kind::Dtm,
            Metric::Dtc => Kind::Dtc,
            Metric::Ban => Kind::Ban,
        }
    }
}

/// The code of an entry that no position uses (two pieces on one square) in a solved table:
/// no value has it ([`Value::from_code`] refuses it), so the writer tells used entries by their
/// codes alone.
pub const UNUSED: u16 = 1;

/// A solved table: its layout and, per entry, one value code ([`Value::code`]) of each of its
/// two metrics (distance to mate, and [`Metric::second`] of its rules),
/// a byte an entry where it fits ([`Codes`]).
/// Unused entries hold [`UNUSED`] in a table the solver made, and don't-care codes in one
/// [`crate::run::load`] read back.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The index scheme.
    pub layout: Layout,
    /// Distance to mate, one code per entry.
    pub codes: Codes,
    /// The second file's codes, one per entry: distance to conversion ([`Metric::Dtc`]), or in
    /// Clesto the ban's ([`Metric::Ban`]).
    pub second_codes: Codes,
}

impl Solved {
    /// The value (distance to mate) of entry `idx` for its side to move.
    ///
    /// # Panics
    /// If `idx` is out of range or unused.
    #[must_use]
    pub fn value(&self, idx: usize) -> Value {
        self.value_in(Metric::Dtm, idx)
    }

    /// The distance to conversion of entry `idx` for its side to move.
    ///
    /// # Panics
    /// As [`Solved::value`].
    #[must_use]
    pub fn dtc(&self, idx: usize) -> Value {
        self.value_in(Metric::Dtc, idx)
    }

    /// The value of entry `idx` in `metric`.
    ///
    /// # Panics
    /// As [`Solved::value`].
    #[must_use]
    pub fn value_in(&self, metric: Metric, idx: usize) -> Value {
        Value::from_code(self.codes_of(metric).get(idx)).expect("a used entry")
    }

    /// The codes of `metric`.
    #[must_use]
    pub fn codes_of(&self, metric: Metric) -> &Codes {
        match metric {
            Metric::Dtm => &self.codes,
            Metric::Dtc | Metric::Ban => &self.second_codes,
        }
    }

    /// What a move into entry `idx` is worth to the side that made it, in both metrics (see
    /// [`SubTables::exit_values`]).
    fn exit_values_of(&self, idx: usize) -> [Value; 2] {
        [
            self.value(idx).back_one_ply(),
            clock::conversion_value(self.rule_wdl_at_zero(idx)),
        ]
    }

    /// The Clesto value of entry `idx` of a Clesto table, whose DTM codes are plain values and
    /// second codes the ban's resolution ([`crate::clesto`]).
    ///
    /// # Panics
    /// As [`Solved::value`], and if the two codes contradict each other.
    #[must_use]
    pub fn clesto_value(&self, idx: usize) -> ClestoValue {
        let turn = if idx < self.layout.side_len() {
            Color::Red
        } else {
            Color::Blue
        };
        let banned = turn == jtb_probe::banned_side(self.layout.material());
        ClestoValue::from_parts(self.value(idx), self.dtc(idx), banned)
            .expect("a Clesto table's two codes agree")
    }

    /// The rule value at clock 0 of entry `idx` (RULES.md 5.4).
    ///
    /// # Panics
    /// As [`Solved::value`].
    #[must_use]
    pub fn rule_wdl_at_zero(&self, idx: usize) -> jtb_probe::Wdl {
        clock::rule_wdl(self.dtc(idx), 0, self.layout.rules().clock_limit())
    }
}

/// Solved tables by canonical material: what captures lead into.
#[derive(Debug, Default, Clone)]
pub struct SubTables {
    rules: Option<RuleSet>,
    /// By [`SubTables::key`], under both orientations of each material: captures look tables
    /// up once per position, so this is a direct index rather than a hash map.
    tables: Vec<Option<Arc<Solved>>>,
}

impl SubTables {
    /// An empty set.
    #[must_use]
    pub fn new() -> SubTables {
        SubTables::default()
    }

    /// Adds a solved table.
    ///
    /// # Panics
    /// If it is of another rule set than the tables already added.
    pub fn insert(&mut self, table: Arc<Solved>) {
        let rules = table.layout.rules();
        assert!(
            self.rules.is_none_or(|r| r == rules),
            "sub-tables of one rule set only"
        );
        self.rules = Some(rules);
        if self.tables.is_empty() {
            self.tables = vec![None; 1 << 16];
        }
        let material = table.layout.material();
        if rules.colour_symmetric() {
            self.tables[SubTables::key(material.flipped())] = Some(Arc::clone(&table));
        }
        self.tables[SubTables::key(material)] = Some(table);
    }

    /// The table of `material` (either orientation), if present.
    #[must_use]
    pub fn get(&self, material: Material) -> Option<&Arc<Solved>> {
        self.tables.get(SubTables::key(material))?.as_ref()
    }

    fn key(material: Material) -> usize {
        usize::from(material.set(Color::Red)) << 8 | usize::from(material.set(Color::Blue))
    }

    /// Whether the table of `material` (either orientation) is present.
    #[must_use]
    pub fn contains(&self, material: Material) -> bool {
        self.get(material).is_some()
    }

    /// The Clesto value of `pos` for its side to move: its table's entry where its hungry set
    /// is canonical, else by looking one move ahead ([`jtb_probe::value_by_lookahead`]).
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when a table it needs is not present.
    pub fn clesto_value(&self, pos: &jtb_probe::Position) -> Result<ClestoValue, GenError> {
        if !pos.hungry_is_canonical() {
            return jtb_probe::value_by_lookahead(pos, |next| self.clesto_value(next));
        }
        let material = Material::of(pos);
        let table = self.get(material).ok_or(GenError::MissingTable(material))?;
        let idx = table
            .layout
            .index_of(pos)
            .expect("a legal position of the table's material has an entry");
        Ok(table.clesto_value(idx))
    }

    /// The value of `pos` for its side to move (see [`SubTables::value`]).
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when the position's table is not present.
    pub fn value_of_position(&self, pos: &jtb_probe::Position) -> Result<Value, GenError> {
        let placed: Vec<(Piece, Square)> = pos.pieces().collect();
        self.value(pos.turn(), &placed)
    }

    /// The value (distance to mate) for `turn` of the placement `placed`: a finished game when
    /// a side has no piece (the side to move has lost, won, or both are gone: a draw), else the
    /// table's entry.
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when the placement's table is not present.
    pub fn value(&self, turn: Color, placed: &[(Piece, Square)]) -> Result<Value, GenError> {
        self.value_in(Metric::Dtm, turn, placed)
    }

    /// As [`SubTables::value`], in `metric`.
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when the placement's table is not present.
    pub fn value_in(
        &self,
        metric: Metric,
        turn: Color,
        placed: &[(Piece, Square)],
    ) -> Result<Value, GenError> {
        Ok(match self.lookup(turn, placed)? {
            Lookup::Over(v) => v,
            Lookup::Entry(table, idx) => table.value_in(metric, idx),
        })
    }

    /// [`SubTables::value_in`] in both metrics (distance to mate, distance to conversion), from
    /// one lookup.
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when the placement's table is not present.
    pub fn values(&self, turn: Color, placed: &[(Piece, Square)]) -> Result<[Value; 2], GenError> {
        Ok(match self.lookup(turn, placed)? {
            Lookup::Over(v) => [v; 2],
            Lookup::Entry(table, idx) => [table.value(idx), table.dtc(idx)],
        })
    }

    /// The value in both metrics (distance to mate, distance to conversion), for the side that
    /// made it, of a move that leaves its table (a capture or trade) for the placement `placed`
    /// with `turn` to move, from one lookup. In DTM the smaller table's value one ply further;
    /// in DTC a conversion worth the smaller position's rule value at clock 0, one ply away; a
    /// finished game the same in both.
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when the placement's table is not present.
    pub fn exit_values(
        &self,
        turn: Color,
        placed: &[(Piece, Square)],
    ) -> Result<[Value; 2], GenError> {
        Ok(match self.lookup(turn, placed)? {
            Lookup::Over(v) => [v.back_one_ply(); 2],
            Lookup::Entry(table, idx) => table.exit_values_of(idx),
        })
    }

    /// [`SubTables::exit_values`] of the placements `fixed` plus `free` on any square, prepared
    /// once for them all (a capture that leaves one piece where it stands, wherever that is).
    ///
    /// # Errors
    /// [`GenError::MissingTable`] when the placements' table is not present.
    pub(crate) fn exit_values_with_free(
        &self,
        turn: Color,
        fixed: &[(Piece, Square)],
        free: Piece,
    ) -> Result<FreeExit<'_>, GenError> {
        let material: Material = fixed.iter().map(|&(p, _)| p).chain([free]).collect();
        if material.count(Color::Red) == 0 || material.count(Color::Blue) == 0 {
            // A side is gone wherever the free piece stands.
            let mut placed = fixed.to_vec();
            placed.push((free, Square::new(0, 0)));
            return Ok(FreeExit::Over(self.exit_values(turn, &placed)?));
        }
        let table = self
            .get(material)
            .ok_or_else(|| GenError::MissingTable(material.canonical()))?;
        let index = table
            .layout
            .with_free_piece(turn, fixed, free)
            .expect("a legal placement of the table's material has an index");
        Ok(FreeExit::Entries(table, index))
    }

    /// Where the placement `placed` with `turn` to move stands: a finished game, or an entry.
    fn lookup(&self, turn: Color, placed: &[(Piece, Square)]) -> Result<Lookup<'_>, GenError> {
        let material: Material = placed.iter().map(|&(p, _)| p).collect();
        let (mine, theirs) = (material.count(turn), material.count(turn.other()));
        match (mine, theirs) {
            (0, 0) => return Ok(Lookup::Over(Value::Draw)),
            (0, _) => return Ok(Lookup::Over(Value::Loss(0))),
            (_, 0) => return Ok(Lookup::Over(Value::Win(0))),
            _ => {}
        }
        let table = self
            .get(material)
            .ok_or_else(|| GenError::MissingTable(material.canonical()))?;
        let idx = table
            .layout
            .index_of_placement(turn, placed)
            .expect("a legal placement of the table's material has an index");
        Ok(Lookup::Entry(table, idx))
    }
}

/// The worth of a move that leaves its table, with one piece of the placement free: see
/// [`SubTables::exit_values_with_free`].
pub(crate) enum FreeExit<'a> {
    /// The game is over wherever the piece stands.
    Over([Value; 2]),
    /// Entries of a smaller table.
    Entries(&'a Solved, FreePieceIndex<'a>),
}

impl FreeExit<'_> {
    /// The worth in both metrics with the free piece on `sq`.
    ///
    /// # Panics
    /// If `sq` is outside the free piece's domain.
    #[inline]
    pub(crate) fn values(&self, sq: Square) -> [Value; 2] {
        match self {
            FreeExit::Over(v) => *v,
            FreeExit::Entries(table, index) => {
                let idx = index
                    .index(sq)
                    .expect("the free piece's square is in its domain");
                Solved::exit_values_of(table, idx)
            }
        }
    }
}

/// A placement: a finished game with its value for the side to move, or a table entry.
enum Lookup<'a> {
    Over(Value),
    Entry(&'a Solved, usize),
}
