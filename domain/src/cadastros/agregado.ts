import {
  type ChavePix,
  type CodigoPendenciaAgregado,
  type EstadoAgregado,
  type PendenciaAgregado,
  type TipoDocumento,
} from '@frete/contracts';

/**
 * The onboarding of an aggregate driver (TAC-agregado), derived from what the product already has (design, README
 * "Registrations and regulator queries"): an aggregate is an owner (CPF or CNPJ) of active vehicles registered with
 * `proprietario.tipo_proprietario` 0; its driver record is the active driver with that CPF (for a CNPJ owner, the
 * driver whose PIX key is that CNPJ, where its payout goes); its RNTRC is the one its vehicles name, checked at the
 * regulator.
 *
 * - `cadastro_incompleto` while the registry lacks something: `motorista_nao_cadastrado`, `chave_pix_ausente`
 *   (the payout goes to the driver's PIX key), `rntrc_divergente` (its vehicles name different RNTRCs);
 * - `aguardando_rntrc` when the registry is complete but the regulator has not confirmed the RNTRC active:
 *   `rntrc_inativo`, or `rntrc_nao_verificado` (no regulator provider answers: production, ruling 7);
 * - `ativo` with nothing pending.
 *
 * `pendencias` lists everything pending, in this order, whatever the state.
 */
export interface EntradaSituacaoAgregado {
  tipo_documento: TipoDocumento;
  motorista: { chave_pix: ChavePix | null } | null;
  /** The distinct owner RNTRCs its vehicles name. */
  rntrcs: string[];
  /** At the regulator: `ativo`, `inativo`, or `nao_verificado` when no provider answered. */
  rntrc: 'ativo' | 'inativo' | 'nao_verificado';
}

const MENSAGENS: Record<CodigoPendenciaAgregado, (e: EntradaSituacaoAgregado) => string> = {
  motorista_nao_cadastrado: (e) =>
    e.tipo_documento === 'CPF'
      ? 'no active driver with this CPF at /fiscal/motoristas: register the driver'
      : 'no active driver at /fiscal/motoristas whose PIX key is this CNPJ: register the driver with it',
  chave_pix_ausente: () => 'the driver record has no PIX key (chave_pix): the payout needs one',
  rntrc_divergente: (e) =>
    `the vehicles name different owner RNTRCs (${[...e.rntrcs].sort().join(', ')}): correct them at /fiscal/veiculos`,
  rntrc_inativo: () => 'the RNTRC is not active at the regulator',
  rntrc_nao_verificado: () => 'the RNTRC could not be checked: no regulator provider is available in this environment',
};

const CADASTRO: CodigoPendenciaAgregado[] = ['motorista_nao_cadastrado', 'chave_pix_ausente', 'rntrc_divergente'];

export function situacaoAgregado(e: EntradaSituacaoAgregado): { estado: EstadoAgregado; pendencias: PendenciaAgregado[] } {
  const codes: CodigoPendenciaAgregado[] = [];
  if (!e.motorista) codes.push('motorista_nao_cadastrado');
  else if (!e.motorista.chave_pix) codes.push('chave_pix_ausente');
  if (new Set(e.rntrcs).size > 1) codes.push('rntrc_divergente');
  if (e.rntrc === 'inativo') codes.push('rntrc_inativo');
  if (e.rntrc === 'nao_verificado') codes.push('rntrc_nao_verificado');
  const estado: EstadoAgregado = codes.some((c) => CADASTRO.includes(c))
    ? 'cadastro_incompleto'
    : codes.length > 0
      ? 'aguardando_rntrc'
      : 'ativo';
  return { estado, pendencias: codes.map((code) => ({ code, message: MENSAGENS[code](e) })) };
}
