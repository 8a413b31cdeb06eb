import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { comparePositions, type RecordedEvent } from '@frete/contracts';
import { type RailDePagamento } from '@frete/adapters';
import { type EventStore } from '@frete/platform';
import { randomCnpj, request, type TestCarrier } from './app';
import { lotePreparadoEmSp, postarLote1a1, receberCteDoContratante, relatorioFinal } from './lote';

/**
 * The race of issue 26: an installment released, then its payment and its counter-CT-e's cancellation asked at the same
 * moment, repeated. Whatever wins, no money may move for a document whose cancellation came first, and what did move
 * must be in the cancellation's answer.
 */

const JUSTIFICATIVA = 'FRETE CANCELADO PELO CONTRATANTE NA ORIGEM';
const PARCELAS = '/v1/carriers/parcelas-repasse';

/** A caller with the carrier's credential on another API process (its own base URL). */
export const noOutroProcesso = (c: TestCarrier, url: string): TestCarrier => ({
  ...c,
  call: (method, p, body, headers = {}) => request(url + p, method, body, { authorization: `Bearer ${c.apiKey}`, ...headers }),
});

/** `n` authorized counter-CT-e of one batch of `sub` (1:1, R$ 1.00 each), with their payout registered. */
export async function contraCtesDeUmLote(sub: TestCarrier, n: number): Promise<string[]> {
  const contratante = randomCnpj();
  const chaves: string[] = [];
  for (let i = 0; i < n; i++) chaves.push(await receberCteDoContratante(sub, contratante));
  const r = await postarLote1a1(sub, chaves);
  if (r.status !== 202) throw new Error(`lote: ${r.status} ${r.text}`);
  const report = (await relatorioFinal(sub, r.body.data.batch_id, 300_000)).body.data;
  const rows = report.rows as { status: string; financeiro: string; counter_cte_id?: string }[];
  const ok = rows.filter((x) => x.status === 'emitted' && x.financeiro === 'ok').map((x) => x.counter_cte_id!);
  if (ok.length !== n) throw new Error(`lote: ${ok.length} of ${n} rows emitted with their payout`);
  return ok;
}

/**
 * Another carrier's batches, one after another, until `parar`: the load under which the payout processor lags behind
 * (the tester saw up to 3.9 s). Each batch has `chaves` keys.
 */
export async function cargaDeLotes(
  app: Parameters<typeof lotePreparadoEmSp>[0],
  chaves: number,
): Promise<{ lotes(): number; parar(): Promise<void> }> {
  const { sub, chaves: keys } = await lotePreparadoEmSp(app, chaves);
  let parado = false;
  let lotes = 0;
  const laco = (async () => {
    while (!parado) {
      // A key already used is a duplicated row, which costs the batch as much as a new one: the load stays the same.
      const r = await postarLote1a1(sub, keys);
      if (r.status !== 202) throw new Error(`carga: ${r.status} ${r.text}`);
      lotes++;
      await relatorioFinal(sub, r.body.data.batch_id, 600_000);
    }
  })();
  // Started for real: the first batch is running when this returns.
  while (lotes === 0) await new Promise((res) => setTimeout(res, 20));
  return {
    lotes: () => lotes,
    parar: async () => {
      parado = true;
      await laco;
    },
  };
}

export interface Placar {
  cenario: string;
  corridas: number;
  /** The payment's answer: 202 (order recorded), or the refusal's code. */
  pagamento: Record<string, number>;
  /** Orders recorded (202) whose money left before the cancellation: paid, and listed in `repasse.parcelas_pagas`. */
  pagas_antes_do_cancelamento: number;
  /** Orders recorded (202) and withdrawn before reaching the bank rail (`repasse.ordens_retiradas`). */
  retiradas: number;
  /** Orders recorded or handed to the rail after the cancellation was asked for, and money not listed in its answer. */
  violacoes: number;
  /** The cancellation's answer. */
  cancelamento: Record<string, number>;
}

const conta = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);

const doCte = (events: RecordedEvent[], cteId: string) => events.filter((e) => (e.data as { cte_id?: string }).cte_id === cteId);

/**
 * What the group recorded for one document breaks the rule when an order is recorded, handed over or settled after the
 * cancellation was asked for (without an order handed over before it), or when paid money is not in the answer.
 */
export function violacoesDoGrupo(events: RecordedEvent[], pagasNaResposta: string[]): string[] {
  const erros: string[] = [];
  const inicio = events.findIndex((e) => e.type === 'repasse.cancelamento_solicitado' || e.type === 'repasse.documento_cancelado');
  if (inicio < 0) return ['the cancellation never reached the group'];
  const enviadasAntes = new Set(
    events
      .slice(0, inicio)
      .filter((e) => e.type === 'repasse.pagamento_enviado')
      .map((e) => (e.data as { ordem_id: string }).ordem_id),
  );
  for (const e of events.slice(inicio)) {
    const ordem = (e.data as { ordem_id?: string }).ordem_id;
    if (e.type === 'repasse.pagamento_solicitado') erros.push(`order ${ordem} recorded after the cancellation`);
    if (e.type === 'repasse.pagamento_enviado') erros.push(`order ${ordem} handed to the rail after the cancellation`);
    if (e.type === 'repasse.parcela_paga' && !enviadasAntes.has(ordem!))
      erros.push(`order ${ordem} settled without being handed over first`);
  }
  const pagas = events.filter((e) => e.type === 'repasse.parcela_paga').map((e) => (e.data as { ordem_id: string }).ordem_id);
  const emTransito = [...enviadasAntes].filter((o) => !pagas.includes(o));
  for (const o of [...pagas, ...emTransito])
    if (!pagasNaResposta.includes(o)) erros.push(`money of order ${o} left but is not in the answer`);
  return erros;
}

/** A bank rail that remembers every order it was handed: what really moved money. */
export function railGravado(): RailDePagamento & { ordens: Set<string> } {
  const ordens = new Set<string>();
  return {
    ordens,
    async liquidar(o) {
      ordens.add(o.ordem_id);
    },
  };
}

export interface Portas {
  /** The rail the payout processor settles through, when the test gave it one. */
  rail?: { ordens: ReadonlySet<string> };
  /** Asks the cancellation. */
  cancela: TestCarrier;
  /** Asks the payment and reads after the cancellation (the same process as `cancela`, or another). */
  paga: TestCarrier;
  store: EventStore;
  companyId: string;
}

/** Runs the race once for each counter-CT-e of `ctes`, one at a time; returns the tally and the first failures. */
export async function correr(cenario: string, portas: Portas, ctes: string[]): Promise<{ placar: Placar; falhas: string[] }> {
  const placar: Placar = {
    cenario,
    corridas: 0,
    pagamento: {},
    pagas_antes_do_cancelamento: 0,
    retiradas: 0,
    violacoes: 0,
    cancelamento: {},
  };
  const falhas: string[] = [];
  const ordens = new Map<string, { ordem: string | null; pagas: string[]; retiradas: string[]; grupo: string }>();
  for (const [i, cteId] of ctes.entries()) {
    const bip = await portas.paga.call('POST', `${PARCELAS}/${cteId}/bipagem`);
    if (bip.status !== 200 || bip.body.data.parcelas[0]?.situacao !== 'liberada') {
      falhas.push(`${cteId}: scan ${bip.status} ${bip.text}`);
      continue;
    }
    // Spread who starts first over the repetitions: the cancellation signs and calls the authority, so it is the slower.
    const atraso = i % 4 === 0 ? 0 : (i * 7) % 25;
    const espera = (ms: number) => new Promise((res) => setTimeout(res, ms));
    const [canc, pag] = await Promise.all([
      (async () => {
        if (i % 2 === 1) await espera(atraso);
        return portas.cancela.call('POST', `/v1/fiscal/cte/${cteId}/eventos/cancelamento`, { justificativa: JUSTIFICATIVA });
      })(),
      (async () => {
        if (i % 2 === 0) await espera(atraso);
        return portas.paga.call('POST', `${PARCELAS}/pagar`, { documento: cteId, posicao: 1 }, { 'Idempotency-Key': randomUUID() });
      })(),
    ]);
    placar.corridas++;
    conta(placar.pagamento, pag.status === 202 ? '202' : `${pag.status} ${pag.body?.error?.code}`);
    conta(placar.cancelamento, `${canc.status}${canc.body?.data?.repasse?.cancelado ? ' cancelado' : ''}`);
    if (canc.status !== 200 || !canc.body.data.repasse?.cancelado) {
      falhas.push(`${cteId}: cancellation ${canc.status} ${canc.text}`);
      continue;
    }
    if (pag.status !== 202 && !['documento_em_cancelamento', 'parcela_cancelada'].includes(pag.body?.error?.code)) {
      falhas.push(`${cteId}: payment ${pag.status} ${pag.text}`);
    }
    const repasse = canc.body.data.repasse as {
      parcelas_pagas: { ordem_pagamento_id: string }[];
      ordens_retiradas: { ordem_pagamento_id: string }[];
    };
    const pagas = repasse.parcelas_pagas.map((p) => p.ordem_pagamento_id);
    const retiradas = repasse.ordens_retiradas.map((p) => p.ordem_pagamento_id);
    const ordem = pag.status === 202 ? (pag.body.data.ordem_id as string) : null;
    if (ordem && pagas.includes(ordem)) placar.pagas_antes_do_cancelamento++;
    else if (ordem && retiradas.includes(ordem)) placar.retiradas++;
    else if (ordem) falhas.push(`${cteId}: order ${ordem} answered 202 is neither kept nor withdrawn in the cancellation's answer`);

    // Read your writes: right after the cancellation's answer, the installment is cancelled, or paid as the answer says.
    const depois = await portas.paga.call('GET', `${PARCELAS}/${cteId}`);
    const p1 = depois.body?.data?.parcelas?.[0];
    const esperado = p1?.ordem_pagamento_id && pagas.includes(p1.ordem_pagamento_id) ? ['paga', 'pagamento_solicitado'] : ['cancelada'];
    if (depois.status !== 200 || depois.body.data.cancelado !== true || !esperado.includes(p1?.situacao)) {
      falhas.push(`${cteId}: read after the cancellation ${depois.status} ${JSON.stringify(depois.body?.data?.parcelas)}`);
    }
    ordens.set(cteId, { ordem, pagas, retiradas, grupo: depois.body?.data?.grupo });
  }

  // The payout processor settles what was handed over: then every group tells its whole story.
  const prazo = Date.now() + 60_000;
  for (const [cteId, o] of ordens) {
    for (;;) {
      const events = doCte(await portas.store.readStream(`repasse-${portas.companyId}-${o.grupo}`), cteId);
      const enviadas = events.filter((e) => e.type === 'repasse.pagamento_enviado').length;
      const pagas = events.filter((e) => e.type === 'repasse.parcela_paga').length;
      if (enviadas === pagas || Date.now() > prazo) {
        const erros = violacoesDoGrupo(events, o.pagas);
        // What the tester saw: an order recorded or handed over after the CT-e's stream recorded the registration.
        const registro = (await portas.store.readStream(`cte-${cteId}`)).find(
          (e) => e.type === 'cte.evento_registrado' && (e.data as { tp_evento: string }).tp_evento === '110111',
        );
        for (const e of events)
          if (
            registro &&
            ['repasse.pagamento_solicitado', 'repasse.pagamento_enviado'].includes(e.type) &&
            comparePositions(e.position, registro.position) > 0
          )
            erros.push(`${e.type} ${(e.data as { ordem_id: string }).ordem_id} after cte.evento_registrado`);
        // And the rail itself: a withdrawn order never reached it, and whatever reached it is in the answer.
        if (portas.rail && o.ordem) {
          if (o.retiradas.includes(o.ordem) && portas.rail.ordens.has(o.ordem)) erros.push(`withdrawn order ${o.ordem} reached the rail`);
          if (portas.rail.ordens.has(o.ordem) && !o.pagas.includes(o.ordem))
            erros.push(`order ${o.ordem} reached the rail, not in the answer`);
        }
        placar.violacoes += erros.length;
        falhas.push(...erros.map((e) => `${cteId}: ${e}`));
        break;
      }
      await new Promise((res) => setTimeout(res, 50));
    }
  }
  registrarPlacar(placar);
  return { placar, falhas: falhas.slice(0, 20) };
}

/** The tallies go to the run's artefacts (and the log), for the note: repetitions and outcomes per scenario. */
function registrarPlacar(placar: Placar): void {
  const dir = path.join(__dirname, '..', '..', 'test-artifacts', 'repasse-cancelamento');
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(dir, 'placar.jsonl'), `${JSON.stringify({ em: new Date().toISOString(), ...placar })}\n`);
  process.stdout.write(`race ${JSON.stringify(placar)}\n`);
}
