/**
 * The contact widget's confirmation: where the answer goes and what was sent (no copy is emailed),
 * a panel that takes the form's space, its action at its foot. A chunk of its own,
 * fetched while the message is sent: the form is the widget's first view.
 */
import { css, html, type TemplateResult } from 'lit';
import { doneStyles } from '../shared/done.ts';

const sentStyles = css`
  .sent,
  .message {
    flex: 1;
    display: flex;
    flex-direction: column;
    gap: 0.75rem;
  }
  .message {
    gap: 0.25rem;
  }
  dt {
    font-weight: 600;
  }
  /* The message as a quote (not a field: it is sent), its rule as long as its text: a rule down to
     the panel's foot drew a tall empty box below a short message (the panel's action keeps the foot). */
  .message dd {
    padding: 0.25rem 0 0.25rem 1rem;
    border-left: 3px solid var(--_border);
    white-space: pre-wrap;
  }
`;

/**
 * The confirmation's view in the widget's shadow root (its styles join the widget's): the widget's
 * heading and lines, what was sent as `[label, text]` (the subject or topic, the message), and its
 * action at the panel's foot.
 */
export const sentView = (root: ShadowRoot) => {
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, doneStyles.styleSheet!, sentStyles.styleSheet!];
  return (head: TemplateResult, [subject, message]: [string, string][], action: TemplateResult) =>
    html`<div class="done">
      ${head}
      <dl class="sent">
        <div><dt>${subject![0]}</dt><dd>${subject![1]}</dd></div>
        <div class="message"><dt>${message![0]}</dt><dd>${message![1]}</dd></div>
      </dl>
      <p class="actions">${action}</p>
    </div>`;
};
