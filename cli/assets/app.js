// The tablebase explorer: draws the board, asks the JSON API of the same server, and keeps
// the URL in step with every change (/?rules=R&position=TEXT[&last=MOVE] or &material=M).
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const SQ = 60; // square size in SVG units
const MARGIN = 22; // room for the coordinates

// Animals strongest first (RULES.md section 1): letter, name, rank.
const ANIMALS = [
  ['E', 'elephant', 8], ['L', 'lion', 7], ['T', 'tiger', 6], ['P', 'leopard', 5],
  ['W', 'wolf', 4], ['D', 'dog', 3], ['C', 'cat', 2], ['R', 'rat', 1],
];
const ANIMAL = Object.fromEntries(ANIMALS.map(([l, name, rank]) => [l, { name, rank }]));

const JUNGLE = {
  files: 7,
  ranks: 9,
  water: new Set(['b4', 'c4', 'b5', 'c5', 'b6', 'c6', 'e4', 'f4', 'e5', 'f5', 'e6', 'f6']),
  traps: new Set(['c1', 'e1', 'd2', 'c9', 'e9', 'd8']),
  dens: new Set(['d1', 'd9']),
  limit: 100,
  start: '7/7/7/7/7/7/2L4/1e5/R6 r',
};
const FLIP = {
  files: 4, ranks: 4, water: new Set(), traps: new Set(), dens: new Set(), limit: 40,
  start: '4/4/4/c2L r',
};

const geometry = (rules) => (rules === 'flip4x4' ? FLIP : JUNGLE);
const $ = (sel) => document.querySelector(sel);
const squareName = (file, rank) => String.fromCharCode(97 + file) + rank;
const fileOf = (sq) => sq.charCodeAt(0) - 97;
const rankOf = (sq) => Number(sq.slice(1));
const isRed = (ch) => ch >= 'A' && ch <= 'Z';

// ---------------------------------------------------------------------------------------------
// Position text (RULES.md section 4), only as far as drawing and editing need it: the server
// checks every rule and answers 400 with the reason.

/** Parses position text into squares (name -> letter), side to move and clocks. */
function parseText(text) {
  const fields = text.trim().split(/\s+/);
  const rows = (fields[0] || '').split('/');
  const squares = new Map();
  rows.forEach((row, i) => {
    const rank = rows.length - i;
    let file = 0;
    for (const ch of row) {
      if (ch >= '1' && ch <= '9') {
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
function printText(pos, geo) {
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
function colourFlipped(pos, geo) {
  const squares = new Map();
  for (const [sq, ch] of pos.squares) {
    squares.set(squareName(fileOf(sq), geo.ranks + 1 - rankOf(sq)), ch === '?' ? ch : swapCase(ch));
  }
  return { ...pos, squares, turn: pos.turn === 'r' ? 'b' : 'r' };
}

/** The file mirror (a <-> g on the Jungle board). */
function mirrored(pos, geo) {
  const squares = new Map();
  for (const [sq, ch] of pos.squares) {
    squares.set(squareName(geo.files - 1 - fileOf(sq), rankOf(sq)), ch);
  }
  return { ...pos, squares };
}

/** The material name (`LRvE`) of a position, or null when a side has no animal. */
function materialOf(pos) {
  let red = '';
  let blue = '';
  for (const [letter] of ANIMALS) {
    for (const ch of pos.squares.values()) {
      if (ch === letter) red += letter;
      if (ch === letter.toLowerCase()) blue += letter;
    }
  }
  return red && blue ? `${red}v${blue}` : null;
}

// ---------------------------------------------------------------------------------------------
// State, URL and history. A view is what the URL says; everything else is fetched for it.

const state = {
  view: null, // { rules, text, last, material, depth }
  answer: null, // the probe answer of the view's position, when the tables have it
  legal: [], // [{ move, position, end, ... }]: the moves of the position
  selected: null, // square of the piece picked to move
  editing: false,
  editPiece: 'E',
  request: 0, // numbers the probes, so that an old answer never overwrites a newer one
  statsMaterial: null,
  ruleSets: [],
};

function urlFor(view) {
  const q = new URLSearchParams();
  q.set('rules', view.rules);
  if (view.text) q.set('position', view.text);
  if (view.last) q.set('last', view.last);
  if (view.material) q.set('material', view.material);
  return `/?${q.toString()}`;
}

function viewFromUrl() {
  const q = new URLSearchParams(window.location.search);
  const rules = q.get('rules') || 'mistboard';
  const material = q.get('material');
  let text = q.get('position');
  if (!text && !material) text = geometry(rules).start;
  return { rules, text: text || '', last: q.get('last'), material, depth: 0 };
}

/** Goes to `view`, as a new history entry (or in place of the current one). */
function navigate(view, replace = false) {
  const depth = replace ? state.view.depth : state.view.depth + 1;
  const next = { ...view, depth };
  if (replace) {
    window.history.replaceState(next, '', urlFor(next));
  } else {
    window.history.pushState(next, '', urlFor(next));
  }
  show(next);
}

/** Goes to a position of the current rule set. */
function goTo(text, last = null) {
  navigate({ rules: state.view.rules, text, last, material: null });
}

// ---------------------------------------------------------------------------------------------
// The API.

async function getJson(url) {
  let response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' } });
  } catch (e) {
    return { ok: false, status: 0, body: { error: `the server cannot be reached (${e.message})` } };
  }
  let body;
  try {
    body = await response.json();
  } catch (e) {
    body = { error: `HTTP ${response.status}` };
  }
  return { ok: response.ok, status: response.status, body };
}

const apiUrl = (rules, path, params) => {
  const q = new URLSearchParams(params);
  return `/api/v1/${encodeURIComponent(rules)}${path}${params ? `?${q}` : ''}`;
};

// ---------------------------------------------------------------------------------------------
// Showing a view.

async function show(view) {
  state.view = view;
  state.selected = null;
  state.answer = null;
  state.legal = [];
  $('#back').disabled = !(view.depth > 0);
  const request = ++state.request;
  if (!view.text && view.material) {
    await openMaterial(view, request);
    return;
  }
  document.body.dataset.state = 'loading';
  document.body.dataset.position = view.text;
  renderControls();
  drawBoard();
  $('#line-out').replaceChildren();
  $('#api-link').href = apiUrl(view.rules, '', { position: view.text });
  const found = await getJson(apiUrl(view.rules, '', { position: view.text }));
  if (request !== state.request) return;
  if (found.ok) {
    state.answer = found.body;
    state.legal = found.body.moves;
    if (found.body.position !== view.text) {
      // Show the canonical text (with its clock) in the URL, the box and the links.
      state.view = { ...view, text: found.body.position };
      window.history.replaceState(state.view, '', urlFor(state.view));
      document.body.dataset.position = state.view.text;
      renderControls();
    }
    setStatus('');
  } else {
    setStatus(found.body.error, true);
    await loadLegalMoves(request);
    if (request !== state.request) return;
  }
  drawBoard();
  renderValue();
  renderMoves();
  showStats(materialOf(parseText(state.view.text)));
  document.body.dataset.state = found.ok ? 'ready' : 'error';
}

/** Where no table answers, the legal moves still let the user play on. */
async function loadLegalMoves(request) {
  const found = await getJson(apiUrl(state.view.rules, '/moves', { position: state.view.text }));
  if (request === state.request && found.ok) state.legal = found.body.moves;
}

/** A material's page: its statistics, and the board at its longest win. */
async function openMaterial(view, request) {
  document.body.dataset.state = 'loading';
  const found = await getJson(apiUrl(view.rules, `/stats/${encodeURIComponent(view.material)}`));
  if (request !== state.request) return;
  if (!found.ok) {
    setStatus(found.body.error, true);
    renderStats(null, found.body.error);
    document.body.dataset.state = 'error';
    return;
  }
  const [red, blue] = found.body.stats;
  const text = red.longest_win_position || blue.longest_win_position;
  if (!text) {
    renderStats(found.body);
    setStatus(`${found.body.material}: no side can win`);
    document.body.dataset.state = 'ready';
    return;
  }
  const next = { ...view, text, last: null };
  window.history.replaceState(next, '', urlFor(next));
  await show(next);
}

function setStatus(message, error = false) {
  const el = $('#status');
  el.textContent = message || '';
  el.classList.toggle('error', Boolean(error));
}

function renderControls() {
  const { view } = state;
  const pos = parseText(view.text);
  const geo = geometry(view.rules);
  $('#text').value = view.text;
  const clock = $('#clock');
  clock.max = String(geo.limit);
  clock.value = pos.clock === null ? '0' : String(pos.clock);
  const select = $('#rules');
  if (![...select.options].some((o) => o.value === view.rules)) {
    select.append(new Option(view.rules, view.rules));
  }
  select.value = view.rules;
  $('#turn').textContent = pos.turn === 'r' ? 'Red to move' : 'Blue to move';
  $('#mirror').textContent = geo === FLIP ? 'Mirror files (a\u2194d)' : 'Mirror files (a\u2194g)';
  renderPalette();
}

// ---------------------------------------------------------------------------------------------
// The board.

function svg(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (parent) parent.append(el);
  return el;
}

function squareXY(sq, geo) {
  return [MARGIN + fileOf(sq) * SQ, (geo.ranks - rankOf(sq)) * SQ + 2];
}

function centre(sq, geo) {
  const [x, y] = squareXY(sq, geo);
  return [x + SQ / 2, y + SQ / 2];
}

function drawBoard() {
  const { view } = state;
  const geo = geometry(view.rules);
  const pos = parseText(view.text);
  const board = $('#board');
  board.replaceChildren();
  board.setAttribute('viewBox', `0 0 ${MARGIN + geo.files * SQ + 4} ${geo.ranks * SQ + MARGIN + 4}`);
  board.classList.toggle('editing', state.editing);
  drawArrowHeads(board);
  for (let rank = 1; rank <= geo.ranks; rank += 1) {
    for (let file = 0; file < geo.files; file += 1) drawSquare(board, squareName(file, rank), geo);
  }
  drawCoordinates(board, geo);
  if (view.last) {
    for (const sq of [view.last.slice(0, 2), view.last.slice(2)]) {
      const [x, y] = squareXY(sq, geo);
      svg('rect', { x, y, width: SQ, height: SQ, class: 'hl-last' }, board);
    }
  }
  for (const [sq, ch] of pos.squares) drawPiece(board, sq, ch, geo);
  if (state.selected) drawSelection(board, geo);
  const best = state.answer && state.answer.best;
  if (best && !state.editing) drawArrow(board, best, 'best', geo);
  board.setAttribute('aria-label', `Board: ${view.text}`);
}

function drawSquare(board, sq, geo) {
  const [x, y] = squareXY(sq, geo);
  const alt = (fileOf(sq) + rankOf(sq)) % 2 === 0 ? ' alt' : '';
  let kind = geo === FLIP ? `flip${alt}` : `land${alt}`;
  if (geo.water.has(sq)) kind = 'water';
  if (geo.traps.has(sq)) kind = 'trap';
  if (geo.dens.has(sq)) kind = 'den';
  svg('rect', { x, y, width: SQ, height: SQ, class: `sq ${kind}`, 'data-square': sq }, board);
  if (kind === 'water') {
    for (const dy of [18, 34, 50]) {
      svg('path', {
        class: 'wave',
        d: `M${x + 8} ${y + dy} q7 -6 14 0 t14 0 t14 0`,
      }, board);
    }
  } else if (kind === 'trap') {
    svg('rect', { x: x + 7, y: y + 7, width: SQ - 14, height: SQ - 14, class: 'trap-mark' }, board);
  } else if (kind === 'den') {
    const label = svg('text', { x: x + SQ / 2, y: y + SQ - 7, class: 'den-label' }, board);
    label.textContent = 'den';
  }
}

function drawCoordinates(board, geo) {
  for (let file = 0; file < geo.files; file += 1) {
    const t = svg('text', { x: MARGIN + file * SQ + SQ / 2, y: geo.ranks * SQ + 18, class: 'coord' }, board);
    t.textContent = String.fromCharCode(97 + file);
  }
  for (let rank = 1; rank <= geo.ranks; rank += 1) {
    const t = svg('text', { x: MARGIN / 2, y: (geo.ranks - rank) * SQ + SQ / 2 + 6, class: 'coord' }, board);
    t.textContent = String(rank);
  }
}

function drawPiece(board, sq, ch, geo) {
  const [cx, cy] = centre(sq, geo);
  if (ch === '?') {
    const g = svg('g', { class: 'tile', 'data-square': sq, 'data-piece': '?' }, board);
    svg('rect', { x: cx - 24, y: cy - 24, width: 48, height: 48, rx: 7 }, g);
    svg('text', { x: cx, y: cy }, g).textContent = '?';
    return;
  }
  const letter = ch.toUpperCase();
  const animal = ANIMAL[letter];
  if (!animal) return;
  const colour = isRed(ch) ? 'red' : 'blue';
  const g = svg('g', { class: `piece ${colour}`, 'data-square': sq, 'data-piece': ch }, board);
  svg('title', {}, g).textContent = `${colour === 'red' ? 'Red' : 'Blue'} ${animal.name} (${animal.rank}) on ${sq}`;
  svg('circle', { cx, cy, r: 25 }, g);
  svg('text', { x: cx, y: cy - 2, class: 'letter' }, g).textContent = letter;
  svg('text', { x: cx, y: cy + 20, class: 'rank' }, g).textContent = String(animal.rank);
}

function drawSelection(board, geo) {
  const [x, y] = squareXY(state.selected, geo);
  svg('rect', { x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4, class: 'hl-selected' }, board);
  for (const m of state.legal) {
    if (m.move.slice(0, 2) !== state.selected) continue;
    const [cx, cy] = centre(m.move.slice(2), geo);
    svg('circle', { cx, cy, r: 9, class: 'target', 'data-target': m.move.slice(2) }, board);
  }
}

function drawArrowHeads(board) {
  const defs = svg('defs', {}, board);
  for (const kind of ['best', 'hover']) {
    const marker = svg('marker', {
      id: `head-${kind}`, viewBox: '0 0 10 10', refX: 3, refY: 5,
      markerWidth: 2.6, markerHeight: 2.6, orient: 'auto-start-reverse',
    }, defs);
    svg('path', { d: 'M0 0 L10 5 L0 10 z', class: `arrow-head ${kind}` }, marker);
  }
}

function drawArrow(board, move, kind, geo) {
  const [x1, y1] = centre(move.slice(0, 2), geo);
  const [x2, y2] = centre(move.slice(2), geo);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  // Start at the rim of the moving piece, so its letter stays readable, and stop short of the
  // target's centre, where the head ends.
  const [start, end] = [16, 20];
  svg('line', {
    x1: x1 + ux * start, y1: y1 + uy * start, x2: x2 - ux * end, y2: y2 - uy * end,
    class: `arrow ${kind}`, 'marker-end': `url(#head-${kind})`,
    'data-arrow': kind, 'data-move': move,
  }, board);
}

// ---------------------------------------------------------------------------------------------
// Playing and editing on the board.

function onBoardClick(event) {
  const target = event.target.closest('[data-square]');
  if (!target) return;
  const sq = target.dataset.square;
  if (state.editing) {
    editSquare(sq);
    return;
  }
  const pos = parseText(state.view.text);
  const ch = pos.squares.get(sq);
  const own = ch && ch !== '?' && (isRed(ch) ? 'r' : 'b') === pos.turn;
  if (!state.selected) {
    if (own) {
      state.selected = sq;
      setStatus('');
    } else if (ch) {
      setStatus(`${sq}: not a piece of the side to move`, true);
    }
    drawBoard();
    return;
  }
  if (sq === state.selected || own) {
    state.selected = sq === state.selected ? null : sq;
    drawBoard();
    return;
  }
  const move = state.selected + sq;
  state.selected = null;
  const found = state.legal.find((m) => m.move === move);
  if (!found) {
    setStatus(`illegal move ${move}`, true);
    drawBoard();
    return;
  }
  play(found);
}

/** Plays a move of the list: to the position after it, or says how the game ended. */
function play(m) {
  if (!m.position) {
    setStatus(`${m.move}: ${m.end || 'the game is over'}`);
    drawBoard();
    return;
  }
  goTo(m.position, m.move);
}

function renderPalette() {
  const geo = geometry(state.view.rules);
  const box = $('#palette-pieces');
  box.replaceChildren();
  const letters = ANIMALS.map(([l]) => l);
  const choices = [...letters, ...letters.map((l) => l.toLowerCase())];
  if (geo === FLIP) choices.push('?');
  choices.push('x');
  for (const ch of choices) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.piece = ch;
    b.textContent = ch === 'x' ? '\u2715' : ch.toUpperCase();
    b.className = ch === 'x' || ch === '?' ? '' : isRed(ch) ? 'red' : 'blue';
    b.title = ch === 'x' ? 'Take a piece off' : ch === '?' ? 'Face-down tile'
      : `${isRed(ch) ? 'Red' : 'Blue'} ${ANIMAL[ch.toUpperCase()].name}`;
    b.setAttribute('aria-pressed', String(state.editPiece === ch));
    b.addEventListener('click', () => {
      state.editPiece = ch;
      renderPalette();
    });
    box.append(b);
  }
}

/** Puts the chosen piece on `sq` (each animal once per colour: it leaves its old square). */
function editSquare(sq) {
  const geo = geometry(state.view.rules);
  const pos = parseText(state.view.text);
  const piece = state.editPiece;
  if (piece === 'x' || pos.squares.get(sq) === piece) {
    pos.squares.delete(sq);
  } else {
    if (piece !== '?') {
      for (const [other, ch] of pos.squares) if (ch === piece) pos.squares.delete(other);
    }
    pos.squares.set(sq, piece);
  }
  goTo(printText(pos, geo));
}

// ---------------------------------------------------------------------------------------------
// The value and the move list.

const sideName = (turn) => (turn === 'r' ? 'Red' : 'Blue');

function badge(text, kind = '') {
  const b = document.createElement('span');
  b.className = `badge ${kind}`.trim();
  b.textContent = text;
  return b;
}

function describe(wdl, dtm) {
  if (wdl === 'draw') return 'draw';
  return `${wdl} in ${dtm}`;
}

function renderValue() {
  const box = $('#value');
  box.replaceChildren();
  const a = state.answer;
  const pos = parseText(state.view.text);
  if (!a) {
    const p = document.createElement('div');
    p.className = 'verdict draw';
    p.textContent = `${sideName(pos.turn)} to move: not in the tables`;
    box.append(p);
    return;
  }
  const verdict = document.createElement('div');
  verdict.className = `verdict ${a.wdl}`;
  verdict.dataset.field = 'wdl';
  verdict.dataset.wdl = a.wdl;
  verdict.textContent = `${sideName(pos.turn)} to move: ${describe(a.wdl, a.dtm)}`;
  const facts = document.createElement('div');
  facts.className = 'facts';
  facts.append(badge(a.dtm === null ? 'DTM \u2013' : `DTM ${a.dtm}`, a.wdl));
  facts.append(badge(a.dtc === null ? 'DTC \u2013' : `DTC ${a.dtc}`));
  facts.append(badge(`category ${a.category}`, a.category.replace(/.*-/, '')));
  const limit = geometry(state.view.rules).limit;
  const atClock = badge(`at clock ${a.clock} of ${limit}: ${a.rule_wdl}`, a.rule_wdl === a.wdl ? a.rule_wdl : 'warn');
  atClock.dataset.field = 'rule_wdl';
  facts.append(atClock);
  if (a.rule_wdl === 'draw' && a.wdl !== 'draw') facts.append(badge('dead draw under the clock rule', 'warn'));
  box.append(verdict, facts);
}

/** The moves grouped by what they are worth to the mover, best first within each group. */
function renderMoves() {
  const box = $('#moves');
  box.replaceChildren();
  if (!state.answer) {
    renderLegalMoves(box);
    return;
  }
  const groups = [
    ['win', 'Winning moves', 'loss'],
    ['draw', 'Drawing moves', 'draw'],
    ['loss', 'Losing moves', 'win'],
  ];
  for (const [kind, title, after] of groups) {
    const moves = state.answer.moves.filter((m) => m.wdl === after);
    if (!moves.length) continue;
    const h = document.createElement('h3');
    h.className = kind;
    h.textContent = `${title} (${moves.length})`;
    const ul = document.createElement('ul');
    ul.dataset.group = kind;
    for (const m of moves) ul.append(moveItem(m));
    box.append(h, ul);
  }
  if (!state.answer.moves.length) box.append(badge('no legal move: the side to move loses', 'loss'));
}

function moveItem(m) {
  const li = document.createElement('li');
  const b = document.createElement('button');
  b.type = 'button';
  b.className = `move${state.answer && m.move === state.answer.best ? ' best' : ''}`;
  b.dataset.move = m.move;
  const name = document.createElement('span');
  name.className = 'san';
  name.textContent = m.move;
  b.append(name);
  if (m.wdl !== undefined) {
    const mover = { win: 'loss', draw: 'draw', loss: 'win' }; // the mover's view of the value after
    const dtm = badge(m.dtm === null ? 'DTM \u2013' : `DTM ${m.dtm}`, mover[m.wdl]);
    dtm.title = 'Plies to the end after this move (the position after it, its side to move)';
    b.append(dtm);
    if (m.dtc !== null) {
      const dtc = badge(`DTC ${m.dtc}`);
      dtc.title = 'Plies to the next capture or the end after this move';
      b.append(dtc);
    }
    if (m.rule_wdl !== m.wdl) {
      const rule = badge(`clock: ${mover[m.rule_wdl]}`, 'warn');
      rule.title = `Under the clock rule this move ${mover[m.rule_wdl] === 'draw' ? 'only draws' : `is a ${mover[m.rule_wdl]}`}`;
      b.append(rule);
    }
  }
  if (m.capture) b.append(badge('capture'));
  if (m.end) b.append(badge(m.end));
  b.addEventListener('click', () => play(m));
  b.addEventListener('mouseenter', () => hoverArrow(m.move));
  b.addEventListener('mouseleave', () => hoverArrow(null));
  li.append(b);
  return li;
}

function renderLegalMoves(box) {
  if (!state.legal.length) return;
  const h = document.createElement('h3');
  h.textContent = `Legal moves (${state.legal.length}), no values`;
  const ul = document.createElement('ul');
  ul.dataset.group = 'legal';
  for (const m of state.legal) ul.append(moveItem(m));
  box.append(h, ul);
}

function hoverArrow(move) {
  const board = $('#board');
  for (const el of board.querySelectorAll('[data-arrow="hover"]')) el.remove();
  if (move) drawArrow(board, move, 'hover', geometry(state.view.rules));
}

async function showLine() {
  const out = $('#line-out');
  const request = state.request;
  const found = await getJson(apiUrl(state.view.rules, '/line', { position: state.view.text }));
  if (request !== state.request) return;
  out.replaceChildren();
  if (!found.ok) {
    out.textContent = found.body.error;
    return;
  }
  const { line, rule_line: ruleLine } = found.body;
  out.append(lineList('Best line', line));
  const same = line.length === ruleLine.length && line.every((s, i) => s.move === ruleLine[i].move);
  if (!same) out.append(lineList(`Under the clock rule (from clock ${found.body.clock})`, ruleLine));
}

function lineList(title, steps) {
  const box = document.createElement('div');
  const h = document.createElement('h4');
  h.textContent = `${title}: ${steps.length ? `${steps.length} plies` : 'none (a draw)'}`;
  const ol = document.createElement('ol');
  for (const s of steps) {
    const li = document.createElement('li');
    if (s.position) {
      const a = document.createElement('a');
      a.href = urlFor({ rules: state.view.rules, text: s.position, last: s.move });
      a.textContent = s.move;
      a.addEventListener('click', (e) => {
        e.preventDefault();
        goTo(s.position, s.move);
      });
      li.append(a);
    } else {
      li.textContent = `${s.move} (game over)`;
    }
    ol.append(li);
  }
  box.append(h, ol);
  return box;
}

// ---------------------------------------------------------------------------------------------
// Material statistics.

async function showStats(material) {
  if (!material) {
    state.statsMaterial = null;
    renderStats(null, 'a side has no animal: no table');
    return;
  }
  const key = `${state.view.rules}/${material}`;
  if (state.statsMaterial === key) return;
  state.statsMaterial = key;
  const found = await getJson(apiUrl(state.view.rules, `/stats/${encodeURIComponent(material)}`));
  if (state.statsMaterial !== key) return;
  renderStats(found.ok ? found.body : null, found.ok ? null : found.body.error);
}

function statLink(text, label) {
  if (!text) return document.createTextNode(label);
  const a = document.createElement('a');
  a.href = urlFor({ rules: state.view.rules, text });
  a.textContent = label;
  a.title = text;
  a.addEventListener('click', (e) => {
    e.preventDefault();
    goTo(text);
  });
  return a;
}

function renderStats(stats, error = null) {
  const out = $('#stats-out');
  out.replaceChildren();
  const h = document.createElement('h2');
  if (!stats) {
    h.textContent = 'Material';
    const p = document.createElement('p');
    p.textContent = error || '';
    out.append(h, p);
    return;
  }
  h.textContent = `${stats.material} (${stats.rules})`;
  $('#material').value = stats.material;
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const t of ['to move', 'wins', 'draws', 'losses', 'longest win', 'cursed wins', 'blessed losses', 'longest DTC']) {
    const th = document.createElement('th');
    th.textContent = t;
    head.append(th);
  }
  const body = table.createTBody();
  for (const s of stats.stats) {
    const row = body.insertRow();
    const cells = [s.to_move === 'red' ? 'Red' : 'Blue', s.wins, s.draws, s.losses];
    for (const c of cells) row.insertCell().textContent = typeof c === 'number' ? c.toLocaleString('en-US') : c;
    row.insertCell().append(statLink(s.longest_win_position, s.longest_win ? `${s.longest_win} plies` : '\u2013'));
    row.insertCell().textContent = s.cursed_wins.toLocaleString('en-US');
    row.insertCell().textContent = s.blessed_losses.toLocaleString('en-US');
    row.insertCell().append(statLink(s.longest_dtc_position, s.longest_dtc ? `${s.longest_dtc} plies` : '\u2013'));
  }
  const wrap = document.createElement('div');
  wrap.className = 'table-wrap';
  wrap.append(table);
  const deps = document.createElement('p');
  deps.className = 'deps';
  deps.append(document.createTextNode(stats.depends_on.length ? 'Captures lead to: ' : 'No smaller tables.'));
  for (const m of stats.depends_on) {
    const a = document.createElement('a');
    a.href = urlFor({ rules: stats.rules, material: m });
    a.textContent = m;
    a.addEventListener('click', (e) => {
      e.preventDefault();
      navigate({ rules: stats.rules, text: '', last: null, material: m });
    });
    deps.append(a);
  }
  out.append(h, wrap, deps);
}

async function loadRuleSets() {
  const found = await getJson('/api/v1');
  const select = $('#rules');
  if (!found.ok) return;
  const current = select.value;
  select.replaceChildren();
  for (const r of found.body.rule_sets) {
    const note = r.tables ? ` (${r.tables} tables)` : r.rules === 'flip4x4' ? ' (one each)' : ' (no tables)';
    select.append(new Option(r.rules + note, r.rules));
  }
  select.value = current || state.view.rules;
  loadMaterials();
}

async function loadMaterials() {
  const list = $('#materials');
  list.replaceChildren();
  const found = await getJson(apiUrl(state.view.rules, '/materials'));
  if (!found.ok) return;
  for (const m of found.body.materials) list.append(new Option(m));
}

// ---------------------------------------------------------------------------------------------
// Controls.

function transform(change) {
  const geo = geometry(state.view.rules);
  goTo(printText(change(parseText(state.view.text), geo), geo));
}

function bindControls() {
  $('#board').addEventListener('click', onBoardClick);
  $('#back').addEventListener('click', () => window.history.back());
  $('#turn').addEventListener('click', () => transform((p) => ({ ...p, turn: p.turn === 'r' ? 'b' : 'r' })));
  $('#swap').addEventListener('click', () => transform(colourFlipped));
  $('#mirror').addEventListener('click', () => transform(mirrored));
  $('#clock').addEventListener('change', (e) => {
    const value = e.target.value.trim();
    if (!/^\d+$/.test(value)) {
      setStatus('the clock is a whole number of half-moves', true);
      return;
    }
    transform((p) => ({ ...p, clock: Number(value) }));
  });
  $('#text-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('#text').value.trim();
    if (text) goTo(text);
  });
  $('#material-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const m = $('#material').value.trim();
    if (m) navigate({ rules: state.view.rules, text: '', last: null, material: m });
  });
  $('#rules').addEventListener('change', (e) => {
    const rules = e.target.value;
    const sameBoard = geometry(rules) === geometry(state.view.rules);
    navigate({ rules, text: sameBoard ? state.view.text : geometry(rules).start, last: null, material: null });
    loadMaterials();
  });
  $('#edit').addEventListener('click', () => setEditing(!state.editing));
  $('#done').addEventListener('click', () => setEditing(false));
  $('#clear').addEventListener('click', () => {
    const pos = parseText(state.view.text);
    pos.squares.clear();
    goTo(printText(pos, geometry(state.view.rules)));
  });
  $('#show-line').addEventListener('click', showLine);
  window.addEventListener('popstate', (e) => show(e.state || viewFromUrl()));
}

function setEditing(on) {
  state.editing = on;
  state.selected = null;
  $('#edit').setAttribute('aria-pressed', String(on));
  $('#palette').hidden = !on;
  drawBoard();
}

function start() {
  bindControls();
  const view = viewFromUrl();
  window.history.replaceState(view, '', urlFor(view));
  state.view = view;
  loadRuleSets();
  show(view);
}

start();
