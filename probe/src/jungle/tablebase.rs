//! The Jungle family's probes (Jungle and the flip game share one rule-set type): how its
//! positions find their tables ([`Game`] for [`RuleSet`]), and what only Jungle and the flip
//! game answer: the distance to conversion and the clock rule. Clesto's tables have a game type
//! of their own ([`crate::Clesto`]): a `Tablebase<RuleSet>` does not open them.

use crate::{
    clock::{self, Category, RuleValue},
    core::{
        Game, Indexed, LineStep, MaterialSlots, Moves, ProbeError, ProbeResult, Successor,
        Tablebase,
    },
    format::Kind,
    index::Layout,
    material::Material,
    moves::{Move, Outcome},
    piece::Color,
    position::Position,
    rules::RuleSet,
    value::{Value, Wdl},
};

/// The tables present by material, in one array lookup (a material is two bytes).
pub struct JungleSlots(Box<[u16]>);

impl JungleSlots {
    #[inline]
    fn key(m: Material) -> usize {
        usize::from(m.set(Color::Red)) << 8 | usize::from(m.set(Color::Blue))
    }
}

impl Default for JungleSlots {
    fn default() -> JungleSlots {
        JungleSlots(vec![0; 1 << 16].into_boxed_slice())
    }
}

// `#[inline]` on what a probe calls every time (here and in the index, the material and the
// position): the generic probe path may be compiled in another codegen unit or in the caller's
// crate, where a function of this crate is inlined only when marked so.
impl MaterialSlots<Material> for JungleSlots {
    #[inline]
    fn get(&self, material: Material) -> Option<usize> {
        // 0: absent; else the place plus one.
        usize::from(self.0[JungleSlots::key(material)]).checked_sub(1)
    }

    fn insert(&mut self, material: Material, place: usize) {
        let slot = &mut self.0[JungleSlots::key(material)];
        if *slot == 0 {
            *slot = u16::try_from(place + 1).expect("fewer tables than materials");
        }
    }
}

impl Indexed for RuleSet {
    type Position = Position;
    type Layout = Layout;
    type Slots = JungleSlots;

    fn layout(self, material: Material) -> Layout {
        Layout::new(self, material)
    }

    fn pieces(material: Material) -> usize {
        material.total()
    }

    fn is_table_material(self, material: Material) -> bool {
        material.total() <= Layout::MAX_PIECES
            && material.count(Color::Red) > 0
            && material.count(Color::Blue) > 0
            && material == material.table_of(self)
    }

    fn alias(self, material: Material) -> Option<Material> {
        // The colour flip names the same table.
        self.colour_symmetric().then(|| material.flipped())
    }

    #[inline]
    fn material_of(pos: &Position) -> Material {
        Material::of(pos)
    }

    fn check_rules(self) -> ProbeResult<()> {
        if self == RuleSet::Clesto {
            return Err(ProbeError::NotForRules {
                rules: self.name(),
                what: "its tables hold Clesto's values: open them as Tablebase<Clesto>, not \
                       Tablebase<RuleSet>",
            });
        }
        Ok(())
    }

    #[inline]
    fn check_position(self, pos: &Position) -> ProbeResult<()> {
        if pos.rules() != self {
            return Err(ProbeError::WrongRules {
                tablebase: self.name(),
                position: pos.rules().name(),
            });
        }
        if pos.hidden() != 0 {
            return Err(ProbeError::HiddenTiles);
        }
        if pos.is_game_over() {
            return Err(ProbeError::GameOver);
        }
        Ok(())
    }

    #[inline]
    fn index_of(layout: &Layout, pos: &Position) -> usize {
        layout
            .index_of(pos)
            .expect("a legal position of the table's material has an index")
    }
}

impl Moves for RuleSet {
    type Move = Move;

    const MOVE_NOUN: &'static str = "move";

    fn without_clocks(pos: &Position) -> Position {
        pos.without_clocks()
    }

    fn successors(pos: &Position) -> Vec<(Move, Successor<Position>)> {
        let pos = pos.without_clocks();
        let mut moves = Vec::new();
        pos.for_each_outcome(|mv, outcome| moves.push((mv, successor(outcome))));
        moves.sort_unstable_by_key(|&(mv, _)| mv);
        moves
    }

    fn play(pos: &Position, mv: Move) -> Option<Successor<Position>> {
        pos.play(mv).ok().map(successor)
    }
}

// The provided probes again, as functions of this crate: compiled here, with the store's code
// inlined into them, where a provided (generic) method is compiled in the caller's crate and
// calls into this one (7-10% slower cached WDL and DTM probes in `cargo bench -p jtb-tests
// --bench probe`).
impl Game for RuleSet {
    fn probe_wdl(tb: &Tablebase, pos: &Position) -> ProbeResult<Wdl> {
        tb.stored_wdl(pos)
    }

    fn probe_dtm(tb: &Tablebase, pos: &Position) -> ProbeResult<Value> {
        tb.stored_value(pos, Kind::Dtm)
    }
}

/// A move's outcome as the probe path sees it.
fn successor(outcome: Outcome) -> Successor<Position> {
    match outcome {
        Outcome::Ongoing(next) => Successor::Next(next),
        Outcome::Over { result, .. } => Successor::End(result),
    }
}

/// A move with what it is worth under the clock rule, for the side that makes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleMove {
    /// The move.
    pub mv: Move,
    /// Its DTC value for the mover: a capture, trade or game end is a win, draw or loss in 1.
    pub dtc: Value,
    /// The rule value for the mover after it, at the clock it leaves (0 after a capture).
    pub wdl: Wdl,
}

/// A step of a line under the clock rule.
pub type RuleStep = LineStep<RuleValue>;

impl Tablebase {
    /// The distance to conversion for the side to move, from the DTC file (RULES.md 5.3): a win
    /// or loss in so many plies to the first capture, trade or end of the game, with captures
    /// valued by the clock rule; a draw where neither can be forced. The clock is ignored.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn probe_dtc(&self, pos: &Position) -> ProbeResult<Value> {
        self.stored_value(pos, Kind::Dtc)
    }

    /// The value under the clock rule at the position's half-move clock (0 when it has none):
    /// win, draw or loss, with the DTC and the category at clock 0 (RULES.md 5.4, 5.5). One DTC
    /// lookup; a DTC draw also reads the WDL file for its category.
    ///
    /// # Errors
    /// As [`Tablebase::probe_wdl`].
    pub fn probe_rule(&self, pos: &Position) -> ProbeResult<RuleValue> {
        let dtc = self.probe_dtc(pos)?;
        let limit = self.rules().clock_limit();
        let category = match Category::of_decided_dtc(dtc, limit) {
            Some(c) => c,
            None => Category::of(self.probe_wdl(pos)?, dtc, limit),
        };
        Ok(RuleValue::new(
            self.rules(),
            pos.clock().unwrap_or(0),
            dtc,
            category,
        ))
    }

    /// Every legal move with what it is worth under the clock rule at the position's clock, in
    /// move order (ASCII). A position at the clock limit is drawn and has no such moves.
    ///
    /// # Errors
    /// As [`Tablebase::probe_dtc`], for the position or any successor.
    pub fn rule_moves(&self, pos: &Position) -> ProbeResult<Vec<RuleMove>> {
        self.covers(pos)?;
        let limit = self.rules().clock_limit();
        let clock = pos.clock().unwrap_or(0);
        if clock >= limit {
            return Ok(Vec::new());
        }
        let material = Material::of(pos);
        let mut outcomes = Vec::new();
        pos.for_each_outcome(|mv, outcome| outcomes.push((mv, outcome)));
        outcomes.sort_unstable_by_key(|&(mv, _)| mv);
        outcomes
            .into_iter()
            .map(|(mv, outcome)| {
                let (dtc, wdl) = match outcome {
                    Outcome::Over { result, .. } => (result.of_final_move(), result),
                    Outcome::Ongoing(next) => {
                        let after = self.probe_dtc(&next)?;
                        if Material::of(&next) != material {
                            let at_zero = clock::rule_wdl(after, 0, limit);
                            (clock::conversion_value(at_zero), at_zero.flipped())
                        } else {
                            let wdl = clock::rule_wdl(after, clock + 1, limit).flipped();
                            (after.back_one_ply(), wdl)
                        }
                    }
                };
                Ok(RuleMove { mv, dtc, wdl })
            })
            .collect()
    }

    /// The best move under the clock rule at the position's clock (RULES.md 5.6): in a rule win
    /// the move that keeps it with the smallest DTC, in a rule loss the largest DTC, in a rule
    /// draw the first move that keeps the draw; among equals the smallest in ASCII order.
    /// `None` when the side to move has no move, or the clock has reached the limit (the game
    /// is drawn).
    ///
    /// # Errors
    /// As [`Tablebase::rule_moves`], and [`ProbeError::Inconsistent`] when the moves contradict
    /// the position's stored DTC.
    pub fn rule_best_move(&self, pos: &Position) -> ProbeResult<Option<RuleMove>> {
        let root = self.probe_rule(pos)?;
        let moves = self.rule_moves(pos)?;
        if moves.is_empty() {
            return Ok(None);
        }
        let best = match root.wdl {
            Wdl::Draw => moves.into_iter().find(|m| m.wdl == Wdl::Draw),
            wdl => moves
                .into_iter()
                .rev()
                .filter(|m| m.wdl == wdl)
                .max_by_key(|m| m.dtc)
                .filter(|m| m.dtc == root.dtc),
        };
        match best {
            Some(m) => Ok(Some(m)),
            None => Err(ProbeError::Inconsistent {
                position: pos.to_string(),
                noun: "move",
                kind: Kind::Dtc,
                stored: root.dtc,
                best: None,
            }),
        }
    }

    /// The whole line under the clock rule from `pos` at its clock to the end of the game: rule
    /// best moves by both sides, the clock advancing and restarting at each capture (empty for a
    /// rule draw). It reaches the first conversion after exactly DTC plies.
    ///
    /// # Errors
    /// As [`Tablebase::rule_best_move`].
    pub fn rule_line(&self, pos: &Position) -> ProbeResult<Vec<RuleStep>> {
        if self.probe_rule(pos)?.is_draw() {
            return Ok(Vec::new());
        }
        let mut start = pos.clone();
        start
            .set_rule_clock(None)
            .expect("the position's own clock is within the limit");
        self.play_line(
            start,
            |p| Ok(self.rule_best_move(p)?.map(|m| m.mv)),
            |p| self.probe_rule(p),
        )
    }
}
