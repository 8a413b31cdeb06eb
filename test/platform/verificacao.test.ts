import { type Pool } from 'pg';
import { comparePositions, type Position } from '@frete/contracts';
import { type EventStore, type RelatorioVerificacao, type TabelaComparada, verificarReadModels } from '@frete/platform';
import { READ_MODEL_PROJECTORS } from '@frete/projections';
import { startTestApp, type TestApp } from '../support/app';
import { cteAutorizado, emissora } from '../support/emissora';
import { lotePreparadoEmSp, postarLote1a1, relatorioFinal } from '../support/lote';

jest.setTimeout(180_000);

const positionOf = (p: RelatorioVerificacao['posicao']): Position => ({ commit: BigInt(p.commit), prepare: BigInt(p.prepare) });

const tabela = (r: RelatorioVerificacao, nome: string): TabelaComparada => {
  const t = r.tabelas.find((x) => x.tabela === nome);
  if (!t) throw new Error(`no table ${nome} in the report`);
  return t;
};

async function esquemasLaterais(pool: Pool): Promise<string[]> {
  const { rows } = await pool.query<{ nspname: string }>(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'rm\\_verificacao\\_%'`);
  return rows.map((r) => r.nspname);
}

/** A checksum of every live read-model table, the checkpoint and the migrations' bookkeeping included. */
async function somasDasTabelasVivas(pool: Pool): Promise<Record<string, string>> {
  const { rows } = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'rm' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const somas: Record<string, string> = {};
  for (const { table_name } of rows) {
    const { rows: r } = await pool.query<{ soma: string | null; n: number }>(
      `SELECT md5(string_agg(t::text, E'\\n' ORDER BY t::text)) AS soma, count(*)::int AS n FROM rm."${table_name}" t`,
    );
    somas[table_name] = `${r[0]!.n}:${r[0]!.soma}`;
  }
  return somas;
}

/** The service's event store, whose reads, from the second on, first wait for `antes` (the first one only once). */
function storeQueEspera(store: EventStore, antes: () => Promise<void>): EventStore {
  let chamadas = 0;
  let espera: Promise<void> | null = null;
  return new Proxy(store, {
    get(target, prop) {
      if (prop === 'readAll')
        return async (from: Position, max: number) => {
          if (chamadas++ > 0) await (espera ??= antes());
          return target.readAll(from, max);
        };
      const value: unknown = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('verified replay of the read models', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
    // A realistic history: carriers with configuration, certificate and tax rules, authorized CT-e, a finished batch.
    const c = await emissora(app);
    await cteAutorizado(c, 'PRIMEIRO');
    await cteAutorizado(c, 'SEGUNDO');
    const { sub, chaves } = await lotePreparadoEmSp(app, 2);
    const lote = await postarLote1a1(sub, chaves);
    if (lote.status !== 202) throw new Error(`lote: ${lote.text}`);
    await relatorioFinal(sub, lote.body.data.batch_id as string);
  });
  afterAll(() => app?.close());

  const platform = () => app.running.platform;

  /** Appends through the service (a company and its credential) and waits until its projector applied them. */
  async function appendAndProject(): Promise<Position> {
    await app.carrier();
    const head = await platform().store.headPosition();
    while (comparePositions(await platform().projections.position(), head) < 0) await new Promise((r) => setImmediate(r));
    return head;
  }

  it('reports identical read models while the service projects and events keep coming, at a position reached meanwhile', async () => {
    const antes = await platform().store.headPosition();
    let parar = false;
    let enquantoVerifica = 0;
    const fundo = (async () => {
      while (!parar) {
        await app.carrier();
        enquantoVerifica++;
      }
    })();
    let seenDuringReplay: Position | null = null;
    const progresso: number[] = [];
    let relatorio: RelatorioVerificacao;
    try {
      relatorio = await verificarReadModels(
        {
          // After the replay's first batch the service appends and projects more: the target moves under the verifier.
          store: storeQueEspera(platform().store, async () => void (seenDuringReplay = await appendAndProject())),
          pool: platform().pool,
          projectors: READ_MODEL_PROJECTORS,
          name: platform().projections.name,
        },
        { tamanhoDoLote: 20, aoProgredir: (p) => progresso.push(p.eventos) },
      );
    } finally {
      parar = true;
      await fundo;
    }
    expect(seenDuringReplay).not.toBeNull();
    expect(enquantoVerifica).toBeGreaterThan(0);
    const desordem = relatorio.tabelas.filter((t) => t.so_vivas + t.so_refeitas > 0 || t.estrutura !== null);
    expect(desordem).toEqual([]);
    expect(relatorio.identicas).toBe(true);
    // Compared past what existed when it started and past what was appended during the replay.
    expect(comparePositions(positionOf(relatorio.posicao), antes)).toBeGreaterThan(0);
    expect(comparePositions(positionOf(relatorio.posicao), seenDuringReplay!)).toBeGreaterThanOrEqual(0);
    for (const nome of ['companies', 'credentials', 'ctes', 'configuracoes_fiscais', 'company_activity'])
      expect(tabela(relatorio, nome).linhas_vivas).toBeGreaterThan(0);
    for (const t of relatorio.tabelas) expect(t.linhas_refeitas).toBe(t.linhas_vivas);
    expect(relatorio.tabelas.map((t) => t.tabela)).not.toContain('projection_checkpoint');
    expect(progresso.length).toBeGreaterThan(1);
    expect(progresso.at(-1)).toBe(relatorio.eventos_reaplicados);
    expect(await esquemasLaterais(platform().pool)).toEqual([]);
  });

  it('names the tampered tables with their rows; the live tables stay as they were and the side schema is gone', async () => {
    const pool = platform().pool;
    const alvo = await app.carrier({ name: 'TRANSPORTADORA ORIGINAL LTDA' });
    await appendAndProject();
    await pool.query(`UPDATE rm.companies SET razao_social = 'ADULTERADA LTDA' WHERE company_id = $1`, [alvo.companyId]);
    await pool.query(`DELETE FROM rm.credentials WHERE credential_id = $1`, [alvo.credentialId]);
    // Held still for the before/after checksums: nothing but the verifier could change a table meanwhile.
    await platform().projections.stop();
    try {
      const antes = await somasDasTabelasVivas(pool);
      const relatorio = await platform().projections.verificar({ exemplos: 3 });
      expect(await somasDasTabelasVivas(pool)).toEqual(antes);
      expect(await esquemasLaterais(pool)).toEqual([]);

      expect(relatorio.identicas).toBe(false);
      const companies = tabela(relatorio, 'companies');
      expect(companies).toMatchObject({ so_vivas: 1, so_refeitas: 1, estrutura: null });
      expect(companies.linhas_vivas).toBe(companies.linhas_refeitas);
      expect(companies.exemplos_so_vivas).toEqual([
        expect.objectContaining({ company_id: alvo.companyId, cnpj: alvo.cnpj, razao_social: 'ADULTERADA LTDA' }),
      ]);
      expect(companies.exemplos_so_refeitas).toEqual([
        expect.objectContaining({ company_id: alvo.companyId, razao_social: 'TRANSPORTADORA ORIGINAL LTDA' }),
      ]);
      const credentials = tabela(relatorio, 'credentials');
      expect(credentials).toMatchObject({ so_vivas: 0, so_refeitas: 1, exemplos_so_vivas: [] });
      expect(credentials.linhas_refeitas).toBe(credentials.linhas_vivas + 1);
      expect(credentials.exemplos_so_refeitas).toEqual([expect.objectContaining({ credential_id: alvo.credentialId })]);
      const outras = relatorio.tabelas.filter((t) => !['companies', 'credentials'].includes(t.tabela));
      expect(outras.filter((t) => t.so_vivas + t.so_refeitas > 0)).toEqual([]);
    } finally {
      await platform().projections.start();
    }
  });

  it('drops the side schema when the replay fails', async () => {
    const falha = new Error('the log broke');
    let leituras = 0;
    const store = new Proxy(platform().store, {
      get(target, prop) {
        if (prop === 'readAll')
          return async (from: Position, max: number) => {
            if (leituras++ > 0) throw falha;
            return target.readAll(from, max);
          };
        const value: unknown = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const vivos = { store, pool: platform().pool, projectors: READ_MODEL_PROJECTORS, name: platform().projections.name };
    await expect(verificarReadModels(vivos, { tamanhoDoLote: 5 })).rejects.toBe(falha);
    expect(leituras).toBe(2);
    expect(await esquemasLaterais(platform().pool)).toEqual([]);
  });
});
