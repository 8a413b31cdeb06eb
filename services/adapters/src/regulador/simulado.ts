import { type ItemFrota, type SituacaoRntrc, type TipoTransportador } from '@frete/contracts';
import { type ConsultaFrotaRegulador, type ConsultaRntrcRegulador, type ReguladorTransporte } from './port';

/** Spec section 4: the simulated `razao_social`, by the kind of document queried (exact strings, ruling 13). */
export const RAZAO_SOCIAL_SIMULADA = { CNPJ: 'TRANSPORTES SIMULADOS HML LTDA', CPF: 'TRANSPORTADOR AUTONOMO SIMULADO' } as const;

/**
 * Sandbox sentinels of the RNTRC query. The spec's (ruling 13) are 9 digits: `000000000` inactive, `111111111` active
 * and equated to TAC. The fiscal registry keeps 8-digit RNTRCs (ruling 23: vehicles, owners), so their 8-digit forms
 * act alike, and an aggregate's onboarding can be driven with them. `222222222`/`22222222` (design) answer a
 * cooperative (CTC) for a CNPJ.
 */
export const RNTRC_INATIVO = ['000000000', '00000000'];
export const RNTRC_EQUIPARADO_TAC = ['111111111', '11111111'];
export const RNTRC_COOPERATIVA = ['222222222', '22222222'];

/** Sandbox sentinels of the fleet query (spec section 4, exact): not in the fleet, and cannot tell. */
export const PLACA_FORA_DA_FROTA = 'ZZZ0X00';
export const PLACA_INDETERMINADA = 'ZZZ9X99';

/**
 * The simulated regulator (spec section 1: plausible, deterministic, no regulatory effect). RNTRC: active unless a
 * sentinel says otherwise; type TAC for a CPF, ETC for a CNPJ (CTC with the cooperative sentinel); equated to TAC only
 * with its sentinel. Fleet: every plate belongs but the two sentinels. Every answer carries `verificacao: 'simulada'`.
 */
export class ReguladorTransporteSimulado implements ReguladorTransporte {
  readonly disponivel = true;

  consultarRntrc(c: ConsultaRntrcRegulador): Promise<SituacaoRntrc> {
    const ativo = !RNTRC_INATIVO.includes(c.rntrc);
    const tipo: TipoTransportador = c.tipo_documento === 'CPF' ? 'TAC' : RNTRC_COOPERATIVA.includes(c.rntrc) ? 'CTC' : 'ETC';
    return Promise.resolve({
      documento: c.documento,
      tipo_documento: c.tipo_documento,
      rntrc: c.rntrc,
      ativo,
      situacao: ativo ? 'ativo' : 'inativo',
      tipo,
      equiparado_tac: RNTRC_EQUIPARADO_TAC.includes(c.rntrc),
      razao_social: RAZAO_SOCIAL_SIMULADA[c.tipo_documento],
      verificacao: 'simulada',
    });
  }

  consultarFrota(c: ConsultaFrotaRegulador): Promise<ItemFrota[]> {
    return Promise.resolve(
      c.placas.map((placa) => ({
        placa,
        pertence: placa === PLACA_FORA_DA_FROTA ? false : placa === PLACA_INDETERMINADA ? null : true,
        verificacao: 'simulada' as const,
      })),
    );
  }
}
