/**
 * The detail view of a widget: its key (with copy), the exact snippet (the demo's snippet writer),
 * evergreen or pinned to this release (with its SRI hash, and optionally an import map), a live preview, the origins it serves, enabled or not, a new key with a grace period for the old
 * one, its settings, and a check of a page's snippet (the demo checker's check, asking the REST API
 * about keys). Owners change it; members see it and copy its snippet.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { WIDGET_TYPES } from '../../contract/index.ts';
import type { Course, WidgetChange, WidgetInfo } from '../../contract/rest-client.ts';
import { check, openingTag, type Finding, type KeyChecker } from '../../demo/src/check.ts';
import { PINNED } from '../../demo/src/facts.ts';
import { scriptHash, snippet, type Snippet } from '../../demo/src/snippet.ts';
import { BASE_URL, type App, type Company, type View } from './app.ts';
import { date, dateTime } from './i18n.ts';
import { checkOrigin } from './origins.ts';
import { placeholder, type PreviewState } from './preview.ts';
import { href } from './routes.ts';
import {
  checkLinks,
  checkTerms,
  coursesOf,
  nameField,
  optionsOf,
  settingsFields,
  settingsOf,
  type Settings,
  type SettingsErrors,
} from './settings.ts';
import { choice, copy, field, fieldErrors, said, sayText, type Said } from './ui.ts';

type CheckResult = Awaited<ReturnType<typeof check>>;
const GRACES = [0, 1, 24] as const;
/** The snippet's version, as the builder offers it (docs/embedding.md, "Pinned versions"). */
const PINS = ['evergreen', 'loader', 'chunks'] as const;
type Pin = (typeof PINS)[number];
/** The version last chosen in this browser (a preference, no secret): every widget's snippet starts with it. */
const PIN_STORED = 'service-app:pin';
const storedPin = (): Pin => PINS.find((pin) => pin === localStorage.getItem(PIN_STORED)) ?? 'evergreen';
type Section = 'key' | 'snippet' | 'css' | 'origins' | 'state' | 'rotate' | 'settings';

/** A widget the service has just answered with (a new one), for its view to show without asking again. */
let handedOver: { company: number; widget: WidgetInfo } | undefined;

/** Goes to the view of a widget the service has just answered with. */
export function openWidget(company: number, widget: WidgetInfo): void {
  handedOver = { company, widget };
  location.hash = href.widget(company, widget.id);
}

export class WidgetView implements View {
  #app: App;
  #company: Company;
  #id: number;
  #widget: WidgetInfo | undefined;
  #loadError: Said | undefined;
  /** The service has no such widget (another failure may pass: it offers a retry). */
  #notFound = false;
  #courses: Course[] | undefined;
  /** Each section's own line (announced), and the error of a section that has no form of its own. */
  #status: Partial<Record<Section, string>> = {};
  #errors: Partial<Record<'origins' | 'state' | 'rotate', Said>> = {};
  #busy = false;
  #newOrigin = '';
  #grace: (typeof GRACES)[number] = 24;
  #settings: Settings | undefined;
  #settingsErrors: SettingsErrors & { form?: Said } = {};
  #checkAddress = '';
  #checkSource = '';
  #checkSummary = '';
  #checkResult: CheckResult | undefined;
  #preview: { id: string; div: HTMLElement; state: PreviewState } | undefined;
  #pin: Pin = storedPin();
  /** The CSP source of the import map last asked for (it is hashed asynchronously). */
  #importMapHash: { importMap: string; hash?: string } | undefined;

  constructor(app: App, company: Company, id: number) {
    this.#app = app;
    this.#company = company;
    this.#id = id;
    const given = handedOver?.company === company.id && handedOver.widget.id === id ? handedOver.widget : undefined;
    handedOver = undefined;
    if (given) this.#loaded(given);
    else void this.#load();
  }

  get #owner() {
    return this.#company.role === 'owner';
  }

  /** `refocus`: asked again by the visitor, whose focus goes to the heading that names the outcome. */
  async #load(refocus = false) {
    this.#loadError = undefined;
    this.#notFound = false;
    this.#app.update();
    try {
      this.#loaded(await this.#app.api.widget(this.#id, { company: this.#company.id }));
    } catch (error) {
      this.#loadError = said(this.#app.t, error);
      this.#notFound = (error as { code?: string }).code === 'not-found';
    }
    if (refocus) this.#app.focusAfterRender('h1');
    this.#app.update();
  }

  #loaded(widget: WidgetInfo) {
    const app = this.#app;
    this.#show(widget);
    // A page of its first origin (one of any port: port 3000).
    const first = widget.origins[0];
    this.#checkAddress = first ? `${first.replace(/:\*$/, ':3000')}/` : '';
    if (this.#owner)
      void coursesOf(app, this.#company.id).then((c) => {
        this.#courses = c;
        app.update();
      });
  }

  /** The widget as the service answered it: its settings' form starts again from it. */
  #show(widget: WidgetInfo) {
    const shown = this.#widget && this.#snippet().html;
    this.#widget = widget;
    this.#settings = settingsOf(widget);
    // The check's paste is the snippet until the person pastes another: it follows the snippet.
    if (shown === undefined || this.#checkSource === shown) this.#checkSource = this.#snippet().html;
  }

  #snippet(): Snippet {
    const { type, key } = this.#widget!;
    const { locale, options, theme } = settingsOf(this.#widget!);
    const pinned = this.#pin === 'evergreen' ? undefined : { loader: this.#pinnedLoader(), chunks: this.#pin === 'chunks' };
    return snippet({ baseUrl: BASE_URL, type, key, locale, options, theme, ...(pinned ? { pinned } : {}) });
  }

  #pinnedLoader() {
    return PINNED.loaders[WIDGET_TYPES[this.#widget!.type]]!;
  }

  #choosePin(pin: Pin) {
    const shown = this.#snippet().html;
    this.#pin = pin;
    localStorage.setItem(PIN_STORED, pin);
    this.#status.snippet = '';
    if (this.#checkSource === shown) this.#checkSource = this.#snippet().html;
    this.#app.update();
  }

  /** The hash the page's CSP allows the snippet's import map by, once known ('' until then). */
  #cspHash(importMap: string): string {
    if (this.#importMapHash?.importMap !== importMap) {
      const asked = { importMap } as { importMap: string; hash?: string };
      this.#importMapHash = asked;
      void scriptHash(importMap).then((hash) => {
        asked.hash = hash;
        // A later snippet may have asked for another meanwhile.
        if (this.#importMapHash === asked) this.#app.update();
      });
    }
    return this.#importMapHash.hash ?? '';
  }

  title() {
    const { t } = this.#app;
    return this.#widget?.name ?? (this.#notFound ? t.notFoundTitle : this.#loadError ? t.loadFailedTitle : t.loading);
  }

  ready() {
    return this.#widget !== undefined || this.#loadError !== undefined;
  }

  /** Sends a change or asks for a new key; on success shows the answer and says `done` of it. Resolves to the error. */
  async #send(call: () => Promise<WidgetInfo>, section: Section, done: (widget: WidgetInfo) => string): Promise<unknown> {
    this.#busy = true;
    this.#status[section] = this.#app.t.saving;
    this.#app.update();
    try {
      const widget = await call();
      this.#show(widget);
      this.#status[section] = done(widget);
      return undefined;
    } catch (error) {
      this.#status[section] = '';
      return error;
    } finally {
      this.#busy = false;
      this.#app.update();
    }
  }

  #change(change: WidgetChange, section: Section, done: string): Promise<unknown> {
    return this.#send(
      () => this.#app.api.updateWidget(this.#id, change, { company: this.#company.id }),
      section,
      () => done,
    );
  }

  async #addOrigin(raw = this.#newOrigin) {
    if (this.#busy) return;
    const { t, dev } = this.#app;
    const checked = checkOrigin(t, raw, dev);
    const origins = this.#widget!.origins;
    const fault =
      'fault' in checked ? checked.fault : origins.includes(checked.origin) ? t.originDuplicate(checked.origin) : undefined;
    this.#errors.origins = fault === undefined ? undefined : { text: fault };
    if (fault !== undefined || 'fault' in checked) {
      this.#app.focusAfterRender('#new-origin');
      return this.#app.update();
    }
    const error = await this.#change({ origins: [...origins, checked.origin] }, 'origins', t.originAdded(checked.origin));
    if (error) {
      this.#errors.origins = fieldErrors(t, error)?.origins ?? said(t, error);
      this.#app.focusAfterRender('#new-origin');
    } else if (raw === this.#newOrigin) this.#newOrigin = '';
  }

  async #removeOrigin(origin: string) {
    if (this.#busy) return;
    const { t } = this.#app;
    const origins = this.#widget!.origins;
    this.#errors.origins = undefined;
    if (origins.length === 1) {
      this.#errors.origins = { text: t.lastOrigin };
      return this.#app.update();
    }
    const error = await this.#change({ origins: origins.filter((o) => o !== origin) }, 'origins', t.originRemoved(origin));
    if (error) this.#errors.origins = fieldErrors(t, error)?.origins ?? said(t, error);
    // The button is gone with its origin: the focus goes on to the field that adds one.
    this.#app.focusAfterRender('#new-origin');
    this.#app.update();
  }

  async #toggle() {
    if (this.#busy) return;
    const { t } = this.#app;
    const enabled = !this.#widget!.enabled;
    this.#errors.state = undefined;
    const error = await this.#change({ enabled }, 'state', enabled ? t.nowEnabled : t.nowDisabled);
    if (error) this.#errors.state = said(t, error);
  }

  async #rotate() {
    if (this.#busy) return;
    const { t, lang, api } = this.#app;
    const old = this.#widget!.key;
    const graceHours = this.#grace;
    this.#errors.rotate = undefined;
    const error = await this.#send(
      () => api.rotateWidgetKey(this.#id, { company: this.#company.id, graceHours }),
      'rotate',
      (widget) => {
        const until = widget.previous_keys.find((k) => k.key === old)?.valid_until;
        return until && graceHours > 0 ? t.rotated(dateTime(lang, until)) : t.rotatedNow;
      },
    );
    if (error) this.#errors.rotate = said(t, error);
  }

  async #saveSettings() {
    if (this.#busy) return;
    const { t } = this.#app;
    const s = this.#settings!;
    this.#settingsErrors = {};
    if (!s.name.trim()) {
      this.#settingsErrors.name = { text: t.nameMissing };
      this.#app.focusAfterRender('#widget-name');
      return this.#app.update();
    }
    const terms = checkTerms(t, this.#widget!.type, s);
    if (terms) {
      this.#settingsErrors.terms = terms;
      this.#app.focusAfterRender('#option-terms');
      return this.#app.update();
    }
    const link = checkLinks(t, this.#widget!.type, s);
    if (link) {
      this.#settingsErrors.link = link;
      this.#app.focusAfterRender(`#option-${link.option}`);
      return this.#app.update();
    }
    // On an error, what was typed stays: the form's settings are the answer's only after a success.
    const error = await this.#change({ name: s.name.trim(), options: optionsOf(this.#widget!.type, s) }, 'settings', t.saved);
    if (error) {
      this.#settingsErrors = fieldErrors(t, error) ?? { form: said(t, error) };
      this.#app.focusAfterRender(this.#settingsErrors.name ? '#widget-name' : '#widget-locale');
    }
  }

  async #check() {
    const app = this.#app;
    const { t } = app;
    this.#checkResult = undefined;
    let address: URL;
    try {
      address = new URL(this.#checkAddress.trim());
      if (!/^(https?|file):$/.test(address.protocol)) throw new TypeError();
    } catch {
      this.#checkSummary = t.checkNoAddress;
      return app.update();
    }
    if (!this.#checkSource.trim()) {
      this.#checkSummary = t.checkNoSource;
      return app.update();
    }
    this.#checkSummary = t.checking;
    app.update();
    const checkKey: KeyChecker = async (key, type, origin) => {
      try {
        return await app.api.checkWidgetKey(
          { key, ...(type ? { type } : {}), ...(origin ? { origin } : {}) },
          { company: this.#company.id },
        );
      } catch (error) {
        return t.checkKeyFailed(said(t, error).text);
      }
    };
    const result = await check(this.#checkSource, address, checkKey);
    const { page, results } = result;
    const problems = [...page, ...results.flatMap((r) => r.findings)].filter((f) => f.kind === 'problem').length;
    const failing = page.length ? results.length : results.filter((r) => r.findings.some((f) => f.kind === 'problem')).length;
    this.#checkResult = result;
    this.#checkSummary =
      results.length === 0
        ? t.checkNone
        : problems === 0
          ? t.checkFine(results.length, address.origin)
          : t.checkProblems(problems, failing, results.length, page.length > 0);
    app.update();
  }

  render(): TemplateResult {
    const app = this.#app;
    const { t, lang } = app;
    const w = this.#widget;
    const back = html`<p class="breadcrumb"><a href=${href.publish(this.#company.id)}>${t.back}</a></p>`;
    if (!w) {
      return html`<div class="wrap page">
        ${back}
        <h1 tabindex="-1">${this.title()}</h1>
        ${
          this.#loadError
            ? html`<p class="note bad" role="alert">${sayText(this.#loadError)}</p>
                ${this.#notFound ? '' : html`<p><button type="button" @click=${() => void this.#load(true)}>${t.retry}</button></p>`}`
            : html`<p class="loading" role="status">${t.loading}</p>`
        }
      </div>`;
    }
    const written = this.#snippet();
    return html`<div class="wrap page widget-page">
      ${back}
      <h1 tabindex="-1"><bdi>${w.name}</bdi></h1>
      <dl class="facts-list" aria-label=${t.detailFacts}>
        <div><dt>${t.colType}</dt><dd>${t.types[w.type]}</dd></div>
        <div><dt>${t.colLoader}</dt><dd>${w.loader}</dd></div>
        <div>
          <dt>${t.colState}</dt>
          <dd><span class=${w.enabled ? 'badge ok' : 'badge off'}>${w.enabled ? t.enabled : t.disabled}</span></dd>
        </div>
        <div><dt>${t.colCreated}</dt><dd>${date(lang, w.created_at)}</dd></div>
      </dl>
      ${this.#owner ? nothing : html`<p class="note member-note">${t.memberNote}</p>`}
      <div class="detail-grid">${this.#keySection(w)} ${this.#snippetSection(written)}</div>
      ${this.#previewSection(w, written)}
      <div class="split">
        ${this.#originsSection(w)}
        <div class="stack">${this.#stateSection(w)} ${this.#owner ? this.#rotateSection() : nothing}</div>
      </div>
      ${this.#owner ? this.#settingsSection(w) : nothing} ${this.#checkSection(w)}
    </div>`;
  }

  #copyButton(label: string, text: string, shown: string, section: 'key' | 'snippet' | 'css') {
    return html`<button
      type="button"
      class="small"
      @click=${async () => {
        this.#status[section] = '';
        this.#app.update();
        this.#status[section] = await copy(this.#app.t, text, this.#app.root.querySelector(shown));
        this.#app.update();
      }}
    >
      ${label}
    </button>`;
  }

  #keySection(w: WidgetInfo) {
    const { t, lang } = this.#app;
    return html`<section class="card" aria-labelledby="key-title">
      <h2 id="key-title">${t.keyTitle}</h2>
      <p class="key-line"><code id="widget-key" class="key">${w.key}</code></p>
      <p class="snippet-actions">
        ${this.#copyButton(t.copyKey, w.key, '#widget-key', 'key')}
        <span class="copied" role="status">${this.#status.key}</span>
      </p>
      <p class="hint">${t.keyHint}</p>
      ${
        w.previous_keys.length
          ? html`<h3 class="small-heading">${t.previousKeys}</h3>
            <p class="hint" id="previous-keys-hint">${t.previousKeysHint}</p>
            <ul class="plain-list previous-keys" aria-describedby="previous-keys-hint">
              ${w.previous_keys.map(
                (k) =>
                  html`<li><code>${k.key}</code> <span class="muted">${t.validUntil} ${dateTime(lang, k.valid_until)}</span></li>`,
              )}
            </ul>`
          : nothing
      }
    </section>`;
  }

  #snippetSection(written: Snippet) {
    const { t } = this.#app;
    const hash = written.importMap ? this.#cspHash(written.importMap) : '';
    return html`<section class="card" aria-labelledby="snippet-title">
      <h2 id="snippet-title">${t.snippetTitle}</h2>
      <p class="hint snippet-hint">${t.snippetHint}</p>
      <fieldset class="pin-choice" aria-describedby="pin-hint">
        <legend class="small-legend">${t.versionLegend}</legend>
        <p class="hint" id="pin-hint">${t.versionHint(PINNED.release, `${BASE_URL}/widgets/${this.#pinnedLoader().path}`)}</p>
        <div class="choices compact">
          ${PINS.map((pin) => choice('pin', pin, this.#pin === pin, () => this.#choosePin(pin), t.pins[pin], t.pinHints[pin]))}
        </div>
      </fieldset>
      ${hash ? html`<p class="note csp-note" id="csp-note">${t.cspNote(hash)}</p>` : nothing}
      <pre class="code" tabindex="0" aria-labelledby="snippet-title"><code id="snippet-html">${written.html}</code></pre>
      <p class="snippet-actions">
        ${this.#copyButton(t.copySnippet, written.html, '#snippet-html', 'snippet')}
        <span class="copied" role="status">${this.#status.snippet}</span>
      </p>
      ${
        written.css
          ? html`<h3 class="small-heading" id="css-title">${t.cssTitle}</h3>
            <p class="hint">${t.cssHint}</p>
            <pre class="code" tabindex="0" aria-labelledby="css-title"><code id="snippet-css">${written.css}</code></pre>
            <p class="snippet-actions">
              ${this.#copyButton(t.copyCss, written.css, '#snippet-css', 'css')}
              <span class="copied" role="status">${this.#status.css}</span>
            </p>`
          : nothing
      }
    </section>`;
  }

  #previewSection(w: WidgetInfo, written: Snippet) {
    const { t } = this.#app;
    const id = JSON.stringify([written.attributes, written.css]);
    if (this.#preview?.id !== id) {
      const made = placeholder(w.type, written, (state) => {
        if (this.#preview?.div !== made.div) return;
        this.#preview.state = state;
        this.#app.update();
      });
      this.#preview = { id, div: made.div, state: { state: 'loading' } };
      // Mounted once the render has put it into the page.
      queueMicrotask(() => void made.start());
    }
    const { state } = this.#preview;
    return html`<section class="card preview-card" aria-labelledby="preview-title">
      <h2 id="preview-title">${t.previewTitle}</h2>
      <p class="hint">${t.previewHint}</p>
      <p class="status-text" role="status">
        ${state.state === 'loading' ? t.previewLoading : state.state === 'ready' ? t.previewReady : t.previewError(state.code)}
      </p>
      <div class="preview-frame">${this.#preview.div}</div>
    </section>`;
  }

  #originsSection(w: WidgetInfo) {
    const { t, dev } = this.#app;
    return html`<section class="card" aria-labelledby="origins-title">
      <h2 id="origins-title">${t.originsTitle}</h2>
      <p class="hint">${t.originsLead}</p>
      <ul class="origin-list">
        ${w.origins.map(
          (origin) =>
            html`<li>
              <code>${origin}</code>
              ${
                this.#owner
                  ? html`<button
                    type="button"
                    class="small secondary"
                    aria-label=${t.remove(origin)}
                    aria-disabled=${this.#busy ? 'true' : 'false'}
                    @click=${() => void this.#removeOrigin(origin)}
                  >
                    ${t.removeShort}
                  </button>`
                  : nothing
              }
            </li>`,
        )}
      </ul>
      ${
        this.#owner
          ? html`<form
            class="add-origin"
            novalidate
            @submit=${(e: Event) => {
              e.preventDefault();
              if (!this.#busy) void this.#addOrigin();
            }}
          >
            ${field({
              id: 'new-origin',
              label: t.newOrigin,
              hint: t.originHint(dev),
              error: this.#errors.origins,
              control: (describedBy, invalid) =>
                html`<span class="input-with-button">
                  <input
                    id="new-origin"
                    type="url"
                    spellcheck="false"
                    autocomplete="off"
                    placeholder="https://www.example.com"
                    aria-describedby=${describedBy}
                    aria-invalid=${invalid}
                    .value=${this.#newOrigin}
                    @input=${(e: Event) => (this.#newOrigin = (e.target as HTMLInputElement).value)}
                  />
                  <button type="submit" aria-disabled=${this.#busy ? 'true' : 'false'}>${t.addOrigin}</button>
                </span>`,
            })}
          </form>`
          : this.#errors.origins
            ? html`<p class="field-error">${sayText(this.#errors.origins)}</p>`
            : nothing
      }
      <p class="status-text" role="status">${this.#status.origins}</p>
    </section>`;
  }

  #stateSection(w: WidgetInfo) {
    const { t } = this.#app;
    return html`<section class="card" aria-labelledby="state-title">
      <h2 id="state-title">${t.stateTitle}</h2>
      <p>${w.enabled ? t.enabledText : t.disabledText}</p>
      ${
        this.#owner
          ? html`<p>
            <button type="button" class="secondary" aria-disabled=${this.#busy ? 'true' : 'false'} @click=${() => void this.#toggle()}>
              ${w.enabled ? t.disable : t.enable}
            </button>
          </p>`
          : nothing
      }
      ${this.#errors.state ? html`<p class="field-error">${sayText(this.#errors.state)}</p>` : nothing}
      <p class="status-text" role="status">${this.#status.state}</p>
    </section>`;
  }

  #rotateSection() {
    const { t } = this.#app;
    const dialog = () => this.#app.root.querySelector<HTMLDialogElement>('#rotate-dialog');
    return html`<section class="card" aria-labelledby="rotate-title">
      <h2 id="rotate-title">${t.rotateTitle}</h2>
      <p class="hint">${t.rotateLead}</p>
      <fieldset>
        <legend class="small-legend">${t.graceLegend}</legend>
        <div class="choices compact">
          ${GRACES.map((hours) =>
            choice(
              'grace',
              hours,
              this.#grace === hours,
              () => {
                this.#grace = hours;
                this.#app.update();
              },
              t.graces[hours]!,
            ),
          )}
        </div>
      </fieldset>
      <p>
        <button type="button" class="secondary" aria-disabled=${this.#busy ? 'true' : 'false'} @click=${() => !this.#busy && dialog()?.showModal()}>${t.rotate}</button>
      </p>
      ${this.#errors.rotate ? html`<p class="field-error">${sayText(this.#errors.rotate)}</p>` : nothing}
      <p class="status-text" role="status">${this.#status.rotate}</p>
      <dialog id="rotate-dialog" class="card dialog" aria-labelledby="rotate-dialog-title" aria-describedby="rotate-dialog-text">
        <h2 id="rotate-dialog-title">${t.rotateConfirmTitle}</h2>
        <p id="rotate-dialog-text">${t.rotateConfirm(t.graceWords[this.#grace]!)}</p>
        <p class="form-actions">
          <button
            type="button"
            @click=${() => {
              dialog()?.close();
              void this.#rotate();
            }}
          >
            ${t.rotateYes}
          </button>
          <button type="button" class="secondary" @click=${() => dialog()?.close()}>${t.cancel}</button>
        </p>
      </dialog>
    </section>`;
  }

  #settingsSection(w: WidgetInfo) {
    const app = this.#app;
    const { t } = app;
    const s = this.#settings!;
    const e = this.#settingsErrors;
    return html`<section class="card" aria-labelledby="settings-title">
      <h2 id="settings-title">${t.settingsTitle}</h2>
      <form
        novalidate
        aria-labelledby="settings-title"
        @submit=${(event: Event) => {
          event.preventDefault();
          if (!this.#busy) void this.#saveSettings();
        }}
      >
        ${e.form ? html`<p class="note bad" role="alert">${sayText(e.form)}</p>` : nothing}
        <div class="form-grid">
          ${nameField(app, s, e.name, () => app.update())}
          ${settingsFields(app, w.type, s, e, this.#courses, () => app.update())}
          <p class="form-actions">
            <button type="submit" aria-disabled=${this.#busy ? 'true' : 'false'}>${t.save}</button>
            <span class="status-text" role="status">${this.#status.settings}</span>
          </p>
        </div>
      </form>
    </section>`;
  }

  #checkSection(w: WidgetInfo) {
    const app = this.#app;
    const { t } = app;
    const result = this.#checkResult;
    const finding = (f: Finding) =>
      html`<li class=${f.kind}>
        <span class="code-label">${f.kind === 'problem' ? f.code : f.code === 'ready' ? 'ready' : t.checkNote}</span>
        <p lang="en">${f.message}</p>
        ${
          f.serve && this.#owner && f.serve.key === w.key && !w.origins.includes(f.serve.origin)
            ? html`<button
              type="button"
              class="small secondary"
              aria-disabled=${this.#busy ? 'true' : 'false'}
              @click=${async () => {
                await this.#addOrigin(f.serve!.origin);
                if (!this.#errors.origins) void this.#check();
              }}
            >
              ${t.addThisOrigin(f.serve.origin)}
            </button>`
            : nothing
        }
      </li>`;
    return html`<section class="card" aria-labelledby="check-title">
      <h2 id="check-title">${t.checkTitle}</h2>
      <p class="hint">${t.checkLead}</p>
      <div class="split check-split">
        <form
          novalidate
          aria-labelledby="check-title"
          @submit=${(e: Event) => {
            e.preventDefault();
            void this.#check();
          }}
        >
          ${field({
            id: 'check-address',
            label: t.pageAddress,
            hint: t.pageAddressHint,
            control: (describedBy) =>
              html`<input
                id="check-address"
                type="url"
                spellcheck="false"
                autocomplete="off"
                placeholder="https://www.example.com/courses"
                aria-describedby=${describedBy}
                .value=${this.#checkAddress}
                @input=${(e: Event) => (this.#checkAddress = (e.target as HTMLInputElement).value)}
              />`,
          })}
          ${field({
            id: 'check-source',
            label: t.pageSource,
            hint: t.pageSourceHint,
            control: (describedBy) =>
              html`<textarea
                id="check-source"
                rows="8"
                spellcheck="false"
                aria-describedby=${describedBy}
                .value=${this.#checkSource}
                @input=${(e: Event) => (this.#checkSource = (e.target as HTMLTextAreaElement).value)}
              ></textarea>`,
          })}
          <p class="form-actions"><button type="submit">${t.check}</button></p>
        </form>
        <div>
          <p class="status-line" role="status">${this.#checkSummary}</p>
          ${
            result
              ? html`<ol class="result-list">
                ${
                  result.page.length
                    ? html`<li class="result">
                      <h3>${t.checkPage}</h3>
                      <ul class="issue-list">
                        ${result.page.map(finding)}
                      </ul>
                    </li>`
                    : nothing
                }
                ${result.results.map(
                  ({ element, type, key, findings }, i) =>
                    html`<li class="result">
                      <h3>${i + 1}. ${type || '?'}${key ? ` · ${key}` : ''}</h3>
                      <pre class="code" tabindex="0" aria-label=${`${i + 1}. ${type}`}>${openingTag(element)}</pre>
                      <ul class="issue-list">
                        ${findings.map(finding)}
                      </ul>
                    </li>`,
                )}
              </ol>`
              : nothing
          }
        </div>
      </div>
    </section>`;
  }
}
