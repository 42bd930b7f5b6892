/**
 * The seeded demo data. Everything here is deterministic (ids, keys, credentials) except the class
 * dates, which are placed relative to the service clock at seed time so that "upcoming" stays true
 * for a week (a start re-seeds after that).
 */
import { sha256Hex } from '../core/ids.ts';
import { titleOf } from '../domain/widgets.ts';
import { localDay } from '../core/time-zones.ts';
import { WIDGET_TYPES, type WidgetType } from '../core/widget-types.ts';
import type { Tables, Tx } from './database.ts';

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

/** Any page on this machine, any port, http or https. */
export const LOCAL_ORIGINS = ['http://localhost:*', 'https://localhost:*', 'http://127.0.0.1:*', 'https://127.0.0.1:*'];

/**
 * Companies, users and applications have integer ids, as the REST API's specification says; the
 * widget API names a company by its public id (`c_acme`). The numbers differ per kind, so that a
 * test that mixes them up fails.
 */
export const ACME = 1;
export const GLOBEX = 2;

/**
 * Acme's prices include 19 % VAT (the tax is a share of the total); Globex's exclude 8.25 % sales
 * tax (it is added to the total). Rates in basis points.
 */
export const SEED_COMPANIES = [
  {
    id: ACME,
    public_id: 'c_acme',
    name: 'Acme Academy',
    contact_email: 'hello@acme.example',
    vat_rate_bp: 1900,
    prices_include_tax: 1,
    currency: 'EUR',
    order_prefix: 'A',
  },
  {
    id: GLOBEX,
    public_id: 'c_globex',
    name: 'Globex Institute',
    contact_email: 'hello@globex.example',
    vat_rate_bp: 825,
    prices_include_tax: 0,
    currency: 'USD',
    order_prefix: 'G',
  },
] as const;

export const SEED_APPLICATIONS = [
  {
    id: 201,
    name: 'Acme demo application',
    company_id: ACME,
    companies: [ACME, GLOBEX],
    api_key: 'rk_demo_acme',
    client_secret: 'cs_demo_acme_secret',
    login_link: '/demo/login.html',
  },
  {
    id: 202,
    name: 'Globex intranet',
    company_id: GLOBEX,
    companies: [GLOBEX],
    api_key: 'rk_demo_globex',
    client_secret: 'cs_demo_globex_secret',
    // Each application names the page its emailed link opens (`key=<token>` is added).
    login_link: '/demo/login.html?app=202',
  },
] as const;

type Role = 'owner' | 'member' | 'lecturer';
interface SeedUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  valid: boolean;
  roles: { company_id: number; role: Role }[];
  note: string;
}

export const SEED_USERS: SeedUser[] = [
  {
    id: 101,
    email: 'olivia.owner@acme.example',
    first_name: 'Olivia',
    last_name: 'Owner',
    valid: true,
    roles: [
      { company_id: ACME, role: 'owner' },
      { company_id: GLOBEX, role: 'member' },
    ],
    note: 'owner of Acme, member of Globex',
  },
  {
    id: 102,
    email: 'max.member@acme.example',
    first_name: 'Max',
    last_name: 'Member',
    valid: true,
    roles: [{ company_id: ACME, role: 'member' }],
    note: 'member of Acme',
  },
  {
    id: 103,
    email: 'lena.lecturer@acme.example',
    first_name: 'Lena',
    last_name: 'Lecturer',
    valid: true,
    roles: [{ company_id: ACME, role: 'lecturer' }],
    note: 'lecturer of Acme: cls_web_past, cls_web_1, cls_web_2, cls_ts_2 only',
  },
  {
    id: 104,
    email: 'leo.lecturer@acme.example',
    first_name: 'Leo',
    last_name: 'Lecturer',
    valid: true,
    roles: [{ company_id: ACME, role: 'lecturer' }],
    note: 'lecturer of Acme: cls_lead_1, cls_lead_2, cls_lead_3 only',
  },
  {
    id: 105,
    email: 'gina.owner@globex.example',
    first_name: 'Gina',
    last_name: 'Owner',
    valid: true,
    roles: [{ company_id: GLOBEX, role: 'owner' }],
    note: 'owner of Globex',
  },
  {
    id: 106,
    email: 'victor.disabled@acme.example',
    first_name: 'Victor',
    last_name: 'Disabled',
    valid: false,
    roles: [{ company_id: ACME, role: 'member' }],
    note: 'disabled user: login is refused',
  },
];

/** The classes each lecturer teaches (Lena, Leo). */
export const LECTURER_CLASSES: Record<number, string[]> = {
  103: ['cls_web_past', 'cls_web_1', 'cls_web_2', 'cls_ts_2'],
  104: ['cls_lead_1', 'cls_lead_2', 'cls_lead_3'],
};

interface SeedParticipant extends Omit<Tables['participants'], 'created_at' | 'locale'> {
  bookings: { class_id: string; status: 'confirmed' | 'waitlisted' }[];
  note: string;
}

export const SEED_PARTICIPANTS: SeedParticipant[] = [
  {
    id: 'p_ada',
    company_id: ACME,
    email: 'ada@example.org',
    first_name: 'Ada',
    last_name: 'Lovelace',
    phone: '+44 20 7946 0001',
    bookings: [
      { class_id: 'cls_web_past', status: 'confirmed' },
      { class_id: 'cls_ts_1', status: 'confirmed' },
    ],
    note: 'cls_ts_1 is upcoming and cancellable (cancelling it confirms Grace, first on its waitlist); cls_web_past is past',
  },
  {
    id: 'p_grace',
    company_id: ACME,
    email: 'grace@example.org',
    first_name: 'Grace',
    last_name: 'Hopper',
    phone: null,
    bookings: [
      { class_id: 'cls_web_1', status: 'confirmed' },
      { class_id: 'cls_ts_1', status: 'waitlisted' },
    ],
    note: 'confirmed in cls_web_1; first on the waitlist of cls_ts_1 (no participant of TypeScript for teams yet: its recording is not for her)',
  },
  {
    id: 'p_alan',
    company_id: ACME,
    email: 'alan@example.org',
    first_name: 'Alan',
    last_name: 'Turing',
    phone: null,
    bookings: [{ class_id: 'cls_ts_2', status: 'confirmed' }],
    note: 'confirmed in cls_ts_2: a participant of TypeScript for teams, whose recording (vid_ts_session_1) plays for him',
  },
  {
    id: 'p_katherine',
    company_id: GLOBEX,
    email: 'katherine@example.net',
    first_name: 'Katherine',
    last_name: 'Johnson',
    phone: null,
    bookings: [{ class_id: 'cls_gx_safety_1', status: 'confirmed' }],
    note: 'a participant of Globex (log in with wk_globex_profile)',
  },
];

interface SeedCourse {
  id: string;
  company_id: number;
  title: string;
  summary: string;
  category: string;
}

export const SEED_COURSES: SeedCourse[] = [
  {
    id: 'crs_web',
    company_id: ACME,
    title: 'Web accessibility in practice',
    summary: 'Two days of hands-on WCAG 2.2 work.',
    category: 'Design',
  },
  {
    id: 'crs_ts',
    company_id: ACME,
    title: 'TypeScript for teams',
    summary: 'Types, generics and a tidy codebase in three mornings.',
    category: 'Engineering',
  },
  {
    id: 'crs_open',
    company_id: ACME,
    title: 'Open day: meet the trainers',
    summary: 'A free evening of short talks, questions and a look at the rooms.',
    category: 'Community',
  },
  {
    id: 'crs_lead',
    company_id: ACME,
    title: 'Leading remote teams',
    summary: 'Rituals, writing and trust for distributed teams.',
    category: 'Leadership',
  },
  {
    id: 'crs_data',
    company_id: ACME,
    title: 'Data literacy basics',
    summary: 'Read charts, question numbers and avoid the classic traps.',
    category: 'Data',
  },
  {
    id: 'crs_sprint',
    company_id: ACME,
    title: 'Design sprints',
    summary: 'The five-day sprint method. No new dates planned at the moment.',
    category: 'Design',
  },
  {
    id: 'crs_gx_safety',
    company_id: GLOBEX,
    title: 'Workplace safety essentials',
    summary: 'Everything a new starter must know, in one morning.',
    category: 'Safety',
  },
  {
    id: 'crs_gx_sheets',
    company_id: GLOBEX,
    title: 'Spreadsheets for planners',
    summary: 'Formulas, pivot tables and honest charts.',
    category: 'Office',
  },
];

interface SeedClass {
  id: string;
  course_id: string;
  /** Days after the seed day (UTC midnight), and the UTC start hour. */
  day: number;
  hour: number;
  hours: number;
  timezone: string;
  location: string;
  price: number;
  capacity: number;
  /** Confirmed places taken by seeded people (including SEED_PARTICIPANTS' bookings). */
  taken: number;
  waitlist: false | { capacity: number | null; taken: number };
}

const BERLIN = 'Berlin, Torstraße 1';
const HAMBURG = 'Hamburg, Am Sandtorkai 4';
const VIENNA = 'Vienna, Mariahilfer Straße 10';
const ONLINE = 'Online (the link comes with the confirmation)';
const LONDON = 'London, 10 Finsbury Square';

export const SEED_CLASSES: SeedClass[] = [
  {
    id: 'cls_web_past',
    course_id: 'crs_web',
    day: -3,
    hour: 8,
    hours: 7,
    timezone: 'Europe/Berlin',
    location: BERLIN,
    price: 49000,
    capacity: 12,
    taken: 12,
    waitlist: false,
  },
  {
    id: 'cls_web_1',
    course_id: 'crs_web',
    day: 6,
    hour: 8,
    hours: 7,
    timezone: 'Europe/Berlin',
    location: BERLIN,
    price: 49000,
    capacity: 12,
    taken: 7,
    waitlist: { capacity: null, taken: 0 },
  },
  {
    id: 'cls_web_2',
    course_id: 'crs_web',
    day: 20,
    hour: 8,
    hours: 7,
    timezone: 'Europe/Berlin',
    location: ONLINE,
    price: 39000,
    capacity: 20,
    taken: 3,
    waitlist: { capacity: null, taken: 0 },
  },
  {
    id: 'cls_ts_1',
    course_id: 'crs_ts',
    day: 3,
    hour: 7,
    hours: 4,
    timezone: 'Europe/Berlin',
    location: HAMBURG,
    price: 29000,
    capacity: 8,
    taken: 8,
    waitlist: { capacity: 10, taken: 2 },
  },
  {
    id: 'cls_ts_2',
    course_id: 'crs_ts',
    day: 17,
    hour: 7,
    hours: 4,
    timezone: 'Europe/Berlin',
    location: HAMBURG,
    price: 29000,
    capacity: 8,
    taken: 1,
    waitlist: { capacity: 10, taken: 0 },
  },
  {
    id: 'cls_open_1',
    course_id: 'crs_open',
    day: 4,
    hour: 16,
    hours: 3,
    timezone: 'Europe/Berlin',
    location: BERLIN,
    price: 0,
    capacity: 40,
    taken: 12,
    waitlist: false,
  },
  {
    id: 'cls_lead_1',
    course_id: 'crs_lead',
    day: 8,
    hour: 8,
    hours: 6,
    timezone: 'Europe/Vienna',
    location: VIENNA,
    price: 69000,
    capacity: 6,
    taken: 6,
    waitlist: false,
  },
  {
    id: 'cls_lead_2',
    course_id: 'crs_lead',
    day: 30,
    hour: 8,
    hours: 6,
    timezone: 'Europe/Vienna',
    location: VIENNA,
    price: 69000,
    capacity: 6,
    taken: 0,
    waitlist: false,
  },
  {
    // After a gap of more than two months (at least one whole month without any class): the
    // calendar's empty month offers the month of this one.
    id: 'cls_lead_3',
    course_id: 'crs_lead',
    day: 95,
    hour: 8,
    hours: 6,
    timezone: 'Europe/Vienna',
    location: VIENNA,
    price: 69000,
    capacity: 6,
    taken: 0,
    waitlist: false,
  },
  {
    id: 'cls_data_1',
    course_id: 'crs_data',
    day: 11,
    hour: 9,
    hours: 6,
    timezone: 'Europe/London',
    location: LONDON,
    price: 19900,
    capacity: 10,
    taken: 10,
    waitlist: { capacity: 2, taken: 2 },
  },
  {
    id: 'cls_data_2',
    course_id: 'crs_data',
    day: 25,
    hour: 9,
    hours: 3,
    timezone: 'Europe/London',
    location: ONLINE,
    price: 14900,
    capacity: 30,
    taken: 0,
    waitlist: { capacity: null, taken: 0 },
  },
  {
    id: 'cls_data_3',
    course_id: 'crs_data',
    day: 100,
    hour: 9,
    hours: 6,
    timezone: 'Europe/London',
    location: LONDON,
    price: 14900,
    capacity: 30,
    taken: 0,
    waitlist: false,
  },
  {
    id: 'cls_sprint_past',
    course_id: 'crs_sprint',
    day: -10,
    hour: 8,
    hours: 8,
    timezone: 'Europe/Berlin',
    location: BERLIN,
    price: 99000,
    capacity: 10,
    taken: 9,
    waitlist: false,
  },
  {
    id: 'cls_gx_safety_1',
    course_id: 'crs_gx_safety',
    day: 7,
    hour: 14,
    hours: 4,
    timezone: 'America/Chicago',
    location: 'Springfield, 742 Evergreen Terrace',
    price: 15000,
    capacity: 15,
    taken: 2,
    waitlist: false,
  },
  {
    id: 'cls_gx_sheets_1',
    course_id: 'crs_gx_sheets',
    day: 12,
    hour: 15,
    hours: 3,
    timezone: 'America/Chicago',
    location: ONLINE,
    price: 9900,
    capacity: 10,
    taken: 0,
    waitlist: { capacity: null, taken: 0 },
  },
];

/** Classes with a known state, for tests and people trying the rules by hand. */
export const SEED_CLASS_ROLES = {
  /** Exactly 5 seats left, waitlist open without limit. */
  five_seats_left: 'cls_web_1',
  /** Full, waitlist open (status `waitlist`). */
  full_with_waitlist: 'cls_ts_1',
  /** Full, no waitlist (status `full`, registering answers 409 class-full). */
  full_no_waitlist: 'cls_lead_1',
  /** Full and its waitlist full too (status `full`, 409 class-full). */
  waitlist_full: 'cls_data_1',
  /** Costs nothing. */
  free: 'cls_open_1',
  /** Started 3 days before the seed (never listed, registering answers 422). */
  past: 'cls_web_past',
  /** The first upcoming class of Acme (3 days after the seed). */
  soonest: 'cls_ts_1',
  /** A Globex class (a c_acme key must not book it). */
  other_company: 'cls_gx_safety_1',
  /** Acme's last class (30 days after the seed) before a gap holding at least one whole month without classes. */
  last_before_gap: 'cls_lead_2',
  /** Acme's first class after that gap (95 days after the seed; Leo teaches it); cls_data_3 follows on day 100. */
  first_after_gap: 'cls_lead_3',
} as const;

/** A programme that has no upcoming class (listed with `classes: []`). */
export const SEED_COURSE_WITHOUT_CLASSES = 'crs_sprint';

interface SeedWidgetKey {
  key: string;
  /** The owner's name for it (default: its type, "Calendar"). */
  name?: string;
  type: WidgetType;
  company_id: number;
  origins: string[];
  enabled: boolean;
  revoked: boolean;
  note: string;
  /** Handed to the widget as `widget.options`. */
  options?: Record<string, unknown>;
}

/**
 * The tiles of the seeded map key: one plain tile the service serves in development (relative to the
 * service), so that the demo and the tests draw a map without internet. `wk_demo_map_osm` has the
 * default, OpenStreetMap's tiles.
 */
export const SEED_DEV_TILES = { url: 'dev/tiles/{z}/{x}/{y}.png', attribution: 'Plain tiles of the reference service' };

/** The topics of the seeded Acme contact widget. */
export const SEED_CONTACT_TOPICS = ['Programmes', 'Invoices', 'Something else'];

const perType: SeedWidgetKey[] = WIDGET_TYPES.map((type) => ({
  key: `wk_demo_${type}`,
  type,
  company_id: ACME,
  origins: LOCAL_ORIGINS,
  enabled: true,
  revoked: false,
  note: `the ${type} widget of Acme Academy`,
  ...(type === 'contact' ? { options: { topics: SEED_CONTACT_TOPICS } } : {}),
  ...(type === 'map' ? { options: { tiles: SEED_DEV_TILES } } : {}),
}));

export const SEED_WIDGET_KEYS: SeedWidgetKey[] = [
  ...perType,
  {
    key: 'wk_demo_registration_example',
    name: 'Registration on example.com',
    type: 'registration',
    company_id: ACME,
    origins: ['https://example.com'],
    enabled: true,
    revoked: false,
    note: 'serves https://example.com only: on any other page it answers origin-not-allowed',
  },
  {
    key: 'wk_demo_registration_revoked',
    name: 'Registration (revoked)',
    type: 'registration',
    company_id: ACME,
    origins: LOCAL_ORIGINS,
    enabled: true,
    revoked: true,
    note: 'revoked: answers invalid-key',
  },
  {
    key: 'wk_demo_registration_disabled',
    name: 'Registration (disabled)',
    type: 'registration',
    company_id: ACME,
    origins: LOCAL_ORIGINS,
    enabled: false,
    revoked: false,
    note: 'the registration widget is not enabled for this key: answers not-available',
  },
  {
    key: 'wk_demo_map_osm',
    name: 'Map with OpenStreetMap tiles',
    type: 'map',
    company_id: ACME,
    origins: LOCAL_ORIGINS,
    enabled: true,
    revoked: false,
    note: 'the map widget of Acme Academy with the default tiles (OpenStreetMap): without internet, the map says they cannot load',
  },
  {
    key: 'wk_demo_map_offline',
    name: 'Map with tiles that cannot load',
    type: 'map',
    company_id: ACME,
    origins: LOCAL_ORIGINS,
    enabled: true,
    revoked: false,
    note: 'the map widget of Acme Academy with tiles from a closed port: the map says they cannot load, the list works',
    options: { tiles: { url: 'http://127.0.0.1:9/{z}/{x}/{y}.png', attribution: '© OpenStreetMap contributors' } },
  },
  {
    key: 'wk_globex_registration',
    type: 'registration',
    company_id: GLOBEX,
    origins: LOCAL_ORIGINS,
    enabled: true,
    revoked: false,
    note: 'the registration widget of Globex Institute',
  },
  {
    key: 'wk_globex_profile',
    type: 'profile',
    company_id: GLOBEX,
    origins: LOCAL_ORIGINS,
    enabled: true,
    revoked: false,
    note: 'the profile widget of Globex Institute: its participants only',
  },
  {
    key: 'wk_globex_contact',
    type: 'contact',
    company_id: GLOBEX,
    origins: LOCAL_ORIGINS,
    enabled: true,
    revoked: false,
    note: 'the contact widget of Globex Institute, without topics',
  },
  {
    key: 'wk_globex_checkout',
    type: 'checkout',
    company_id: GLOBEX,
    origins: LOCAL_ORIGINS,
    enabled: true,
    revoked: false,
    note: 'the checkout of Globex Institute: prices without tax (8.25 % added), in USD',
  },
];

interface SeedVoucher {
  id: string;
  company_id: number;
  code: string;
  percent: number | null;
  amount: number | null;
  currency: string | null;
  course_id: string | null;
  /** Days after the seed day at which it stops working; null: never. */
  expires_day: number | null;
  max_uses: number | null;
  uses: number;
  note: string;
}

/** Acme's voucher codes (case-insensitive), one for each thing a voucher can say. */
export const SEED_VOUCHERS: SeedVoucher[] = [
  {
    id: 'v_welcome10',
    company_id: ACME,
    code: 'WELCOME10',
    percent: 10,
    amount: null,
    currency: null,
    course_id: null,
    expires_day: null,
    max_uses: null,
    uses: 0,
    note: '10 % off any class, no expiry, no limit of uses',
  },
  {
    id: 'v_spring25',
    company_id: ACME,
    code: 'SPRING25',
    percent: 25,
    amount: null,
    currency: null,
    course_id: null,
    expires_day: -1,
    max_uses: null,
    uses: 0,
    note: '25 % off, expired (voucher status `expired`)',
  },
  {
    id: 'v_first50',
    company_id: ACME,
    code: 'FIRST50',
    percent: null,
    amount: 5000,
    currency: 'EUR',
    course_id: null,
    expires_day: null,
    max_uses: 1,
    uses: 1,
    note: '€50 off (at most what the classes cost), one use, used already (voucher status `used-up`)',
  },
  {
    id: 'v_team20',
    company_id: ACME,
    code: 'TEAM20',
    percent: 20,
    amount: null,
    currency: null,
    course_id: 'crs_ts',
    expires_day: null,
    max_uses: null,
    uses: 0,
    note: '20 % off classes of TypeScript for teams (crs_ts) only (`not-applicable` to other classes)',
  },
  {
    id: 'v_thanks15',
    company_id: ACME,
    code: 'THANKS15',
    percent: 15,
    amount: null,
    currency: null,
    course_id: null,
    expires_day: null,
    max_uses: 1,
    uses: 0,
    note: '15 % off, one use, not used yet: the first order with it uses it up',
  },
];

interface SeedVideo extends Omit<Tables['videos'], 'captions' | 'position'> {
  captions: string[];
}

/**
 * The videos of Acme Academy, in their order: two public ones (one with English captions only) and
 * a recording for participants. Their files are in service/media/ (see its README).
 */
export const SEED_VIDEOS: SeedVideo[] = [
  {
    id: 'vid_welcome',
    company_id: ACME,
    title: 'Welcome to Acme Academy',
    course_id: null,
    duration_s: 6,
    width: 320,
    height: 180,
    access: 'public',
    media: 'welcome',
    captions: ['en', 'de'],
  },
  {
    id: 'vid_web_intro',
    company_id: ACME,
    title: 'Web accessibility in practice: what to expect',
    course_id: 'crs_web',
    duration_s: 6,
    width: 320,
    height: 180,
    access: 'public',
    media: 'welcome',
    captions: ['en'],
  },
  {
    id: 'vid_ts_session_1',
    company_id: ACME,
    title: 'TypeScript for teams: session 1',
    course_id: 'crs_ts',
    duration_s: 6,
    width: 320,
    height: 180,
    access: 'participants',
    media: 'members',
    captions: ['en', 'de'],
  },
];

/** Where Acme's classes take place (by their `location`); online is a place on no map. */
export const SEED_PLACES: Omit<Tables['places'], 'position'>[] = [
  {
    id: 'pl_berlin',
    company_id: ACME,
    name: 'Acme Berlin',
    address: 'Torstraße 1, 10119 Berlin',
    lat: 52.529,
    lng: 13.401,
    location: BERLIN,
  },
  {
    id: 'pl_hamburg',
    company_id: ACME,
    name: 'Acme Hamburg',
    address: 'Am Sandtorkai 4, 20457 Hamburg',
    lat: 53.5439,
    lng: 9.9875,
    location: HAMBURG,
  },
  {
    id: 'pl_vienna',
    company_id: ACME,
    name: 'Acme Vienna',
    address: 'Mariahilfer Straße 10, 1070 Vienna',
    lat: 48.1994,
    lng: 16.3537,
    location: VIENNA,
  },
  {
    id: 'pl_london',
    company_id: ACME,
    name: 'Acme London',
    address: '10 Finsbury Square, London EC2A 1AF',
    lat: 51.5212,
    lng: -0.0862,
    location: LONDON,
  },
  { id: 'pl_online', company_id: ACME, name: 'Online', address: null, lat: null, lng: null, location: ONLINE },
];

/** `reg_seed_ada_ts_1` for p_ada in cls_ts_1. */
export function seedRegistrationId(participantId: string, classId: string): string {
  return `reg_seed_${participantId.slice(2)}_${classId.slice(4)}`;
}

const FIRST_NAMES = ['Alex', 'Sam', 'Robin', 'Kim', 'Charlie', 'Jo', 'Mika', 'Noa', 'Toni', 'Yuki'];
const LAST_NAMES = ['Berger', 'Novak', 'Okafor', 'Silva', 'Tanaka', 'Weber', 'Kowalski', 'Rossi'];

/** Writes the whole seed into empty tables. `now` is service time. */
export async function seed(tx: Tx, now: number): Promise<void> {
  const day0 = Math.floor(now / DAY) * DAY;

  await tx
    .insertInto('companies')
    .values(SEED_COMPANIES.map((c) => ({ ...c })))
    .execute();
  const companyOfCourse = new Map(SEED_COURSES.map((co) => [co.id, co.company_id]));
  const currencyOf = (companyId: number) => SEED_COMPANIES.find((c) => c.id === companyId)!.currency;
  await tx.insertInto('courses').values(SEED_COURSES).execute();
  await tx
    .insertInto('classes')
    .values(
      SEED_CLASSES.map((c) => {
        const start = day0 + c.day * DAY + c.hour * HOUR;
        return {
          id: c.id,
          course_id: c.course_id,
          starts_at: start,
          ends_at: start + c.hours * HOUR,
          timezone: c.timezone,
          local_day: localDay(start, c.timezone),
          location: c.location,
          price_amount: c.price,
          currency: currencyOf(companyOfCourse.get(c.course_id)!),
          capacity: c.capacity,
          waitlist: c.waitlist ? 1 : 0,
          waitlist_capacity: c.waitlist ? c.waitlist.capacity : null,
        };
      }),
    )
    .execute();

  const companyOfClass = new Map(SEED_CLASSES.map((cl) => [cl.id, companyOfCourse.get(cl.course_id)!]));
  const createdAt = day0 - 20 * DAY;
  const participants: Omit<Tables['participants'], 'locale'>[] = [];
  const registrations: Tables['registrations'][] = [];
  const person = (p: Omit<Tables['participants'], 'created_at' | 'locale'>) => participants.push({ ...p, created_at: createdAt });
  const book = (
    id: string,
    class_id: string,
    p: Omit<Tables['participants'], 'created_at' | 'company_id' | 'locale'>,
    status: 'confirmed' | 'waitlisted',
  ) =>
    registrations.push({
      id,
      class_id,
      participant_id: p.id,
      first_name: p.first_name,
      last_name: p.last_name,
      email: p.email,
      phone: p.phone,
      status,
      created_at: createdAt,
      widget_key: null,
      cancelled_at: null,
      order_id: null,
    });

  const named = new Map<string, { confirmed: number; waitlisted: number }>();
  for (const { bookings, note: _note, ...p } of SEED_PARTICIPANTS) {
    person(p);
    for (const b of bookings) {
      book(seedRegistrationId(p.id, b.class_id), b.class_id, p, b.status);
      const n = named.get(b.class_id) ?? { confirmed: 0, waitlisted: 0 };
      n[b.status] += 1;
      named.set(b.class_id, n);
    }
  }

  // Fill each class up to its seeded numbers with anonymous guests.
  let guest = 0;
  for (const c of SEED_CLASSES) {
    const n = named.get(c.id) ?? { confirmed: 0, waitlisted: 0 };
    const fill = (count: number, status: 'confirmed' | 'waitlisted') => {
      for (let i = 0; i < count; i++) {
        guest += 1;
        const p = {
          id: `p_guest_${guest}`,
          first_name: FIRST_NAMES[guest % FIRST_NAMES.length]!,
          last_name: LAST_NAMES[guest % LAST_NAMES.length]!,
          email: `guest${guest}@example.net`,
          phone: null,
        };
        person({ ...p, company_id: companyOfClass.get(c.id)! });
        book(`reg_seed_guest_${guest}`, c.id, p, status);
      }
    };
    fill(c.taken - n.confirmed, 'confirmed');
    fill((c.waitlist ? c.waitlist.taken : 0) - n.waitlisted, 'waitlisted');
  }
  await tx.insertInto('participants').values(participants).execute();
  await tx.insertInto('registrations').values(registrations).execute();

  await tx
    .insertInto('vouchers')
    .values(
      SEED_VOUCHERS.map(({ expires_day, note: _note, ...v }) => ({
        ...v,
        expires_at: expires_day === null ? null : day0 + expires_day * DAY,
      })),
    )
    .execute();

  await tx
    .insertInto('widget_keys')
    .values(
      SEED_WIDGET_KEYS.map((k, i) => ({
        id: i + 1,
        name: k.name ?? titleOf(k.type),
        key: k.key,
        // A millisecond apart, in the seed's order: the order lists show them in.
        created_at: createdAt + i,
        company_id: k.company_id,
        type: k.type,
        origins: JSON.stringify(k.origins),
        options: JSON.stringify(k.options ?? {}),
        enabled: k.enabled ? 1 : 0,
        revoked_at: k.revoked ? createdAt : null,
        note: k.note,
      })),
    )
    .execute();

  await tx
    .insertInto('videos')
    .values(SEED_VIDEOS.map((v, position) => ({ ...v, captions: JSON.stringify(v.captions), position })))
    .execute();
  await tx
    .insertInto('places')
    .values(SEED_PLACES.map((p, position) => ({ ...p, position })))
    .execute();

  await tx
    .insertInto('users')
    .values(
      SEED_USERS.map((u) => ({
        id: u.id,
        email: u.email,
        first_name: u.first_name,
        last_name: u.last_name,
        valid: u.valid ? 1 : 0,
      })),
    )
    .execute();
  await tx
    .insertInto('memberships')
    .values(SEED_USERS.flatMap((u) => u.roles.map((r) => ({ user_id: u.id, company_id: r.company_id, role: r.role }))))
    .execute();
  await tx
    .insertInto('class_lecturers')
    .values(
      Object.entries(LECTURER_CLASSES).flatMap(([userId, classIds]) =>
        classIds.map((class_id) => ({ class_id, user_id: Number(userId) })),
      ),
    )
    .execute();
  await tx
    .insertInto('applications')
    .values(
      SEED_APPLICATIONS.map((a) => ({
        id: a.id,
        company_id: a.company_id,
        name: a.name,
        api_key_hash: sha256Hex(a.api_key),
        client_secret_hash: sha256Hex(a.client_secret),
        login_link: a.login_link,
      })),
    )
    .execute();
  await tx
    .insertInto('application_companies')
    .values(SEED_APPLICATIONS.flatMap((a) => a.companies.map((company_id) => ({ application_id: a.id, company_id }))))
    .execute();
}
