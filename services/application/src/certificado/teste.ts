import { randomUUID } from 'node:crypto';
import { type Environment } from '@frete/contracts';
import { Rejection } from '@frete/domain';
import { certificadoDeTeste } from '@frete/platform';
import { type ContextoEmpresa } from '../commands/execute';
import { type CertificadoHandler } from './handler';

/** Who sends a test certificate when no request does (the start's demo, the operator tool). */
export const contextoDoSistema = (companyId: string, actor: string, now = new Date()): ContextoEmpresa => {
  const id = randomUUID();
  return { companyId, correlationId: id, causationId: null, requestId: null, actor, now };
};

/** A test certificate is made only in the sandbox: 403 `homologacao_obrigatoria` anywhere else. */
export function exigirHomologacao(environment: Environment): void {
  if (environment !== 'homologacao') {
    throw new Rejection(
      'homologacao_obrigatoria',
      `a test certificate is made only in the sandbox (APP_ENVIRONMENT=homologacao), not in '${environment}': send the company's ICP-Brasil A1`,
    );
  }
}

/**
 * Makes a sandbox test A1 for the company (self-signed, naming its CNPJ) and sends it through the upload's handler,
 * as a client's file would go: opened, judged by the decider, sealed in the vault. Only the sandbox takes it; the
 * refusal is said here before a key is made, and the decider refuses the file in production anyway.
 */
export async function enviarCertificadoDeTeste(
  deps: { certificado: CertificadoHandler; environment: Environment },
  ctx: ContextoEmpresa,
  empresa: { cnpj: string; razao_social: string },
): Promise<{ nome_arquivo: string }> {
  exigirHomologacao(deps.environment);
  const a1 = certificadoDeTeste({ cnpj: empresa.cnpj, razaoSocial: empresa.razao_social, agora: ctx.now });
  await deps.certificado.enviar(ctx, empresa.cnpj, { file: a1.pfx, filename: a1.nomeArquivo, password: a1.senha });
  return { nome_arquivo: a1.nomeArquivo };
}
