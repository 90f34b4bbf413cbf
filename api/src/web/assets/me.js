// Who the person at this browser is: a player (POST /v1/players) kept in localStorage as
// {id, name, token}. No password and no e-mail: the token is the identity, so it stays in this
// browser; the play page offers to become a player, and the table pages join with the token.
import { api, el, errorBox, problemText } from './faces.js';

const KEY = 'cardroom.player';

/** The player kept in this browser, or null. */
export function me() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || 'null');
    return kept && kept.id && kept.token ? kept : null;
  } catch (_) {
    return null;
  }
}

/** The player's token, or undefined (for `api`'s third argument). */
export function myToken() {
  const kept = me();
  return kept ? kept.token : undefined;
}

/** Becomes a player named `name`; resolves to the API's reply (kept in the browser when ok). */
export async function becomePlayer(name) {
  const reply = await api('/v1/players', { name });
  if (reply.ok) localStorage.setItem(KEY, JSON.stringify({ id: reply.body.id, name: reply.body.name, token: reply.body.token }));
  return reply;
}

/** Forgets the player kept in this browser. */
export function forgetMe() {
  localStorage.removeItem(KEY);
}

/** A panel saying who you play as, or a form to become a player; `changed` runs after either. */
export function identityPanel(changed) {
  const box = el('section', { class: 'panel', id: 'identity', 'aria-label': 'Your player' });
  function draw() {
    const kept = me();
    if (kept) {
      const forget = el('button', { type: 'button', id: 'forget-me' }, 'Forget');
      forget.addEventListener('click', () => { forgetMe(); draw(); changed(); });
      box.replaceChildren(el('p', {}, 'You play as ', el('a', { href: `/player/${encodeURIComponent(kept.id)}`, id: 'my-player' }, kept.name),
        ' (kept in this browser: your ratings follow you at rated tables). ', forget));
      return;
    }
    const name = el('input', { id: 'player-name', size: 16, maxlength: 64, placeholder: 'your name', required: true });
    const problem = el('div', { 'aria-live': 'assertive' });
    const form = el('form', { class: 'filters', id: 'become-player' },
      el('label', { for: 'player-name' }, 'Your name', name),
      el('button', { type: 'submit' }, 'Become a player'));
    form.addEventListener('submit', async event => {
      event.preventDefault();
      const reply = await becomePlayer(name.value);
      if (!reply.ok) { problem.replaceChildren(errorBox(problemText(reply))); return; }
      draw();
      changed();
    });
    box.replaceChildren(el('p', { class: 'muted' }, 'Play as a guest, or become a player to be rated at rated tables and invited by friends (a name only: no password, no e-mail).'), form, problem);
  }
  draw();
  return box;
}
