import { parseArgs } from 'node:util';
import { type Platform } from '@frete/platform';
import { type Operator } from '@frete/application';
import { type CredentialKind } from '@frete/contracts';
import { Rejection } from '@frete/domain';

export const USAGE = `pnpm ops <command>   (prints JSON)
  company create --cnpj <cnpj> --name <razao social> [--carrier] [--fiscal-ready] [--fiscal-production]
  company update --company <id|cnpj> [--carrier=true|false] [--fiscal-ready=true|false] [--fiscal-production=true|false]
  company list
  credential create --company <id|cnpj> --kind api-key|oauth [--scopes fiscal,operacao,cadastros,consultas]
  credential list [--company <id|cnpj>]
  credential revoke --id <credential id>
  projections rebuild
Works on the same data as the service: DATABASE_URL / EVENTSTORE_URL when set, else the embedded PostgreSQL in DATA_DIR.`;

export class UsageError extends Error {}

const bool = (v: string | boolean | undefined, name: string): boolean | undefined => {
  if (v === undefined) return undefined;
  if (v === true || v === 'true') return true;
  if (v === 'false') return false;
  throw new UsageError(`--${name} takes true or false`);
};

const required = (v: string | boolean | undefined, name: string): string => {
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${name} is required`);
  return v;
};

/** Runs one operator command and returns what to print. */
export async function runOps(platform: Pick<Platform, 'projections'> & { operator: Operator }, argv: string[]): Promise<unknown> {
  const FLAGS = ['--carrier', '--fiscal-ready', '--fiscal-production'];
  // `--carrier` alone means true; `--carrier=false` is accepted by `company update`.
  const args = argv.map((a) => (FLAGS.includes(a) ? `${a}=true` : a));
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      cnpj: { type: 'string' },
      name: { type: 'string' },
      company: { type: 'string' },
      kind: { type: 'string' },
      scopes: { type: 'string' },
      id: { type: 'string' },
      carrier: { type: 'string' },
      'fiscal-ready': { type: 'string' },
      'fiscal-production': { type: 'string' },
    },
  });
  const op = platform.operator;
  const [noun, verb] = positionals;
  switch (`${noun ?? ''} ${verb ?? ''}`) {
    case 'company create':
      return op.createCompany({
        cnpj: required(values.cnpj, 'cnpj'),
        razao_social: required(values.name, 'name'),
        carrier: bool(values.carrier, 'carrier') ?? false,
        fiscal_ready: bool(values['fiscal-ready'], 'fiscal-ready') ?? false,
        fiscal_production: bool(values['fiscal-production'], 'fiscal-production') ?? false,
      });
    case 'company update':
      return op.changeFlags(required(values.company, 'company'), {
        carrier: bool(values.carrier, 'carrier'),
        fiscal_ready: bool(values['fiscal-ready'], 'fiscal-ready'),
        fiscal_production: bool(values['fiscal-production'], 'fiscal-production'),
      });
    case 'company list':
      return op.listCompanies();
    case 'credential create': {
      const kind = required(values.kind, 'kind');
      if (kind !== 'api-key' && kind !== 'oauth') throw new UsageError('--kind is api-key or oauth');
      const scopes = typeof values.scopes === 'string' ? values.scopes.split(',').map((s) => s.trim()).filter(Boolean) : [];
      return op.createCredential({ company: required(values.company, 'company'), kind: kind as CredentialKind, scopes });
    }
    case 'credential list':
      return op.listCredentials(typeof values.company === 'string' ? values.company : undefined);
    case 'credential revoke':
      return op.revokeCredential(required(values.id, 'id'));
    case 'projections rebuild': {
      const applied = await platform.projections.rebuild();
      return { rebuilt: true, events_applied: applied };
    }
    default:
      throw new UsageError(`unknown command '${positionals.join(' ')}'`);
  }
}

export function describeError(err: unknown): { error: { code: string; message: string } } {
  if (err instanceof UsageError) return { error: { code: 'uso', message: `${err.message}\n${USAGE}` } };
  if (err instanceof Rejection) return { error: { code: err.code, message: err.message } };
  return { error: { code: 'erro_interno', message: err instanceof Error ? err.message : String(err) } };
}
