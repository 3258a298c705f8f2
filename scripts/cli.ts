// Operator commands: npm run cli -- <command> [options]. Run without arguments for help.
import { parseArgs } from 'node:util';
import { createCompanyWithKey } from '../src/accounts/companies/companies.ts';
import { createApiKey } from '../src/accounts/keys/api-keys.ts';
import type { ChainTransactionState } from '../src/adapters/chain/transaction-manager.ts';
import {
  formatChainTransactions,
  listChainTransactions,
  OPEN_STATES,
} from '../src/adapters/chain/transaction-report.ts';
import {
  listAuthorities,
  registerAuthority,
  unregisterAuthority,
} from '../src/passport/disclosure/grants.ts';
import { evidenceFor } from '../src/passport/evidence/evidence-for.ts';
import { ENVIRONMENTS, type Environment, loadConfig } from '../src/platform/config/config.ts';
import { Company } from '../src/platform/db/entities/index.ts';
import { createLogger } from '../src/platform/logging/logger.ts';
import { openDatabase } from '../src/platform/runtime/database.ts';
import { SecretBox } from '../src/platform/secret-box.ts';
import { IssuerKeyring } from '../src/standards/credentials/issuer-keys.ts';
import { BACKUP_PEER_HELP, backupPeerCommand } from './backup-peer-cli.ts';
import { devTap, tapBaseUrl } from './dev/tap.ts';
import { EXIT_HELP, runExport, runImport } from './exit-commands.ts';

const HELP = `Usage: npm run cli -- <command> [options]

Commands:
  company:create --name <name> [--email <email>] [--env test|live]
      Creates a company (and a user if --email is given) and prints its first API key.
  api-key:create --company <companyId> [--env test|live] [--name <name>]
      Prints a new API key for an existing company.
  company:list
      Lists companies.
  chain:transactions [--state open|signed|sent|mined|confirmed|reverted|reorged|superseded|abandoned] [--limit <n>]
      The transaction manager's chain transactions, newest first (default 50): nonce, state, fee bumps, drops,
      reorgs, seconds to confirmation, hash. --state open: those not mined and confirmed yet.
  authority:grant <companyId> [--note <text>]
      Puts a company in the register of authorities (market surveillance, the European Commission): its API
      keys, OAuth clients and people read every brand's passports as the authority role (docs/disclosure.md).
  authority:revoke <companyId>
      Takes a company off the register.
  authority:list
      The register.
  evidence <dppId> [--env test|live]
      Prints the passport's evidence bundle (JSON; docs/evidence.md): every version, the signed credentials,
      the issuer's DID documents over time, the events with their chain anchors, a manifest signed by the issuer.
  verify-evidence <file> --rpc <chain node URL> [--trust <issuer Multikey>]…
      Checks an evidence bundle with only the file and the chain node (no database, no service): every
      signature, every hash, every anchor. One line per check; exit code 0 when none failed, 1 otherwise.
      --trust: the issuer's keys as published (its did.json); the manifest must be signed by one of them.
  tap <chipUid> [--gtin <gtin> --serial <tokenId>] [--env test|live] [--counter <n>]
      A fresh tap of a development chip (factory all-zero keys): prints its SUN query (for nfcData) and, with
      --gtin and --serial, the URL a phone opens. Each call uses the chip's next read counter (kept in
      .data/dev-taps.json). Needs no database: works while npm start runs.
${BACKUP_PEER_HELP}
${EXIT_HELP}

The database is DATABASE_URL, or the embedded one when it is unset (shared with npm start when that runs).`;

function fail(message: string): never {
  console.error(`${message}\n\n${HELP}`);
  process.exit(2);
}

const [command, ...rest] = process.argv.slice(2);
const { values, positionals } = parseArgs({
  args: rest,
  options: {
    name: { type: 'string' },
    email: { type: 'string' },
    env: { type: 'string', default: 'test' },
    company: { type: 'string' },
    gtin: { type: 'string' },
    serial: { type: 'string' },
    counter: { type: 'string' },
    state: { type: 'string' },
    limit: { type: 'string' },
    note: { type: 'string' },
    rpc: { type: 'string' },
    trust: { type: 'string', multiple: true },
    to: { type: 'string' },
    token: { type: 'string' },
    peer: { type: 'string' },
    out: { type: 'string' },
    dir: { type: 'string' },
    'old-host': { type: 'string' },
    'include-secrets': { type: 'boolean', default: false },
  },
  allowPositionals: true,
  strict: true,
});
if (!command || command === 'help' || command === '--help') {
  console.log(HELP);
  process.exit(0);
}
const environment = values.env as Environment;
if (!(ENVIRONMENTS as readonly string[]).includes(environment))
  fail(`--env must be live or test (got ${values.env}).`);

if (command === 'verify-evidence') {
  const file = positionals[0];
  if (!file || !values.rpc) fail('verify-evidence needs a bundle file and --rpc <chain node URL>.');
  const { verifyEvidenceFile } = await import('../src/passport/evidence/verify-file.ts');
  process.exit(await verifyEvidenceFile(file, { rpcUrl: values.rpc, trustedKeys: values.trust ?? [] }));
}

if (command === 'tap') {
  const chipUid = positionals[0];
  if (!chipUid) fail('tap needs a chip UID.');
  if (Boolean(values.gtin) !== Boolean(values.serial)) fail('tap takes --gtin and --serial together.');
  const tap = await devTap({
    chipUid,
    counterFile: '.data/dev-taps.json',
    counter: values.counter === undefined ? undefined : Number(values.counter),
    passport:
      values.gtin && values.serial
        ? {
            baseUrl: await tapBaseUrl(process.env, loadConfig().publicBaseUrl),
            environment,
            gtin: values.gtin,
            serial: values.serial,
          }
        : undefined,
  }).catch((error: Error) => fail(error.message));
  console.log(`chip     ${tap.chipUid} (read counter ${tap.counter})`);
  console.log(`nfcData  ${tap.query}`);
  if (tap.url) console.log(`url      ${tap.url}`);
  process.exit(0);
}

const config = loadConfig();
const database = await openDatabase(config, createLogger('warn'));
try {
  const em = database.orm.em.fork();
  if (command === 'company:create') {
    if (!values.name) fail('company:create needs --name.');
    const created = await createCompanyWithKey(em, { name: values.name, email: values.email, environment });
    console.log(`company  ${created.company.id}  ${created.company.name}`);
    if (created.user) console.log(`user     ${created.user.id}  ${created.user.email}`);
    console.log(`${environment} API key (shown only now):\n  ${created.apiKey.key}`);
  } else if (command === 'api-key:create') {
    if (!values.company) fail('api-key:create needs --company.');
    const company = await em.findOne(Company, { id: values.company });
    if (!company) fail(`No company ${values.company}.`);
    const { key } = await createApiKey(em, { companyId: company.id, environment }, values.name ?? 'CLI key');
    console.log(`${environment} API key for ${company.name} (shown only now):\n  ${key}`);
  } else if (command === 'company:list') {
    for (const company of await em.find(Company, {}, { orderBy: { createdAt: 'asc' } })) {
      console.log(`${company.id}  ${company.createdAt.toISOString()}  ${company.name}`);
    }
  } else if (command === 'chain:transactions') {
    const known = [...OPEN_STATES, 'confirmed', 'reverted', 'superseded', 'abandoned'];
    if (values.state && values.state !== 'open' && !known.includes(values.state as ChainTransactionState))
      fail(`--state must be open or one of ${known.join(', ')}.`);
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
      fail('--limit must be an integer from 1 to 1000.');
    const states =
      values.state === 'open' ? OPEN_STATES : values.state ? [values.state as ChainTransactionState] : [];
    for (const line of formatChainTransactions(await listChainTransactions(database.orm, { states, limit })))
      console.log(line);
  } else if (command === 'authority:grant' || command === 'authority:revoke') {
    const companyId = positionals[0];
    if (!companyId || !/^[0-9a-f-]{36}$/i.test(companyId)) fail(`${command} needs a company id (UUID).`);
    const company = await em.findOne(Company, { id: companyId });
    if (!company) fail(`No company ${companyId}.`);
    if (command === 'authority:grant') {
      const added = await registerAuthority(em, company.id, values.note ?? '');
      console.log(`${added ? 'registered' : 'already registered'}  ${company.id}  ${company.name}`);
    } else {
      const removed = await unregisterAuthority(em, company.id);
      console.log(`${removed ? 'removed' : 'was not registered'}  ${company.id}  ${company.name}`);
    }
  } else if (command === 'evidence') {
    const dppId = positionals[0];
    if (!dppId) fail('evidence needs a digitalProductPassportId (urn:uuid:… or its UUID).');
    const bundle = await evidenceFor(
      {
        em,
        keyring: new IssuerKeyring({
          orm: database.orm,
          publicBaseUrl: config.publicBaseUrl,
          configured: config.credentials.issuerKeys,
          secretBox: new SecretBox(config.secrets.dataEncryptionKey),
        }),
        publicBaseUrl: config.publicBaseUrl,
      },
      { environment, dppId, mayRead: async () => true },
    ).catch((error: Error) => fail(error.message));
    process.stdout.write(`${JSON.stringify(bundle, null, 2)}\n`);
  } else if (command === 'authority:list') {
    for (const entry of await listAuthorities(em)) {
      console.log(`${entry.companyId}  ${entry.registeredAt.toISOString()}  ${entry.note}`);
    }
  } else if (command === 'export') {
    if (!values.company || !values.out) fail('export needs --company and --out.');
    await runExport(database, config, {
      company: values.company,
      out: values.out,
      includeSecrets: values['include-secrets'],
    });
  } else if (command === 'import') {
    if (!values.dir) fail('import needs --dir.');
    await runImport(database, config, { dir: values.dir, oldHost: values['old-host'] });
  } else if (!(await backupPeerCommand(em, config, command, positionals[0], values, fail))) {
    fail(`Unknown command ${command}.`);
  }
} finally {
  await database.close();
}
