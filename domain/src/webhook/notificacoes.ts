import { type DomainEvent, type EventType, type WebhookEventType } from '@frete/contracts';

/**
 * What one domain event tells integrators: the webhook type, the company it belongs to, the resource (`id`, the path to
 * GET it under /v1) and a few fields worth having without a GET. Pure: the processor adds the environment and the base
 * address and records one delivery per subscribed endpoint.
 */
export interface Notificacao {
  tipo: WebhookEventType;
  company_id: string;
  id: string;
  caminho: string;
  campos: Record<string, unknown>;
}

const cte = (id: string) => `/v1/fiscal/cte/${id}`;
const mdfe = (id: string) => `/v1/fiscal/mdfe/${id}`;
const lote = (id: string) => `/v1/fiscal/cte-subcontratacao/lote/${id}`;
const ciot = (id: string) => `/v1/fiscal/ciot/${id}`;
const parcelas = (counterCteId: string) => `/v1/carriers/parcelas-repasse/${counterCteId}`;
const valePedagio = (id: string) => `/v1/vale-pedagio/${id}`;
const cteRecebido = (chave: string) => `/v1/fiscal/cte-subcontratacao/${chave}`;
const nfe = (chave: string) => `/v1/fiscal/nfe/${chave}`;

/** CT-e event types (`tp_evento`) as integrators know them. */
const TP_EVENTO_CTE: Record<string, string> = {
  '110111': 'cancelamento',
  '110110': 'carta_correcao',
  '110180': 'comprovante_entrega',
  '110181': 'cancelamento_comprovante_entrega',
};

type Mapa = { [T in EventType]?: (data: Extract<DomainEvent, { type: T }>['data']) => Notificacao | null };

const MAPA: Mapa = {
  'cte.autorizado': (d) => ({
    tipo: 'cte.autorizado',
    company_id: d.company_id,
    id: d.cte_id,
    caminho: cte(d.cte_id),
    campos: { chave: d.chave, protocolo: d.protocolo.numero },
  }),
  'cte.rejeitado': (d) => ({
    tipo: 'cte.rejeitado',
    company_id: d.company_id,
    id: d.cte_id,
    caminho: cte(d.cte_id),
    campos: { cstat: d.cstat, motivo: d.motivo },
  }),
  'cte.denegado': (d) => ({
    tipo: 'cte.denegado',
    company_id: d.company_id,
    id: d.cte_id,
    caminho: cte(d.cte_id),
    campos: { chave: d.chave, cstat: d.protocolo.cstat, motivo: d.protocolo.motivo },
  }),
  'cte.evento_registrado': (d) => ({
    tipo: d.tp_evento === '110111' ? 'cte.cancelado' : 'cte.evento_registrado',
    company_id: d.company_id,
    id: d.cte_id,
    caminho: cte(d.cte_id),
    campos: { evento: TP_EVENTO_CTE[d.tp_evento] ?? d.tp_evento, tp_evento: d.tp_evento, protocolo: d.protocolo.numero },
  }),
  'cte.evento_pendente': (d) => ({
    tipo: 'cte.evento_pendente',
    company_id: d.company_id,
    id: d.cte_id,
    caminho: cte(d.cte_id),
    campos: { evento: TP_EVENTO_CTE[d.tp_evento] ?? d.tp_evento, tp_evento: d.tp_evento, motivo: d.motivo },
  }),
  'cte.evento_rejeitado': (d) => ({
    tipo: 'cte.evento_rejeitado',
    company_id: d.company_id,
    id: d.cte_id,
    caminho: cte(d.cte_id),
    campos: { evento: TP_EVENTO_CTE[d.tp_evento] ?? d.tp_evento, tp_evento: d.tp_evento, cstat: d.cstat, motivo: d.motivo },
  }),
  'mdfe.autorizado': (d) => ({
    tipo: 'mdfe.autorizado',
    company_id: d.company_id,
    id: d.mdfe_id,
    caminho: mdfe(d.mdfe_id),
    campos: { chave: d.chave, protocolo: d.protocolo.numero },
  }),
  'mdfe.rejeitado': (d) => ({
    tipo: 'mdfe.rejeitado',
    company_id: d.company_id,
    id: d.mdfe_id,
    caminho: mdfe(d.mdfe_id),
    campos: { cstat: d.cstat, motivo: d.motivo },
  }),
  'mdfe.evento_registrado': (d) => ({
    tipo: d.tipo === 'cancelamento' ? 'mdfe.cancelado' : d.tipo === 'encerramento' ? 'mdfe.encerrado' : 'mdfe.evento_registrado',
    company_id: d.company_id,
    id: d.mdfe_id,
    caminho: mdfe(d.mdfe_id),
    campos: { evento: d.tipo, protocolo: d.protocolo.numero },
  }),
  'mdfe.evento_pendente': (d) => ({
    tipo: 'mdfe.evento_pendente',
    company_id: d.company_id,
    id: d.mdfe_id,
    caminho: mdfe(d.mdfe_id),
    campos: { evento: d.tipo, motivo: d.motivo },
  }),
  'lote.linha_processada': (d) => ({
    tipo: 'lote.linha_processada',
    company_id: d.company_id,
    id: d.batch_id,
    caminho: lote(d.batch_id),
    campos: { linha: d.linha, chave: d.chave, perna: d.perna, status: d.status, counter_cte_id: d.counter_cte_id, error: d.error },
  }),
  'lote.concluido': (d) => ({
    tipo: 'lote.concluido',
    company_id: d.company_id,
    id: d.batch_id,
    caminho: lote(d.batch_id),
    campos: { status: d.status, total_linhas: d.total_linhas, emitidas: d.emitidas, duplicadas: d.duplicadas, falhas: d.falhas },
  }),
  'ciot.registrada': (d) => ({
    tipo: 'ciot.registrado',
    company_id: d.company_id,
    id: d.ciot_id,
    caminho: ciot(d.ciot_id),
    campos: { ciot: d.ciot, protocolo: d.protocolo, status: 'registered' },
  }),
  'ciot.recusada': (d) => ({
    tipo: 'ciot.recusado',
    company_id: d.company_id,
    id: d.ciot_id,
    caminho: ciot(d.ciot_id),
    campos: { codigo: d.codigo, motivo: d.motivo, status: 'refused' },
  }),
  'ciot.pendente': (d) => ({
    tipo: 'ciot.pendente',
    company_id: d.company_id,
    id: d.ciot_id,
    caminho: ciot(d.ciot_id),
    campos: { motivo: d.motivo, tentativa: d.tentativa, status: 'sent' },
  }),
  'repasse.parcela_liberada': (d) => ({
    tipo: 'parcela.liberada',
    company_id: d.company_id,
    id: d.cte_id,
    caminho: parcelas(d.cte_id),
    campos: { posicao: d.posicao, gatilho: d.gatilho, vencimento: d.vencimento },
  }),
  'repasse.parcela_paga': (d) => ({
    tipo: 'parcela.paga',
    company_id: d.company_id,
    id: d.cte_id,
    caminho: parcelas(d.cte_id),
    campos: { posicao: d.posicao, valor_centavos: d.valor_centavos, paga_em: d.paga_em },
  }),
  'repasse.pagamento_retirado': (d) => ({
    tipo: 'parcela.pagamento_retirado',
    company_id: d.company_id,
    id: d.cte_id,
    caminho: parcelas(d.cte_id),
    campos: { posicao: d.posicao, ordem_id: d.ordem_id, valor_centavos: d.valor_centavos, motivo: d.motivo },
  }),
  // The taker's events about a received CT-e (610110 desacordo, 610111 its cancellation): the resource is the inbox key.
  'cte_subcontratacao.desacordo_registrado': (d) => ({
    tipo: d.tipo === 'desacordo' ? 'cte_subcontratacao.desacordo_registrado' : 'cte_subcontratacao.desacordo_cancelado',
    company_id: d.company_id,
    id: d.chave,
    caminho: cteRecebido(d.chave),
    campos: { chave: d.chave, evento: d.tipo, tp_evento: d.tp_evento, protocolo: d.protocolo.numero },
  }),
  'cte_subcontratacao.desacordo_pendente': (d) => ({
    tipo: 'cte_subcontratacao.desacordo_pendente',
    company_id: d.company_id,
    id: d.chave,
    caminho: cteRecebido(d.chave),
    campos: { chave: d.chave, evento: d.tipo, tp_evento: d.tp_evento, motivo: d.motivo },
  }),
  'cte_subcontratacao.desacordo_rejeitado': (d) => ({
    tipo: 'cte_subcontratacao.desacordo_rejeitado',
    company_id: d.company_id,
    id: d.chave,
    caminho: cteRecebido(d.chave),
    campos: { chave: d.chave, evento: d.tipo, tp_evento: d.tp_evento, cstat: d.cstat, motivo: d.motivo },
  }),
  // A key's first receipt in the company's inbox, whatever brought it: an upload or a hand-off (`api`, `repasse`) or
  // the national distribution. Receipts of a key already there (`reenviado`, `substituido`) are not news. `origem` is
  // the inbox row's (`GET …/cte-subcontratacao/{chave}`), which this first receipt sets.
  'cte_subcontratacao.recebido': (d) => ({
    tipo: 'inbox.cte_recebido',
    company_id: d.company_id,
    id: d.chave,
    caminho: cteRecebido(d.chave),
    campos: {
      chave: d.chave,
      origem: d.canal === 'distribuicao' ? 'distribuicao' : 'envio',
      canal: d.canal,
      nsu: d.nsu ?? null,
      papel_transportadora: d.papel_transportadora,
      permite_contra_cte: d.permite_contra_cte,
    },
  }),
  // An NF-e's XML reaching the company's list for the first time, a key known only from a PDF until now included
  // (`completou_chave`). `nfe.chave_importada` (a PDF's key, no XML) is not: the NF-e itself has not arrived, and its
  // XML's arrival later is this event, so one NF-e is announced once. `origem` is the list's (`GET /fiscal/nfe/{chave}`):
  // the key's first arrival, so a PDF's key completed keeps `importacao`; `canal` is how this XML came.
  'nfe.importada': (d) => {
    const canal = d.canal ?? 'importacao';
    return {
      tipo: 'nfe.recebida',
      company_id: d.company_id,
      id: d.chave,
      caminho: nfe(d.chave),
      campos: {
        chave: d.chave,
        origem: d.completou_chave ? 'importacao' : canal,
        canal,
        nsu: d.nsu ?? null,
        completou_chave: d.completou_chave,
      },
    };
  },
  'vale_pedagio.emitido': (d) => ({
    tipo: 'vale_pedagio.emitido',
    company_id: d.company_id,
    id: d.vale_pedagio_id,
    caminho: valePedagio(d.vale_pedagio_id),
    campos: { numero: d.numero, valor_total_centavos: d.valor_total_centavos, cancelavel_ate: d.cancelavel_ate },
  }),
  'vale_pedagio.cancelado': (d) => ({
    tipo: 'vale_pedagio.cancelado',
    company_id: d.company_id,
    id: d.vale_pedagio_id,
    caminho: valePedagio(d.vale_pedagio_id),
    campos: { cancelado_em: d.cancelado_em },
  }),
};

/** The domain event types that may notify anything: the webhooks processor handles only these. */
export const TIPOS_NOTIFICADOS: readonly string[] = Object.keys(MAPA);

/** The notification a domain event gives, or null for a type integrators are not told about. */
export function notificacaoDe(event: { type: string; data: unknown }): Notificacao | null {
  const map = (MAPA as Record<string, ((data: unknown) => Notificacao | null) | undefined>)[event.type];
  return map ? map(event.data) : null;
}
