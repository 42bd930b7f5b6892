/** The `widget` object of a first render. */
import { z } from 'zod';
import { WIDGET_TYPES } from '../../core/widget-types.ts';
import { named } from '../../http/openapi.ts';

export const WidgetType = z.enum(WIDGET_TYPES);

export const Widget = named(
  'Widget',
  z.object({
    type: WidgetType,
    company: z.object({
      id: z.string().meta({ description: 'The company’s public id in the widget API', examples: ['c_acme'] }),
      name: z.string(),
    }),
    options: z
      .object({ topics: z.array(z.string()).optional() })
      .catchall(z.unknown())
      .meta({
        description:
          'The widget’s configuration. Contact widgets: `topics`, the subjects a message may be filed under (possibly empty).',
      }),
  }),
);
export type Widget = z.output<typeof Widget>;
