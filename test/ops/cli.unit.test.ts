import { describeError, parseOpsCommand, UsageError } from '@frete/ops';

/** The operator tool's command line, read without any data: what each command gets, and what is a usage error. */
describe('pnpm ops command line', () => {
  const usage = (...argv: string[]): string => {
    try {
      parseOpsCommand(argv);
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      return (err as Error).message;
    }
    throw new Error(`expected a UsageError for ${argv.join(' ')}`);
  };

  it('reads analyst-role create: the default role name, one per company with --company', () => {
    expect(parseOpsCommand(['analyst-role', 'create'])).toEqual({
      command: 'analyst-role create',
      name: 'frete_analista',
      company: undefined,
    });
    expect(parseOpsCommand(['analyst-role', 'create', '--name', 'analista_bi'])).toMatchObject({ name: 'analista_bi' });
    expect(parseOpsCommand(['analyst-role', 'create', '--company', '11.222.333/0001-81'])).toEqual({
      command: 'analyst-role create',
      name: 'frete_analista_11222333000181',
      company: '11.222.333/0001-81',
    });
    expect(usage('analyst-role', 'create', '--kind', 'oauth')).toMatch(/^--kind does not apply to 'analyst-role create'/);
  });

  it('reads every command with its options', () => {
    expect(
      parseOpsCommand([
        'company',
        'create',
        '--cnpj',
        '11.222.333/0001-81',
        '--name',
        'TRANSPORTES EXEMPLO LTDA',
        '--carrier',
        '--fiscal-ready',
      ]),
    ).toEqual({
      command: 'company create',
      cnpj: '11.222.333/0001-81',
      razao_social: 'TRANSPORTES EXEMPLO LTDA',
      carrier: true,
      fiscal_ready: true,
      fiscal_production: false,
    });
    expect(parseOpsCommand(['company', 'create', '--cnpj=1', '--name=A', '--fiscal-production', '--carrier=false'])).toMatchObject({
      cnpj: '1',
      razao_social: 'A',
      carrier: false,
      fiscal_ready: false,
      fiscal_production: true,
    });
    expect(parseOpsCommand(['company', 'update', '--company', '11222333000181', '--fiscal-production=true'])).toEqual({
      command: 'company update',
      company: '11222333000181',
      carrier: undefined,
      fiscal_ready: undefined,
      fiscal_production: true,
    });
    expect(parseOpsCommand(['company', 'update', '--company', 'x', '--carrier=false', '--fiscal-ready'])).toMatchObject({
      carrier: false,
      fiscal_ready: true,
    });
    expect(parseOpsCommand(['company', 'list'])).toEqual({ command: 'company list' });
    expect(parseOpsCommand(['credential', 'create', '--company', 'x', '--kind', 'api-key', '--scopes', 'fiscal, operacao,'])).toEqual({
      command: 'credential create',
      company: 'x',
      kind: 'api-key',
      scopes: ['fiscal', 'operacao'],
    });
    expect(parseOpsCommand(['credential', 'create', '--company', 'x', '--kind', 'oauth'])).toMatchObject({ kind: 'oauth', scopes: [] });
    expect(parseOpsCommand(['credential', 'list'])).toEqual({ command: 'credential list', company: undefined });
    expect(parseOpsCommand(['credential', 'list', '--company', 'x'])).toEqual({ command: 'credential list', company: 'x' });
    expect(parseOpsCommand(['audit', 'verify'])).toEqual({ command: 'audit verify', company: undefined });
    expect(parseOpsCommand(['audit', 'verify', '--company', '11222333000181'])).toEqual({
      command: 'audit verify',
      company: '11222333000181',
    });
    expect(parseOpsCommand(['credential', 'revoke', '--id', 'c1'])).toEqual({ command: 'credential revoke', id: 'c1' });
    expect(parseOpsCommand(['projections', 'rebuild'])).toEqual({ command: 'projections rebuild' });
    expect(parseOpsCommand(['projections', 'verify'])).toEqual({ command: 'projections verify', exemplos: 5 });
    expect(parseOpsCommand(['projections', 'verify', '--exemplos', '0'])).toEqual({ command: 'projections verify', exemplos: 0 });
    for (const bad of ['-1', '2.5', 'muitos', '1001', ''])
      expect(usage('projections', 'verify', `--exemplos=${bad}`)).toBe('--exemplos takes a whole number from 0 to 1000');
    expect(usage('projections', 'rebuild', '--exemplos', '3')).toBe("--exemplos does not apply to 'projections rebuild'");
  });

  it('names an unknown command, a stray argument and an option the command does not take', () => {
    expect(usage('company', 'delete')).toBe("unknown command 'company delete'");
    expect(usage('company')).toBe("unknown command 'company'");
    expect(usage('company', 'list', 'all')).toBe("'company list' takes no argument 'all'");
    // `--carrier false` (a space, not '=') would have left the flag on.
    expect(usage('company', 'create', '--cnpj', '1', '--name', 'A', '--carrier', 'false')).toBe(
      "'company create' takes no argument 'false'",
    );
    expect(usage('company', 'list', '--kind', 'oauth')).toBe("--kind does not apply to 'company list'");
    expect(usage('credential', 'revoke', '--id', 'c1', '--company', 'x')).toBe("--company does not apply to 'credential revoke'");
  });

  it('names an unknown flag and a flag missing its value', () => {
    expect(usage('company', 'list', '--verbose')).toContain("Unknown option '--verbose'");
    expect(usage('credential', 'revoke', '--id')).toContain("Option '--id <value>' argument missing");
    expect(usage('company', 'create', '--name', '--cnpj', '1')).toContain("Option '--name' argument is ambiguous");
  });

  it('names a missing or malformed value', () => {
    expect(usage('company', 'create', '--name', 'A')).toBe('--cnpj is required');
    expect(usage('company', 'create', '--cnpj', '1', '--name', '')).toBe('--name is required');
    expect(usage('company', 'update', '--company', 'x', '--carrier=yes')).toBe('--carrier takes true or false');
    expect(usage('credential', 'create', '--company', 'x')).toBe('--kind is required');
    expect(usage('credential', 'create', '--company', 'x', '--kind', 'password')).toBe('--kind is api-key or oauth');
    expect(usage('credential', 'create', '--kind', 'oauth')).toBe('--company is required');
    expect(usage('credential', 'revoke')).toBe('--id is required');
  });

  it('answers a usage error with the code uso and the usage text', () => {
    const { error } = describeError(new UsageError('--id is required'));
    expect(error.code).toBe('uso');
    expect(error.message).toMatch(/^--id is required\npnpm ops <command>/);
  });

  it('reads the contingency switch: ativar with UF and justification, desativar with UF, listar with nothing', () => {
    expect(parseOpsCommand(['contingencia', 'ativar', '--uf', 'SP', '--justificativa', 'SEFAZ-SP FORA DO AR'])).toEqual({
      command: 'contingencia ativar',
      uf: 'SP',
      justificativa: 'SEFAZ-SP FORA DO AR',
    });
    expect(parseOpsCommand(['contingencia', 'desativar', '--uf=BA'])).toEqual({ command: 'contingencia desativar', uf: 'BA' });
    expect(parseOpsCommand(['contingencia', 'listar'])).toEqual({ command: 'contingencia listar' });
    // The UF and the justification are the decider's to judge (a bad one is 'validacao', not a usage mistake).
    expect(parseOpsCommand(['contingencia', 'ativar', '--uf', 'XX', '--justificativa', 'curta'])).toMatchObject({ uf: 'XX' });
  });

  it('names what the contingency commands miss or do not take', () => {
    expect(usage('contingencia', 'ativar', '--justificativa', 'SEFAZ-SP FORA DO AR')).toBe('--uf is required');
    expect(usage('contingencia', 'ativar', '--uf', 'SP')).toBe('--justificativa is required');
    expect(usage('contingencia', 'ativar', '--uf', 'SP', '--justificativa', '')).toBe('--justificativa is required');
    expect(usage('contingencia', 'desativar')).toBe('--uf is required');
    expect(usage('contingencia', 'desativar', '--uf', 'SP', '--justificativa', 'x')).toBe(
      "--justificativa does not apply to 'contingencia desativar'",
    );
    expect(usage('contingencia', 'listar', '--uf', 'SP')).toBe("--uf does not apply to 'contingencia listar'");
    expect(usage('contingencia', 'ligar', '--uf', 'SP')).toBe("unknown command 'contingencia ligar'");
    expect(usage('contingencia', 'ativar', '--uf')).toContain("Option '--uf <value>' argument missing");
  });

  it('reads user create: company, e-mail and one of the three roles', () => {
    expect(parseOpsCommand(['user', 'create', '--company', '11222333000181', '--email', 'a@b.com.br', '--role', 'operador'])).toEqual({
      command: 'user create',
      company: '11222333000181',
      email: 'a@b.com.br',
      papel: 'operador',
    });
    expect(() => parseOpsCommand(['user', 'create', '--company', 'x', '--email', 'a@b.com.br', '--role', 'dono'])).toThrow(UsageError);
    expect(() => parseOpsCommand(['user', 'create', '--company', 'x', '--role', 'admin'])).toThrow('--email is required');
  });

  it('reads lote reconciliar, which takes no option', () => {
    expect(parseOpsCommand(['lote', 'reconciliar'])).toEqual({ command: 'lote reconciliar' });
    expect(usage('lote', 'reconciliar', '--id', 'x')).toContain("does not apply to 'lote reconciliar'");
  });

  it('reads certificate sandbox: the company is required, nothing else applies', () => {
    expect(parseOpsCommand(['certificate', 'sandbox', '--company', '11.222.333/0001-81'])).toEqual({
      command: 'certificate sandbox',
      company: '11.222.333/0001-81',
    });
    expect(usage('certificate', 'sandbox')).toBe('--company is required');
    expect(usage('certificate', 'sandbox', '--company', 'x', '--kind', 'api-key')).toContain(
      "--kind does not apply to 'certificate sandbox'",
    );
    expect(usage('certificate', 'production', '--company', 'x')).toContain("unknown command 'certificate production'");
  });

  it('reads lote transcrever, which takes no option nor argument', () => {
    expect(parseOpsCommand(['lote', 'transcrever'])).toEqual({ command: 'lote transcrever' });
    expect(usage('lote', 'transcrever', '--company', 'x')).toContain("does not apply to 'lote transcrever'");
    expect(usage('lote', 'transcrever', 'tudo')).toContain("'lote transcrever' takes no argument 'tudo'");
  });
});
