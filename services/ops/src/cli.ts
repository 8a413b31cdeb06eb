import { parseArgs } from 'node:util';
import { PapelAnalistaError, type Platform, type RelatorioVerificacao, type ResultadoVerificacao } from '@frete/platform';
import { randomUUID } from 'node:crypto';
import {
  type CertificadoHandler,
  type ContingenciaHandler,
  contextoDoSistema,
  enviarCertificadoDeTeste,
  exigirHomologacao,
  type Operator,
  type UsuarioHandler,
} from '@frete/application';
import { type CredentialKind, type Environment, type PapelUsuario } from '@frete/contracts';
import { isPapelUsuario, Rejection } from '@frete/domain';

export const USAGE = `pnpm ops <command>   (prints JSON)
  company create --cnpj <cnpj> --name <razao social> [--carrier] [--fiscal-ready] [--fiscal-production]
  company update --company <id|cnpj> [--carrier=true|false] [--fiscal-ready=true|false] [--fiscal-production=true|false]
  company list
  credential create --company <id|cnpj> --kind api-key|oauth [--scopes fiscal,operacao,cadastros,consultas,auditoria]
  credential list [--company <id|cnpj>]
  credential revoke --id <credential id>
  user create --company <id|cnpj> --email <email> --role admin|operador|leitura   a user of the company's panel (/console):
                       prints { "usuario_id", "company_id", "email", "papel", "senha_temporaria" }, a one-time password
                       the user must change at the first login
  projections rebuild   replays the log into a side schema while the service keeps running, then swaps it in for the
                       live read models in one short transaction: prints { "rebuilt", "events_applied", "position" },
                       progress on stderr
  projections verify [--exemplos <n>]   replays the log into a side schema beside the running service and compares it
                       row by row with the live read models: prints { "identicas", "posicao", "eventos_reaplicados",
                       "tabelas": [{ "tabela", "linhas_vivas", "linhas_refeitas", "so_vivas", "so_refeitas",
                       "exemplos_so_vivas", "exemplos_so_refeitas", "estrutura" }] } (up to n sample rows, default 5),
                       progress on stderr; exits 1 when they differ. The live tables are never written.
  lote reconciliar     tell batches that ended before lote.concluido existed the outcomes they missed (safe to repeat)
  lote transcrever     batches a contractor requested under a grant before their creation was recorded in the
                       subcontractor's chain: the creation is transcribed into it, the contractor's request and outcome
                       into the contractor's; prints { "transcribed", "criacoes", "eventos_gravados" } (safe to repeat)
  contingencia ativar --uf <UF> --justificativa <15 to 255 characters>   CT-e of the UF go to its SVC (SVC-RS tpEmis 7, SVC-SP 8)
  contingencia desativar --uf <UF>     CT-e of the UF go back to its normal authorizer
  contingencia listar                  the UFs in contingency
  analyst-role create [--name <role>] [--company <id|cnpj>]   a read-only PostgreSQL login role over the read models (schema
                                       rm), of one company's rows only with --company; prints its connection string (a
                                       role of that name already such an analyst's gets a new password)
  audit verify [--company <id|cnpj>]   recompute the event log's hash chains (one company's, else all); exits 1 if tampered
  certificate sandbox --company <id|cnpj>   makes a sandbox-only test A1 for the company (self-signed, naming its CNPJ) and
                       sends it as its certificate, through the upload's checks: prints { "company_id", "cnpj",
                       "nome_arquivo", "ambiente" }. Only in the sandbox: elsewhere exit 1, homologacao_obrigatoria
Works on the same data as the service: DATABASE_URL / EVENTSTORE_URL when set, else the embedded PostgreSQL in DATA_DIR.`;

export class UsageError extends Error {}

/** The analyst's login role when `--name` is not given. */
export const ANALISTA_PADRAO = 'frete_analista';

const OPTIONS = {
  cnpj: { type: 'string' },
  name: { type: 'string' },
  company: { type: 'string' },
  kind: { type: 'string' },
  scopes: { type: 'string' },
  id: { type: 'string' },
  // Strings, not booleans: `company update` takes `--carrier=false` (a bare `--carrier` is read as `=true`).
  carrier: { type: 'string' },
  'fiscal-ready': { type: 'string' },
  'fiscal-production': { type: 'string' },
  uf: { type: 'string' },
  justificativa: { type: 'string' },
  exemplos: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
} as const;
type OptionName = keyof typeof OPTIONS;
const FLAGS: readonly OptionName[] = ['carrier', 'fiscal-ready', 'fiscal-production'];

/** Each command and the options it takes. */
const COMMANDS = {
  'company create': ['cnpj', 'name', ...FLAGS],
  'company update': ['company', ...FLAGS],
  'company list': [],
  'credential create': ['company', 'kind', 'scopes'],
  'credential list': ['company'],
  'credential revoke': ['id'],
  'user create': ['company', 'email', 'role'],
  'projections rebuild': [],
  'projections verify': ['exemplos'],
  'lote reconciliar': [],
  'lote transcrever': [],
  'contingencia ativar': ['uf', 'justificativa'],
  'contingencia desativar': ['uf'],
  'contingencia listar': [],
  'analyst-role create': ['name', 'company'],
  'audit verify': ['company'],
  'certificate sandbox': ['company'],
} as const satisfies Record<string, readonly OptionName[]>;
type CommandName = keyof typeof COMMANDS;

type Values = { [K in OptionName]?: string };

export type OpsCommand =
  | { command: 'company create'; cnpj: string; razao_social: string; carrier: boolean; fiscal_ready: boolean; fiscal_production: boolean }
  | { command: 'company update'; company: string; carrier?: boolean; fiscal_ready?: boolean; fiscal_production?: boolean }
  | { command: 'company list' }
  | { command: 'credential create'; company: string; kind: CredentialKind; scopes: string[] }
  | { command: 'credential list'; company?: string }
  | { command: 'credential revoke'; id: string }
  | { command: 'user create'; company: string; email: string; papel: PapelUsuario }
  | { command: 'projections rebuild' }
  | { command: 'projections verify'; exemplos: number }
  | { command: 'lote reconciliar' }
  | { command: 'lote transcrever' }
  | { command: 'contingencia ativar'; uf: string; justificativa: string }
  | { command: 'contingencia desativar'; uf: string }
  | { command: 'contingencia listar' }
  | { command: 'analyst-role create'; name: string; company?: string }
  | { command: 'audit verify'; company?: string }
  | { command: 'certificate sandbox'; company: string };

const bool = (v: string | undefined, name: OptionName): boolean | undefined => {
  if (v === undefined) return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new UsageError(`--${name} takes true or false`);
};

const required = (v: string | undefined, name: OptionName): string => {
  if (v === undefined || v === '') throw new UsageError(`--${name} is required`);
  return v;
};

const isCommand = (c: string): c is CommandName => Object.hasOwn(COMMANDS, c);

/** Reads the command line, without touching any data: a usage mistake is a UsageError naming it. */
export function parseOpsCommand(argv: string[]): OpsCommand {
  const args = argv.map((a) => (FLAGS.some((f) => a === `--${f}`) ? `${a}=true` : a));
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    // parseArgs names the option: unknown, missing its value, or followed by another option instead of one.
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const { values, positionals } = parsed;
  const [noun = '', verb = '', ...extra] = positionals;
  const name = `${noun} ${verb}`;
  if (!isCommand(name)) throw new UsageError(`unknown command '${positionals.join(' ')}'`);
  if (extra.length > 0) throw new UsageError(`'${name}' takes no argument '${extra.join(' ')}'`);
  const allowed: readonly OptionName[] = COMMANDS[name];
  for (const option of Object.keys(values) as OptionName[]) {
    if (!allowed.includes(option)) throw new UsageError(`--${option} does not apply to '${name}'`);
  }
  switch (name) {
    case 'company create':
      return {
        command: name,
        cnpj: required(values.cnpj, 'cnpj'),
        razao_social: required(values.name, 'name'),
        carrier: bool(values.carrier, 'carrier') ?? false,
        fiscal_ready: bool(values['fiscal-ready'], 'fiscal-ready') ?? false,
        fiscal_production: bool(values['fiscal-production'], 'fiscal-production') ?? false,
      };
    case 'company update':
      return {
        command: name,
        company: required(values.company, 'company'),
        carrier: bool(values.carrier, 'carrier'),
        fiscal_ready: bool(values['fiscal-ready'], 'fiscal-ready'),
        fiscal_production: bool(values['fiscal-production'], 'fiscal-production'),
      };
    case 'credential create': {
      const kind = required(values.kind, 'kind');
      if (kind !== 'api-key' && kind !== 'oauth') throw new UsageError('--kind is api-key or oauth');
      const scopes =
        values.scopes === undefined
          ? []
          : values.scopes
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean);
      return { command: name, company: required(values.company, 'company'), kind, scopes };
    }
    case 'credential list':
    case 'audit verify':
      return { command: name, company: values.company };
    case 'credential revoke':
      return { command: name, id: required(values.id, 'id') };
    case 'certificate sandbox':
      return { command: name, company: required(values.company, 'company') };
    case 'user create': {
      const papel = required(values.role, 'role');
      if (!isPapelUsuario(papel)) throw new UsageError('--role is admin, operador or leitura');
      return { command: name, company: required(values.company, 'company'), email: required(values.email, 'email'), papel };
    }
    case 'contingencia ativar':
      return { command: name, uf: required(values.uf, 'uf'), justificativa: required(values.justificativa, 'justificativa') };
    case 'contingencia desativar':
      return { command: name, uf: required(values.uf, 'uf') };
    case 'projections verify': {
      const exemplos = values.exemplos === undefined ? 5 : /^\d{1,4}$/.test(values.exemplos) ? Number(values.exemplos) : NaN;
      if (!(exemplos <= 1000)) throw new UsageError('--exemplos takes a whole number from 0 to 1000');
      return { command: name, exemplos };
    }
    case 'analyst-role create':
      return {
        command: name,
        name: values.name ?? (values.company ? `${ANALISTA_PADRAO}_${values.company.replace(/\W/g, '').toLowerCase()}` : ANALISTA_PADRAO),
        company: values.company,
      };
    case 'company list':
    case 'projections rebuild':
    case 'lote reconciliar':
    case 'lote transcrever':
    case 'contingencia listar':
      return { command: name };
  }
}

/** What the operator tool works on: the read models to rebuild and the operator's use cases. */
export type OpsTarget = Pick<Platform, 'projections'> & {
  operator: Operator;
  reconciliarLotes(): Promise<{ desfechos: number }>;
  /** Carries requested batches' creations recorded in the requester's chain into their owner's (issue 26). */
  transcreverLotes(): Promise<{ criacoes: number; eventos_gravados: number }>;
  contingencia: ContingenciaHandler;
  /** The panel's users (the same handler the panel's invitations use). */
  usuarios: Pick<UsuarioHandler, 'criar'>;
  /** Creates (or rotates the password of) an analyst's read-only login role. */
  criarPapelAnalista(pedido: { nome: string; empresa?: string }): Promise<unknown>;
  /** The event log's hash chains: one company's (its metadata.company_id), or all when undefined. */
  verificarCadeia(companyId: string | undefined): Promise<ResultadoVerificacao>;
  /** The certificate upload's handler, and the deployment's environment (a test A1 is made only in the sandbox). */
  certificados: { certificado: CertificadoHandler; environment: Environment };
};

/** How the operator's acts are signed in the events' metadata (see EventMetadata.actor). */
const OPERADOR = 'operator';

/** Runs one parsed operator command and returns what to print. */

export async function executeOps(
  platform: OpsTarget,
  cmd: OpsCommand,
  progress: (line: string) => void = () => undefined,
): Promise<unknown> {
  const op = platform.operator;
  switch (cmd.command) {
    case 'company create':
      return op.createCompany({
        cnpj: cmd.cnpj,
        razao_social: cmd.razao_social,
        carrier: cmd.carrier,
        fiscal_ready: cmd.fiscal_ready,
        fiscal_production: cmd.fiscal_production,
      });
    case 'company update':
      return op.changeFlags(cmd.company, {
        carrier: cmd.carrier,
        fiscal_ready: cmd.fiscal_ready,
        fiscal_production: cmd.fiscal_production,
      });
    case 'company list':
      return op.listCompanies();
    case 'credential create':
      return op.createCredential({ company: cmd.company, kind: cmd.kind, scopes: cmd.scopes });
    case 'credential list':
      return op.listCredentials(cmd.company);
    case 'credential revoke':
      return op.revokeCredential(cmd.id);
    case 'user create': {
      const company = await op.findCompany(cmd.company);
      if (!company) throw new Rejection('nao_encontrado', `company '${cmd.company}' not found`);
      const id = randomUUID();
      const { position, ...criado } = await platform.usuarios.criar(
        { companyId: company.company_id, correlationId: id, causationId: null, requestId: null, actor: OPERADOR, now: new Date() },
        { company_id: company.company_id, email: cmd.email, papel: cmd.papel },
      );
      // The admin's list shows the user as soon as the password is printed.
      if (position) await platform.projections.catchUpTo(position);
      return criado;
    }
    case 'projections rebuild': {
      // Online: the service keeps serving and projecting; the rebuilt read models are swapped in at the end.
      const r = await platform.projections.reconstruir({
        aoProgredir: ({ eventos, posicao }) =>
          progress(`projections rebuild: ${eventos} events replayed, at ${posicao.commit}/${posicao.prepare}`),
      });
      return { rebuilt: true, events_applied: r.eventos_reaplicados, position: r.posicao };
    }
    case 'projections verify':
      return platform.projections.verificar({
        exemplos: cmd.exemplos,
        aoProgredir: ({ eventos, posicao, alvo }) =>
          progress(
            `projections verify: ${eventos} events replayed, at ${posicao.commit}/${posicao.prepare} of ${alvo.commit}/${alvo.prepare}`,
          ),
      });
    case 'lote reconciliar':
      return { reconciled: true, outcomes_read: (await platform.reconciliarLotes()).desfechos };
    case 'lote transcrever':
      return { transcribed: true, ...(await platform.transcreverLotes()) };
    case 'contingencia ativar': {
      const { contingencia, position } = await platform.contingencia.ativar(cmd.uf, cmd.justificativa, OPERADOR);
      // The CT-e builder reads the read model: it must show the switch before the operator is told it is done.
      if (position) await platform.projections.catchUpTo(position);
      return contingencia;
    }
    case 'contingencia desativar': {
      const { contingencia, position } = await platform.contingencia.desativar(cmd.uf, OPERADOR);
      if (position) await platform.projections.catchUpTo(position);
      return contingencia;
    }
    case 'contingencia listar':
      return platform.contingencia.listar();
    case 'analyst-role create':
      return platform.criarPapelAnalista({ nome: cmd.name, empresa: cmd.company });
    case 'certificate sandbox': {
      // Refused before the company is looked up: outside the sandbox no company gets one.
      exigirHomologacao(platform.certificados.environment);
      const company = await op.findCompany(cmd.company);
      if (!company) throw new Rejection('nao_encontrado', `company '${cmd.company}' not found`);
      const { nome_arquivo } = await enviarCertificadoDeTeste(
        platform.certificados,
        contextoDoSistema(company.company_id, OPERADOR),
        company,
      );
      return { company_id: company.company_id, cnpj: company.cnpj, nome_arquivo, ambiente: platform.certificados.environment };
    }
    case 'audit verify': {
      const company = cmd.company === undefined ? undefined : await op.findCompany(cmd.company);
      if (company === null) throw new Rejection('nao_encontrado', `company '${cmd.company}' not found`);
      return platform.verificarCadeia(company?.company_id);
    }
  }
}

/**
 * A verification that found differences (read models that differ, a tampered log) is a finding, not a failure of the
 * tool: its JSON goes to stdout all the same, and the exit code, 1, says it for scripts.
 */
export function exitCodeOf(cmd: OpsCommand, result: unknown): number {
  if (cmd.command === 'projections verify') return (result as RelatorioVerificacao).identicas ? 0 : 1;
  if (cmd.command === 'audit verify') return (result as ResultadoVerificacao).integra ? 0 : 1;
  return 0;
}

/** Runs one operator command and returns what to print. */
export async function runOps(platform: OpsTarget, argv: string[]): Promise<unknown> {
  return executeOps(platform, parseOpsCommand(argv));
}

export function describeError(err: unknown): { error: { code: string; message: string } } {
  if (err instanceof UsageError) return { error: { code: 'uso', message: `${err.message}\n${USAGE}` } };
  if (err instanceof Rejection) return { error: { code: err.code, message: err.message } };
  if (err instanceof PapelAnalistaError) return { error: { code: 'papel_analista', message: err.message } };
  return { error: { code: 'erro_interno', message: err instanceof Error ? err.message : String(err) } };
}
