import fc from 'fast-check';
import {
  type ContaOperacionalEvent,
  type DadosEmissaoValePedagio,
  type Decider,
  type ValePedagioEvent,
  PRAZO_CANCELAMENTO_MS,
  Rejection,
  contaOperacionalDecider,
  efeitoNoSaldo,
  fold,
  valePedagioDecider,
  valoresValePedagio,
} from '../src';

/**
 * Property: for any sequence of credits, purchases, passages, cancellations and clock moves — refused ones included
 * (short balance, repeated references, double cancels, cancels at or after 3 hours or after a passage) — run the way
 * the service runs them (purchase: debit, then issue; cancellation: cancel the toll pass, then refund; a cancellation
 * that finds the toll pass cancelled makes sure of the refund), the ledger holds:
 *   - the balance is the sum of the ledger's events, each event's saldo_apos is the running sum, and it is never < 0;
 *   - movements are numbered 1, 2, 3… with no gap;
 *   - no toll pass is debited twice nor refunded twice; a refund is exactly its debit, and only for a toll pass
 *     cancelled strictly within 3 hours of its issue and before any passage;
 *   - the balance equals an independent model's (credits once per referencia, debits only when covered).
 */
const C = 'company-1';
const T0 = Date.parse('2026-11-22T12:00:00Z');
const VALES = 3;

type Op =
  | { k: 'credito'; ref: number; valor: number }
  | { k: 'compra'; vale: number; pedagio: number }
  | { k: 'passagem'; vale: number }
  | { k: 'cancelar'; vale: number }
  | { k: 'tempo'; ms: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('credito' as const), ref: fc.integer({ min: 0, max: 4 }), valor: fc.integer({ min: 1, max: 40_000 }) }),
  fc.record({
    k: fc.constant('compra' as const),
    vale: fc.integer({ min: 0, max: VALES - 1 }),
    pedagio: fc.integer({ min: 0, max: 30_000 }),
  }),
  fc.record({ k: fc.constant('passagem' as const), vale: fc.integer({ min: 0, max: VALES - 1 }) }),
  fc.record({ k: fc.constant('cancelar' as const), vale: fc.integer({ min: 0, max: VALES - 1 }) }),
  fc.record({
    k: fc.constant('tempo' as const),
    ms: fc.oneof(fc.integer({ min: 0, max: 2 * 3_600_000 }), fc.constantFrom(1, 59 * 60_000, 3_600_000)),
  }),
);

const valeId = (i: number) => `vale-${i}`;

function dadosDe(i: number, pedagio: number): DadosEmissaoValePedagio {
  const v = valoresValePedagio([pedagio]);
  return {
    company_id: C,
    vale_pedagio_id: valeId(i),
    numero: String(900 + i),
    referencia_externa: null,
    origem: { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' },
    destino: { codigo_ibge: '3550308', municipio: 'São Paulo', uf: 'SP' },
    categoria: '02',
    eixos: 2,
    placa: 'ABC1234',
    tipo: 'placa',
    motorista: null,
    cte: null,
    mdfe: null,
    fornecedor: { cnpj: '99887766000100', nome: 'FVPO', simulado: true },
    pagador_cnpj: '11222333000181',
    distancia_km: 90,
    pracas: [{ ordem: 1, codigo: 'P1', nome: 'P1', rodovia: 'SP-348', km: 50, uf: 'SP', concessionaria: 'X', tarifa_centavos: pedagio }],
    ...v,
  };
}

/** Decides against the folded history and appends, like `execute`; a Rejection appends nothing. */
function run<C, S, E>(decider: Decider<C, S, E>, history: E[], command: C, now: number): { ok: true } | { ok: false; code: string } {
  try {
    history.push(...decider.decide(command, fold(decider, history), { now: new Date(now) }));
    return { ok: true };
  } catch (err) {
    if (err instanceof Rejection) return { ok: false, code: err.code };
    throw err;
  }
}

function simular(ops: Op[]) {
  let now = T0;
  const conta: ContaOperacionalEvent[] = [];
  const vales: ValePedagioEvent[][] = Array.from({ length: VALES }, () => []);
  const modelo = { saldo: 0, refs: new Map<number, number>(), debitado: new Map<number, number>(), estornado: new Set<number>() };
  const codes: string[] = [];
  const estornar = (i: number) =>
    run(contaOperacionalDecider, conta, { type: 'Estornar', company_id: C, vale_pedagio_id: valeId(i), motivo: 'cancelamento' }, now);

  for (const o of ops) {
    switch (o.k) {
      case 'tempo':
        now += o.ms;
        break;
      case 'credito': {
        const r = run(
          contaOperacionalDecider,
          conta,
          { type: 'Creditar', company_id: C, referencia: `R${o.ref}`, valor_centavos: o.valor, origem: 'deposito_simulado' },
          now,
        );
        const antes = modelo.refs.get(o.ref);
        if (antes === undefined) {
          check(r.ok, `first credit R${o.ref} refused`);
          modelo.refs.set(o.ref, o.valor);
          modelo.saldo += o.valor;
        } else {
          check(antes === o.valor ? r.ok : !r.ok && r.code === 'referencia_em_uso', `credit R${o.ref} again: ${JSON.stringify(r)}`);
        }
        if (!r.ok) codes.push(r.code);
        break;
      }
      case 'compra': {
        const dados = dadosDe(o.vale, o.pedagio);
        const antes = conta.length;
        const r = run(
          contaOperacionalDecider,
          conta,
          {
            type: 'Debitar',
            company_id: C,
            vale_pedagio_id: dados.vale_pedagio_id,
            valor_pedagio_centavos: dados.valor_pedagio_centavos,
            taxa_centavos: dados.taxa_centavos,
          },
          now,
        );
        if (!r.ok) {
          codes.push(r.code);
          check(conta.length === antes, 'a refused debit appended');
          if (r.code === 'saldo_insuficiente') check(dados.valor_total_centavos > modelo.saldo, 'saldo_insuficiente with enough balance');
          else check(r.code === 'referencia_em_uso', `unexpected ${r.code}`); // a toll pass debited and refunded already
          break;
        }
        if (conta.length > antes) {
          check(!modelo.debitado.has(o.vale), `${valeId(o.vale)} debited again`);
          modelo.debitado.set(o.vale, dados.valor_total_centavos);
          modelo.saldo -= dados.valor_total_centavos;
        }
        check(
          run(valePedagioDecider, vales[o.vale]!, { type: 'Emitir', dados, documentos: { cte: null, mdfe: null } }, now).ok,
          `${valeId(o.vale)} not issued`,
        );
        break;
      }
      case 'passagem': {
        const r = run(
          valePedagioDecider,
          vales[o.vale]!,
          { type: 'RegistrarPassagem', company_id: C, vale_pedagio_id: valeId(o.vale) },
          now,
        );
        if (!r.ok) codes.push(r.code);
        break;
      }
      case 'cancelar': {
        const r = run(valePedagioDecider, vales[o.vale]!, { type: 'Cancelar', company_id: C, vale_pedagio_id: valeId(o.vale) }, now);
        if (r.ok || r.code === 'vale_pedagio_ja_cancelado') {
          check(estornar(o.vale).ok, `${valeId(o.vale)} refund refused`);
          if (!modelo.estornado.has(o.vale)) {
            modelo.estornado.add(o.vale);
            modelo.saldo += modelo.debitado.get(o.vale)!;
          }
        }
        if (!r.ok) codes.push(r.code);
        break;
      }
    }
    verificar(conta, vales, modelo.saldo);
  }
  return codes;
}

/** Plain checks (thousands per run): a failure throws, and fast-check shrinks to the smallest sequence that breaks it. */
function check(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}

function verificar(conta: ContaOperacionalEvent[], vales: ValePedagioEvent[][], saldoModelo: number) {
  let soma = 0;
  const debitos = new Map<string, number>();
  const estornos = new Map<string, number>();
  conta.forEach((e, i) => {
    soma += efeitoNoSaldo(e);
    check(e.data.sequencia === i + 1, `movement ${i + 1} numbered ${e.data.sequencia}`);
    check(e.data.saldo_apos_centavos === soma, `movement ${i + 1}: saldo_apos ${e.data.saldo_apos_centavos} ≠ running sum ${soma}`);
    check(soma >= 0, `negative balance ${soma} at movement ${i + 1}`);
    if (e.type === 'conta_operacional.debito_registrado') {
      check(!debitos.has(e.data.vale_pedagio_id), `${e.data.vale_pedagio_id} debited twice`);
      debitos.set(e.data.vale_pedagio_id, e.data.valor_centavos);
    }
    if (e.type === 'conta_operacional.estorno_registrado') {
      check(!estornos.has(e.data.vale_pedagio_id), `${e.data.vale_pedagio_id} refunded twice`);
      check(e.data.valor_centavos === debitos.get(e.data.vale_pedagio_id), `${e.data.vale_pedagio_id} refund ≠ its debit`);
      estornos.set(e.data.vale_pedagio_id, e.data.valor_centavos);
    }
  });
  check(fold(contaOperacionalDecider, conta).saldo_centavos === soma, 'folded balance ≠ Σ ledger');
  check(soma === saldoModelo, `balance ${soma} ≠ model ${saldoModelo}`);
  vales.forEach((eventos, i) => {
    const emitido = eventos.find((e) => e.type === 'vale_pedagio.emitido');
    const cancel = eventos.findIndex((e) => e.type === 'vale_pedagio.cancelado');
    check(eventos.filter((e) => e.type === 'vale_pedagio.emitido').length <= 1, `${valeId(i)} issued twice`);
    check(eventos.filter((e) => e.type === 'vale_pedagio.cancelado').length <= 1, `${valeId(i)} cancelled twice`);
    if (emitido) check(debitos.has(valeId(i)), `${valeId(i)} issued without a debit`);
    if (cancel >= 0) {
      const c = eventos[cancel]!;
      if (c.type !== 'vale_pedagio.cancelado' || emitido?.type !== 'vale_pedagio.emitido') throw new Error('cancelled without an issue');
      check(
        Date.parse(c.data.cancelado_em) - Date.parse(emitido.data.emitido_em) < PRAZO_CANCELAMENTO_MS,
        `${valeId(i)} cancelled at or after 3 h`,
      );
      check(!eventos.slice(0, cancel).some((e) => e.type === 'vale_pedagio.passagem_registrada'), `${valeId(i)} cancelled after a passage`);
      check(estornos.has(valeId(i)), `${valeId(i)} cancelled but not refunded`);
    } else {
      check(!estornos.has(valeId(i)), `${valeId(i)} refunded but not cancelled`);
    }
  });
}

describe('operational account and toll pass: properties', () => {
  it('balance = Σ ledger, never negative, no double debit or refund, refunds only for lawful cancellations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        simular(ops);
      }),
      { numRuns: 1000 },
    );
  });

  it('the generator reaches every refusal (so the property above is not vacuous)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(op, { minLength: 20, maxLength: 60 }), (ops) => {
        for (const c of simular(ops)) seen.add(c);
      }),
      { numRuns: 200, seed: 42 },
    );
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        'cancelamento_fora_do_prazo',
        'nao_encontrado',
        'passagem_registrada',
        'referencia_em_uso',
        'saldo_insuficiente',
        'vale_pedagio_ja_cancelado',
      ]),
    );
  });
});
