//! A position of the Jungle family reduced to what its table entry needs: the side to move and
//! each animal's square. Built from compact records (a batch of packed positions) without the
//! rest of a [`Position`], and probed in bulk
//! ([`Tablebase::probe_wdl_placements`](crate::Tablebase::probe_wdl_placements)).

use crate::{
    board::{bit, Square, SquareSet},
    material::Material,
    piece::{Animal, Color, Piece},
    position::Position,
    rules::RuleSet,
};

/// The pieces of a legal position with no face-down tile, and the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    rules: RuleSet,
    turn: Color,
    /// By colour, then animal (rat 0 ... elephant 7).
    squares: [[Option<Square>; 8]; 2],
    material: Material,
}

impl Placement {
    /// The placement of `squares` (by colour, then animal: rat 0 ... elephant 7) with `turn`
    /// to move under `rules`, where it is a position that a table may hold: each side has an
    /// animal, no two stand on a square, and each stands on a square it may
    /// ([`RuleSet::may_stand`]), exactly as [`Position::put`] checks them. `None` otherwise:
    /// the [`Position`] built with its checks says what is wrong, or why no table holds it.
    #[must_use]
    #[inline]
    pub fn new(
        rules: RuleSet,
        turn: Color,
        squares: [[Option<Square>; 8]; 2],
    ) -> Option<Placement> {
        // RuleSet::may_stand, with the board's two sets found once.
        let board = rules.board();
        let (land, wet) = (board.standing_squares(false), board.standing_squares(true));
        let mut taken: SquareSet = 0;
        let mut sets = [0u8; 2];
        for (set, side) in sets.iter_mut().zip(&squares) {
            for (animal, sq) in Animal::ALL.into_iter().zip(side) {
                let Some(sq) = *sq else { continue };
                let standing = if rules.swims(animal) { wet } else { land };
                if standing & !taken & bit(sq) == 0 {
                    return None;
                }
                taken |= bit(sq);
                *set |= 1 << animal as u8;
            }
        }
        (sets[0] != 0 && sets[1] != 0).then(|| Placement {
            rules,
            turn,
            squares,
            material: Material::from_sets(sets[0], sets[1]),
        })
    }

    /// The rule set.
    #[must_use]
    pub const fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The side to move.
    #[must_use]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The material.
    #[must_use]
    pub const fn material(&self) -> Material {
        self.material
    }

    /// The square of `piece`, if it is on the board.
    #[must_use]
    #[inline]
    pub fn square_of(&self, piece: Piece) -> Option<Square> {
        self.squares[piece.color.index()][piece.animal as usize]
    }

    /// The position: these pieces and the side to move, without a clock.
    #[must_use]
    pub fn position(&self) -> Position {
        let mut pos = Position::empty(self.rules, self.turn);
        for color in Color::ALL {
            for animal in Animal::ALL {
                let piece = Piece::new(color, animal);
                if let Some(sq) = self.square_of(piece) {
                    pos.put(piece, sq)
                        .expect("a placement's pieces stand where a position's may");
                }
            }
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A placement is built exactly where a position is: the same squares (every piece on every
    /// square of every rule set's board, beside another piece or alone), and back to the same
    /// position.
    #[test]
    fn a_placement_is_a_position_the_tables_may_hold() {
        for rules in RuleSet::ALL {
            let board = rules.board();
            for color in Color::ALL {
                for animal in Animal::ALL {
                    let piece = Piece::new(color, animal);
                    let other = Piece::new(color.other(), Animal::Cat);
                    let other_at = Square::new(0, 1);
                    for sq in board.squares() {
                        let mut squares = [[None; 8]; 2];
                        squares[color.index()][animal as usize] = Some(sq);
                        squares[color.other().index()][Animal::Cat as usize] = Some(other_at);
                        let mut pos = Position::empty(rules, Color::Blue);
                        let legal = pos.put(other, other_at).is_ok() && pos.put(piece, sq).is_ok();
                        let placement = Placement::new(rules, Color::Blue, squares);
                        assert_eq!(placement.is_some(), legal, "{rules:?} {piece:?} {sq}");
                        if let Some(placement) = placement {
                            assert_eq!(placement.position(), pos);
                            assert_eq!(placement.material(), Material::of(&pos));
                        }
                    }
                }
            }
        }
        // A side without animals: no table holds it.
        let mut squares = [[None; 8]; 2];
        squares[0][0] = Some(Square::new(0, 0));
        assert!(Placement::new(RuleSet::Mistboard, Color::Red, squares).is_none());
    }
}
