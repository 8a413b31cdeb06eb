import { randomUUID } from 'node:crypto';
import { type DomainEvent } from '@frete/contracts';
import { readCte } from '@frete/domain';
import {
  cteProjector,
  caixaCteProjector,
  operacaoProjector,
  type ProjectedEvent,
  type Projector,
  repasseProjector,
} from '@frete/projections';
import { buildCteXml } from '../support/cte-xml';
import { freshDatabase, type TestDatabase } from '../support/db';

/**
 * Projectors that write a batch in layers (`emCamadas`) must give the rows that applying the same events one by one
 * gives, whatever the interleaving of the documents' lives in the batch: the runner's batches are whatever the
 * subscription read, and a rebuild's are others.
 */
describe('projection in layers: a batch gives the rows of its events one by one', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await freshDatabase();
  });
  afterAll(() => db?.drop());

  const companyId = randomUUID();
  let seq = 0n;
  const evento = (e: DomainEvent): ProjectedEvent => {
    seq += 1n;
    return {
      ...e,
      id: randomUUID(),
      schemaVersion: 1,
      streamId: `cte-${(e.data as { cte_id: string }).cte_id}`,
      revision: seq,
      position: { commit: seq, prepare: seq },
      recordedAt: new Date(Date.UTC(2026, 10, 29, 12, 0, 0, Number(seq))),
      metadata: { company_id: companyId, correlation_id: 'c', causation_id: null, request_id: null, actor: 'test' },
    } as ProjectedEvent;
  };

  /** The life of one document: a counter-CT-e authorized, one refused and asked again, one delivered by upload. */
  const vida = (i: number): DomainEvent[] => {
    const cte_id = `cte-${i}-${randomUUID()}`;
    const base = { cte_id, company_id: companyId };
    const { chave, xml } = buildCteXml({ emitenteCnpj: '45997418000153', protocolo: true });
    const cte = readCte(xml);
    const protocolo = { numero: '135260000000001', recebido_em: cte.data_emissao, cstat: 100, motivo: 'Autorizado o uso do CT-e' };
    if (i % 4 === 3) {
      return [
        {
          type: 'cte.emitido_recebido',
          data: { ...base, chave, sha256: 'c'.repeat(64), tamanho_bytes: xml.length, situacao: 'autorizado', cte },
        },
        { type: 'cte.emitido_reenviado', data: { ...base, chave, sha256: 'c'.repeat(64), conteudo_diferente: false } },
      ];
    }
    const vinculo = {
      chave_original: chave,
      contratante_cnpj: '45997418000153',
      modo: '1a1' as const,
      tipo_servico: 1,
      inicio_ibge: cte.inicio.codigo_ibge,
      fim_ibge: cte.fim.codigo_ibge,
      lote_id: null,
      linha: null,
      perna: null,
      documento_financeiro: null,
      motorista_cpf: '52998224725',
      placa: 'ABC1D23',
      valor_centavos: 10000 + i,
      parcelas: null,
      solicitante_company_id: null,
    };
    const assinado = { ...base, chave, serie: 1, numero: 100 + i, data_emissao: cte.data_emissao, sha256: 'a'.repeat(64) };
    const recusa: DomainEvent[] =
      i % 4 === 1
        ? [
            { type: 'cte.emissao_solicitada', data: { ...base, serie: 1 } },
            { type: 'cte.xml_assinado', data: { ...assinado, numero: 900 + i } },
            { type: 'cte.rejeitado', data: { ...base, cstat: 539, motivo: 'Duplicidade' } },
          ]
        : [];
    const entrega: DomainEvent[] =
      i % 4 === 2
        ? [
            {
              type: 'cte.evento_registrado',
              data: {
                ...base,
                event_key: `${chave}-110180-1`,
                tp_evento: '110180',
                protocolo: { numero: '1', registrado_em: '2026-11-29T15:00:00.000Z', cstat: 135, motivo: 'Evento registrado' },
                sha256: 'd'.repeat(64),
                registrado_em: '2026-11-29T15:00:00.000Z',
              },
            },
          ]
        : [];
    // The key taken, given back by the refused one and taken again by the same CT-e asked again.
    const chaveTomada = {
      company_id: companyId,
      chave,
      modo: '1a1' as const,
      cte_id,
      inicio_ibge: vinculo.inicio_ibge,
      fim_ibge: vinculo.fim_ibge,
    };
    const liberada: DomainEvent[] =
      i % 4 === 1
        ? [
            { type: 'subcontratacao.liberada', data: { company_id: companyId, chave, cte_id, motivo: 'rejeitado' } },
            { type: 'subcontratacao.reservada', data: chaveTomada },
          ]
        : [];
    const documento = {
      ...base,
      grupo: `lote:L:${vinculo.motorista_cpf}`,
      chave,
      chave_original: vinculo.chave_original,
      documento_financeiro: null,
      lote_id: 'L',
      posicao: i,
      motorista_cpf: vinculo.motorista_cpf,
      valor_centavos: vinculo.valor_centavos,
    };
    // The financial step failed once (the driver was missing) and was done again.
    const falhou: DomainEvent[] =
      i % 4 === 2
        ? [
            {
              type: 'repasse.registro_falhou',
              data: { ...documento, code: 'motorista_nao_encontrado', message: 'no driver', falhou_em: '2026-11-29T12:00:00.000Z' },
            },
          ]
        : [];
    return [
      { type: 'subcontratacao.reservada', data: chaveTomada },
      { type: 'cte.contra_cte_criado', data: { ...base, ambiente: 'homologacao', dados: { tipo_servico: 1 }, vinculo } },
      ...recusa,
      ...liberada,
      { type: 'cte.emissao_solicitada', data: { ...base, serie: 1 } },
      { type: 'cte.xml_assinado', data: assinado },
      { type: 'cte.autorizado', data: { ...base, chave, sha256: 'b'.repeat(64), cte, protocolo } },
      ...falhou,
      {
        type: 'repasse.documento_registrado',
        data: {
          ...documento,
          regra: { origem: 'motorista', parcelas: [{ posicao: 1, percentual: 100, dias: 0 }] },
          modo: 'automatico',
          registrado_em: '2026-11-29T12:00:01.000Z',
        },
      },
      ...entrega,
    ] as DomainEvent[];
  };

  /** The documents' lives interleaved as a batch of concurrent issues records them: one step of each in turn. */
  const intercaladas = (vidas: DomainEvent[][]): DomainEvent[] => {
    const out: DomainEvent[] = [];
    for (let passo = 0; vidas.some((v) => passo < v.length); passo++) for (const v of vidas) if (passo < v.length) out.push(v[passo]!);
    return out;
  };

  const TABELAS = ['rm.ctes', 'rm.cte_nfe', 'rm.servicos', 'rm.entregas', 'rm.recebiveis', 'rm.subcontratacoes', 'rm.repasse_documentos'];
  const fotografia = async (sql: { query: TestDatabase['pool']['query'] }) => {
    const out: Record<string, unknown[]> = {};
    for (const t of TABELAS) out[t] = (await sql.query(`SELECT * FROM ${t} WHERE company_id = $1 ORDER BY 1, 2, 3`, [companyId])).rows;
    return out;
  };

  const PROJETORES: Projector[] = [cteProjector, operacaoProjector, caixaCteProjector, repasseProjector];

  it('interleaved lives of twelve documents, in one batch and one by one, give the same rows', async () => {
    const events = intercaladas(Array.from({ length: 12 }, (_, i) => vida(i))).map(evento);
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      for (const e of events) for (const p of PROJETORES) await p.apply(client, e);
      const umAUm = await fotografia(client);
      await client.query('ROLLBACK');

      await client.query('BEGIN');
      let statements = 0;
      const contado = { query: (text: string, params?: unknown[]) => (statements++, client.query(text, params)) };
      for (const p of PROJETORES) await p.applyBatch!(contado, events);
      const emLote = await fotografia(client);
      await client.query('ROLLBACK');

      expect(umAUm['rm.ctes']).toHaveLength(12);
      expect(umAUm['rm.servicos']).toHaveLength(12);
      expect(umAUm['rm.subcontratacoes']).toHaveLength(9);
      expect(umAUm['rm.repasse_documentos']).toHaveLength(9);
      expect(emLote).toEqual(umAUm);
      // Nine counter-CT-e lives of up to seven steps: a statement per layer and type, not one per event.
      expect(statements).toBeLessThan(events.length / 2);
    } finally {
      client.release();
    }
  });

  it('one event alone is written by the same statements as a layer', async () => {
    const criado = vida(0)
      .map(evento)
      .find((e) => e.type === 'cte.contra_cte_criado');
    await cteProjector.apply(db.pool, criado!);
    const { rows } = await db.pool.query(`SELECT situacao, origem, contra_cte->>'motorista_cpf' AS cpf FROM rm.ctes WHERE cte_id = $1`, [
      (criado!.data as { cte_id: string }).cte_id,
    ]);
    expect(rows).toEqual([{ situacao: 'rascunho', origem: 'contra_cte', cpf: '52998224725' }]);
  });

  it('a denial and a registered cancellation end the CT-e with the protocol’s answer', async () => {
    const [denegado, cancelado] = [vida(0), vida(4)].map((v) => v.map(evento).find((e) => e.type === 'cte.contra_cte_criado')!);
    const protocolo = (cstat: number, motivo: string) => ({ numero: '1', recebido_em: '2026-11-29T12:00:00-03:00', cstat, motivo });
    const id = (e: ProjectedEvent) => (e.data as { cte_id: string }).cte_id;
    await cteProjector.applyBatch!(db.pool, [
      denegado!,
      cancelado!,
      evento({
        type: 'cte.denegado',
        data: { cte_id: id(denegado!), company_id: companyId, chave: 'K', protocolo: protocolo(302, 'Uso Denegado') },
      }),
      evento({
        type: 'cte.evento_registrado',
        data: {
          cte_id: id(cancelado!),
          company_id: companyId,
          event_key: 'K-110111-1',
          tp_evento: '110111',
          protocolo: { numero: '2', registrado_em: '2026-11-29T15:00:00.000Z', cstat: 135, motivo: 'Evento registrado' },
          sha256: 'e'.repeat(64),
          registrado_em: '2026-11-29T15:00:00.000Z',
        },
      }),
    ]);
    const { rows } = await db.pool.query(`SELECT cte_id, situacao, retorno FROM rm.ctes WHERE cte_id = ANY($1) ORDER BY situacao`, [
      [id(denegado!), id(cancelado!)],
    ]);
    expect(rows).toEqual([
      { cte_id: id(cancelado!), situacao: 'cancelado', retorno: { cstat: 135, motivo: 'Evento registrado' } },
      { cte_id: id(denegado!), situacao: 'denegado', retorno: { cstat: 302, motivo: 'Uso Denegado' } },
    ]);
  });
});
