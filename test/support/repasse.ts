import { randomUUID } from 'node:crypto';
import { type ContraCteVinculo, type DomainEvent, EventCatalog, type NewEvent, type ParcelaRepasse } from '@frete/contracts';
import { readCte } from '@frete/domain';
import { type TestApp, type TestCarrier } from './app';
import { buildCteXml } from './cte-xml';
import { CTE_PARA_O_RIO, dadosMdfe } from './mdfe-dados';

/**
 * Counter-CT-e creation (`POST /fiscal/cte/contra` and the batch) is built elsewhere. The payout reacts to the events
 * a counter-CT-e's issue leaves in its stream, so the tests write exactly those: `cte.contra_cte_criado` with its
 * link, then the usual issue, signature and authorization (the authorized CT-e read from a real CT-e 4.00 XML).
 */
export interface ContraCteSemente {
  cpf: string;
  valor_centavos: number;
  lote_id?: string | null;
  linha?: number | null;
  parcelas?: ParcelaRepasse[] | null;
  documento_financeiro?: string | null;
}

export interface ContraCteSemeado {
  cte_id: string;
  chave: string;
  chave_original: string;
}

const CONTRATANTE = { cnpj: '45997418000153', nome: 'CONTRATANTE TRANSPORTES SA' };

const novo = (companyId: string, e: DomainEvent): NewEvent => ({
  id: randomUUID(),
  type: e.type,
  schemaVersion: EventCatalog[e.type].version,
  data: e.data,
  metadata: { company_id: companyId, correlation_id: randomUUID(), causation_id: null, request_id: null, actor: 'test' },
});

async function appendAll(app: TestApp, companyId: string, stream: string, events: DomainEvent[], expected: 'no_stream' | 'any') {
  const { position } = await app.running.platform.store.append(
    stream,
    events.map((e) => novo(companyId, e)),
    expected,
  );
  await app.running.platform.readYourWrites.recordWrite(companyId, position);
}

/** An authorized counter-CT-e of `c`, as the counter-CT-e issue records it. */
export async function contraCteAutorizado(app: TestApp, c: TestCarrier, s: ContraCteSemente): Promise<ContraCteSemeado> {
  const cteId = randomUUID();
  const original = buildCteXml({ emitenteCnpj: CONTRATANTE.cnpj, emitenteNome: CONTRATANTE.nome });
  const { chave, xml } = buildCteXml({
    emitenteCnpj: c.cnpj,
    tpServ: 1,
    toma: 4,
    tomador4: CONTRATANTE,
    vTPrest: (s.valor_centavos / 100).toFixed(2),
    protocolo: true,
  });
  const cte = readCte(xml);
  const vinculo: ContraCteVinculo = {
    chave_original: original.chave,
    contratante_cnpj: CONTRATANTE.cnpj,
    modo: s.documento_financeiro ? 'pernas' : '1a1',
    tipo_servico: 1,
    inicio_ibge: cte.inicio.codigo_ibge,
    fim_ibge: cte.fim.codigo_ibge,
    lote_id: s.lote_id ?? null,
    linha: s.linha ?? null,
    perna: s.documento_financeiro ? 0 : null,
    documento_financeiro: s.documento_financeiro ?? null,
    motorista_cpf: s.cpf,
    placa: 'ABC1D23',
    valor_centavos: s.valor_centavos,
    parcelas: s.parcelas ?? null,
    solicitante_company_id: null,
  };
  const base = { cte_id: cteId, company_id: c.companyId };
  await appendAll(
    app,
    c.companyId,
    `cte-${cteId}`,
    [
      { type: 'cte.contra_cte_criado', data: { ...base, ambiente: 'homologacao', dados: { tipo_servico: 1 }, vinculo } },
      { type: 'cte.emissao_solicitada', data: { ...base, serie: 1 } },
      {
        type: 'cte.xml_assinado',
        data: { ...base, chave, serie: cte.serie, numero: cte.numero, data_emissao: cte.data_emissao, sha256: 'a'.repeat(64) },
      },
      {
        type: 'cte.autorizado',
        data: {
          ...base,
          chave,
          sha256: 'b'.repeat(64),
          cte,
          protocolo: {
            numero: cte.protocolo?.numero ?? '135260000000001',
            recebido_em: cte.protocolo?.recebido_em ?? cte.data_emissao,
            cstat: 100,
            motivo: 'Autorizado o uso do CT-e',
          },
        },
      },
    ],
    'no_stream',
  );
  return { cte_id: cteId, chave, chave_original: original.chave };
}

/** The authority registered the counter-CT-e's cancellation (tpEvento 110111), as the CT-e events record it. */
export async function contraCteCancelado(app: TestApp, c: TestCarrier, cteId: string): Promise<void> {
  await appendAll(
    app,
    c.companyId,
    `cte-${cteId}`,
    [
      {
        type: 'cte.evento_registrado',
        data: {
          cte_id: cteId,
          company_id: c.companyId,
          event_key: `ID110111${cteId}01`,
          tp_evento: '110111',
          protocolo: {
            numero: '135260000000099',
            registrado_em: '2026-11-22T10:00:00-03:00',
            cstat: 135,
            motivo: 'Evento registrado e vinculado a CT-e',
          },
          sha256: 'c'.repeat(64),
          registrado_em: new Date().toISOString(),
        },
      },
    ],
    'any',
  );
}

/** An MDF-e of `c` carrying these CT-e with these drivers, as `POST /fiscal/mdfe` records it. */
export async function mdfeCom(app: TestApp, c: TestCarrier, ctes: { cte_id: string; chave: string }[], cpfs: string[]): Promise<string> {
  const mdfeId = randomUUID();
  const dados = dadosMdfe({
    ctes: ctes.map((x) => ({ ...x, valor_carga_centavos: 2_500_000, peso_gramas: 1_000_000, descarga: CTE_PARA_O_RIO.descarga })),
    motoristas: cpfs.map((cpf) => ({ cpf, nome: `MOTORISTA ${cpf.slice(0, 3)}` })),
  });
  await appendAll(
    app,
    c.companyId,
    `mdfe-${mdfeId}`,
    [{ type: 'mdfe.criado', data: { mdfe_id: mdfeId, company_id: c.companyId, ambiente: 'homologacao', dados } }],
    'no_stream',
  );
  return mdfeId;
}
