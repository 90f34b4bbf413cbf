// The match page: summary, a replay viewer over the match's frames (GET /v1/matches/{id}/frames)
// drawn as the table (table.js, from the family's layout), and, while the match runs, live moves
// from GET /v1/matches/{id}/events (Server-Sent Events) with the seat to act and its clock. The
// frame of a trick's last card shows the completed trick (rebuilt from the events when the view
// has already moved to the next deal); playing or following live, it stays TRICK_HOLD_MS at least.
import { api, el, errorBox, problemText, date, scoresPerDeal, resultTable, dealTable, usePieceNames } from './faces.js';
import { drawTable, words, sidesOf, seatsToAct, resultSummary, rawView, tricksFromEvents } from './table.js';
import { TRICK_HOLD_MS } from './seat.js';

const enc = encodeURIComponent;

export async function matchPage(id) {
  const root = document.getElementById('match');
  const first = await api(`/v1/matches/${enc(id)}`);
  if (!first.ok) { root.replaceChildren(errorBox(problemText(first))); return; }
  let match = first.body;
  const game = await api(`/v1/games/${enc(match.game)}`);
  if (!game.ok) { root.replaceChildren(errorBox(problemText(game))); return; }
  const family = game.body.family;
  const layout = game.body.table;
  usePieceNames(layout);
  const seatName = seat => {
    const s = match.seats[seat];
    return s ? `seat ${seat} (${s.name || s.bot})` : `seat ${seat}`;
  };
  // Names at the table: the bot's name, with the seat where two seats share a bot.
  const tableName = seat => {
    const s = match.seats[seat];
    if (!s) return `seat ${seat}`;
    const name = s.name || s.bot;
    return match.seats.filter(o => (o.name || o.bot) === name).length > 1 ? `${name} ${seat}` : name;
  };
  const isOver = () => match.status === 'finished' || match.status === 'aborted';

  let frames = [];
  // Per frame: the trick its events completed, or null.
  let frameTricks = [];
  let pos = 0;
  let shownPos = -1;
  let shownAt = 0;
  // Live: whether the viewer follows the newest move (it steps through the moves that arrive,
  // holding each completed trick).
  let following = true;
  let followTimer = null;
  let timer = null;
  let viewerSeat = '';
  let liveSource = null;
  let liveCount = 0;
  let speed = 1;
  let showLastTrick = false;
  // Live: each seat's time used so far, and when the last move arrived (the clock of the seat
  // to act runs from there).
  const liveLatency = [];
  let lastMoveAt = Date.now();

  const summary = el('section', { class: 'panel', 'aria-label': 'Summary' });
  const dealBox = el('div', { id: 'deal-check', 'aria-live': 'polite' });
  const seatSelect = el('select', { id: 'seat-select' });
  const seatLabel = el('label', { for: 'seat-select' }, 'View from ', seatSelect);
  const liveStatus = el('p', { id: 'live-status', 'aria-live': 'polite', class: 'notice', hidden: true });
  const btnFirst = el('button', { type: 'button', id: 'first', 'aria-label': 'First position' }, '« First');
  const btnPrev = el('button', { type: 'button', id: 'prev', 'aria-label': 'Previous move' }, '◀ Previous');
  const btnPlay = el('button', { type: 'button', id: 'play', class: 'primary', 'aria-pressed': 'false' }, '▶ Play');
  const btnNext = el('button', { type: 'button', id: 'next', 'aria-label': 'Next move' }, 'Next ▶');
  const btnLast = el('button', { type: 'button', id: 'last', 'aria-label': 'Last position' }, 'Last »');
  const slider = el('input', { type: 'range', id: 'slider', min: '0', max: '0', value: '0', 'aria-label': 'Position in the match' });
  const speedSelect = el('select', { id: 'speed' }, [0.25, 0.5, 1, 2, 4].map(x => el('option', { value: String(x), selected: x === 1 }, `${x}×`)));
  speedSelect.addEventListener('change', () => { speed = Number(speedSelect.value); if (timer) { stop(); toggle(); } });
  const position = el('span', { class: 'position', id: 'position', 'aria-live': 'polite' });
  const moveLine = el('p', { class: 'move-line', id: 'move-line' });
  const viewBox = el('div', { class: 'table-felt', id: 'view', 'aria-label': 'The table' });
  const moveInfo = el('p', { class: 'move-info', id: 'move-info' });
  const rawBox = el('div', { id: 'raw' });
  const endBox = el('div', { id: 'end-summary' });
  const eventsBox = el('div', { id: 'events' });
  const dealsBox = el('div', { id: 'deals' });
  const resultBox = el('div', { id: 'result' });

  root.replaceChildren(
    summary,
    el('section', { class: 'panel', 'aria-labelledby': 'viewer-h' },
      el('h2', { id: 'viewer-h' }, 'Replay'),
      el('p', { class: 'muted' }, 'Keys: ← and → step, Home and End jump, Space plays or pauses.'),
      seatLabel, liveStatus,
      el('div', { class: 'viewer-controls', role: 'group', 'aria-label': 'Replay controls' }, btnFirst, btnPrev, btnPlay, btnNext, btnLast,
        el('label', { for: 'speed', class: 'speed' }, 'Speed ', speedSelect), slider),
      position, moveLine, moveInfo, endBox,
      el('div', { class: 'grid2' }, viewBox, el('div', {}, el('h3', {}, 'Events of this move'), eventsBox, rawBox))),
    el('section', { class: 'panel', 'aria-labelledby': 'scores-h' }, el('h2', { id: 'scores-h' }, 'Scores'), dealsBox, resultBox));

  function fillSummary() {
    summary.replaceChildren(el('dl', { class: 'view' },
      el('dt', {}, 'game'), el('dd', {}, el('a', { href: `/rules/${enc(family)}` }, match.game)),
      el('dt', {}, 'status'), el('dd', {}, el('span', { class: `badge ${match.status}`, id: 'status' }, match.status)),
      el('dt', {}, 'seats'), el('dd', {}, el('ul', { class: 'seats', id: 'match-seats' }, match.seats.map(s => el('li', { 'data-seat': String(s.seat) },
        `Seat ${s.seat}: `, s.player ? el('a', { href: `/player/${enc(s.player)}` }, s.name || 'a player')
          : s.bot === 'person' ? s.name || 'a person' : el('a', { href: `/bot/${enc(s.bot)}` }, s.name || s.bot))))),
      el('dt', {}, 'ranked'), el('dd', {}, match.ranked ? 'yes' : 'no'),
      el('dt', {}, 'created'), el('dd', {}, date(match.created_at)),
      el('dt', {}, 'finished'), el('dd', {}, date(match.finished_at)),
      match.error ? [el('dt', {}, 'error'), el('dd', {}, match.error)] : []), dealBox);
    checkDeal(match, dealBox);
    seatSelect.replaceChildren(el('option', { value: '' }, 'the spectator\'s seat'),
      ...match.seats.map(s => el('option', { value: String(s.seat), disabled: !isOver() }, seatName(s.seat))));
    seatSelect.value = viewerSeat;
    seatSelect.title = isOver() ? '' : 'Seats open once the match is over';
  }

  // A score column's name: a seat's (one score per seat) or a side's, as the layout groups seats.
  function columnName(index, count) {
    const view = frames.length ? frames[frames.length - 1].view : null;
    const sides = view ? sidesOf(layout, view, players()) : null;
    if (count === players()) return tableName(index);
    if (sides && sides[index]) return sides[index].map(tableName).join(' & ');
    return `Side ${index + 1}`;
  }

  function fillScores() {
    const players = match.seats.length;
    dealsBox.replaceChildren(dealTable(scoresPerDeal(frames.map(f => f.view), players), columnName));
    resultBox.replaceChildren(match.result ? resultTable(match.result, seatName)
      : el('p', { class: 'muted' }, isOver() ? (match.error || 'No result.') : 'The match is still being played.'));
  }

  const players = () => match.seats.length;
  const tableCtx = view => ({ layout, players: players(), me: viewerSeat === '' ? null : Number(viewerSeat), names: tableName, sides: sidesOf(layout, view, players()) });

  // A seat's clock: its bank less the time its moves took (each answered move earns the
  // increment), less, for the seat to act in a live match, the time since the last move.
  function clockOf(seat, upTo, acting) {
    if (!match.clock) return null;
    const moves = isOver() ? match.moves.slice(0, upTo) : null;
    const used = moves ? moves.filter(m => m.seat === seat) : (liveLatency[seat] || []);
    let bank = match.clock.initial_ms;
    for (const m of used) bank += match.clock.increment_ms - (m.latency_ms ?? m);
    if (acting && !isOver()) bank -= Date.now() - lastMoveAt;
    const s = Math.max(0, Math.round(bank / 1000));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  }

  // Which frame completed which trick: the events of every frame in order, rebuilt into tricks.
  function findTricks() {
    const events = [];
    const owner = [];
    frames.forEach((frame, i) => (frame.events || []).forEach(event => { events.push(event); owner.push(i); }));
    frameTricks = frames.map(() => null);
    for (const trick of tricksFromEvents(layout, events)) frameTricks[owner[trick.event]] = trick;
  }

  function drawFrame(frame) {
    const ctx = tableCtx(frame.view);
    const acting = new Set(frame.to_act || seatsToAct(layout, frame.view));
    viewBox.replaceChildren(drawTable(frame.view, { ...ctx, showLastTrick, onToggleLastTrick: open => { showLastTrick = open; },
      heldTrick: frameTricks[pos] || null, clocks: match.clock ? seat => clockOf(seat, pos, acting.has(seat)) : null }));
    rawBox.replaceChildren(rawView(frame.view));
  }

  function show() {
    const last = frames.length - 1;
    pos = Math.max(0, Math.min(pos, last));
    slider.max = String(Math.max(0, last));
    slider.value = String(pos);
    slider.setAttribute('aria-valuetext', pos === 0 ? 'start' : `move ${pos} of ${last}`);
    const frame = frames[pos];
    if (pos !== shownPos) { shownPos = pos; shownAt = Date.now(); }
    position.textContent = frames.length === 0 ? 'No position yet' : pos === 0 ? `Start (0 of ${last})` : `Move ${pos} of ${last}`;
    if (!frame) { viewBox.replaceChildren(el('p', {}, 'Waiting for the first move…')); return; }
    const w = words(tableCtx(frame.view));
    if (frame.index === null) {
      moveLine.replaceChildren('Before the first move.', frame.to_act.length ? ` To act: ${frame.to_act.map(s => w.seatName(s)).join(', ')}.` : '');
      moveInfo.replaceChildren();
    } else {
      moveLine.replaceChildren(el('strong', {}, w.seatName(frame.seat)), ': ',
        frame.action ? w.actionText(frame.action) : el('span', { class: 'muted' }, '(the action is shown once the match is over)'));
      const move = (match.moves || [])[frame.index] || frame.live || {};
      const fault = move.fault ? (move.fault.kind || move.fault) : null;
      // Only what the move has: `replaceChildren` would write a null as the text "null".
      moveInfo.replaceChildren(...[
        typeof move.latency_ms === 'number' ? el('span', { class: 'latency' }, `answered in ${move.latency_ms} ms`) : null,
        move.comment ? el('span', { class: 'comment' }, `“${move.comment}”`) : null,
        fault ? el('span', { class: 'fault' }, `fault: ${String(fault).replace(/_/g, ' ')}${move.fault.detail ? ` (${move.fault.detail})` : ''}`) : null,
      ].filter(Boolean));
    }
    drawFrame(frame);
    const end = pos === last && isOver() && match.result ? resultSummary(match.result, tableCtx(frame.view)) : null;
    endBox.replaceChildren(...(end ? [end] : []));
    eventsBox.replaceChildren(frame.events.length ? el('ul', { class: 'events' }, frame.events.map(e => el('li', {}, w.eventText(e, null))))
      : el('p', { class: 'muted' }, 'None.'));
    btnFirst.disabled = btnPrev.disabled = pos === 0;
    btnNext.disabled = btnLast.disabled = pos >= last;
  }

  function go(to) {
    pos = to;
    following = pos >= frames.length - 1;
    show();
  }
  function stop() {
    if (timer) clearTimeout(timer);
    timer = null;
    btnPlay.textContent = '▶ Play';
    btnPlay.setAttribute('aria-pressed', 'false');
  }
  // Playing: a move every 600 ms at 1×; a completed trick stays twice as long (1.2 s at 1×).
  function step() {
    timer = setTimeout(() => {
      if (pos < frames.length - 1) go(pos + 1);
      else if (isOver()) { stop(); return; }
      step();
    }, (600 / speed) * (frameTricks[pos] ? TRICK_HOLD_MS / 600 : 1));
  }
  function toggle() {
    if (timer) { stop(); return; }
    if (pos >= frames.length - 1) pos = 0;
    btnPlay.textContent = '❚❚ Pause';
    btnPlay.setAttribute('aria-pressed', 'true');
    step();
  }
  // Following a live match: the moves that arrive are shown in turn, at once, but a completed
  // trick stays TRICK_HOLD_MS before the next move replaces it.
  function followLive() {
    clearTimeout(followTimer);
    followTimer = null;
    if (!following) return;
    const last = frames.length - 1;
    const holding = frameTricks[pos] && pos === shownPos ? shownAt + TRICK_HOLD_MS - Date.now() : 0;
    if (holding > 0 && pos < last) { followTimer = setTimeout(followLive, holding); return; }
    if (pos >= last) return;
    let next = pos + 1;
    while (next < last && !frameTricks[next]) next += 1;
    pos = next;
    show();
    if (pos < last) followTimer = setTimeout(followLive, frameTricks[pos] ? TRICK_HOLD_MS : 0);
  }
  btnFirst.addEventListener('click', () => go(0));
  btnPrev.addEventListener('click', () => go(pos - 1));
  btnNext.addEventListener('click', () => go(pos + 1));
  btnLast.addEventListener('click', () => go(frames.length - 1));
  btnPlay.addEventListener('click', toggle);
  slider.addEventListener('input', () => go(Number(slider.value)));
  document.addEventListener('keydown', event => {
    const tag = event.target && event.target.tagName;
    if (['INPUT', 'SELECT', 'TEXTAREA'].includes(tag) || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key === 'ArrowLeft') go(pos - 1);
    else if (event.key === 'ArrowRight') go(pos + 1);
    else if (event.key === 'Home') go(0);
    else if (event.key === 'End') go(frames.length - 1);
    else if (event.key === ' ' && tag !== 'BUTTON') toggle();
    else return;
    event.preventDefault();
  });

  // Only the latest request's frames are shown: an answer for a seat chosen before another one
  // (they can arrive out of order) must not replace the newer seat's frames.
  let framesRequest = 0;
  async function loadFrames() {
    const ticket = ++framesRequest;
    const query = viewerSeat === '' ? '' : `?seat=${enc(viewerSeat)}`;
    const reply = await api(`/v1/matches/${enc(id)}/frames${query}`);
    if (ticket !== framesRequest) return false;
    if (!reply.ok) { viewBox.replaceChildren(errorBox(problemText(reply))); return false; }
    // The frames carry the match's options once; every view the table draws has them.
    const options = reply.body.options;
    frames = reply.body.frames.map(f => (options === null || 'options' in f.view
      ? f : { ...f, view: { ...f.view, options } }));
    findTricks();
    return true;
  }

  // The position stays where the reader is when the frames arrive (every seat has the same moves).
  seatSelect.addEventListener('change', async () => {
    viewerSeat = seatSelect.value;
    if (await loadFrames()) show();
  });

  function watch() {
    liveStatus.hidden = false;
    liveStatus.textContent = 'Live: waiting for moves…';
    liveSource = new EventSource(`/v1/matches/${enc(id)}/events`);
    liveSource.addEventListener('move', message => {
      const move = JSON.parse(message.data);
      liveCount += 1;
      root.dataset.liveEvents = String(liveCount);
      if (move.index + 1 !== frames.length) return; // already shown (or a gap: the next refresh fills it)
      frames.push({ index: move.index, seat: move.seat, action: null, events: move.events, view: move.view, to_act: move.to_act, live: move });
      findTricks();
      (liveLatency[move.seat] = liveLatency[move.seat] || []).push(move.latency_ms || 0);
      lastMoveAt = Date.now();
      liveStatus.textContent = `Live: ${frames.length - 1} moves so far.`;
      if (following) followLive();
      else show();
      fillScores();
    });
    liveSource.addEventListener('result', message => {
      const end = JSON.parse(message.data);
      match.result = end.result;
      match.status = end.status;
    });
    liveSource.addEventListener('end', async () => {
      liveSource.close();
      liveStatus.textContent = 'The match is over: every seat can now be viewed.';
      const again = await api(`/v1/matches/${enc(id)}`);
      if (again.ok) match = again.body;
      fillSummary();
      following = false;
      clearTimeout(followTimer);
      if (await loadFrames()) show();
      fillScores();
    });
    liveSource.addEventListener('error', () => {
      // The browser reconnects by itself; the stream resends the log, and frames already shown are skipped.
      if (liveSource.readyState === EventSource.CLOSED) liveStatus.textContent = 'Live stream closed.';
    });
  }

  fillSummary();
  if (await loadFrames()) {
    pos = isOver() ? 0 : frames.length - 1;
    following = !isOver();
    show();
  }
  // A link to the check of the deal (`#deal-check`, from a table's end) lands on it.
  if (location.hash === '#deal-check') document.getElementById('deal-check').scrollIntoView({ block: 'start' });
  fillScores();
  if (!isOver()) {
    watch();
    // The clock of the seat to act ticks between moves: redrawn four times a second, so what it
    // shows is never more than a quarter second old (a redraw once a second could show the same
    // second 1.3 s apart).
    if (match.clock) {
      const tick = setInterval(() => {
        if (isOver()) { clearInterval(tick); return; }
        if (frames[pos] && pos === frames.length - 1) drawFrame(frames[pos]);
      }, 250);
    }
  }
}

/** The hex SHA-256 of a text, by the browser's WebCrypto (null where it is unavailable: outside
 *  a secure context, e.g. plain HTTP to a host other than localhost). */
async function sha256Hex(text) {
  if (!globalThis.crypto || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map(b => b.toString(16).padStart(2, '0')).join('');
}

/** Provably fair deals: the commitment published at the start (SHA-256 of "<seed>:<salt>"), and
 *  once the match is over the revealed seed and salt checked against it, here in the browser. */
async function checkDeal(match, box) {
  const commitment = match.seed_commitment;
  if (!commitment) {
    box.replaceChildren(el('p', { class: 'muted', id: 'deal-status' },
      'This match was played before deals were committed: there is no commitment to check.'));
    return;
  }
  const published = el('p', {}, 'Seed commitment, published at the start: ', el('code', { class: 'hash', id: 'seed-commitment' }, commitment));
  if (match.seed === null || match.seed === undefined || !match.seed_salt) {
    box.replaceChildren(published, el('p', { class: 'muted', id: 'deal-status' },
      'The seed deals every card, so it stays secret while the match runs. The commitment is SHA-256 of the seed and a random salt; both are revealed when the match ends, and this page checks them.'));
    return;
  }
  const text = `${match.seed}:${match.seed_salt}`;
  const revealed = el('p', {}, 'Revealed: seed ', el('code', {}, String(match.seed)), ', salt ', el('code', { class: 'hash' }, match.seed_salt));
  const computed = await sha256Hex(text);
  let verdict;
  if (computed === null) {
    verdict = el('p', { class: 'notice', id: 'deal-status' },
      'This browser cannot compute SHA-256 here (WebCrypto needs HTTPS). Check it yourself: ',
      el('code', {}, `printf '%s' '${text}' | sha256sum`), ' must print the commitment.');
  } else if (computed === commitment) {
    verdict = el('p', { class: 'verified', id: 'deal-status', 'data-verified': 'true' },
      '✔ Deal verified: the seed matches the commitment published at the start.');
  } else {
    verdict = el('p', { class: 'error', id: 'deal-status', 'data-verified': 'false', role: 'alert' },
      `✘ Deal NOT verified: SHA-256 of the revealed seed and salt is ${computed}, not the commitment published at the start.`);
  }
  box.replaceChildren(published, revealed, verdict);
}
