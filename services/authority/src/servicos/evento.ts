import { childElements } from '@frete/documents';
import { type Balcao, mensagemDoPedido, type Pedido, type Resposta, retorno, textoDe } from './pedido';
import { type EventoLido, retornoEventoSemProtocolo } from './retornos';

/**
 * `CTeRecepcaoEventoV4` / `MDFeRecepcaoEvento`: the signed `eventoCTe`/`eventoMDFe` goes to the rules exactly as sent
 * (taken from the body's text, since its signature holds only over those bytes). Registered: the rules'
 * `retEventoCTe`/`retEventoMDFe`; otherwise (631, a rejection, 105) one with that status, as a real authority answers.
 */
export async function recepcaoEvento(pedido: Pedido, balcao: Balcao): Promise<Resposta> {
  const m = pedido.modelo;
  const cte = m === 'cte';
  const { el, bruto } = mensagemDoPedido(pedido, cte ? 'eventoCTe' : 'eventoMDFe');
  const r = cte
    ? await balcao.autoridade.registrarEventoCte(bruto, pedido.remetente)
    : await balcao.autoridade.registrarEventoMdfe(bruto, pedido.remetente);
  if (r.tipo === 'sem_resposta') return { tipo: 'sem_resposta' };
  if (r.tipo === 'registrado') return retorno(r.protocolo.xml);
  const inf = childElements(el).find((c) => c.localName === 'infEvento');
  const lido: EventoLido = {
    cOrgao: textoDe(inf, 'cOrgao'),
    chave: textoDe(inf, cte ? 'chCTe' : 'chMDFe'),
    tpEvento: textoDe(inf, 'tpEvento'),
    nSeqEvento: textoDe(inf, 'nSeqEvento'),
  };
  return retorno(retornoEventoSemProtocolo(m, balcao.cabecalho, r.cStat, r.xMotivo, lido));
}
