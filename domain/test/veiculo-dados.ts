import { type VeiculoDados } from '@frete/contracts';

/** A vehicle as the registry keeps it when only its plate was given: a tractor, every other field null. */
export const veiculoDados = (over: Partial<VeiculoDados> = {}): VeiculoDados => ({
  placa: 'ABC1D23',
  renavam: null,
  rntrc: null,
  uf: null,
  tara_kg: null,
  capacidade_kg: null,
  capacidade_m3: null,
  tipo_rodado: null,
  tipo_carroceria: null,
  tipo: 'tracao',
  proprietario: null,
  ...over,
});
