/**
 * Tables of the shared domain modules: the widget keys (each binds one widget of one type of one
 * company, for some page origins), and the sign-in's PINs and tokens (sign-in.ts), one pair for
 * REST users and participants, both stored as hashes.
 */
import type { Generated } from 'kysely';
import type { Audience, PinPurpose } from './sign-in.ts';

export interface DomainTables {
  widget_keys: {
    key: string;
    company_id: number;
    type: string;
    /** JSON array of origin patterns. */
    origins: string;
    /** JSON object handed to the widget. */
    options: string;
    enabled: 0 | 1;
    revoked_at: number | null;
    note: string;
    /** When the key was made (service clock); null for keys of a store from before it was kept. */
    created_at: number | null;
    /** The widget's id (the REST API's `/v1/widgets/{id}`): it stays when the key is rotated. */
    id: number;
    /** The owner's name for it ("Calendar on the home page"). */
    name: string;
  };
  /** Keys replaced by a new one (rotated): each serves its widget until `valid_until`, then answers `revoked`. */
  retired_widget_keys: {
    key: string;
    widget_id: number;
    retired_at: number;
    valid_until: number;
  };
  sign_in_pins: {
    id: Generated<number>;
    audience: Audience;
    /** The application (users) or the company (participants) it signs in to. */
    realm: number;
    /** `sign-in`: a login's PIN, sent to `email`; `email-change`: the PIN that confirms a new address (`email`), sent to it. */
    purpose: PinPurpose;
    /** The user's or participant's id; null: a login for an email that is nobody's (a PIN nobody knows). */
    account: string | null;
    email: string;
    pin_hash: string;
    expires_at: number;
    attempts: Generated<number>;
    used_at: number | null;
    /** A newer login (or email change) replaced it. */
    replaced_at: number | null;
  };
  sign_in_tokens: {
    /** sha256 of the token; the token itself is never stored. */
    hash: string;
    audience: Audience;
    realm: number;
    account: string;
    /** The account's email (it follows a confirmed change), so that invalidating by email finds every token. */
    email: string;
    created_at: number;
    /** Null: until invalidated (users). */
    expires_at: number | null;
    invalidated_at: number | null;
    /** An emailed token (a link's key) dies unused after LINK_TTL_MS; its first use keeps it. */
    emailed: 0 | 1;
    used_at: number | null;
    /** The link of an email change: its first use confirms that change (sign_in_pins.id). */
    confirms_pin: number | null;
  };
}
