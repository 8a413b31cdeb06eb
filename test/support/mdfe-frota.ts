import { type TestCarrier } from './app';
import { ENDERECO_SP } from './emissora';

/** The tractor the MDF-e tests travel with, in `POST /fiscal/veiculos`'s words. */
export const TRACAO = {
  placa: 'ABC1D23',
  tipo: 'tracao',
  tara_kg: 8000,
  capacidade_kg: 20000,
  tipo_rodado: '03',
  tipo_carroceria: '02',
  uf: 'SP',
} as const;

/** Its driver, in `POST /fiscal/motoristas`'s words. */
export const MOTORISTA = { cpf: '52998224725', nome: 'JOAO MOTORISTA' } as const;

/**
 * What an MDF-e of an `emissora` needs besides: the tractor and its driver registered and, with `serieMdfe`, a fiscal
 * configuration that numbers MDF-e in that series (otherwise the default series).
 */
export async function prontaParaMdfe(c: TestCarrier, serieMdfe?: number): Promise<void> {
  if (serieMdfe !== undefined) {
    const conf = await c.call('PUT', '/v1/fiscal/configuracao', {
      inscricao_estadual: '110042490114',
      regime_tributario: 3,
      rntrc: '12345678',
      serie_cte: 1,
      serie_mdfe: serieMdfe,
      endereco: ENDERECO_SP,
    });
    if (conf.status !== 200) throw new Error(`configuracao: ${conf.text}`);
  }
  const veiculo = await c.call('POST', '/v1/fiscal/veiculos', TRACAO);
  if (veiculo.status !== 201) throw new Error(`veiculo: ${veiculo.text}`);
  const motorista = await c.call('POST', '/v1/fiscal/motoristas', MOTORISTA);
  if (motorista.status !== 201) throw new Error(`motorista: ${motorista.text}`);
}
