import { type Scope } from '@frete/contracts';
import { type CriarLote } from '@frete/domain';
import { type ApiResponse, randomCnpj, startTestApp, type TestApp, type TestCarrier } from './app';
import { emissora } from './emissora';
import { buildCteXml, type CteXmlOptions, nfeKey } from './cte-xml';

export const MOTORISTA_CPF = '52998224725';
export const MOTORISTA_CPF_2 = '11144477735';
export const PLACA = 'ABC1D23';
export const PLACA_2 = 'XYZ9A87';

/** The first driver, paid by hand in two instalments (70% at once, 30% in 5 days), in `POST /fiscal/motoristas`'s words. */
export const MOTORISTA_REPASSE_MANUAL = {
  cpf: MOTORISTA_CPF,
  nome: 'JOAO MOTORISTA',
  repasse: {
    modo: 'manual',
    parcelas: [
      { posicao: 1, percentual: 70, dias: 0 },
      { posicao: 2, percentual: 30, dias: 5 },
    ],
  },
};

/** A carrier ready to issue counter-CT-e (São Paulo, SP; the SP→RJ general rule), with two drivers and two vehicles. */
export async function subcontratadaPronta(
  app: Pick<TestApp, 'carrier'>,
  name = 'SUBCONTRATADA TRANSPORTES LTDA',
  scopes?: Scope[],
): Promise<TestCarrier> {
  const c = await emissora(app, name, scopes);
  for (const [cpf, nome] of [
    [MOTORISTA_CPF, 'JOAO MOTORISTA'],
    [MOTORISTA_CPF_2, 'MARIA CONDUTORA'],
  ] as const) {
    const r = await c.call('POST', '/v1/fiscal/motoristas', { cpf, nome });
    if (r.status !== 201) throw new Error(`motorista: ${r.text}`);
  }
  for (const placa of [PLACA, PLACA_2]) {
    const r = await c.call('POST', '/v1/fiscal/veiculos', { placa });
    if (r.status !== 201) throw new Error(`veiculo: ${r.text}`);
  }
  return c;
}

/**
 * The service with its rate limits out of reach (a batch's report is polled: the per-carrier limit would stop the test
 * before the batch does) and a `subcontratadaPronta` with these tax rules.
 */
export async function servicoDeLote(regras: Record<string, unknown>[]): Promise<{ app: TestApp; sub: TestCarrier }> {
  const app = await startTestApp({ RATE_LIMIT_FISCAL_PER_MIN: '100000', RATE_LIMIT_IP_PER_MIN: '100000' });
  try {
    const sub = await subcontratadaPronta(app);
    for (const regra of regras) {
      const r = await sub.call('POST', '/v1/fiscal/regras-tributacao', regra);
      if (r.status !== 201) throw new Error(`regra: ${r.text}`);
    }
    return { app, sub };
  } catch (error) {
    await app.close();
    throw error;
  }
}

/** A contractor's CT-e (default Campinas/SP → Rio de Janeiro/RJ) received into `c`'s inbox; returns its key. */
export async function receberCteDoContratante(c: TestCarrier, emitenteCnpj: string, o: Partial<CteXmlOptions> = {}): Promise<string> {
  const { chave, xml } = buildCteXml({ emitenteCnpj, emitenteNome: 'CONTRATANTE TRANSPORTES SA', nfeChaves: [nfeKey()], ...o });
  const r = await c.call('POST', '/v1/fiscal/cte-subcontratacao', { xml });
  if (r.status !== 201 && r.status !== 200) throw new Error(`inbox: ${r.text}`);
  return chave;
}

/** A subcontractor ready for a 1:1 batch inside SP (its SP → SP tax rule) with `n` keys of one contractor in its inbox. */
export async function lotePreparadoEmSp(app: TestApp, n: number): Promise<{ sub: TestCarrier; chaves: string[] }> {
  const sub = await subcontratadaPronta(app);
  const regra = await sub.call('POST', '/v1/fiscal/regras-tributacao', {
    uf_origem: 'SP',
    uf_destino: 'SP',
    icms: { cst: '00', aliquota: 12 },
  });
  if (regra.status !== 201) throw new Error(`regra: ${regra.text}`);
  const contratante = randomCnpj();
  const chaves: string[] = [];
  for (let i = 0; i < n; i++) chaves.push(await receberCteDoContratante(sub, contratante));
  return { sub, chaves };
}

/** POSTs a 1:1 batch of `chaves` (`valor` reais each, R$ 100.00 unless given) for `sub`, default driver and plate: the answer. */
export function postarLote1a1(sub: TestCarrier, chaves: string[], valor = 100): Promise<ApiResponse> {
  return sub.call('POST', '/v1/fiscal/cte-subcontratacao/lote', {
    subcontratada: { cnpj: sub.cnpj },
    motorista: { cpf: MOTORISTA_CPF },
    placa: PLACA,
    ctes: chaves.map((chave) => ({ chave, valor })),
  });
}

/** The company's counter-CT-e as the read model numbers them, in number order. */
export async function numeracaoDosContraCte(app: TestApp, companyId: string): Promise<{ numero: number; situacao: string }[]> {
  const { rows } = await app.db.pool.query<{ numero: string; situacao: string }>(
    `SELECT numero, situacao FROM rm.ctes WHERE company_id = $1 AND origem = 'contra_cte' ORDER BY numero`,
    [companyId],
  );
  return rows.map((r) => ({ numero: Number(r.numero), situacao: r.situacao }));
}

/** Reads the batch report until it leaves `processing` (the emission and payout processors work in the background). */
export async function relatorioFinal(c: TestCarrier, batchId: string, timeoutMs = 60_000): Promise<ApiResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await c.call('GET', `/v1/fiscal/cte-subcontratacao/lote/${batchId}`);
    if (r.status !== 200) throw new Error(`report of ${batchId}: ${r.status} ${r.text}`);
    if (r.body.data.status !== 'processing') return r;
    if (Date.now() > deadline)
      throw new Error(`batch ${batchId} still processing: ${JSON.stringify(r.body.data.rows.map((x: { status: string }) => x.status))}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}

/** The command that creates the batch `plano` on `sub`'s account at `con`'s request, in homologação. */
export const criarLoteSolicitado = (
  batchId: string,
  sub: TestCarrier,
  con: TestCarrier,
  plano: Pick<CriarLote, 'modo' | 'parcelas' | 'linhas'>,
): CriarLote => ({
  type: 'CriarLote',
  batch_id: batchId,
  company_id: sub.companyId,
  solicitante_company_id: con.companyId,
  ambiente: 'homologacao',
  modo: plano.modo,
  parcelas: plano.parcelas,
  linhas: plano.linhas,
});
