// Position text (RULES.md section 4), parsed only once the server has accepted it, and the
// transformations the controls make of a position.
'use strict';

import { fileOf, isRed, moveFrom, moveTo, rankOf, squareName } from './board.js';
import { ANIMALS, GAMBIT_PIECES } from './faces.js';

// Each side's letter in position text and the other side's: Red and Blue, Gold and Silver.
const OTHER_SIDE = { r: 'b', b: 'r', g: 's', s: 'g' };
export const otherSide = (turn) => OTHER_SIDE[turn] || 'r';

/**
 * Parses accepted position text into squares (name -> letter), side to move, clocks, and the
 * hungry set written in Clesto text (null: the board's own).
 */
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
  // Clesto's third field is the hungry set where it is not the board's (`h:c3,e7`, `h:-`).
  const hungry = fields[2] !== undefined && fields[2].startsWith('h:')
    ? fields[2].slice(2).split(',').filter((sq) => sq && sq !== '-')
    : null;
  return {
    squares,
    turn: OTHER_SIDE[fields[1]] ? fields[1] : 'r',
    clock: fields[2] !== undefined && /^\d+$/.test(fields[2]) ? Number(fields[2]) : null,
    moveNumber: fields[3] !== undefined && /^\d+$/.test(fields[3]) ? Number(fields[3]) : null,
    hungry,
    // The flip game's hidden set, the animals face down (`?:Tw`, RULES.md 8): its letters.
    hidden: (fields.find((f) => f.startsWith('?:')) || '').slice(2) || null,
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
  if (pos.hungry) {
    text += ` h:${pos.hungry.length ? [...pos.hungry].sort().join(',') : '-'}`;
  } else if (pos.clock !== null) {
    text += ` ${pos.clock}`;
    if (pos.moveNumber !== null) text += ` ${pos.moveNumber}`;
  }
  if (pos.hidden) text += `${pos.clock === null ? ' 0' : ''} ?:${pos.hidden}`;
  return text;
}

const swapCase = (ch) => (isRed(ch) ? ch.toLowerCase() : ch.toUpperCase());

/** The colour flip: ranks flipped, colours swapped, the other side to move. */
export function colourFlipped(pos, geo) {
  const squares = new Map();
  const flip = (sq) => squareName(fileOf(sq), geo.ranks + 1 - rankOf(sq));
  for (const [sq, ch] of pos.squares) {
    squares.set(flip(sq), ch === '?' ? ch : swapCase(ch));
  }
  // The hungry animals are the mover's, and the mover changes colour with them.
  const hungry = pos.hungry && pos.hungry.map(flip);
  // The hidden set changes colour too.
  const hidden = pos.hidden && [...pos.hidden].map(swapCase).join('');
  return { ...pos, squares, turn: otherSide(pos.turn), hungry, hidden };
}

/** The file mirror (a <-> g on the Jungle board). */
export function mirrored(pos, geo) {
  const squares = new Map();
  const mirror = (sq) => squareName(geo.files - 1 - fileOf(sq), rankOf(sq));
  for (const [sq, ch] of pos.squares) {
    squares.set(mirror(sq), ch);
  }
  return { ...pos, squares, hungry: pos.hungry && pos.hungry.map(mirror) };
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

/** The Animal Gambit material name (`ERvR`: Gold's pieces strongest first, `v`, Silver's). */
export function gambitMaterialOf(pos) {
  const side = (gold) => {
    let out = '';
    for (const [letter] of GAMBIT_PIECES) {
      for (const ch of pos.squares.values()) {
        if (ch === (gold ? letter : letter.toLowerCase())) out += letter;
      }
    }
    return out;
  };
  const [gold, silver] = [side(true), side(false)];
  return gold.includes('R') && silver.includes('R') ? `${gold}v${silver}` : null;
}

const STEP = { n: [0, 1], s: [0, -1], e: [1, 0], w: [-1, 0] };

/** The squares an Animal Gambit step token joins (`Ed2n` -> `d2d3`); null for a removal. */
export function stepMove(token) {
  const m = /^[EMHDCRemhdcr]([a-h][1-8])([nsew])$/.exec(token);
  if (!m) return null;
  const [df, dr] = STEP[m[2]];
  return m[1] + squareName(fileOf(m[1]) + df, rankOf(m[1]) + dr);
}

/** The steps of Animal Gambit turn text as the squares each joins, removals left out. */
export const turnMoves = (text) => (text || '').split(/\s+/).map(stepMove).filter(Boolean);

/**
 * The board after a move that ended the game (a den entry, the last piece taken, a trade, in
 * Clesto the mover's last animals starved: `m.starves` names them with their squares after it).
 */
export function afterFinalMove(pos, m) {
  const squares = new Map(pos.squares);
  const piece = squares.get(moveFrom(m.move));
  squares.delete(moveFrom(m.move));
  if (m.kind === 'trade') {
    squares.delete(moveTo(m.move));
  } else {
    squares.set(moveTo(m.move), piece);
  }
  for (const starved of m.starves || []) squares.delete(starved.slice(1));
  return squares;
}
