/**
 * What the confirmations share (a registration's, a message's, an order's): a panel that fills the
 * space the widget holds, its actions at its foot, so that a confirmation never ends in a blank box;
 * and the way to the participant's account (the profile widget, where places are cancelled), when
 * the page has one. With the forms, in their chunk: a confirmation follows a form.
 */
import { css } from 'lit';
import type { PageRequest } from '../../contract/page.ts';
import { SIGN_IN_EVENT, type SessionController } from './session.ts';

/**
 * Whether a widget on the page offers the participant's sign-in (the profile answers the page bus);
 * with `show`, it shows it with the focus in its field, which `email` fills if it is empty (the
 * visitor's just given: they typed it already).
 */
export const askSignIn = ({ baseUrl, company }: SessionController, show: boolean, email?: string) =>
  !dispatchEvent(new CustomEvent<PageRequest>(SIGN_IN_EVENT, { cancelable: true, detail: { baseUrl, company, show, email } }));

export const doneStyles = css`
  .done {
    flex: 1 0 auto;
    display: flex;
    flex-direction: column;
    gap: 1rem;
    padding: 1.25rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    /* A long email address breaks rather than overflows a narrow phone. */
    overflow-wrap: anywhere;
  }
  /* A phone of 360 px or less: the panel's room goes to its text (a line less of it, and the first
     class of an order whole in the checkout's 420 px at 320 px). */
  @media (width <= 22.5em) {
    .done {
      gap: 0.75rem;
      padding: 1rem 0.75rem;
    }
  }
  /* A tick beside the heading, for the eye only (no text of its own where the browser allows). */
  .done h2 {
    position: relative;
    padding-left: 1.5em;
  }
  /* In the heading's ems: centred on its first line (of 1.5 lines' height) whatever its size. */
  .done h2::before {
    content: '✓';
    content: '✓' / '';
    position: absolute;
    left: 0;
    top: 0.3em;
    display: grid;
    place-items: center;
    width: 1.55em;
    height: 1.55em;
    border-radius: 50%;
    background: var(--_accent);
    color: var(--service-on-accent, #fff);
    font-size: 0.7em;
  }
  /* The actions at the panel's foot, whatever the height the widget holds. */
  .done .actions {
    margin-top: auto;
    display: flex;
    flex-wrap: wrap;
    gap: 0.75rem 1rem;
    align-items: center;
  }
  .done .card {
    display: grid;
    gap: 0.25rem;
    padding: 0.75rem 1rem;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .done dl,
  .done dd {
    margin: 0;
  }
  .nowrap {
    white-space: nowrap;
  }
  a.button {
    display: inline-flex;
    align-items: center;
    min-height: 2.75rem;
    padding: 0.5rem 1rem;
    border: 1px solid var(--_accent);
    border-radius: var(--_radius);
    color: var(--_link);
    font-weight: 600;
    text-decoration: none;
  }
`;
