import { CTE, type EspecieDocumento, documentoReservado, MDFE, numeracaoDecider, numeracaoStream, type NumeroReservado } from '../src';
import { scenario } from './given-when-then';

const reservar = (documento: EspecieDocumento, id: string, serie = 1) =>
  ({ type: 'ReservarNumero', documento, company_id: 'c1', serie, documento_id: id }) as const;
const cte = (numero: number, cte_id: string): NumeroReservado => ({
  type: 'numeracao_cte.reservada',
  data: { company_id: 'c1', serie: 1, numero, cte_id },
});
const mdfe = (numero: number, mdfe_id: string): NumeroReservado => ({
  type: 'numeracao_mdfe.reservada',
  data: { company_id: 'c1', serie: 1, numero, mdfe_id },
});

describe('one numbering decider for every fiscal document kind', () => {
  const { given } = scenario(numeracaoDecider);

  it('a CT-e series stores the CT-e reservation, as stored histories hold it', () =>
    given(cte(1, 'a')).when(reservar(CTE, 'b')).then(cte(2, 'b')));

  it('an MDF-e series stores the MDF-e reservation, as stored histories hold it', () =>
    given(mdfe(1, 'a')).when(reservar(MDFE, 'b')).then(mdfe(2, 'b')));

  it('an MDF-e keeps its number: asking again gives nothing new', () => given(mdfe(1, 'a'), mdfe(2, 'b')).when(reservar(MDFE, 'a')).then());

  it('an exhausted MDF-e series is refused like a CT-e one', () =>
    given(mdfe(999_999_999, 'z')).when(reservar(MDFE, 'y')).thenRejects('serie_esgotada'));

  it('names each kind its own stream and reads the document of either event', () => {
    expect(numeracaoStream(CTE, 'c1', 3)).toBe('numeracao_cte-c1-3');
    expect(numeracaoStream(MDFE, 'c1', 3)).toBe('numeracao_mdfe-c1-3');
    expect([documentoReservado(cte(1, 'x')), documentoReservado(mdfe(1, 'y'))]).toEqual(['x', 'y']);
  });
});
