/** The `widget` object of a first render. */
import { z } from 'zod';
import { WIDGET_TYPES as TYPE_TABLE, type WidgetType as Type } from '../index.ts';

/** The widget types as a list (here, not in the embed's contract: the loaders need no list). */
export const WIDGET_TYPES = Object.keys(TYPE_TABLE) as [Type, ...Type[]];
import { named } from './registry.ts';

export const WidgetType = z.enum(WIDGET_TYPES);

export const MapTiles = named(
  'MapTiles',
  z
    .object({
      url: z.string().meta({
        description:
          'A tile URL template (`{z}`, `{x}`, `{y}`, `{s}`); a relative one is relative to `{base_url}`. Default: OpenStreetMap’s standard tiles',
        examples: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
      }),
      attribution: z.string().meta({ description: 'Shown on the map, as text', examples: ['© OpenStreetMap contributors'] }),
    })
    .meta({ description: 'Map widgets: the tiles drawn under the places (`widget.options.tiles`)' }),
);
export type MapTiles = z.output<typeof MapTiles>;

export const Widget = named(
  'Widget',
  z.object({
    type: WidgetType,
    company: z.object({
      id: z.string().meta({ description: 'The company’s public id in the widget API', examples: ['c_acme'] }),
      name: z.string(),
    }),
    options: z
      .object({
        topics: z.array(z.string()).optional(),
        tiles: MapTiles.optional(),
        terms: z
          .string()
          .optional()
          .meta({ description: 'Checkout widgets: the address of the terms a buyer agrees to (an https URL)' }),
      })
      .catchall(z.unknown())
      .meta({
        description:
          'The widget’s configuration. Contact widgets: `topics`, the subjects a message may be filed under (possibly empty). Map widgets: `tiles`. Checkout widgets: `terms`, when the company has terms to agree to.',
      }),
  }),
);
export type Widget = z.output<typeof Widget>;
