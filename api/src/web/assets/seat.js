// A shared table (GET /v1/tables/{id}): people and bots at one match the arena plays and keeps.
// With a seat's link (`#seat=N&key=K`, the key never leaves the browser but to the API) the page
// is that person's seat: it asks POST /v1/tables/{id}/seat for the seat's view, the public events
// and, while the arena waits for this seat, its legal actions; a click plays through
// POST /v1/tables/{id}/move. Reloading the link resumes the seat; closing it does not end the
// game. Without a key the page lists the seats, lets a visitor take an open one and links to the
// match's live page. The table is drawn from the family's layout (table.js); a click on a piece
// plays the one legal action it names, or shows the choices it names; a forced move plays itself.
// A trick just completed stays in the centre at least TRICK_HOLD_MS; the tab's title (and, if the
// person asks for it, a chime) says when it is their turn; the seed commitment shows from the
// start, and the end links the replay and the check of the deal against it.
import { api, el, errorBox, problemText, face, usePieceNames } from './faces.js';
import { drawTable, words, piecesIn, resultSummary, dealSummary, rawView, sidesOf, tricksFromEvents, playsInProgress } from './table.js';
import { myToken } from './me.js';
import { invitationsPanel } from './invite.js';

const enc = encodeURIComponent;
const sleep = ms => new Promise(resolve => setTimeout(resolve, ms));
// How long a forced move stays on screen before it plays itself.
const FORCED_PAUSE_MS = 700;
// How often the page asks for news while others play or people join.
const POLL_MS = 300;
// How long a completed trick stays in the centre at least, when the next lead follows at once.
export const TRICK_HOLD_MS = 1200;
// Whether the person's forced moves play themselves (kept in the browser, set on the play page).
export const FORCED_SETTING = 'cardroom.play-forced';
// Whether a chime says "your turn" (kept in the browser; off unless the person turns it on).
const SOUND_SETTING = 'cardroom.turn-sound';

let audio = null;
/** A short two-note chime made with WebAudio (no file to download); silent where the browser
 *  has no audio or has not been allowed to play it yet. */
export function chime() {
  try {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === 'suspended') audio.resume();
    const start = audio.currentTime + 0.02;
    [659.25, 880].forEach((frequency, i) => {
      const at = start + i * 0.16;
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.type = 'sine';
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.0001, at);
      volume.gain.exponentialRampToValueAtTime(0.18, at + 0.02);
      volume.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
      tone.connect(volume).connect(audio.destination);
      tone.start(at);
      tone.stop(at + 0.32);
    });
  } catch (_) {
    // No sound here: the title still says it.
  }
}

/** The seed commitment of a table's match, shown from the start (GET /v1/matches/{id}). */
async function commitmentLine(matchId) {
  const reply = await api(`/v1/matches/${enc(matchId)}`);
  const commitment = reply.ok ? reply.body.seed_commitment : null;
  if (!commitment) return null;
  return el('p', { class: 'commitment muted', id: 'table-commitment' }, 'Seed commitment (SHA-256 of the seed and a salt, revealed at the end): ',
    el('code', { class: 'hash', id: 'seed-commitment' }, commitment));
}

/** "Play again" at the end of a table: a new table of the same seats (POST
 *  /v1/tables/{id}/rematch with the seat's key; every seat that asks gets the same one). With
 *  other people at the table it shows their renewed links, else it goes to the new seat. */
function playAgainButton(table, me, key, target) {
  if (me === null) return null;
  const button = el('button', { type: 'button', class: 'primary', id: 'play-again' }, 'Play again');
  button.addEventListener('click', async () => {
    button.disabled = true;
    const reply = await api(`/v1/tables/${enc(table.id)}/rematch`, { seat: me, key }, myToken());
    button.disabled = false;
    if (!reply.ok) { target.replaceChildren(errorBox(problemText(reply))); return; }
    if (reply.body.seats.every(s => s.seat === me || s.kind === 'bot')) {
      location.assign(reply.body.seats[me].join_url);
      return;
    }
    target.replaceChildren(invitationsPanel(reply.body, me));
  });
  return button;
}

/** What follows the result: the replay, the check of the deal, and play again. */
function endLinks(table, me, key) {
  const again = el('div', { id: 'play-again-box' });
  const match = `/match/${enc(table.match_id)}`;
  return el('div', { class: 'end-links', id: 'end-links' },
    el('a', { href: match, id: 'replay-link' }, 'Watch the replay'), ' · ',
    el('a', { href: `${match}#deal-check`, id: 'fairness-link' }, 'Check the deal was fair'),
    ' (the seed and salt are revealed now: the match page checks them against the commitment) ',
    playAgainButton(table, me, key, again), again);
}

export async function tablePage(tableId) {
  const root = document.getElementById('play');
  const title = document.getElementById('table-title');
  const first = await api(`/v1/tables/${enc(tableId)}`);
  if (!first.ok) { root.replaceChildren(errorBox(problemText(first))); return; }
  let table = first.body;
  const info = await api(`/v1/games/${enc(table.game)}`);
  if (!info.ok) { root.replaceChildren(errorBox(problemText(info))); return; }
  const game = info.body;
  const layout = game.table;
  usePieceNames(layout);
  title.textContent = `${game.name}: a table for ${table.players}`;

  const link = new URLSearchParams(location.hash.slice(1));
  const key = link.get('key');
  const me = key === null ? null : Number(link.get('seat'));
  const players = table.players;

  const baseTitle = document.title;
  const seatsBox = el('div', { id: 'table-seats' });
  const commitmentBox = el('div', { id: 'commitment-box' });
  const status = el('p', { id: 'turn', class: 'turn', 'aria-live': 'polite' }, 'Loading the table…');
  const problem = el('div', { id: 'problem', 'aria-live': 'assertive' });
  const summaryBox = el('div', { id: 'play-result' });
  const dealBox = el('div', { id: 'deal-summary' });
  const tableBox = el('div', { class: 'table-felt', id: 'my-view', 'aria-label': 'The table as you see it' });
  const choices = el('div', { class: 'choices', id: 'choices', role: 'group', 'aria-label': 'Choices for this card', hidden: true });
  const actionsBox = el('div', { class: 'actions', id: 'actions', role: 'group', 'aria-label': 'Your other moves' });
  const forcedBox = el('input', { id: 'auto-forced', type: 'checkbox', checked: localStorage.getItem(FORCED_SETTING) !== 'ask' });
  forcedBox.addEventListener('change', () => localStorage.setItem(FORCED_SETTING, forcedBox.checked ? 'play' : 'ask'));
  const soundBox = el('input', { id: 'turn-sound', type: 'checkbox', checked: localStorage.getItem(SOUND_SETTING) === 'on' });
  // Turning it on is the click a browser wants before it plays sound: the chime plays once.
  soundBox.addEventListener('change', () => {
    localStorage.setItem(SOUND_SETTING, soundBox.checked ? 'on' : 'off');
    if (soundBox.checked) chime();
  });
  const freeInput = el('input', { id: 'free-action', size: 30, placeholder: '{"type": "..."}', 'aria-describedby': 'free-help' });
  const freeButton = el('button', { type: 'submit', id: 'free-try' }, 'Try');
  const freeForm = el('form', { class: 'filters', id: 'free-form' },
    el('label', { for: 'free-action' }, 'Another action (JSON)', freeInput), freeButton,
    el('span', { id: 'free-help', class: 'muted' }, 'Any action; the API says why it is refused if it is.'));
  const rawBox = el('div', { id: 'raw' });
  const logList = el('ol', { class: 'log', id: 'log' });
  const watchLink = new URL(table.watch_url, location.href).href;

  root.replaceChildren(
    el('p', { class: 'intro' }, el('a', { href: `/rules/${enc(game.family)}` }, `How to play ${game.family_name}`), ` — ${game.description}`),
    el('details', { class: 'setup', id: 'table-box', open: me === null },
      el('summary', {}, 'Seats and sharing'),
      seatsBox,
      el('p', { class: 'muted' }, 'The table’s link (to watch, or to take an open seat): ', el('a', { id: 'watch-link', href: watchLink }, watchLink)),
      me === null ? null : el('p', { class: 'muted' }, 'This page’s address is your seat: open it again, here or elsewhere, to go on playing. Keep it to yourself.'),
      me === null ? null : el('label', { for: 'auto-forced', class: 'check' }, forcedBox, 'Play my forced moves'),
      me === null ? null : el('label', { for: 'turn-sound', class: 'check' }, soundBox, 'A chime when it is my turn')),
    commitmentBox,
    summaryBox,
    el('div', { class: 'play-layout' },
      el('section', { class: 'play-area', 'aria-labelledby': 'turn' }, status, problem, dealBox, tableBox, choices, actionsBox),
      el('aside', { class: 'play-side' },
        el('section', { 'aria-labelledby': 'log-h' }, el('h2', { id: 'log-h' }, 'What happened'), logList),
        el('section', { 'aria-labelledby': 'more-h' }, el('h2', { id: 'more-h' }, 'More'), rawBox,
          me === null ? null : el('details', { class: 'free' }, el('summary', {}, 'Type an action'), freeForm)))));

  // A seat's name; a name several seats share (two `heuristic` bots) gets the seat's number.
  const names = seat => {
    const s = table.seats[seat];
    if (!s || !s.name) return `seat ${seat}`;
    return table.seats.filter(other => other.name === s.name).length > 1 ? `${s.name} ${seat}` : s.name;
  };
  let view = null;
  const ctx = () => ({ layout, players, me, names, sides: view ? sidesOf(layout, view, players) : null });
  let logged = 0;
  let showLastTrick = false;
  // A trick just completed, kept in the centre until `until` (0: for good, the game is over).
  let held = null;
  let tricksSeen = null;
  const heldTrick = () => (held && (held.until === 0 || Date.now() < held.until) ? held.trick : null);
  const nextTrickStarted = () => playsInProgress(layout, view) > 0;

  commitmentLine(table.match_id).then(line => {
    if (!line) return;
    commitmentBox.replaceChildren(line);
    // The line moves the table down: it may no longer fit.
    if (table.status === 'running') bringTableIntoView();
  });

  // The seats' list is redrawn only when it changes, and what a visitor types into an open
  // seat's name field survives the redraw (with the focus and the caret).
  let seatsDrawn = '';
  const typedNames = {};
  function drawSeats() {
    const shape = JSON.stringify([table.status, table.seats]);
    if (shape === seatsDrawn) return;
    seatsDrawn = shape;
    const active = document.activeElement;
    const focused = active && active.id && active.id.startsWith('name-') && seatsBox.contains(active)
      ? { id: active.id, start: active.selectionStart, end: active.selectionEnd } : null;
    seatsBox.replaceChildren(el('ul', { class: 'seats' }, table.seats.map(s => {
      const named = s.seat === me ? `${names(s.seat)} (you)` : s.name || 'open seat';
      // A player's name leads to their page.
      const who = s.player ? el('a', { href: `/player/${enc(s.player)}` }, named) : named;
      const what = s.kind === 'bot' ? 'bot' : s.joined ? 'joined' : s.kind === 'open' ? 'free' : 'invited, not here yet';
      const take = me === null && s.kind === 'open' && !s.joined && table.status === 'waiting' ? takeForm(s.seat) : null;
      return el('li', { 'data-seat': String(s.seat) }, `Seat ${s.seat}: `, who, ` — ${what}`, take);
    })));
    const again = focused && document.getElementById(focused.id);
    if (again) {
      again.focus();
      again.setSelectionRange(focused.start, focused.end);
    }
  }

  function takeForm(seat) {
    const name = el('input', { id: `name-${seat}`, size: 16, maxlength: 64, placeholder: 'your name', required: true, value: typedNames[seat] || '' });
    name.addEventListener('input', () => { typedNames[seat] = name.value; });
    return el('form', { class: 'filters take-seat', onsubmit: async event => {
      event.preventDefault();
      const reply = await api(`/v1/tables/${enc(tableId)}/join`, { seat, name: name.value }, myToken());
      if (!reply.ok) { problem.replaceChildren(errorBox(problemText(reply))); return; }
      // The seat's own link: this page again, now as that seat.
      location.replace(reply.body.join_url);
      location.reload();
    } }, el('label', { for: `name-${seat}` }, 'Name', name), el('button', { type: 'submit', class: 'primary' }, 'Take this seat'));
  }

  function log(events) {
    const w = words(ctx());
    for (const event of events) {
      logList.append(el('li', {}, w.eventText(event, null)));
      if (layout.deal_end.includes(event.type)) dealBox.replaceChildren(dealSummary(event, ctx(), null));
    }
    logList.scrollTop = logList.scrollHeight;
  }

  // The focus stays in the hand across redraws: on the same card, or where a played card was.
  let handFocus = null;
  const playZone = () => [tableBox, choices, actionsBox];
  document.addEventListener('focusin', event => {
    const card = event.target.closest && event.target.closest('.my-hand button.piece');
    if (card) {
      const cards = [...tableBox.querySelectorAll('.my-hand button.piece')];
      handFocus = { code: card.dataset.code, index: cards.indexOf(card) };
    } else if (!playZone().some(zone => zone.contains(event.target))) {
      handFocus = null;
    }
  });
  document.addEventListener('pointerdown', event => {
    if (!playZone().some(zone => zone.contains(event.target))) handFocus = null;
  });
  function keepHandFocus() {
    if (!handFocus) return;
    const active = document.activeElement;
    if (active && active !== document.body && !playZone().some(zone => zone.contains(active))) return;
    if (active && active.closest && active.closest('.my-hand')) return;
    if (active && choices.contains(active) && !choices.hidden) return;
    const cards = [...tableBox.querySelectorAll('.my-hand button.piece')];
    if (!cards.length) {
      const button = actionsBox.querySelector('button');
      if (button) button.focus({ preventScroll: true });
      return;
    }
    const target = cards.find(b => b.dataset.code === handFocus.code) || cards[Math.min(Math.max(handFocus.index, 0), cards.length - 1)];
    cards.forEach(b => { b.tabIndex = b === target ? 0 : -1; });
    target.focus({ preventScroll: true });
  }

  // Draws the table; while it is the person's turn, `onPiece` makes the pieces that name legal
  // actions clickable.
  function draw(onPiece) {
    tableBox.replaceChildren(drawTable(view, { ...ctx(), onPiece, handButtons: true, showLastTrick, heldTrick: heldTrick(), onToggleLastTrick: open => { showLastTrick = open; } }));
    rawBox.replaceChildren(rawView(view));
    keepHandFocus();
    if (table.status === 'running') bringTableIntoView();
  }

  // Once the match is on, a page still at its top scrolls to the table if the table does not
  // fit below the title (on a phone the title, the seats and the commitment fill half the
  // screen, and laid pairs or a long trick push the hand below it). Looked at on every draw
  // while the page is at its top; done at most once, never after the person scrolled.
  let broughtIntoView = false;
  function bringTableIntoView() {
    if (broughtIntoView || window.scrollY > 0) return;
    if (tableBox.getBoundingClientRect().bottom <= window.innerHeight) return;
    broughtIntoView = true;
    status.scrollIntoView({ block: 'start' });
  }

  // The tab says whose turn it is; a chime too when asked for, as a turn begins.
  let announced = false;
  function announceTurn(mine) {
    document.title = mine ? `Your turn · ${baseTitle}` : baseTitle;
    if (mine && !announced && soundBox.checked) chime();
    announced = mine;
  }

  if (me === null) {
    // A visitor: the seats (open ones to take) until the match starts, then a link to watch it.
    for (;;) {
      drawSeats();
      status.replaceChildren(table.status === 'waiting'
        ? 'Waiting for every seat to be taken.'
        : el('span', {}, 'The match is on: ', el('a', { href: `/match/${enc(table.match_id)}`, id: 'watch-match' }, 'watch it live'), '.'));
      if (table.status !== 'waiting') return;
      await sleep(1000);
      const reply = await api(`/v1/tables/${enc(tableId)}`);
      if (reply.ok) table = reply.body;
    }
  }

  const joined = await api(`/v1/tables/${enc(tableId)}/join`, { seat: me, key }, myToken());
  if (!joined.ok) { root.replaceChildren(errorBox(problemText(joined))); return; }

  let pending = null;
  function showChoices(anchor, actions, w) {
    choices.replaceChildren(el('p', { class: 'muted' }, 'Choose:'), ...actions.map((action, i) => {
      const taken = piecesIn(action).filter(code => code !== anchor.dataset.code);
      return el('button', { type: 'button', class: 'choice', 'data-index': String(i), onclick: () => choose(action) },
        w.actionText(action), taken.length ? el('span', { class: 'pieces preview' }, taken.map(face)) : null);
    }), el('button', { type: 'button', class: 'cancel', onclick: () => { choices.hidden = true; keepHandFocus(); } }, 'Cancel'));
    choices.hidden = false;
    choices.querySelectorAll('button').forEach(b => b.addEventListener('keydown', event => {
      if (event.key === 'Escape') { choices.hidden = true; keepHandFocus(); }
    }));
    const firstChoice = choices.querySelector('button.choice');
    if (firstChoice) firstChoice.focus();
  }

  // The person's turn: pieces and buttons for the legal actions; resolves once a move is taken.
  function myTurn(state) {
    const legal = state.legal_actions;
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
      pending = { resolve, requestId: state.request_id };
      const mine = pending;
      if (legal.length === 1 && forcedBox.checked) {
        status.textContent = `Your only move: ${w.actionText(legal[0])}.`;
        setTimeout(() => { if (pending === mine) choose(legal[0]); }, FORCED_PAUSE_MS);
      } else if (clickable.size) {
        announceTurn(true);
        status.textContent = layout.pieces === 'tiles' ? 'Your turn: click a tile (or use the arrow keys and Enter).' : 'Your turn: click a card to play it (or use the arrow keys and Enter).';
      } else {
        announceTurn(true);
        status.textContent = 'Your turn: choose a move.';
      }
    });
  }

  // While a move is on its way the pieces and buttons stay where they are (the focus too) but
  // play nothing.
  let sending = false;
  const freeze = frozen => {
    root.querySelectorAll('#actions button').forEach(b => { b.disabled = frozen; });
    root.querySelectorAll('.my-hand button.piece, .centre button.piece').forEach(b => {
      if (frozen && b.classList.contains('playable')) { b.classList.replace('playable', 'sent'); b.setAttribute('aria-disabled', 'true'); }
      if (!frozen && b.classList.contains('sent')) { b.classList.replace('sent', 'playable'); b.removeAttribute('aria-disabled'); }
    });
  };

  async function choose(action) {
    if (!pending || sending) return;
    sending = true;
    problem.replaceChildren();
    const choosing = !choices.hidden && choices.contains(document.activeElement);
    choices.hidden = true;
    if (choosing) keepHandFocus();
    freeze(true);
    const reply = await api(`/v1/tables/${enc(tableId)}/move`, { seat: me, key, action, request_id: pending.requestId });
    sending = false;
    if (!reply.ok && reply.status !== 409) {
      // The API's reason, as it gives it; the arena still waits for this seat, so the same
      // choices stay open.
      problem.replaceChildren(errorBox(`Refused: ${problemText(reply)}`));
      freeze(false);
      return;
    }
    announceTurn(false);
    // Taken, or the request was answered elsewhere (this seat's link open twice): go on.
    const { resolve } = pending;
    pending = null;
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

  for (;;) {
    const reply = await api(`/v1/tables/${enc(tableId)}/seat`, { seat: me, key });
    if (!reply.ok) { problem.replaceChildren(errorBox(problemText(reply))); await sleep(1000); continue; }
    const state = reply.body;
    table = state.table;
    view = state.view;
    drawSeats();
    if (state.events.length > logged) {
      log(state.events.slice(logged));
      logged = state.events.length;
    }
    // A trick completed since the last answer stays in view a while (not on the page's first
    // answer: those tricks are old news).
    const closed = tricksFromEvents(layout, state.events);
    if (tricksSeen !== null && closed.length > tricksSeen) held = { trick: closed[closed.length - 1], until: Date.now() + TRICK_HOLD_MS };
    tricksSeen = closed.length;
    if (table.status === 'finished' || table.status === 'aborted') {
      if (held) held.until = 0;
      announceTurn(false);
      draw(null);
      actionsBox.replaceChildren();
      if (table.status === 'aborted') problem.replaceChildren(errorBox('The match was stopped.'));
      status.textContent = 'Game over.';
      summaryBox.replaceChildren(...[resultSummary(state.result, ctx()), endLinks(table, me, key)].filter(Boolean));
      root.dataset.over = 'true';
      summaryBox.scrollIntoView({ block: 'start' });
      return;
    }
    if (state.request_id) {
      // The next lead waits until the trick just completed has been seen.
      const wait = heldTrick() && held.until > Date.now() && nextTrickStarted() ? held.until - Date.now() : 0;
      if (wait > 0) {
        draw(null);
        status.textContent = 'The trick is complete.';
        await sleep(wait);
      }
      await myTurn(state);
      continue;
    }
    draw(null);
    actionsBox.replaceChildren();
    announceTurn(false);
    if (table.status === 'waiting') {
      const missing = table.seats.filter(s => !s.joined).length;
      status.textContent = `Waiting for ${missing} more ${missing === 1 ? 'person' : 'people'} to join: share the table’s link.`;
    } else {
      const acting = state.to_act.filter(s => s !== me).map(names);
      status.textContent = acting.length ? `${acting.join(' & ')} ${acting.length > 1 ? 'are' : 'is'} thinking…` : 'Waiting for the table…';
    }
    await sleep(POLL_MS);
  }
}
