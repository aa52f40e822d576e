// Position text (RULES.md section 4), parsed only once the server has accepted it, and the
// transformations the controls make of a position.
'use strict';

import { fileOf, isRed, moveFrom, moveTo, rankOf, squareName } from './board.js';
import { ANIMALS } from './faces.js';

/** Parses accepted position text into squares (name -> letter), side to move and clocks. */
export function parseText(text) {
  const fields = text.trim().split(/\s+/);
  const rows = (fields[0] || '').split('/');
  const squares = new Map();
  rows.forEach((row, i) => {
    const rank = rows.length - i;
    let file = 0;
    for (const ch of row.match(/\d+|./g) || []) {
      if (/^\d+$/.test(ch)) {
        file += Number(ch);
      } else {
        squares.set(squareName(file, rank), ch);
        file += 1;
      }
    }
  });
  return {
    squares,
    turn: fields[1] === 'b' ? 'b' : 'r',
    clock: fields[2] !== undefined && /^\d+$/.test(fields[2]) ? Number(fields[2]) : null,
    moveNumber: fields[3] !== undefined && /^\d+$/.test(fields[3]) ? Number(fields[3]) : null,
  };
}

/** Prints a parsed position on the board of `geo` in canonical text. */
export function printText(pos, geo) {
  const rows = [];
  for (let rank = geo.ranks; rank >= 1; rank -= 1) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < geo.files; file += 1) {
      const ch = pos.squares.get(squareName(file, rank));
      if (ch) {
        row += (empty ? String(empty) : '') + ch;
        empty = 0;
      } else {
        empty += 1;
      }
    }
    rows.push(row + (empty ? String(empty) : ''));
  }
  let text = `${rows.join('/')} ${pos.turn}`;
  if (pos.clock !== null) {
    text += ` ${pos.clock}`;
    if (pos.moveNumber !== null) text += ` ${pos.moveNumber}`;
  }
  return text;
}

const swapCase = (ch) => (isRed(ch) ? ch.toLowerCase() : ch.toUpperCase());

/** The colour flip: ranks flipped, colours swapped, the other side to move. */
export function colourFlipped(pos, geo) {
  const squares = new Map();
  for (const [sq, ch] of pos.squares) {
    squares.set(squareName(fileOf(sq), geo.ranks + 1 - rankOf(sq)), ch === '?' ? ch : swapCase(ch));
  }
  return { ...pos, squares, turn: pos.turn === 'r' ? 'b' : 'r' };
}

/** The file mirror (a <-> g on the Jungle board). */
export function mirrored(pos, geo) {
  const squares = new Map();
  for (const [sq, ch] of pos.squares) {
    squares.set(squareName(geo.files - 1 - fileOf(sq), rankOf(sq)), ch);
  }
  return { ...pos, squares };
}

/** The animals of one colour, strongest first (`LR`). */
export function animalsOf(pos, red) {
  let out = '';
  for (const [letter] of ANIMALS) {
    for (const ch of pos.squares.values()) {
      if (ch === (red ? letter : letter.toLowerCase())) out += letter;
    }
  }
  return out;
}

/** The material name (`LRvE`, Red's animals first) of a position, or null. */
export function materialOf(pos) {
  const red = animalsOf(pos, true);
  const blue = animalsOf(pos, false);
  return red && blue ? `${red}v${blue}` : null;
}

/** The board after a move that ended the game (a den entry, the last piece taken, a trade). */
export function afterFinalMove(pos, m) {
  const squares = new Map(pos.squares);
  const piece = squares.get(moveFrom(m.move));
  squares.delete(moveFrom(m.move));
  if (m.kind === 'trade') {
    squares.delete(moveTo(m.move));
  } else {
    squares.set(moveTo(m.move), piece);
  }
  return squares;
}
