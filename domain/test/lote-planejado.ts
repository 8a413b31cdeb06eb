import { type LinhaPlanejada } from '@frete/contracts';
import { type LoteEvent } from '../src';

/** A counter-CT-e asked for: a full one (tipo_servico 1) of R$ 1.00, by the demo driver and plate. */
export const PEDIDO_CONTRA_CTE = {
  tipo_servico: 1 as const,
  origem: null,
  destino: null,
  valor_centavos: 100,
  motorista_cpf: '52998224725',
  placa: 'ABC1D23',
};

/** A planned row of a batch: `PEDIDO_CONTRA_CTE` against `chave`. */
export const linhaPlanejada = (linha: number, chave: string): LinhaPlanejada => ({ linha, chave, perna: null, ...PEDIDO_CONTRA_CTE });

/** The batch the workflow tests follow. */
export const LOTE = { batch_id: 'b-1', company_id: 'sub' };

/** `lote.criado` of `LOTE` in homologação, one to one, its rows made by `plano`; `solicitante` when another company asked. */
export const loteCriado = (linhas: number, plano: (linha: number) => LinhaPlanejada, solicitante: string | null = null): LoteEvent => ({
  type: 'lote.criado',
  data: {
    ...LOTE,
    solicitante_company_id: solicitante,
    ambiente: 'homologacao',
    modo: '1a1',
    parcelas: null,
    linhas: Array.from({ length: linhas }, (_, i) => plano(i)),
  },
});
