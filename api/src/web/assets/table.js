// The card table: draws any family's view from the family's table layout (GET /v1/games/{game},
// field `table`: which view fields are the hand, the trick, the piles, badges, scores and sides,
// declared once per family in the engine), and writes its events and actions as sentences. The
// play page, the live page and the replay viewer all draw with it; nothing here names a family.
import { el, face, back, isPiece, cardOf, pieceText, suitText, rankText, humanize, render } from './faces.js';

/** The value at a JSON Pointer ('' is the value itself). */
export function at(value, pointer) {
  if (!pointer) return value;
  let node = value;
  for (const raw of pointer.split('/').slice(1)) {
    if (node === null || node === undefined) return undefined;
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = Array.isArray(node) ? node[Number(key)] : node[key];
  }
  return node;
}

const present = v => v !== undefined && v !== null && v !== false && !(Array.isArray(v) && v.length === 0) && v !== '';

/** Every piece code in a value (a code, a list, nested lists or objects; a `{rank, suit}`
 * object is a card). */
export function piecesIn(value) {
  value = cardOf(value);
  if (isPiece(value)) return [value];
  if (Array.isArray(value)) return value.flatMap(piecesIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(piecesIn);
  return [];
}

/** The seats to act, as a list, from the layout's `to_act` field. */
export function seatsToAct(layout, view) {
  const v = at(view, layout.to_act);
  if (Array.isArray(v)) return v.filter(s => typeof s === 'number');
  return typeof v === 'number' ? [v] : [];
}

/** The sides of a view: lists of seats, or null when every seat plays for itself. */
export function sidesOf(layout, view, players) {
  const s = layout.scores;
  const named = s.sides ? at(view, s.sides) : null;
  if (Array.isArray(named) && named.length && named.every(Array.isArray)) return named;
  const scores = at(view, s.path);
  const count = Array.isArray(scores) ? scores.length : 0;
  const partners = s.partners_at && players === s.partners_at ? 2 : 0;
  const sides = partners || (count > 0 && count < players ? count : 0);
  if (!sides) return null;
  return Array.from({ length: sides }, (_, i) => Array.from({ length: players }, (_, seat) => seat).filter(seat => seat % sides === i));
}

/**
 * The words of a table: seat and side names, and sentences.
 * ctx: {layout, players, me (a seat or null), names (seat -> name), sides (list of seat lists or null)}
 */
export function words(ctx) {
  const seatName = seat => {
    if (typeof seat !== 'number') return seat === 'dummy' ? 'the dummy' : 'nobody';
    return seat === ctx.me ? 'you' : ctx.names(seat);
  };
  const sideName = index => {
    if (typeof index !== 'number') return 'nobody';
    const side = ctx.sides ? ctx.sides[index] : [index];
    if (!side) return `side ${index + 1}`;
    if (side.length === 1) return seatName(side[0]);
    if (side.includes(ctx.me)) return 'your team';
    return side.map(seatName).join(' & ');
  };
  // A list of scores, one per seat or per side.
  const scoresText = list => {
    if (!Array.isArray(list)) return valueText(list);
    const bySide = ctx.sides && list.length === ctx.sides.length && list.length !== ctx.players;
    if (ctx.sides && list.length === ctx.players) {
      return ctx.sides.map((side, i) => `${sideName(i)} ${list[side[0]]}`).join(', ');
    }
    return list.map((v, i) => `${bySide ? sideName(i) : seatName(i)} ${valueText(v)}`).join(', ');
  };
  const valueText = (value, kind) => {
    value = cardOf(value);
    if (value === undefined || value === null) return kind === 'seat' || kind === 'side' ? 'nobody' : '';
    if (kind === 'seat') return Array.isArray(value) ? listText(value.map(seatName)) : seatName(value);
    if (kind === 'seats') return listText(value.map(seatName));
    if (kind === 'side') return sideName(value);
    if (kind === 'suit') return suitText(value, true);
    if (kind === 'rank') return rankText(value);
    if (kind === 'scores') return scoresText(value);
    if (typeof value === 'boolean') return value ? 'yes' : 'no';
    if (typeof value === 'number') return String(value);
    if (typeof value === 'string') return isPiece(value) ? pieceText(value) : humanize(value);
    if (Array.isArray(value)) {
      if (value.length && value.every(isPiece)) return value.map(pieceText).join(' ');
      return listText(value.map(v => valueText(v)).filter(Boolean));
    }
    // An object: a seat and its pieces (a play), else its fields in words.
    if (typeof value.seat === 'number' && piecesIn(value).length) return `${seatName(value.seat)} ${piecesIn(value).map(pieceText).join(' ')}`;
    return Object.entries(value).filter(([, v]) => present(v) || v === 0)
      .map(([k, v]) => `${humanize(k)} ${valueText(v)}`).join(', ');
  };
  const listText = items => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);

  /** A template filled from an item (an event or an action). A verb right after a seat or
   * side placeholder agrees with it, and so does a verb after "and" in the same sentence: the
   * templates say "{seat} plays {cards} and takes", a person reads "you play ... and take". A
   * placeholder right after a guard on its own field (`{bonus?, worth |}{bonus}`) writes
   * nothing when the guard is false (a bonus of 0, no card taken). */
  const fill = (template, item, actor) => {
    let plural = false;
    let subjectPlural = false;
    let unguarded = null;
    const agreeAnd = text => (subjectPlural ? text.replace(/\band ([a-z]+)/g, (_, verb) => `and ${pluralVerb(verb)}`) : text);
    const parts = template.split(/(\{[^{}]+\})/);
    const out = parts.map(part => {
      const agree = text => (plural ? text.replace(/^(\s*)([a-z]+)/, (_, space, verb) => space + pluralVerb(verb)) : text);
      if (!part.startsWith('{') || !part.endsWith('}')) {
        const text = agree(part);
        // A space alone keeps the verb to come agreeing ("{seat} {accepted?accepts|declines}").
        if (part.trim()) plural = false;
        if (part) unguarded = null;
        return agreeAnd(text);
      }
      const spec = part.slice(1, -1);
      const q = spec.indexOf('?');
      if (q >= 0) {
        const guard = spec.slice(0, q);
        const flag = at(item, '/' + guard);
        const [yes, no = ''] = spec.slice(q + 1).split('|');
        const on = present(flag) && flag !== 0;
        unguarded = on ? null : guard;
        const text = agree(on ? yes : no);
        plural = false;
        return agreeAnd(text);
      }
      plural = false;
      const [field, kind] = spec.split(':');
      if (unguarded === field) { unguarded = null; return ''; }
      unguarded = null;
      const value = field === 'actor' ? actor : at(item, '/' + field);
      const isSeatKey = ['seat', 'dealer', 'from', 'leader', 'first_bidder', 'first_player', 'partner'].includes(field.split('/').pop());
      const how = kind || (field === 'actor' || (isSeatKey && typeof value === 'number') ? 'seat' : undefined);
      const side = how === 'side' && typeof value === 'number' ? (ctx.sides ? ctx.sides[value] : [value]) : null;
      plural = (how === 'seat' && value === ctx.me && ctx.me !== null)
        || (side !== null && side !== undefined && (side.length > 1 || side.includes(ctx.me)))
        || ((how === 'seats' || how === 'seat') && Array.isArray(value) && (value.length > 1 || value.includes(ctx.me)));
      if (how === 'seat' || how === 'seats' || how === 'side') subjectPlural = plural;
      return valueText(value, how);
    }).join('');
    return capitalize(out.replace(/\s+/g, ' ').replace(/\s+([,;:)])/g, '$1').trim());
  };
  const pluralVerb = verb => (verb === 'is' ? 'are' : verb === 'has' ? 'have' : /(ch|sh|ss|x)es$/.test(verb) ? verb.slice(0, -2)
    : verb.endsWith('s') && !verb.endsWith('ss') ? verb.slice(0, -1) : verb);
  const find = (list, type) => (list || []).find(s => s.type === type);

  /** An event as a sentence; `actor` moved (setup events: the dealer, else the table). */
  const eventText = (event, actor) => {
    const known = find(ctx.layout.events, event.type);
    if (known) return fill(known.text, event, actor);
    // Any other event: who did what, then its fields in words.
    const who = typeof event.seat === 'number' ? event.seat : actor;
    const rest = Object.entries(event).filter(([k, v]) => !['type', 'seat', 'action_index'].includes(k) && (present(v) || v === 0))
      .map(([k, v]) => `${humanize(k)} ${valueText(v)}`);
    const subject = typeof who === 'number' ? seatName(who) : 'the table';
    return capitalize(`${subject}: ${humanize(event.type || 'event')}${rest.length ? ` (${rest.join(', ')})` : ''}`);
  };
  /** An action's label in the rules' words. */
  const actionText = action => {
    const known = find(ctx.layout.actions, action.type);
    if (known) return fill(known.text, action, null);
    const rest = Object.entries(action).filter(([k, v]) => k !== 'type' && (present(v) || v === 0)).map(([k, v]) => `${humanize(k)} ${valueText(v)}`);
    return capitalize(`${humanize(action.type || 'action')}${rest.length ? ' ' + rest.join(', ') : ''}`);
  };
  return { seatName, sideName, scoresText, valueText, eventText, actionText };
}

export function capitalize(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Arrow keys move the focus between the piece buttons of one group (Home and End to its
 * ends); one button of the group is in the tab order at a time. */
function arrowKeys(event) {
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
  if (step === undefined && event.key !== 'Home' && event.key !== 'End') return;
  const buttons = [...event.currentTarget.querySelectorAll('button.piece')];
  const from = buttons.indexOf(document.activeElement);
  if (from < 0 || event.altKey || event.ctrlKey || event.metaKey) return;
  const to = event.key === 'Home' ? 0 : event.key === 'End' ? buttons.length - 1 : (from + step + buttons.length) % buttons.length;
  buttons.forEach((b, i) => { b.tabIndex = i === to ? 0 : -1; });
  buttons[to].focus();
  event.preventDefault();
}

/** Pieces drawn as faces; `onPiece(code)` (optional) answers a click handler for a piece or
 * null. With `everyButton` (the viewer's hand) every piece is a button, the ones no legal
 * move names marked unavailable, so the focus can rest on any card between turns. */
function faceList(codes, onPiece, everyButton = false) {
  const buttons = [];
  const list = el('span', { class: 'pieces' }, codes.map(code => {
    const handler = onPiece && onPiece(code);
    const drawn = face(code);
    if (!handler && !everyButton) return drawn;
    const name = drawn.getAttribute('aria-label');
    const button = handler
      ? el('button', { type: 'button', class: 'piece playable', 'data-code': code, 'aria-label': `Play ${name}`, onclick: event => handler(event.currentTarget) }, drawn)
      : el('button', { type: 'button', class: 'piece', 'data-code': code, 'aria-disabled': 'true', 'aria-label': name }, drawn);
    buttons.push(button);
    return button;
  }));
  if (buttons.length) {
    const first = buttons.find(b => b.classList.contains('playable')) || buttons[0];
    buttons.forEach(b => { b.tabIndex = b === first ? 0 : -1; });
    list.addEventListener('keydown', arrowKeys);
  }
  return list;
}

/** The hand in the family's order (its layout's `hand_order`): cards named first, the trump
 * rank's cards, the trump suit, then suit by suit, each highest first. Tiles keep their order. */
export function sortHand(hand, layout, view) {
  const order = layout.hand_order;
  if (!order || !Array.isArray(hand)) return hand;
  const trump = order.trump_suit ? at(view, order.trump_suit) : null;
  const trumpRank = order.trump_rank ? at(view, order.trump_rank) : null;
  const place = (list, item) => { const i = list.indexOf(item); return i < 0 ? list.length : i; };
  const key = (code, index) => {
    const first = order.first.indexOf(code);
    if (first >= 0) return [0, first, 0, index];
    const card = /^([2-9TJQKA])([CDHS])$/.exec(code);
    if (!card) return [4, 0, 0, index];
    const [, rank, suit] = card;
    if (trumpRank && rank === trumpRank) return [1, suit === trump ? -1 : place(order.suits, suit), 0, index];
    if (trump && suit === trump) return [2, 0, place(order.ranks, rank), index];
    return [3, place(order.suits, suit), place(order.ranks, rank), index];
  };
  const compare = (a, b) => {
    const i = a.findIndex((k, n) => k !== b[n]);
    return i < 0 ? 0 : a[i] - b[i];
  };
  return hand.map((code, index) => ({ code, key: key(code, index) }))
    .sort((a, b) => compare(a.key, b.key))
    .map(item => item.code);
}

/** Hidden pieces as backs, at most a few drawn, with their count. */
function backs(count, tiles) {
  const shown = Math.min(count, 8);
  const what = `${count} hidden ${tiles ? 'tile' : 'card'}${count === 1 ? '' : 's'}`;
  return el('span', { class: 'backs', title: what, role: 'img', 'aria-label': what },
    el('span', { class: 'fan' }, Array.from({ length: shown }, () => back(tiles))),
    el('span', { class: 'count', 'aria-hidden': 'true' }, String(count)));
}

/** One pile's content: faces (with who put each item there), or its count. */
function pileContent(pile, value, ctx, w, onPiece) {
  if (pile.show === 'count') {
    const n = typeof value === 'number' ? value : piecesIn(value).length;
    return el('span', { class: 'count-chip' }, String(n));
  }
  const items = Array.isArray(value) ? value : [value];
  if (!pile.pieces && !pile.seat) return faceList(piecesIn(value), onPiece);
  return el('span', { class: 'pile-items' }, items.map(item => el('span', { class: 'play' },
    faceList(piecesIn(at(item, pile.pieces)), onPiece),
    pile.seat && typeof at(item, pile.seat) === 'number' ? el('span', { class: 'by' }, w.seatName(at(item, pile.seat))) : null)));
}

function badgeValue(badge, value, w) {
  if (badge.kind === 'pieces') return faceList(piecesIn(value));
  if (badge.kind === 'flag') return value ? 'yes' : 'no';
  return w.valueText(value, badge.kind === 'text' ? undefined : badge.kind);
}

/** One trick: each play with who played it. */
function trickPlays(trick, value) {
  const list = at(value, trick.plays);
  if (!Array.isArray(list)) return [];
  return list.map(play => ({ seat: at(play, trick.seat), pieces: piecesIn(at(play, trick.pieces)) }));
}

/** How many plays the trick in progress holds (0 where the family plays no tricks). */
export function playsInProgress(layout, view) {
  return layout.trick ? trickPlays(layout.trick, at(view, layout.trick.path)).length : 0;
}

/** The last finished trick the view holds ({plays, winner}), or null. A finished trick is shaped
 * as the one in progress; a bare list of plays is kept under `plays`. */
export function lastFinishedTrick(layout, view) {
  const trick = layout.trick;
  const done = trick && trick.finished ? at(view, trick.finished) : null;
  if (!Array.isArray(done) || !done.length) return null;
  const last = done[done.length - 1];
  const winner = trick.winner ? at(last, trick.winner) : null;
  return { plays: trickPlays(trick, trick.plays ? last : at(last, '/plays')), winner: winner === undefined ? null : winner };
}

/** Every trick a list of events closes, rebuilt from the layout's trick events (each play event
 * adds a play, the won event closes the trick, a deal's end drops a trick left unfinished):
 * [{plays, winner, event}], `event` the index of the closing event. */
export function tricksFromEvents(layout, events) {
  const spec = layout.trick && layout.trick.events;
  if (!spec) return [];
  const closed = [];
  let plays = [];
  events.forEach((event, index) => {
    if (event.type === spec.play) plays.push({ seat: at(event, spec.seat), pieces: piecesIn(at(event, spec.pieces)) });
    else if (event.type === spec.won) { closed.push({ plays, winner: at(event, spec.winner), event: index }); plays = []; }
    else if (layout.deal_end.includes(event.type)) plays = [];
  });
  return closed;
}

/** A trick in the centre: each play with who played it; a completed one (`winner` set) marks
 * the winning play and says who won. */
function trickNode(trick, w) {
  const done = trick.winner !== undefined;
  const caption = !done ? 'The trick' : trick.winner === null ? 'The completed trick' : `Trick won by ${w.seatName(trick.winner)}`;
  return el('figure', { class: `trick${done ? ' done' : ''}`, 'aria-label': caption, 'data-complete': done ? 'true' : undefined },
    el('div', { class: 'trick-plays' }, trick.plays.map(p => {
      const won = done && p.seat === trick.winner;
      return el('span', { class: `play${won ? ' winner' : ''}`, 'data-seat': typeof p.seat === 'number' ? String(p.seat) : p.seat },
        faceList(p.pieces), el('span', { class: 'by' }, won ? `★ ${w.seatName(p.seat)}` : w.seatName(p.seat)));
    })),
    done ? el('figcaption', { class: 'won-by' }, capitalize(caption)) : null);
}

/** The seats in drawing order from the viewer's: the viewer (or seat 0) at the bottom, then
 * clockwise: the next seat on the left, the last on the right, the others across. */
function placeSeats(players, me) {
  const bottom = typeof me === 'number' ? me : 0;
  const order = Array.from({ length: players }, (_, i) => (bottom + i) % players);
  const others = order.slice(1);
  if (others.length === 1) return { bottom, left: [], top: others, right: [] };
  if (others.length === 2) return { bottom, left: [others[0]], top: [], right: [others[1]] };
  return { bottom, left: [others[0]], top: others.slice(1, -1), right: [others[others.length - 1]] };
}

/**
 * Draws the table for a view.
 * ctx: {layout, players, me, names, clocks?: seat -> text, onPiece?: code -> handler|null,
 *       showLastTrick?: bool, onToggleLastTrick?: fn, heldTrick?: {plays, winner},
 *       handButtons?: bool (the person's own seat: every card of the hand takes the focus)}
 * A trick stays in the centre once complete, with its winner, until the next lead: the view's
 * last finished trick while no card of the next one is down; `heldTrick` (a trick the page
 * keeps on screen a while, rebuilt from the events) wins over the trick in progress, and over
 * nothing at all when the view has moved to the next deal.
 */
export function drawTable(view, ctx) {
  const layout = ctx.layout;
  const players = ctx.players;
  const sides = sidesOf(layout, view, players);
  const w = words({ ...ctx, sides });
  const toAct = seatsToAct(layout, view);
  const dealer = layout.dealer ? at(view, layout.dealer) : null;
  const sizes = at(view, layout.hand_sizes) || [];
  const tiles = layout.pieces === 'tiles';
  const hand = at(view, layout.hand);
  const place = placeSeats(players, ctx.me);

  const seatBox = (seat, where) => {
    const isMe = seat === ctx.me;
    const acting = toAct.includes(seat);
    const piles = layout.seat_piles.map(pile => {
      const all = at(view, pile.path);
      if (!Array.isArray(all) || !all.length) return null;
      const value = all[seat % all.length];
      if (!present(value) && value !== 0) return null;
      return el('span', { class: 'seat-pile' }, el('span', { class: 'label' }, pile.label), ' ', pileContent(pile, value, ctx, w));
    });
    const badges = layout.seat_badges.map(badge => {
      const all = at(view, badge.path);
      if (!Array.isArray(all) || !all.length) return null;
      const value = all[seat % all.length];
      if (value === null || value === undefined || (badge.kind === 'flag' && !value)) return null;
      return el('span', { class: 'badge seat-badge' }, `${badge.label} `, badgeValue(badge, value, w));
    });
    const hidden = !isMe && typeof sizes[seat] === 'number' && sizes[seat] > 0 ? backs(sizes[seat], tiles) : null;
    const clock = ctx.clocks ? ctx.clocks(seat) : null;
    return el('div', { class: `seat ${where}${acting ? ' acting' : ''}${isMe ? ' me' : ''}`, 'data-seat': String(seat), 'aria-current': acting ? 'true' : undefined },
      el('div', { class: 'seat-head' },
        el('span', { class: 'name' }, isMe ? 'You' : w.seatName(seat)),
        seat === dealer ? el('span', { class: 'chip dealer', title: 'Dealer' }, 'D') : null,
        acting ? el('span', { class: 'chip to-act' }, 'to play') : null,
        clock ? el('span', { class: 'clock' }, clock) : null),
      hidden, piles, el('div', { class: 'seat-badges' }, badges));
  };

  // The centre: the trick (or the completed one), the piles, the last trick on demand.
  const centre = [];
  const finished = layout.trick ? lastFinishedTrick(layout, view) : null;
  let showsFinished = false;
  if (layout.trick) {
    const plays = trickPlays(layout.trick, at(view, layout.trick.path));
    const held = ctx.heldTrick || null;
    if (held && (plays.length || !finished)) { centre.push(trickNode(held, w)); showsFinished = true; }
    else if (plays.length) centre.push(trickNode({ plays }, w));
    else if (finished) { centre.push(trickNode(finished, w)); showsFinished = true; }
  }
  for (const pile of layout.centre) {
    const value = at(view, pile.path);
    if (!present(value) || (pile.show === 'count' && !value)) continue;
    const caption = pile.caption ? at(view, pile.caption) : null;
    centre.push(el('div', { class: `pile${pile.show === 'count' ? ' counted' : ''}` },
      el('span', { class: 'label' }, pile.label, caption ? `: ${humanize(caption)}` : ''), ' ', pileContent(pile, value, ctx, w, ctx.onPiece)));
  }
  // While the next trick is played, the last one is a click away.
  let lastTrick = null;
  if (finished && !showsFinished) {
    lastTrick = el('details', { class: 'last-trick', open: ctx.showLastTrick || undefined, ontoggle: e => ctx.onToggleLastTrick && ctx.onToggleLastTrick(e.currentTarget.open) },
      el('summary', {}, 'Last trick'), trickNode(finished, w));
  }
  if (!centre.length) centre.push(el('p', { class: 'empty' }, toAct.length ? `${capitalize(w.seatName(toAct[0]))} ${toAct[0] === ctx.me ? 'play' : 'plays'} next` : ''));

  // Badges and scores.
  const badges = layout.badges.map(badge => {
    const value = at(view, badge.path);
    if (value === undefined || value === null || (Array.isArray(value) && !value.length) || (badge.kind === 'flag' && !value)) return null;
    return el('span', { class: 'badge' }, el('span', { class: 'label' }, badge.label), ' ', badgeValue(badge, value, w));
  });
  const scoreboard = drawScores(view, ctx, w, sides);

  const mine = typeof ctx.me === 'number' && Array.isArray(hand)
    ? el('div', { class: 'my-hand', role: 'group', 'aria-label': 'Your hand' }, faceList(sortHand(hand, layout, view), ctx.onPiece, Boolean(ctx.handButtons)))
    : null;

  return el('div', { class: 'table-view', 'data-players': String(players) },
    el('div', { class: 'table-top' }, el('div', { class: 'badges' }, badges), scoreboard),
    el('div', { class: 'ring' },
      el('div', { class: 'side-col left' }, place.left.map(s => seatBox(s, 'left'))),
      el('div', { class: 'middle' },
        el('div', { class: 'top-row' }, place.top.map(s => seatBox(s, 'top'))),
        el('div', { class: 'centre', 'aria-label': 'The centre of the table' }, centre, lastTrick)),
      el('div', { class: 'side-col right' }, place.right.map(s => seatBox(s, 'right')))),
    seatBox(place.bottom, 'bottom'),
    mine);
}

function drawScores(view, ctx, w, sides) {
  const s = ctx.layout.scores;
  const scores = at(view, s.path);
  if (scores === undefined || scores === null) return null;
  const target = s.target ? at(view, s.target.path) : null;
  const targetText = target !== null && target !== undefined && typeof target !== 'object'
    ? el('span', { class: 'target' }, `${s.target.label} ${w.valueText(target)}`) : null;
  let rows;
  if (!Array.isArray(scores)) rows = [{ name: 'The table', value: scores }];
  else if (sides && scores.length === ctx.players) rows = sides.map((side, i) => ({ name: w.sideName(i), value: scores[side[0]], mine: side.includes(ctx.me) }));
  else if (sides && scores.length === sides.length) rows = sides.map((side, i) => ({ name: w.sideName(i), value: scores[i], mine: side.includes(ctx.me) }));
  else rows = scores.map((value, seat) => ({ name: w.seatName(seat), value, mine: seat === ctx.me }));
  return el('div', { class: 'scores', 'aria-label': `Scores (${s.label})` },
    el('span', { class: 'label' }, capitalize(s.label)),
    rows.map(r => el('span', { class: `score${r.mine ? ' mine' : ''}` }, `${capitalize(r.name)} `, el('strong', {}, w.valueText(r.value)))),
    targetText);
}

/** The result of a finished game as a summary: who won, then places and scores. */
export function resultSummary(result, ctx) {
  if (!result) return null;
  const w = words({ ...ctx, sides: result.teams || null });
  const ranking = result.ranking || [];
  const winners = ranking[0] || [];
  const teams = result.teams || null;
  let headline;
  if (!winners.length) headline = 'The game is over';
  else if (winners.includes(ctx.me)) headline = teams && teams.some(t => t.length > 1 && t.includes(ctx.me)) ? 'Your team wins' : winners.length > 1 ? 'You share the win' : 'You win';
  else if (teams && teams.some(t => t.length > 1 && winners.every(s => t.includes(s)))) headline = `${capitalize(winners.map(w.seatName).join(' & '))} win`;
  else headline = `${capitalize(winners.map(w.seatName).join(' & '))} ${winners.length > 1 ? 'share the win' : 'wins'}`;
  const place = {};
  ranking.forEach((group, i) => group.forEach(seat => { place[seat] = i + 1; }));
  const rows = (result.scores || []).map((score, seat) => ({ seat, score, place: place[seat] }));
  rows.sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
  return el('section', { class: 'summary game-end', 'aria-labelledby': 'summary-h', role: 'status' },
    el('h2', { id: 'summary-h' }, headline),
    el('table', { class: 'result' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Place'), el('th', { scope: 'col' }, 'Player'), el('th', { scope: 'col', class: 'num' }, 'Score'))),
      el('tbody', {}, rows.map(r => el('tr', { 'data-seat': String(r.seat), class: r.seat === ctx.me ? 'mine' : undefined },
        el('td', {}, r.place ?? '—'), el('td', {}, capitalize(w.seatName(r.seat))), el('td', { class: 'num score' }, String(r.score)))))));
}

/** A deal's end as a summary panel: the sentence of the event that ended it. */
export function dealSummary(event, ctx, actor) {
  const w = words({ ...ctx, sides: ctx.sides || null });
  return el('section', { class: 'summary deal-end', role: 'status' },
    el('h2', {}, 'End of the deal'), el('p', {}, w.eventText(event, actor)));
}

/** The data view, one click away. */
export function rawView(view) {
  return el('details', { class: 'raw-view' }, el('summary', {}, 'Raw view'), el('div', { class: 'raw' }, render(view)));
}

