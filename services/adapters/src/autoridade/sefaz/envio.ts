import { type XmlElement } from '@frete/documents';
import { AutoridadeIndisponivel, CertificadoRecusadoPelaAutoridade } from '../port';
import { type ResultadoTransporte } from './transporte';
import { lerEnvelope } from './soap';

/** After an HTTP failure or a broken connection: a hint for the caller, the same for every SEFAZ service. */
export const ESPERA_FALHA_MS = 30_000;

type SemResposta = { tipo: 'sem_resposta'; motivo: string };

/**
 * A send to a SEFAZ service that got no HTTP answer: a refused client certificate throws
 * `CertificadoRecusadoPelaAutoridade`, a request never sent throws `AutoridadeIndisponivel` (try again after
 * `tentarApos`), a silence after sending is `sem_resposta` (the request may have been processed: the caller asks before
 * anything else). An answer is returned as it came.
 */
export function respostaDoEnvio(
  r: ResultadoTransporte,
  tentarApos: () => Date,
): SemResposta | { tipo: 'resposta'; status: number; corpo: string } {
  switch (r.tipo) {
    case 'certificado_recusado':
      throw new CertificadoRecusadoPelaAutoridade(r.motivo);
    case 'nao_enviado':
      throw new AutoridadeIndisponivel(r.servidorNaoConfiavel ? 'servidor_nao_confiavel' : 'sem_conexao', null, r.motivo, tentarApos());
    default:
      return r;
  }
}

/**
 * The SOAP body's first element of a SEFAZ service's HTTP answer: an HTTP failure or a SOAP fault throws
 * `AutoridadeIndisponivel` (try again after `tentarApos`); an unreadable 2xx is `sem_resposta`, since it may still be a
 * processed request.
 */
export function conteudoDaResposta(
  resposta: { status: number; corpo: string },
  tentarApos: Date,
): SemResposta | { tipo: 'conteudo'; conteudo: XmlElement } {
  const lido = lerEnvelope(resposta.corpo);
  if (resposta.status >= 300 || lido.tipo === 'falha') {
    const detalhe = lido.tipo === 'falha' ? `SOAP fault ${lido.codigo}: ${lido.motivo}` : resposta.corpo.slice(0, 200);
    throw new AutoridadeIndisponivel('falha_no_servidor', null, `HTTP ${resposta.status} ${detalhe}`.trim(), tentarApos);
  }
  if (lido.tipo === 'ilegivel') return { tipo: 'sem_resposta', motivo: `unreadable answer: ${lido.motivo}` };
  return { tipo: 'conteudo', conteudo: lido.conteudo };
}
