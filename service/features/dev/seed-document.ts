/** `GET /dev/seed`: the shape docs/service.md documents first (rest, users, participants, widget_keys), then extras. */
import type { SeedDocument } from '../../../contract/api/dev.ts';
import { isoTime } from '../../core/ids.ts';
import { WIDGET_TYPES, loaderVersionOf } from '../../core/widget-types.ts';
import {
  SEED_APPLICATIONS,
  SEED_CLASS_ROLES,
  SEED_COMPANIES,
  SEED_COURSE_WITHOUT_CLASSES,
  SEED_PARTICIPANTS,
  SEED_PLACES,
  SEED_USERS,
  SEED_VOUCHERS,
  SEED_VIDEOS,
  SEED_WIDGET_KEYS,
  seedRegistrationId,
} from '../../db/seed.ts';

/**
 * Companies, users and applications by their integer ids (what the REST API answers and takes);
 * `companies[].public_id` is how the widget API names each company.
 */
export function seedDocument(seededAt: number, now: number): SeedDocument {
  const app = SEED_APPLICATIONS[0];
  // Company by company (Acme first), so that "the first member" is a member of Acme.
  const companyOrder = (id: number) => SEED_COMPANIES.findIndex((c) => c.id === id);
  const roles = (valid: boolean) =>
    SEED_USERS.filter((u) => u.valid === valid)
      .flatMap((u) =>
        u.roles.map((r) => ({
          email: u.email,
          role: r.role,
          company_id: r.company_id,
          id: u.id,
          first_name: u.first_name,
          last_name: u.last_name,
          note: u.note,
        })),
      )
      .sort((a, b) => companyOrder(a.company_id) - companyOrder(b.company_id));
  return {
    rest: {
      api_key: app.api_key,
      client_secret: app.client_secret,
      application_id: app.id,
      company_id: app.company_id,
    },
    users: roles(true),
    participants: SEED_PARTICIPANTS.map((p) => ({
      email: p.email,
      company_id: p.company_id,
      id: p.id,
      first_name: p.first_name,
      last_name: p.last_name,
      phone: p.phone,
      /** The profile key of their company: it signs them in. */
      profile_key: SEED_WIDGET_KEYS.find((k) => k.type === 'profile' && k.company_id === p.company_id && k.enabled && !k.revoked)
        ?.key,
      /** As seeded (cancelling or registering changes the data, not this list). */
      registrations: p.bookings.map((b) => ({
        id: seedRegistrationId(p.id, b.class_id),
        class_id: b.class_id,
        status: b.status,
      })),
      note: p.note,
    })),
    widget_keys: SEED_WIDGET_KEYS.map((k) => ({
      key: k.key,
      type: k.type,
      company_id: k.company_id,
      origins: k.origins,
      enabled: k.enabled,
      revoked: k.revoked,
      note: k.note,
      options: k.options ?? {},
    })),
    /**
     * Contact messages are notified to `contact_email`; `vat_rate_bp` is the VAT rate in basis points,
     * included in the prices or added to them (`prices_include_tax`); orders are numbered `<order_prefix>-1001` on.
     */
    companies: SEED_COMPANIES,
    /** Each widget type and the loader version it belongs to. */
    widget_types: Object.fromEntries(WIDGET_TYPES.map((type) => [type, loaderVersionOf(type)])),
    applications: SEED_APPLICATIONS.map((a) => ({
      application_id: a.id,
      name: a.name,
      company_id: a.company_id,
      companies: a.companies,
      api_key: a.api_key,
      client_secret: a.client_secret,
      login_link: a.login_link,
    })),
    /** Users whose login is refused (they hold a role but are not valid). */
    invalid_users: roles(false),
    classes: SEED_CLASS_ROLES,
    /** Voucher codes of the checkout (case-insensitive); `expires_day` counts from the seed day. */
    vouchers: SEED_VOUCHERS,
    course_without_classes: SEED_COURSE_WITHOUT_CLASSES,
    /** The video widget's videos (their files: service/media/), in their order. */
    videos: SEED_VIDEOS.map(({ id, company_id, title, course_id, duration_s, access, captions }) => ({
      id,
      company_id,
      title,
      course_id,
      duration_s,
      access,
      captions,
    })),
    /** The map widget's places, in their order; a place without coordinates (online) is on no map. */
    places: SEED_PLACES.map(({ id, company_id, name, address, lat, lng }) => ({ id, company_id, name, address, lat, lng })),
    seeded_at: isoTime(seededAt),
    now: isoTime(now),
  };
}
