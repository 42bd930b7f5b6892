/**
 * A new widget: one of the seven types, a name, its language, options and colours, and the origins
 * of the pages it shows on. The widget's view follows, with its key and snippet.
 */
import { html, nothing } from 'lit';
import { WIDGET_TYPES, type WidgetType } from '../../contract/index.ts';
import type { Course } from '../../contract/rest-client.ts';
import type { App, Company, View } from './app.ts';
import { checkOrigins } from './origins.ts';
import { TYPES } from './publish.ts';
import { href } from './routes.ts';
import {
  checkLinks,
  checkTerms,
  coursesOf,
  emptySettings,
  nameField,
  optionsOf,
  settingsFields,
  type SettingsErrors,
} from './settings.ts';
import { choice, field, fieldErrors, said, sayText, type Said } from './ui.ts';
import { openWidget } from './widget.ts';

type CreateErrors = SettingsErrors & { type?: Said; origins?: Said; form?: Said };

export class CreateView implements View {
  #app: App;
  #company: Company;
  #type: WidgetType | undefined;
  #settings = emptySettings();
  #origins = '';
  #errors: CreateErrors = {};
  #busy = false;
  #courses: Course[] | undefined;

  constructor(app: App, company: Company) {
    this.#app = app;
    this.#company = company;
    // A member gets no form: it needs no programmes.
    if (company.role === 'owner')
      void coursesOf(app, company.id).then((c) => {
        this.#courses = c;
        app.update();
      });
  }

  title() {
    return this.#app.t.createTitle;
  }

  async #submit() {
    const app = this.#app;
    const { t } = app;
    const errors: CreateErrors = {};
    if (!this.#type) errors.type = { text: t.typeMissing };
    if (!this.#settings.name.trim()) errors.name = { text: t.nameMissing };
    const terms = this.#type && checkTerms(t, this.#type, this.#settings);
    if (terms) errors.terms = terms;
    const link = this.#type && checkLinks(t, this.#type, this.#settings);
    if (link) errors.link = link;
    const origins = checkOrigins(t, this.#origins, app.dev);
    if ('fault' in origins) errors.origins = { text: origins.fault };
    this.#errors = errors;
    if (Object.keys(errors).length || !this.#type || 'fault' in origins) return this.#fault();
    this.#busy = true;
    app.update();
    try {
      const widget = await app.api.createWidget(
        {
          type: this.#type,
          name: this.#settings.name.trim(),
          origins: origins.origins,
          options: optionsOf(this.#type, this.#settings),
        },
        { company: this.#company.id },
      );
      openWidget(this.#company.id, widget);
    } catch (error) {
      this.#errors = fieldErrors(t, error) ?? { form: said(t, error) };
      this.#fault();
    } finally {
      this.#busy = false;
      app.update();
    }
  }

  /** The focus to the first field at fault (in the form's order), or to the form's own error. */
  #fault() {
    const order: [keyof CreateErrors, string][] = [
      ['form', '#create-error'],
      ['type', `input[name="type"]${this.#type ? ':checked' : ''}`],
      ['name', '#widget-name'],
      ['options', '#widget-locale'],
      ['link', `#option-${this.#errors.link?.option}`],
      ['terms', '#option-terms'],
      ['origins', '#widget-origins'],
    ];
    const first = order.find(([name]) => this.#errors[name]);
    if (first) this.#app.focusAfterRender(first[1]);
    this.#app.update();
  }

  render() {
    const app = this.#app;
    const { t } = app;
    if (this.#company.role !== 'owner') {
      return html`<div class="wrap page">
        <h1 tabindex="-1">${this.title()}</h1>
        <p class="note">${t.memberNote}</p>
        <p><a href=${href.publish(this.#company.id)}>${t.back}</a></p>
      </div>`;
    }
    const changed = () => app.update();
    const e = this.#errors;
    return html`<div class="wrap page">
      <p class="breadcrumb"><a href=${href.publish(this.#company.id)}>${t.back}</a></p>
      <h1 tabindex="-1">${this.title()}</h1>
      <p class="lead">${t.createLead}</p>
      <form
        class="card create-form"
        novalidate
        aria-labelledby="create-title"
        @submit=${(event: Event) => {
          event.preventDefault();
          if (!this.#busy) void this.#submit();
        }}
      >
        <h2 id="create-title" class="visually-hidden">${t.createTitle}</h2>
        ${e.form ? html`<p class="note bad" id="create-error" tabindex="-1" role="alert">${sayText(e.form)}</p>` : nothing}
        <fieldset aria-describedby=${e.type ? 'type-error' : nothing}>
          <legend>${t.typeLegend}</legend>
          <div class="choices type-choices">
            ${TYPES.map((type) =>
              choice(
                'type',
                type,
                this.#type === type,
                () => {
                  this.#type = type;
                  delete this.#errors.type;
                  changed();
                },
                html`${t.types[type]} <span class="tag">v${WIDGET_TYPES[type]}</span>`,
                t.typeDescriptions[type],
              ),
            )}
          </div>
          ${e.type ? html`<p class="field-error" id="type-error">${sayText(e.type)}</p>` : nothing}
        </fieldset>
        <div class="form-grid">
          ${nameField(app, this.#settings, e.name, changed)}
          ${this.#type ? settingsFields(app, this.#type, this.#settings, e, this.#courses, changed) : nothing}
          ${field({
            id: 'widget-origins',
            label: t.origins,
            hint: t.originsHint(app.dev),
            error: e.origins,
            wide: true,
            control: (describedBy, invalid) =>
              html`<textarea
                id="widget-origins"
                name="origins"
                rows="3"
                spellcheck="false"
                autocomplete="off"
                placeholder="https://www.example.com"
                required
                aria-describedby=${describedBy}
                aria-invalid=${invalid}
                .value=${this.#origins}
                @input=${(event: Event) => (this.#origins = (event.target as HTMLTextAreaElement).value)}
              ></textarea>`,
          })}
          <p class="form-actions">
            <button type="submit" aria-disabled=${this.#busy ? 'true' : 'false'}>${this.#busy ? t.saving : t.create}</button>
            <a class="button secondary" href=${href.publish(this.#company.id)}>${t.cancel}</a>
          </p>
        </div>
      </form>
    </div>`;
  }
}
