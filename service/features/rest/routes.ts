/**
 * The REST API of the specification (docs/service.md, "REST API"; docs/architecture.md, "The APIs"): passwordless login by
 * emailed link + PIN or by client secret, the user, and the company's programmes scoped to the role.
 * Headers: X-SERVICE-API-KEY (the application), X-SERVICE-TOKEN (the user), X-SERVICE-COMPANY (the
 * company's integer id). It answers no CORS: it is for servers (see server.ts for its preflight).
 */
import { sameHash, sha256Hex } from '../../core/ids.ts';
import { pinChecks, type Limit } from '../../core/rate-limit.ts';
import { clientAddress } from '../../http/client-address.ts';
import { requestLocale } from '../../http/locale.ts';
import { sendJson, type AppContext, type ServiceDeps } from '../../http/context.ts';
import { error } from '../../http/docs.ts';
import { ApiError, newFieldErrors, validationError } from '../../http/errors.ts';
import { SubApp, type BodyCheck } from '../../http/routes.ts';
import { MessageResponse } from '../../../contract/api/common.ts';
import { pageOfCourses } from '../../domain/classes.ts';
import { serviceLink } from '../../domain/links.ts';
import { PIN_TTL_MS, invalidateToken, queueSignInEmail } from '../../domain/sign-in.ts';
import { isWidgetKey } from '../../domain/widget-keys.ts';
import { registerWidgetRoutes } from './widgets.ts';
import { appCookies, checkCsrf, withCookies } from './app-session.ts';
import {
  CoursesResponse,
  LoginRequest,
  LoginResponse,
  PER_PAGE_DEFAULT,
  PER_PAGE_MAX,
  SessionRequest,
  TokenResponse,
  UserResponse,
  VerifyRequest,
} from '../../../contract/api/rest.ts';
import {
  appSessionOfLink,
  findApplication,
  findUser,
  issueToken,
  lecturerClassIds,
  restClasses,
  startLogin,
  userCompanies,
  userOfToken,
  verifyPin,
  type AppRow,
  type UserRow,
} from './store.ts';

/** `client_secret` goes with `verification_method: "client_secret"`, and only with it. */
const secretWithItsMethod: BodyCheck = (raw, fields) => {
  if ('client_secret' in fields) return;
  const secret = raw.client_secret;
  if (raw.verification_method === 'client_secret' && (typeof secret !== 'string' || secret === '')) {
    fields.client_secret = 'Send client_secret (the client secret of your application) with verification_method "client_secret".';
  }
  if (raw.verification_method === 'email' && secret !== undefined) {
    fields.client_secret = 'client_secret goes with verification_method "client_secret" only: remove it.';
  }
};

/** A session is asked for with the PIN and its email, or with the emailed link's key: one of the two. */
const pinOrLink: BodyCheck = (raw, fields) => {
  if ('key' in raw) {
    if ('email' in raw || 'pin' in raw) fields.key ??= 'Send either key (the emailed link’s) or email and pin, not both.';
    return;
  }
  if (!('email' in raw)) fields.email ??= 'Send email: the address the PIN was sent to (or key, of the emailed link).';
  if (!('pin' in raw)) fields.pin ??= 'Send pin: the 6 digits from the email, as a string (for example "042917").';
};

/** The service's app never holds a token: it signs in with POST /v1/session. */
const appOnlyByCookie = () =>
  new ApiError(403, 'app-only', 'The service’s app exchanges the PIN with POST /v1/session, which keeps its token in a cookie.');

/** `X-SERVICE-COMPANY`: the company's id, a whole number (GET /v1/user lists them). */
function companyHeader(c: AppContext): number {
  const value = c.req.header('x-service-company')?.trim();
  if (value === undefined || value === '') {
    throw new ApiError(
      400,
      'missing-company',
      'Send the X-SERVICE-COMPANY header with the id of the company (GET /v1/user lists yours).',
    );
  }
  if (!/^[1-9][0-9]{0,14}$/.test(value)) {
    throw new ApiError(
      400,
      'invalid-company',
      `X-SERVICE-COMPANY must be the id of a company, a whole number such as 1, not "${value.slice(0, 40)}": GET /v1/user lists yours (user.companies[].id).`,
    );
  }
  return Number(value);
}

export function restRoutes(deps: ServiceDeps): SubApp[] {
  const app = new SubApp('/v1');
  const { store, clock, limiter } = deps;
  const { db } = store;
  const cookies = appCookies(deps);

  app.use('*', async (c, next) => {
    await next();
    c.res.headers.set('Cache-Control', 'no-store');
  });

  const limitLogins = async (c: AppContext, email: string) => {
    const rules = deps.limits.login;
    const limits: Limit[] = [
      { key: `login:address:${clientAddress(c, deps.trustProxy)}`, ...rules.perAddress },
      { key: `login:email:${email}`, ...rules.perEmail },
    ];
    await limiter.take(limits, 'logins');
  };

  const requireApplication = async (c: AppContext): Promise<AppRow> => {
    const key = c.req.header('x-service-api-key')?.trim();
    if (!key) throw new ApiError(401, 'missing-api-key', 'Send your REST API key in the X-SERVICE-API-KEY header.');
    const application = await findApplication(db, key);
    if (application) return application;
    throw new ApiError(
      401,
      'invalid-api-key',
      key.startsWith('wk_') || (await isWidgetKey(db, key))
        ? 'This is a widget key: widget keys work only for the widgets (the widget API), not for the REST API. Send the REST API key of your application.'
        : 'The service does not know this API key. Check the X-SERVICE-API-KEY header.',
    );
  };

  const requireUser = async (c: AppContext, application: AppRow): Promise<UserRow> => {
    // The service's app: the token of its cookie only, and every change with the session's CSRF value.
    const app = application.first_party;
    const token = app ? cookies.token(c) : c.req.header('x-service-token')?.trim();
    if (!token) {
      throw new ApiError(
        401,
        'missing-token',
        app
          ? 'Not signed in: sign in to the app (POST /v1/login, then POST /v1/session).'
          : 'Send the user token in the X-SERVICE-TOKEN header (POST /v1/login gets one).',
      );
    }
    const user = await userOfToken(db, application, sha256Hex(token), clock.now());
    if (!user) {
      throw new ApiError(
        401,
        'invalid-token',
        app ? 'The session has ended: sign in again.' : 'This token is not valid (any more): log in again with POST /v1/login.',
      );
    }
    if (app) checkCsrf(c, token, cookies.names.csrf);
    return user;
  };

  /** The user of the request and the company of its X-SERVICE-COMPANY header, with their role there. */
  const companyOfRequest = async (c: AppContext) => {
    const application = await requireApplication(c);
    const user = await requireUser(c, application);
    const companyId = companyHeader(c);
    const company = (await userCompanies(db, application, user.id)).find((co) => co.id === companyId);
    if (!company) {
      throw new ApiError(
        403,
        'company-not-allowed',
        'You hold no role in this company for this application. GET /v1/user lists the companies you can use.',
      );
    }
    return { user, company };
  };

  /** The token for the emailed PIN, with its limits: every check counts per address, only wrong PINs per email. */
  const tokenForPin = async (c: AppContext, application: AppRow, email: string, pin: string): Promise<string> => {
    const checks = pinChecks(limiter, deps.limits.verify, {
      address: `verify:address:${clientAddress(c, deps.trustProxy)}`,
      email: `verify:email:${email}`,
    });
    await checks.check();
    const now = clock.now();
    // Decide and record the attempt in one transaction: parallel guesses cannot share a try.
    const outcome = await store.transaction((tx) => verifyPin(tx, now, application, email, pin));
    if ('wrong' in outcome) await checks.judged(outcome.wrong);
    if ('token' in outcome) return outcome.token;
    throw new ApiError(
      401,
      'invalid-pin',
      'This PIN is wrong, used or expired (a PIN is valid for 5 minutes, once, and for 5 tries). Log in again for a new one.',
    );
  };

  const REST = ['REST API'];
  const BODY_ERRORS = {
    '400': 'BadRequest',
    '413': 'PayloadTooLarge',
    '415': 'UnsupportedMediaType',
    '422': 'Validation',
    '429': 'RateLimited',
  };

  deps.api.add(
    app,
    {
      method: 'post',
      path: '/v1/login',
      tags: REST,
      operationId: 'login',
      summary: 'Log a user in, by emailed link and PIN or by client secret',
      description:
        '`email`: the user is emailed a link whose `key` query parameter is a token, and a 6-digit PIN (valid 5 minutes, once, 5 tries; a new login replaces it). The link opens the page the application names (default: the demo’s sign-in page; in development mode `POST /dev/login-links` sets it, an absolute http(s) URL). The answer is the same whether or not the email belongs to a user. `client_secret`: the token in the answer, for server-to-server use.',
      security: [{ apiKey: [] }],
      body: LoginRequest,
      responses: {
        '200': { description: 'Email sent (`email`), or the token (`client_secret`)', schema: LoginResponse },
        ...BODY_ERRORS,
        '401': error('`missing-api-key`, `invalid-api-key` (also for a widget key), `invalid-credentials`'),
      },
    },
    async (c, body) => {
      const application = await requireApplication(c);
      const input = await body(secretWithItsMethod);
      await limitLogins(c, input.login);

      if (input.verification_method === 'client_secret') {
        const user = await findUser(db, application, input.login);
        // The service's app has no client secret: its users sign in by email only.
        const secretOk = !application.first_party && sameHash(sha256Hex(input.client_secret!), application.client_secret_hash);
        if (!secretOk || !user) throw new ApiError(401, 'invalid-credentials', 'The login or the client secret is not valid.');
        const token = await issueToken(db, clock.now(), user, application);
        return sendJson({ message: 'Logged in.', token } satisfies TokenResponse);
      }

      // The answer is the same whether or not the email belongs to a user, and it goes out before
      // anything is looked up or written: neither its words nor its time tell which emails do.
      // In the language the caller asks for (the app sends its page's), English by default.
      const locale = requestLocale(c);
      deps.jobs.add('REST login email', async () => {
        const user = await findUser(db, application, input.login);
        if (!user) return;
        await store.transaction(async (tx) => {
          const now = clock.now();
          const { pin, token } = await startLogin(tx, now, user, application, PIN_TTL_MS);
          // An application without a page of its own (no login link) signs in by the PIN alone.
          const link = application.login_link ? serviceLink(deps.publicUrl, application.login_link) : undefined;
          link?.searchParams.set('key', token);
          // From the company (the sender name of all its mail), about its application.
          const company =
            application.company_id === null
              ? undefined
              : await tx.selectFrom('companies').select('name').where('id', '=', application.company_id).executeTakeFirst();
          await queueSignInEmail(tx, now, user, {
            name: application.name,
            place: application.name,
            link: link?.href ?? null,
            pin,
            locale,
            ...(company ? { fromName: company.name } : {}),
          });
        });
      });
      return sendJson({
        message:
          'If this email belongs to a user of this application, a sign-in link and a 6-digit PIN are on their way. The PIN is valid for 5 minutes.',
      } satisfies MessageResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'post',
      path: '/v1/verify',
      tags: REST,
      operationId: 'verifyPin',
      summary: 'Exchange the emailed PIN for a token',
      security: [{ apiKey: [] }],
      body: VerifyRequest,
      responses: {
        '200': { description: 'The PIN was right', schema: TokenResponse },
        ...BODY_ERRORS,
        '401': error(
          '`missing-api-key`, `invalid-api-key`, `invalid-pin` (wrong, used, expired, out of tries, or no PIN for this email)',
        ),
        '403': error('`app-only`: the service’s app (`POST /v1/session`)'),
      },
    },
    async (c, body) => {
      const application = await requireApplication(c);
      if (application.first_party) throw appOnlyByCookie();
      const { email, pin } = await body();
      const token = await tokenForPin(c, application, email, pin);
      return sendJson({ message: 'PIN accepted.', token } satisfies TokenResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'get',
      path: '/v1/user',
      tags: REST,
      operationId: 'user',
      summary: 'The logged-in user, their companies and roles, and the application',
      description:
        '`user.id`, `user.companies[].id` (the value of `X-SERVICE-COMPANY`), `app.application_id` and `app.company_id` are integers.',
      security: [{ apiKey: [], userToken: [] }],
      responses: { '200': { description: 'The user', schema: UserResponse }, '401': 'Unauthorized' },
    },
    async (c) => {
      const application = await requireApplication(c);
      const user = await requireUser(c, application);
      return sendJson({
        user_valid: true,
        user: {
          id: user.id,
          first_name: user.first_name,
          last_name: user.last_name,
          email: user.email,
          companies: await userCompanies(db, application, user.id),
        },
        app: { application_id: application.id, company_id: application.company_id, type: 'application' },
      } satisfies UserResponse);
    },
  );

  deps.api.add(
    app,
    {
      method: 'get',
      path: '/v1/courses',
      tags: REST,
      operationId: 'courses',
      summary: "The company's programmes with their classes, scoped to the user's role",
      security: [{ apiKey: [], userToken: [] }],
      parameters: [
        { $ref: '#/components/parameters/Company' },
        { $ref: '#/components/parameters/Page' },
        { $ref: '#/components/parameters/PerPage' },
      ],
      responses: {
        '200': { description: 'One page of programmes', schema: CoursesResponse },
        '400': error('`missing-company`: no X-SERVICE-COMPANY header; `invalid-company`: not a company id (a whole number)'),
        '401': 'Unauthorized',
        '403': error('`company-not-allowed`: the user holds no role in this company for this application'),
        '422': 'Validation',
      },
    },
    async (c) => {
      const { user, company } = await companyOfRequest(c);
      const { page, perPage } = pagination(c);
      const classIds = company.role === 'lecturer' ? await lecturerClassIds(db, user.id) : undefined;
      const { total, entries } = await pageOfCourses(
        db,
        { companyId: company.id, ...(classIds ? { classIds } : {}) },
        { offset: (page - 1) * perPage, limit: perPage },
      );
      // Owners see who booked every class, lecturers who booked theirs; members see numbers only.
      const showParticipants = company.role !== 'member';
      const shown = await restClasses(
        db,
        entries.flatMap((e) => e.classes),
        showParticipants,
      );
      let next = 0;
      const courses = entries.map(({ course, classes }) => ({
        id: course.id,
        title: course.title,
        summary: course.summary,
        category: course.category,
        classes: classes.map(() => shown[next++]!),
      }));
      return sendJson({
        company,
        courses,
        pagination: { page, per_page: perPage, total, total_pages: Math.max(1, Math.ceil(total / perPage)) },
      } satisfies CoursesResponse);
    },
  );
  const requireTheApp = async (c: AppContext) => {
    const application = await requireApplication(c);
    if (!application.first_party) {
      throw new ApiError(
        403,
        'app-only',
        'Sessions by cookie are the service’s own app’s: your application exchanges the PIN with POST /v1/verify.',
      );
    }
    return application;
  };
  const APP = ['Service app'];

  deps.api.add(
    app,
    {
      method: 'post',
      path: '/v1/session',
      tags: APP,
      operationId: 'appSignIn',
      summary: 'The service’s app: exchange the emailed PIN or link for a session cookie',
      description: `For the service's own app only (\`X-SERVICE-API-KEY: service-app\`): the PIN of \`POST /v1/login\` (\`{ email, pin }\`, its rules and limits) or the \`key\` of its emailed link (once; the link's token dies) starts a session of 7 days. The token is never answered: it is set as an HttpOnly, SameSite=Strict cookie (\`__Host-\`, Secure, over https), beside a readable CSRF cookie whose value every later change sends in \`X-CSRF-Token\`.`,
      security: [{ apiKey: [] }],
      body: SessionRequest,
      responses: {
        '200': { description: 'Signed in: the session’s cookies are set', schema: MessageResponse },
        ...BODY_ERRORS,
        '401': error('`missing-api-key`, `invalid-api-key`, `invalid-pin`, `invalid-link` (used, expired, or not the app’s)'),
        '403': error('`app-only`: another application’s key'),
      },
    },
    async (c, body) => {
      const application = await requireTheApp(c);
      const input = await body(pinOrLink);
      const now = clock.now();
      let token: string | undefined;
      const { key } = input;
      if (key !== undefined) {
        await limiter.take(
          [{ key: `verify:address:${clientAddress(c, deps.trustProxy)}`, ...deps.limits.verify.perAddress }],
          'PIN checks',
        );
        token = await store.transaction((tx) => appSessionOfLink(tx, now, sha256Hex(key)));
        if (!token) {
          throw new ApiError(
            401,
            'invalid-link',
            'This sign-in link is used or expired (a link works once, within an hour): sign in again for a new one.',
          );
        }
      } else {
        token = await tokenForPin(c, application, input.email!, input.pin!);
      }
      return withCookies(sendJson({ message: 'Signed in.' } satisfies MessageResponse), cookies.set(token));
    },
  );

  deps.api.add(
    app,
    {
      method: 'delete',
      path: '/v1/session',
      tags: APP,
      operationId: 'appSignOut',
      summary: 'The service’s app: sign out (the session’s token ends, its cookies go)',
      security: [{ apiKey: [] }],
      responses: {
        '200': { description: 'Signed out', schema: MessageResponse },
        '401': error('`missing-api-key`, `invalid-api-key`'),
        '403': error('`app-only`; `csrf-failed`: no valid `X-CSRF-Token`'),
      },
    },
    async (c) => {
      await requireTheApp(c);
      const token = cookies.token(c);
      if (token) {
        checkCsrf(c, token, cookies.names.csrf);
        await invalidateToken(db, sha256Hex(token), clock.now());
      }
      return withCookies(sendJson({ message: 'Signed out.' } satisfies MessageResponse), cookies.clear());
    },
  );

  registerWidgetRoutes(app, deps, async (c) => (await companyOfRequest(c)).company);
  return [app];
}

function pagination(c: AppContext): { page: number; perPage: number } {
  const fields = newFieldErrors();
  const parse = (name: string, fallback: number, max: number): number => {
    const raw = c.req.query(name);
    if (raw === undefined) return fallback;
    const n = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
    if (!(n >= 1 && n <= max)) {
      fields[name] = name === 'page' ? 'page is a whole number from 1.' : `per_page is a whole number from 1 to ${PER_PAGE_MAX}.`;
    }
    return n;
  };
  const page = parse('page', 1, Number.MAX_SAFE_INTEGER);
  const perPage = parse('per_page', PER_PAGE_DEFAULT, PER_PAGE_MAX);
  if (Object.keys(fields).length > 0) throw validationError(fields);
  return { page, perPage };
}
