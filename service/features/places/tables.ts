/** Where a company's classes take place: a place gathers the classes whose `location` it names. */

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
