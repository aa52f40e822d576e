// The tablebase explorer: draws the board, asks the JSON API of the same server, and keeps
// the URL in step with every change:
//   /?rules=R&position=TEXT[&last=MOVE][&end=MOVE][&flip=1]  a position (end: the move that
//                                                           ended the game from it)
//   /?rules=animal-gambit&position=TEXT[&steps=STEPS]...   Animal Gambit: a turn being played
//                                                           step by step (moves are turns)
//   /?rules=R&material=M                                    a material, at its longest win
//   /?rules=R&index                                         every table of the rule set
'use strict';

import {
  drawArrow, drawBoard, fileOf, geometryFrom, isMoveText, isRed, moveFrom, moveTo, rankOf,
  squareAt, squareName,
} from './board.js';
import { histogramChart, wdlBar } from './charts.js';
import {
  ANIMAL, ANIMALS, FACES, pieceIcon, saveFace, savedFace,
} from './faces.js';
import {
  afterFinalMove, animalsOf, colourFlipped, gambitMaterialOf, materialOf, mirrored, otherSide,
  parseText, printText, turnMoves,
} from './text.js';

const $ = (sel) => document.querySelector(sel);

// A position to start from per rule set; others start on an empty board.
const START = {
  mistboard: '7/7/7/7/7/7/2L4/1e5/R6 r',
  'tiger-lengthwise': '7/7/7/7/7/7/2L4/1e5/R6 r',
  leiden: '7/7/7/7/7/7/2L4/1e5/R6 r',
  flip4x4: '4/4/4/c2L r',
  'animal-gambit': '8/3r4/8/8/8/8/4R3/8 g',
};

// Turns listed per group before a "show all" (Animal Gambit positions have many).
const SHOWN_TURNS = 10;

// Problems of the text itself: such a text is not drawn (the last good board stays).
const NOT_A_POSITION = new Set(['bad-position', 'bad-clock', 'bad-query', 'unknown-rules']);

// ---------------------------------------------------------------------------------------------
// State, URL and history. A view is what the URL says; everything else is fetched for it.

const state = {
  geos: new Map(), // rules -> geometry, from GET /api/v1
  ruleSets: [],
  view: null, // { rules, text, last, end, material, index, depth, steps }
  answer: null, // the probe answer of the view's position, when the tables have it
  problem: null, // { error, code } when they do not
  legal: [], // [{ move, position, end, kind, ... }]: the moves of the position
  turns: [], // Animal Gambit: [{ turn, steps, position, board, end, ... }], its turns
  partial: null, // Animal Gambit: the /steps answer of the turn being played
  showAll: new Set(), // Animal Gambit: the turn groups shown whole
  probed: null, // { key, found }: the last probe answer, kept while a turn is played
  hungry: [], // Clesto: the squares of the mover's hungry animals
  flips: [], // face-down tiles that can be flipped
  good: null, // { rules, squares, text }: the last board drawn, kept when a text is refused
  selected: null, // square of the piece picked to move
  cursor: null, // the keyboard's square on the board
  editing: false,
  editSession: false, // an edit already made a history entry: later edits replace it
  editPiece: 'E',
  request: 0, // numbers the views, so that an old answer never overwrites a newer one
  statsKey: null,
  stats: null,
  metric: 'dtm',
  line: null, // { data, which, ply } while stepping through a line
  index: null, // the material index's tables
  flipped: false,
  face: savedFace(),
  lastByRules: new Map(), // the last position seen under each rule set
};

const geometry = (rules) => state.geos.get(rules) || null;
/** Whether a move of the view's rule set is a turn of 1 to 4 steps (the API says so). */
const playsTurns = (rules = state.view.rules) => Boolean((geometry(rules) || {}).turns);

/** The game a rule set is of, as the page's title names it (the API's name of it). */
const gameTitle = (rules) => (geometry(rules) || { title: 'Jungle family' }).title;

/** A unit of distance in the singular. */
const ONE = { plies: 'ply', turns: 'turn' };

/** The unit of the view's distances (`plies`, `turns`), as the API says it. */
const distanceUnit = () => (geometry(state.view.rules) || { unit: 'plies' }).unit;

/** `n` and `word`, with the word in the plural unless `n` is 1. */
const counted = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

function urlFor(view) {
  const q = new URLSearchParams();
  q.set('rules', view.rules);
  if (view.index) {
    return `?${q.toString()}&index`;
  }
  if (view.text) q.set('position', view.text);
  if (view.last) q.set('last', view.last);
  if (view.end) q.set('end', view.end);
  if (view.steps) q.set('steps', view.steps);
  if (view.material) q.set('material', view.material);
  if (state.flipped) q.set('flip', '1');
  return `?${q.toString()}`;
}

function viewFromUrl() {
  const q = new URLSearchParams(window.location.search);
  const rules = q.get('rules') || 'mistboard';
  state.flipped = q.get('flip') === '1';
  if (q.has('index')) return { rules, index: true, depth: 0 };
  const material = q.get('material');
  let text = q.get('position');
  if (!text && !material) text = START[rules] || null;
  return {
    rules, text: text || '', last: q.get('last'), end: q.get('end'), material, depth: 0,
    steps: q.get('steps'),
  };
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
function goTo(text, last = null, replace = false) {
  navigate({ rules: state.view.rules, text, last, end: null, material: null, steps: null }, replace);
}

// ---------------------------------------------------------------------------------------------
// The API.

// In a site written by `jtb site` the page names its tables' folder (`<meta name="jtb-tables">`):
// the answers are the probe's in WebAssembly over those tables, and the table routes' answers
// are files the site holds (`data/`). Else they are the server's API's.
const TABLES = document.querySelector('meta[name="jtb-tables"]')?.content;
let localTables = null;

/** The tablebase in the browser, opened on first use. */
function tablebase() {
  // A host without Range support (a development server) still serves the site, whole files at a time.
  localTables ??= import('../jtb/index.js').then((jtb) => jtb.openTablebase(new URL(TABLES, document.baseURI), { ranges: 'preferred' }));
  return localTables;
}

/** A file of the site's `data/` folder, as `getJson` answers. */
async function dataFile(path, missing) {
  let response;
  try {
    response = await fetch(new URL(`data/${path}`, document.baseURI));
  } catch (e) {
    return { ok: false, status: 0, body: { error: `the site cannot be reached (${e.message})`, code: 'offline' } };
  }
  if (response.status === 404) return { ok: false, status: 404, body: { error: missing, code: 'missing-table' } };
  if (!response.ok) return { ok: false, status: response.status, body: { error: `the site answered ${response.status} for data/${path}`, code: 'internal' } };
  return { ok: true, status: 200, body: await response.json() };
}

/** The answer of an API route (`url`, as `apiUrl` writes it) from the static site. */
async function siteJson(url) {
  const u = new URL(url, 'http://api');
  const [rules, route, material] = u.pathname.split('/').slice(3).map(decodeURIComponent);
  if (!rules) return dataFile('index.json', 'the site lists no rule set');
  if (route === 'materials') return dataFile(`${rules}/materials.json`, `rule set ${rules} has no tables in this site`);
  if (route === 'stats') return dataFile(`${rules}/stats/${material}.json`, `no table of ${material} under ${rules} in this site`);
  const position = u.searchParams.get('position') ?? '';
  try {
    const tb = await tablebase();
    let body;
    if (route === undefined) body = await tb.probe(rules, position);
    else if (route === 'line') body = await tb.probe(rules, position, { line: true });
    else if (route === 'moves') body = await tb.moves(rules, position);
    else if (route === 'steps') body = await tb.steps(rules, position, u.searchParams.get('steps') ?? '');
    else return { ok: false, status: 404, body: { error: `no such route: ${route}`, code: 'not-found' } };
    return { ok: true, status: 200, body };
  } catch (e) {
    return { ok: false, status: e.status || 500, body: { error: e.message, code: e.code || 'internal' } };
  }
}

async function getJson(url) {
  if (TABLES !== undefined) return siteJson(url);
  let response;
  try {
    response = await fetch(url, { headers: { Accept: 'application/json' } });
  } catch (e) {
    return { ok: false, status: 0, body: { error: `the server cannot be reached (${e.message})`, code: 'offline' } };
  }
  let body;
  try {
    body = await response.json();
  } catch (e) {
    body = { error: `the server answered ${response.status} without JSON`, code: 'internal' };
  }
  return { ok: response.ok, status: response.status, body };
}

const apiUrl = (rules, path, params) => {
  const q = new URLSearchParams(params);
  return `/api/v1/${encodeURIComponent(rules)}${path}${params ? `?${q}` : ''}`;
};

// ---------------------------------------------------------------------------------------------
// Showing a view.

function setView(kind) {
  document.body.dataset.view = kind;
  $('#index-panel').hidden = kind !== 'index';
  for (const id of ['#board-panel', '#info-panel', '#stats-panel']) $(id).hidden = kind === 'index';
}

async function show(view) {
  state.view = view;
  state.selected = null;
  state.answer = null;
  state.problem = null;
  state.legal = [];
  state.turns = [];
  state.partial = null;
  state.flips = [];
  state.hungry = [];
  state.line = null;
  setStatus('');
  setFieldError('#text-error', '');
  setFieldError('#clock-error', '');
  $('#back').disabled = !(view.depth > 0);
  $('#index-link').href = urlFor({ rules: view.rules, index: true });
  const request = ++state.request;
  if (view.index) {
    // The menu names the index's rule set too (the position view sets it in renderControls).
    $('#rules').value = geometry(view.rules) ? view.rules : '';
    setView('index');
    await showIndex(view, request);
    return;
  }
  setView('position');
  if (!view.text && view.material) {
    await openMaterial(view, request);
    return;
  }
  document.body.dataset.state = 'loading';
  renderControls();
  $('#line-out').replaceChildren();
  $('#api-link').href = apiUrl(view.rules, '', { position: view.text });
  $('#api-link').hidden = TABLES !== undefined;
  // A turn played step by step asks again for the same position: keep its answer.
  const key = `${view.rules}\n${view.text}`;
  const reuse = playsTurns(view.rules) && state.probed && state.probed.key === key && state.probed.found.ok;
  const found = reuse ? state.probed.found : await getJson(apiUrl(view.rules, '', { position: view.text }));
  if (request !== state.request) return;
  if (!state.probed || state.probed.key !== key) state.showAll = new Set();
  state.probed = { key, found };
  if (found.ok) {
    state.answer = found.body;
    state.legal = found.body.moves || [];
    state.turns = found.body.turns || [];
    state.hungry = found.body.hungry || [];
    if (found.body.position !== view.text) {
      // Show the canonical text (with its clock) in the URL, the box and the links.
      state.view = { ...view, text: found.body.position };
      window.history.replaceState(state.view, '', urlFor(state.view));
    }
  } else {
    state.problem = found.body;
    if (!NOT_A_POSITION.has(found.body.code)) {
      await loadLegalMoves(request);
      if (request !== state.request) return;
    }
  }
  const drawable = !state.problem || !NOT_A_POSITION.has(state.problem.code);
  if (drawable && playsTurns() && !finalMove()) {
    await loadSteps(request);
    if (request !== state.request) return;
  }
  const geo = geometry(state.view.rules);
  if (drawable && geo) {
    const pos = parseText(state.view.text);
    let squares = pos.squares;
    const ending = finalMove();
    if (ending) squares = finalSquares(pos, ending);
    state.good = { rules: state.view.rules, squares, text: state.view.text };
    state.lastByRules.set(state.view.rules, state.view.text);
    $('#material').value = materialName(pos) || '';
  }
  document.body.dataset.position = state.view.text;
  document.body.dataset.end = finalMove() ? state.view.end : '';
  document.body.dataset.steps = (state.partial && state.partial.steps) || '';
  renderControls();
  redraw();
  renderValue();
  renderMoves();
  renderLineButton();
  renderSteps();
  document.title = `${state.view.text} \u2013 ${headline().text} \u2013 ${gameTitle(state.view.rules)} tablebase`;
  // A position with face-down tiles has no material table of its own to show.
  if (drawable && !isChance(state.answer)) showStats(materialName(parseText(state.view.text)));
  document.body.dataset.state = state.problem ? 'error' : 'ready';
}

/** The view's game-ending move, when the URL names one that ends the game from its position. */
function finalMove() {
  const { view } = state;
  const geo = geometry(view.rules);
  if (!view.end || !geo) return null;
  if (playsTurns()) return state.turns.find((t) => t.turn === view.end && t.end) || null;
  if (!isMoveText(geo, view.end)) return null;
  return state.legal.find((m) => m.move === view.end && m.end) || null;
}

/** The board after the move (Animal Gambit: the turn) that ended the game. */
const finalSquares = (pos, ending) => (playsTurns() ? parseText(ending.board).squares : afterFinalMove(pos, ending));

/** The material name of a parsed position under the view's rule set, or null. */
const materialName = (pos) => (playsTurns() ? gambitMaterialOf(pos) : materialOf(pos));

/** Where no table answers, the legal moves still let the user play on. */
async function loadLegalMoves(request) {
  const found = await getJson(apiUrl(state.view.rules, '/moves', { position: state.view.text }));
  if (request !== state.request || !found.ok) return;
  state.legal = found.body.moves || [];
  state.turns = found.body.turns || [];
  state.flips = found.body.flips || [];
  state.hungry = found.body.hungry || [];
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
  const next = { ...view, text, last: null, end: null };
  window.history.replaceState(next, '', urlFor(next));
  await show(next);
}

function setStatus(message, error = false) {
  const el = $('#status');
  el.textContent = message || '';
  el.classList.toggle('error', Boolean(error));
}

function setFieldError(selector, message) {
  const el = $(selector);
  el.textContent = message;
  const field = selector === '#text-error' ? $('#text') : $('#clock');
  if (message) {
    field.setAttribute('aria-invalid', 'true');
  } else {
    field.removeAttribute('aria-invalid');
  }
}

/** The name of the side whose letter is `turn`, as the API names the view's sides. */
function sideName(turn) {
  const geo = geometry(state.view.rules);
  const i = geo ? geo.sides.indexOf(turn) : -1;
  const name = i >= 0 ? geo.sideNames[i] : 'red';
  return name[0].toUpperCase() + name.slice(1);
}

function renderControls() {
  const { view } = state;
  const geo = geometry(view.rules);
  const select = $('#rules');
  // An unknown rule set is said in the value box; the menu lists only real ones.
  select.value = geo ? view.rules : '';
  $('#text').value = view.text;
  if (!geo) return;
  const good = !state.problem || !NOT_A_POSITION.has(state.problem.code);
  const pos = parseText(good ? view.text : (state.good && state.good.text) || '');
  const clock = $('#clock');
  // Clesto has no clock rule: no clock field.
  clock.closest('.clock').hidden = geo.limit === 0;
  $('#hunger-legend').hidden = !geo.hunger;
  clock.max = String(geo.limit);
  clock.value = pos.clock === null ? '0' : String(pos.clock);
  $('#turn').textContent = `Give the move to ${sideName(otherSide(pos.turn))}`;
  const last = String.fromCharCode(96 + geo.files);
  $('#mirror').textContent = `Mirror files (a\u2194${last})`;
  const [first, second] = geo.sides;
  $('#flip-board').textContent = `View from ${sideName(state.flipped ? first : second)}`;
  // Turns of 1 to 4 steps (Animal Gambit's), played one step at a time; no board editing.
  const turns = geo.turns;
  $('#turn-controls').hidden = !turns;
  $('#edit').hidden = turns;
  if (turns && state.editing) setEditing(false);
  // Pieces other than the Jungle animals are drawn as letters: the faces do not apply to them.
  const faces = $('#faces');
  faces.disabled = geo.pieceSet !== 'jungle';
  faces.title = faces.disabled ? `${geo.title} pieces are drawn as letters` : '';
  $('#board-help').textContent = turns
    ? 'Click a piece, then a square: one step at a time, up to four (a push moves the other side\u2019s piece first), then End turn. Or click a listed turn.'
    : 'Click a piece, then a square; or focus the board and use the arrow keys and Enter.';
  $('#flip-board').setAttribute('aria-pressed', String(state.flipped));
  $('#edit').textContent = state.editing ? 'Stop editing' : 'Edit the board';
  renderPalette();
}

// ---------------------------------------------------------------------------------------------
// The board.

/** What the board shows now: the view's position, or a step of the line being stepped through. */
function shownBoard() {
  const geo = geometry(state.view.rules);
  if (state.line && state.line.ply > 0) {
    const { squares, last, hungry } = lineBoard();
    return { geo, squares, last, arrows: [], hungry };
  }
  const drawable = !state.problem || !NOT_A_POSITION.has(state.problem.code);
  if (!drawable) {
    // Refused text: keep the last good board of this rule set, or an empty one.
    const keep = state.good && state.good.rules === state.view.rules;
    return { geo, squares: keep ? state.good.squares : new Map(), last: null, arrows: [] };
  }
  const pos = parseText(state.view.text);
  const ending = finalMove();
  if (ending && playsTurns()) return { geo, squares: finalSquares(pos, ending), last: turnMoves(ending.turn), arrows: [] };
  if (ending) return { geo, squares: afterFinalMove(pos, ending), last: ending.move, arrows: [] };
  if (playsTurns()) return gambitBoard(geo, pos);
  const geoOk = geo && state.view.last && isMoveText(geo, state.view.last);
  return {
    geo, squares: pos.squares, last: geoOk ? state.view.last : null, arrows: arrows(), hungry: state.hungry,
  };
}

/** The arrows of the position: the move to play, and the plain best move where it differs. */
function arrows() {
  const a = state.answer;
  if (!a || state.editing) return [];
  // Clesto has one best move (RULES.md 6.6): no clock rule.
  if (isClesto(a)) return a.best ? [{ move: a.best, kind: 'best' }] : [];
  // A best flip has no arrow: its tile is marked in the list of flips.
  if (isChance(a)) return a.best && !a.best.startsWith('?') ? [{ move: a.best, kind: 'best' }] : [];
  // With the clock running, the rule's best move is the one to play: it keeps the value at the
  // clock and converts soonest (the plain best move may throw the win away); the plain best is
  // then shown dashed where it differs.
  const chosen = a.clock > 0 || byClock() ? a.rule_best : a.best;
  const out = [];
  if (a.rule_wdl === 'draw' && a.wdl !== 'draw') {
    // A rule draw: every drawing move is as good; the plain best only for reference.
    return a.best ? [{ move: a.best, kind: 'plain' }] : [];
  }
  if (chosen) out.push({ move: chosen, kind: 'best' });
  if (a.best && a.best !== chosen) out.push({ move: a.best, kind: 'plain' });
  return out;
}

function redraw() {
  const geo = geometry(state.view.rules);
  const board = $('#board');
  if (!geo) {
    board.replaceChildren();
    return;
  }
  const shown = shownBoard();
  let targets = [];
  if (state.selected && playsTurns()) {
    targets = nextSteps().filter((n) => n.from === state.selected).map((n) => n.to);
  } else if (state.selected) {
    targets = state.legal.filter((m) => moveFrom(m.move) === state.selected).map((m) => moveTo(m.move));
  }
  drawBoard(board, {
    ...shown,
    flipped: state.flipped,
    face: state.face,
    selected: state.selected,
    targets,
    cursor: state.cursor,
    editing: state.editing,
  });
  board.setAttribute('aria-label', `Board: ${state.view.text}`);
}

// ---------------------------------------------------------------------------------------------
// Playing and editing on the board.

function onBoardClick(event) {
  const sq = squareAt(event.target);
  if (sq) onSquare(sq);
}

function onSquare(sq) {
  if (state.line && state.line.ply > 0) {
    setStatus('Stepping through a line: go to its start (Home), or play on from this step', true);
    return;
  }
  if (state.editing) {
    editSquare(sq);
    return;
  }
  if (state.problem && NOT_A_POSITION.has(state.problem.code)) return;
  if (playsTurns()) {
    gambitSquare(sq);
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
    redraw();
    return;
  }
  if (sq === state.selected || own) {
    state.selected = sq === state.selected ? null : sq;
    redraw();
    return;
  }
  const move = state.selected + sq;
  state.selected = null;
  const found = state.legal.find((m) => m.move === move);
  if (!found) {
    setStatus(`illegal move ${move}`, true);
    redraw();
    return;
  }
  play(found);
}

/** Plays a move: to the position after it, or to the final board of the game it ends. */
function play(m) {
  if (m.end) {
    navigate({ rules: state.view.rules, text: state.view.text, last: null, end: m.move, material: null });
    return;
  }
  if (!m.position) {
    setStatus(`${m.move}: face-down tiles left, so the position after it is not known here`, true);
    return;
  }
  goTo(m.position, m.move);
}

/** The board from the keyboard: arrows move a cursor, Enter or Space clicks its square. */
function onBoardKey(event) {
  const geo = geometry(state.view.rules);
  if (!geo) return;
  const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
  if (steps[event.key]) {
    event.preventDefault();
    event.stopPropagation();
    const [df, dr] = steps[event.key].map((d) => (state.flipped ? -d : d));
    const at = state.cursor || state.selected || squareName(0, 1);
    const file = Math.min(geo.files - 1, Math.max(0, fileOf(at) + df));
    const rank = Math.min(geo.ranks, Math.max(1, rankOf(at) + dr));
    state.cursor = squareName(file, rank);
    redraw();
    setStatus(`${state.cursor}${describeSquare(state.cursor)}`);
  } else if (event.key === 'Enter' || event.key === ' ') {
    event.preventDefault();
    if (!state.cursor) state.cursor = state.selected || squareName(0, 1);
    onSquare(state.cursor);
  } else if (event.key === 'Escape') {
    state.selected = null;
    redraw();
  }
}

function describeSquare(sq) {
  const ch = (shownBoard().squares || new Map()).get(sq);
  if (!ch) return ': empty';
  if (ch === '?') return ': face-down tile';
  const geo = geometry(state.view.rules);
  const side = sideName(geo.sides[isRed(ch) ? 0 : 1]);
  return `: ${side} ${geo.pieceNames[ch.toUpperCase()]}`;
}

function renderPalette() {
  const geo = geometry(state.view.rules);
  const box = $('#palette-pieces');
  box.replaceChildren();
  const letters = ANIMALS.map(([l]) => l);
  const choices = [...letters, ...letters.map((l) => l.toLowerCase())];
  if (geo && geo.style === 'tiles') choices.push('?');
  choices.push('x');
  for (const ch of choices) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.piece = ch;
    let label;
    if (ch === 'x') {
      b.textContent = '\u2715';
      label = 'Take a piece off';
    } else if (ch === '?') {
      b.textContent = '?';
      label = 'Face-down tile';
    } else {
      b.append(pieceIcon(ch, state.face));
      b.className = isRed(ch) ? 'red' : 'blue';
      label = `${isRed(ch) ? 'Red' : 'Blue'} ${ANIMAL[ch.toUpperCase()].name}`;
    }
    b.title = label;
    b.setAttribute('aria-label', label);
    b.setAttribute('aria-pressed', String(state.editPiece === ch));
    b.addEventListener('click', () => {
      state.editPiece = ch;
      renderPalette();
    });
    box.append(b);
    if (state.editPiece === ch) {
      $('#palette-choice').textContent = ch === 'x'
        ? 'Click a piece to take it off.'
        : `Click a square to put: ${label}.`;
    }
  }
}

/** Puts the chosen piece on `sq` (each animal once per colour: it leaves its old square). */
function editSquare(sq) {
  const geo = geometry(state.view.rules);
  const pos = parseText(state.good && state.good.rules === state.view.rules ? state.good.text : state.view.text);
  const piece = state.editPiece;
  // A new board: the board decides the hungry set again.
  pos.hungry = null;
  if (piece === 'x' || pos.squares.get(sq) === piece) {
    pos.squares.delete(sq);
  } else {
    if (piece !== '?') {
      for (const [other, ch] of pos.squares) if (ch === piece) pos.squares.delete(other);
    }
    pos.squares.set(sq, piece);
  }
  // One history entry per editing session, not one per click.
  const replace = state.editSession;
  state.editSession = true;
  goTo(printText(pos, geo), null, replace);
}

// ---------------------------------------------------------------------------------------------
// The value and the move list.

function badge(text, kind = '') {
  const b = document.createElement('span');
  b.className = `badge ${kind}`.trim();
  b.textContent = text;
  return b;
}

const MOVER = { win: 'loss', draw: 'draw', loss: 'win' }; // the mover's view of the value after

function describe(wdl, dtm) {
  if (wdl === 'draw') return 'draw';
  return `${wdl} in ${dtm}`;
}

// Clesto (RULES.md 6): no draws; a value is a plain win or loss (DTM), or a win or loss by the
// repetition ban, which binds the side with more animals (Red when equal), B. B's exit distance
// is its plies to a smaller material, at a position B wins there.

/** Whether a probe answer is Clesto's (it has the banned side, and no clock rule). */
const isClesto = (a) => Boolean(a) && a.banned !== undefined;

// ---------------------------------------------------------------------------------------------
// The flip game with face-down tiles (RULES.md 8): exact chance values, fractions as text.

// A chance answer names the face-down tiles' animals (`hidden`); a fully revealed flip position's
// answer has a score and DTE too, but is read as its game's (its values and best move are the
// clock rule's).
const isChance = (a) => Boolean(a) && a.hidden !== undefined;

/** A fraction's text (`5/8`, `0`, `1`) as a number. */
function fractionValue(text) {
  const [n, d] = text.split('/');
  return Number(n) / Number(d || 1);
}

const percent = (text) => `${(100 * fractionValue(text)).toFixed(1)}%`;

/** The colour of a chance value: a certain result's, else the chance colour. */
function chanceKind(v) {
  if (v.win === '1') return 'win';
  if (v.loss === '1') return 'loss';
  if (v.draw === '1') return 'draw';
  return 'chance';
}

/** A certain result with its DTE in words, for the side `who` whose value it is: `Red wins in
 * 3 plies whatever the flips show`; null where the result is not certain. */
function certainWords(v, who) {
  if (v.dte === null || v.dte === undefined) return null;
  const plies = v.dte === 1 ? 'ply' : 'plies';
  const result = v.win === '1' ? 'wins' : 'loses';
  return `${who} ${result} in ${v.dte} ${plies} whatever the flips show`;
}

function chanceHeadline(a, turn) {
  const certain = certainWords(a, sideName(turn));
  return {
    text: certain ? `${certain} (clock ${a.clock})` : `${sideName(turn)} to move: score ${a.score} at clock ${a.clock}`,
    kind: chanceKind(a),
    detail: `Win ${a.win} (${percent(a.win)}), draw ${a.draw} (${percent(a.draw)}), loss ${a.loss} (${percent(a.loss)}), both sides playing for their best expected result (win 1, draw 1/2); a flip turns up each face-down animal with the same chance.`,
  };
}

/** The win, draw and loss probabilities of a chance value as one bar. */
function chanceBar(v) {
  const bar = document.createElement('div');
  bar.className = 'wdl-bar';
  bar.dataset.field = 'wdl-bar';
  for (const kind of ['win', 'draw', 'loss']) {
    const part = document.createElement('span');
    part.className = kind;
    part.dataset.part = kind;
    part.style.width = percent(v[kind]);
    part.title = `${kind} ${v[kind]} (${percent(v[kind])})`;
    bar.append(part);
  }
  return bar;
}

/** The badges of a chance value: the score, the hidden set, the clock. */
function chanceFacts(a) {
  const facts = document.createElement('div');
  facts.className = 'facts';
  const score = chanceBadge(a);
  score.dataset.field = 'score';
  facts.append(score);
  if (a.hidden) {
    const names = [...a.hidden].map((ch) => `${isRed(ch) ? 'red' : 'blue'} ${(ANIMAL[ch.toUpperCase()] || { name: ch }).name}`);
    const hidden = badge(`face down: ${a.hidden}`);
    hidden.dataset.field = 'hidden';
    hidden.title = `The animals under the face-down tiles, known to both players: ${names.join(', ')}`;
    facts.append(hidden);
  }
  const clock = badge(`clock ${a.clock} of ${geometry(state.view.rules).limit}`);
  clock.dataset.field = 'clock';
  facts.append(clock);
  return facts;
}

function chanceBadge(v) {
  const b = badge(`score ${v.score}`, chanceKind(v));
  b.title = `win ${v.win} (${percent(v.win)}), draw ${v.draw} (${percent(v.draw)}), loss ${v.loss} (${percent(v.loss)})`;
  return b;
}

/** A move's odds for its mover beside its score: a small win/draw/loss bar and the
 * percentages, or a certain result in words (`wins in 3 plies`). */
function chanceOdds(m) {
  const odds = document.createElement('span');
  odds.className = 'odds';
  odds.dataset.field = 'odds';
  const certain = certainWords(m, '');
  if (certain) {
    odds.textContent = certain.trim();
    return odds;
  }
  const bar = chanceBar(m);
  bar.classList.add('mini');
  const text = document.createElement('span');
  text.textContent = `win ${percent(m.win)} · draw ${percent(m.draw)} · loss ${percent(m.loss)}`;
  odds.append(bar, text);
  return odds;
}

/** The flips and the steps, each group best first; a flip opens to its outcomes. */
function renderChanceMoves(box) {
  const a = state.answer;
  const groups = [
    ['flips', 'Flips', (m) => m.move.startsWith('?')],
    ['steps', 'Moves', (m) => !m.move.startsWith('?')],
  ];
  for (const [group, title, pick] of groups) {
    const moves = a.moves.filter(pick);
    if (!moves.length) continue;
    const h = document.createElement('h3');
    h.textContent = `${title} (${moves.length}), best first`;
    const ul = document.createElement('ul');
    ul.dataset.group = group;
    for (const m of moves) ul.append(chanceMoveItem(m));
    box.append(h, ul);
  }
  if (!a.moves.length) {
    box.append(badge(`drawn: the clock has reached ${geometry(state.view.rules).limit}, no move is played on`, 'draw'));
  }
}

function chanceMoveItem(m) {
  const best = state.answer.best === m.move ? ' best' : '';
  const name = document.createElement('span');
  name.className = 'san';
  name.textContent = m.move;
  if (m.outcomes) {
    const details = document.createElement('details');
    details.className = 'flip';
    details.dataset.move = m.move;
    const summary = document.createElement('summary');
    summary.className = `move${best}`;
    summary.append(name, chanceBadge(m), chanceOdds(m));
    const ul = document.createElement('ul');
    ul.className = 'outcomes';
    for (const o of m.outcomes) ul.append(outcomeItem(o));
    details.append(summary, ul);
    const li = document.createElement('li');
    li.append(details);
    return li;
  }
  const el = document.createElement(m.position || m.end ? 'a' : 'span');
  el.className = `move${best}`;
  el.dataset.move = m.move;
  el.append(name, chanceBadge(m), chanceOdds(m));
  if (m.end) el.append(badge(m.end));
  return moveListItem(el, m);
}

const colourName = (c) => (c === 'red' ? 'Red' : 'Blue');
const otherColour = (c) => (c === 'red' ? 'blue' : 'red');

/** A Clesto value `{ category, dtm, exit }` in words, for its side to move. */
function describeClesto(v) {
  if (v.category === 'win' || v.category === 'loss') return describe(v.wdl, v.dtm);
  const word = v.category === 'ban-win' ? 'win by the ban' : 'loss by the ban';
  return v.exit === null ? word : `${word}, exit ${v.exit}`;
}

/** Who the ban binds in position `pos` (banned `banned`), and why: "Blue (more animals)". */
function bannedWhy(pos, banned) {
  const red = animalsOf(pos, true).length;
  const blue = animalsOf(pos, false).length;
  const why = red === blue ? 'as many animals: Red when equal' : 'more animals';
  return `${colourName(banned)} (${why})`;
}

/** The headline of a Clesto value: its words, and the ban's meaning where it decides. */
function clestoHeadline(a, turn) {
  const mover = sideName(turn);
  if (a.category === 'win' || a.category === 'loss') {
    return { text: `${mover} to move: ${describe(a.wdl, a.dtm)}`, kind: a.wdl };
  }
  const pos = parseText(state.view.text);
  const b = colourName(a.banned);
  const u = colourName(otherColour(a.banned));
  const rule = `${bannedWhy(pos, a.banned)} may not repeat a position a fourth time; ${u} may.`;
  const drawn = 'Without the ban the game would be drawn.';
  const escapes = `${b} forces the game into a smaller material, at a position ${b} wins there, in ${a.exit} plies (exit ${a.exit}).`;
  const stuck = `${b} cannot force the game into a smaller material at a position it wins: ${u} keeps it out of reach until ${b}, unable to repeat, runs out of moves or leaves into a position ${u} wins.`;
  const wins = a.category === 'ban-win';
  return {
    text: `${mover} to move: ${wins ? 'wins' : 'loses'} by the repetition ban`,
    kind: a.wdl,
    detail: `${rule} ${drawn} ${a.exit === null ? stuck : escapes}`,
  };
}

/** Who won when a side has no piece left. */
function gameOverText(pos) {
  const red = animalsOf(pos, true);
  const blue = animalsOf(pos, false);
  if (!red && !blue) return 'Game over: no animal is left';
  return `Game over: ${red ? 'Red' : 'Blue'} has won (${red ? 'Blue' : 'Red'} has no piece left)`;
}

/** The headline of the view: what the position is worth at its clock, and its colour. */
function headline() {
  const a = state.answer;
  const p = state.problem;
  const geo = geometry(state.view.rules);
  if (!a && !p) return { text: 'loading', kind: 'draw' };
  const ending = finalMove();
  if (ending && playsTurns()) {
    return { text: `${sideName(ending.winner[0])} has won: ${ending.end} (${ending.turn})`, kind: 'win' };
  }
  if (ending) {
    // Who won, from how the game ended (the tables need not have the position).
    const turn = parseText(state.view.text).turn;
    const result = {
      'last animals traded': 'draw', 'own last animal traded': 'loss', 'own last animal starved': 'loss',
    }[ending.end] || 'win';
    const winner = { win: sideName(turn), loss: sideName(otherSide(turn)) }[result];
    const text = winner ? `${winner} has won: ${ending.end} (${ending.move})` : `Drawn: ${ending.end} (${ending.move})`;
    return { text, kind: result === 'draw' ? 'draw' : 'win' };
  }
  if (p) {
    const pos = NOT_A_POSITION.has(p.code) ? null : parseText(state.view.text);
    switch (p.code) {
      case 'bad-position': case 'bad-clock': case 'bad-query':
        return { text: 'Not a position', kind: 'error', detail: p.error };
      case 'unknown-rules':
        return { text: 'Unknown rule set', kind: 'error', detail: p.error };
      case 'game-over':
        return { text: gameOverText(pos), kind: 'draw' };
      case 'hidden-tiles':
        return {
          text: `${sideName(pos.turn)} to move: face-down tiles, no values`,
          kind: 'draw',
          detail: `${p.error}. The moves and flips below are legal.`,
        };
      case 'missing-table':
        return { text: `${sideName(pos.turn)} to move: no table here`, kind: 'draw', detail: p.error };
      default:
        return { text: 'No answer', kind: 'error', detail: p.error };
    }
  }
  const turn = parseText(state.view.text).turn;
  if (isChance(a)) return chanceHeadline(a, turn);
  if (a.missing) {
    // A set that lacks some of the table's files (WDL files alone): what the others hold.
    const value = a.wdl === 'draw' || a.dtm === null ? a.wdl : describe(a.wdl, a.dtm);
    return { text: `${sideName(turn)} to move: ${value}`, kind: a.wdl, detail: `Not in this set: ${a.missing}` };
  }
  if (isClesto(a)) return clestoHeadline(a, turn);
  if (playsTurns()) return gambitHeadline(a, turn);
  const plain = describe(a.wdl, a.dtm);
  if (a.rule_wdl === a.wdl) {
    return { text: `${sideName(turn)} to move: ${plain}`, kind: a.wdl };
  }
  // The clock only ever turns a win or a loss into a draw.
  const left = geo.limit - a.clock;
  let why;
  if (left <= 0) {
    why = `The clock has reached ${geo.limit}`;
  } else if (a.dtc === null) {
    why = 'No capture can be forced';
  } else {
    const whose = a.wdl === 'win' ? 'The capture' : 'The opponent\u2019s capture';
    why = `${whose} needs ${a.dtc} plies and ${left} are left`;
  }
  return {
    text: `${sideName(turn)} to move: ${a.rule_wdl === 'draw' ? 'draw' : describe(a.rule_wdl, a.dtc)} at clock ${a.clock}`,
    kind: a.rule_wdl,
    detail: `${why}: a ${plain} without the clock.`,
  };
}

function renderValue() {
  const box = $('#value');
  box.replaceChildren();
  const head = headline();
  const verdict = document.createElement('div');
  verdict.className = `verdict ${head.kind}`;
  verdict.dataset.field = 'wdl';
  verdict.textContent = head.text;
  box.append(verdict);
  if (head.detail) {
    const p = document.createElement('p');
    p.className = 'detail';
    p.dataset.field = 'detail';
    p.textContent = head.detail;
    box.append(p);
  }
  const a = state.answer;
  if (!a || finalMove()) return;
  if (isChance(a)) {
    verdict.dataset.score = a.score;
    box.append(chanceBar(a), chanceFacts(a));
    return;
  }
  verdict.dataset.wdl = a.wdl;
  if (a.missing) return;
  if (playsTurns()) {
    verdict.dataset.category = a.category;
    const facts = document.createElement('div');
    facts.className = 'facts';
    const dtm = badge(a.dtm === null ? 'DTM \u2013' : `DTM ${a.dtm} ${turnsWord(a.dtm)}`, a.wdl);
    dtm.dataset.field = 'dtm';
    facts.append(dtm);
    const category = badge(`category ${a.category}`, a.category === 'repetition' ? 'draw' : a.wdl);
    category.dataset.field = 'category';
    facts.append(category);
    box.append(facts);
    return;
  }
  if (isClesto(a)) {
    verdict.dataset.category = a.category;
    box.append(clestoFacts(a));
    return;
  }
  verdict.dataset.ruleWdl = a.rule_wdl;
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
  box.append(facts);
}

/** The badges of a Clesto value: DTM or exit, category, the banned side, the hungry animals. */
function clestoFacts(a) {
  const facts = document.createElement('div');
  facts.className = 'facts';
  facts.append(badge(a.dtm === null ? 'DTM \u2013' : `DTM ${a.dtm}`, a.dtm === null ? '' : a.wdl));
  facts.append(badge(`category ${a.category}`, a.category.startsWith('ban') ? 'ban' : a.wdl));
  if (a.exit !== null) {
    const exit = badge(`exit ${a.exit}`, 'ban');
    exit.dataset.field = 'exit';
    exit.title = `${colourName(a.banned)}, the banned side, forces the game into a smaller material at a position it wins in ${a.exit} plies`;
    facts.append(exit);
  }
  const banned = badge(`banned: ${colourName(a.banned)}`);
  banned.dataset.field = 'banned';
  banned.title = `${colourName(a.banned)} may not make a move that gives a position that has occurred three times`;
  facts.append(banned);
  const pos = parseText(state.view.text);
  if (a.hungry.length) {
    const names = a.hungry.map((sq) => `${pos.squares.get(sq) || ''}${sq}`).join(', ');
    const h = badge(`hungry: ${names}`, 'warn');
    h.dataset.field = 'hungry';
    h.title = 'These animals can capture: each must capture this move or starve (all but the one that captures)';
    facts.append(h);
  }
  if (!a.hungry_canonical) {
    const h = badge('hungry set from the text, not the board\u2019s', 'warn');
    h.dataset.field = 'hungry-set';
    h.title = 'Right after a starvation the hungry set can differ from the animals that have a capture; its value is found one move ahead';
    facts.append(h);
  }
  return facts;
}

/** Whether the clock changes what some move is worth: then the moves are grouped by the clock. */
const byClock = () => Boolean(state.answer) && geometry(state.view.rules).limit > 0
  && state.answer.moves.some((m) => m.rule_wdl !== null && m.rule_wdl !== m.wdl);

/** The moves grouped by what they are worth to the mover, best first within each group. */
function renderMoves() {
  const box = $('#moves');
  box.replaceChildren();
  if (finalMove()) return;
  if (playsTurns()) {
    renderTurns(box);
    return;
  }
  if (!state.answer) {
    renderLegalMoves(box);
    return;
  }
  if (isClesto(state.answer)) {
    renderClestoMoves(box);
    return;
  }
  if (isChance(state.answer)) {
    renderChanceMoves(box);
    return;
  }
  const clock = byClock();
  const groups = [
    ['win', 'Winning moves', 'loss'],
    ['draw', 'Drawing moves', 'draw'],
    ['loss', 'Losing moves', 'win'],
  ];
  for (const [kind, title, after] of groups) {
    const moves = state.answer.moves.filter((m) => (clock ? m.rule_wdl : m.wdl) === after);
    if (!moves.length) continue;
    const h = document.createElement('h3');
    h.className = kind;
    h.textContent = `${title}${clock ? ` at clock ${state.answer.clock}` : ''} (${moves.length})`;
    const ul = document.createElement('ul');
    ul.dataset.group = kind;
    for (const m of moves) ul.append(moveItem(m, clock));
    box.append(h, ul);
  }
  // At the clock limit the game is drawn: the answer lists no move, and none is lost.
  const geo = geometry(state.view.rules);
  const atLimit = geo && geo.limit > 0 && state.answer.clock >= geo.limit;
  if (!state.answer.moves.length) {
    box.append(atLimit
      ? badge(`drawn: the clock has reached ${geo.limit}, no move is played on`, 'draw')
      : badge('no legal move: the side to move loses', 'loss'));
  }
}

/** Clesto's moves, grouped by what they are worth to the mover: plain and ban wins, then losses. */
function renderClestoMoves(box) {
  const groups = [
    ['win', 'Winning moves', 'win'],
    ['ban-win', 'Winning by the repetition ban', 'win'],
    ['ban-loss', 'Losing by the repetition ban', 'loss'],
    ['loss', 'Losing moves', 'loss'],
  ];
  for (const [category, title, colour] of groups) {
    // Without the DTM and ban files (a set of WDL files alone) a move has its WDL only.
    const moves = state.answer.moves.filter((m) => (m.mover.category ?? m.mover.wdl) === category);
    if (!moves.length) continue;
    const h = document.createElement('h3');
    h.className = colour;
    h.textContent = `${title} (${moves.length})`;
    const ul = document.createElement('ul');
    ul.dataset.group = category;
    for (const m of moves) ul.append(moveItem(m, false));
    box.append(h, ul);
  }
  if (!state.answer.moves.length) box.append(badge('no legal move: the side to move loses', 'loss'));
}

/** The badge of a Clesto move's value by the ban, for its mover, with the ban's meaning. */
function banBadge(m) {
  const a = state.answer;
  const b = colourName(a.banned);
  const u = colourName(otherColour(a.banned));
  const v = m.mover;
  const b1 = badge(v.exit === null ? 'by the ban' : `by the ban, exit ${v.exit}`, 'ban');
  b1.title = v.exit === null
    ? `${b}, banned, cannot force the game into a smaller material at a position it wins: ${u} wins by the ban`
    : `${b}, banned, forces the game into a smaller material at a position it wins in ${v.exit} plies (this move counted)`;
  return b1;
}

/** Follows a link in the page, unless the user asked for a new tab or window. */
function inPage(a, go) {
  a.addEventListener('click', (e) => {
    if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    go();
  });
}

function moveHref(m) {
  if (m.end) return urlFor({ rules: state.view.rules, text: state.view.text, end: m.move });
  return urlFor({ rules: state.view.rules, text: m.position, last: m.move });
}

/** A move's list item: a link that plays it where it leads somewhere, its arrow on hover. */
function moveListItem(el, m) {
  if (el.tagName === 'A') {
    el.href = moveHref(m);
    inPage(el, () => play(m));
  }
  el.addEventListener('mouseenter', () => hoverArrow(m.move));
  el.addEventListener('mouseleave', () => hoverArrow(null));
  const li = document.createElement('li');
  li.append(el);
  return li;
}

function moveItem(m, clock) {
  const el = document.createElement(m.position || m.end ? 'a' : 'span');
  const a = state.answer;
  const toPlay = arrows().find((x) => x.kind === 'best');
  el.className = `move${toPlay && m.move === toPlay.move ? ' best' : ''}`;
  el.dataset.move = m.move;
  const name = document.createElement('span');
  name.className = 'san';
  name.textContent = m.move;
  el.append(name);
  if (m.mover !== undefined && !m.end && (m.mover.category ?? '').startsWith('ban')) {
    el.append(banBadge(m));
  } else if (m.wdl !== undefined) {
    if (m.end) {
      const result = MOVER[m.wdl];
      const word = { win: 'wins at once', draw: 'draws at once', loss: 'loses at once' }[result];
      el.append(badge(`${word}: ${m.end}`, result));
    } else {
      const dtm = badge(m.dtm !== null ? `DTM ${m.dtm}` : (m.wdl === 'draw' ? 'draw' : MOVER[m.wdl]), MOVER[m.wdl]);
      dtm.title = 'Plies to the end after this move (the position after it, its side to move)';
      el.append(dtm);
      if (m.dtc !== undefined && m.dtc !== null) {
        const dtc = badge(`DTC ${m.dtc}`);
        dtc.title = 'Plies to the next capture or the end after this move';
        el.append(dtc);
      }
      if (m.rule_wdl !== undefined && m.rule_wdl !== null && m.rule_wdl !== m.wdl) {
        const text = clock ? `without the clock: ${MOVER[m.wdl]}` : `clock: ${MOVER[m.rule_wdl]}`;
        const rule = badge(text, 'warn');
        rule.title = `At clock ${a.clock} this move ${MOVER[m.rule_wdl] === 'draw' ? 'only draws' : `is a ${MOVER[m.rule_wdl]}`}; without the clock a ${MOVER[m.wdl]}`;
        el.append(rule);
      }
    }
  } else if (m.end) {
    el.append(badge(m.end));
  }
  if (m.capture && !m.end) el.append(badge(m.kind === 'trade' ? 'trade' : 'capture'));
  if (m.starves && m.starves.length) {
    const starves = badge(`starves: ${m.starves.join(', ')}`, 'warn');
    starves.dataset.starves = m.starves.join(',');
    starves.title = 'Hungry animals that do not make this move\u2019s capture starve: they leave the board (letter and square)';
    el.append(starves);
  }
  return moveListItem(el, m);
}

function renderLegalMoves(box) {
  const p = state.problem;
  if ((p && NOT_A_POSITION.has(p.code)) || finalMove()) return;
  if (state.legal.length) {
    const h = document.createElement('h3');
    h.textContent = `Legal moves (${state.legal.length}), no values`;
    const ul = document.createElement('ul');
    ul.dataset.group = 'legal';
    for (const m of state.legal) ul.append(moveItem(m, false));
    box.append(h, ul);
  }
  if (state.flips.length) {
    const h = document.createElement('h3');
    h.textContent = `Flips (${state.flips.length}): turn a tile face up`;
    const ul = document.createElement('ul');
    ul.dataset.group = 'flips';
    for (const sq of state.flips) {
      const li = document.createElement('li');
      li.className = 'flip';
      li.dataset.flip = sq;
      li.textContent = `flip ${sq}`;
      ul.append(li);
    }
    box.append(h, ul);
  }
}

function hoverArrow(move) {
  const board = $('#board');
  for (const el of board.querySelectorAll('[data-arrow="hover"]')) el.remove();
  const geo = geometry(state.view.rules);
  if (move && geo) drawArrow(board, move, 'hover', { geo, flipped: state.flipped });
}

// ---------------------------------------------------------------------------------------------
// Animal Gambit (RULES.md 7): a turn is 1 to 4 steps, played one step at a time through the
// server's /steps (which knows pushes, pulls, frozen pieces and trap removals), then ended; or
// a listed turn is clicked. Distances count turns; a draw is a game the repetition rule decides.

const turnsWord = (n) => (n === 1 ? 'turn' : 'turns');

function describeTurns(wdl, dtm) {
  if (wdl === 'draw') return 'repetition (neither side can force an end)';
  return `${wdl} in ${dtm} ${turnsWord(dtm)}`;
}

function gambitHeadline(a, turn) {
  if (a.category === 'repetition') {
    return {
      text: `${sideName(turn)} to move: repetition`,
      kind: 'draw',
      detail: 'Neither side can force an end of the game: the repetition rule decides it, from the history the tables do not see.',
    };
  }
  return { text: `${sideName(turn)} to move: ${describeTurns(a.wdl, a.dtm)}`, kind: a.wdl };
}

/** The steps that may come next in the turn being played (none while it loads or failed). */
const nextSteps = () => (state.partial ? state.partial.next : []);

/** Asks the server where the turn being played stands (the view's steps, or none yet). */
async function loadSteps(request) {
  const steps = state.view.steps || '';
  const found = await getJson(apiUrl(state.view.rules, '/steps', { position: state.view.text, steps }));
  if (request !== state.request) return;
  if (found.ok) {
    state.partial = found.body;
    return;
  }
  // Steps the URL gives that are no beginning of a turn: say why, and start the turn afresh.
  setStatus(found.body.error, true);
  const fresh = await getJson(apiUrl(state.view.rules, '/steps', { position: state.view.text, steps: '' }));
  if (request !== state.request) return;
  state.partial = fresh.ok ? fresh.body : null;
}

/** The board of an Animal Gambit position: after the steps played so far, with their arrows. */
function gambitBoard(geo, pos) {
  const p = state.partial;
  if (p && p.steps) {
    const played = turnMoves(p.steps).map((move, i) => ({ move, kind: 'plain', label: i + 1 }));
    return { geo, squares: parseText(p.board).squares, last: null, arrows: played };
  }
  const last = state.view.last ? turnMoves(state.view.last) : null;
  return { geo, squares: pos.squares, last, arrows: gambitArrows() };
}

/** The best turn drawn as its steps, numbered. */
function gambitArrows() {
  const a = state.answer;
  if (!a || !a.best || !a.turns.length) return [];
  return turnMoves(a.turns[0].turn).map((move, i) => ({ move, kind: 'best', label: i + 1 }));
}

/** A click on the board while a turn is played: pick a piece with a step, then its square. */
function gambitSquare(sq) {
  const next = nextSteps();
  const ch = (shownBoard().squares || new Map()).get(sq);
  const from = (at) => next.filter((n) => n.from === at);
  if (state.selected) {
    const step = from(state.selected).find((n) => n.to === sq);
    if (step) {
      playStep(step);
      return;
    }
    if (sq !== state.selected && from(sq).length) {
      state.selected = sq;
      setStatus('');
      redraw();
      return;
    }
    if (sq !== state.selected) {
      setStatus(`illegal step: the ${describeSquare(state.selected).slice(2)} on ${state.selected} cannot step to ${sq} now`, true);
    }
    state.selected = null;
    redraw();
    return;
  }
  if (from(sq).length) {
    state.selected = sq;
    setStatus('');
  } else if (ch) {
    const p = state.partial;
    const why = p && p.step_count >= 4 ? 'four steps played: end the turn or undo a step' : 'it has no legal step now';
    setStatus(`${sq}: ${describeSquare(sq).slice(2)}, ${why}`, true);
  }
  redraw();
}

/** One more step of the turn: a new history entry, so that Back takes it back. */
function playStep(step) {
  const steps = state.partial && state.partial.steps ? `${state.partial.steps} ${step.text}` : step.text;
  state.selected = null;
  navigate({ ...state.view, steps, end: null });
}

function undoStep() {
  const tokens = ((state.partial && state.partial.steps) || '').split(' ').filter(Boolean);
  if (!tokens.length) return;
  // A removal goes with the step before it.
  if (tokens[tokens.length - 1].endsWith('x')) tokens.pop();
  tokens.pop();
  navigate({ ...state.view, steps: tokens.join(' ') || null, end: null });
}

/** Plays a whole turn: to the position it gives, or to the board where it ended the game. */
function playTurn(t) {
  if (t.end) {
    navigate({ rules: state.view.rules, text: state.view.text, last: null, end: t.turn, material: null, steps: null });
    return;
  }
  goTo(t.position, t.turn);
}

function endTurn() {
  const p = state.partial;
  if (!p || !p.turn) {
    setStatus(p && p.why_not ? `The turn cannot end here: ${p.why_not}` : 'No turn to end', true);
    return;
  }
  playTurn(p.turn);
}

/** The turn being played: its steps so far, and whether it may end. */
function renderSteps() {
  const box = $('#turn-controls');
  if (box.hidden) return;
  const p = state.partial;
  const steps = (p && p.steps) || '';
  $('#undo-step').disabled = !steps;
  $('#end-turn').disabled = !(p && p.turn);
  const info = $('#steps-info');
  if (!p) {
    info.textContent = finalMove() ? 'The game is over.' : '';
    return;
  }
  const count = p.step_count;
  const played = steps ? `Steps so far: ${steps} (${count} of 4).` : 'No step yet: click a piece to start the turn (up to four steps).';
  let end = '';
  if (p.turn) end = ` End turn plays ${p.turn.turn}.`;
  else if (steps && p.why_not) end = ` The turn cannot end here: ${p.why_not}.`;
  info.textContent = played + end;
}

const LINK_TURN = (t) => (t.end
  ? urlFor({ rules: state.view.rules, text: state.view.text, end: t.turn })
  : urlFor({ rules: state.view.rules, text: t.position, last: t.turn }));

/** A listed turn: its text, what it is worth, a link that plays it; hovering draws its steps. */
function turnItem(t, best) {
  const li = document.createElement('li');
  const el = document.createElement('a');
  el.className = `move${best ? ' best' : ''}`;
  el.dataset.move = t.turn;
  const name = document.createElement('span');
  name.className = 'san';
  name.textContent = t.turn;
  el.append(name);
  if (t.mover && t.end) {
    const word = t.mover.wdl === 'win' ? 'wins at once' : 'loses at once';
    el.append(badge(`${word}: ${t.end}`, t.mover.wdl));
  } else if (t.mover) {
    const b = badge(t.dtm !== null ? `DTM ${t.dtm}` : (t.wdl === 'draw' ? 'repetition' : t.mover.wdl), t.mover.wdl);
    b.title = t.dtm === null
      ? 'Neither side can force an end after this turn: the repetition rule decides'
      : 'Turns to the end after this turn (the position after it, its side to move)';
    el.append(b);
  } else if (t.end) {
    el.append(badge(`${sideName(t.winner[0])} wins: ${t.end}`));
  }
  el.href = LINK_TURN(t);
  inPage(el, () => playTurn(t));
  el.addEventListener('mouseenter', () => hoverTurn(t.turn));
  el.addEventListener('mouseleave', () => hoverTurn(null));
  li.append(el);
  return li;
}

function hoverTurn(text) {
  const board = $('#board');
  for (const el of board.querySelectorAll('[data-arrow="hover"], .step-label.hover')) el.remove();
  const geo = geometry(state.view.rules);
  if (!text || !geo) return;
  turnMoves(text).forEach((move, i) => drawArrow(board, move, 'hover', { geo, flipped: state.flipped }, i + 1));
}

/** The turns, grouped winning / drawing (repetition) / losing, best first, or without values. */
function renderTurns(box) {
  const p = state.problem;
  if (p && NOT_A_POSITION.has(p.code)) return;
  const groups = state.answer ? [
    ['win', 'Winning turns', 'win'],
    ['repetition', 'Drawing turns (repetition)', 'draw'],
    ['loss', 'Losing turns', 'loss'],
  ] : [['legal', 'Turns, no values', '']];
  for (const [group, title, colour] of groups) {
    const turns = state.answer ? state.turns.filter((t) => t.mover.category === group) : state.turns;
    if (!turns.length) continue;
    const h = document.createElement('h3');
    h.className = colour;
    h.textContent = `${title} (${turns.length})`;
    const ul = document.createElement('ul');
    ul.dataset.group = group;
    const whole = state.showAll.has(group) || turns.length <= SHOWN_TURNS + 2;
    const shown = whole ? turns : turns.slice(0, SHOWN_TURNS);
    const best = state.answer && state.answer.best;
    for (const t of shown) ul.append(turnItem(t, t.turn === best && t === state.turns[0]));
    box.append(h, ul);
    if (!whole) {
      const more = document.createElement('button');
      more.type = 'button';
      more.className = 'show-all';
      more.dataset.showAll = group;
      more.textContent = `Show all ${turns.length}`;
      more.addEventListener('click', () => {
        state.showAll.add(group);
        renderMoves();
      });
      box.append(more);
    }
  }
  if (!state.turns.length) box.append(badge('no legal turn: the side to move has lost', 'loss'));
}

// ---------------------------------------------------------------------------------------------
// Lines to step through.

function renderLineButton() {
  // Only where the tables answer and the game goes on.
  // A set that lacks the DTM files (WDL files alone) has no line to give.
  const offer = Boolean(state.answer) && !state.answer.missing && !finalMove();
  $('#show-line').hidden = !offer;
}

async function showLine() {
  const out = $('#line-out');
  const request = state.request;
  const found = await getJson(apiUrl(state.view.rules, '/line', { position: state.view.text }));
  if (request !== state.request) return;
  out.replaceChildren();
  if (!found.ok || found.body.line === null) {
    out.textContent = found.body.error || `Not in this set: ${found.body.missing}`;
    return;
  }
  // Animal Gambit's line is of turns: each a "move" of the line, its steps drawn.
  if (playsTurns()) found.body.line = found.body.line.map((s) => ({ ...s, move: s.turn }));
  // Clesto has no clock rule, so no second line.
  const rule = found.body.rule_line;
  const same = !rule || (found.body.line.length === rule.length
    && found.body.line.every((s, i) => s.move === rule[i].move));
  state.line = { data: found.body, which: 'line', ply: 0, same };
  renderLine();
}

/** The steps of the line shown. */
const lineSteps = () => state.line.data[state.line.which];

/** The board at the line's ply: the position after it, or the final board of the game. */
function lineBoard() {
  const steps = lineSteps();
  const { ply } = state.line;
  const step = steps[ply - 1];
  if (playsTurns()) {
    return { squares: parseText(step.board).squares, last: turnMoves(step.move), hungry: [] };
  }
  if (step.position) {
    return { squares: parseText(step.position).squares, last: step.move, hungry: step.hungry || [] };
  }
  const before = ply > 1 ? steps[ply - 2].position : state.view.text;
  return { squares: afterFinalMove(parseText(before), step), last: step.move };
}

function setPly(ply) {
  const n = lineSteps().length;
  state.line.ply = Math.max(0, Math.min(n, ply));
  renderLine();
  redraw();
}

function renderLine() {
  const out = $('#line-out');
  out.replaceChildren();
  const { data, which, ply, same } = state.line;
  const steps = lineSteps();
  const tabs = document.createElement('div');
  tabs.className = 'line-tabs';
  const kinds = [['line', 'Best line']];
  if (!same) kinds.push(['rule_line', `Under the clock rule (from clock ${data.clock})`]);
  for (const [key, title] of kinds) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.line = key;
    b.setAttribute('aria-pressed', String(key === which));
    let none = isClesto(state.answer) ? 'none: from here only the ban decides' : 'none (a draw)';
    if (data.flip) none = `the best move is the flip ${data.flip.move} at once`;
    if (playsTurns()) none = 'none: neither side can force an end, the repetition rule decides';
    const unit = data[key].length === 1 ? ONE[distanceUnit()] || distanceUnit() : distanceUnit();
    b.textContent = `${title}: ${data[key].length ? `${data[key].length} ${unit}` : none}`;
    b.addEventListener('click', () => {
      state.line.which = key;
      setPly(0);
    });
    tabs.append(b);
  }
  out.append(tabs);
  if (data.line_stops_at_ban) out.append(lineStop(data));
  if (data.flip) out.append(flipStop(data));
  if (!steps.length) return;
  const player = document.createElement('div');
  player.className = 'player';
  const button = (id, label, title, to) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.id = id;
    b.textContent = label;
    b.title = title;
    b.setAttribute('aria-label', title);
    b.addEventListener('click', () => setPly(to()));
    player.append(b);
    return b;
  };
  button('line-first', '|\u25c0', 'To the start (Home)', () => 0).disabled = ply === 0;
  button('line-prev', '\u25c0', 'One ply back (left arrow)', () => state.line.ply - 1).disabled = ply === 0;
  const slider = document.createElement('input');
  slider.type = 'range';
  slider.id = 'line-slider';
  slider.min = '0';
  slider.max = String(steps.length);
  slider.value = String(ply);
  slider.setAttribute('aria-label', 'Ply of the line');
  slider.addEventListener('input', () => setPly(Number(slider.value)));
  player.append(slider);
  button('line-next', '\u25b6', 'One ply on (right arrow)', () => state.line.ply + 1).disabled = ply === steps.length;
  button('line-last', '\u25b6|', 'To the end (End)', () => steps.length).disabled = ply === steps.length;
  out.append(player);
  const caption = document.createElement('p');
  caption.id = 'line-caption';
  caption.className = 'line-caption';
  caption.textContent = stepCaption(steps, ply);
  out.append(caption);
  if (ply > 0 && steps[ply - 1].position) {
    const from = document.createElement('a');
    from.id = 'line-play';
    from.href = urlFor({ rules: state.view.rules, text: steps[ply - 1].position, last: steps[ply - 1].move });
    from.textContent = 'Open this position';
    inPage(from, () => goTo(steps[ply - 1].position, steps[ply - 1].move));
    out.append(from);
  }
  const ol = document.createElement('ol');
  ol.className = 'steps';
  steps.forEach((s, i) => {
    const li = document.createElement('li');
    li.classList.toggle('current', i + 1 === ply);
    const a = document.createElement('a');
    a.dataset.ply = String(i + 1);
    a.href = s.position
      ? urlFor({ rules: state.view.rules, text: s.position, last: s.move })
      : urlFor({ rules: state.view.rules, text: i ? steps[i - 1].position : state.view.text, end: s.move });
    a.textContent = s.move;
    inPage(a, () => setPly(i + 1));
    li.append(a);
    if (s.kind === 'capture' || s.kind === 'trade') li.append(mark('\u00d7', s.kind));
    if (s.kind === 'den-entry') li.append(mark('\u2302', 'den entry'));
    if (!s.position) li.append(mark('#', s.end));
    ol.append(li);
  });
  out.append(ol);
}

/** One outcome of a flip as a list item: the animal it turns up, its chance and its worth,
 * a link into the position it gives. */
function outcomeItem(o) {
  const a = document.createElement('a');
  a.className = 'outcome';
  a.dataset.animal = o.animal;
  a.href = urlFor({ rules: state.view.rules, text: o.position });
  const what = document.createElement('span');
  what.textContent = `${isRed(o.animal) ? 'red' : 'blue'} ${(ANIMAL[o.animal.toUpperCase()] || { name: o.animal }).name} (${o.probability})`;
  a.append(what, chanceBadge(o));
  inPage(a, () => goTo(o.position));
  const li = document.createElement('li');
  li.append(a);
  return li;
}

/** Where a line through face-down tiles stops: at the flip that is the best move, whose
 * outcome is chance; each outcome a link to step into. */
function flipStop(data) {
  const box = document.createElement('div');
  box.id = 'line-flip';
  box.className = 'line-stop';
  const f = data.flip;
  const where = data.line.length ? `after ${data.line.length} plies` : 'at once';
  const p = document.createElement('p');
  p.textContent = `The line stops ${where} at the flip ${f.move} (score ${f.score}${f.dte !== null ? `, ${certainWords(f, '').trim()}` : ''}): what it turns up is chance. Step into an outcome:`;
  const ul = document.createElement('ul');
  ul.className = 'outcomes';
  for (const o of f.outcomes) ul.append(outcomeItem(o));
  box.append(p, ul);
  return box;
}

/** Why a Clesto line stops before the end of the game: U wins by the ban from there. */
function lineStop(data) {
  const steps = data.line;
  const last = steps.length ? steps[steps.length - 1] : null;
  const text = last ? last.position : data.position;
  const banned = last ? last.banned : state.answer.banned;
  const p = document.createElement('p');
  p.id = 'line-stop';
  p.className = 'line-stop';
  const where = last ? `after ${steps.length} plies` : 'at once';
  const u = colourName(otherColour(banned));
  p.textContent = `The line stops ${where}: there ${u}, not banned, wins by the repetition ban. `
    + `${bannedWhy(parseText(text), banned)} may not repeat a position a fourth time and cannot force `
    + `the game into a smaller material at a position it wins, so from there the game ends only by the ban.`;
  return p;
}

function mark(symbol, title) {
  const m = document.createElement('span');
  m.className = 'mark';
  m.title = title;
  m.textContent = symbol;
  return m;
}

function stepCaption(steps, ply) {
  const unit = distanceUnit();
  if (ply === 0) return `Start: ${steps.length} ${unit} to go. Step with the buttons, the slider or the arrow keys.`;
  const s = steps[ply - 1];
  const turn = ply % 2 === 1 ? otherSide(parseText(state.view.text).turn) : parseText(state.view.text).turn;
  const mover = sideName(otherSide(turn));
  if (playsTurns()) {
    if (!s.position) return `Turn ${ply} of ${steps.length}: ${mover} plays ${s.move}: ${s.end}, the game is over.`;
    return `Turn ${ply} of ${steps.length}: ${mover} plays ${s.move}. ${sideName(turn)} to move: ${describeTurns(s.wdl, s.dtm)}.`;
  }
  if (s.score !== undefined) {
    // A step among face-down tiles: the value of what it gives, for the side then to move.
    const value = certainWords(s, sideName(turn)) || `${sideName(turn)} to move: score ${s.score} (win ${percent(s.win)}, draw ${percent(s.draw)}, loss ${percent(s.loss)})`;
    return `Ply ${ply} of ${steps.length}: ${mover} plays ${s.move}. ${value}, clock ${s.clock}.`;
  }
  const what = { capture: ', a capture', trade: ', a trade', 'den-entry': ', into the den' }[s.kind] || '';
  const starves = s.starves && s.starves.length ? `, starving ${s.starves.join(', ')}` : '';
  if (!s.position) return `Ply ${ply} of ${steps.length}: ${mover} plays ${s.move}${what}${starves}: ${s.end}, the game is over.`;
  if (s.category !== undefined) {
    const dtm = s.dtm === null ? 'DTM \u2013' : `DTM ${s.dtm}`;
    return `Ply ${ply} of ${steps.length}: ${mover} plays ${s.move}${what}${starves}. ${sideName(turn)} to move: ${describeClesto(s)} (${dtm}, banned: ${colourName(s.banned)}).`;
  }
  const dtm = s.dtm === null ? 'DTM \u2013' : `DTM ${s.dtm}`;
  const dtc = s.dtc === null ? 'DTC \u2013' : `DTC ${s.dtc}`;
  return `Ply ${ply} of ${steps.length}: ${mover} plays ${s.move}${what}. ${sideName(turn)} to move: ${describe(s.wdl, s.dtm)} (${dtm}, ${dtc}, clock ${s.clock}).`;
}

function onKey(event) {
  if (!state.line || event.defaultPrevented) return;
  const tag = (event.target.tagName || '').toLowerCase();
  if (['input', 'select', 'textarea'].includes(tag) || event.target.id === 'board') return;
  const n = lineSteps().length;
  const to = { ArrowLeft: state.line.ply - 1, ArrowRight: state.line.ply + 1, Home: 0, End: n }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  setPly(to);
}

// ---------------------------------------------------------------------------------------------
// Material statistics.

async function showStats(material) {
  if (!material) {
    state.statsKey = null;
    renderStats(null, 'a side has no animal: no table');
    return;
  }
  const key = `${state.view.rules}/${material}`;
  if (state.statsKey === key) return;
  state.statsKey = key;
  const found = await getJson(apiUrl(state.view.rules, `/stats/${encodeURIComponent(material)}`));
  if (state.statsKey !== key) return;
  renderStats(found.ok ? found.body : null, found.ok ? null : found.body.error);
}

function positionLink(text, label, rules = state.view.rules) {
  if (!text) return document.createTextNode(label);
  const a = document.createElement('a');
  a.href = urlFor({ rules, text });
  a.textContent = label;
  a.title = text;
  inPage(a, () => navigate({ rules, text, last: null, end: null, material: null }));
  return a;
}

function materialLink(rules, m) {
  const a = document.createElement('a');
  a.href = urlFor({ rules, material: m });
  a.textContent = m;
  a.dataset.material = m;
  inPage(a, () => navigate({ rules, text: '', last: null, end: null, material: m }));
  return a;
}

function renderStats(stats, error = null) {
  state.stats = stats;
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
  const [red, blue] = stats.material.split('v');
  const side = (s) => s.to_move[0].toUpperCase() + s.to_move.slice(1);
  const sides = [`${side(stats.stats[0])} (${red}) to move`, `${side(stats.stats[1])} (${blue}) to move`];
  // One column per side to move, one row per measure: it fits a phone's width.
  const table = document.createElement('table');
  const head = table.createTHead().insertRow();
  for (const t of ['', ...sides]) {
    const th = document.createElement('th');
    th.textContent = t;
    th.scope = 'col';
    head.append(th);
  }
  const body = table.createTBody();
  const fmt = (n) => n.toLocaleString('en-US');
  // Clesto: no draws and no DTC; wins and losses by the ban, and the banned side's longest exit.
  const clesto = stats.stats[0].ban_wins !== undefined;
  // A game of turns (Animal Gambit's): draws are left to the repetition rule, no DTC.
  const turns = geometry(stats.rules).turns;
  const rows = turns ? [
    ['wins', (s) => fmt(s.wins)],
    ['draws (repetition)', (s) => fmt(s.draws)],
    ['losses', (s) => fmt(s.losses)],
    ['longest win', (s) => positionLink(s.longest_win_position, s.longest_win ? `${s.longest_win} ${turnsWord(s.longest_win)}` : '\u2013', stats.rules)],
  ] : clesto ? [
    ['wins', (s) => fmt(s.wins)],
    ['wins by the ban', (s) => fmt(s.ban_wins)],
    ['losses by the ban', (s) => fmt(s.ban_losses)],
    ['losses', (s) => fmt(s.losses)],
    ['longest win', (s) => positionLink(s.longest_win_position, s.longest_win ? `${s.longest_win} plies` : '\u2013')],
    ['longest exit', (s) => positionLink(s.longest_exit_position, s.longest_exit ? `${s.longest_exit} plies` : '\u2013')],
  ] : [
    ['wins', (s) => fmt(s.wins)],
    ['draws', (s) => fmt(s.draws)],
    ['losses', (s) => fmt(s.losses)],
    ['longest win', (s) => positionLink(s.longest_win_position, s.longest_win ? `${s.longest_win} plies` : '\u2013')],
    ['cursed wins', (s) => fmt(s.cursed_wins)],
    ['blessed losses', (s) => fmt(s.blessed_losses)],
    ['longest DTC', (s) => positionLink(s.longest_dtc_position, s.longest_dtc ? `${s.longest_dtc} plies` : '\u2013')],
  ];
  for (const [name, cell] of rows) {
    const row = body.insertRow();
    row.dataset.row = name;
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = name;
    row.append(th);
    for (const s of stats.stats) {
      const value = cell(s);
      const td = row.insertCell();
      if (typeof value === 'string') td.textContent = value; else td.append(value);
    }
  }
  const bars = document.createElement('div');
  bars.className = 'bars';
  stats.stats.forEach((s, i) => {
    const label = document.createElement('span');
    label.textContent = sides[i];
    const ban = clesto ? { wins: s.ban_wins, losses: s.ban_losses } : null;
    bars.append(label, wdlBar(s.wins, s.draws, s.losses, sides[i], ban));
  });
  const deps = document.createElement('p');
  deps.className = 'deps';
  const lead = turns ? 'Trap removals lead to: ' : 'Captures lead to: ';
  deps.append(document.createTextNode(stats.depends_on.length ? lead : 'No smaller tables.'));
  stats.depends_on.forEach((m, i) => {
    if (i) deps.append(document.createTextNode(', '));
    deps.append(materialLink(stats.rules, m));
  });
  out.append(h, table, bars, deps);
  if (stats.histogram) out.append(histograms(stats));
}

function histograms(stats) {
  const box = document.createElement('div');
  box.className = 'histograms';
  const h = document.createElement('h3');
  h.textContent = 'Positions per distance';
  const choose = document.createElement('div');
  choose.className = 'metric';
  const { unit } = geometry(stats.rules);
  const labels = {
    dtm: `DTM (${unit} to the end)`,
    dtc: 'DTC (plies to the next capture)',
    ban: 'Exit (the banned side\u2019s plies out of the material)',
  };
  // The second file is DTC, or in Clesto the ban file.
  const metrics = Object.keys(labels).filter((m) => stats.histogram[m]);
  if (!metrics.includes(state.metric)) state.metric = 'dtm';
  for (const metric of metrics) {
    const label = labels[metric];
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.metric = metric;
    b.textContent = label;
    b.setAttribute('aria-pressed', String(state.metric === metric));
    b.addEventListener('click', () => {
      state.metric = metric;
      renderStats(state.stats);
    });
    choose.append(b);
  }
  box.append(h, choose);
  const pieces = stats.material.split('v');
  const width = Math.max(300, Math.min(1100, $('#stats-out').clientWidth || 600));
  const clesto = Boolean(stats.histogram.ban);
  const rest = clesto ? { dtm: 'decided by the ban', ban: 'without an exit' }[state.metric]
    : geometry(stats.rules).turns ? 'draws (repetition)' : 'draws';
  stats.histogram[state.metric].forEach((side, i) => {
    const per = state.metric === 'ban' ? 'exit distance' : state.metric.toUpperCase();
    const who = `${side.to_move[0].toUpperCase()}${side.to_move.slice(1)} (${pieces[i]}) to move`;
    box.append(histogramChart(side, `${who}: positions per ${per}`, state.metric, width, rest, unit));
  });
  return box;
}

// ---------------------------------------------------------------------------------------------
// The material index.

async function showIndex(view, request) {
  document.body.dataset.state = 'loading';
  $('#index-title').textContent = `All tables of ${view.rules}`;
  document.title = `All tables of ${view.rules} \u2013 ${gameTitle(view.rules)} tablebase`;
  // Materials are written in the game's letters.
  $('#index-search').placeholder = playsTurns(view.rules) ? 'RR, vR, ERvR' : 'LR, vE, ELvT';
  const found = await getJson(apiUrl(view.rules, '/materials'));
  if (request !== state.request) return;
  const out = $('#index-out');
  out.replaceChildren();
  if (!found.ok) {
    out.textContent = found.body.error;
    document.body.dataset.state = 'error';
    return;
  }
  state.index = found.body.tables;
  renderIndex();
  document.body.dataset.state = 'ready';
}

/** Whether material `m` matches the search: every letter of each side typed is in that side. */
function matches(m, query) {
  const q = query.trim().toUpperCase();
  if (!q) return true;
  const [red, blue] = m.split('v');
  if (q.includes('V')) {
    const [qr, qb] = q.split('V');
    return [...qr].every((c) => red.includes(c)) && [...qb].every((c) => blue.includes(c));
  }
  return m.toUpperCase().includes(q) || [...q].every((c) => m.includes(c));
}

function renderIndex() {
  const out = $('#index-out');
  out.replaceChildren();
  const query = $('#index-search').value;
  const rules = state.view.rules;
  const shown = (state.index || []).filter((t) => matches(t.material, query));
  const counts = new Map();
  for (const t of shown) counts.set(t.pieces, (counts.get(t.pieces) || []).concat([t]));
  if (!shown.length) out.textContent = 'No table matches.';
  for (const [pieces, tables] of [...counts].sort((a, b) => a[0] - b[0])) {
    const h = document.createElement('h3');
    h.textContent = `${pieces} pieces (${counted(tables.length, 'table')})`;
    const table = document.createElement('table');
    table.className = 'index-table';
    table.dataset.pieces = String(pieces);
    const head = table.createTHead().insertRow();
    const geo = geometry(rules);
    const [first, second] = geo ? geo.sides : ['r', 'b'];
    const unit = geo ? geo.unit : 'plies';
    for (const t of ['material', `${sideName(first)} to move`, `${sideName(second)} to move`, 'longest win']) {
      const th = document.createElement('th');
      th.textContent = t;
      head.append(th);
    }
    const body = table.createTBody();
    for (const t of tables) {
      const row = body.insertRow();
      row.dataset.material = t.material;
      row.insertCell().append(materialLink(rules, t.material));
      if (t.damaged) {
        // A table whose files cannot be read: named, with why, beside the good ones.
        row.classList.add('damaged');
        const cell = row.insertCell();
        cell.colSpan = 3;
        cell.textContent = `damaged: ${t.damaged}`;
        continue;
      }
      for (const side of [0, 1]) {
        const ban = t.ban_wins ? { wins: t.ban_wins[side], losses: t.ban_losses[side] } : null;
        const draws = t.draws ? t.draws[side] : 0;
        row.insertCell().append(wdlBar(t.wins[side], draws, t.losses[side], `${t.material}, ${sideName(side ? second : first)} to move`, ban));
      }
      const longest = t.longest_win[0] >= t.longest_win[1] ? 0 : 1;
      const cell = row.insertCell();
      cell.append(positionLink(t.longest_win_position[longest], t.longest_win[longest] ? `${t.longest_win[longest]} ${unit}` : '\u2013', rules));
    }
    out.append(h, table);
  }
}

// ---------------------------------------------------------------------------------------------
// Rule sets and controls.

async function loadRuleSets() {
  const found = await getJson('/api/v1');
  const select = $('#rules');
  if (!found.ok) {
    setStatus(found.body.error, true);
    return;
  }
  state.ruleSets = found.body.rule_sets;
  select.replaceChildren();
  for (const r of found.body.rule_sets) {
    state.geos.set(r.rules, geometryFrom(r.rules, r.board));
    const chance = r.chance_tables ? ` and ${counted(r.chance_tables, 'chance table')}` : '';
    const note = r.tables ? ` (${counted(r.tables, 'table')}${chance})` : r.without_tables ? ` (${r.without_tables})` : ' (no tables)';
    select.append(new Option(r.rules + note, r.rules));
  }
}

async function loadMaterials() {
  const list = $('#materials');
  list.replaceChildren();
  const found = await getJson(apiUrl(state.view.rules, '/materials'));
  if (!found.ok) return;
  for (const m of found.body.materials) list.append(new Option(m));
}

function transform(change) {
  const geo = geometry(state.view.rules);
  if (!geo || (state.problem && NOT_A_POSITION.has(state.problem.code))) return;
  goTo(printText(change(parseText(state.view.text), geo), geo));
}

function bindControls() {
  const board = $('#board');
  board.addEventListener('click', onBoardClick);
  board.addEventListener('keydown', onBoardKey);
  // The keyboard's cursor appears with the first key, not on focus: a click focuses the board
  // too, and redrawing between its press and its release would lose the click.
  board.addEventListener('blur', () => {
    if (!state.cursor) return;
    state.cursor = null;
    redraw();
  });
  document.addEventListener('keydown', onKey);
  $('#back').addEventListener('click', () => window.history.back());
  // The hungry set is the mover's: with the other side to move the board decides it again.
  $('#turn').addEventListener('click', () => transform((p) => ({ ...p, turn: otherSide(p.turn), hungry: null })));
  $('#swap').addEventListener('click', () => transform(colourFlipped));
  $('#mirror').addEventListener('click', () => transform(mirrored));
  $('#flip-board').addEventListener('click', () => {
    state.flipped = !state.flipped;
    window.history.replaceState(state.view, '', urlFor(state.view));
    renderControls();
    redraw();
  });
  $('#clock').addEventListener('change', (e) => {
    const geo = geometry(state.view.rules);
    const value = e.target.value.trim();
    const n = Number(value);
    if (!/^\d+$/.test(value) || n > geo.limit) {
      setFieldError('#clock-error', `The clock counts half-moves: 0 to ${geo.limit}.`);
      return;
    }
    setFieldError('#clock-error', '');
    transform((p) => ({ ...p, clock: n }));
  });
  $('#text-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('#text').value.trim();
    if (!text) return;
    // Check the text first (no tables needed): a refused text leaves the board as it is.
    const found = await getJson(apiUrl(state.view.rules, '/moves', { position: text }));
    if (!found.ok) {
      setFieldError('#text-error', found.body.error);
      return;
    }
    setFieldError('#text-error', '');
    goTo(text);
  });
  $('#text').addEventListener('input', () => setFieldError('#text-error', ''));
  $('#material-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const m = $('#material').value.trim();
    if (m) navigate({ rules: state.view.rules, text: '', last: null, end: null, material: m });
  });
  $('#rules').addEventListener('change', (e) => {
    const rules = e.target.value;
    const from = geometry(state.view.rules);
    const to = geometry(rules);
    if (state.view.text) state.lastByRules.set(state.view.rules, state.view.text);
    // The position last seen under that rule set; else this one where the boards are alike.
    const alike = from && to && from.files === to.files && from.ranks === to.ranks;
    const text = state.lastByRules.get(rules)
      || (alike && state.view.text) || START[rules] || '';
    navigate({ rules, text, last: null, end: null, material: null, steps: null });
    loadMaterials();
  });
  $('#faces').addEventListener('change', (e) => {
    state.face = e.target.value;
    saveFace(state.face);
    renderPalette();
    redraw();
  });
  $('#edit').addEventListener('click', () => setEditing(!state.editing));
  $('#done').addEventListener('click', () => setEditing(false));
  $('#clear').addEventListener('click', () => {
    const pos = parseText(state.view.text);
    pos.squares.clear();
    pos.hungry = null;
    const replace = state.editSession;
    state.editSession = true;
    goTo(printText(pos, geometry(state.view.rules)), null, replace);
  });
  $('#show-line').addEventListener('click', showLine);
  $('#end-turn').addEventListener('click', endTurn);
  $('#undo-step').addEventListener('click', undoStep);
  $('#index-search').addEventListener('input', renderIndex);
  $('#index-form').addEventListener('submit', (e) => e.preventDefault());
  window.addEventListener('popstate', (e) => {
    state.editSession = false;
    if (e.state && typeof e.state.depth === 'number') {
      state.flipped = new URLSearchParams(window.location.search).get('flip') === '1';
      show(e.state);
    } else {
      show(viewFromUrl());
    }
  });
}

function setEditing(on) {
  state.editing = on;
  state.editSession = false;
  state.selected = null;
  $('#edit').setAttribute('aria-pressed', String(on));
  $('#palette').hidden = !on;
  renderControls();
  redraw();
}

async function start() {
  const faces = $('#faces');
  for (const [face, label] of FACES) faces.append(new Option(label, face));
  faces.value = state.face;
  bindControls();
  const view = viewFromUrl();
  // After a reload the history entry keeps its depth, so Back still works.
  const saved = window.history.state;
  if (saved && typeof saved.depth === 'number') view.depth = saved.depth;
  window.history.replaceState(view, '', urlFor(view));
  state.view = view;
  await loadRuleSets();
  await show(view);
  loadMaterials();
}

start();
