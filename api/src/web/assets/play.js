// The play page: a person takes a seat against the built-in bots through the stateless API.
// The page holds the game: the state from the last step (a transparent state, or the sealed token
// when the server seals), and sends it back with each action. A bot's turn is: the bot seat's view
// (POST /v1/games/{game}/view), its choice (POST /bots/{kind}/move, the bot protocol), and the
// action applied (POST /v1/games/{game}/apply), exactly as any client would do it.
import { api, el, errorBox, problemText, render, describe, face, isPiece, actionText, faceStyle, resultTable, humanize } from './faces.js';

const enc = encodeURIComponent;
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));

function actionLabel(action) {
  const parts = [el('span', {}, humanize(action.type || 'action'))];
  for (const [k, v] of Object.entries(action)) {
    if (k === 'type') continue;
    if (isPiece(v)) parts.push(face(v));
    else if (Array.isArray(v) && v.length && v.every(isPiece)) parts.push(...v.map(face));
    else parts.push(el('span', {}, `${humanize(k)} ${typeof v === 'object' ? JSON.stringify(v) : v}`));
  }
  return parts;
}

export async function playPage(gameId) {
  const root = document.getElementById('play');
  const info = await api(`/v1/games/${enc(gameId)}`);
  if (!info.ok) { root.replaceChildren(errorBox(problemText(info))); return; }
  const game = info.body;
  faceStyle.german = game.family === 'watten';
  const params = new URLSearchParams(location.search);

  const range = [];
  for (let n = game.players.min; n <= game.players.max; n += 1) range.push(n);
  const defaultPlayers = range.includes(2) ? 2 : game.players.min;
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
  const startButton = el('button', { type: 'submit', class: 'primary', id: 'start' }, 'Start a game');
  const form = el('form', { class: 'filters', id: 'setup' },
    el('label', { for: 'players' }, 'Players', playersSelect),
    el('label', { for: 'my-seat' }, 'Your seat', seatSelect),
    el('label', { for: 'bot-kind' }, 'Opponents', botSelect),
    el('label', { for: 'delay' }, 'Bot pause', delaySelect),
    el('label', { for: 'seed' }, 'Seed', seedInput),
    startButton);

  const status = el('p', { id: 'turn', class: 'turn', 'aria-live': 'polite' }, 'Choose the table, then start.');
  const problem = el('div', { id: 'problem', 'aria-live': 'assertive' });
  const actionsBox = el('div', { class: 'actions', id: 'actions', role: 'group', 'aria-label': 'Your legal actions' });
  const freeInput = el('input', { id: 'free-action', size: 40, placeholder: '{"type": "..."}', 'aria-describedby': 'free-help' });
  const freeButton = el('button', { type: 'submit', id: 'free-try' }, 'Try');
  const freeForm = el('form', { class: 'filters', id: 'free-form', hidden: true },
    el('label', { for: 'free-action' }, 'Another action (JSON)', freeInput), freeButton,
    el('span', { id: 'free-help', class: 'muted' }, 'Any action; the API says why it is refused if it is.'));
  const viewBox = el('div', { class: 'table-felt', id: 'my-view', 'aria-label': 'Your view of the table' });
  const logList = el('ol', { class: 'log', id: 'log' });
  const resultBox = el('div', { id: 'play-result' });

  root.replaceChildren(
    el('p', {}, el('a', { href: `/rules/${enc(game.family)}` }, `Rules of ${game.name}`), ` — ${game.description}`),
    form,
    el('section', { class: 'panel', 'aria-labelledby': 'turn-h' }, el('h2', { id: 'turn-h' }, 'Your turn'), status, problem, actionsBox, freeForm),
    el('div', { class: 'grid2' },
      el('section', { 'aria-labelledby': 'view-h' }, el('h2', { id: 'view-h' }, 'The table as you see it'), viewBox),
      el('section', { 'aria-labelledby': 'log-h' }, el('h2', { id: 'log-h' }, 'What happened'), logList)),
    resultBox);

  let step = null;
  let human = 0;
  let players = 2;
  let pendingHuman = null;
  let generation = 0;

  const seatLabel = seat => (seat === human ? `you (seat ${seat})` : `bot (seat ${seat})`);

  function log(seat, events) {
    for (const event of events) {
      logList.append(el('li', {}, `${seatLabel(event.seat ?? seat)}: `, describe(event)));
    }
    logList.scrollTop = logList.scrollHeight;
  }

  async function showMyView() {
    const reply = await api(`/v1/games/${enc(gameId)}/view`, { state: step.state, seat: human });
    if (reply.ok) viewBox.replaceChildren(render(reply.body.view));
    else viewBox.replaceChildren(errorBox(problemText(reply)));
  }

  async function apply(seat, action) {
    const reply = await api(`/v1/games/${enc(gameId)}/apply`, { state: step.state, seat, action });
    if (reply.ok) {
      step = reply.body;
      log(seat, step.events);
    }
    return reply;
  }

  async function humanTurn() {
    const mine = (step.legal_actions.find(a => a.seat === human) || { actions: [] }).actions;
    status.textContent = `Your turn (seat ${human}): choose one of ${mine.length} legal actions.`;
    freeForm.hidden = false;
    return new Promise(resolve => {
      pendingHuman = resolve;
      actionsBox.replaceChildren(...mine.map((action, i) => el('button', {
        type: 'button', class: 'action', 'data-index': String(i), 'aria-label': actionText(action),
        onclick: () => choose(action),
      }, actionLabel(action))));
      const firstButton = actionsBox.querySelector('button');
      if (firstButton) firstButton.focus();
    });
  }

  async function choose(action) {
    if (!pendingHuman) return;
    problem.replaceChildren();
    actionsBox.querySelectorAll('button').forEach(b => { b.disabled = true; });
    const reply = await apply(human, action);
    if (!reply.ok) {
      // The API's reason, as it gives it; the state is unchanged, so the same choices stay open.
      problem.replaceChildren(errorBox(`Refused: ${problemText(reply)}`));
      actionsBox.querySelectorAll('button').forEach(b => { b.disabled = false; });
      return;
    }
    const resolve = pendingHuman;
    pendingHuman = null;
    actionsBox.replaceChildren();
    freeForm.hidden = true;
    resolve();
  }

  freeForm.addEventListener('submit', event => {
    event.preventDefault();
    let action;
    try { action = JSON.parse(freeInput.value); } catch (error) {
      problem.replaceChildren(errorBox(`That is not JSON: ${error.message}`));
      return;
    }
    choose(action);
  });

  async function botTurn(seat) {
    status.textContent = `Bot in seat ${seat} is thinking…`;
    const legal = (step.legal_actions.find(a => a.seat === seat) || { actions: [] }).actions;
    const view = await api(`/v1/games/${enc(gameId)}/view`, { state: step.state, seat });
    let action = legal[0];
    if (view.ok) {
      const answer = await api(`/bots/${enc(botSelect.value)}/move`, {
        match: 'play-page', game: gameId, seat, view: view.body.view, legal_actions: legal, deadline_ms: 1000,
      });
      if (answer.ok && answer.body && answer.body.action) action = answer.body.action;
    }
    const reply = await apply(seat, action);
    if (!reply.ok) throw new Error(`the bot's move was refused: ${problemText(reply)}`);
  }

  async function run(mine) {
    while (mine === generation && !step.over) {
      await showMyView();
      const actor = step.to_act[0];
      if (actor === human) {
        await humanTurn();
      } else {
        const delay = Number(delaySelect.value);
        if (delay > 0) await sleep(delay);
        if (mine !== generation) return;
        await botTurn(actor);
      }
    }
    if (mine !== generation) return;
    await showMyView();
    status.textContent = 'The game is over.';
    root.dataset.over = 'true';
    resultBox.replaceChildren(el('section', { class: 'panel', 'aria-labelledby': 'result-h' },
      el('h2', { id: 'result-h' }, 'Result'), resultTable(step.result, seatLabel)));
    startButton.textContent = 'Play again';
    startButton.focus();
  }

  form.addEventListener('submit', async event => {
    event.preventDefault();
    generation += 1;
    const mine = generation;
    pendingHuman = null;
    delete root.dataset.over;
    players = Number(playersSelect.value);
    human = Number(seatSelect.value);
    problem.replaceChildren();
    resultBox.replaceChildren();
    logList.replaceChildren();
    actionsBox.replaceChildren();
    const request = { players };
    if (seedInput.value !== '') request.seed = Number(seedInput.value);
    const reply = await api(`/v1/games/${enc(gameId)}/new`, request);
    if (!reply.ok) { problem.replaceChildren(errorBox(problemText(reply))); return; }
    step = reply.body;
    log(null, step.events);
    startButton.textContent = 'Restart';
    try {
      await run(mine);
    } catch (error) {
      problem.replaceChildren(errorBox(error.message));
    }
  });
}
