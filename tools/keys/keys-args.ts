/** The keys CLI's command line (./keys-cli.ts): its help text and the parser of its arguments into a command. */
import { parseArgs } from 'node:util';
import { PLANS, VERTICALS } from '../../data-contracts/constants';
import { type KeyScope, parseKeyScope } from '../../lambdas/access/api-key';

export const HELP = `Manage Provider Facts API keys.

Usage:
  npm run keys -- create --plan <${PLANS.join('|')}> [--vertical <v>] [--label <text>] [--json]
  npm run keys -- list [--json]
  npm run keys -- show <key-id> [--json]
  npm run keys -- revoke <key-id> [--json]
  npm run keys -- rotate <key-id> [--json]
  npm run keys -- help <command>      (or <command> --help): one command's help
  npm run keys -- --version

A key id (key_ and 16 hex digits) names a key without revealing it: \`list\` shows every key's id. show, revoke
and rotate also accept the plaintext key itself.

Options:
  --plan <plan>      plan of the new key
  --vertical <v>     required for builder keys (the one vertical they may query): ${VERTICALS.join(', ')}
  --label <text>     who or what the key is for (create): shown by list and show
  --json             print JSON instead of text
  -h, --help         show this help
  -V, --version      print the version

A key is shown only once, when it is created or rotated; only its SHA-256 hash is stored.
Revocations and rotations reach a running API within 5 seconds.

Tables: PF_KEYS_TABLE and PF_USAGE_TABLE (with PF_DYNAMODB_ENDPOINT, AWS_REGION) select a deployment's tables;
otherwise the local database under PF_LOCAL_DIR (default .local) is used.`;

const KEY_REF = `The key is named by its key id (from \`npm run keys -- list\`) or by the plaintext key.`;

/** One command's help: what \`keys help <command>\` and \`keys <command> --help\` print. */
export const COMMAND_HELP = {
  create: `Usage: npm run keys -- create --plan <${PLANS.join('|')}> [--vertical <v>] [--label <text>] [--json]

Issues a new active key and prints it once: store it then, only its hash is kept.
  --plan <plan>      ${PLANS.join(', ')}
  --vertical <v>     required for builder keys, refused for others: ${VERTICALS.join(', ')}
  --label <text>     who or what the key is for (free text, shown by list and show)
  --json             print one JSON object: the key, its id and its record`,
  list: `Usage: npm run keys -- list [--json]

Lists every key (any status), oldest first: id, label, plan, vertical, status, created, last used and this
month's metered calls. Last used is the latest metered call in the months the usage table still keeps
(enterprise keys are not metered, so they show none). Never shows a key.`,
  show: `Usage: npm run keys -- show <key-id> [--json]

Prints one key's details and usage. ${KEY_REF}`,
  revoke: `Usage: npm run keys -- revoke <key-id> [--json]

Revokes a key: a running API refuses it within 5 seconds. Revoking a revoked or rotated key changes nothing.
${KEY_REF}`,
  rotate: `Usage: npm run keys -- rotate <key-id> [--json]

Replaces an active key with a new one of the same plan, vertical and label, printed once; the old key stops
working within 5 seconds on a running API. ${KEY_REF}`,
} as const;

/** The keys CLI's commands. */
export type CommandName = keyof typeof COMMAND_HELP;

function isCommandName(value: string | undefined): value is CommandName {
  return value !== undefined && Object.hasOwn(COMMAND_HELP, value);
}

/** Thrown for bad command lines; printed with a pointer to --help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type Command =
  | { name: 'help'; command?: CommandName }
  | { name: 'version' }
  | { name: 'create'; scope: KeyScope; label?: string; json: boolean }
  | { name: 'revoke'; key: string; json: boolean }
  | { name: 'rotate'; key: string; json: boolean }
  | { name: 'show'; key: string; json: boolean }
  | { name: 'list'; json: boolean };

/** Parses the arguments after `keys-cli.ts`. Throws {@link UsageError}. */
export function parseCommand(argv: string[]): Command {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  const [name, ...rest] = positionals;
  if (values.help) return isCommandName(name) ? { name: 'help', command: name } : { name: 'help' };
  if (values.version) return { name: 'version' };
  if (name === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { name: 'help' };
    if (!isCommandName(topic)) throw new UsageError(`no help for ${JSON.stringify(topic)}: not a command`);
    return { name: 'help', command: topic };
  }
  const json = values.json === true;
  const noExtra = (allowed: number) => {
    if (rest.length > allowed) throw new UsageError(`unexpected argument ${JSON.stringify(rest[allowed])}`);
  };
  const refuseOptions = (...names: ('plan' | 'vertical' | 'label')[]) => {
    for (const option of names) {
      if (values[option] !== undefined) throw new UsageError(`--${option} is only for create`);
    }
  };
  switch (name) {
    case 'create': {
      noExtra(0);
      if (values.plan === undefined) throw new UsageError('create needs --plan');
      // Refused here, before any database is opened.
      const scope = parseKeyScope(values.plan, values.vertical);
      const label = values.label?.trim();
      return { name: 'create', scope, ...(label ? { label } : {}), json };
    }
    case 'revoke':
    case 'rotate':
    case 'show': {
      refuseOptions('plan', 'vertical', 'label');
      const key = rest[0];
      if (!key) throw new UsageError(`${name} needs the key id: npm run keys -- ${name} <key-id>`);
      noExtra(1);
      return { name, key, json };
    }
    case 'list':
      refuseOptions('plan', 'vertical', 'label');
      noExtra(0);
      return { name: 'list', json };
    case undefined:
      throw new UsageError('no command given');
    default:
      throw new UsageError(`unknown command ${JSON.stringify(name)}`);
  }
}

function parseOptions(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      plan: { type: 'string' },
      vertical: { type: 'string' },
      label: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'V' },
    },
    allowPositionals: true,
    strict: true,
  });
}
