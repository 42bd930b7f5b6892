/**
 * `npm run support -- <command>`: the support and operators' tool (docs/service.md, "What support
 * runs"). It works on the store of the same settings as the service (DATA_DIR; SERVICE_MODE), beside
 * a running service. With `--json` it prints one JSON object; otherwise lines for a person. Exit
 * codes: 0 done, 1 refused (each problem said), 2 a command it does not know.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, readConfig } from '../config.ts';
import { Clock } from '../core/clock.ts';
import { openStore, StoreOpenError, type Store } from '../db/database.ts';
import {
  SupportError,
  createCompany,
  createWidgetKey,
  exportCatalogue,
  importCatalogue,
  invalidateTokensOf,
  listCompanies,
  setWidgetKeyEnabled,
  setWidgetKeyOrigins,
} from './commands.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MEDIA_DIR = join(REPO_ROOT, 'service/media');

const USAGE = `npm run support -- <command> [--json]

  company create --name N --owner-email E --owner-first-name F --owner-last-name L
                 [--contact-email E] [--currency EUR] [--vat 19] [--prices-exclude-tax] [--login-link URL]
      a company, its owner and its REST application: prints company_id, owner_user_id, api_key and
      client_secret (once: only their hashes are kept)
  company list
  catalogue import --company ID FILE      programmes, classes, lecturers, places, vouchers, videos (JSON);
                 [--move-booked]          a class with places booked keeps its time, place and price unless so
  catalogue export --company ID [FILE]    the same format, to FILE or the output
  widget-key create --company ID --type T --origin O [--origin O …]   prints key
  widget-key origins --key K --origin O [--origin O …]                 the key serves these origins from now on
  widget-key disable --key K   |   widget-key enable --key K
  tokens invalidate --email E             ends every sign-in of that email
  store backup FILE                       a consistent copy of the store, taken while the service runs

It uses the store of the service's settings: DATABASE_URL, else DATA_DIR (and SERVICE_MODE=development
for a development store, default <repo>/data).`;

const COMMANDS = [
  'company create',
  'company list',
  'catalogue import',
  'catalogue export',
  'widget-key create',
  'widget-key origins',
  'widget-key disable',
  'widget-key enable',
  'tokens invalidate',
  'store backup',
];

/** The options that take a value. */
const VALUED = [
  'name',
  'owner-email',
  'owner-first-name',
  'owner-last-name',
  'contact-email',
  'currency',
  'vat',
  'login-link',
  'company',
  'type',
  'origin',
  'key',
  'email',
];

interface Args {
  words: string[];
  flags: Map<string, string[]>;
}

function parse(argv: string[]): Args {
  const words: string[] = [];
  const flags = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const boolean = ['json', 'development', 'prices-exclude-tax', 'move-booked', 'help'].includes(name);
    if (!boolean && !VALUED.includes(name))
      throw new SupportError([`--${name} is no option of the support tool (npm run support -- help lists them).`]);
    const value = inline ?? (boolean ? 'true' : argv[++i]);
    if (value === undefined || (inline === undefined && value.startsWith('--')))
      throw new SupportError([`--${name} needs a value.`]);
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { words, flags };
}

/** Runs one command; resolves with the exit code. `out` and `err` are where it writes (tests pass their own). */
export async function support(
  argv: string[],
  io: { out: (text: string) => void; err: (text: string) => void; env?: NodeJS.ProcessEnv } = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  },
): Promise<number> {
  const json = argv.includes('--json');
  const refuse = (problems: string[], code: number) => {
    io.err(json ? `${JSON.stringify({ error: { problems } })}\n` : `${problems.map((p) => `Refused: ${p}`).join('\n')}\n`);
    return code;
  };
  let args: Args;
  try {
    args = parse(argv);
  } catch (error) {
    return refuse((error as SupportError).problems ?? [(error as Error).message], 2);
  }
  const one = (name: string) => args.flags.get(name)?.at(-1);
  const need = (name: string) => {
    const value = one(name);
    if (value === undefined) throw new SupportError([`--${name} is missing.`]);
    return value;
  };
  const companyId = () => {
    const value = need('company');
    if (!/^[1-9]\d{0,9}$/.test(value))
      throw new SupportError([`--company must be a company's id, a whole number (company list), not "${value}".`]);
    return Number(value);
  };
  const say = (result: Record<string, unknown>, lines: string[]) =>
    io.out(json ? `${JSON.stringify(result)}\n` : `${lines.join('\n')}\n`);

  const command = args.words.slice(0, 2).join(' ');
  if (args.flags.has('help') || command === '' || command === 'help') {
    io.out(`${USAGE}\n`);
    return command === '' && !args.flags.has('help') ? 2 : 0;
  }

  let store: Store | undefined;
  try {
    const config = readConfig(io.env ?? process.env, { development: args.flags.has('development'), only: 'store' });
    const development = config.mode === 'development';
    // A backup, or a store it makes, is the service's user's alone in production (as the service's own).
    if (!development) process.umask(0o077);
    const clock = new Clock();
    if (!COMMANDS.includes(command)) {
      if (json) return refuse([`There is no command "${command}": npm run support -- help lists them.`], 2);
      io.err(`There is no command "${command}".\n\n${USAGE}\n`);
      return 2;
    }
    store = await openStore(config.dataDir ?? join(REPO_ROOT, 'data'), clock, {
      mode: config.mode,
      seed: false,
      create: false,
      ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
    });
    const { db } = store;
    switch (command) {
      case 'company create': {
        const created = await createCompany(db, {
          name: need('name'),
          ownerEmail: need('owner-email'),
          ownerFirstName: need('owner-first-name'),
          ownerLastName: need('owner-last-name'),
          ...(one('contact-email') !== undefined ? { contactEmail: one('contact-email')! } : {}),
          ...(one('currency') !== undefined ? { currency: one('currency')! } : {}),
          ...(one('vat') !== undefined ? { vatRate: /^\d+(\.\d+)?$/.test(one('vat')!) ? Number(one('vat')) : NaN } : {}),
          pricesIncludeTax: !args.flags.has('prices-exclude-tax'),
          ...(one('login-link') !== undefined ? { loginLink: one('login-link')! } : {}),
        });
        say({ ...created }, [
          `Company ${created.company_id} created (${created.public_id}), owner: user ${created.owner_user_id}.`,
          `REST application ${created.application_id}:`,
          `  API key        ${created.api_key}`,
          `  client secret  ${created.client_secret}`,
          'Shown once: only their hashes are kept. Hand them to the company for its server, never to a browser.',
        ]);
        return 0;
      }
      case 'company list': {
        const companies = await listCompanies(db);
        say(
          { companies },
          companies.length
            ? companies.map((c) => `${c.id}  ${c.public_id}  ${c.name}  (${c.contact_email})`)
            : ['No companies yet.'],
        );
        return 0;
      }
      case 'catalogue import': {
        const file = args.words[2];
        if (!file) throw new SupportError(['Name the catalogue file: catalogue import --company ID FILE.']);
        let document: unknown;
        try {
          document = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
        } catch (error) {
          throw new SupportError([`${file}: ${(error as Error).message} (the catalogue file is JSON).`]);
        }
        const result = await importCatalogue(db, companyId(), document, MEDIA_DIR, { moveBooked: args.flags.has('move-booked') });
        const n = result.imported;
        say(result, [
          `Imported into company ${result.company_id}: ${n.programmes} programmes, ${n.classes} classes (${n.lecturers} lecturers), ${n.places} places, ${n.vouchers} vouchers, ${n.videos} videos.`,
        ]);
        return 0;
      }
      case 'catalogue export': {
        const catalogue = await exportCatalogue(db, companyId());
        const file = args.words[2];
        if (file) {
          try {
            writeFileSync(file, `${JSON.stringify(catalogue, null, 2)}\n`);
          } catch (error) {
            throw new SupportError([
              `catalogue export ${file}: ${(error as Error).message} (name a file in a folder you may write).`,
            ]);
          }
          say({ file }, [`Written to ${file}.`]);
        } else io.out(`${JSON.stringify(catalogue, null, 2)}\n`);
        return 0;
      }
      case 'widget-key create': {
        // In a write transaction: the widget's id is the next, whatever the service makes meanwhile.
        const created = await store.transaction((tx) =>
          createWidgetKey(tx, {
            companyId: companyId(),
            type: need('type'),
            origins: args.flags.get('origin') ?? [],
            development,
          }),
        );
        say(created, [`Widget key ${created.key} (${created.type}) serves ${created.origins.join(', ')}.`]);
        return 0;
      }
      case 'widget-key origins': {
        const result = await setWidgetKeyOrigins(db, need('key'), args.flags.get('origin') ?? [], development);
        say(result, [`Widget key ${result.key} serves ${result.origins.join(', ')}.`]);
        return 0;
      }
      case 'widget-key disable':
      case 'widget-key enable': {
        const result = await setWidgetKeyEnabled(db, need('key'), command.endsWith('enable'));
        say(result, [
          `Widget key ${result.key} is ${result.enabled ? 'enabled' : 'disabled: its widgets answer not-available'}.`,
        ]);
        return 0;
      }
      case 'store backup': {
        const file = args.words[2];
        if (!file)
          throw new SupportError(['Name the new file: store backup FILE (for example /backups/booking-2027-03-01.sqlite).']);
        await store.backup(file).catch((error: Error) => {
          if (error instanceof StoreOpenError) throw error;
          throw new SupportError([`store backup ${file}: ${error.message} (name a new file in a folder that exists).`]);
        });
        say({ file, from: store.file }, [
          `The store ${store.file} is copied to ${file}. To restore it: stop the service, delete service.sqlite-wal and service.sqlite-shm beside the store, and put the copy in place of service.sqlite.`,
        ]);
        return 0;
      }
      case 'tokens invalidate': {
        const result = await invalidateTokensOf(db, need('email'), clock.now());
        say(result, [`${result.invalidated} sign-in${result.invalidated === 1 ? '' : 's'} of ${result.email} ended.`]);
        return 0;
      }
      default:
        if (json) return refuse([`There is no command "${command}": npm run support -- help lists them.`], 2);
        io.err(`There is no command "${command}".\n\n${USAGE}\n`);
        return 2;
    }
  } catch (error) {
    const problems =
      error instanceof SupportError || error instanceof ConfigError
        ? error.problems
        : error instanceof StoreOpenError
          ? [error.message]
          : undefined;
    if (!problems) throw error;
    return refuse(problems, 1);
  } finally {
    await store?.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await support(process.argv.slice(2));
}
