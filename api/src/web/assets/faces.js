// Shared helpers: JSON calls, elements, card and tile faces, and a generic renderer of views and
// events (every family's view is a JSON object; pieces are recognised by their codes).

/** Calls the API; resolves to {ok, status, body} (body parsed JSON or null); never throws on 4xx.
 *  With `token`, sends it as `Authorization: Bearer` (a player's token). */
export async function api(path, body, token) {
  const init = body === undefined
    ? { headers: { accept: 'application/json' } }
    : { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) };
  if (token) init.headers.authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, init);
  } catch (_) {
    // A connection the server had just closed: the calls are safe to repeat once (the API is
    // stateless; the page still holds the state it sent).
    response = await fetch(path, init);
  }
  let parsed = null;
  try { parsed = await response.json(); } catch (_) { parsed = null; }
  return { ok: response.ok, status: response.status, body: parsed };
}

/** The problem text of a failed call. */
export function problemText(reply) {
  const b = reply.body || {};
  const parts = [b.title || `HTTP ${reply.status}`];
  if (b.code) parts.push(`(${b.code}${b.reason ? ', ' + b.reason : ''})`);
  if (b.detail) parts.push(`: ${b.detail}`);
  return parts.join(' ');
}

/** Creates an element: el('a', {href: '/'}, 'text', child, ...). */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  // Children may nest in arrays at any depth (a list of [separator, element] pairs, say).
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function errorBox(text) {
  return el('p', { class: 'error', role: 'alert' }, text);
}

/** A time from the API (RFC 3339 text; unix milliseconds also work). */
export function date(time) {
  if (time === null || time === undefined || time === 0 || time === '') return '—';
  return new Date(time).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function fixed(x, digits = 2) {
  return typeof x === 'number' ? x.toFixed(digits) : '—';
}

const RANKS = { '2': '2', '3': '3', '4': '4', '5': '5', '6': '6', '7': '7', '8': '8', '9': '9', T: '10', J: 'J', Q: 'Q', K: 'K', A: 'A' };
const RANK_NAMES = { '2': 'Two', '3': 'Three', '4': 'Four', '5': 'Five', '6': 'Six', '7': 'Seven', '8': 'Eight', '9': 'Nine', T: 'Ten', J: 'Jack', Q: 'Queen', K: 'King', A: 'Ace' };
// The French pack, where a layout declares no suits (tables of older catalogs).
const FRENCH = {
  C: { name: 'clubs', symbol: 'clubs', colour: null },
  D: { name: 'diamonds', symbol: 'diamonds', colour: null },
  H: { name: 'hearts', symbol: 'hearts', colour: null },
  S: { name: 'spades', symbol: 'spades', colour: null },
};
// Suit pictures: a character where Unicode has one, else a small drawing (16 by 16, filled
// with the suit's colour). The names are the layout's `symbol` values. A pack with any drawn
// suit draws them all (one size on the faces) and writes them by name ("Herz 8").
const SYMBOL_TEXT = { clubs: '♣', diamonds: '♦', hearts: '♥', spades: '♠' };
const SYMBOL_PATHS = {
  hearts: 'M8 15C5.6 12.9.8 9.4.8 5.4.8 3.1 2.5 1.4 4.6 1.4 6.1 1.4 7.3 2.3 8 3.6 8.7 2.3 9.9 1.4 11.4 1.4c2.1 0 3.8 1.7 3.8 4 0 4-4.8 7.5-7.2 9.6z',
  acorns: 'M3 7.2C3 4.6 5.2 3 8 3s5 1.6 5 4.2zM7.3.8h1.4v2.6H7.3zM4.2 8.2h7.6c0 3.6-1.6 6.5-3.8 7.2-2.2-.7-3.8-3.6-3.8-7.2z',
  leaves: 'M8 .8c3.6 2.4 6 6 3.2 9.8C10.2 12 9 12.6 8.6 12.8V15.6H7.4V12.8C7 12.6 5.8 12 4.8 10.6 2 6.8 4.4 3.2 8 .8z',
  bells: 'M7 .6h2v2.2H7zM8 2.6a6 6 0 1 1 0 12 6 6 0 1 1 0-12zM2.9 9.3v1.3h10.2V9.3z',
};

const CARD = /^([2-9TJQKA])([CDHS])$/;
const TILE = /^([0-6])-([0-6])(#\d)?$/;

export function isCard(value) { return typeof value === 'string' && (CARD.test(value) || value === 'JK'); }
/** A card named as `{rank, suit}` (Bird Dog's card), as its code; anything else unchanged. */
export function cardOf(value) {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 2
      && typeof value.rank === 'string' && typeof value.suit === 'string' && CARD.test(value.rank + value.suit)) {
    return value.rank + value.suit;
  }
  return value;
}
export function isTile(value) { return typeof value === 'string' && TILE.test(value); }
export function isPiece(value) { return isCard(value) || isTile(value); }

/** Page-wide: the family's suits (name, symbol, colour) and own rank names (its table
 * layout's `suits` and `ranks`, e.g. Watten's German pack written with French codes). */
export const pieceNames = { suits: { ...FRENCH }, ranks: {}, drawn: false };

/** Takes a family's names from its table layout (GET /v1/games/{game}, field `table`). */
export function usePieceNames(layout) {
  const byCode = list => Object.fromEntries((list || []).map(n => [n.code, n]));
  const declared = byCode(layout && layout.suits);
  pieceNames.suits = Object.keys(declared).length ? declared : { ...FRENCH };
  pieceNames.ranks = byCode(layout && layout.ranks);
  pieceNames.drawn = Object.values(pieceNames.suits).some(suit => !SYMBOL_TEXT[suit.symbol]);
}

/** The character a suit is written with, or null where its pack writes suits by name. */
function suitChar(suit) {
  return pieceNames.drawn ? null : SYMBOL_TEXT[suit.symbol] || null;
}

/** A suit of the family's pack: {name, symbol, colour}. */
function suitOf(code) {
  return pieceNames.suits[code] || FRENCH[code] || null;
}

/** A suit code in the family's words: "♠" (`long`: "spades"), or "Eichel" (no character). */
export function suitText(code, long = false) {
  const suit = suitOf(code);
  if (!suit) return String(code);
  const char = suitChar(suit);
  return char && !long ? char : suit.name;
}

/** The symbol of a suit on a card face: its character, or its drawing. */
function suitSymbol(suit) {
  const char = suitChar(suit);
  if (char) return el('span', { class: 'suit', 'aria-hidden': 'true' }, char);
  const path = SYMBOL_PATHS[suit.symbol];
  const picture = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  picture.setAttribute('viewBox', '0 0 16 16');
  picture.setAttribute('class', 'suit-picture');
  picture.setAttribute('aria-hidden', 'true');
  const shape = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  shape.setAttribute('d', path || 'M8 2 14 8 8 14 2 8z');
  shape.setAttribute('fill', 'currentColor');
  shape.setAttribute('fill-rule', 'evenodd');
  picture.append(shape);
  return el('span', { class: 'suit', 'aria-hidden': 'true' }, picture);
}

/** A rank code in the family's words: "Unter", "Queen". */
export function rankText(code) {
  const own = pieceNames.ranks[code];
  return own ? own.name : RANK_NAMES[code] || String(code);
}

/** What a card face shows of a rank: "10", "U". */
function rankShort(rank) {
  return pieceNames.ranks[rank] ? pieceNames.ranks[rank].short : RANKS[rank];
}

/** A piece code as short text for sentences: "A♠", "10♥", "Eichel U", "2-5". */
export function pieceText(code) {
  if (code === 'JK') return 'Joker';
  const card = CARD.exec(code);
  if (card) {
    const [, rank, suit] = card;
    const char = suitChar(suitOf(suit));
    return char ? `${rankShort(rank)}${char}` : `${suitOf(suit).name} ${rankShort(rank)}`;
  }
  const tile = TILE.exec(code);
  if (tile) return `${tile[1]}-${tile[2]}`;
  return String(code);
}

/** The spoken name of a piece code. */
export function pieceName(code) {
  if (code === 'JK') return 'Joker';
  const card = CARD.exec(code);
  if (card) {
    const [, rank, suit] = card;
    if (!suitChar(suitOf(suit)) || pieceNames.ranks[rank]) return `${suitOf(suit).name} ${rankText(rank)}`;
    return `${RANK_NAMES[rank]} of ${suitOf(suit).name}`;
  }
  const tile = TILE.exec(code);
  if (tile) return `Tile ${tile[1]}-${tile[2]}${tile[3] ? ' copy ' + tile[3].slice(1) : ''}`;
  return code;
}

// Where the pips of a die face of 0 to 6 sit, on a 3 by 3 grid (cells 0..8, row by row).
const PIPS = { 0: [], 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** One half of a tile: its pips as dots (Chinese dominoes paint the 1 and the 4 red). */
function tileHalf(pips) {
  const red = pips === '1' || pips === '4';
  const cells = Array.from({ length: 9 }, (_, i) => el('span', { class: PIPS[pips].includes(i) ? `pip${red ? ' red' : ''}` : 'no-pip' }));
  return el('span', { class: 'half', 'aria-hidden': 'true' }, cells);
}

/** A card or tile drawn as a readable face, with its name as the text alternative. */
export function face(code) {
  const label = pieceName(code);
  if (code === 'JK') {
    return el('span', { class: 'card joker', role: 'img', 'aria-label': label, title: label, 'data-code': code }, el('span', { class: 'rank', 'aria-hidden': 'true' }, 'JOKER'));
  }
  const card = CARD.exec(code);
  if (card) {
    const [, rank, suit] = card;
    const own = suitOf(suit);
    // The declared colour of the suit; a layout without one falls back to red and black.
    const red = !own.colour && (suit === 'H' || suit === 'D');
    const drawn = el('span', { class: `card${red ? ' red' : ''}`, role: 'img', 'aria-label': label, title: label, 'data-code': code, 'data-suit': suit },
      el('span', { class: 'rank', 'aria-hidden': 'true' }, rankShort(rank)),
      suitSymbol(own));
    if (own.colour) drawn.style.color = own.colour;
    return drawn;
  }
  const tile = TILE.exec(code);
  if (tile) {
    return el('span', { class: 'tile', role: 'img', 'aria-label': label, title: label, 'data-code': code }, tileHalf(tile[1]), tileHalf(tile[2]));
  }
  return el('code', {}, code);
}

/** The back of a hidden card or tile. */
export function back(tiles) {
  return el('span', { class: tiles ? 'back-tile' : 'back-card', 'aria-hidden': 'true' });
}

export function faces(codes) {
  return el('span', { class: 'pieces' }, codes.map(face));
}

export function humanize(key) {
  return String(key).replace(/_/g, ' ');
}

function isPrimitive(v) { return v === null || ['string', 'number', 'boolean'].includes(typeof v); }

/** Renders any JSON value: pieces as faces, objects as definition lists, lists as lists. */
export function render(value, depth = 0) {
  if (value === null || value === undefined) return el('span', { class: 'muted' }, '—');
  if (typeof value === 'boolean') return document.createTextNode(value ? 'yes' : 'no');
  if (typeof value === 'number') return document.createTextNode(String(value));
  if (typeof value === 'string') return isPiece(value) ? face(value) : document.createTextNode(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return el('span', { class: 'muted' }, 'none');
    if (value.every(isPiece)) return faces(value);
    if (value.every(isPrimitive) && value.some(isPiece)) {
      // A mixed tuple such as [seat, card]: pieces as faces, the rest as text.
      return el('span', { class: 'pieces' }, value.map(v => (isPiece(v) ? face(v) : el('span', {}, v === null ? '—' : String(v)))));
    }
    if (value.every(isPrimitive)) return document.createTextNode(value.map(v => (v === null ? '—' : String(v))).join(', '));
    if (depth > 6) return el('code', {}, JSON.stringify(value));
    return el('ol', { class: 'items', start: '0' }, value.map(v => el('li', {}, render(v, depth + 1))));
  }
  let entries = Object.entries(value);
  if (entries.length === 0) return el('span', { class: 'muted' }, '—');
  if (depth > 6) return el('code', {}, JSON.stringify(value));
  if (depth === 0) {
    // A view: the seat's own pieces first, the table's options folded away at the end.
    const rank = ([k]) => (k === 'hand' ? 0 : k === 'options' ? 2 : 1);
    entries = entries.slice().sort((a, b) => rank(a) - rank(b));
  }
  return el('dl', { class: 'view' }, entries.flatMap(([k, v]) => [el('dt', {}, humanize(k)),
    el('dd', {}, depth === 0 && k === 'options' && v && typeof v === 'object'
      ? el('details', {}, el('summary', {}, 'show'), render(v, depth + 1))
      : render(v, depth + 1))]));
}

/** One line for an event or action: its type, then its fields, pieces as faces. */
export function describe(item) {
  if (!item || typeof item !== 'object') return el('span', {}, String(item));
  const parts = [el('strong', {}, humanize(item.type || 'event'))];
  for (const [k, v] of Object.entries(item)) {
    if (k === 'type' || k === 'action_index') continue;
    parts.push(' ', el('span', { class: 'muted' }, humanize(k) + ':'), ' ');
    if (isPrimitive(v) || (Array.isArray(v) && (v.every(isPiece) || v.every(isPrimitive)))) parts.push(render(v));
    else parts.push(el('code', {}, JSON.stringify(v)));
  }
  return el('span', {}, parts);
}

/** Text of an action for a button's accessible name. */
export function actionText(action) {
  const bits = [humanize(action.type || 'action')];
  for (const [k, v] of Object.entries(action)) {
    if (k === 'type') continue;
    const text = Array.isArray(v) ? v.map(x => (isPiece(x) ? pieceName(x) : String(x))).join(', ')
      : (isPiece(v) ? pieceName(v) : (typeof v === 'object' ? JSON.stringify(v) : String(v)));
    bits.push(`${humanize(k)} ${text}`);
  }
  return bits.join(', ');
}

const SCORE_KEYS = ['totals', 'cumulative', 'scores', 'chips', 'points'];
const DEAL_KEYS = ['deal', 'deal_number', 'hand_number'];

/** The per-seat score list of a view, if it has one it can find. */
export function scoresOf(view, players) {
  if (!view || typeof view !== 'object') return null;
  for (const key of SCORE_KEYS) {
    const v = view[key];
    if (Array.isArray(v) && v.length >= 1 && v.every(x => typeof x === 'number') && (!players || v.length === players || v.length === 2)) {
      return { key, values: v };
    }
  }
  return null;
}

export function dealOf(view) {
  if (!view || typeof view !== 'object') return null;
  for (const key of DEAL_KEYS) if (typeof view[key] === 'number') return view[key];
  return null;
}

/** Scores per deal from a list of views: the running scores once each deal is over (read from the
 * first position of the next deal, which includes the deal's scoring, and from the last position). */
export function scoresPerDeal(views, players) {
  const rows = [];
  let previousDeal = null;
  let last = null;
  for (const view of views) {
    const deal = dealOf(view);
    const scores = scoresOf(view, players);
    if (previousDeal !== null && deal !== null && deal !== previousDeal && scores) {
      rows.push({ deal: previousDeal, key: scores.key, values: scores.values });
    }
    if (deal !== null) previousDeal = deal;
    if (scores) last = scores;
  }
  const final = rows[rows.length - 1];
  const same = final && last && final.values.join() === last.values.join();
  if (last && previousDeal !== null && !(final && final.deal === previousDeal) && !same) {
    rows.push({ deal: previousDeal, key: last.key, values: last.values });
  }
  return rows;
}

/** A table of the final result: ranking and scores per seat. */
export function resultTable(result, seatNames) {
  if (!result) return el('p', { class: 'muted' }, 'No result yet.');
  const place = {};
  (result.ranking || []).forEach((group, i) => group.forEach(seat => { place[seat] = i + 1; }));
  const rows = (result.scores || []).map((score, seat) => ({ seat, score, place: place[seat] }));
  rows.sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
  return el('table', { class: 'result' },
    el('caption', { class: 'muted' }, 'Final ranking'),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Place'), el('th', { scope: 'col' }, 'Seat'), el('th', { scope: 'col', class: 'num' }, 'Score'),
      el('th', { scope: 'col', class: 'num' }, 'Faults'))),
    el('tbody', {}, rows.map(r => el('tr', { 'data-seat': r.seat },
      el('td', {}, r.place ?? '—'),
      el('td', {}, seatNames ? seatNames(r.seat) : `seat ${r.seat}`),
      el('td', { class: 'num score' }, String(r.score)),
      el('td', { class: 'num' }, result.faults ? String(result.faults[r.seat] ?? 0) : '—')))));
}

/** Scores after each deal: a row per deal, numbered in play order ("Deal 1", whatever number
 * the family's view starts from), a column per score, named by `columnName(index, count)`
 * (a seat's or a side's name). */
export function dealTable(rows, columnName) {
  if (rows.length === 0) return el('p', { class: 'muted' }, 'No deal scores in this game\'s view.');
  const count = rows[0].values.length;
  return el('table', { class: 'deals' },
    el('caption', { class: 'muted' }, `Scores after each deal (${humanize(rows[0].key)})`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Deal'),
      rows[0].values.map((_, i) => el('th', { scope: 'col', class: 'num' }, columnName(i, count))))),
    el('tbody', {}, rows.map((r, index) => el('tr', { 'data-deal': String(r.deal) }, el('th', { scope: 'row' }, `Deal ${index + 1}`),
      r.values.map(v => el('td', { class: 'num' }, String(v)))))));
}
