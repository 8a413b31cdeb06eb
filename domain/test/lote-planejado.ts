import { type LinhaPlanejada } from '@frete/contracts';
import { type LoteEvent } from '../src';

/** A planned row of a batch: a full counter-CT-e of R$ 1.00 against `chave`, by the demo driver and plate. */
export const linhaPlanejada = (linha: number, chave: string): LinhaPlanejada => ({
  linha,
  chave,
  perna: null,
  tipo_servico: 1,
  origem: null,
  destino: null,
  valor_centavos: 100,
  motorista_cpf: '52998224725',
  placa: 'ABC1D23',
});

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
