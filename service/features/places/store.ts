/** The company's places, each with the next classes held there. */
import type { Db } from '../../db/database.ts';
import { isoTime } from '../../core/ids.ts';
import { findClasses, publicClass } from '../../domain/classes.ts';
import type { Place, PlaceClass } from '../../../contract/api/places.ts';

/** How many upcoming classes a place shows. */
export const NEXT_CLASSES = 3;

export async function listPlaces(db: Db, companyId: number, now: number): Promise<Place[]> {
  const places = await db.selectFrom('places').selectAll().where('company_id', '=', companyId).orderBy('position').execute();
  // A place's next classes: one index lookup per place (classes_location), however many classes the company holds.
  return Promise.all(
    places.map(async ({ id, name, address, lat, lng, location }) => ({
      id,
      name,
      address,
      lat,
      lng,
      classes: (await findClasses(db, { companyId, from: now, location, limit: NEXT_CLASSES })).map((cl): PlaceClass => {
        const { seats_left, status, held_until } = publicClass(cl);
        return {
          id: cl.id,
          course: { id: cl.course_id, title: cl.title },
          starts_at: isoTime(cl.starts_at),
          ends_at: isoTime(cl.ends_at),
          timezone: cl.timezone,
          seats_left,
          status,
          held_until,
        };
      }),
    })),
  );
}
