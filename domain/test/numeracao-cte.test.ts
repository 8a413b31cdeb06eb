import { CTE, numeracaoDecider, type NumeroReservado } from '../src';
import { scenario } from './given-when-then';

const reservada = (numero: number, cte_id: string): NumeroReservado => ({
  type: 'numeracao_cte.reservada',
  data: { company_id: 'c1', serie: 1, numero, cte_id },
});
const reservar = (cte_id: string) => ({
  type: 'ReservarNumero' as const,
  documento: CTE,
  company_id: 'c1',
  serie: 1,
  documento_id: cte_id,
});

describe('numeracao_cte decider', () => {
  const { given } = scenario(numeracaoDecider);
  it('starts a series at 1', () => given().when(reservar('a')).then(reservada(1, 'a')));
  it('gives the next number, with no gap', () => given(reservada(1, 'a'), reservada(2, 'b')).when(reservar('c')).then(reservada(3, 'c')));
  it('a CT-e keeps its number: asking again gives nothing new', () =>
    given(reservada(1, 'a'), reservada(2, 'b')).when(reservar('a')).then());
  it('a series with every number used is exhausted', () =>
    given(reservada(999_999_999, 'z')).when(reservar('y')).thenRejects('serie_esgotada'));
});
