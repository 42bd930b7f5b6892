/** Where a company's classes take place: a place gathers the classes whose `location` it names. */
import type { Kysely } from 'kysely';

export interface PlaceTables {
  places: {
    /** `pl_berlin`. */
    id: string;
    company_id: number;
    name: string;
    /** Null for a place that is no place on a map (online). */
    address: string | null;
    lat: number | null;
    lng: number | null;
    /** The `classes.location` text of the classes held here. */
    location: string;
    /** The order of the company's list. */
    position: number;
  };
}

export async function createPlaceTables(db: Kysely<never>): Promise<void> {
  await db.schema
    .createTable('places')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'integer', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('lat', 'real')
    .addColumn('lng', 'real')
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addUniqueConstraint('places_location', ['company_id', 'location'])
    .execute();
}
