import { type AutorizacaoCommand, type AutorizacaoEvent, autorizacaoDecider, autorizacaoStream, cnpjCheckDigits, formatCnpj } from '../src';
import { scenario } from './given-when-then';

const { given } = scenario(autorizacaoDecider);

const SUB = { company_id: 'sub-1', cnpj: '11222333000181', nome: 'SUBCONTRATADA LTDA' };
const alnumBase = '12ABC34501DE';
const ALNUM = alnumBase + cnpjCheckDigits(alnumBase);
const CONTRATANTE = { company_id: 'con-1', cnpj: ALNUM, nome: 'CONTRATANTE SA', carrier: true };

const conceder = (over: Partial<Extract<AutorizacaoCommand, { type: 'ConcederAutorizacao' }>> = {}): AutorizacaoCommand => ({
  type: 'ConcederAutorizacao',
  autorizacao_id: 'a-1',
  subcontratada: SUB,
  contratante_cnpj: formatCnpj(ALNUM).toLowerCase(),
  contratante: CONTRATANTE,
  ...over,
});
const revogar: AutorizacaoCommand = { type: 'RevogarAutorizacao', subcontratada_id: 'sub-1', contratante_cnpj: ALNUM };

const concedida = (id = 'a-1'): AutorizacaoEvent => ({
  type: 'autorizacao.concedida',
  data: {
    autorizacao_id: id,
    subcontratada_id: 'sub-1',
    subcontratada_cnpj: SUB.cnpj,
    subcontratada_nome: SUB.nome,
    contratante_id: 'con-1',
    contratante_cnpj: ALNUM,
    contratante_nome: 'CONTRATANTE SA',
  },
});
const revogada = (id = 'a-1'): AutorizacaoEvent => ({
  type: 'autorizacao.revogada',
  data: { autorizacao_id: id, subcontratada_id: 'sub-1', contratante_id: 'con-1', contratante_cnpj: ALNUM },
});

describe('autorizacao decider', () => {
  it('grants, with the CNPJ normalized (masked, lower-case alphanumeric) and the id the edge drew', () =>
    given().when(conceder()).then(concedida()));

  it('grants nothing new when the grant is already active', () =>
    given(concedida())
      .when(conceder({ autorizacao_id: 'a-2' }))
      .then());

  it('grants anew, with a new id, after a revoke', () =>
    given(concedida(), revogada())
      .when(conceder({ autorizacao_id: 'a-2' }))
      .then(concedida('a-2')));

  it("refuses the caller's own CNPJ (masked or not)", () => {
    given()
      .when(conceder({ contratante_cnpj: '11.222.333/0001-81', contratante: { ...SUB, carrier: true } }))
      .thenRejects('contratante_invalida', ['contratante.cnpj']);
  });

  it('refuses a CNPJ whose check digits are wrong, naming the field', () => {
    given()
      .when(conceder({ contratante_cnpj: '11.222.333/0001-82', contratante: null }))
      .thenRejects('contratante_invalida', ['contratante.cnpj']);
    given()
      .when(conceder({ contratante_cnpj: ALNUM.slice(0, 12) + '00', contratante: null }))
      .thenRejects('contratante_invalida', ['contratante.cnpj']);
    given()
      .when(conceder({ contratante_cnpj: 'not a cnpj', contratante: null }))
      .thenRejects('contratante_invalida', ['contratante.cnpj']);
    given()
      .when(conceder({ contratante_cnpj: '00000000000000', contratante: null }))
      .thenRejects('contratante_invalida', ['contratante.cnpj']);
  });

  it('refuses an unknown CNPJ and a company that is not a carrier alike', () => {
    given()
      .when(conceder({ contratante: null }))
      .thenRejects('contratante_nao_encontrada');
    given()
      .when(conceder({ contratante: { ...CONTRATANTE, carrier: false } }))
      .thenRejects('contratante_nao_encontrada');
  });

  it('refuses a looked-up company whose CNPJ is not the one named', () =>
    given()
      .when(conceder({ contratante: { ...CONTRATANTE, cnpj: '99888777000105' } }))
      .thenRejects('contratante_nao_encontrada'));

  it('revokes the active grant', () => given(concedida()).when(revogar).then(revogada()));

  it('refuses to revoke when no grant is active', () => {
    given().when(revogar).thenRejects('autorizacao_nao_encontrada');
    given(concedida(), revogada()).when(revogar).thenRejects('autorizacao_nao_encontrada');
  });

  it('revokes the latest grant after a re-grant', () =>
    given(concedida(), revogada(), concedida('a-2')).when(revogar).then(revogada('a-2')));

  it('names one stream per subcontractor and contractor CNPJ, whatever the mask', () => {
    expect(autorizacaoStream('sub-1', formatCnpj(ALNUM).toLowerCase())).toBe(`autorizacao-sub-1-${ALNUM}`);
    expect(autorizacaoStream('sub-1', '11.222.333/0001-81')).toBe(autorizacaoStream('sub-1', '11222333000181'));
  });
});
