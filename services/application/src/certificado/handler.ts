import { createHash } from 'node:crypto';
import { type Environment } from '@frete/contracts';
import { certificadoDecider, certificadoStream, Rejection } from '@frete/domain';
import { type CertificateVault, Pkcs12Error, openPkcs12 } from '@frete/platform';
import { type CommandDeps, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';

export interface CertificadoHandlerDeps extends CommandDeps {
  certificates: CertificateVault;
  environment: Environment;
}

/** The A1 file as uploaded, with the password that opens it. */
export interface CertificadoEnviado {
  file: Buffer;
  filename: string;
  password: string;
}

/** The 422 the caller gets for a file that does not open as a usable A1 certificate. */
function rejeicaoDoArquivo(err: Pkcs12Error): Rejection {
  if (err.reason === 'wrong_password') return new Rejection('certificado_senha_incorreta', 'the password does not open this certificate');
  if (err.reason === 'too_costly') return new Rejection('certificado_invalido', `not a usable A1 certificate: ${err.message}`);
  return new Rejection('certificado_invalido', `not a usable A1 certificate (${err.reason.replace(/_/g, ' ')})`);
}

/** The company's A1 certificate: the sealed file in the vault, its facts in the event log. */
export const certificadoHandler = (deps: CertificadoHandlerDeps) => {
  const run = handles(deps, certificadoDecider, (c) => certificadoStream(c.company_id));
  return {
    enviar: async (ctx: ContextoEmpresa, companyCnpj: string, upload: CertificadoEnviado): Promise<void> => {
      let contents;
      try {
        contents = await openPkcs12(upload.file, upload.password);
      } catch (err) {
        if (err instanceof Pkcs12Error) throw rejeicaoDoArquivo(err);
        throw err;
      }
      // Sealed before the event: an event never names a file the vault does not hold.
      const blobId = await deps.certificates.store(ctx.companyId, upload.file, upload.password);
      try {
        await run(ctx, {
          type: 'EnviarCertificado',
          company_id: ctx.companyId,
          company_cnpj: companyCnpj,
          blob_id: blobId,
          sha256: createHash('sha256').update(upload.file).digest('hex'),
          nome_arquivo: upload.filename,
          certificado: contents.lido,
          autoassinado: contents.autoassinado,
          producao: deps.environment === 'producao',
        });
      } catch (err) {
        await deps.certificates.discard(ctx.companyId, blobId);
        throw err;
      }
      await deps.certificates.discardExcept(ctx.companyId, blobId);
    },
    /** True when a certificate was there to remove. */
    remover: async (ctx: ContextoEmpresa): Promise<boolean> => {
      const { events } = await run(ctx, { type: 'RemoverCertificado', company_id: ctx.companyId });
      // Crypto-shredding: once the event says it is gone, the sealed file and password go too.
      if (events.length > 0) await deps.certificates.discardAll(ctx.companyId);
      return events.length > 0;
    },
  };
};
export type CertificadoHandler = ReturnType<typeof certificadoHandler>;
