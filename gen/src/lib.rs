//! Retrograde generation of endgame tables.
