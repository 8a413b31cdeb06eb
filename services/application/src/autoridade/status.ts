import { type Pool } from 'pg';
import { type SituacaoAutorizador } from '@frete/contracts';
import { ufBySigla } from '@frete/domain';
import { configuracaoOf } from '@frete/projections';
import {
  AUTORIZADOR_MDFE,
  AutoridadeIndisponivel,
  type AutoridadeFiscal,
  autorizadorCte,
  type ModeloFiscal,
  ProvedorIndisponivel,
} from '@frete/adapters';

export interface StatusDaAutoridadeDeps {
  autoridade: AutoridadeFiscal;
  pool: Pool;
  clock: () => Date;
  /** How long a verified status is reused (the authorities ask clients not to poll the status service often). */
  validadeMs?: number;
  /** How long a request waits for a check under way before answering with what it has. */
  esperaMs?: number;
}

const VALIDADE_MS = 5 * 60_000;
const ESPERA_MS = 300;

type Verificado = Omit<SituacaoAutorizador, 'modelo' | 'autorizador'>;

/**
 * The service status of the authorizers a company's documents go to (`GET /fiscal/status`), cached per authorizer:
 * a request never waits on a slow authority longer than `esperaMs`; a check under way goes on in the background and
 * the next request sees its result.
 */
export class StatusDaAutoridade {
  private readonly cache = new Map<string, { valor: Verificado; ate: number }>();
  private readonly emCurso = new Map<string, Promise<Verificado>>();

  constructor(private readonly deps: StatusDaAutoridadeDeps) {}

  async daEmpresa(companyId: string): Promise<{ uf: string | null; cte: SituacaoAutorizador | null; mdfe: SituacaoAutorizador | null }> {
    const uf = ufBySigla((await configuracaoOf(this.deps.pool, companyId)).endereco?.uf ?? '');
    if (!uf) return { uf: null, cte: null, mdfe: null };
    const [cte, mdfe] = await Promise.all([
      this.situacao('cte', autorizadorCte(uf.sigla), uf.codigo_ibge, companyId),
      this.situacao('mdfe', AUTORIZADOR_MDFE, uf.codigo_ibge, companyId),
    ]);
    return { uf: uf.sigla, cte, mdfe };
  }

  private async situacao(modelo: ModeloFiscal, autorizador: string, cUF: string, companyId: string): Promise<SituacaoAutorizador> {
    const chave = `${modelo}:${autorizador}`;
    const agora = this.deps.clock().getTime();
    const guardado = this.cache.get(chave);
    if (guardado && guardado.ate > agora) return { modelo, autorizador, ...guardado.valor };
    let verificacao = this.emCurso.get(chave);
    if (!verificacao) {
      verificacao = this.verificar(modelo, cUF, companyId, chave).finally(() => this.emCurso.delete(chave));
      this.emCurso.set(chave, verificacao);
    }
    let espera: NodeJS.Timeout | undefined;
    const limite = new Promise<null>((resolve) => {
      espera = setTimeout(() => resolve(null), this.deps.esperaMs ?? ESPERA_MS);
    });
    const valor = await Promise.race([verificacao, limite]).finally(() => clearTimeout(espera));
    const atual: Verificado = valor ??
      guardado?.valor ?? { situacao: 'verificando', cstat: null, motivo: 'the check is under way', verificado_em: null };
    return { modelo, autorizador, ...atual };
  }

  private async verificar(modelo: ModeloFiscal, cUF: string, companyId: string, chave: string): Promise<Verificado> {
    const verificado_em = this.deps.clock().toISOString();
    let valor: Verificado;
    let guardar = true;
    try {
      const r = await this.deps.autoridade.statusServico(modelo, cUF, { companyId });
      if (r.tipo === 'status')
        valor = { situacao: r.cStat === 107 ? 'em_operacao' : 'paralisado', cstat: r.cStat, motivo: r.xMotivo, verificado_em };
      else if (r.tipo === 'sem_resposta')
        valor = { situacao: 'sem_resposta', cstat: null, motivo: 'the authority did not answer', verificado_em };
      else valor = { situacao: 'desconhecido', cstat: r.cStat, motivo: r.xMotivo, verificado_em };
    } catch (error) {
      if (error instanceof AutoridadeIndisponivel)
        valor = { situacao: 'indisponivel', cstat: error.cStat, motivo: error.xMotivo, verificado_em };
      else if (error instanceof ProvedorIndisponivel)
        valor = { situacao: 'nao_configurada', cstat: null, motivo: error.message, verificado_em };
      else {
        // Something of this company (no certificate, a refused one): not the authorizer's status, so not kept for others.
        guardar = false;
        valor = { situacao: 'desconhecido', cstat: null, motivo: error instanceof Error ? error.message : String(error), verificado_em };
      }
    }
    if (guardar) this.cache.set(chave, { valor, ate: this.deps.clock().getTime() + (this.deps.validadeMs ?? VALIDADE_MS) });
    return valor;
  }
}
