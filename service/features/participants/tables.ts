/** The people who book classes (the profile widget's users), per company (their sign-in: domain/sign-in.ts). */

import type { Generated } from 'kysely';

export interface ParticipantTables {
  participants: {
    id: string;
    company_id: number;
    /** Lower-cased. */
    email: string;
    first_name: string;
    last_name: string;
    phone: string | null;
    created_at: number;
    /** The language of the widget they last came through (`en`, `de`): later emails are written in it. */
    locale: Generated<string>;
  };
}
