// The play page: a person sets up a table with the built-in bots (POST /v1/tables: you in the
// seat you choose, the bots in the others) and is sent to the seat's link, where the arena plays
// the match and keeps it (seat.js): a reload resumes it, and the match is listed and replayable
// like any other.
import { api, el, errorBox, problemText } from './faces.js';
import { FORCED_SETTING } from './seat.js';
import { lobbyPanel } from './lobby.js';

const enc = encodeURIComponent;

export async function playPage(gameId) {
  const root = document.getElementById('play');
  const info = await api(`/v1/games/${enc(gameId)}`);
  if (!info.ok) { root.replaceChildren(errorBox(problemText(info))); return; }
  const game = info.body;
  const params = new URLSearchParams(location.search);

  const range = [];
  for (let n = game.players.min; n <= game.players.max; n += 1) range.push(n);
  const wanted = Number(params.get('players'));
  const defaultPlayers = range.includes(wanted) ? wanted : range.includes(2) ? 2 : game.players.min;
  const playersSelect = el('select', { id: 'players' }, range.map(n => el('option', { value: String(n), selected: n === defaultPlayers }, String(n))));
  const seatSelect = el('select', { id: 'my-seat' });
  const fillSeats = () => {
    const n = Number(playersSelect.value);
    seatSelect.replaceChildren(...Array.from({ length: n }, (_, s) => el('option', { value: String(s) }, `seat ${s}${s === 0 ? ' (first)' : ''}`)));
  };
  fillSeats();
  playersSelect.addEventListener('change', fillSeats);
  const botSelect = el('select', { id: 'bot-kind' }, el('option', { value: 'heuristic' }, 'heuristic'), el('option', { value: 'random' }, 'random'));
  const delayDefault = params.get('delay') ?? '400';
  const delaySelect = el('select', { id: 'delay' }, ['0', '400', '1000'].map(v => el('option', { value: v, selected: v === delayDefault }, `${v} ms`)));
  const seedInput = el('input', { id: 'seed', type: 'number', min: '0', placeholder: 'random', size: 10, value: params.get('seed') || '' });
  const forcedBox = el('input', { id: 'auto-forced', type: 'checkbox', checked: params.get('forced') !== 'ask' });
  const startButton = el('button', { type: 'submit', class: 'primary', id: 'start' }, 'Start a game');
  const form = el('form', { class: 'filters', id: 'setup' },
    el('label', { for: 'players' }, 'Players', playersSelect),
    el('label', { for: 'my-seat' }, 'Your seat', seatSelect),
    el('label', { for: 'bot-kind' }, 'Opponents', botSelect),
    el('label', { for: 'delay' }, 'Pace', delaySelect),
    el('label', { for: 'seed' }, 'Seed', seedInput),
    el('label', { for: 'auto-forced', class: 'check' }, forcedBox, 'Play my forced moves'),
    startButton);
  // Options for the table, as JSON in the address (`?options={"target":3}`): shared links.
  let options = {};
  try { options = JSON.parse(params.get('options') || '{}'); } catch (_) { options = {}; }
  const problem = el('div', { id: 'problem', 'aria-live': 'assertive' });

  root.replaceChildren(
    el('p', { class: 'intro' }, el('a', { href: `/rules/${enc(game.family)}` }, `How to play ${game.family_name}`), ` — ${game.description}`),
    el('section', { class: 'setup', id: 'setup-box', 'aria-label': 'Table settings' }, form),
    el('p', { class: 'muted' }, 'The arena plays the bots and keeps the game: its link resumes it, and the match is listed with the others.'),
    problem,
    lobbyPanel(gameId));

  form.addEventListener('submit', async event => {
    event.preventDefault();
    problem.replaceChildren();
    startButton.disabled = true;
    localStorage.setItem(FORCED_SETTING, forcedBox.checked ? 'play' : 'ask');
    const players = Number(playersSelect.value);
    const mine = Number(seatSelect.value);
    const seats = Array.from({ length: players }, (_, seat) => (seat === mine ? { human: null } : { bot: botSelect.value }));
    const request = { game: gameId, players, options, seats, pace_ms: Number(delaySelect.value) };
    if (seedInput.value !== '') request.seed = Number(seedInput.value);
    const reply = await api('/v1/tables', request);
    if (!reply.ok) {
      problem.replaceChildren(errorBox(problemText(reply)));
      startButton.disabled = false;
      return;
    }
    location.assign(reply.body.seats[mine].join_url);
  });
}
