import { type DomainEventOf, type ValePedagioEmitido } from '@frete/contracts';
import { type Decider, Rejection } from '../decider';
import { valoresValePedagio } from './valores';

/**
 * One mandatory toll pass (VPO): stream `vale-pedagio-<company id>-<vale_pedagio_id>`. The company is in the stream's
 * name, so another company's toll pass is simply a stream that does not exist (404).
 *
 * Cancellation (spec section 4): accepted strictly within 3 hours of the issue — on the service clock, `now −
 * emitido_em < 3 h`, so exactly 3h00m00s after is refused (`cancelamento_fora_do_prazo`) — and before the first
 * plaza passage (`passagem_registrada`); a cancelled toll pass is `vale_pedagio_ja_cancelado`. The refund is the
 * account's business (`conta_operacional.estorno_registrado`), appended right after `vale_pedagio.cancelado`.
 */
export const valePedagioStream = (companyId: string, valePedagioId: string) => `vale-pedagio-${companyId}-${valePedagioId}`;

/** 3 hours, in milliseconds. */
export const PRAZO_CANCELAMENTO_MS = 3 * 60 * 60 * 1000;

export type ValePedagioEvent =
  | DomainEventOf<'vale_pedagio.emitido'>
  | DomainEventOf<'vale_pedagio.passagem_registrada'>
  | DomainEventOf<'vale_pedagio.cancelado'>;

export type DadosEmissaoValePedagio = Omit<ValePedagioEmitido, 'emitido_em' | 'cancelavel_ate'>;

/** A document a `cte`/`mdfe` reference names, as the handler found it: its id and the company it belongs to. */
export interface DocumentoReferido {
  id: string;
  company_id: string;
}

/**
 * What each reference of a purchase names; null for a reference that names no document (or for no reference). The
 * handler looks them up only among the company's own documents, so another company's reaches here as null too.
 */
export interface DocumentosReferidos {
  cte: DocumentoReferido | null;
  mdfe: DocumentoReferido | null;
}

export type ValePedagioCommand =
  | { type: 'Emitir'; dados: DadosEmissaoValePedagio; documentos: DocumentosReferidos }
  /** The supplier reports a passage; without `praca_codigo`, the first plaza not passed yet. */
  | { type: 'RegistrarPassagem'; company_id: string; vale_pedagio_id: string; praca_codigo?: string }
  | { type: 'Cancelar'; company_id: string; vale_pedagio_id: string };

export interface ValePedagioState {
  emitido: ValePedagioEmitido | null;
  /** Plaza code → when it was passed. */
  passagens: Record<string, string>;
  cancelado_em: string | null;
}

const naoEncontrado = (id: string) => new Rejection('nao_encontrado', `toll pass ${id} not found`);

const NOMES = { cte: 'CT-e', mdfe: 'MDF-e' } as const;

/**
 * Why the purchase's `cte`/`mdfe` references are refused, or null when each names a document of the buying company.
 * One answer for an unknown document and another company's (anti-enumeration, spec section 7). The handler asks
 * before any money moves; `Emitir` asks again with the same facts, so no toll pass is issued unchecked.
 */
export function referenciaNaoEncontrada(
  dados: Pick<DadosEmissaoValePedagio, 'company_id' | 'cte' | 'mdfe'>,
  documentos: DocumentosReferidos,
): Rejection | null {
  const faltam = (['cte', 'mdfe'] as const).filter((campo) => {
    const doc = documentos[campo];
    return dados[campo] !== null && (doc === null || doc.company_id !== dados.company_id);
  });
  if (faltam.length === 0) return null;
  return new Rejection('nao_encontrado', faltam.map((campo) => `${NOMES[campo]} ${dados[campo]} not found`).join('; '), {
    fields: faltam.map((campo) => ({ field: campo, message: `names no ${NOMES[campo]} of the company` })),
  });
}

/** Why the toll pass cannot be cancelled at `now`, or null when it can. */
export function impedimentoCancelamento(state: ValePedagioState, now: Date): Rejection | null {
  const v = state.emitido;
  if (!v) return null;
  if (state.cancelado_em)
    return new Rejection('vale_pedagio_ja_cancelado', `toll pass ${v.numero} was already cancelled at ${state.cancelado_em} and refunded`);
  const primeira = Object.values(state.passagens).sort()[0];
  if (primeira) {
    return new Rejection('passagem_registrada', `toll pass ${v.numero} passed a toll plaza at ${primeira}: it can no longer be cancelled`, {
      primeira_passagem_em: primeira,
    });
  }
  if (now.getTime() - Date.parse(v.emitido_em) >= PRAZO_CANCELAMENTO_MS) {
    return new Rejection(
      'cancelamento_fora_do_prazo',
      `toll pass ${v.numero} was issued at ${v.emitido_em}: cancellation is accepted strictly within 3 hours (until before ${v.cancelavel_ate})`,
      { emitido_em: v.emitido_em, cancelavel_ate: v.cancelavel_ate },
    );
  }
  return null;
}

export const valePedagioDecider: Decider<ValePedagioCommand, ValePedagioState, ValePedagioEvent> = {
  initialState: { emitido: null, passagens: {}, cancelado_em: null },
  decide(command, state, ctx) {
    switch (command.type) {
      case 'Emitir': {
        // The same toll pass again (a retried purchase with the same referencia_externa) appends nothing.
        if (state.emitido) return [];
        const d = command.dados;
        const referencia = referenciaNaoEncontrada(d, command.documentos);
        if (referencia) throw referencia;
        if (d.pracas.length === 0) throw new Rejection('rota_sem_pracas', 'the route crosses no toll plaza for this category');
        const v = valoresValePedagio(d.pracas.map((p) => p.tarifa_centavos));
        if (
          v.valor_pedagio_centavos !== d.valor_pedagio_centavos ||
          v.valor_total_centavos !== d.valor_total_centavos ||
          d.taxa_centavos + d.valor_pedagio_centavos !== d.valor_total_centavos
        ) {
          throw new Rejection('regra_de_negocio', "the toll pass's values do not add up to its plazas' tariffs and fee");
        }
        return [
          {
            type: 'vale_pedagio.emitido',
            data: {
              ...d,
              emitido_em: ctx.now.toISOString(),
              cancelavel_ate: new Date(ctx.now.getTime() + PRAZO_CANCELAMENTO_MS).toISOString(),
            },
          },
        ];
      }
      case 'RegistrarPassagem': {
        const v = state.emitido;
        if (!v) throw naoEncontrado(command.vale_pedagio_id);
        if (state.cancelado_em)
          throw new Rejection('vale_pedagio_ja_cancelado', `toll pass ${v.numero} was cancelled at ${state.cancelado_em}`);
        const praca =
          command.praca_codigo === undefined
            ? v.pracas.find((p) => !state.passagens[p.codigo])
            : v.pracas.find((p) => p.codigo === command.praca_codigo);
        if (!praca) {
          if (command.praca_codigo === undefined) return []; // every plaza passed already
          throw new Rejection('praca_fora_do_vale', `plaza ${command.praca_codigo} is not on toll pass ${v.numero}`, {
            fields: [{ field: 'praca', message: 'not a plaza of this toll pass' }],
          });
        }
        // The supplier may report the same passage again: recorded once.
        if (state.passagens[praca.codigo]) return [];
        return [
          {
            type: 'vale_pedagio.passagem_registrada',
            data: {
              company_id: command.company_id,
              vale_pedagio_id: command.vale_pedagio_id,
              praca_codigo: praca.codigo,
              praca_ordem: praca.ordem,
              passou_em: ctx.now.toISOString(),
            },
          },
        ];
      }
      case 'Cancelar': {
        if (!state.emitido) throw naoEncontrado(command.vale_pedagio_id);
        const impedimento = impedimentoCancelamento(state, ctx.now);
        if (impedimento) throw impedimento;
        return [
          {
            type: 'vale_pedagio.cancelado',
            data: { company_id: command.company_id, vale_pedagio_id: command.vale_pedagio_id, cancelado_em: ctx.now.toISOString() },
          },
        ];
      }
    }
  },
  evolve(state, event) {
    switch (event.type) {
      case 'vale_pedagio.emitido':
        return { ...state, emitido: event.data };
      case 'vale_pedagio.passagem_registrada':
        return { ...state, passagens: { ...state.passagens, [event.data.praca_codigo]: event.data.passou_em } };
      case 'vale_pedagio.cancelado':
        return { ...state, cancelado_em: event.data.cancelado_em };
    }
  },
};
