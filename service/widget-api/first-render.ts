/**
 * The first render of `GET /widget`, built from one part per widget type: each feature registers
 * its own type's part (the registration and calendar widgets' programmes, the contact form, the
 * videos, the places), and the answer's route knows none of them. A type with no part (profile,
 * checkout) answers `widget` alone.
 */
import type { WidgetType } from '../core/widget-types.ts';
import { upcomingCourses } from '../domain/classes.ts';
import type { WidgetKeyRow } from '../domain/widget-keys.ts';
import type { ServiceDeps } from '../http/context.ts';
import { widgetInfo } from './keys.ts';
import type { WidgetResponse } from '../../contract/api/catalog.ts';

/**
 * What a type adds to `widget` (or puts in its place, with options filled in); `query` reads the
 * request's parameters (`course`, `video`). It may refuse (`course-not-found`).
 */
export type FirstRenderPart = (
  key: WidgetKeyRow,
  query: (name: string) => string | undefined,
) => Partial<WidgetResponse> | Promise<Partial<WidgetResponse>>;

export class FirstRenders {
  readonly #parts = new Map<WidgetType, FirstRenderPart>();

  add(type: WidgetType, part: FirstRenderPart): void {
    if (this.#parts.has(type)) throw new Error(`The first render of a ${type} widget has a part already.`);
    this.#parts.set(type, part);
  }

  /** The key's widget and its type's part. */
  async of(key: WidgetKeyRow, query: (name: string) => string | undefined): Promise<WidgetResponse> {
    const part = this.#parts.get(key.type);
    return { widget: widgetInfo(key), ...(part ? await part(key, query) : {}) };
  }
}

/**
 * The part of the widgets that list the company's programmes with their upcoming classes
 * (registration, calendar), all of them or the one `course` names.
 */
export const coursesPart =
  (deps: ServiceDeps): FirstRenderPart =>
  async (key, query) => {
    // An empty `course=` (an unset attribute) means every programme.
    const { courses, total } = await upcomingCourses(
      deps.store.db,
      { companyId: key.company_id, courseId: query('course') || undefined },
      deps.clock.now(),
    );
    return { courses, courses_total: total };
  };
