// Pictures of the numbers, in SVG: a win/draw/loss bar, and positions per distance.
'use strict';

import { svg } from './faces.js';

const fmt = (n) => n.toLocaleString('en-US');
const pct = (n, total) => (total ? `${((100 * n) / total).toFixed(1)}%` : '0%');

/**
 * A bar of the win, draw and loss shares of one side to move; with `ban` (Clesto, `{ wins,
 * losses }`), the wins and losses by the repetition ban beside the plain ones.
 */
export function wdlBar(wins, draws, losses, label, ban = null) {
  const parts = [[wins, 'win', 'wins']];
  if (ban) parts.push([ban.wins, 'ban-win', 'wins by the ban']);
  if (!ban) parts.push([draws, 'draw', 'draws']);
  if (ban) parts.push([ban.losses, 'ban-loss', 'losses by the ban']);
  parts.push([losses, 'loss', 'losses']);
  const total = parts.reduce((n, [count]) => n + count, 0);
  const bar = svg('svg', { viewBox: '0 0 100 10', preserveAspectRatio: 'none', class: 'wdl-bar', role: 'img' });
  bar.setAttribute('aria-label', `${label}: ${parts.map(([n, , word]) => `${pct(n, total)} ${word}`).join(', ')}`);
  let x = 0;
  for (const [n, kind, word] of parts) {
    const w = total ? (100 * n) / total : 0;
    const r = svg('rect', { x, y: 0, width: w, height: 10, class: `bar-${kind}`, 'data-share': kind }, bar);
    svg('title', {}, r).textContent = `${label}: ${fmt(n)} ${word} (${pct(n, total)})`;
    x += w;
  }
  return bar;
}

/**
 * Positions per distance of one side to move: wins up (green), losses down (red), one bar per
 * distance (plies, or Animal Gambit's turns); a logarithmic scale, so that the few longest wins still show beside the many short ones.
 * `side` is `{ wins: [...], losses: [...], draws }` of `/stats`'s histogram; `width` is the room
 * it has in CSS pixels, so that its text keeps its size; `rest` names the positions with no
 * distance (draws, or in Clesto those the ban decides); `unit` is what a distance counts (`plies`,
 * or Animal Gambit's `turns`).
 */
export function histogramChart(side, title, metric, width = 600, rest = 'draws', unit = 'plies') {
  const half = 70;
  const top = 30;
  const longest = Math.max(side.wins.length, side.losses.length, 1);
  const step = Math.min(12, (width - 40) / longest);
  const peak = Math.max(1, ...side.wins, ...side.losses);
  const scale = (n) => (n > 0 ? (half * Math.log10(n + 1)) / Math.log10(peak + 1) : 0);
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${2 * half + top + 22}`, class: 'histogram', role: 'img',
    'data-metric': metric, 'data-side': side.to_move,
  });
  chart.setAttribute('aria-label', title);
  svg('text', { x: 0, y: 11, class: 'chart-title' }, chart).textContent = title;
  const axis = top + half;
  svg('line', { x1: 30, y1: axis, x2: width, y2: axis, class: 'chart-axis' }, chart);
  const bars = (counts, kind, up) => {
    counts.forEach((n, d) => {
      if (!n) return;
      const h = Math.max(1, scale(n));
      const r = svg('rect', {
        x: 30 + d * step, y: up ? axis - h : axis, width: Math.max(1, step - 0.5), height: h,
        class: `bar-${kind}`, 'data-plies': d, 'data-count': n,
      }, chart);
      svg('title', {}, r).textContent = `${kind === 'win' ? 'win' : 'loss'} in ${d}: ${fmt(n)} positions`;
    });
  };
  bars(side.wins, 'win', true);
  bars(side.losses, 'loss', false);
  // Ticks every 10 (every 20 when long).
  const every = longest > 120 ? 20 : 10;
  for (let d = 0; d < longest; d += every) {
    const t = svg('text', { x: 30 + d * step, y: axis + half + 18, class: 'chart-tick' }, chart);
    t.textContent = String(d);
  }
  svg('text', { x: 0, y: top + 10, class: 'chart-tick' }, chart).textContent = 'wins';
  svg('text', { x: 0, y: axis + half, class: 'chart-tick' }, chart).textContent = 'losses';
  const note = svg('text', { x: 0, y: 24, class: 'chart-note' }, chart);
  note.textContent = `${fmt(side.draws)} ${rest}; ${unit} along, positions up (wins) and down (losses), log scale`;
  return chart;
}
