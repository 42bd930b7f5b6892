/**
 * The app's places, in the address's fragment (the service serves one page, `/app/index.html`): a
 * reload or a link brings a person back to the same view, and the company is in each of them.
 *
 *   #/companies               the company picker
 *   #/c/1/publish             the company's widgets (`?type=calendar`: of one type)
 *   #/c/1/publish/new         a new widget
 *   #/c/1/publish/12          one widget
 *   #/c/1/team                the company's team
 */
import { WIDGET_TYPES, type WidgetType } from '../../contract/index.ts';

export type Route =
  | { name: 'home' }
  | { name: 'companies' }
  | { name: 'publish'; company: number; type?: WidgetType }
  | { name: 'new'; company: number }
  | { name: 'widget'; company: number; id: number }
  | { name: 'team'; company: number };

const ID = /^[1-9]\d{0,9}$/;

export function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'companies' && parts.length === 1) return { name: 'companies' };
  if (parts[0] === 'c' && ID.test(parts[1] ?? '')) {
    const company = Number(parts[1]);
    if (parts[2] === 'team' && parts.length === 3) return { name: 'team', company };
    if (parts[2] === 'publish') {
      if (parts.length === 3) {
        const type = new URLSearchParams(query).get('type');
        return type && type in WIDGET_TYPES
          ? { name: 'publish', company, type: type as WidgetType }
          : { name: 'publish', company };
      }
      if (parts[3] === 'new' && parts.length === 4) return { name: 'new', company };
      if (ID.test(parts[3] ?? '') && parts.length === 4) return { name: 'widget', company, id: Number(parts[3]) };
    }
  }
  return { name: 'home' };
}

export const href = {
  companies: () => '#/companies',
  publish: (company: number, type?: WidgetType) => `#/c/${company}/publish${type ? `?type=${type}` : ''}`,
  create: (company: number) => `#/c/${company}/publish/new`,
  widget: (company: number, id: number) => `#/c/${company}/publish/${id}`,
  team: (company: number) => `#/c/${company}/team`,
};
