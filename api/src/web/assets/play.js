// The play page: a person takes a seat against the built-in bots through the stateless API.
// The page holds the game: the state from the last step (a transparent state, or the sealed token
// when the server seals), and sends it back with each action. A bot's turn is: the bot seat's view
// (POST /v1/games/{game}/view), its choice (POST /bots/{kind}/move, the bot protocol), and the
// action applied (POST /v1/games/{game}/apply), exactly as any client would do it.
// The table is drawn from the family's layout (table.js); a click on a piece plays the one legal
// action it names, or shows the choices it names; a forced move plays itself.
import { api, el, errorBox, problemText, face, usePieceNames } from './faces.js';
import { drawTable, words, piecesIn, resultSummary, dealSummary, rawView, sidesOf } from './table.js';

const enc = encodeURIComponent;
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
// How long a forced move stays on screen before it plays itself.
const FORCED_PAUSE_MS = 700;

export async function playPage(gameId) {
  const root = document.getElementById('play');
  const info = await api(`/v1/games/${enc(gameId)}`);
  if (!info.ok) { root.replaceChildren(errorBox(problemText(info))); return; }
  const game = info.body;
  const layout = game.table;
  usePieceNames(layout);
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
    el('label', { for: 'delay' }, 'Bot pause', delaySelect),
    el('label', { for: 'seed' }, 'Seed', seedInput),
    el('label', { for: 'auto-forced', class: 'check' }, forcedBox, 'Play my forced moves'),
    startButton);
  // Options for the table, as JSON in the address (`?options={"target":3}`): shared links.
  let options = {};
  try { options = JSON.parse(params.get('options') || '{}'); } catch (_) { options = {}; }

  const status = el('p', { id: 'turn', class: 'turn', 'aria-live': 'polite' }, 'Choose the table, then start.');
  const problem = el('div', { id: 'problem', 'aria-live': 'assertive' });
  const summaryBox = el('div', { id: 'play-result' });
  const dealBox = el('div', { id: 'deal-summary' });
  const tableBox = el('div', { class: 'table-felt', id: 'my-view', 'aria-label': 'The table as you see it' });
  const choices = el('div', { class: 'choices', id: 'choices', role: 'group', 'aria-label': 'Choices for this card', hidden: true });
  const actionsBox = el('div', { class: 'actions', id: 'actions', role: 'group', 'aria-label': 'Your other moves' });
  const freeInput = el('input', { id: 'free-action', size: 30, placeholder: '{"type": "..."}', 'aria-describedby': 'free-help' });
  const freeButton = el('button', { type: 'submit', id: 'free-try' }, 'Try');
  const freeForm = el('form', { class: 'filters', id: 'free-form' },
    el('label', { for: 'free-action' }, 'Another action (JSON)', freeInput), freeButton,
    el('span', { id: 'free-help', class: 'muted' }, 'Any action; the API says why it is refused if it is.'));
  const rawBox = el('div', { id: 'raw' });
  const logList = el('ol', { class: 'log', id: 'log' });
  const setup = el('details', { class: 'setup', id: 'setup-box', open: true }, el('summary', {}, 'Table settings'), form);

  root.replaceChildren(
    el('p', { class: 'intro' }, el('a', { href: `/rules/${enc(game.family)}` }, `How to play ${game.family_name}`), ` — ${game.description}`),
    setup,
    summaryBox,
    el('div', { class: 'play-layout' },
      el('section', { class: 'play-area', 'aria-labelledby': 'turn' }, status, problem, dealBox, tableBox, choices, actionsBox),
      el('aside', { class: 'play-side' },
        el('section', { 'aria-labelledby': 'log-h' }, el('h2', { id: 'log-h' }, 'What happened'), logList),
        el('section', { 'aria-labelledby': 'more-h' }, el('h2', { id: 'more-h' }, 'More'), rawBox, el('details', { class: 'free' }, el('summary', {}, 'Type an action'), freeForm)))));

  let step = null;
  let view = null;
  let human = 0;
  let players = 2;
  let pendingHuman = null;
  let generation = 0;
  let showLastTrick = false;

  const names = seat => `${botSelect.value} ${seat}`;
  const ctx = () => ({ layout, players, me: human, names, sides: view ? sidesOf(layout, view, players) : null });

  function log(events) {
    const w = words(ctx());
    for (const event of events) {
      logList.append(el('li', {}, w.eventText(event, null)));
      if (layout.deal_end.includes(event.type)) dealBox.replaceChildren(dealSummary(event, ctx(), null));
    }
    logList.scrollTop = logList.scrollHeight;
  }

  async function refreshView() {
    const reply = await api(`/v1/games/${enc(gameId)}/view`, { state: step.state, seat: human });
    if (!reply.ok) { tableBox.replaceChildren(errorBox(problemText(reply))); return; }
    view = reply.body.view;
    draw(null);
  }

  // Draws the table; while it is the person's turn, `onPiece` makes the pieces that name legal
  // actions clickable.
  function draw(onPiece) {
    tableBox.replaceChildren(drawTable(view, { ...ctx(), onPiece, showLastTrick, onToggleLastTrick: open => { showLastTrick = open; } }));
    rawBox.replaceChildren(rawView(view));
  }

  async function apply(seat, action) {
    const reply = await api(`/v1/games/${enc(gameId)}/apply`, { state: step.state, seat, action });
    if (reply.ok) {
      step = reply.body;
      log(step.events);
    }
    return reply;
  }

  function showChoices(anchor, actions, w) {
    choices.replaceChildren(el('p', { class: 'muted' }, 'Choose:'), ...actions.map((action, i) => {
      const taken = piecesIn(action).filter(code => code !== anchor.dataset.code);
      return el('button', { type: 'button', class: 'choice', 'data-index': String(i), onclick: () => choose(action) },
        w.actionText(action), taken.length ? el('span', { class: 'pieces preview' }, taken.map(face)) : null);
    }), el('button', { type: 'button', class: 'cancel', onclick: () => { choices.hidden = true; } }, 'Cancel'));
    choices.hidden = false;
    const first = choices.querySelector('button.choice');
    if (first) first.focus();
  }

  async function humanTurn(mine) {
    const legal = (step.legal_actions.find(a => a.seat === human) || { actions: [] }).actions;
    const w = words(ctx());
    const clickable = new Set();
    const onPiece = code => {
      const named = legal.filter(action => piecesIn(action).includes(code));
      if (!named.length) return null;
      clickable.add(code);
      return button => (named.length === 1 ? choose(named[0]) : showChoices(button, named, w));
    };
    draw(onPiece);
    // Moves no visible piece names (pass, bid, draw, declare) are buttons in the rules' words.
    const others = legal.filter(action => !piecesIn(action).some(code => clickable.has(code)));
    actionsBox.replaceChildren(...others.map((action, i) => el('button', {
      type: 'button', class: 'action', 'data-index': String(i), onclick: () => choose(action),
    }, w.actionText(action))));
    choices.hidden = true;
    return new Promise(resolve => {
      pendingHuman = resolve;
      if (legal.length === 1 && forcedBox.checked) {
        status.textContent = `Your only move: ${w.actionText(legal[0])}.`;
        setTimeout(() => { if (pendingHuman === resolve && mine === generation) choose(legal[0]); }, FORCED_PAUSE_MS);
      } else {
        status.textContent = clickable.size ? 'Your turn: click a card to play it.' : 'Your turn: choose a move.';
        if (layout.pieces === 'tiles' && clickable.size) status.textContent = 'Your turn: click a tile.';
      }
    });
  }

  async function choose(action) {
    if (!pendingHuman) return;
    problem.replaceChildren();
    choices.hidden = true;
    root.querySelectorAll('#actions button, .playable').forEach(b => { b.disabled = true; });
    const reply = await apply(human, action);
    if (!reply.ok) {
      // The API's reason, as it gives it; the state is unchanged, so the same choices stay open.
      problem.replaceChildren(errorBox(`Refused: ${problemText(reply)}`));
      root.querySelectorAll('#actions button, .playable').forEach(b => { b.disabled = false; });
      return;
    }
    const resolve = pendingHuman;
    pendingHuman = null;
    actionsBox.replaceChildren();
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
    status.textContent = `${names(seat)} is thinking…`;
    const legal = (step.legal_actions.find(a => a.seat === seat) || { actions: [] }).actions;
    const botView = await api(`/v1/games/${enc(gameId)}/view`, { state: step.state, seat });
    let action = legal[0];
    if (botView.ok) {
      const answer = await api(`/bots/${enc(botSelect.value)}/move`, {
        match: 'play-page', game: gameId, seat, view: botView.body.view, legal_actions: legal, deadline_ms: 1000,
      });
      if (answer.ok && answer.body && answer.body.action) action = answer.body.action;
    }
    const reply = await apply(seat, action);
    if (!reply.ok) throw new Error(`the bot's move was refused: ${problemText(reply)}`);
  }

  async function run(mine) {
    while (mine === generation && !step.over) {
      await refreshView();
      if (mine !== generation) return;
      if (step.to_act.includes(human)) {
        await humanTurn(mine);
      } else {
        const delay = Number(delaySelect.value);
        if (delay > 0) await sleep(delay);
        if (mine !== generation) return;
        await botTurn(step.to_act[0]);
      }
    }
    if (mine !== generation) return;
    await refreshView();
    actionsBox.replaceChildren();
    status.textContent = 'Game over.';
    root.dataset.over = 'true';
    summaryBox.replaceChildren(resultSummary(step.result, ctx()));
    startButton.textContent = 'Play again';
    setup.open = true;
    summaryBox.scrollIntoView({ block: 'start' });
  }

  form.addEventListener('submit', async event => {
    event.preventDefault();
    generation += 1;
    const mine = generation;
    pendingHuman = null;
    delete root.dataset.over;
    players = Number(playersSelect.value);
    human = Number(seatSelect.value);
    view = null;
    for (const box of [problem, summaryBox, dealBox, logList, actionsBox]) box.replaceChildren();
    const request = { players, options };
    if (seedInput.value !== '') request.seed = Number(seedInput.value);
    const reply = await api(`/v1/games/${enc(gameId)}/new`, request);
    if (!reply.ok) { problem.replaceChildren(errorBox(problemText(reply))); return; }
    step = reply.body;
    await refreshView();
    log(step.events);
    startButton.textContent = 'Restart';
    setup.open = false;
    status.scrollIntoView({ block: 'start' });
    try {
      await run(mine);
    } catch (error) {
      problem.replaceChildren(errorBox(error.message));
    }
  });
}
