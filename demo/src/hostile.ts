/**
 * The hostile page (hostile.html): its own web component made with its own Lit (not the widgets'
 * copy: another module instance, with Lit's usual Trusted Types policy, `lit-html`), and its
 * stylesheet shown as it is written.
 */
import { LitElement, css, html } from 'lit';
import stylesheet from '../styles/hostile.css?raw';
import { $ } from './dom.ts';

/** A dismissible banner of the host page, as sites have them. */
class HostBanner extends LitElement {
  static override properties = { dismissed: { state: true } };
  static override styles = css`
    :host {
      display: block;
    }
    p {
      display: flex;
      flex-wrap: wrap;
      gap: 0.75rem;
      align-items: center;
      justify-content: center;
    }
  `;
  dismissed = false;

  override render() {
    return this.dismissed ? html`` : html`<p><slot></slot><button @click=${() => (this.dismissed = true)}>Dismiss</button></p>`;
  }
}
customElements.define('host-banner', HostBanner);

const versions = (globalThis as { litHtmlVersions?: string[] }).litHtmlVersions ?? [];
$('#host-lit').textContent = `Lit ${versions.join(', ') || '3'}`;

$('#hostile-css-text').textContent = stylesheet;
