import { executar, imprimirResultado, medir } from './comum';
import { CPF, iniciarServico, medirLote, perSecond, PLACA, prepararEmissora, receberContratantes, seconds } from './lote';

/**
 * Whether a key costs the same in a big run as in a small one: 1:1 runs of 100, 1,000 and 5,000 keys
 * (BENCH_TAMANHOS, comma-separated) one after another on one service as `pnpm start` runs it, each printing this
 * process's CPU ms per key from the POSTs to `done` (every row emitted, its payout registered), and PostgreSQL's
 * beside it. A batch holds at most 1,000 keys (the contract): a run of more is that many batches of 1,000 posted
 * together, their rows counted together. The target: the three within 10% of each other (the
 * anchor is the smallest batch's figure; `razao_max_min` is the largest over the smallest).
 *
 * An idle service burns some CPU of its own (subscriptions' polls, timers), which weighs on a short batch and not on a
 * long one: it is measured first, over IDLE_S seconds, and the net figure (`cpu_ms_por_chave_liquido`, what the batch
 * itself cost) is printed beside the raw one. A first batch of AQUECIMENTO keys warms the process up (the JIT, the
 * certificate's first read) and is not counted: it would weigh on whichever size came first.
 */
const AQUECIMENTO = 100;
const MAX_POR_LOTE = 1000;
const IDLE_S = 5;
const TAMANHOS = (process.env.BENCH_TAMANHOS ?? '100,1000,5000').split(',').map((s) => Number(s.trim()));

async function main(): Promise<void> {
  const servico = await iniciarServico('crescimento');
  try {
    const { call, cnpj } = servico;
    await prepararEmissora(call, cnpj);
    const aquecimento = await receberContratantes(call, AQUECIMENTO);
    await medirLote(
      call,
      { subcontratada: { cnpj }, motorista: { cpf: CPF }, placa: PLACA, ctes: aquecimento.map((chave) => ({ chave, valor: 100 })) },
      AQUECIMENTO,
    );
    await new Promise((r) => setTimeout(r, 2000));
    const ocioso = await medir(() => new Promise((r) => setTimeout(r, IDLE_S * 1000)));
    const ociosoPorMs = ocioso.cpuMs / ocioso.ms;
    const porTamanho: Record<
      string,
      {
        cpu_ms_por_chave: number;
        cpu_ms_por_chave_liquido: number;
        cpu_postgres_ms_por_chave: number;
        chaves_por_s: number;
        s_ate_concluido: number;
      }
    > = {};
    const linhas: string[] = [];
    for (const n of TAMANHOS) {
      const chaves = await receberContratantes(call, n);
      const lotes: string[][] = [];
      for (let i = 0; i < chaves.length; i += MAX_POR_LOTE) lotes.push(chaves.slice(i, i + MAX_POR_LOTE));
      const medidas = await Promise.all(
        lotes.map((ctes) =>
          medirLote(
            call,
            { subcontratada: { cnpj }, motorista: { cpf: CPF }, placa: PLACA, ctes: ctes.map((chave) => ({ chave, valor: 100 })) },
            ctes.length,
          ),
        ),
      );
      for (const l of medidas) {
        if (l.status !== 'done' || l.emitted !== l.rows)
          throw new Error(`a ${l.rows}-key batch ended ${l.status} with ${l.emitted} emitted`);
      }
      // The batches ran together: the run's span is the slowest one's to `done` (every row emitted and its payout
      // registered), and the process's CPU over it is that batch's measure (each measures this whole process, and
      // embedded PostgreSQL, from its own POST). To the last row would stop before a small batch's emissions.
      const m = medidas.reduce((a, b) => (b.doneMs > a.doneMs ? b : a));
      const liquido = (m.cpuMsConcluido - ociosoPorMs * m.doneMs) / n;
      porTamanho[String(n)] = {
        cpu_ms_por_chave: Number((m.cpuMsConcluido / n).toFixed(2)),
        cpu_ms_por_chave_liquido: Number(liquido.toFixed(2)),
        cpu_postgres_ms_por_chave: Number((m.pgCpuMsConcluido / n).toFixed(2)),
        chaves_por_s: Number(perSecond(n, m.doneMs)),
        s_ate_concluido: Number((m.doneMs / 1000).toFixed(1)),
      };
      linhas.push(
        `  ${String(n).padStart(5)} keys: node ${(m.cpuMsConcluido / n).toFixed(2)} CPU ms/key (${liquido.toFixed(2)} net of idle), ` +
          `PostgreSQL ${(m.pgCpuMsConcluido / n).toFixed(2)} · done after ${seconds(m.doneMs)} (${perSecond(n, m.doneMs)} keys/s)`,
      );
    }
    const liquidos = Object.values(porTamanho).map((f) => f.cpu_ms_por_chave_liquido);
    const brutos = Object.values(porTamanho).map((f) => f.cpu_ms_por_chave);
    const razao = Math.max(...liquidos) / Math.min(...liquidos);
    const razaoBruta = Math.max(...brutos) / Math.min(...brutos);
    process.stdout.write(
      `\nCPU per key by batch size · 1:1 · embedded PostgreSQL · idle service ${(ociosoPorMs * 1000).toFixed(0)} CPU ms/s\n` +
        `${linhas.join('\n')}\n  max/min ${razao.toFixed(2)} net (${razaoBruta.toFixed(2)} raw)\n\n`,
    );
    imprimirResultado('crescimento', {
      cpu_ocioso_ms_por_s: Number((ociosoPorMs * 1000).toFixed(1)),
      tamanhos: porTamanho,
      razao_max_min: Number(razao.toFixed(2)),
      razao_max_min_bruta: Number(razaoBruta.toFixed(2)),
      alvo_razao_max_min: 1.1,
    });
  } finally {
    await servico.parar();
  }
}

executar(main);
