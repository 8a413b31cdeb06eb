import { type ConfiguracaoEvent, configuracaoDecider, pendenciasConfiguracao, fold } from '../src';
import { scenario } from './given-when-then';

const company_id = 'c1';
const endereco = { logradouro: 'Rua A', numero: '10', bairro: 'Centro', municipio: 'campinas', uf: 'SP' as const, cep: '13010000' };
const updated = (changes: ConfiguracaoEvent['data']['changes']): ConfiguracaoEvent => ({
  type: 'configuracao.atualizada',
  data: { company_id, changes },
});
const { given } = scenario(configuracaoDecider);

describe('configuracao decider', () => {
  it('records only the fields that change', () => {
    given(updated({ rntrc: '12345678', serie_cte: 1 }))
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { rntrc: '12345678', serie_cte: 2 } })
      .then(updated({ serie_cte: 2 }));
  });
  it('records nothing when nothing changes', () => {
    given(updated({ rntrc: '12345678' }))
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { rntrc: '12345678' } })
      .then();
  });
  it('clears a field with null', () => {
    given(updated({ rntrc: '12345678' }))
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { rntrc: null } })
      .then(updated({ rntrc: null }));
  });
  it('stores the IBGE name and code of the address', () => {
    given()
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { endereco } })
      .then(updated({ endereco: { ...endereco, complemento: null, municipio: 'Campinas', codigo_ibge: '3509502' } }));
  });
  it('refuses a municipality that is not in the UF', () => {
    given()
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { endereco: { ...endereco, uf: 'RJ' } } })
      .thenRejects('validacao', ['endereco.municipio']);
  });
  it('refuses the reserved series 890–999', () => {
    given()
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { serie_cte: 890 } })
      .thenRejects('serie_reservada', ['serie_cte']);
    given()
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { serie_mdfe: 999 } })
      .thenRejects('serie_reservada', ['serie_mdfe']);
  });
  it('records the pricing rule in hundredths of a percentage point, and nothing when the percentage is the same', () => {
    given()
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { percentual_frete_contra_cte: 33.33 } })
      .then(updated({ percentual_frete_contra_cte_centesimos: 3333 }));
    given(updated({ percentual_frete_contra_cte_centesimos: 1250 }))
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { percentual_frete_contra_cte: 12.5 } })
      .then();
    given(updated({ percentual_frete_contra_cte_centesimos: 1250 }))
      .when({ type: 'AtualizarConfiguracao', company_id, changes: { percentual_frete_contra_cte: null } })
      .then(updated({ percentual_frete_contra_cte_centesimos: null }));
  });
  it('lists what an issue still needs', () => {
    const state = fold(configuracaoDecider, [updated({ rntrc: '12345678', serie_cte: 1 })]);
    expect(pendenciasConfiguracao(state)).toEqual(['inscricao_estadual', 'regime_tributario', 'endereco']);
  });
});
