import { expect } from '@open-wc/testing';
import { keyOf, service } from '../../test/browser/support.ts';
import { WidgetApi } from './api.ts';

/**
 * The API client's GETs against the reference service: asked at once for the same URL, one request
 * answers every caller; a caller that stopped waiting gets no answer (the others get theirs).
 */
describe('WidgetApi, GETs', () => {
  const api = () => new WidgetApi({ baseUrl: service.url, key: keyOf('registration'), locale: 'en' });
  const realFetch = window.fetch;
  let sent: string[];
  beforeEach(() => {
    sent = [];
    window.fetch = (input, init) => (sent.push(String(input)), realFetch(input, init));
  });
  afterEach(() => (window.fetch = realFetch));

  it('asked for the same URL at once, makes one request; asked again later, another', async () => {
    const params = { type: 'registration' };
    const [a, b] = (await Promise.all([api().request('widget', { params }), api().request('widget', { params })])) as {
      widget: { company: { id: string } };
    }[];
    expect(sent).to.have.length(1);
    expect(a!.widget.company.id).to.equal('c_acme');
    expect(b).to.deep.equal(a);
    await api().request('widget', { params });
    expect(sent).to.have.length(2);
  });

  const ask = (params: Record<string, string>, signal?: AbortSignal) =>
    api()
      .request('courses', { params, signal })
      .then(
        (answer) => ((answer as { courses: unknown[] }).courses.length ? 'answered' : 'empty'),
        (error: Error) => error.name,
      );

  it('a caller that stopped waiting gets no answer; the one whose request it shared gets its own', async () => {
    const stop = new AbortController();
    const first = ask({ q: 'type', page: '1' });
    const stopped = ask({ q: 'type', page: '1' }, stop.signal);
    stop.abort();
    expect(await Promise.all([first, stopped])).to.deep.equal(['answered', 'AbortError']);
    expect(sent).to.have.length(1);
  });

  it('the first caller stopping its request fails the others, who ask again and get their answer', async () => {
    const stop = new AbortController();
    const stopped = ask({ q: 'web', page: '1' }, stop.signal);
    const other = ask({ q: 'web', page: '1' });
    stop.abort();
    expect(await Promise.all([stopped, other])).to.deep.equal(['AbortError', 'answered']);
    expect(sent).to.have.length(2);
  });
});
