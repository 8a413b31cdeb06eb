import { type DomainEvent, START } from '@frete/contracts';
import { cnpjCheckDigits, conviteStream, formatCnpj } from '@frete/domain';
import { type EventStore } from '@frete/platform';
import { conviteHandler } from '../../services/application/src/convite/handler';
import { type LeiturasConvite } from '../../services/application/src/convite/leituras';
import { AGORA, EMPRESA, especificacaoDeHandler, naStream } from '../support/especificacao';

/**
 * Invitations of carriers to onboarding (`conviteHandler`): one pending invitation per inviting company and CNPJ, and
 * none to a CNPJ the read port says is already a carrier customer. The facts of the invitations in test/api/cadastros
 * at the handler level.
 */
const cnpj = (base12: string) => base12 + cnpjCheckDigits(base12);
const PROPRIO = cnpj('112223330001');
const NOVO = cnpj('445556660001');
const ALFA = cnpj('12ABC34501DE');
const OUTRA = 'c0c0c0c0-1111-4222-8333-444455556666';
const CLIENTE = { company_id: 'a1a1a1a1-1111-4222-8333-444455556666', cnpj: cnpj('778889990001') };
const EMBARCADOR = { company_id: 'e0e0e0e0-1111-4222-8333-444455556666', cnpj: cnpj('998887770001') };
const DIA = 24 * 3_600_000;
const agora = AGORA.toISOString();
const contato = { nome: 'Maria Souza', email: 'Maria@Example.com', telefone: '(11) 98765-4321' };
const contatoNormalizado = { nome: 'Maria Souza', email: 'maria@example.com', telefone: '+5511987654321' };

const registrada = (c: { company_id: string; cnpj: string }, carrier: boolean) =>
  naStream(`company-${c.company_id}`, {
    type: 'company.registered',
    data: { company_id: c.company_id, cnpj: c.cnpj, razao_social: 'X LTDA', carrier, fiscal_ready: false, fiscal_production: false },
  });
const empresas = [registrada(CLIENTE, true), registrada(EMBARCADOR, false)];

/** The companies read model as the log makes it: a CNPJ is a carrier customer when its company is, flags as last changed. */
function empresasDoLog(store: EventStore): LeiturasConvite {
  return {
    transportadoraCadastrada: async (procurado) => {
      const carrier = new Map<string, boolean>();
      const cnpjs = new Map<string, string>();
      for (const e of await store.readAll(START, Number.MAX_SAFE_INTEGER)) {
        const ev = { type: e.type, data: e.data } as DomainEvent;
        if (ev.type === 'company.registered') {
          cnpjs.set(ev.data.company_id, ev.data.cnpj);
          carrier.set(ev.data.company_id, ev.data.carrier);
        } else if (ev.type === 'company.flags_changed' && ev.data.carrier !== undefined && carrier.has(ev.data.company_id)) {
          carrier.set(ev.data.company_id, ev.data.carrier);
        }
      }
      return [...cnpjs].some(([id, c]) => c === procurado && carrier.get(id) === true);
    },
  };
}

const montar = ({ store }: { store: EventStore }) => conviteHandler({ store, leituras: empresasDoLog(store) });
const spec = especificacaoDeHandler(montar);
const enviado = (convite_id: string, c: string, over: object = {}) => ({
  type: 'convite.enviado' as const,
  data: {
    company_id: EMPRESA,
    convite_id,
    cnpj: c,
    razao_social: null,
    contato: contatoNormalizado,
    enviado_em: agora,
    expira_em: new Date(AGORA.getTime() + 7 * DIA).toISOString(),
    ...over,
  },
});

describe('inviting a carrier (conviteHandler.enviar)', () => {
  it('a new pending invitation, normalized, valid for 7 days; again with another contact: the same one, nothing appended', async () => {
    const enviar = spec
      .given(...empresas)
      .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: formatCnpj(NOVO), razao_social: ' TRANSPORTES  NOVOS LTDA ', contato }));
    const { resultado, gravados } = await enviar.run();
    expect(gravados.map((e) => ({ stream: e.streamId, type: e.type, data: e.data }))).toEqual([
      { stream: conviteStream(EMPRESA, NOVO), ...enviado(resultado.convite_id, NOVO, { razao_social: 'TRANSPORTES NOVOS LTDA' }) },
    ]);
    expect(resultado).toEqual({
      convite_id: expect.any(String),
      novo: true,
      convite: {
        convite_id: resultado.convite_id,
        company_id: EMPRESA,
        cnpj: NOVO,
        razao_social: 'TRANSPORTES NOVOS LTDA',
        contato_nome: 'Maria Souza',
        contato_email: 'maria@example.com',
        contato_telefone: '+5511987654321',
        estado: 'pendente',
        enviado_em: AGORA,
        expira_em: new Date(AGORA.getTime() + 7 * DIA),
        aceito_em: null,
        expirado_em: null,
      },
    });
    const repetido = await enviar.again().thenNothing();
    expect(repetido).toMatchObject({ novo: false, convite: { razao_social: 'TRANSPORTES NOVOS LTDA' } });
    const outroContato = await spec
      .given(naStream(conviteStream(EMPRESA, NOVO), enviado('convite-1', NOVO)))
      .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: NOVO, contato: { nome: 'Outra Pessoa', email: 'outra@example.com' } }))
      .thenNothing();
    expect(outroContato).toMatchObject({ convite_id: 'convite-1', novo: false, convite: { contato_email: 'maria@example.com' } });
  });

  it('accepts an alphanumeric CNPJ in lower case and no optional field', async () => {
    await spec
      .given()
      .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: ALFA.toLowerCase(), contato: { nome: 'Ana', email: 'ana@example.com' } }))
      .then({
        stream: conviteStream(EMPRESA, ALFA),
        ...enviado(expect.any(String), ALFA, { contato: { nome: 'Ana', email: 'ana@example.com', telefone: null } }),
      });
  });

  it('an invitation whose 7 days have passed is recorded as expired and a new one is sent', async () => {
    const antigo = enviado('convite-velho', NOVO, {
      enviado_em: new Date(AGORA.getTime() - 8 * DIA).toISOString(),
      expira_em: new Date(AGORA.getTime() - DIA).toISOString(),
    });
    const { novo } = await spec
      .given(naStream(conviteStream(EMPRESA, NOVO), antigo))
      .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: NOVO, contato }))
      .then(
        {
          type: 'convite.expirado',
          data: { company_id: EMPRESA, convite_id: 'convite-velho', cnpj: NOVO, expirado_em: antigo.data.expira_em },
        },
        enviado(expect.any(String), NOVO),
      );
    expect(novo).toBe(true);
  });

  it("422 convite_invalido for the company's own CNPJ, masked or not", async () => {
    for (const c of [PROPRIO, formatCnpj(PROPRIO)])
      await spec
        .given(...empresas)
        .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: c, contato }))
        .thenRejects('convite_invalido', ['cnpj']);
  });

  it('422 transportadora_ja_cadastrada for a carrier customer, also one that became a carrier; a shipper may be invited', async () => {
    await spec
      .given(...empresas)
      .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: formatCnpj(CLIENTE.cnpj), contato }))
      .thenRejects('transportadora_ja_cadastrada', ['cnpj']);
    const virou: DomainEvent = { type: 'company.flags_changed', data: { company_id: EMBARCADOR.company_id, carrier: true } };
    await spec
      .given(...empresas, naStream(`company-${EMBARCADOR.company_id}`, virou))
      .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: EMBARCADOR.cnpj, contato }))
      .thenRejects('transportadora_ja_cadastrada', ['cnpj']);
    await spec
      .given(...empresas)
      .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: EMBARCADOR.cnpj, contato }))
      .then(enviado(expect.any(String), EMBARCADOR.cnpj));
  });

  it('400 validacao names each bad field', async () => {
    await spec
      .given()
      .when((h, ctx) =>
        h.enviar(ctx, PROPRIO, { cnpj: '11222333000180', razao_social: ' x ', contato: { nome: ' J ', email: 'joao@', telefone: '123' } }),
      )
      .thenRejects('validacao', ['cnpj', 'razao_social', 'contato.nome', 'contato.email', 'contato.telefone']);
    await spec
      .given()
      .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: '529.982.247-25', contato }))
      .thenRejects('validacao', ['cnpj']);
  });

  it("keeps companies apart: another company's pending invitation of the same CNPJ is its own, this one sends its own", async () => {
    const daOutra = naStream(conviteStream(OUTRA, NOVO), enviado('convite-da-outra', NOVO, { company_id: OUTRA }));
    const { resultado, gravados } = await spec
      .given(daOutra)
      .when((h, ctx) => h.enviar(ctx, PROPRIO, { cnpj: NOVO, contato }))
      .run();
    expect(resultado).toMatchObject({ novo: true, convite: { company_id: EMPRESA } });
    expect(resultado.convite_id).not.toBe('convite-da-outra');
    expect(gravados.map((e) => e.streamId)).toEqual([conviteStream(EMPRESA, NOVO)]);
  });
});
