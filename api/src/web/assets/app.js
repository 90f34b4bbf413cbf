// The pages' entry point: reads data-page/data-arg from <main> and fills the page from the JSON API.
import { api, el, errorBox, problemText, date, fixed } from './faces.js';

const main = document.getElementById('main');
const page = main.dataset.page;
const arg = main.dataset.arg;

function playerCount(game) {
  const { min, max } = game.players;
  return min === max ? `${min} players` : `${min}–${max} players`;
}

function gameLinks(game) {
  return [
    el('a', { href: `/leaderboard/${encodeURIComponent(game.id)}` }, 'leaderboard'), ' · ',
    el('a', { href: `/play/${encodeURIComponent(game.id)}` }, 'play'), ' · ',
    el('a', { href: `/matches?game=${encodeURIComponent(game.id)}` }, 'matches'),
  ];
}

function byFamily(games) {
  const families = new Map();
  for (const game of games) {
    if (!families.has(game.family)) families.set(game.family, []);
    families.get(game.family).push(game);
  }
  return families;
}

// The usual table sizes of a family: the union of its ids' player ranges.
function familySizes(games) {
  const min = Math.min(...games.map(g => g.players.min));
  const max = Math.max(...games.map(g => g.players.max));
  return min === max ? `${min} players` : `${min}–${max} players`;
}

async function home() {
  const target = document.getElementById('catalog');
  const reply = await api('/v1/games');
  if (!reply.ok) { target.replaceChildren(errorBox(problemText(reply))); return; }
  const cards = [];
  for (const [family, games] of byFamily(reply.body)) {
    const [main, ...variants] = games;
    cards.push(el('section', { class: 'panel family', 'aria-labelledby': `f-${family}` },
      el('h2', { id: `f-${family}` }, main.family_name),
      el('p', {}, main.family_description),
      el('p', { class: 'sizes' }, familySizes(games)),
      el('p', {}, el('a', { class: 'primary-link', href: `/play/${encodeURIComponent(main.id)}` }, `Play ${main.name}`), ' · ',
        el('a', { href: `/rules/${encodeURIComponent(family)}` }, 'How to play'), ' · ',
        el('a', { href: `/leaderboard/${encodeURIComponent(main.id)}` }, 'leaderboard'), ' · ',
        el('a', { href: `/matches?game=${encodeURIComponent(main.id)}` }, 'matches')),
      variants.length ? el('details', { class: 'variants' }, el('summary', {}, `${variants.length} variant${variants.length > 1 ? 's' : ''}`),
        el('ul', {}, variants.map(game => el('li', { 'data-game': game.id },
          `${game.name} (${playerCount(game)}): `, ...gameLinks(game))))) : null));
  }
  const { lobbyPanel } = await import('./lobby.js');
  target.replaceChildren(lobbyPanel(null), el('div', { class: 'families' }, cards));
}

async function leaderboards() {
  const target = document.getElementById('boards');
  const reply = await api('/v1/games');
  if (!reply.ok) { target.replaceChildren(errorBox(problemText(reply))); return; }
  target.replaceChildren(el('ul', {}, reply.body.map(game => el('li', {},
    el('a', { href: `/leaderboard/${encodeURIComponent(game.id)}` }, game.id), ` (${game.family})`))));
}

/** Every item (under `key`) of a paged list, following `next_cursor` (at most `pages` pages of
 *  500); the first page's failure as it came. */
// The first page's other fields (a leaderboard's size and table sizes) stay beside the items.
async function everyPage(path, key, pages = 20) {
  const items = [];
  let first = {};
  let cursor = null;
  for (let i = 0; i < pages; i++) {
    const after = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const reply = await api(`${path}${path.includes('?') ? '&' : '?'}limit=500${after}`);
    if (!reply.ok) return i === 0 ? reply : { ok: true, body: { ...first, [key]: items } };
    if (i === 0) first = reply.body;
    items.push(...reply.body[key]);
    cursor = reply.body.next_cursor;
    if (cursor === null) break;
  }
  return { ok: true, body: { ...first, [key]: items, next_cursor: null } };
}

async function leaderboard() {
  const target = document.getElementById('board');
  const game = encodeURIComponent(arg);
  // Each table size has its own ratings: `?players=N` picks the board (default: the size with
  // the most ranked matches, as the API chooses).
  const search = new URLSearchParams(location.search);
  const players = search.get('players');
  // Bots' ratings, or people's (`?kind=people`: players rated at rated tables).
  const people = search.get('kind') === 'people';
  const query = new URLSearchParams();
  if (players) query.set("players", players);
  if (people) query.set('kind', 'people');
  const board = await everyPage(`/v1/leaderboards/${game}${query.toString() ? `?${query}` : ''}`, 'entries');
  if (!board.ok) { target.replaceChildren(errorBox(problemText(board))); return; }
  const entries = board.body.entries;
  const shown = board.body.players;
  const sizes = [...new Set([...Object.keys(board.body.table_sizes).map(Number), shown])].sort((a, b) => a - b);
  const kindQuery = people ? '&kind=people' : '';
  const sizeSwitch = el('nav', { id: 'board-sizes', 'aria-label': 'Table size' }, 'Table size: ',
    sizes.map((n, i) => [i ? ' · ' : '', n === shown
      ? el('strong', { 'aria-current': 'page' }, `${n} players`)
      : el('a', { href: `/leaderboard/${game}?players=${n}${kindQuery}` }, `${n} players`),
    ` (${board.body.table_sizes[String(n)] ?? 0} ranked)`]));
  const kindSwitch = el('nav', { id: 'board-kinds', 'aria-label': 'Whose ratings' }, 'Ratings of: ',
    [[false, 'bots'], [true, 'people']].map(([isPeople, label], i) => [i ? ' · ' : '', isPeople === people
      ? el('strong', { 'aria-current': 'page' }, label)
      : el('a', { href: `/leaderboard/${game}?players=${shown}${isPeople ? '&kind=people' : ''}`, id: `board-${label}` }, label)]));
  const who = e => people
    ? el('a', { href: `/player/${encodeURIComponent(e.player)}` }, e.name || e.player)
    : el('a', { href: `/bot/${encodeURIComponent(e.bot)}` }, e.name || e.bot);
  if (entries.length === 0) {
    target.replaceChildren(kindSwitch, sizeSwitch, el('p', {}, people
      ? `No rated player at ${shown} players yet: rated tables of this game fill the board.`
      : `No rated bot at ${shown} players yet: ranked matches of this game fill the board.`));
  } else {
    target.replaceChildren(kindSwitch, sizeSwitch, el('table', { id: 'leaderboard-table' },
      el('caption', { class: 'muted' }, `${shown} players · updated ${new Date().toLocaleTimeString()}`),
      el('thead', {}, el('tr', {}, ['Rank', people ? 'Player' : 'Bot', 'Rating (μ − 3σ)', 'μ', 'σ', 'Games', 'Wins', 'Draws', 'Losses', 'Faults', 'Last played']
        .map((h, i) => el('th', { scope: 'col', class: i >= 2 && i <= 9 ? 'num' : undefined }, h)))),
      el('tbody', {}, entries.map(e => {
        return el('tr', people ? { 'data-player': e.player } : { 'data-bot': e.bot },
          el('td', {}, String(e.rank)),
          el('td', {}, who(e)),
          el('td', { class: 'num' }, fixed(e.display)), el('td', { class: 'num' }, fixed(e.mu)), el('td', { class: 'num' }, fixed(e.sigma)),
          el('td', { class: 'num' }, String(e.games)), el('td', { class: 'num' }, String(e.wins)), el('td', { class: 'num' }, String(e.draws)),
          el('td', { class: 'num' }, String(e.losses)), el('td', { class: 'num' }, String(e.faults)),
          el('td', {}, e.last_match ? el('a', { href: `/match/${encodeURIComponent(e.last_match)}` }, date(e.last_played_at)) : date(e.last_played_at)));
      }))));
  }
  setTimeout(leaderboard, 10000);
}

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

function statusBadge(status) {
  return el('span', { class: `badge ${status}` }, status);
}

/** Bot names by id, for tables that list seats (one request per page; a deleted bot keeps its id). */
async function botNames() {
  const reply = await everyPage('/v1/bots', 'bots');
  return new Map(reply.ok ? reply.body.bots.map(b => [b.id, b.name]) : []);
}

async function bot() {
  const target = document.getElementById('bot');
  const reply = await api(`/v1/bots/${encodeURIComponent(arg)}`);
  if (!reply.ok) { target.replaceChildren(errorBox(problemText(reply))); return; }
  const b = reply.body;
  document.getElementById('bot-title').textContent = `Bot: ${b.name}`;
  document.title = `Bot ${b.name} · cardroom`;
  const recent = b.recent_matches || [];
  // Latency comes from the moves of the recent matches (at most 20 fetched); faults from the
  // bot's own list, across all its matches.
  const [details, names] = await Promise.all([
    Promise.all(recent.slice(0, 20).map(m => api(`/v1/matches/${encodeURIComponent(m.id)}?include=moves`))),
    botNames(),
  ]);
  const latencies = [];
  for (const d of details) {
    if (!d.ok) continue;
    const seats = d.body.seats.filter(s => s.bot === b.id).map(s => s.seat);
    for (const mv of d.body.moves) {
      if (!seats.includes(mv.seat)) continue;
      if (!mv.fault || mv.fault.kind !== 'disqualified') latencies.push(mv.latency_ms);
    }
  }
  latencies.sort((x, y) => x - y);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  const history = el('div', { id: 'rating-history' });
  const faults = el('div', { id: 'faults' });
  target.replaceChildren(
    el('section', { class: 'panel' },
      el('dl', { class: 'view' },
        el('dt', {}, 'id'), el('dd', {}, el('code', {}, b.id)),
        el('dt', {}, 'author'), el('dd', {}, b.author),
        el('dt', {}, 'version'), el('dd', {}, b.version),
        el('dt', {}, 'built in'), el('dd', {}, b.builtin ? 'yes' : 'no'),
        el('dt', {}, 'paused'), el('dd', {}, !b.paused ? 'no' : b.pause_reason === 'moderated' ? 'yes (by the admin)' : 'yes (after repeated failures)'),
        el('dt', {}, 'open to challenges'), el('dd', {}, b.open_to_challenges ? 'yes: anyone may seat it' : 'no: its owner, the admin and the ladder seat it'),
        b.connected === undefined ? null : [el('dt', {}, 'connected'), el('dd', {}, b.connected ? 'yes' : 'no')],
        el('dt', {}, 'registered'), el('dd', {}, date(b.created_at)),
        el('dt', {}, 'games'), el('dd', {}, b.games.join(', ')))),
    el('h2', {}, 'Ratings'),
    b.ratings.length === 0 ? el('p', { class: 'muted' }, 'No ranked match yet.') :
      el('table', {}, el('thead', {}, el('tr', {}, ['Game', 'Players', 'Rating (μ − 3σ)', 'μ', 'σ', 'Games'].map(h => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, b.ratings.map(r => el('tr', {}, el('td', {}, el('a', { href: `/leaderboard/${encodeURIComponent(r.game)}?players=${r.players}` }, r.game)),
          el('td', { class: 'num' }, String(r.players)),
          el('td', { class: 'num' }, fixed(r.display)), el('td', { class: 'num' }, fixed(r.mu)), el('td', { class: 'num' }, fixed(r.sigma)), el('td', { class: 'num' }, String(r.played)))))),
    history,
    el('h2', {}, 'Move latency'),
    el('p', { id: 'latency' }, latencies.length === 0 ? 'No move yet.' :
      `p50 ${p50} ms, p99 ${p99} ms over ${latencies.length} moves of the ${details.length} most recent matches.`),
    el('h2', {}, 'Faults'),
    faults,
    el('h2', {}, 'Recent matches'),
    matchTable(recent, names, b.id));
  await Promise.all([ratingHistory(history, b), faultList(faults, b)]);
}

/** The rating history of one of the bot's games and table sizes at a time, as a chart and a table. */
async function ratingHistory(target, b) {
  if (b.ratings.length === 0) return;
  // One rating per game and table size: one curve each.
  const boards = b.ratings.map(r => ({ value: `${r.game}:${r.players}`, label: `${r.game}, ${r.players} players` }));
  const select = el('select', { id: 'history-game' }, boards.map(o => el('option', { value: o.value }, o.label)));
  const chart = el('div', { id: 'history-chart', 'aria-live': 'polite' });
  async function show() {
    const [game, players] = select.value.split(':');
    // The newest 500 points (one page): the list is newest first, the chart reads left to right.
    const reply = await api(`/v1/bots/${encodeURIComponent(b.id)}/ratings?game=${encodeURIComponent(game)}&players=${players}&limit=500`);
    if (!reply.ok) { chart.replaceChildren(errorBox(problemText(reply))); return; }
    const points = reply.body.ratings.slice().reverse();
    chart.replaceChildren(...ratingChart(points, `${game} (${players} players)`, reply.body.next_cursor !== null));
  }
  select.addEventListener('change', show);
  target.replaceChildren(
    el('h2', {}, 'Rating history'),
    boards.length > 1 ? el('p', {}, el('label', { for: 'history-game' }, 'Game ', select)) : el('p', { class: 'muted' }, `Game: ${boards[0].label}`),
    chart);
  if (boards.length === 1) select.value = boards[0].value;
  await show();
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Creates an SVG element: svg('line', {x1: 0, ...}, child, ...). */
function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null) node.setAttribute(key, String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/**
 * A line chart of the rating after each ranked match, oldest on the left, readable without
 * colour: the rating (μ − 3σ) is a solid line with round markers, μ a dashed line with square
 * markers, a change of the bot's version a dotted vertical line labelled with the version; every
 * marker names its match in a tooltip, and the same numbers follow in a table.
 */
function ratingChart(points, game, older) {
  if (points.length === 0) return [el('p', { class: 'muted' }, `No ranked match of ${game} yet.`)];
  const width = 640, height = 260;
  const left = 52, right = 16, top = 28, bottom = 40;
  const values = points.flatMap(p => [p.display, p.mu]);
  let low = Math.min(...values), high = Math.max(...values);
  if (high - low < 1) { low -= 0.5; high += 0.5; }
  const x = i => left + (points.length === 1 ? (width - left - right) / 2 : i * (width - left - right) / (points.length - 1));
  const y = v => top + (high - v) * (height - top - bottom) / (high - low);
  const ticks = [high, (high + low) / 2, low];
  const r = points.length > 100 ? 2 : 3.5;
  const tip = (p, i) => `Match ${i + 1}: ${p.match_id}, ${date(p.at)}; rating ${fixed(p.display)} (μ ${fixed(p.mu)}, σ ${fixed(p.sigma)})${p.version ? `, version ${p.version}` : ''}`;
  const versions = [];
  points.forEach((p, i) => {
    if (i > 0 && p.version !== points[i - 1].version && p.version) versions.push([i, p.version]);
  });
  const path = key => points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p[key]).toFixed(1)}`).join(' ');
  const chart = svg('svg', {
    class: 'chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-labelledby': 'chart-title chart-desc',
    'data-points': points.length,
  },
  svg('title', { id: 'chart-title' }, `Rating history in ${game}`),
  svg('desc', { id: 'chart-desc' }, `${points.length} ranked matches, oldest first: the rating (μ − 3σ) went from ${fixed(points[0].display)} to ${fixed(points[points.length - 1].display)}.`),
  // Axes and grid lines with their values.
  ticks.map(t => [
    svg('line', { class: 'grid', x1: left, x2: width - right, y1: y(t), y2: y(t) }),
    svg('text', { x: left - 6, y: y(t) + 4, 'text-anchor': 'end' }, fixed(t, 1)),
  ]),
  svg('line', { class: 'axis', x1: left, x2: left, y1: top, y2: height - bottom }),
  svg('line', { class: 'axis', x1: left, x2: width - right, y1: height - bottom, y2: height - bottom }),
  svg('text', { x: left, y: height - bottom + 16, 'text-anchor': 'start' }, '1'),
  svg('text', { x: width - right, y: height - bottom + 16, 'text-anchor': 'end' }, String(points.length)),
  svg('text', { x: (left + width - right) / 2, y: height - 6, 'text-anchor': 'middle' }, older ? 'ranked matches (the latest 500), oldest first' : 'ranked matches, oldest first'),
  versions.map(([i, version]) => [
    svg('line', { class: 'version', x1: x(i), x2: x(i), y1: top, y2: height - bottom }),
    svg('text', { x: x(i) + 3, y: top + 10, class: 'small' }, `v ${version}`),
  ]),
  // The two series: told apart by line style and marker shape, not by colour.
  svg('path', { class: 'series mu', d: path('mu') }),
  svg('path', { class: 'series display', d: path('display') }),
  points.map((p, i) => svg('rect', { class: 'marker mu', x: x(i) - r, y: y(p.mu) - r, width: 2 * r, height: 2 * r }, svg('title', {}, tip(p, i)))),
  points.map((p, i) => svg('circle', { class: 'marker display', cx: x(i), cy: y(p.display), r }, svg('title', {}, tip(p, i)))),
  // The legend.
  svg('line', { class: 'series display', x1: left, x2: left + 24, y1: 12, y2: 12 }),
  svg('circle', { class: 'marker display', cx: left + 12, cy: 12, r: 3.5 }),
  svg('text', { x: left + 30, y: 16 }, 'rating (μ − 3σ)'),
  svg('line', { class: 'series mu', x1: left + 170, x2: left + 194, y1: 12, y2: 12 }),
  svg('rect', { class: 'marker mu', x: left + 178.5, y: 8.5, width: 7, height: 7 }),
  svg('text', { x: left + 200, y: 16 }, 'μ'));
  const table = el('details', {},
    el('summary', {}, 'The numbers'),
    el('table', { id: 'history-table' },
      el('thead', {}, el('tr', {}, ['#', 'Match', 'When', 'Rating (μ − 3σ)', 'μ', 'σ', 'Version'].map(h => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, points.map((p, i) => el('tr', {},
        el('td', { class: 'num' }, String(i + 1)),
        el('td', {}, el('a', { href: `/match/${encodeURIComponent(p.match_id)}` }, p.match_id)),
        el('td', {}, date(p.at)),
        el('td', { class: 'num' }, fixed(p.display)), el('td', { class: 'num' }, fixed(p.mu)), el('td', { class: 'num' }, fixed(p.sigma)),
        el('td', {}, p.version || '—'))))));
  return [el('figure', { class: 'chart-box' }, chart), table];
}

/** The bot's faults across all its matches, newest first, a page at a time. */
async function faultList(target, b) {
  const body = el('tbody', {});
  const more = el('button', { type: 'button', id: 'older-faults', hidden: true }, 'Older faults');
  const status = el('p', { class: 'muted', 'aria-live': 'polite' });
  let cursor = null;
  async function load() {
    const query = new URLSearchParams({ limit: '20' });
    if (cursor) query.set('cursor', cursor);
    const reply = await api(`/v1/bots/${encodeURIComponent(b.id)}/faults?${query}`);
    if (!reply.ok) { status.replaceChildren(errorBox(problemText(reply))); return; }
    for (const f of reply.body.faults) body.append(faultRow(f));
    cursor = reply.body.next_cursor;
    more.hidden = cursor === null;
    const shown = body.children.length;
    status.textContent = shown === 0 ? 'No fault in any match.' :
      `${shown} fault${shown === 1 ? '' : 's'} shown, newest first${cursor === null ? ': every fault of the bot.' : '.'}`;
  }
  more.addEventListener('click', load);
  target.replaceChildren(status,
    el('table', { id: 'faults-table' },
      el('thead', {}, el('tr', {}, ['When', 'Match', 'Move', 'Seat', 'Kind', 'What happened', "The bot's answer", 'Expected']
        .map(h => el('th', { scope: 'col' }, h)))),
      body),
    more);
  await load();
  if (body.children.length === 0) target.querySelector('table').hidden = true;
}

function faultRow(f) {
  const answer = f.answer;
  return el('tr', { 'data-match': f.match_id, 'data-move': f.move },
    el('td', {}, date(f.at)),
    el('td', {}, el('a', { href: `/match/${encodeURIComponent(f.match_id)}` }, f.match_id)),
    el('td', { class: 'num' }, String(f.move)),
    el('td', { class: 'num' }, String(f.seat)),
    el('td', {}, el('code', {}, f.kind)),
    el('td', {}, f.detail === null ? el('span', { class: 'muted' }, 'shown once the match is over') : f.detail),
    el('td', {}, answer ? [
      answer.status ? `HTTP ${answer.status}` : 'the action',
      el('pre', { class: 'answer' }, el('code', {}, answer.body || '(empty body)')),
      answer.truncated ? el('span', { class: 'muted' }, '(the first 512 bytes)') : null,
    ] : '—'),
    el('td', {}, f.expected || '—'));
}

function matchTable(matches, names, highlightBot) {
  if (matches.length === 0) return el('p', { class: 'muted' }, 'No match.');
  return el('table', { id: 'matches-table' },
    el('thead', {}, el('tr', {}, ['Match', 'Game', 'Status', 'Bots (by seat)', 'Ranking', 'Ranked', 'Created'].map(h => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, matches.map(m => matchRow(m, names, highlightBot))));
}

function matchRow(m, names, highlightBot) {
  return el('tr', { 'data-match': m.id },
    el('td', {}, el('a', { href: `/match/${encodeURIComponent(m.id)}` }, m.id)),
    el('td', {}, m.game),
    el('td', {}, statusBadge(m.status)),
    el('td', { class: 'seats' }, el('ol', { start: 0, class: 'seats' }, m.bots.map((id, seat) => {
      const name = names.get(id) || id;
      // A person's seat has no bot page to link to.
      const link = id === 'person' ? el('span', { 'data-seat': seat }, 'a person')
        : el('a', { href: `/bot/${encodeURIComponent(id)}`, 'data-seat': seat }, id === highlightBot ? el('strong', {}, name) : name);
      return el('li', {}, el('span', { class: 'muted' }, `${seat}: `), link);
    }))),
    el('td', {}, m.ranking ? m.ranking.map(g => g.join(' = ')).join(' › ') : '—'),
    el('td', {}, m.ranked ? 'yes' : 'no'),
    el('td', {}, date(m.created_at)));
}

async function matches() {
  const form = document.getElementById('filters');
  const target = document.getElementById('list');
  const params = new URLSearchParams(location.search);
  const [games, names] = await Promise.all([api('/v1/games'), botNames()]);
  const gameSelect = el('select', { name: 'game', id: 'filter-game' }, el('option', { value: '' }, 'any game'),
    (games.ok ? games.body : []).map(g => el('option', { value: g.id, selected: params.get('game') === g.id }, g.id)));
  const botInput = el('input', { name: 'bot', id: 'filter-bot', value: params.get('bot') || '', placeholder: 'bot id', size: 22 });
  const statusSelect = el('select', { name: 'status', id: 'filter-status' }, ['', 'waiting', 'queued', 'running', 'finished', 'aborted']
    .map(s => el('option', { value: s, selected: (params.get('status') || '') === s }, s || 'any status')));
  // People's tables apart from bots' matches (`people=true|false`).
  const peopleSelect = el('select', { name: 'people', id: 'filter-people' },
    [['', 'anyone'], ['true', 'people’s tables'], ['false', 'bots only']]
      .map(([v, label]) => el('option', { value: v, selected: (params.get('people') || '') === v }, label)));
  form.replaceChildren(
    el('label', { for: 'filter-game' }, 'Game', gameSelect),
    el('label', { for: 'filter-bot' }, 'Bot', botInput),
    el('label', { for: 'filter-status' }, 'Status', statusSelect),
    el('label', { for: 'filter-people' }, 'Players', peopleSelect),
    el('button', { type: 'submit', class: 'primary' }, 'Filter'));
  const status = params.get('status');
  const shown = m => !status || m.status === status;
  const query = cursor => {
    const q = new URLSearchParams({ limit: '100' });
    if (params.get('game')) q.set('game', params.get('game'));
    if (params.get('bot')) q.set('bot', params.get('bot'));
    if (['true', 'false'].includes(params.get('people'))) q.set('people', params.get('people'));
    if (cursor) q.set('cursor', cursor);
    return `/v1/matches?${q}`;
  };
  // The newest page refreshes itself; older pages, loaded on request, stay below it.
  const more = el('button', { type: 'button', id: 'older' }, 'Older matches');
  const table = el('div', {});
  let newest = [];
  const older = [];
  let cursor = null;
  let started = false;
  const draw = () => table.replaceChildren(matchTable([...newest, ...older].filter(shown), names));
  async function load() {
    const reply = await api(query(null));
    if (!reply.ok) { table.replaceChildren(errorBox(problemText(reply))); return; }
    newest = reply.body.matches;
    if (!started) { cursor = reply.body.next_cursor; more.hidden = cursor === null; started = true; }
    draw();
    // Once older pages are shown the list holds still: a refresh would open a gap above them.
    if (older.length === 0) setTimeout(load, 5000);
  }
  more.addEventListener('click', async () => {
    const reply = await api(query(cursor));
    if (!reply.ok) { table.append(errorBox(problemText(reply))); return; }
    const seen = new Set([...newest, ...older].map(m => m.id));
    older.push(...reply.body.matches.filter(m => !seen.has(m.id)));
    cursor = reply.body.next_cursor;
    more.hidden = cursor === null;
    draw();
  });
  target.replaceChildren(table, more);
  await load();
}

/** A player's page: name, ratings per game id and table size, recent tables. */
async function player() {
  const target = document.getElementById('player');
  const reply = await api(`/v1/players/${encodeURIComponent(arg)}`);
  if (!reply.ok) { target.replaceChildren(errorBox(problemText(reply))); return; }
  const p = reply.body;
  document.getElementById('player-title').textContent = `Player: ${p.name}`;
  document.title = `Player ${p.name} · cardroom`;
  const seatsOf = t => t.seats.map(s => s.player === p.id ? el('strong', {}, s.name) : s.name || (s.kind === 'open' ? 'open seat' : '…'))
    .flatMap((who, i) => (i ? [', ', who] : [who]));
  target.replaceChildren(
    el('section', { class: 'panel' }, el('dl', { class: 'view' },
      el('dt', {}, 'id'), el('dd', {}, el('code', {}, p.id)),
      el('dt', {}, 'player since'), el('dd', {}, date(p.created_at)))),
    el('h2', {}, 'Ratings'),
    p.ratings.length === 0 ? el('p', { class: 'muted', id: 'no-ratings' }, 'No rated table yet.') :
      el('table', { id: 'player-ratings' }, el('thead', {}, el('tr', {}, ['Game', 'Players', 'Rating (μ − 3σ)', 'μ', 'σ', 'Games'].map(h => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, p.ratings.map(r => el('tr', { 'data-game': r.game },
          el('td', {}, el('a', { href: `/leaderboard/${encodeURIComponent(r.game)}?players=${r.players}&kind=people` }, r.game)),
          el('td', { class: 'num' }, String(r.players)),
          el('td', { class: 'num rating' }, fixed(r.display)), el('td', { class: 'num' }, fixed(r.mu)), el('td', { class: 'num' }, fixed(r.sigma)),
          el('td', { class: 'num' }, String(r.played)))))),
    el('h2', {}, 'Recent tables'),
    p.tables.length === 0 ? el('p', { class: 'muted' }, 'No table yet.') :
      el('table', { id: 'player-tables' }, el('thead', {}, el('tr', {}, ['Table', 'Game', 'Seats', 'Status', 'Rated', 'Opened'].map(h => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, p.tables.map(t => el('tr', { 'data-table': t.id },
          el('td', {}, el('a', { href: t.status === 'waiting' ? t.watch_url : `/match/${encodeURIComponent(t.match_id)}` }, t.id)),
          el('td', {}, t.game), el('td', {}, seatsOf(t)), el('td', {}, statusBadge(t.status)),
          el('td', {}, t.rated ? 'yes' : 'no'), el('td', {}, date(t.created_at)))))));
}

async function playIndex() {
  const target = document.getElementById('games');
  const reply = await api('/v1/games');
  if (!reply.ok) { target.replaceChildren(errorBox(problemText(reply))); return; }
  target.replaceChildren(el('ul', {}, reply.body.map(g => el('li', {},
    el('a', { href: `/play/${encodeURIComponent(g.id)}` }, g.id), ` — ${g.name}, ${playerCount(g)}`))));
}

const pages = {
  home,
  leaderboards,
  leaderboard,
  bot,
  player,
  matches,
  'play-index': playIndex,
  match: async () => (await import('./replay.js')).matchPage(arg),
  play: async () => (await import('./play.js')).playPage(arg),
  table: async () => (await import('./seat.js')).tablePage(arg),
};

const run = pages[page];
if (run) {
  run().catch(error => {
    main.append(errorBox(`Something went wrong: ${error.message}`));
  });
}
