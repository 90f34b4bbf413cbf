// The lobby: tables waiting for people with an open seat (GET /v1/tables?status=waiting), each
// with a Join button that opens the table's page, where the open seat is taken under a name.
// Shown on the home page (every game) and the play page (its game); refreshed every 5 seconds,
// so a table leaves the list once its open seats are taken.
import { api, el, errorBox, problemText, date } from './faces.js';

const enc = encodeURIComponent;

function seatText(seat) {
  if (seat.kind === 'open' && !seat.joined) return 'open seat';
  const name = seat.name || (seat.kind === 'bot' ? 'a bot' : 'invited');
  if (seat.player) return el('a', { href: `/player/${enc(seat.player)}` }, name);
  return seat.kind === 'bot' ? `${name} (bot)` : name;
}

function tableRow(table) {
  const join = el('button', { type: 'button', class: 'primary', 'data-join': table.id }, 'Join');
  join.addEventListener('click', () => location.assign(table.watch_url));
  const open = table.open_seats.length;
  return el('tr', { 'data-table': table.id },
    el('td', {}, el('a', { href: `/play/${enc(table.game)}` }, table.game)),
    el('td', {}, el('ul', { class: 'plain' }, table.seats.map(s => el('li', {}, `${s.seat}: `, seatText(s))))),
    el('td', { class: 'num' }, `${open} of ${table.players}`),
    el('td', {}, date(table.created_at)),
    el('td', {}, join));
}

/** The lobby's panel: `game` (a game id) or every game (null). */
export function lobbyPanel(game) {
  const list = el('div', { id: 'lobby-list', 'aria-live': 'polite' }, 'Loading the open tables…');
  const panel = el('section', { class: 'panel', id: 'lobby', 'aria-labelledby': 'lobby-title' },
    el('h2', { id: 'lobby-title' }, 'Open tables'), list);
  async function load() {
    const query = new URLSearchParams({ status: 'waiting', limit: '50' });
    if (game) query.set('game', game);
    const reply = await api(`/v1/tables?${query}`);
    if (!reply.ok) {
      list.replaceChildren(errorBox(problemText(reply)));
    } else if (reply.body.tables.length === 0) {
      list.replaceChildren(el('p', { class: 'muted' }, 'No table is waiting for players now: start one, and share its link.'));
    } else {
      list.replaceChildren(el('table', { id: 'lobby-table' },
        el('thead', {}, el('tr', {}, ['Game', 'Seats', 'Open seats', 'Opened', ''].map(h => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, reply.body.tables.map(tableRow))));
    }
    if (panel.isConnected || !panel.dataset.started) setTimeout(load, 5000);
    panel.dataset.started = 'yes';
  }
  load();
  return panel;
}
