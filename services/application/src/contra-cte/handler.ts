import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type PedidoContraCte, Rejection, normalizePlaca, valorSugeridoContraCte } from '@frete/domain';
import { configuracaoOf, caixaCteOf, motoristaPorCpf, veiculoPorPlaca } from '@frete/projections';
import { derivedEventId } from '@frete/platform';
import { type ContextoEmpresa } from '../commands/execute';
import { type ResultadoContraCte, type ServicoContraCte } from './servico';

export interface ContraCteHandlerDeps {
  pool: Pool;
  contraCte: ServicoContraCte;
}

type Contexto = ContextoEmpresa;

/** One counter-CT-e asked for by a carrier; `valor_centavos` null asks for the configured pricing rule's value. */
export interface PedidoContraCteAvulso extends Omit<PedidoContraCte, 'valor_centavos'> {
  chave: string;
  valor_centavos: number | null;
}

/** `POST /fiscal/cte/contra`: the single counter-CT-e, made by `ServicoContraCte` as a batch row is. */
export const contraCteHandler = (deps: ContraCteHandlerDeps) => {
  /** The value asked for, or the pricing rule's share of the contractor's CT-e in the caller's inbox. */
  const valorDo = async (companyId: string, pedido: PedidoContraCteAvulso): Promise<number> => {
    if (pedido.valor_centavos !== null) return pedido.valor_centavos;
    const [inbox, configuracao] = await Promise.all([caixaCteOf(deps.pool, companyId, pedido.chave), configuracaoOf(deps.pool, companyId)]);
    if (!inbox)
      throw new Rejection(
        'cte_nao_recebido',
        `CT-e ${pedido.chave} is not in your inbox: receive it first (POST /fiscal/cte-subcontratacao)`,
      );
    if (configuracao.percentual_frete_contra_cte === null) {
      throw new Rejection(
        'valor_frete_indefinido',
        'no valor_frete and no pricing rule: send valor_frete or set percentual_frete_contra_cte (PUT /fiscal/configuracao)',
      );
    }
    const valor = valorSugeridoContraCte(inbox.cte.valor_prestacao_centavos, configuracao.percentual_frete_contra_cte);
    if (valor < 1)
      throw new Rejection('valor_frete_indefinido', 'the pricing rule suggests less than 0.01 for this CT-e: send valor_frete');
    return valor;
  };

  return {
    /**
     * Prepares the counter-CT-e and, when it is new, asks for its issue. A key already subcontracted the same way
     * answers the existing counter-CT-e (`duplicated`); a refusal of the plan comes back as `failed`.
     */
    emitir: async (ctx: Contexto, pedido: PedidoContraCteAvulso, idempotencyKey?: string): Promise<ResultadoContraCte> => {
      const placa = normalizePlaca(pedido.placa);
      const [motorista, veiculo] = await Promise.all([
        motoristaPorCpf(deps.pool, ctx.companyId, pedido.motorista_cpf),
        veiculoPorPlaca(deps.pool, ctx.companyId, placa),
      ]);
      if (!motorista)
        throw new Rejection('motorista_nao_encontrado', `driver ${pedido.motorista_cpf} is not in your registry (POST /fiscal/motoristas)`);
      if (!veiculo) throw new Rejection('veiculo_nao_encontrado', `vehicle ${placa} is not in your registry (POST /fiscal/veiculos)`);
      const valorCentavos = await valorDo(ctx.companyId, pedido);

      const cteId = idempotencyKey ? derivedEventId(ctx.companyId, `contra-cte:${idempotencyKey}`) : randomUUID();
      const resultado = await deps.contraCte.preparar(
        {
          company_id: ctx.companyId,
          cte_id: cteId,
          chave: pedido.chave,
          modo: pedido.origem ? 'pernas' : '1a1',
          pedido: {
            tipo_servico: pedido.tipo_servico,
            origem: pedido.origem,
            destino: pedido.destino,
            valor_centavos: valorCentavos,
            motorista_cpf: motorista.cpf,
            placa,
          },
          lote_id: null,
          linha: null,
          perna: null,
          parcelas: null,
          solicitante_company_id: null,
        },
        ctx,
      );
      if (resultado.status === 'aceito') await deps.contraCte.solicitarEmissao(ctx.companyId, resultado.cte_id, ctx);
      return resultado;
    },
  };
};
export type ContraCteHandler = ReturnType<typeof contraCteHandler>;
