// The play page: a person sets up a table (POST /v1/tables): you in the seat you choose, and in
// each other seat a bot, a friend who is a player (by player id), a person invited by name, or
// an open seat anyone with the table's link may take. With no one to invite the page goes
// straight to your seat's link, where the arena plays the match and keeps it (seat.js): a reload
// resumes it, and the match is listed and replayable like any other. With invitations it shows
// each one's link, with a copy button, and a button to your seat. A player (me.js) may open a
// rated table: players and bots only, every seat rated at the end.
import { api, el, errorBox, problemText } from './faces.js';
import { FORCED_SETTING } from './seat.js';
import { lobbyPanel } from './lobby.js';
import { me, myToken, identityPanel } from './me.js';
import { invitationsPanel } from './invite.js';

const enc = encodeURIComponent;

// What another seat may hold.
const OTHER_KINDS = [
  ['bot', 'a bot'],
  ['player', 'a friend (player id)'],
  ['human', 'a person invited by name'],
  ['open', 'an open seat'],
];

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
  // Who sits in the other seats: a row per seat, what is chosen kept across redraws.
  const othersBox = el('div', { id: 'other-seats', class: 'other-seats' });
  const chosen = {};
  const drawOthers = () => {
    const n = Number(playersSelect.value);
    const mine = Number(seatSelect.value);
    othersBox.replaceChildren(...Array.from({ length: n }, (_, s) => s).filter(s => s !== mine).map(s => {
      const pick = chosen[s] || (chosen[s] = { kind: 'bot', value: '' });
      const kind = el('select', { id: `seat-kind-${s}`, 'aria-label': `Seat ${s}` }, OTHER_KINDS.map(([v, label]) => el('option', { value: v, selected: v === pick.kind }, label)));
      const value = el('input', { id: `seat-value-${s}`, size: 18, maxlength: 64, value: pick.value, 'aria-label': `Seat ${s}: player id or name` });
      const fit = () => {
        value.hidden = pick.kind !== 'player' && pick.kind !== 'human';
        value.placeholder = pick.kind === 'player' ? 'p_… (their player id)' : 'their name (optional)';
        value.required = pick.kind === 'player';
      };
      kind.addEventListener('change', () => { pick.kind = kind.value; fit(); });
      value.addEventListener('input', () => { pick.value = value.value.trim(); });
      fit();
      return el('div', { class: 'other-seat', 'data-seat': String(s) }, el('span', {}, `Seat ${s}: `), kind, ' ', value);
    }));
  };
  const fillSeats = () => {
    const n = Number(playersSelect.value);
    const before = Number(seatSelect.value) || 0;
    seatSelect.replaceChildren(...Array.from({ length: n }, (_, s) => el('option', { value: String(s), selected: s === before }, `seat ${s}${s === 0 ? ' (first)' : ''}`)));
    drawOthers();
  };
  fillSeats();
  playersSelect.addEventListener('change', fillSeats);
  seatSelect.addEventListener('change', drawOthers);
  const botSelect = el('select', { id: 'bot-kind' }, el('option', { value: 'heuristic' }, 'heuristic'), el('option', { value: 'random' }, 'random'));
  const delayDefault = params.get('delay') ?? '400';
  const delaySelect = el('select', { id: 'delay' }, ['0', '400', '1000'].map(v => el('option', { value: v, selected: v === delayDefault }, `${v} ms`)));
  const seedInput = el('input', { id: 'seed', type: 'number', min: '0', placeholder: 'random', size: 10, value: params.get('seed') || '' });
  const forcedBox = el('input', { id: 'auto-forced', type: 'checkbox', checked: params.get('forced') !== 'ask' });
  const ratedBox = el('input', { id: 'rated', type: 'checkbox' });
  const ratedLabel = el('label', { for: 'rated', class: 'check', title: 'Players and bots only; the game id’s own options and a secret seed' }, ratedBox, 'Rated');
  const startButton = el('button', { type: 'submit', class: 'primary', id: 'start' }, 'Start a game');
  const form = el('form', { class: 'filters', id: 'setup' },
    el('label', { for: 'players' }, 'Players', playersSelect),
    el('label', { for: 'my-seat' }, 'Your seat', seatSelect),
    el('label', { for: 'bot-kind' }, 'Bots', botSelect),
    el('label', { for: 'delay' }, 'Pace', delaySelect),
    el('label', { for: 'seed' }, 'Seed', seedInput),
    el('label', { for: 'auto-forced', class: 'check' }, forcedBox, 'Play my forced moves'),
    ratedLabel,
    startButton);
  // Rated tables are for players: the box shows once you are one.
  const fitRated = () => { ratedLabel.hidden = me() === null; if (ratedLabel.hidden) ratedBox.checked = false; };
  fitRated();
  // Options for the table, as JSON in the address (`?options={"target":3}`): shared links.
  let options = {};
  try { options = JSON.parse(params.get('options') || '{}'); } catch (_) { options = {}; }
  const problem = el('div', { id: 'problem', 'aria-live': 'assertive' });
  const invitations = el('div', {});

  root.replaceChildren(
    el('p', { class: 'intro' }, el('a', { href: `/rules/${enc(game.family)}` }, `How to play ${game.family_name}`), ` — ${game.description}`),
    identityPanel(fitRated),
    el('section', { class: 'setup', id: 'setup-box', 'aria-label': 'Table settings' }, form,
      el('details', { class: 'others', open: true }, el('summary', {}, 'Who sits in the other seats'), othersBox)),
    el('p', { class: 'muted' }, 'The arena plays the bots and keeps the game: its link resumes it, and the match is listed with the others.'),
    problem,
    invitations,
    lobbyPanel(gameId));

  form.addEventListener('submit', async event => {
    event.preventDefault();
    problem.replaceChildren();
    startButton.disabled = true;
    localStorage.setItem(FORCED_SETTING, forcedBox.checked ? 'play' : 'ask');
    const players = Number(playersSelect.value);
    const mine = Number(seatSelect.value);
    const player = me();
    // A rated table seats each bot once: its bot seats take the chosen bot, then the others.
    const bots = ratedBox.checked
      ? [botSelect.value, ...['heuristic', 'random', 'ismcts'].filter(b => b !== botSelect.value)]
      : [botSelect.value];
    let botSeats = 0;
    const seats = Array.from({ length: players }, (_, seat) => {
      if (seat === mine) return player ? { player: player.id } : { human: null };
      const pick = chosen[seat] || { kind: 'bot', value: '' };
      if (pick.kind === 'player') return { player: pick.value };
      if (pick.kind === 'human') return { human: pick.value || null };
      if (pick.kind === 'open') return { open: true };
      const bot = bots[Math.min(botSeats, bots.length - 1)];
      botSeats += 1;
      return { bot };
    });
    const request = { game: gameId, players, seats, pace_ms: Number(delaySelect.value) };
    if (ratedBox.checked) {
      request.rated = true;
    } else {
      request.options = options;
      if (seedInput.value !== '') request.seed = Number(seedInput.value);
    }
    const reply = await api('/v1/tables', request, myToken());
    startButton.disabled = false;
    if (!reply.ok) {
      problem.replaceChildren(errorBox(problemText(reply)));
      return;
    }
    if (reply.body.seats.every(s => s.seat === mine || s.kind === 'bot')) {
      location.assign(reply.body.seats[mine].join_url);
      return;
    }
    invitations.replaceChildren(invitationsPanel(reply.body, mine));
    document.getElementById('to-my-seat').focus();
  });
}
