import { lerCatalogo, type ColunaCatalogada } from '@frete/projections';
import { freshDatabase, type TestDatabase } from '../support/db';

/** node-pg-migrate's bookkeeping (its own column types) and the runner's checkpoint: not read models. */
const NAO_READ_MODELS = ['pgmigrations_rm', 'projection_checkpoint'];

/** Money by name: values, balances, fees, refunds, freight and tolls. Percentages and counts are not money. */
const DINHEIRO = /(^|_)(valor|saldo|taxa|estorno|frete|preco|custo)(_|$)|_centavos$/;
/** Named after money without being money: a percentage of a value, the reason for a refund. */
const NAO_DINHEIRO = /^(percentual|motivo)_/;
const INTEIRO = ['bigint', 'integer'];

/**
 * A fiscal document's date-time kept as written in its XML (ISO 8601 with its offset) so that the API returns it byte
 * for byte; where an instant is needed beside it, a timestamptz column holds it (rm.ctes.emitido_em). Cast with ::timestamptz.
 */
const DATA_HORA_COMO_ESCRITA = [
  'ctes.data_emissao',
  'cte_subcontratacao.data_emissao',
  'servicos.data_emissao',
  'nfes.data_emissao',
  'mdfes.data_emissao',
  'contingencias.dh_cont',
];

/** Instants by name: `*_em`, `*_at`, `*_ate` (until), `valido_de`, `data_*`, `dh_*`. */
const INSTANTE = /(_em|_at|_ate)$|^valido_de$|^(data|dh)_/;
/** Calendar dates of the domain (a due date has no time of day). */
const DATA = ['parcelas_repasse.vencimento'];

const nome = (c: ColunaCatalogada) => `${c.tabela}.${c.coluna}`;

describe('read-model units: money in integer cents, instants with time zone', () => {
  let db: TestDatabase;
  let colunas: ColunaCatalogada[];
  beforeAll(async () => {
    db = await freshDatabase();
    colunas = (await lerCatalogo(db.pool)).filter((t) => !NAO_READ_MODELS.includes(t.tabela)).flatMap((t) => t.colunas);
  });
  afterAll(() => db.drop());

  it('money columns are named *_centavos and hold an integer number of cents', () => {
    const dinheiro = colunas.filter((c) => DINHEIRO.test(c.coluna) && !NAO_DINHEIRO.test(c.coluna));
    expect(dinheiro.length).toBeGreaterThanOrEqual(19);
    const fora = dinheiro.filter((c) => !c.coluna.endsWith('_centavos') || !INTEIRO.includes(c.tipo)).map((c) => `${nome(c)} ${c.tipo}`);
    expect(fora).toEqual([]);
  });

  it('no column holds a fraction of anything but a percentage (no numeric, real, double precision or money type)', () => {
    const fracionarias = colunas.filter((c) => /^(numeric|real|double precision|money)/.test(c.tipo) && !c.coluna.startsWith('percentual'));
    expect(fracionarias.map((c) => `${nome(c)} ${c.tipo}`)).toEqual([]);
  });

  it('no column is a timestamp without time zone; instants are timestamptz, calendar dates date, fiscal text as written', () => {
    const semFuso = colunas.filter((c) => c.tipo.startsWith('timestamp without time zone') || c.tipo.startsWith('time without'));
    expect(semFuso.map(nome)).toEqual([]);
    const fora = colunas
      .filter((c) => INSTANTE.test(c.coluna) || c.tipo === 'date')
      .filter((c) => {
        if (DATA.includes(nome(c))) return c.tipo !== 'date';
        if (DATA_HORA_COMO_ESCRITA.includes(nome(c))) return c.tipo !== 'text';
        return c.tipo !== 'timestamp with time zone';
      })
      .map((c) => `${nome(c)} ${c.tipo}`);
    expect(fora).toEqual([]);
  });
});
