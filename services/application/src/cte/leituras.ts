import { type Pool } from 'pg';
import { type RegraContraCte } from '@frete/domain';
import {
  certificadoOf,
  type CertificadoRow,
  companyOf,
  type CompanyRow,
  configuracaoOf,
  type ConfiguracaoRow,
  contingenciaOf,
  caixaCteDe,
  caixaCteOf,
  type CaixaCteRow,
  regrasDaRota,
  type RegraTributacaoRow,
} from '@frete/projections';

/**
 * The company's read models that a run of documents shares (a batch block, one request): each read once, when first
 * asked for, and the same answer for the rest of the run, as if its documents were all prepared at that moment.
 */
export class LeiturasDaEmpresa {
  private readonly lidas = new Map<string, Promise<unknown>>();

  constructor(
    private readonly pool: Pool,
    readonly companyId: string,
  ) {}

  private uma<T>(chave: string, ler: () => Promise<T>): Promise<T> {
    let lida = this.lidas.get(chave) as Promise<T> | undefined;
    if (!lida) {
      lida = ler();
      this.lidas.set(chave, lida);
      // A failed read is not kept: the next one asks again.
      lida.catch(() => this.lidas.delete(chave));
    }
    return lida;
  }

  company(): Promise<CompanyRow | null> {
    return this.uma('company', () => companyOf(this.pool, this.companyId, ''));
  }

  configuracao(): Promise<ConfiguracaoRow> {
    return this.uma('configuracao', () => configuracaoOf(this.pool, this.companyId));
  }

  certificado(): Promise<CertificadoRow | null> {
    return this.uma('certificado', () => certificadoOf(this.pool, this.companyId));
  }

  regrasDaRota(ufOrigem: string, ufDestino: string): Promise<RegraTributacaoRow[]> {
    return this.uma(`rota:${ufOrigem}:${ufDestino}`, () => regrasDaRota(this.pool, this.companyId, ufOrigem, ufDestino));
  }

  /** The operator's switch of a UF to its SVC, if any (read at build time: see `prepararCte`). */
  contingencia(uf: string): ReturnType<typeof contingenciaOf> {
    return this.uma(`contingencia:${uf}`, () => contingenciaOf(this.pool, uf));
  }

  /** The tax rules a counter-CT-e's CFOP is chosen by (every route). */
  regrasContraCte(): Promise<RegraContraCte[]> {
    return this.uma('regras-contra-cte', async () => {
      const { rows } = await this.pool.query<RegraContraCte>(
        'SELECT uf_origem, uf_destino, tp_serv, cfop FROM rm.regras_tributacao WHERE company_id = $1',
        [this.companyId],
      );
      return rows;
    });
  }

  /** A contractor's CT-e in the company's inbox: the one asked for with the block's (`inboxDoBloco`), or read now. */
  inbox(chave: string): Promise<CaixaCteRow | null> {
    return this.uma(`inbox:${chave}`, () => caixaCteOf(this.pool, this.companyId, chave));
  }

  /** The inbox rows of a block's keys in one query, each kept for its row's `inbox`. */
  inboxDoBloco(chaves: readonly string[]): void {
    const novas = chaves.filter((c) => !this.lidas.has(`inbox:${c}`));
    if (novas.length === 0) return;
    const lidas = caixaCteDe(this.pool, this.companyId, novas);
    for (const c of novas) this.uma(`inbox:${c}`, () => lidas.then((porChave) => porChave.get(c) ?? null));
  }
}
