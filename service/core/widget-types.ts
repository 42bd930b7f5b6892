/**
 * The widget types, and the loader version each belongs to: the service's one import of the type
 * table the loaders are built from.
 */
import { WIDGET_TYPES as TYPE_TABLE, type WidgetType } from '../../contract/index.ts';

export type { WidgetType };
export { WIDGET_TYPES } from '../../contract/api/widget-keys.ts';
export const loaderVersionOf = (type: WidgetType): string => `v${TYPE_TABLE[type]}`;
