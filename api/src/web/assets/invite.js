// Invitations: each invited or open seat's link of a new table (the play page's, and a
// rematch's), with a copy button, and the way to your own seat.
import { el } from './faces.js';

/** A copy button for `text`. */
function copyButton(text, id) {
  const button = el('button', { type: 'button', class: 'copy', id }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = 'Copied';
    } catch (_) {
      button.textContent = 'Select the link to copy it';
    }
  });
  return button;
}

/** The invitations of a new table: each invited or open seat's link, and the way to your seat. */
export function invitationsPanel(created, mine) {
  const absolute = path => new URL(path, location.origin).href;
  const rows = created.seats.filter(s => s.seat !== mine && s.kind !== 'bot').map(s => {
    const link = absolute(s.join_url || created.watch_url);
    const who = s.kind === 'open' ? 'open seat (anyone with the link)' : s.name || 'invited person';
    return el('li', { 'data-invite': String(s.seat) }, `Seat ${s.seat}, ${who}: `,
      el('input', { class: 'invite-link', id: `invite-${s.seat}`, readonly: true, value: link, size: 48, 'aria-label': `Invitation link of seat ${s.seat}` }),
      ' ', copyButton(link, `copy-${s.seat}`));
  });
  const go = el('a', { class: 'primary-link', id: 'to-my-seat', href: created.seats[mine].join_url }, 'Go to my seat');
  return el('section', { class: 'panel', id: 'invitations', 'aria-labelledby': 'invitations-h' },
    el('h2', { id: 'invitations-h' }, 'Invitations'),
    el('p', {}, 'Send each person their link: it holds their seat (a friend who is a player opens it signed in as that player). The game starts once everyone has joined.'),
    el('ul', { class: 'plain invitations' }, rows),
    el('p', {}, go));
}

