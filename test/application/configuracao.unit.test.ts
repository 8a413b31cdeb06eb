import { configuracaoStream } from '@frete/domain';
import { configuracaoHandler } from '../../services/application/src/configuracao/handler';
import { EMPRESA, especificacaoDeHandler, naStream } from '../support/especificacao';

/** The fiscal configuration's handler: the facts of test/api/configuracao at the handler level, without PostgreSQL. */
const stream = configuracaoStream(EMPRESA);
const endereco = {
  logradouro: 'Rua das Flores',
  numero: '100',
  bairro: 'Centro',
  municipio: 'SAO PAULO',
  uf: 'SP' as const,
  cep: '01001000',
};
const atualizada = (changes: object) => ({ type: 'configuracao.atualizada' as const, data: { company_id: EMPRESA, changes } });

describe('configuracao handler', () => {
  const spec = especificacaoDeHandler(({ store }) => configuracaoHandler({ store }));

  it("records only the supplied fields, the address as the IBGE table names it, on the company's stream", () =>
    spec
      .given()
      .when((h, ctx) => h.atualizar(ctx, { rntrc: '12345678', serie_cte: 1, endereco }))
      .then({
        stream,
        ...atualizada({
          rntrc: '12345678',
          serie_cte: 1,
          endereco: { ...endereco, complemento: null, municipio: 'São Paulo', codigo_ibge: '3550308' },
        }),
      }));

  it('records only what changed; the same values again append nothing; null clears a field', async () => {
    const given = spec.given(naStream(stream, atualizada({ serie_cte: 1, serie_mdfe: 2 })));
    await given.when((h, ctx) => h.atualizar(ctx, { serie_cte: 1, serie_mdfe: 3 })).then(atualizada({ serie_mdfe: 3 }));
    await given.when((h, ctx) => h.atualizar(ctx, { serie_cte: 1 })).thenNothing();
    await given.when((h, ctx) => h.atualizar(ctx, { serie_mdfe: null })).then(atualizada({ serie_mdfe: null }));
    await given
      .when((h, ctx) => h.atualizar(ctx, { serie_mdfe: 4 }))
      .again()
      .thenNothing();
  });

  it('400 validacao naming endereco.municipio for a municipality outside the IBGE table', () =>
    spec
      .given()
      .when((h, ctx) => h.atualizar(ctx, { endereco: { ...endereco, municipio: 'Campinas', uf: 'RJ' } }))
      .thenRejects('validacao', ['endereco.municipio']));

  it('422 serie_reservada for a reserved series', () =>
    spec
      .given()
      .when((h, ctx) => h.atualizar(ctx, { serie_cte: 900 }))
      .thenRejects('serie_reservada'));
});
