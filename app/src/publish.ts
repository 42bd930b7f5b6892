/**
 * Team & Settings > Publish: the company's widgets as a table (name, type, loader, origins, state,
 * created), newest first, filtered by type. Owners create widgets here; members see them and their
 * snippets.
 */
import { html, nothing } from 'lit';
import { WIDGET_TYPES, type WidgetType } from '../../contract/index.ts';
import type { WidgetInfo } from '../../contract/rest-client.ts';
import type { App, Company, View } from './app.ts';
import { date } from './i18n.ts';
import { href } from './routes.ts';
import { said, sayText, type Said } from './ui.ts';

export const TYPES = Object.keys(WIDGET_TYPES) as WidgetType[];

export class PublishView implements View {
  #app: App;
  #company: Company;
  #type: WidgetType | undefined;
  #widgets: WidgetInfo[] | undefined;
  #error: Said | undefined;
  #status = '';
  #loads = 0;

  constructor(app: App, company: Company, type: WidgetType | undefined) {
    this.#app = app;
    this.#company = company;
    this.#type = type;
    void this.#load();
  }

  async #load(announce = false) {
    const load = ++this.#loads;
    this.#error = undefined;
    try {
      const widgets = await this.#app.api.widgets({ company: this.#company.id, ...(this.#type ? { type: this.#type } : {}) });
      if (load !== this.#loads) return;
      this.#widgets = widgets;
      if (announce) this.#status = this.#app.t.count(widgets.length);
    } catch (error) {
      if (load !== this.#loads) return;
      this.#error = said(this.#app.t, error);
    }
    this.#app.update();
  }

  /** A filter changes the list, not the view: the focus stays on the select, and the count is said. */
  #filter(value: string) {
    this.#type = (value || undefined) as WidgetType | undefined;
    history.replaceState(null, '', href.publish(this.#company.id, this.#type));
    this.#app.route = { name: 'publish', company: this.#company.id, ...(this.#type ? { type: this.#type } : {}) };
    void this.#load(true);
  }

  title() {
    return this.#app.t.publish;
  }

  render() {
    const { t } = this.#app;
    const owner = this.#company.role === 'owner';
    const widgets = this.#widgets;
    return html`<div class="wrap page">
      <div class="page-head">
        <div>
          <h1 tabindex="-1">${this.title()}</h1>
          <p class="lead">${t.publishLead}</p>
        </div>
        ${owner ? html`<a class="button" href=${href.create(this.#company.id)}>${t.newWidget}</a>` : nothing}
      </div>
      ${owner ? nothing : html`<p class="note member-note">${t.memberNote}</p>`}
      <div class="toolbar">
        <div class="field inline-field">
          <label for="type-filter">${t.filterType}</label>
          <select id="type-filter" @change=${(e: Event) => this.#filter((e.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${!this.#type}>${t.allTypes}</option>
            ${TYPES.map((type) => html`<option value=${type} ?selected=${this.#type === type}>${t.types[type]}</option>`)}
          </select>
        </div>
        <p class="count" role="status">${this.#status}</p>
      </div>
      ${
        this.#error
          ? html`<p class="note bad" role="alert">${sayText(this.#error)}</p>
            <button type="button" class="secondary" @click=${() => void this.#load()}>${t.retry}</button>`
          : !widgets
            ? html`<p class="loading" role="status">${t.loading}</p>`
            : widgets.length === 0
              ? this.#empty(owner)
              : this.#table(widgets)
      }
    </div>`;
  }

  #empty(owner: boolean) {
    const { t } = this.#app;
    if (this.#type) {
      return html`<div class="empty-state card">
        <p>${t.emptyFiltered(t.types[this.#type])}</p>
        <p class="empty-actions">
          <button type="button" class="secondary" @click=${() => this.#filter('')}>${t.showAll}</button>
          ${owner ? html`<a class="button" href=${href.create(this.#company.id)}>${t.newWidget}</a>` : nothing}
        </p>
      </div>`;
    }
    return html`<div class="empty-state card">
      <p>${owner ? t.emptyOwner : t.emptyMember}</p>
      ${owner ? html`<p><a class="button" href=${href.create(this.#company.id)}>${t.newWidget}</a></p>` : nothing}
    </div>`;
  }

  #table(widgets: WidgetInfo[]) {
    const { t, lang } = this.#app;
    const label = (text: string) => html`<span class="cell-label" aria-hidden="true">${text}</span>`;
    return html`<div class="card table-card">
      <table class="data-table widgets-table" role="table">
        <caption class="visually-hidden">
          ${t.widgetsCaption}
        </caption>
        <thead>
          <tr role="row">
            <th scope="col" role="columnheader">${t.colName}</th>
            <th scope="col" role="columnheader">${t.colType}</th>
            <th scope="col" role="columnheader">${t.colLoader}</th>
            <th scope="col" role="columnheader">${t.colOrigins}</th>
            <th scope="col" role="columnheader">${t.colState}</th>
            <th scope="col" role="columnheader">${t.colCreated}</th>
          </tr>
        </thead>
        <tbody>
          ${widgets.map(
            (w) =>
              html`<tr role="row">
                <th scope="row" role="rowheader">
                  <a href=${href.widget(this.#company.id, w.id)}><bdi>${w.name}</bdi></a>
                </th>
                <td role="cell">${label(t.colType)}${t.types[w.type]}</td>
                <td role="cell">${label(t.colLoader)}${w.loader}</td>
                <td role="cell" class="origins-cell">
                  ${label(t.colOrigins)}
                  <ul class="plain-list">
                    ${w.origins.slice(0, 2).map((o) => html`<li><code>${o}</code></li>`)}
                    ${w.origins.length > 2 ? html`<li class="muted">${t.moreOrigins(w.origins.length - 2)}</li>` : nothing}
                  </ul>
                </td>
                <td role="cell">
                  ${label(t.colState)}<span class=${w.enabled ? 'badge ok' : 'badge off'}>${w.enabled ? t.enabled : t.disabled}</span>
                </td>
                <td role="cell">${label(t.colCreated)}${date(lang, w.created_at)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
  }
}
