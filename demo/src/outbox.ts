/**
 * The outbox (outbox.html): the emails the service has written, newest first, with working links.
 * It asks again every few seconds while the page is visible and adds what is new at the top,
 * leaving the rest (and the keyboard focus) where they are.
 */
import type { OutboxResponse } from '../../contract/api/index.ts';
import { $, h, safeLink } from './dom.ts';

type Email = OutboxResponse['emails'][number];

const list = $('#emails');
const count = $('#count');
const input = $<HTMLInputElement>('#to');
let to = new URLSearchParams(location.search).get('to') ?? '';
input.value = to;
let shown = new Set<number>();

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

const view = (email: Email) =>
  h(
    'li',
    {},
    h(
      'article',
      { class: 'email-card', 'aria-labelledby': `email-${email.id}` },
      h('h3', { id: `email-${email.id}` }, email.subject),
      h('p', { class: 'email-meta' }, `To ${email.to} · ${when(email.sent_at)}`),
      email.pin && h('p', {}, 'PIN: ', h('span', { class: 'pin' }, email.pin)),
      email.link && h('p', { class: 'email-link' }, safeLink(email.link, email.link)),
      h('p', { class: 'email-text' }, email.text),
    ),
  );

async function refresh() {
  let emails: Email[];
  try {
    const response = await fetch(`/dev/outbox${to ? `?to=${encodeURIComponent(to)}` : ''}`);
    if (!response.ok) {
      count.textContent =
        'The outbox is there in development mode only (this service runs in production, where mail goes out through SMTP).';
      return;
    }
    emails = ((await response.json()) as OutboxResponse).emails;
  } catch {
    count.textContent = 'The service could not be reached: is it still running?';
    return;
  }
  const fresh = emails.filter((e) => !shown.has(e.id));
  // Newest first: the answer's order; what is new goes above what is shown.
  list.prepend(...fresh.map(view));
  for (const e of fresh) shown.add(e.id);
  const n = emails.length;
  const said = `${n === 0 ? 'No emails' : n === 1 ? '1 email' : `${n} emails`}${to ? ` to ${to}` : ''}${n ? ', newest first' : ' yet'}.`;
  // A status line is announced when it changes: not every few seconds.
  if (count.textContent !== said) count.textContent = said;
}

const show = (next: string) => {
  to = next;
  const url = new URL(location.href);
  if (to) url.searchParams.set('to', to);
  else url.searchParams.delete('to');
  history.replaceState(null, '', url);
  shown = new Set();
  list.replaceChildren();
  void refresh();
};
$('#filter').addEventListener('submit', (event) => {
  event.preventDefault();
  show(input.value.trim());
});
$('#all').addEventListener('click', () => {
  input.value = '';
  show('');
});

await refresh();
setInterval(() => {
  if (document.visibilityState === 'visible') void refresh();
}, 3000);
