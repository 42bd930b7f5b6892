/**
 * The gallery (index.html): each card's snippet with this service's address, its copy button, and
 * the events of its widget as they happen. The cards and their placeholders are written by the
 * build; the loaders in the page's head mount the widgets.
 */
import type { WidgetType } from '../../contract/index.ts';
import { $, $$, copy, eventNames, logEvents } from './dom.ts';
import { FACTS } from './facts.ts';
import { SHOWCASE } from './showcase.ts';
import { snippet } from './snippet.ts';

for (const card of $$('.showcase')) {
  const div = $('[data-service-widget]', card);
  const type = div.dataset.serviceWidget as WidgetType;
  const code = $(`[data-snippet]`, card);
  const { key, options } = SHOWCASE.find((item) => item.type === type)!;
  code.textContent = snippet({ baseUrl: location.origin, type, key, options }).html;
  $('[data-copy]', card).addEventListener('click', () => void copy(code.textContent!, $('.copied', card), code));
  logEvents(div, $('[data-events]', card), eventNames(FACTS[type]?.events));
}
