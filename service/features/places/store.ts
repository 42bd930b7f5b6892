/** The company's places, each with the next classes held there. */
import type { Db } from '../../db/database.ts';
import { isoTime } from '../../core/ids.ts';
import { listCourses, publicClass } from '../../domain/classes.ts';
import type { Place, PlaceClass } from '../../../contract/api/places.ts';

/** How many upcoming classes a place shows. */
export const NEXT_CLASSES = 3;

export async function listPlaces(db: Db, companyId: number, now: number): Promise<Place[]> {
  const places = await db.selectFrom('places').selectAll().where('company_id', '=', companyId).orderBy('position').execute();
  const byLocation = new Map<string, PlaceClass[]>();
  for (const { course, classes } of await listCourses(db, { companyId, from: now })) {
    for (const cl of classes) {
      const { seats_left, status, held_until } = publicClass(cl);
      const list = byLocation.get(cl.location) ?? [];
      list.push({
        id: cl.id,
        course: { id: course.id, title: course.title },
        starts_at: isoTime(cl.starts_at),
        ends_at: isoTime(cl.ends_at),
        timezone: cl.timezone,
        seats_left,
        status,
        held_until,
      });
      byLocation.set(cl.location, list);
    }
  }
  return places.map(({ id, name, address, lat, lng, location }) => ({
    id,
    name,
    address,
    lat,
    lng,
    classes: (byLocation.get(location) ?? []).sort((a, b) => a.starts_at.localeCompare(b.starts_at)).slice(0, NEXT_CLASSES),
  }));
}
