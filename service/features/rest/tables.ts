/** The REST API's company users, their roles and the applications (their sign-in: domain/sign-in.ts). */

export type Role = 'owner' | 'member' | 'lecturer';

export interface RestTables {
  users: {
    id: number;
    /** Lower-cased. */
    email: string;
    first_name: string;
    last_name: string;
    valid: 0 | 1;
  };
  memberships: { user_id: number; company_id: number; role: Role };
  class_lecturers: { class_id: string; user_id: number };
  applications: {
    id: number;
    company_id: number;
    name: string;
    api_key_hash: string;
    client_secret_hash: string;
    /** The page the emailed link opens (absolute, or relative to the service); ?key=<token> is added. */
    login_link: string;
  };
  /** The companies an application may act for (its own first). */
  application_companies: { application_id: number; company_id: number };
}
