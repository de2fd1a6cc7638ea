/** The keys CLI's command line (./keys-cli.ts): its help text and the parser of its arguments into a command. */
import { parseArgs } from 'node:util';
import { PLANS, VERTICALS } from '../../data-contracts/constants';
import { type KeyScope, parseKeyScope } from '../../lambdas/access/api-key';

export const HELP = `Manage Provider Facts API keys.

Usage:
  npm run keys -- create --plan <${PLANS.join('|')}> [--vertical <v>] [--json]
  npm run keys -- revoke <key>
  npm run keys -- rotate <key> [--json]
  npm run keys -- list

Options:
  --plan <plan>      plan of the new key
  --vertical <v>     required for builder keys (the one vertical they may query): ${VERTICALS.join(', ')}
  --json             print one JSON object (create, rotate)
  -h, --help         show this help

A key is shown only once, when it is created or rotated; only its SHA-256 hash is stored.
Revocations and rotations reach a running API within 5 seconds.

Tables: PF_KEYS_TABLE and PF_USAGE_TABLE (with PF_DYNAMODB_ENDPOINT, AWS_REGION) select a deployment's tables;
otherwise the local database under PF_LOCAL_DIR (default .local) is used.`;

/** Thrown for bad command lines; printed with a pointer to --help. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export type Command =
  | { name: 'help' }
  | { name: 'create'; scope: KeyScope; json: boolean }
  | { name: 'revoke'; key: string; json: boolean }
  | { name: 'rotate'; key: string; json: boolean }
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
  if (values.help) return { name: 'help' };
  const [name, ...rest] = positionals;
  const json = values.json === true;
  const noExtra = (allowed: number) => {
    if (rest.length > allowed) throw new UsageError(`unexpected argument ${JSON.stringify(rest[allowed])}`);
  };
  const refuseOptions = (...names: ('plan' | 'vertical')[]) => {
    for (const option of names) {
      if (values[option] !== undefined) throw new UsageError(`--${option} is only for create`);
    }
  };
  switch (name) {
    case 'create': {
      noExtra(0);
      if (values.plan === undefined) throw new UsageError('create needs --plan');
      // Refused here, before any database is opened.
      return { name: 'create', scope: parseKeyScope(values.plan, values.vertical), json };
    }
    case 'revoke':
    case 'rotate': {
      refuseOptions('plan', 'vertical');
      const key = rest[0];
      if (!key) throw new UsageError(`${name} needs the key: npm run keys -- ${name} <key>`);
      noExtra(1);
      return { name, key, json };
    }
    case 'list':
      refuseOptions('plan', 'vertical');
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
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
    strict: true,
  });
}
