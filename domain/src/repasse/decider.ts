import { type EventData, type GatilhoLiberacao, type ParcelaGerada } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { dividirPorPercentuais, posicaoDoDocumento } from './parcelas';
import { vencimentoDe } from './vencimento';
import {
  type DocumentoEstado,
  type ParcelaEstado,
  type RepasseEvent,
  type RepasseState,
  cancelamentoDe,
  repasseEmLugar,
  evoluirRepasse,
  repasseInicial,
} from './estado';
import { cancelarDocumento, condicaoNoRegistro, recusarCancelamento, solicitarCancelamento } from './cancelamento';

interface Alvo {
  company_id: string;
  grupo: string;
  cte_id: string;
}

/**
 * Commands of a driver group. The payout processor registers documents (or their failure), hands payment orders to
 * the bank rail and settles them; the API reports the driver app's acts and releases and orders payments; the
 * counter-CT-e's cancellation holds the document while the authority decides, then cancels it or lets it go.
 */
export type RepasseCommand =
  | { type: 'RegistrarDocumento'; dados: Omit<EventData<'repasse.documento_registrado'>, 'registrado_em'> }
  | { type: 'RegistrarFalha'; dados: Omit<EventData<'repasse.registro_falhou'>, 'falhou_em'> }
  | ({ type: 'Bipar' } & Alvo)
  | ({ type: 'Concluir' } & Alvo)
  | ({ type: 'PrestarContas' } & Alvo)
  | ({ type: 'Liberar'; posicao: number } & Alvo)
  | ({ type: 'Pagar'; posicao: number; ordem_id: string } & Alvo)
  | ({ type: 'EnviarPagamento'; posicao: number; ordem_id: string } & Alvo)
  | ({ type: 'LiquidarPagamento'; posicao: number; ordem_id: string } & Alvo)
  | ({ type: 'SolicitarCancelamento'; event_key: string } & Alvo)
  | ({ type: 'RecusarCancelamento'; event_key: string } & Alvo)
  | ({ type: 'CancelarDocumento'; event_key?: string } & Alvo);

/** In automatic mode each driver-app act releases one position (ruling 15). */
const POSICAO_DO_GATILHO: Record<Exclude<GatilhoLiberacao, 'manual'>, number> = { bipagem: 1, conclusao: 2, prestacao_contas: 3 };

const alvo = (c: Alvo): Alvo => ({ company_id: c.company_id, grupo: c.grupo, cte_id: c.cte_id });

function documento(state: RepasseState, c: Alvo): DocumentoEstado {
  const doc = state.documentos[c.cte_id];
  if (!doc) throw new Rejection('nao_encontrado', `counter-CT-e ${c.cte_id} has no payout in this group`);
  return doc;
}

function ativo(state: RepasseState, c: Alvo): DocumentoEstado {
  const doc = documento(state, c);
  if (doc.cancelado) throw new Rejection('documento_cancelado', `counter-CT-e ${c.cte_id} was cancelled; its payout no longer moves`);
  return doc;
}

/** While the authority decides the document's cancellation, the operator's acts that lead to money wait for it. */
function semCancelamentoPendente(state: RepasseState, c: Alvo): void {
  const pendente = cancelamentoDe(state, c.cte_id).pendente;
  if (pendente)
    throw new Rejection(
      'documento_em_cancelamento',
      `counter-CT-e ${c.cte_id} has a cancellation at the authority (${pendente}): no installment is released or paid until its verdict`,
      { event_key: pendente },
    );
}

function gerado(doc: DocumentoEstado): ParcelaEstado[] {
  if (!doc.parcelas)
    throw new Rejection('parcelas_nao_geradas', `counter-CT-e ${doc.cte_id} was not scanned yet: its installments do not exist`);
  return doc.parcelas;
}

function parcela(doc: DocumentoEstado, posicao: number): ParcelaEstado {
  const p = gerado(doc).find((x) => x.posicao === posicao);
  if (!p) {
    const existentes = gerado(doc)
      .map((x) => x.posicao)
      .join(', ');
    throw new Rejection(
      'parcela_nao_encontrada',
      `counter-CT-e ${doc.cte_id} has no installment at position ${posicao} (it has ${existentes})`,
    );
  }
  if (p.situacao === 'cancelada')
    throw new Rejection('parcela_cancelada', `installment ${posicao} of counter-CT-e ${doc.cte_id} was cancelled with the document`);
  return p;
}

/**
 * The scan decides the installments from the group's live documents at that moment, ordered by their place in the
 * batch: with N documents and k installments, N ≥ k puts this whole document in the bucket its rank falls in; N < k
 * splits it by the percentages, exact to the cent.
 */
function parcelasNaBipagem(state: RepasseState, doc: DocumentoEstado): { n: number; ordem: number; parcelas: ParcelaGerada[] } {
  const vivos = Object.values(state.documentos)
    .filter((d) => !d.cancelado)
    .sort((a, b) => a.posicao - b.posicao || (a.cte_id < b.cte_id ? -1 : a.cte_id > b.cte_id ? 1 : 0));
  const n = vivos.length;
  const ordem = vivos.findIndex((d) => d.cte_id === doc.cte_id);
  const regra = doc.regra.parcelas;
  if (n >= regra.length) {
    const posicao = posicaoDoDocumento(ordem, n, regra);
    const dias = regra.find((p) => p.posicao === posicao)!.dias;
    return { n, ordem, parcelas: [{ posicao, percentual: 100, valor_centavos: doc.valor_centavos, dias }] };
  }
  const valores = dividirPorPercentuais(doc.valor_centavos, regra);
  return {
    n,
    ordem,
    parcelas: regra.map((p, i) => ({ posicao: p.posicao, percentual: p.percentual, valor_centavos: valores[i]!, dias: p.dias })),
  };
}

function liberacao(c: Alvo, p: Pick<ParcelaEstado, 'posicao' | 'dias'>, gatilho: GatilhoLiberacao, now: Date): RepasseEvent {
  return {
    type: 'repasse.parcela_liberada',
    data: { ...alvo(c), posicao: p.posicao, gatilho, liberada_em: now.toISOString(), vencimento: vencimentoDe(now, p.dias) },
  };
}

/** Automatic mode: the act releases its position's installment when this document has it, still pending. */
function liberacaoAutomatica(
  c: Alvo,
  doc: DocumentoEstado,
  parcelas: readonly Pick<ParcelaEstado, 'posicao' | 'situacao' | 'dias'>[],
  gatilho: Exclude<GatilhoLiberacao, 'manual'>,
  now: Date,
): RepasseEvent[] {
  if (doc.modo !== 'automatico') return [];
  const p = parcelas.find((x) => x.posicao === POSICAO_DO_GATILHO[gatilho] && x.situacao === 'pendente');
  return p ? [liberacao(c, p, gatilho, now)] : [];
}

export const repasseDecider: Decider<RepasseCommand, RepasseState, RepasseEvent> = {
  initialState: repasseInicial,
  decide(c, state, { now }) {
    const agora = now.toISOString();
    switch (c.type) {
      case 'RegistrarDocumento':
        if (state.documentos[c.dados.cte_id]) return [];
        return [
          { type: 'repasse.documento_registrado', data: { ...c.dados, registrado_em: agora } },
          ...condicaoNoRegistro(state, c.dados, agora),
        ];
      case 'RegistrarFalha':
        if (state.documentos[c.dados.cte_id] || state.falhas[c.dados.cte_id]) return [];
        return [{ type: 'repasse.registro_falhou', data: { ...c.dados, falhou_em: agora } }];
      case 'Bipar': {
        const doc = ativo(state, c);
        if (doc.parcelas) return [];
        const { n, ordem, parcelas } = parcelasNaBipagem(state, doc);
        const geradas = parcelas.map((p) => ({ ...p, situacao: 'pendente' as const }));
        return [
          {
            type: 'repasse.parcelas_geradas',
            data: { ...alvo(c), bipado_em: agora, documentos_no_grupo: n, ordem_no_grupo: ordem + 1, parcelas },
          },
          ...liberacaoAutomatica(c, doc, geradas, 'bipagem', now),
        ];
      }
      case 'Concluir': {
        const doc = ativo(state, c);
        const parcelas = gerado(doc);
        if (doc.concluido) return [];
        return [
          { type: 'repasse.conclusao_registrada', data: { ...alvo(c), concluido_em: agora } },
          ...liberacaoAutomatica(c, doc, parcelas, 'conclusao', now),
        ];
      }
      case 'PrestarContas': {
        const doc = ativo(state, c);
        const parcelas = gerado(doc);
        if (doc.prestado_contas) return [];
        return [
          { type: 'repasse.prestacao_contas_registrada', data: { ...alvo(c), prestado_contas_em: agora } },
          ...liberacaoAutomatica(c, doc, parcelas, 'prestacao_contas', now),
        ];
      }
      case 'Liberar': {
        const doc = documento(state, c);
        semCancelamentoPendente(state, c);
        const p = parcela(doc, c.posicao);
        if (p.situacao !== 'pendente')
          throw new Rejection(
            'parcela_ja_liberada',
            `installment ${c.posicao} of counter-CT-e ${c.cte_id} is already released (${p.situacao})`,
          );
        return [liberacao(c, p, 'manual', now)];
      }
      case 'Pagar': {
        const doc = documento(state, c);
        // The same order again (a retry of one request): already recorded, nothing to add.
        if (doc.parcelas?.some((x) => x.posicao === c.posicao && x.ordem_id === c.ordem_id)) return [];
        semCancelamentoPendente(state, c);
        const p = parcela(doc, c.posicao);
        if (p.situacao === 'pendente')
          throw new Rejection(
            'parcela_nao_liberada',
            `installment ${c.posicao} of counter-CT-e ${c.cte_id} is not released: release it first`,
          );
        if (p.situacao !== 'liberada') {
          throw new Rejection(
            'parcela_ja_paga',
            `installment ${c.posicao} of counter-CT-e ${c.cte_id} already has payment order ${p.ordem_id} (${p.situacao})`,
            { ordem_id: p.ordem_id },
          );
        }
        return [
          {
            type: 'repasse.pagamento_solicitado',
            data: {
              ...alvo(c),
              posicao: c.posicao,
              ordem_id: c.ordem_id,
              motorista_cpf: doc.motorista_cpf,
              valor_centavos: p.valor_centavos,
              solicitado_em: agora,
            },
          },
        ];
      }
      case 'EnviarPagamento': {
        const p = state.documentos[c.cte_id]?.parcelas?.find((x) => x.posicao === c.posicao);
        // An order withdrawn by a cancellation, or already handed over, is not handed over (again).
        if (!p || p.situacao !== 'pagamento_solicitado' || p.ordem_id !== c.ordem_id || p.enviada) return [];
        return [{ type: 'repasse.pagamento_enviado', data: { ...alvo(c), posicao: c.posicao, ordem_id: c.ordem_id, enviado_em: agora } }];
      }
      case 'LiquidarPagamento': {
        const doc = state.documentos[c.cte_id];
        const p = doc?.parcelas?.find((x) => x.posicao === c.posicao);
        // Settling is the rail's echo of an order it was handed: a repeat, or an order never handed over, adds nothing.
        if (!doc || !p || p.situacao !== 'pagamento_solicitado' || p.ordem_id !== c.ordem_id || !p.enviada) return [];
        return [
          {
            type: 'repasse.parcela_paga',
            data: {
              ...alvo(c),
              chave_original: doc.chave_original,
              posicao: c.posicao,
              ordem_id: c.ordem_id,
              valor_centavos: p.valor_centavos,
              paga_em: agora,
            },
          },
        ];
      }
      case 'SolicitarCancelamento':
        return solicitarCancelamento(state, c, c.event_key, agora);
      case 'RecusarCancelamento':
        return recusarCancelamento(state, c, c.event_key, agora);
      case 'CancelarDocumento':
        return cancelarDocumento(state, c, c.event_key, agora);
    }
  },
  evolve: evoluirRepasse,
  emLugar: repasseEmLugar,
};
