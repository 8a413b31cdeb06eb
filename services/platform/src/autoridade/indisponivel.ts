import { Rejection } from '@frete/domain';
import { type AutoridadeFiscal, type RetornoAutorizacao, type RetornoConsulta, type RetornoEvento } from './port';

/**
 * The call was not made: no fiscal authority provider serves this deployment. It is a `Rejection` with code
 * `provedor_indisponivel`, which the edge answers with 503 in the error envelope. Nothing was sent, so the caller
 * knows the document is in no authority's hands.
 */
export class ProvedorIndisponivel extends Rejection {
  constructor(readonly operacao: string) {
    super('provedor_indisponivel', 'no fiscal authority provider is contracted for this environment: the operation was not sent');
    this.name = 'ProvedorIndisponivel';
  }
}

/**
 * Production while no provider is contracted (ruling 7): every call rejects with `ProvedorIndisponivel`. It never
 * answers on the authority's behalf: no status, no protocol, no invented data.
 */
export class AutoridadeFiscalIndisponivel implements AutoridadeFiscal {
  readonly disponivel = false;

  autorizarCte(_xmlAssinado: string): Promise<RetornoAutorizacao> {
    return Promise.reject(new ProvedorIndisponivel('autorizarCte'));
  }

  consultarCte(_chave: string): Promise<RetornoConsulta> {
    return Promise.reject(new ProvedorIndisponivel('consultarCte'));
  }

  registrarEventoCte(_xmlEventoAssinado: string): Promise<RetornoEvento> {
    return Promise.reject(new ProvedorIndisponivel('registrarEventoCte'));
  }

  autorizarMdfe(_xmlAssinado: string): Promise<RetornoAutorizacao> {
    return Promise.reject(new ProvedorIndisponivel('autorizarMdfe'));
  }

  consultarMdfe(_chave: string): Promise<RetornoConsulta> {
    return Promise.reject(new ProvedorIndisponivel('consultarMdfe'));
  }

  registrarEventoMdfe(_xmlEventoAssinado: string): Promise<RetornoEvento> {
    return Promise.reject(new ProvedorIndisponivel('registrarEventoMdfe'));
  }
}
