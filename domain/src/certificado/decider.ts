import { type DomainEventOf } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { cnpjRoot } from '../fiscal/documents';

export type CertificadoEvent = DomainEventOf<'certificado.enviado'> | DomainEventOf<'certificado.removido'>;

/** What the edge read from the PKCS#12 it opened; the decider judges it. */
export interface CertificadoLido {
  titular: string;
  cnpj: string | null;
  emissor: string;
  serial: string;
  valido_de: string;
  valido_ate: string;
}

export type CertificadoCommand =
  | {
      type: 'EnviarCertificado';
      company_id: string;
      company_cnpj: string;
      blob_id: string;
      sha256: string;
      nome_arquivo: string;
      certificado: CertificadoLido;
      /** Issued by itself: the sandbox's test certificate, or anything else outside ICP-Brasil's chain. */
      autoassinado: boolean;
      /** The deployment issues real documents (`APP_ENVIRONMENT=producao`). */
      producao: boolean;
    }
  | { type: 'RemoverCertificado'; company_id: string };

export type CertificadoState = { blob_id: string | null };

/** One A1 certificate per company. */
export const certificadoStream = (companyId: string) => `certificado-${companyId}`;

export const certificadoDecider: Decider<CertificadoCommand, CertificadoState, CertificadoEvent> = {
  initialState: { blob_id: null },
  decide(command, state, { now }) {
    switch (command.type) {
      case 'EnviarCertificado': {
        const c = command.certificado;
        if (!c.cnpj) {
          throw new Rejection(
            'certificado_invalido',
            'the certificate carries no CNPJ (ICP-Brasil otherName 2.16.76.1.3.3 or NAME:CNPJ common name)',
          );
        }
        // A real authority trusts ICP-Brasil's chain only: a self-signed A1 would fail every emission at the TLS handshake.
        if (command.autoassinado && command.producao) {
          throw new Rejection(
            'certificado_autoassinado',
            `the certificate is self-signed (issuer '${c.emissor}'): a test certificate is accepted only in the sandbox; production needs an ICP-Brasil A1`,
          );
        }
        if (new Date(c.valido_ate).getTime() <= now.getTime()) {
          throw new Rejection('certificado_expirado', `the certificate expired at ${c.valido_ate}`);
        }
        if (new Date(c.valido_de).getTime() > now.getTime()) {
          throw new Rejection('certificado_invalido', `the certificate is valid only from ${c.valido_de}`);
        }
        // SEFAZ accepts the head office's e-CNPJ for its branches: the root (8 characters) must match.
        if (cnpjRoot(c.cnpj) !== cnpjRoot(command.company_cnpj)) {
          throw new Rejection('certificado_cnpj_divergente', `the certificate belongs to CNPJ ${c.cnpj}, not to the authenticated company`);
        }
        return [
          {
            type: 'certificado.enviado',
            data: {
              company_id: command.company_id,
              blob_id: command.blob_id,
              sha256: command.sha256,
              nome_arquivo: command.nome_arquivo,
              ...c,
              cnpj: c.cnpj,
            },
          },
        ];
      }
      case 'RemoverCertificado':
        if (!state.blob_id) return [];
        return [{ type: 'certificado.removido', data: { company_id: command.company_id, blob_id: state.blob_id } }];
    }
  },
  evolve(_state, event) {
    return event.type === 'certificado.enviado' ? { blob_id: event.data.blob_id } : { blob_id: null };
  },
};
