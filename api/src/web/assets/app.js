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
  target.replaceChildren(el('div', { class: 'families' }, cards));
}

async function leaderboards() {
  const target = document.getElementById('boards');
  const reply = await api('/v1/games');
  if (!reply.ok) { target.replaceChildren(errorBox(problemText(reply))); return; }
  target.replaceChildren(el('ul', {}, reply.body.map(game => el('li', {},
    el('a', { href: `/leaderboard/${encodeURIComponent(game.id)}` }, game.id), ` (${game.family})`))));
}

async function leaderboard() {
  const target = document.getElementById('board');
  const game = encodeURIComponent(arg);
  const board = await api(`/v1/leaderboards/${game}`);
  if (!board.ok) { target.replaceChildren(errorBox(problemText(board))); return; }
  const entries = board.body.entries;
  if (entries.length === 0) {
    target.replaceChildren(el('p', {}, 'No rated bot yet: ranked matches of this game fill the board.'));
  } else {
    target.replaceChildren(el('table', { id: 'leaderboard-table' },
      el('caption', { class: 'muted' }, `Updated ${new Date().toLocaleTimeString()}`),
      el('thead', {}, el('tr', {}, ['Rank', 'Bot', 'Rating (μ − 3σ)', 'μ', 'σ', 'Games', 'Wins', 'Draws', 'Losses', 'Faults', 'Last played']
        .map((h, i) => el('th', { scope: 'col', class: i >= 2 && i <= 9 ? 'num' : undefined }, h)))),
      el('tbody', {}, entries.map(e => {
        return el('tr', { 'data-bot': e.bot },
          el('td', {}, String(e.rank)),
          el('td', {}, el('a', { href: `/bot/${encodeURIComponent(e.bot)}` }, e.name || e.bot)),
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

async function bot() {
  const target = document.getElementById('bot');
  const reply = await api(`/v1/bots/${encodeURIComponent(arg)}`);
  if (!reply.ok) { target.replaceChildren(errorBox(problemText(reply))); return; }
  const b = reply.body;
  document.getElementById('bot-title').textContent = `Bot: ${b.name}`;
  document.title = `Bot ${b.name} · cardroom`;
  const recent = b.recent_matches || [];
  // Latency and faults come from the moves of the recent matches (at most 20 fetched).
  const details = await Promise.all(recent.slice(0, 20).map(m => api(`/v1/matches/${encodeURIComponent(m.id)}`)));
  const latencies = [];
  const faults = new Map();
  for (const d of details) {
    if (!d.ok) continue;
    const seats = d.body.seats.filter(s => s.bot === b.id).map(s => s.seat);
    for (const mv of d.body.moves) {
      if (!seats.includes(mv.seat)) continue;
      if (!mv.fault || mv.fault.kind !== 'disqualified') latencies.push(mv.latency_ms);
      if (mv.fault) {
        const f = faults.get(mv.fault.kind) || { count: 0, reasons: new Set() };
        f.count += 1;
        f.reasons.add(mv.fault.detail);
        faults.set(mv.fault.kind, f);
      }
    }
  }
  latencies.sort((x, y) => x - y);
  const p50 = percentile(latencies, 50);
  const p99 = percentile(latencies, 99);
  target.replaceChildren(
    el('section', { class: 'panel' },
      el('dl', { class: 'view' },
        el('dt', {}, 'id'), el('dd', {}, el('code', {}, b.id)),
        el('dt', {}, 'author'), el('dd', {}, b.author),
        el('dt', {}, 'version'), el('dd', {}, b.version),
        el('dt', {}, 'built in'), el('dd', {}, b.builtin ? 'yes' : 'no'),
        el('dt', {}, 'paused'), el('dd', {}, b.paused ? 'yes (after repeated failures)' : 'no'),
        el('dt', {}, 'registered'), el('dd', {}, date(b.created_at)),
        el('dt', {}, 'games'), el('dd', {}, b.games.join(', ')))),
    el('h2', {}, 'Ratings'),
    b.ratings.length === 0 ? el('p', { class: 'muted' }, 'No ranked match yet.') :
      el('table', {}, el('thead', {}, el('tr', {}, ['Game', 'Rating (μ − 3σ)', 'μ', 'σ', 'Games'].map(h => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, b.ratings.map(r => el('tr', {}, el('td', {}, el('a', { href: `/leaderboard/${encodeURIComponent(r.game)}` }, r.game)),
          el('td', { class: 'num' }, fixed(r.display)), el('td', { class: 'num' }, fixed(r.mu)), el('td', { class: 'num' }, fixed(r.sigma)), el('td', { class: 'num' }, String(r.played)))))),
    el('h2', {}, 'Move latency'),
    el('p', { id: 'latency' }, latencies.length === 0 ? 'No move yet.' :
      `p50 ${p50} ms, p99 ${p99} ms over ${latencies.length} moves of the ${details.length} most recent matches.`),
    el('h2', {}, 'Faults'),
    faults.size === 0 ? el('p', {}, 'No fault in the recent matches.') :
      el('table', {}, el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Kind'), el('th', { scope: 'col', class: 'num' }, 'Count'), el('th', { scope: 'col' }, 'Reasons'))),
        el('tbody', {}, [...faults].map(([kind, f]) => el('tr', {}, el('td', {}, kind), el('td', { class: 'num' }, String(f.count)),
          el('td', {}, el('ul', {}, [...f.reasons].slice(0, 5).map(r => el('li', {}, r)))))))),
    el('h2', {}, 'Recent matches'),
    matchTable(recent, b.id));
}

function matchTable(matches, highlightBot) {
  if (matches.length === 0) return el('p', { class: 'muted' }, 'No match.');
  return el('table', { id: 'matches-table' },
    el('thead', {}, el('tr', {}, ['Match', 'Game', 'Status', 'Bots (by seat)', 'Ranking', 'Ranked', 'Created'].map(h => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, matches.map(m => el('tr', { 'data-match': m.id },
      el('td', {}, el('a', { href: `/match/${encodeURIComponent(m.id)}` }, m.id)),
      el('td', {}, m.game),
      el('td', {}, statusBadge(m.status)),
      el('td', {}, m.bots.map((bot, seat) => [seat ? ', ' : '', el('a', { href: `/bot/${encodeURIComponent(bot)}` }, bot === highlightBot ? el('strong', {}, `${seat}: ${bot}`) : `${seat}: ${bot}`)])),
      el('td', {}, m.ranking ? m.ranking.map(g => g.join(' = ')).join(' › ') : '—'),
      el('td', {}, m.ranked ? 'yes' : 'no'),
      el('td', {}, date(m.created_at))))));
}

async function matches() {
  const form = document.getElementById('filters');
  const target = document.getElementById('list');
  const params = new URLSearchParams(location.search);
  const games = await api('/v1/games');
  const gameSelect = el('select', { name: 'game', id: 'filter-game' }, el('option', { value: '' }, 'any game'),
    (games.ok ? games.body : []).map(g => el('option', { value: g.id, selected: params.get('game') === g.id }, g.id)));
  const botInput = el('input', { name: 'bot', id: 'filter-bot', value: params.get('bot') || '', placeholder: 'bot id', size: 22 });
  const statusSelect = el('select', { name: 'status', id: 'filter-status' }, ['', 'queued', 'running', 'finished', 'aborted']
    .map(s => el('option', { value: s, selected: (params.get('status') || '') === s }, s || 'any status')));
  form.replaceChildren(
    el('label', { for: 'filter-game' }, 'Game', gameSelect),
    el('label', { for: 'filter-bot' }, 'Bot', botInput),
    el('label', { for: 'filter-status' }, 'Status', statusSelect),
    el('button', { type: 'submit', class: 'primary' }, 'Filter'));
  async function load() {
    const query = new URLSearchParams({ limit: '200' });
    if (params.get('game')) query.set('game', params.get('game'));
    if (params.get('bot')) query.set('bot', params.get('bot'));
    const reply = await api(`/v1/matches?${query}`);
    if (!reply.ok) { target.replaceChildren(errorBox(problemText(reply))); return; }
    const status = params.get('status');
    const list = reply.body.matches.filter(m => !status || m.status === status);
    target.replaceChildren(matchTable(list));
    setTimeout(load, 5000);
  }
  await load();
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
  matches,
  'play-index': playIndex,
  match: async () => (await import('./replay.js')).matchPage(arg),
  play: async () => (await import('./play.js')).playPage(arg),
};

const run = pages[page];
if (run) {
  run().catch(error => {
    main.append(errorBox(`Something went wrong: ${error.message}`));
  });
}
