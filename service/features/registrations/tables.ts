/** Registrations: a participant's place (or waitlist place) in a class. */

export type RegistrationStatus = 'confirmed' | 'waitlisted' | 'cancelled';

export interface RegistrationTables {
  registrations: {
    id: string;
    class_id: string;
    participant_id: string;
    first_name: string;
    last_name: string;
    /** Lower-cased. */
    email: string;
    phone: string | null;
    status: RegistrationStatus;
    created_at: number;
    /** The widget key it came through (null: seeded). */
    widget_key: string | null;
    cancelled_at: number | null;
    /**
     * The order this seat belongs to (one registration per seat, named after its attendee, with the
     * buyer's email); null for a registration of its own.
     */
    order_id: string | null;
  };
}
