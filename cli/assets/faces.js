// Piece faces: the letter with the rank, the traditional Chinese character, or an animal
// drawn in SVG. The user's choice is kept in localStorage.
'use strict';

export const SVG_NS = 'http://www.w3.org/2000/svg';

// Animals strongest first (RULES.md section 1): letter, name, rank, character.
export const ANIMALS = [
  ['E', 'elephant', 8, '象'], ['L', 'lion', 7, '獅'], ['T', 'tiger', 6, '虎'],
  ['P', 'leopard', 5, '豹'], ['W', 'wolf', 4, '狼'], ['D', 'dog', 3, '狗'],
  ['C', 'cat', 2, '貓'], ['R', 'rat', 1, '鼠'],
];
export const ANIMAL = Object.fromEntries(
  ANIMALS.map(([letter, name, rank, character]) => [letter, { name, rank, character }]),
);

// Animal Gambit's pieces (RULES.md section 7), strongest first: letter and name.
export const GAMBIT_PIECES = [
  ['E', 'elephant'], ['M', 'camel'], ['H', 'horse'], ['D', 'dog'], ['C', 'cat'], ['R', 'rabbit'],
];
export const GAMBIT_PIECE = Object.fromEntries(GAMBIT_PIECES);

export const FACES = [
  ['letters', 'Letters'],
  ['characters', 'Chinese characters'],
  ['animals', 'Animal drawings'],
];
const FACE_KEY = 'jtb.faces';

/** The face the user chose last time (letters by default). */
export function savedFace() {
  let saved = null;
  try {
    saved = window.localStorage.getItem(FACE_KEY);
  } catch (e) {
    saved = null; // storage refused (private mode): letters
  }
  return FACES.some(([f]) => f === saved) ? saved : 'letters';
}

export function saveFace(face) {
  try {
    window.localStorage.setItem(FACE_KEY, face);
  } catch (e) {
    // Not remembered, but still shown.
  }
}

export function svg(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.append(el);
  return el;
}

// Each animal's head, drawn in white lines on the piece's disc, in a 50x50 box centred on 0,0.
// Shapes rather than detail: they must read at 30 pixels.
const DRAWINGS = {
  E: [ // large ears, a trunk
    ['ellipse', { cx: -13, cy: -3, rx: 8, ry: 11 }],
    ['ellipse', { cx: 13, cy: -3, rx: 8, ry: 11 }],
    ['circle', { cx: 0, cy: -5, r: 9 }],
    ['path', { d: 'M-3 3 C-4 12 2 16 6 14' }],
    ['circle', { cx: -3.5, cy: -7, r: 1.2, class: 'eye' }],
    ['circle', { cx: 3.5, cy: -7, r: 1.2, class: 'eye' }],
  ],
  L: [ // a mane around the face
    ['path', { d: 'M0 -19 L5 -15 L11 -16 L13 -10 L18 -6 L15 0 L18 6 L13 10 L11 16 L5 15 L0 19 L-5 15 L-11 16 L-13 10 L-18 6 L-15 0 L-18 -6 L-13 -10 L-11 -16 L-5 -15 Z' }],
    ['circle', { cx: 0, cy: 0, r: 9 }],
    ['circle', { cx: -3.5, cy: -2, r: 1.2, class: 'eye' }],
    ['circle', { cx: 3.5, cy: -2, r: 1.2, class: 'eye' }],
    ['path', { d: 'M-2 3 L0 5 L2 3' }],
  ],
  T: [ // round ears, stripes
    ['circle', { cx: -10, cy: -10, r: 4 }],
    ['circle', { cx: 10, cy: -10, r: 4 }],
    ['circle', { cx: 0, cy: 0, r: 12 }],
    ['path', { d: 'M0 -12 L0 -7 M-5 -11 L-4 -7 M5 -11 L4 -7 M-12 0 L-7 1 M12 0 L7 1' }],
    ['circle', { cx: -4, cy: -1, r: 1.2, class: 'eye' }],
    ['circle', { cx: 4, cy: -1, r: 1.2, class: 'eye' }],
    ['path', { d: 'M-3 5 L0 7 L3 5' }],
  ],
  P: [ // round ears, spots
    ['circle', { cx: -10, cy: -10, r: 4 }],
    ['circle', { cx: 10, cy: -10, r: 4 }],
    ['circle', { cx: 0, cy: 0, r: 12 }],
    ['circle', { cx: -6, cy: -7, r: 1.5, class: 'spot' }],
    ['circle', { cx: 1, cy: -9, r: 1.5, class: 'spot' }],
    ['circle', { cx: 7, cy: -6, r: 1.5, class: 'spot' }],
    ['circle', { cx: -8, cy: 4, r: 1.5, class: 'spot' }],
    ['circle', { cx: 8, cy: 4, r: 1.5, class: 'spot' }],
    ['circle', { cx: -4, cy: -1, r: 1.2, class: 'eye' }],
    ['circle', { cx: 4, cy: -1, r: 1.2, class: 'eye' }],
    ['path', { d: 'M-3 5 L0 7 L3 5' }],
  ],
  W: [ // tall pointed ears, a long snout
    ['path', { d: 'M-11 -4 L-9 -19 L-3 -9 M11 -4 L9 -19 L3 -9' }],
    ['path', { d: 'M-11 -4 C-11 -10 11 -10 11 -4 L4 12 L-4 12 Z' }],
    ['circle', { cx: -4, cy: -2, r: 1.2, class: 'eye' }],
    ['circle', { cx: 4, cy: -2, r: 1.2, class: 'eye' }],
    ['circle', { cx: 0, cy: 11, r: 1.6, class: 'eye' }],
  ],
  D: [ // floppy ears
    ['circle', { cx: 0, cy: 0, r: 10 }],
    ['ellipse', { cx: -12, cy: 2, rx: 4, ry: 9 }],
    ['ellipse', { cx: 12, cy: 2, rx: 4, ry: 9 }],
    ['ellipse', { cx: 0, cy: 5, rx: 5, ry: 4 }],
    ['circle', { cx: -4, cy: -3, r: 1.2, class: 'eye' }],
    ['circle', { cx: 4, cy: -3, r: 1.2, class: 'eye' }],
    ['circle', { cx: 0, cy: 3.5, r: 1.6, class: 'eye' }],
  ],
  C: [ // pointed ears, whiskers
    ['path', { d: 'M-10 -3 L-10 -16 L-3 -9 M10 -3 L10 -16 L3 -9' }],
    ['circle', { cx: 0, cy: 0, r: 10 }],
    ['path', { d: 'M-4 4 L-16 2 M-4 6 L-16 8 M4 4 L16 2 M4 6 L16 8' }],
    ['circle', { cx: -4, cy: -2, r: 1.2, class: 'eye' }],
    ['circle', { cx: 4, cy: -2, r: 1.2, class: 'eye' }],
    ['path', { d: 'M-2 3 L0 5 L2 3' }],
  ],
  R: [ // big round ears, a pointed nose, a tail
    ['circle', { cx: -9, cy: -9, r: 6 }],
    ['circle', { cx: 9, cy: -9, r: 6 }],
    ['path', { d: 'M-8 -3 C-8 -9 8 -9 8 -3 L0 11 Z' }],
    ['path', { d: 'M6 10 C14 12 16 18 10 20' }],
    ['circle', { cx: -3, cy: -3, r: 1.2, class: 'eye' }],
    ['circle', { cx: 3, cy: -3, r: 1.2, class: 'eye' }],
  ],
};

/**
 * Draws the face of animal `letter` into group `g` of a piece centred on (cx, cy), radius 25.
 * `face` is one of FACES.
 */
export function drawFace(g, letter, cx, cy, face) {
  const animal = ANIMAL[letter];
  if (face === 'animals') {
    const art = svg('g', { class: 'drawing', transform: `translate(${cx} ${cy - 4}) scale(0.86)` }, g);
    for (const [tag, attrs] of DRAWINGS[letter]) svg(tag, attrs, art);
    svg('text', { x: cx, y: cy + 20, class: 'rank' }, g).textContent = String(animal.rank);
    return;
  }
  const text = face === 'characters' ? animal.character : letter;
  const cls = face === 'characters' ? 'letter character' : 'letter';
  svg('text', { x: cx, y: cy - 2, class: cls }, g).textContent = text;
  svg('text', { x: cx, y: cy + 20, class: 'rank' }, g).textContent = String(animal.rank);
}

/** A small stand-alone SVG of a piece (for the edit palette). */
export function pieceIcon(ch, face) {
  const icon = svg('svg', { viewBox: '0 0 60 60', class: 'piece-icon', 'aria-hidden': 'true' });
  const red = ch === ch.toUpperCase();
  const g = svg('g', { class: `piece ${red ? 'red' : 'blue'}` }, icon);
  svg('circle', { cx: 30, cy: 30, r: 25 }, g);
  drawFace(g, ch.toUpperCase(), 30, 30, face);
  return icon;
}
