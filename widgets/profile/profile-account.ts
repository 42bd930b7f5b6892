/**
 * The profile widget's signed-in view: details, registrations, cancelling, signing out. A chunk of
 * its own, fetched together with the participant's data, so signed-out visitors never load it.
 */
import { html, nothing } from 'lit';
import { formatDateRange } from '../shared/format.ts';
import { translator } from '../shared/i18n.ts';
import { writeSession } from '../shared/session.ts';
import type { ProfileData, ProfileRegistration, ServiceProfile } from './profile.ts';

/** The signed-in view's words; German is in profile-account.de.ts. */
export const en = {
  hello: 'Hello {name}',
  logout: 'Sign out',
  details: 'Your details',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone',
  none: '—',
  edit: 'Edit details',
  save: 'Save',
  cancel: 'Cancel',
  saved: 'Your details are saved.',
  upcoming: 'Upcoming classes',
  past: 'Past classes',
  noUpcoming: 'No upcoming classes.',
  noPast: 'No past classes.',
  waitlisted: 'On the waitlist',
  cancelPlace: 'Cancel my place',
  confirmCancel: 'Cancel your place in {course}?',
  yesCancel: 'Yes, cancel',
  keep: 'Keep my place',
  cancelled: 'Your place in {course} is cancelled.',
  noCancel: 'It is too late to cancel here: please contact {company}.',
  emailPending: 'To change your email to {email}, enter the PIN we have sent there (or open the link in that email). Until then your email stays {current}.',
  pin: 'PIN',
  confirmEmail: 'Confirm new email',
  emailChanged: 'Your email is now {email}.',
};

const t = translator(en, { de: () => import('./profile-account.de.ts') });

/** Loads the view's words with the chunk, so the view never flashes English. */
export const loadWords = t.load;

const logout = async (host: ServiceProfile) => {
  await host._send(() => host._call('participant/logout', { body: {}, token: host._data.token }).catch(() => null));
  host._signedOut();
};

/** Takes the participant (and any email change waiting) of an answer, for this widget and the page. */
const take = (host: ServiceProfile, answer: Pick<ProfileData, 'participant' | 'email_change'>) => {
  host._data = { ...host._data, ...answer };
  writeSession(host._base, host._data.widget.company.id, { token: host._data.token!, participant: answer.participant });
};

const save = async (host: ServiceProfile, event: Event) => {
  event.preventDefault();
  const form = new FormData(event.target as HTMLFormElement);
  const body = Object.fromEntries((['first_name', 'last_name', 'email', 'phone'] as const).map((name) => [name, String(form.get(name)).trim()]));
  // A new email is confirmed from its mailbox: the PIN, or a link back to this page.
  const page = new URL(location.href);
  page.hash = '';
  const answer = await host._send<ProfileData>(() =>
    host._write('participant/profile', { ...body, return_url: page.href }, host._data.token),
  );
  if (answer) {
    take(host, answer);
    await edit(host, false);
    host._message = t(host.resolvedLocale, 'saved');
    if (answer.email_change) await focus(host, '#pin');
  }
};

/** Confirms the waiting email change with the PIN sent to the new address. */
const confirmEmail = async (host: ServiceProfile, event: Event) => {
  event.preventDefault();
  const pin = (host.renderRoot.querySelector<HTMLInputElement>('#pin')!.value.match(/\d/g) ?? []).join('');
  const answer = await host._send<ProfileData>(() => host._call('participant/email/confirm', { body: { pin }, token: host._data.token }));
  if (answer) {
    take(host, answer);
    host._message = t(host.resolvedLocale, 'emailChanged', { email: answer.participant!.email });
    await focus(host, '#details');
  }
};

/** A translated sentence with a person's name isolated, so that its writing direction cannot turn the sentence around. */
const withName = (text: string, name: string) => {
  const [before, after] = text.split('\u0000');
  return html`${before}<bdi>${name}</bdi>${after}`;
};

/** Opens or closes the details form; the focus goes into the form, or back to the details' heading. */
const edit = async (host: ServiceProfile, open: boolean) => {
  host._editing = open;
  host._errors = {};
  host._message = '';
  await focus(host, open ? '#first_name' : '#details');
};

/** Focuses an element of the view once it is drawn (the one that had the focus may be gone). */
const focus = async (host: ServiceProfile, selector: string) => {
  await host.updateComplete;
  host.renderRoot.querySelector<HTMLElement>(selector)?.focus();
};

async function cancel(host: ServiceProfile, registration: ProfileRegistration) {
  const answer = await host._send(() =>
    host._write(`participant/registrations/${encodeURIComponent(registration.id)}/cancel`, {}, host._data.token),
  );
  host._confirming = '';
  if (!answer) return;
  host._data = { ...host._data, registrations: host._data.registrations!.filter((r) => r.id !== registration.id) };
  host._message = t(host.resolvedLocale, 'cancelled', { course: registration.course.title });
  await focus(host, '#upcoming');
  host._fire('service-registration-cancelled', { id: registration.id, course: registration.course.id, class: registration.class.id });
}

/** Asks before cancelling (`id`), or keeps the place (`''`) with the focus back on its button. */
const confirm = (host: ServiceProfile, id: string, kept = host._confirming) => {
  host._confirming = id;
  return focus(host, id ? '[role=group] button' : `[aria-describedby="r-${kept}"]`);
};

export function renderAccount(host: ServiceProfile, { participant, registrations = [], email_change: change }: ProfileData) {
  const locale = host.resolvedLocale;
  const p = participant!;
  // Upcoming and past by the service's clock: the visitor's may be wrong.
  const upcoming = registrations.filter((r) => !r.past);
  const past = registrations.filter((r) => r.past).reverse();
  const list = (items: ProfileRegistration[], empty: 'noUpcoming' | 'noPast') =>
    items.length
      ? html`<ul>
          ${items.map(
            (r) => html`<li class="card">
              <strong id="r-${r.id}">${r.course.title}</strong>
              <span>${formatDateRange(locale, r.class.starts_at, r.class.ends_at, r.class.timezone)} · ${r.class.location}</span>
              ${r.status === 'waitlisted' ? html`<span>${t(locale, 'waitlisted')}</span>` : nothing}
              ${host._confirming === r.id
                ? html`<div class="row" role="group" aria-label=${t(locale, 'confirmCancel', { course: r.course.title })}>
                    <p>${t(locale, 'confirmCancel', { course: r.course.title })}</p>
                    <button ?disabled=${host._sending} @click=${() => cancel(host, r)}>${t(locale, 'yesCancel')}</button>
                    <button class="secondary" @click=${() => confirm(host, '')}>${t(locale, 'keep')}</button>
                  </div>`
                : r.cancellable
                  ? html`<button class="secondary" aria-describedby="r-${r.id}" @click=${() => confirm(host, r.id)}>${t(locale, 'cancelPlace')}</button>`
                  : r.past
                    ? nothing
                    : html`<span>${t(locale, 'noCancel', { company: host._data.widget.company.name })}</span>`}
            </li>`,
          )}
        </ul>`
      : html`<p>${t(locale, empty)}</p>`;
  return html`<div class="row">
      <h2 tabindex="-1" data-focus>${withName(t(locale, 'hello', { name: '\u0000' }), p.first_name)}</h2>
      <button class="secondary" ?disabled=${host._sending} @click=${() => logout(host)}>${t(locale, 'logout')}</button>
    </div>
    ${host._notice()}
    <h3 id="details" tabindex="-1">${t(locale, 'details')}</h3>
    ${change && !host._editing
      ? html`<form class="notice" @submit=${(e: Event) => confirmEmail(host, e)}>
          <p>${t(locale, 'emailPending', { email: change.email, current: p.email })}</p>
          ${host._field('pin', t(locale, 'pin'), 'text', '', 'one-time-code')}
          <button part="button" ?disabled=${host._sending}>${t(locale, 'confirmEmail')}</button>
        </form>`
      : nothing}
    ${host._editing
      ? html`<form @submit=${(e: Event) => save(host, e)}>
          <div class="row">
            ${host._field('first_name', t(locale, 'first_name'), 'text', p.first_name, 'given-name')}
            ${host._field('last_name', t(locale, 'last_name'), 'text', p.last_name, 'family-name')}
          </div>
          <div class="row">
            ${host._field('email', t(locale, 'email'), 'email', p.email, 'email')}
            ${host._field('phone', t(locale, 'phone'), 'tel', p.phone ?? '', 'tel')}
          </div>
          <p class="row">
            <button part="button" ?disabled=${host._sending}>${t(locale, 'save')}</button>
            <button type="button" class="secondary" @click=${() => edit(host, false)}>${t(locale, 'cancel')}</button>
          </p>
        </form>`
      : html`<dl>
            <dt>${t(locale, 'first_name')} / ${t(locale, 'last_name')}</dt>
            <dd><bdi>${p.first_name}</bdi> <bdi>${p.last_name}</bdi></dd>
            <dt>${t(locale, 'email')}</dt>
            <dd>${p.email}</dd>
            <dt>${t(locale, 'phone')}</dt>
            <dd>${p.phone || t(locale, 'none')}</dd>
          </dl>
          <p><button class="secondary" @click=${() => edit(host, true)}>${t(locale, 'edit')}</button></p>`}
    <h3 id="upcoming" tabindex="-1">${t(locale, 'upcoming')}</h3>
    ${list(upcoming, 'noUpcoming')}
    <h3>${t(locale, 'past')}</h3>
    ${list(past, 'noPast')}`;
}
