/**
 * More of a month than its answer holds. The calendar's answer brings every day's count and the
 * first page of the month's classes (20), which is the whole month for most companies; for a bigger
 * month this chunk, fetched when one is shown, lists the month's further pages on "More classes" and a
 * day's own classes in the month view (`GET /calendar?day=…&page=…`).
 */
import { html } from 'lit';
import type { CalendarClass, CalendarResponse } from '../../contract/api/index.ts';
import { dateFormat } from '../shared/format.ts';
import type { Locale } from '../shared/i18n.ts';
import type { ServiceCalendar, t } from './calendar.ts';

/**
 * The button's words, in the widget's languages: they come with this chunk, which only comes for a
 * big month ("Show more" is the first view's, which shows what is there).
 */
const MORE: Record<Locale, string> = { en: 'More classes', de: 'Weitere Termine' };

/** A page asked for: on the way, failed, or come. */
type Page = Promise<unknown> | Error | CalendarResponse;

export class CalendarPages {
  /** By month answer (a month with its filters; an order that took seats brings a new one): each page asked for, by day and page. */
  #pages = new WeakMap<CalendarResponse, Map<string, Page>>();

  constructor(
    readonly element: ServiceCalendar,
    readonly words: typeof t,
    /** Asks the service for a part of a month, with the filters in force. */
    readonly request: (params: Record<string, string>) => Promise<unknown>,
  ) {
    // The calendar shows the pages from now on.
    element.requestUpdate();
  }

  /**
   * The classes of the month (`day` empty) or of one of its days as far as the visitor asked for
   * them, and what follows them: a button for more, a failure with a retry, or nothing; undefined
   * while the first of them are on the way (the calendar shows what the month's answer holds).
   */
  list(month: CalendarResponse, day: string): [CalendarClass[], unknown] | undefined {
    const pages = this.#pages.get(month) ?? new Map<string, Page>([['1', month]]);
    this.#pages.set(month, pages);
    const locale = this.element.resolvedLocale;
    const classes: CalendarClass[] = [];
    for (let page = 1; ; page++) {
      const answer = pages.get(day + page);
      const ask = () => this.#fetch(pages, { month: month.month, day, page: '' + page }, classes.length);
      if (!answer && page === 1) return void ask();
      // On the way: the first page is awaited; the button for a further one stays (and keeps the focus).
      if (answer instanceof Promise && page === 1) return undefined;
      if (!answer || answer instanceof Promise)
        return [
          classes,
          html`<button class="secondary further" aria-busy=${!!answer} @click=${() => answer || ask()}>
            ${MORE[locale]}
          </button>`,
        ];
      if (answer instanceof Error)
        return [
          classes,
          html`<p class="notice error" role="alert">
            ${answer.message} <button class="link" @click=${ask}>${this.words(locale, 'retry')}</button>
          </p>`,
        ];
      classes.push(...answer.classes);
      if (classes.length >= answer.classes_total) return [classes, undefined];
    }
  }

  /**
   * A page, once; again after a failure, which is said in the visitor's words. The classes shown
   * before it were `shown`: when the last page comes, its button goes, and the focus it had goes to
   * the first class of the page.
   */
  #fetch(pages: Map<string, Page>, params: Record<string, string>, shown: number) {
    const id = params.day! + params.page;
    const root = this.element.renderRoot;
    const asked = this.request(params).then(
      (data) => pages.set(id, data as CalendarResponse),
      () => {
        const locale = this.element.resolvedLocale;
        const month = dateFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
          Date.parse(params.month + '-01'),
        );
        pages.set(id, new Error(this.words(locale, 'failed', { month })));
      },
    );
    pages.set(
      id,
      asked.finally(async () => {
        const focused = root.querySelector('.further:focus');
        this.element.requestUpdate();
        await this.element.updateComplete;
        const first = root.querySelectorAll<HTMLElement>('li.class')[shown];
        if (focused && !focused.isConnected && first) {
          first.tabIndex = -1;
          first.focus();
        }
      }),
    );
  }
}
