/**
 * The app's frame: who is signed in (the session is an HttpOnly cookie the page never sees: it asks
 * `GET /v1/user`), the language, the route and its view, and the header around it. A 401 at any
 * point shows the sign-in in place of the view and keeps the address, so that signing in returns to
 * the same view. Each new view takes the focus on its h1, and names the document.
 */
import { html, nothing, render, type TemplateResult } from 'lit';
import { RestClient, ServiceApiError, type UserInfo } from '../../contract/rest-client.ts';
import { WORDS, initialLang, keepLang, type Lang, type Words } from './i18n.ts';
import { local } from './origins.ts';
import { href, parseRoute, type Route } from './routes.ts';

/** `{base_url}`: where the service is, the app being its `/app/`. */
export const BASE_URL = new URL('..', `${location.origin}${location.pathname}`).href.replace(/\/$/, '');

type User = UserInfo['user'];
export type Company = User['companies'][number];

/** A view: one h1, its content, and what it loads. */
export interface View {
  /** The h1's text, which also names the document. */
  title(): string;
  render(): TemplateResult;
  /** False while the view's own h1 is not there yet (a widget's name is loading). */
  ready?(): boolean;
}

/** Each place's view: a company's places are given the company, in which the user has a role. */
export type Views = { [N in 'sign-in' | 'companies' | 'no-company']: (app: App) => View } & {
  [N in Exclude<Route['name'], 'home' | 'companies'>]: (app: App, company: Company, route: Extract<Route, { name: N }>) => View;
};

export class App {
  lang: Lang = initialLang();
  t: Words = WORDS[this.lang];
  /** undefined: not known yet; null: signed out. */
  user: User | null | undefined;
  /** The service runs in development (its outbox and `http://localhost` origins). */
  dev = false;
  route: Route = parseRoute(location.hash);
  view: View | undefined;
  /** What the sign-in says above its form: why the person is there. */
  notice: 'session-ended' | 'signed-out' | 'invalid-link' | 'rate-limited' | undefined;
  noticeRetryAfter: number | undefined;
  readonly api: RestClient;
  #root: HTMLElement;
  #views: Views;
  #focusHeading = false;
  #focusSelector: string | undefined;
  #scheduled = false;

  constructor(root: HTMLElement, views: Views) {
    this.#root = root;
    this.#views = views;
    this.api = new RestClient({
      baseUrl: BASE_URL,
      apiKey: '',
      session: 'cookie',
      locale: this.lang,
      onUnauthorized: () => this.signedOut('session-ended'),
    });
    document.documentElement.lang = this.lang;
    addEventListener('hashchange', () => this.go());
  }

  get root(): HTMLElement {
    return this.#root;
  }

  /** The company of the route, if the user has a role in it. */
  get company(): Company | undefined {
    const id = 'company' in this.route ? this.route.company : undefined;
    return this.user?.companies.find((c) => c.id === id);
  }

  async start(): Promise<void> {
    // The emailed link: its key is a sign-in, once. It leaves the address at once (no history, no referrer).
    const params = new URLSearchParams(location.search);
    const key = params.get('key');
    if (key !== null) history.replaceState(null, '', `${location.pathname}${location.hash}`);
    // Development (its outbox, its http origins) is a service on this machine's own names; production
    // on another host is never asked, so its console shows no 404.
    if (local(location.host)) {
      void fetch(`${BASE_URL}/dev/seed`)
        .then((r) => {
          this.dev = r.ok;
          this.update();
        })
        .catch(() => undefined);
    }
    if (key) {
      try {
        await this.api.signIn({ key });
      } catch (error) {
        const limited = error instanceof ServiceApiError && error.code === 'rate-limited';
        this.notice = limited ? 'rate-limited' : 'invalid-link';
        this.noticeRetryAfter = limited ? error.retryAfter : undefined;
      }
    }
    await this.#loadUser();
    this.go(false);
  }

  /** Asks who is signed in; null when nobody is. */
  async #loadUser(): Promise<void> {
    try {
      this.user = (await this.api.user()).user;
    } catch {
      this.user = null;
    }
  }

  /** After a sign-in: who it is, then the view the address names. */
  async signedIn(): Promise<void> {
    this.notice = undefined;
    await this.#loadUser();
    this.go();
  }

  /** Shows the sign-in in place of the view (the address stays, for the way back). */
  signedOut(why: 'session-ended' | 'signed-out'): void {
    // A 401 before anybody signed in (the first `GET /v1/user`) is no session ending.
    if (!this.user && why === 'session-ended') return;
    this.user = null;
    this.notice = why;
    this.go();
  }

  async signOut(): Promise<void> {
    try {
      await this.api.signOut();
    } catch {
      // Signed out already, or the service is away: the cookie goes with the token either way.
    }
    history.replaceState(null, '', location.pathname);
    this.signedOut('signed-out');
  }

  setLang(lang: Lang): void {
    this.lang = lang;
    this.t = WORDS[lang];
    keepLang(lang);
    this.api.locale = lang;
    document.documentElement.lang = lang;
    this.update();
  }

  /** Goes to the view the address names (a new view: the focus goes to its h1, unless `focus` is false). */
  go(focus = true): void {
    const { user } = this;
    if (user === undefined) return;
    this.route = parseRoute(location.hash);
    const [only, ...others] = user?.companies ?? [];
    if (this.route.name === 'home' && only && !others.length) {
      history.replaceState(null, '', href.publish(only.id));
      this.route = parseRoute(location.hash);
    }
    this.view = this.#view(user, this.route);
    this.#focusHeading = focus;
    this.update();
  }

  #view(user: User | null, route: Route): View {
    const views = this.#views;
    if (!user) return views['sign-in'](this);
    if (route.name === 'home' || route.name === 'companies') return views.companies(this);
    const company = this.company;
    if (!company) return views['no-company'](this);
    return (views[route.name] as (app: App, company: Company, route: Route) => View)(this, company, route);
  }

  /** Moves the focus to `selector` after the next render (a form's first field at fault). */
  focusAfterRender(selector: string): void {
    this.#focusSelector = selector;
  }

  /** Renders again, once for every change made in the same task. */
  update(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#render();
    });
  }

  #render(): void {
    render(this.#frame(), this.#root);
    const view = this.view;
    if (view) document.title = `${view.title()} – ${this.company ? `${this.company.name} – ` : ''}${this.t.brand}`;
    if (this.#focusSelector) {
      this.#root.querySelector<HTMLElement>(this.#focusSelector)?.focus();
      this.#focusSelector = undefined;
      this.#focusHeading = false;
    } else if (this.#focusHeading && view && (view.ready?.() ?? true)) {
      this.#root.querySelector<HTMLElement>('main h1')?.focus();
      this.#focusHeading = false;
    }
  }

  #frame(): TemplateResult {
    const { t, user, company, route } = this;
    const section = route.name === 'team' ? 'team' : 'publish';
    const skip = (event: Event) => {
      event.preventDefault();
      this.#root.querySelector<HTMLElement>('main')?.focus();
    };
    const other = t.switchLanguageLang;
    return html`<a class="skip-link" href="#main" @click=${skip}>${t.skip}</a>
      <header class="site-header app-header">
        <div class="wrap bar">
          <a class="brand" href="#/"
            ><span class="brand-mark" aria-hidden="true"></span>${t.brand}<span class="tag brand-app">${t.appName}</span></a
          >
          ${
            user && company
              ? html`<nav class="site-nav" aria-label=${`${t.navLabel}: ${company.name}`}>
                <p class="company-name">
                  <bdi>${company.name}</bdi>${
                    user.companies.length > 1 ? html` <a class="switch" href=${href.companies()}>${t.switchCompany}</a>` : nothing
                  }
                </p>
                <ul>
                  <li>
                    <a href=${href.publish(company.id)} aria-current=${section === 'publish' ? 'page' : nothing}>${t.publish}</a>
                  </li>
                  ${
                    company.role === 'lecturer'
                      ? nothing
                      : html`<li>
                        <a href=${href.team(company.id)} aria-current=${section === 'team' ? 'page' : nothing}>${t.team}</a>
                      </li>`
                  }
                </ul>
              </nav>`
              : nothing
          }
          <div class="header-tools">
            <button type="button" class="small secondary" lang=${other} @click=${() => this.setLang(other)}>
              ${t.switchLanguage}
            </button>
            ${
              user
                ? html`<span class="who"
                    ><span class="visually-hidden">${t.signedInAs} </span><bdi>${user.first_name} ${user.last_name}</bdi></span
                  >
                  <button type="button" class="small secondary" @click=${() => void this.signOut()}>${t.signOut}</button>`
                : nothing
            }
          </div>
        </div>
      </header>
      <main id="main" tabindex="-1">
        ${user === undefined ? html`<div class="wrap page"><p class="loading" role="status">${t.loading}</p></div>` : this.view?.render()}
      </main>`;
  }
}
