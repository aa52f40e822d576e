// The board in SVG, drawn from the server's description of it (size, water, traps, dens), so
// that any rule set's board is drawn by the same code: the Jungle board, the 4x4 flip board,
// and Animal Gambit's 8x8 board with its four traps.
'use strict';

import { ANIMAL, GAMBIT_PIECE, drawFace, svg } from './faces.js';

const SQ = 60; // square size in SVG units
const MARGIN = 22; // room for the coordinates

export const squareName = (file, rank) => String.fromCharCode(97 + file) + rank;
export const fileOf = (sq) => sq.charCodeAt(0) - 97;
export const rankOf = (sq) => Number(sq.slice(1));
export const isRed = (ch) => ch >= 'A' && ch <= 'Z';

/**
 * The geometry of rule set `rules` from its `board` object of `GET /api/v1`: files, ranks,
 * water, traps and dens as sets of square names, the clock limit, and what the API says of the
 * game (its name, its sides, the unit of its distances, whether a move is a turn of steps, how
 * the board is drawn), so that the page names no game.
 */
export function geometryFrom(rules, board) {
  return {
    rules,
    game: board.game,
    title: board.title,
    // The side letters of position text and the sides' names, first player first.
    sides: board.side_letters,
    sideNames: board.sides,
    unit: board.distance_unit,
    // Each piece letter's name (upper case).
    pieceNames: board.piece_names,
    // `jungle` (the animals, drawn in the face the user chose) or another set (as letters).
    pieceSet: board.piece_set,
    // A move is a turn of 1 to 4 steps, played one step at a time (`/steps`).
    turns: Boolean(board.turns_of_steps),
    files: board.width,
    ranks: board.height,
    water: new Set(board.water),
    traps: new Set(board.traps),
    dens: new Set(board.dens),
    limit: board.clock_limit,
    // Clesto: animals get hungry (drawn with a ring); no clock when the limit is 0.
    hunger: Boolean(board.hunger),
    // `land` (water, traps, dens), `tiles` (the flip game's) or `plain` (a chequered board).
    style: board.style,
  };
}

/** Whether `sq` (text) names a square of the board. */
export function onBoard(geo, sq) {
  if (typeof sq !== 'string' || !/^[a-z][1-9][0-9]?$/.test(sq)) return false;
  const file = fileOf(sq);
  const rank = rankOf(sq);
  return file < geo.files && rank >= 1 && rank <= geo.ranks;
}

/** Whether `move` (text such as `b3b7`) joins two squares of the board. */
export function isMoveText(geo, move) {
  const m = typeof move === 'string' && move.match(/^([a-z][1-9][0-9]?)([a-z][1-9][0-9]?)$/);
  return Boolean(m) && onBoard(geo, m[1]) && onBoard(geo, m[2]);
}

export const moveFrom = (move) => move.match(/^[a-z]\d+/)[0];
export const moveTo = (move) => move.slice(moveFrom(move).length);

/** Where square `sq` is drawn: its top-left corner, the board seen from Blue when `flipped`. */
function squareXY(sq, geo, flipped) {
  const file = flipped ? geo.files - 1 - fileOf(sq) : fileOf(sq);
  const row = flipped ? rankOf(sq) - 1 : geo.ranks - rankOf(sq);
  return [MARGIN + file * SQ, row * SQ + 2];
}

function centre(sq, geo, flipped) {
  const [x, y] = squareXY(sq, geo, flipped);
  return [x + SQ / 2, y + SQ / 2];
}

/**
 * Draws a board into the SVG element `el`. `view` holds: `geo`; `squares` (Map square ->
 * letter, `?` a face-down tile); `flipped`; `face`; and optionally `last` (a move to
 * highlight, or a list of them: an Animal Gambit turn's steps), `selected` (a square) with
 * `targets` (squares), `arrows` ([{ move, kind, label }]),
 * `cursor` (the keyboard's square), `editing`, `hungry` (squares of hungry animals, Clesto).
 */
export function drawBoard(el, view) {
  const { geo, flipped } = view;
  el.replaceChildren();
  el.setAttribute('viewBox', `0 0 ${MARGIN + geo.files * SQ + 4} ${geo.ranks * SQ + MARGIN + 4}`);
  el.classList.toggle('editing', Boolean(view.editing));
  drawArrowHeads(el);
  for (let rank = 1; rank <= geo.ranks; rank += 1) {
    for (let file = 0; file < geo.files; file += 1) drawSquare(el, squareName(file, rank), view);
  }
  drawCoordinates(el, geo, flipped);
  const lastMoves = Array.isArray(view.last) ? view.last : [view.last].filter(Boolean);
  const lit = new Set(lastMoves.flatMap((m) => [moveFrom(m), moveTo(m)]));
  for (const sq of lit) {
    const [x, y] = squareXY(sq, geo, flipped);
    svg('rect', { x, y, width: SQ, height: SQ, class: 'hl-last' }, el);
  }
  for (const [sq, ch] of view.squares) drawPiece(el, sq, ch, view);
  if (view.selected) {
    const [x, y] = squareXY(view.selected, geo, flipped);
    svg('rect', { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: 'hl-selected' }, el);
    for (const to of view.targets || []) {
      const [cx, cy] = centre(to, geo, flipped);
      svg('circle', { cx, cy, r: 9, class: 'target', 'data-target': to }, el);
    }
  }
  for (const { move, kind, label } of view.arrows || []) drawArrow(el, move, kind, view, label);
  if (view.cursor) {
    const [x, y] = squareXY(view.cursor, geo, flipped);
    svg('rect', { x: x + 1, y: y + 1, width: SQ - 2, height: SQ - 2, class: 'hl-cursor' }, el);
  }
}

function drawSquare(el, sq, { geo, flipped }) {
  const [x, y] = squareXY(sq, geo, flipped);
  const alt = (fileOf(sq) + rankOf(sq)) % 2 === 0 ? ' alt' : '';
  let kind = `${geo.style === 'tiles' || geo.style === 'plain' ? geo.style : 'land'}${alt}`;
  if (geo.water.has(sq)) kind = 'water';
  if (geo.traps.has(sq)) kind = 'trap';
  if (geo.dens.has(sq)) kind = 'den';
  svg('rect', { x, y, width: SQ, height: SQ, class: `sq ${kind}`, 'data-square': sq }, el);
  if (kind === 'water') {
    for (const dy of [18, 34, 50]) {
      svg('path', { class: 'wave', d: `M${x + 8} ${y + dy} q7 -6 14 0 t14 0 t14 0` }, el);
    }
  } else if (kind === 'trap') {
    svg('rect', { x: x + 7, y: y + 7, width: SQ - 14, height: SQ - 14, class: 'trap-mark' }, el);
  } else if (kind === 'den') {
    svg('text', { x: x + SQ / 2, y: y + SQ - 7, class: 'den-label' }, el).textContent = 'den';
  }
}

function drawCoordinates(el, geo, flipped) {
  for (let file = 0; file < geo.files; file += 1) {
    const shown = flipped ? geo.files - 1 - file : file;
    const t = svg('text', { x: MARGIN + file * SQ + SQ / 2, y: geo.ranks * SQ + 18, class: 'coord' }, el);
    t.textContent = String.fromCharCode(97 + shown);
  }
  for (let row = 0; row < geo.ranks; row += 1) {
    const rank = flipped ? row + 1 : geo.ranks - row;
    const t = svg('text', { x: MARGIN / 2, y: row * SQ + SQ / 2 + 6, class: 'coord' }, el);
    t.textContent = String(rank);
  }
}

/** An Animal Gambit piece: a gold or silver disc with its letter as position text writes it. */
function drawGambitPiece(el, sq, ch, cx, cy) {
  const kind = GAMBIT_PIECE[ch.toUpperCase()];
  if (!kind) return;
  const gold = isRed(ch);
  const g = svg('g', { class: `piece ${gold ? 'gold' : 'silver'}`, 'data-square': sq, 'data-piece': ch }, el);
  svg('title', {}, g).textContent = `${gold ? 'Gold' : 'Silver'} ${kind} on ${sq}`;
  svg('circle', { cx, cy, r: 25 }, g);
  svg('text', { x: cx, y: cy, class: 'letter' }, g).textContent = ch;
}

function drawPiece(el, sq, ch, { geo, flipped, face, hungry }) {
  const [cx, cy] = centre(sq, geo, flipped);
  if (geo.pieceSet !== 'jungle') {
    drawGambitPiece(el, sq, ch, cx, cy);
    return;
  }
  if (ch === '?') {
    const g = svg('g', { class: 'tile', 'data-square': sq, 'data-piece': '?' }, el);
    svg('title', {}, g).textContent = `Face-down tile on ${sq}`;
    svg('rect', { x: cx - 24, y: cy - 24, width: 48, height: 48, rx: 7 }, g);
    svg('text', { x: cx, y: cy }, g).textContent = '?';
    return;
  }
  const letter = ch.toUpperCase();
  const animal = ANIMAL[letter];
  if (!animal) return;
  const colour = isRed(ch) ? 'red' : 'blue';
  const isHungry = Boolean(hungry && hungry.includes(sq));
  const g = svg('g', { class: `piece ${colour}${isHungry ? ' hungry' : ''}`, 'data-square': sq, 'data-piece': ch }, el);
  const name = `${colour === 'red' ? 'Red' : 'Blue'} ${animal.name} (${animal.rank}) on ${sq}`;
  svg('title', {}, g).textContent = isHungry
    ? `${name}, hungry: it must capture this move or starve, and may not enter the den`
    : name;
  // A hungry animal: a dashed ring around it and a mark at its top right, not only a colour.
  if (isHungry) svg('circle', { cx, cy, r: 28.5, class: 'hunger-ring' }, g);
  svg('circle', { cx, cy, r: 25 }, g);
  drawFace(g, letter, cx, cy, face);
  if (isHungry) {
    svg('circle', { cx: cx + 19, cy: cy - 19, r: 8, class: 'hunger-mark' }, g);
    svg('text', { x: cx + 19, y: cy - 19, class: 'hunger-mark-text' }, g).textContent = '!';
  }
}

function drawArrowHeads(el) {
  const defs = svg('defs', {}, el);
  for (const kind of ['best', 'plain', 'hover']) {
    const marker = svg('marker', {
      id: `head-${kind}`, viewBox: '0 0 10 10', refX: 3, refY: 5,
      markerWidth: 2.6, markerHeight: 2.6, orient: 'auto-start-reverse',
    }, defs);
    svg('path', { d: 'M0 0 L10 5 L0 10 z', class: `arrow-head ${kind}` }, marker);
  }
}

/**
 * An arrow for `move` of kind `best` (the move to play), `plain` or `hover`; `label` (a step's
 * number in its turn) is written at its tail.
 */
export function drawArrow(el, move, kind, { geo, flipped }, label = null) {
  const [x1, y1] = centre(moveFrom(move), geo, flipped);
  const [x2, y2] = centre(moveTo(move), geo, flipped);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const start = 14;
  const end = 20;
  const line = svg('line', {
    x1: x1 + ux * start, y1: y1 + uy * start, x2: x2 - ux * end, y2: y2 - uy * end,
    class: `arrow ${kind}`, 'marker-end': `url(#head-${kind})`,
    'data-arrow': kind, 'data-move': move,
  }, el);
  if (label !== null) {
    const [lx, ly] = [x1 + ux * 20, y1 + uy * 20];
    const g = svg('g', { class: `step-label ${kind}`, 'data-step': label }, el);
    svg('circle', { cx: lx, cy: ly, r: 8 }, g);
    svg('text', { x: lx, y: ly }, g).textContent = String(label);
  }
  return line;
}

/** The square under a click, from the element clicked. */
export function squareAt(target) {
  const el = target.closest('[data-square]');
  return el ? el.dataset.square : null;
}
