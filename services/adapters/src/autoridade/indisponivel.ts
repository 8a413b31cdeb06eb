import { ProvedorIndisponivel } from '../provedor-indisponivel';
import {
  type AutoridadeFiscal,
  type RetornoAutorizacao,
  type RetornoConsulta,
  type RetornoEvento,
  type RetornoNaoEncerrados,
  type RetornoStatusServico,
} from './port';

/**
 * Production while no provider is contracted (ruling 7): every call rejects with `ProvedorIndisponivel`. It never
 * answers on the authority's behalf: no status, no protocol, no invented data.
 */
export class AutoridadeFiscalIndisponivel implements AutoridadeFiscal {
  readonly disponivel = false;

  autorizarCte(_xmlAssinado: string): Promise<RetornoAutorizacao> {
    return Promise.reject(new ProvedorIndisponivel('fiscal authority provider', 'autorizarCte'));
  }

  consultarCte(_chave: string): Promise<RetornoConsulta> {
    return Promise.reject(new ProvedorIndisponivel('fiscal authority provider', 'consultarCte'));
  }

  registrarEventoCte(_xmlEventoAssinado: string): Promise<RetornoEvento> {
    return Promise.reject(new ProvedorIndisponivel('fiscal authority provider', 'registrarEventoCte'));
  }

  autorizarMdfe(_xmlAssinado: string): Promise<RetornoAutorizacao> {
    return Promise.reject(new ProvedorIndisponivel('fiscal authority provider', 'autorizarMdfe'));
  }

  consultarMdfe(_chave: string): Promise<RetornoConsulta> {
    return Promise.reject(new ProvedorIndisponivel('fiscal authority provider', 'consultarMdfe'));
  }

  registrarEventoMdfe(_xmlEventoAssinado: string): Promise<RetornoEvento> {
    return Promise.reject(new ProvedorIndisponivel('fiscal authority provider', 'registrarEventoMdfe'));
  }

  statusServico(): Promise<RetornoStatusServico> {
    return Promise.reject(new ProvedorIndisponivel('fiscal authority provider', 'statusServico'));
  }

  consultarMdfeNaoEncerrados(): Promise<RetornoNaoEncerrados> {
    return Promise.reject(new ProvedorIndisponivel('fiscal authority provider', 'consultarMdfeNaoEncerrados'));
  }
}
