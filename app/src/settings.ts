/**
 * A widget's settings as the create form and the widget's view ask for them: its name, language,
 * the options of its type (the contract's `OPTIONS`, which the snippet writes as `data-service-*`)
 * and its colours (the custom properties the custom-elements manifest lists, with their defaults, as
 * the demo's builder offers them). They are stored in the widget's `options`; what the service keeps
 * there besides (a contact form's topics, a map's tiles) is kept as it is.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { siteLink } from '../../contract/links.ts';
import { termsUrl } from '../../contract/terms.ts';
import { OPTIONS, type WidgetType } from '../../contract/index.ts';
import type { Course, WidgetInfo } from '../../contract/rest-client.ts';
import { FACTS } from '../../demo/src/facts.ts';
import type { App } from './app.ts';
import { field, sayText, type Said } from './ui.ts';

export interface Settings {
  name: string;
  locale: '' | 'en' | 'de';
  options: Record<string, string>;
  theme: Record<string, string>;
  /** What else the widget's options hold, kept as it is. */
  rest: Record<string, unknown>;
}

export type SettingsErrors = Partial<Record<'name' | 'options' | 'terms', Said>> & {
  /** An option that is a page of the site (`checkout-url`, `booking-url`) the widget would not link. */
  link?: { option: string; said: Said };
};

/** A checkout's terms as the service takes them (an https address), checked before sending: its fault, if any. */
export const checkTerms = (t: App['t'], type: WidgetType, s: Settings): Said | undefined =>
  type !== 'checkout' || s.rest.terms === undefined || termsUrl(s.rest.terms) ? undefined : { text: t.termsFormat };

/** The first option of the type that names a page of the site (`…-url`) and that the widget would not link (contract/links.ts). */
export const checkLinks = (t: App['t'], type: WidgetType, s: Settings): SettingsErrors['link'] => {
  const option = OPTIONS[type].find((name) => name.endsWith('-url') && s.options[name]?.trim() && !siteLink(s.options[name]));
  return option ? { option, said: { text: t.linkFormat(option.slice(0, -4)) } } : undefined;
};

/** The colours offered: the widgets' accent and the text on it. */
const COLOURS = ['--service-accent', '--service-on-accent'];

const colours = (type: WidgetType) =>
  (FACTS[type]?.cssProperties ?? []).filter((p) => COLOURS.includes(p.name) && p.default.startsWith('#'));

/** `#fff` → `#ffffff`: what a colour input holds. */
const hex6 = (value: string) => (/^#[0-9a-f]{3}$/i.test(value) ? `#${[...value.slice(1)].map((c) => c + c).join('')}` : value);

export const emptySettings = (): Settings => ({ name: '', locale: '', options: {}, theme: {}, rest: {} });

export function settingsOf(widget: WidgetInfo): Settings {
  const { locale, theme, ...others } = widget.options as Record<string, unknown>;
  const options: Record<string, string> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(others)) {
    if (OPTIONS[widget.type].includes(name) && typeof value === 'string') options[name] = value;
    else rest[name] = value;
  }
  return {
    name: widget.name,
    locale: locale === 'en' || locale === 'de' ? locale : '',
    options,
    theme:
      theme && typeof theme === 'object'
        ? Object.fromEntries(Object.entries(theme).filter((e): e is [string, string] => typeof e[1] === 'string'))
        : {},
    rest,
  };
}

/** The widget's `options` as the API takes them: the language, the type's options that are set, the colours. */
export function optionsOf(type: WidgetType, s: Settings): Record<string, unknown> {
  // A checkout's terms go with a checkout only (a type changed in the create form leaves them behind).
  const { terms, ...rest } = s.rest;
  const options: Record<string, unknown> = type === 'checkout' && terms !== undefined ? { ...rest, terms } : rest;
  if (s.locale) options.locale = s.locale;
  for (const name of OPTIONS[type]) if (s.options[name]?.trim()) options[name] = s.options[name]!.trim();
  const theme = Object.fromEntries(colours(type).flatMap(({ name }) => (s.theme[name] ? [[name, s.theme[name]]] : [])));
  if (Object.keys(theme).length) options.theme = theme;
  return options;
}

const courses = new Map<number, Promise<Course[]>>();
/** The company's programmes, for the programme and place choices (asked once per company). */
export function coursesOf(app: App, company: number): Promise<Course[]> {
  if (!courses.has(company)) {
    courses.set(
      company,
      app.api
        .courses({ company, perPage: 100 })
        .then((page) => page.courses)
        .catch(() => {
          courses.delete(company);
          return [];
        }),
    );
  }
  return courses.get(company)!;
}

/** The name field. */
export function nameField(app: App, s: Settings, error: Said | undefined, changed: () => void): TemplateResult {
  const { t } = app;
  return field({
    id: 'widget-name',
    label: t.name,
    hint: t.nameHint,
    error,
    wide: true,
    control: (describedBy, invalid) =>
      html`<input
        id="widget-name"
        name="name"
        type="text"
        maxlength="100"
        autocomplete="off"
        required
        .value=${s.name}
        aria-describedby=${describedBy}
        aria-invalid=${invalid}
        @input=${(e: Event) => {
          s.name = (e.target as HTMLInputElement).value;
          changed();
        }}
      />`,
  });
}

/** The language, the type's options and its colours. */
export function settingsFields(
  app: App,
  type: WidgetType,
  s: Settings,
  errors: SettingsErrors,
  known: Course[] | undefined,
  changed: () => void,
): TemplateResult {
  const { t } = app;
  const set = (name: string) => (e: Event) => {
    s.options[name] = (e.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement).value;
    changed();
  };
  const option = (name: string) => {
    const id = `option-${name}`;
    const value = s.options[name] ?? '';
    const choices =
      name === 'course'
        ? (known ?? []).map((c) => [c.id, c.title] as const)
        : name === 'location'
          ? [...new Set((known ?? []).flatMap((c) => c.classes.map((k) => k.location.split(',')[0]!.trim())))]
              .sort()
              .map((city) => [city, city] as const)
          : [];
    const select = (name === 'course' || name === 'location') && choices.length > 0;
    const hint = name === 'course' && !select ? t.optionHints.courseText : t.optionHints[name];
    return field({
      id,
      label: t.optionLabels[name] ?? `data-service-${name}`,
      hint,
      error: errors.link?.option === name ? errors.link.said : undefined,
      wide: name === 'prefill-message',
      control: (describedBy, invalid) =>
        select
          ? html`<select id=${id} aria-describedby=${describedBy} @change=${set(name)}>
              <option value="" ?selected=${!value}>${name === 'course' ? t.allCourses : t.allPlaces}</option>
              ${choices.map(([v, label]) => html`<option value=${v} ?selected=${v === value}>${label}</option>`)}
              ${value && !choices.some(([v]) => v === value) ? html`<option value=${value} selected>${value}</option>` : nothing}
            </select>`
          : name === 'prefill-message'
            ? html`<textarea id=${id} rows="3" aria-describedby=${describedBy} .value=${value} @input=${set(name)}></textarea>`
            : html`<input
                id=${id}
                type=${name === 'prefill-email' ? 'email' : 'text'}
                inputmode=${name.endsWith('-url') ? 'url' : nothing}
                autocomplete="off"
                spellcheck="false"
                placeholder=${name.endsWith('-url') ? `https://www.example.com/${name.slice(0, -4)}` : name === 'classes' ? 'cls_web_1' : nothing}
                aria-describedby=${describedBy}
                aria-invalid=${invalid}
                .value=${value}
                @input=${set(name)}
              />`,
    });
  };
  // A checkout's terms: the service's own option (kept with the rest), an https address.
  const terms =
    type === 'checkout'
      ? field({
          id: 'option-terms',
          label: t.termsLabel,
          hint: t.termsHint,
          error: errors.terms,
          control: (describedBy, invalid) =>
            html`<input
              id="option-terms"
              type="url"
              autocomplete="off"
              spellcheck="false"
              placeholder="https://www.example.com/terms"
              aria-describedby=${describedBy}
              aria-invalid=${invalid}
              .value=${typeof s.rest.terms === 'string' ? s.rest.terms : ''}
              @input=${(e: Event) => {
                const value = (e.target as HTMLInputElement).value.trim();
                if (value) s.rest.terms = value;
                else delete s.rest.terms;
                changed();
              }}
            />`,
        })
      : nothing;
  const palette = colours(type);
  return html`${field({
    id: 'widget-locale',
    label: t.language,
    hint: t.languageHint,
    control: (describedBy) =>
      html`<select
          id="widget-locale"
          aria-describedby=${describedBy}
          @change=${(e: Event) => {
            s.locale = (e.target as HTMLSelectElement).value as Settings['locale'];
            changed();
          }}
        >
          <option value="" ?selected=${!s.locale}>${t.pageLanguage}</option>
          <option value="en" ?selected=${s.locale === 'en'}>${t.english}</option>
          <option value="de" ?selected=${s.locale === 'de'}>${t.german}</option>
        </select>`,
  })}
    <fieldset class="wide">
      <legend>${t.optionsLegend}</legend>
      ${
        OPTIONS[type].length
          ? html`<div class="form-grid">${OPTIONS[type].map(option)} ${terms}</div>`
          : html`<p class="hint">${t.noOptions}</p>`
      }
      ${errors.options ? html`<p class="field-error" id="options-error">${sayText(errors.options)}</p>` : nothing}
    </fieldset>
    ${
      palette.length
        ? html`<fieldset class="wide" aria-describedby="colours-hint">
          <legend>${t.colours}</legend>
          <p class="hint" id="colours-hint">${t.coloursHint}</p>
          <div class="form-grid colours">
            ${palette.map(({ name, default: fallback }) => {
              const id = `colour${name}`;
              const value = hex6(s.theme[name] ?? fallback);
              return html`<div class="field">
                <label for=${id}>${t.colourNames[name] ?? name}</label>
                <span class="color-field">
                  <input
                    id=${id}
                    type="color"
                    .value=${value}
                    aria-describedby=${`${id}-hint`}
                    @input=${(e: Event) => {
                      const next = (e.target as HTMLInputElement).value;
                      if (next.toLowerCase() === hex6(fallback).toLowerCase()) delete s.theme[name];
                      else s.theme[name] = next;
                      changed();
                    }}
                  />
                  <code>${value}</code>
                </span>
                <p class="hint" id=${`${id}-hint`}>${t.colourHints[name] ?? ''} ${t.defaultColour(fallback)}</p>
              </div>`;
            })}
          </div>
          ${
            Object.keys(s.theme).length
              ? html`<p>
                <button
                  type="button"
                  class="small secondary"
                  @click=${() => {
                    s.theme = {};
                    app.focusAfterRender(`#colour${palette[0]!.name}`);
                    changed();
                  }}
                >
                  ${t.resetColours}
                </button>
              </p>`
              : nothing
          }
        </fieldset>`
        : nothing
    }`;
}
