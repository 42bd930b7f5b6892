/**
 * The map widget (docs/widget-api.md, "Places"): the first render lists the company's places with
 * their next classes and names the map tiles; in development the service also serves a plain tile,
 * so that a map works on a machine without internet.
 */
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { ServiceDeps } from '../../http/context.ts';
import { send } from '../../http/static.ts';
import { SubApp } from '../../http/routes.ts';
import { widgetInfo, type WidgetKeyRow } from '../../widget-api/keys.ts';
import type { MapTiles } from '../../../contract/api/widget-keys.ts';
import { listPlaces } from './store.ts';

/** The tiles of a key that names none: OpenStreetMap's standard tiles, with their attribution. */
export const DEFAULT_TILES: MapTiles = {
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '© OpenStreetMap contributors',
};

const TILE = fileURLToPath(new URL('../../media/tile.png', import.meta.url));

/** What `GET /widget?type=map` adds: the tiles (always named) and the places. */
async function mapFirstRender(deps: ServiceDeps, key: WidgetKeyRow) {
  const widget = widgetInfo(key);
  const tiles = { ...DEFAULT_TILES, ...widget.options.tiles };
  return {
    widget: { ...widget, options: { ...widget.options, tiles } },
    places: await listPlaces(deps.store.db, key.company_id, deps.clock.now()),
  };
}

export function placeRoutes(deps: ServiceDeps): SubApp[] {
  deps.firstRenders.add('map', (key) => mapFirstRender(deps, key));
  if (!deps.dev) return [];
  const app = new SubApp('/dev/tiles');
  const coordinate = (name: string, example: string) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string', examples: [example] },
  });
  // One plain tile for every address: a map of the seeded demo keys works without internet.
  deps.api.add(
    app,
    {
      method: 'get',
      path: '/dev/tiles/{z}/{x}/{y}.png',
      tags: ['Development'],
      operationId: 'devTile',
      summary: 'One plain map tile for any address (the seeded map key’s tiles), so that a map works without internet',
      security: [],
      dev: true,
      parameters: [coordinate('z', '5'), coordinate('x', '17'), coordinate('y', '10')],
      responses: { '200': { description: 'The tile', files: ['image/png'] } },
    },
    async (c) =>
      send(c.req.raw, TILE, await stat(TILE), {
        'Access-Control-Allow-Origin': '*',
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'Cache-Control': 'public, max-age=86400',
      }),
  );
  return [app];
}
