import { type ModeloFiscal, PORTAL_NS, semDeclaracao, type ServicoSefaz } from '@frete/adapters';

/**
 * The answer elements of the services (`retCTe`, `retConsSitCTe`, `retEventoCTe`, `retConsStatServCTe` and their
 * MDF-e peers, `retConsMDFeNaoEnc`), in the order their schemas (`*TiposBasico*`) ask. What the rules wrote
 * (`protCTe`, `retEventoCTe`, the events as received) goes in byte for byte; only the door's own fields are written
 * here.
 */

/** What every answer of an authority says of itself. */
export interface Cabecalho {
  tpAmb: 1 | 2;
  /** The UF that answers (`cUF`, or `cOrgao` of an event answer). */
  cUF: string;
  verAplic: string;
}

const VERSAO: Record<ModeloFiscal, string> = { cte: '4.00', mdfe: '3.00' };
const CHAVE = /^[0-9]{6}[A-Z0-9]{12}[0-9]{26}$/;

const escapar = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const abre = (nome: string, m: ModeloFiscal) => `<${nome} xmlns="${PORTAL_NS[m]}" versao="${VERSAO[m]}">`;
const campo = (nome: string, valor: string | number | null | undefined) =>
  valor === null || valor === undefined ? '' : `<${nome}>${escapar(String(valor))}</${nome}>`;

/** `retCTe`/`retMDFe`: `protocolo` (the rules' `protCTe`/`protMDFe`) when authorized or denied. */
export function retornoRecepcao(m: ModeloFiscal, c: Cabecalho, cStat: number, xMotivo: string, protocolo = ''): string {
  const nome = m === 'cte' ? 'retCTe' : 'retMDFe';
  return (
    `${abre(nome, m)}${campo('tpAmb', c.tpAmb)}${campo('cUF', c.cUF)}${campo('verAplic', c.verAplic)}${campo('cStat', cStat)}` +
    `${campo('xMotivo', xMotivo)}${protocolo}</${nome}>`
  );
}

/**
 * One `procEventoCTe`/`procEventoMDFe` of a consultation: the signed event as the authority received it and its
 * `retEventoCTe`/`retEventoMDFe`, both byte for byte (the layout of the distribution file, as the clients read it).
 */
export const procEvento = (m: ModeloFiscal, eventoRecebido: string, retEvento: string): string => {
  const nome = m === 'cte' ? 'procEventoCTe' : 'procEventoMDFe';
  return `<${nome} versao="${VERSAO[m]}">${semDeclaracao(eventoRecebido)}${retEvento}</${nome}>`;
};

/** `retConsSitCTe`/`retConsSitMDFe`. */
export function retornoConsulta(
  m: ModeloFiscal,
  c: Cabecalho,
  cStat: number,
  xMotivo: string,
  protocolo = '',
  procEventos: readonly string[] = [],
): string {
  const nome = m === 'cte' ? 'retConsSitCTe' : 'retConsSitMDFe';
  return (
    `${abre(nome, m)}${campo('tpAmb', c.tpAmb)}${campo('verAplic', c.verAplic)}${campo('cStat', cStat)}${campo('xMotivo', xMotivo)}` +
    `${campo('cUF', c.cUF)}${protocolo}${procEventos.join('')}</${nome}>`
  );
}

/** What the door read of an event it answers without a protocol (each only when well formed). */
export interface EventoLido {
  cOrgao?: string | null;
  chave?: string | null;
  tpEvento?: string | null;
  nSeqEvento?: string | null;
}

/**
 * `retEventoCTe`/`retEventoMDFe` of an event not registered (rejected, 631, in processing): the status, and the
 * event's key, type and sequence when it names them, as real authorities answer.
 */
export function retornoEventoSemProtocolo(m: ModeloFiscal, c: Cabecalho, cStat: number, xMotivo: string, ev: EventoLido = {}): string {
  const nome = m === 'cte' ? 'retEventoCTe' : 'retEventoMDFe';
  const se = (valor: string | null | undefined, padrao: RegExp) => (valor && padrao.test(valor) ? valor : null);
  return (
    `${abre(nome, m)}<infEvento>${campo('tpAmb', c.tpAmb)}${campo('verAplic', c.verAplic)}` +
    `${campo('cOrgao', se(ev.cOrgao, /^[0-9]{2}$/) ?? c.cUF)}${campo('cStat', cStat)}${campo('xMotivo', xMotivo)}` +
    `${campo(m === 'cte' ? 'chCTe' : 'chMDFe', se(ev.chave, CHAVE))}${campo('tpEvento', se(ev.tpEvento, /^[0-9]{6}$/))}` +
    `${campo('nSeqEvento', se(ev.nSeqEvento, /^[0-9]{1,3}$/))}</infEvento></${nome}>`
  );
}

export interface StatusServico {
  cStat: number;
  xMotivo: string;
  cUF: string;
  dhRecbto: string;
  tMed?: number | null;
  dhRetorno?: string | null;
  xObs?: string | null;
}

/** `retConsStatServCTe`/`retConsStatServMDFe`. */
export function retornoStatus(m: ModeloFiscal, c: Cabecalho, s: StatusServico): string {
  const nome = m === 'cte' ? 'retConsStatServCTe' : 'retConsStatServMDFe';
  return (
    `${abre(nome, m)}${campo('tpAmb', c.tpAmb)}${campo('verAplic', c.verAplic)}${campo('cStat', s.cStat)}${campo('xMotivo', s.xMotivo)}` +
    `${campo('cUF', s.cUF)}${campo('dhRecbto', s.dhRecbto)}${campo('tMed', s.tMed)}${campo('dhRetorno', s.dhRetorno)}` +
    `${campo('xObs', s.xObs)}</${nome}>`
  );
}

/** `retConsMDFeNaoEnc`: the MDF-e found (111) or none (112). */
export function retornoNaoEncerrados(
  c: Cabecalho,
  cStat: number,
  xMotivo: string,
  mdfes: readonly { chave: string; nProt: string }[] = [],
): string {
  return (
    `${abre('retConsMDFeNaoEnc', 'mdfe')}${campo('tpAmb', c.tpAmb)}${campo('verAplic', c.verAplic)}${campo('cStat', cStat)}` +
    `${campo('xMotivo', xMotivo)}${campo('cUF', c.cUF)}` +
    mdfes.map((d) => `<infMDFe>${campo('chMDFe', d.chave)}${campo('nProt', d.nProt)}</infMDFe>`).join('') +
    '</retConsMDFeNaoEnc>'
  );
}

/**
 * The service's answer element for a status without data: the channel's own (108/109/678, injected), or a refusal
 * of the door before the rules are asked (215 request schema, 225 undecodable reception, 252 environment).
 */
export function retornoSemDados(servico: ServicoSefaz, c: Cabecalho, cStat: number, xMotivo: string, dhRecbto: string): string {
  switch (servico) {
    case 'CTeRecepcaoSincV4':
      return retornoRecepcao('cte', c, cStat, xMotivo);
    case 'MDFeRecepcaoSinc':
      return retornoRecepcao('mdfe', c, cStat, xMotivo);
    case 'CTeConsultaV4':
      return retornoConsulta('cte', c, cStat, xMotivo);
    case 'MDFeConsulta':
      return retornoConsulta('mdfe', c, cStat, xMotivo);
    case 'CTeRecepcaoEventoV4':
      return retornoEventoSemProtocolo('cte', c, cStat, xMotivo);
    case 'MDFeRecepcaoEvento':
      return retornoEventoSemProtocolo('mdfe', c, cStat, xMotivo);
    case 'CTeStatusServicoV4':
      return retornoStatus('cte', c, { cStat, xMotivo, cUF: c.cUF, dhRecbto });
    case 'MDFeStatusServico':
      return retornoStatus('mdfe', c, { cStat, xMotivo, cUF: c.cUF, dhRecbto });
    case 'MDFeConsNaoEnc':
      return retornoNaoEncerrados(c, cStat, xMotivo);
  }
}
