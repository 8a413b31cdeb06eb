import { randomUUID } from 'node:crypto';
import { type Pool } from 'pg';
import { type CategoriaVeicular, type LocalValePedagio, type TipoValePedagio, type ValePedagioEmitido } from '@frete/contracts';
import {
  type DocumentosReferidos,
  type ValoresValePedagio,
  Rejection,
  contaOperacionalDecider,
  contaOperacionalStream,
  eixosDaCategoria,
  impedimentoCancelamento,
  referenciaNaoEncontrada,
  valePedagioDecider,
  valePedagioStream,
  valoresValePedagio,
} from '@frete/domain';
import { type MovimentoContaRow } from '@frete/projections';
import { execute, load, type ContextoEmpresa } from '../commands/execute';
import { recordRequestWrite } from '../commands/request-write';
import { type EventStore } from '@frete/platform';
import { derivedEventId } from '@frete/platform';
import { type ReadYourWrites } from '@frete/platform';
import { type DepositosContaOperacional, type ProvedorValePedagio, type Roteiro } from '@frete/adapters';
import { cteByKey, cteOf, mdfeByKey, mdfeOf } from '@frete/projections';

export interface ServicoValePedagioDeps {
  store: EventStore;
  /** The read models of the company's CT-e and MDF-e, which a purchase's references must name. */
  pool: Pool;
  readYourWrites?: ReadYourWrites;
  provedor: ProvedorValePedagio;
  depositos: DepositosContaOperacional;
}

export interface PedidoValePedagio {
  origem: LocalValePedagio;
  destino: LocalValePedagio;
  categoria: CategoriaVeicular;
  placa: string;
  tipo: TipoValePedagio;
  motorista: { cpf: string; nome: string | null } | null;
  /** A `cte_uuid` (lower case) or an access key, as the route checked its shape. */
  cte: string | null;
  /** An `mdfe_uuid` (lower case) or an access key. */
  mdfe: string | null;
  referencia_externa: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Two purchases with one `referencia_externa` must ask for the same toll pass. */
const mesmoPedido = (v: ValePedagioEmitido, p: PedidoValePedagio) =>
  v.origem.codigo_ibge === p.origem.codigo_ibge &&
  v.destino.codigo_ibge === p.destino.codigo_ibge &&
  v.categoria === p.categoria &&
  v.placa === p.placa &&
  v.tipo === p.tipo &&
  (v.motorista?.cpf ?? null) === (p.motorista?.cpf ?? null) &&
  v.cte === p.cte &&
  v.mdfe === p.mdfe;

/** A reused `referencia_externa` is an invalid payload (spec section 7: 400), as on the CIOT declaration. */
const referenciaEmUso = (ref: string, why: string) =>
  new Rejection('validacao', `referencia_externa: '${ref}' ${why}`, {
    fields: [{ field: 'referencia_externa', message: 'already used by the company for another toll pass' }],
  });
const outroPedido = (ref: string, numero: string) =>
  referenciaEmUso(ref, `already names toll pass ${numero}, bought for another route, vehicle or type`);

/**
 * The toll pass's commands across its two aggregates. Money moves only in the account's ledger, whose expected
 * revision serialises it; the toll pass's own stream serialises its lifecycle. The steps of a purchase and of a
 * cancellation are each safe to repeat, so an interrupted one is finished by doing it again:
 *
 * - purchase: the `cte`/`mdfe` references name the company's documents (404 here, before the supplier is asked or money
 *   moves) → route and price (supplier) → debit the account (`saldo_insuficiente` here, nothing debited) → buy at the
 *   supplier (a failure refunds the debit, motive `compra_nao_concluida`) → `vale_pedagio.emitido`. With a
 *   `referencia_externa` the toll pass's id is derived from it, so a retry finds the debit and the issue already done.
 * - cancellation: the toll pass's rules (3 hours, no passage, not cancelled) → cancel at the supplier →
 *   `vale_pedagio.cancelado` (two concurrent cancellations: one appends, the other finds it cancelled: 422) →
 *   refund in the account, at most once per toll pass. A request that finds the toll pass already cancelled makes
 *   sure its refund is there before it answers 422.
 */
/** A deposit credited (or found credited before, `criado` false): its movement and the balance right after the command. */
export interface CreditoRegistrado {
  criado: boolean;
  movimento: MovimentoContaRow;
  saldo_centavos: number;
}

export class ServicoValePedagio {
  constructor(private readonly deps: ServicoValePedagioDeps) {}

  get disponivel(): boolean {
    return this.deps.provedor.disponivel;
  }

  roteirizar(origem: LocalValePedagio, destino: LocalValePedagio, categoria: CategoriaVeicular): Promise<Roteiro> {
    return this.deps.provedor.roteirizar({ origem, destino, categoria });
  }

  async calcular(
    origem: LocalValePedagio,
    destino: LocalValePedagio,
    categoria: CategoriaVeicular,
  ): Promise<{ roteiro: Roteiro; valores: ValoresValePedagio }> {
    const roteiro = await this.roteirizar(origem, destino, categoria);
    return { roteiro, valores: valoresValePedagio(roteiro.pracas.map((p) => p.tarifa_centavos)) };
  }

  /** Buys and issues a toll pass, debiting toll + fee at once. `criado` is false for a resent `referencia_externa`. */
  async comprar(
    ctx: ContextoEmpresa,
    pagadorCnpj: string,
    pedido: PedidoValePedagio,
  ): Promise<{ vale_pedagio_id: string; criado: boolean }> {
    const documentos = await this.documentosReferidos(ctx, pedido);
    const naoEncontrada = referenciaNaoEncontrada({ company_id: ctx.companyId, cte: pedido.cte, mdfe: pedido.mdfe }, documentos);
    if (naoEncontrada) throw naoEncontrada;
    const { roteiro, valores } = await this.calcular(pedido.origem, pedido.destino, pedido.categoria);
    const ref = pedido.referencia_externa;
    const id = ref ? derivedEventId(ctx.companyId, `vale-pedagio:${ref}`) : randomUUID();
    const stream = valePedagioStream(ctx.companyId, id);
    if (ref) {
      const atual = await load(this.deps.store, stream, valePedagioDecider);
      if (atual.emitido) {
        if (!mesmoPedido(atual.emitido, pedido)) throw outroPedido(ref, atual.emitido.numero);
        await this.leituraAposRepeticao(ctx, stream);
        return { vale_pedagio_id: id, criado: false };
      }
    }
    if (roteiro.pracas.length === 0) {
      throw new Rejection(
        'rota_sem_pracas',
        `the route ${pedido.origem.municipio}/${pedido.origem.uf} → ${pedido.destino.municipio}/${pedido.destino.uf} crosses no toll plaza: there is no toll pass to buy`,
      );
    }
    try {
      await execute(
        this.deps,
        contaOperacionalStream(ctx.companyId),
        contaOperacionalDecider,
        {
          type: 'Debitar',
          company_id: ctx.companyId,
          vale_pedagio_id: id,
          valor_pedagio_centavos: valores.valor_pedagio_centavos,
          taxa_centavos: valores.taxa_centavos,
        },
        ctx,
      );
    } catch (err) {
      // The ledger refuses to debit again a toll pass it refunded: with a reference, that id is the reference's.
      if (ref && err instanceof Rejection && err.code === 'referencia_em_uso')
        throw referenciaEmUso(ref, 'named a purchase that was not concluded and was refunded: use another');
      throw err;
    }
    let compra;
    try {
      compra = await this.deps.provedor.comprar({
        vale_pedagio_id: id,
        pagador_cnpj: pagadorCnpj,
        placa: pedido.placa,
        tipo: pedido.tipo,
        categoria: pedido.categoria,
        origem: pedido.origem,
        destino: pedido.destino,
        pracas: roteiro.pracas,
        valor_pedagio_centavos: valores.valor_pedagio_centavos,
      });
    } catch (err) {
      await this.estornar(ctx, id, 'compra_nao_concluida');
      throw err;
    }
    const r = await execute(
      this.deps,
      stream,
      valePedagioDecider,
      {
        type: 'Emitir',
        dados: {
          company_id: ctx.companyId,
          vale_pedagio_id: id,
          numero: compra.numero,
          referencia_externa: ref,
          origem: pedido.origem,
          destino: pedido.destino,
          categoria: pedido.categoria,
          eixos: eixosDaCategoria(pedido.categoria),
          placa: pedido.placa,
          tipo: pedido.tipo,
          motorista: pedido.motorista,
          cte: pedido.cte,
          mdfe: pedido.mdfe,
          fornecedor: compra.fornecedor,
          pagador_cnpj: pagadorCnpj,
          distancia_km: roteiro.distancia_km,
          pracas: roteiro.pracas,
          ...valores,
        },
        documentos,
      },
      ctx,
    );
    if (r.events.length === 0) {
      if (ref && r.state.emitido && !mesmoPedido(r.state.emitido, pedido)) throw outroPedido(ref, r.state.emitido.numero);
      await this.leituraAposRepeticao(ctx, stream);
    }
    return { vale_pedagio_id: id, criado: r.events.length > 0 };
  }

  /** Cancels within the regulatory window and refunds toll + fee in full. */
  async cancelar(ctx: ContextoEmpresa, valePedagioId: string): Promise<void> {
    const stream = valePedagioStream(ctx.companyId, valePedagioId);
    const state = await load(this.deps.store, stream, valePedagioDecider);
    if (!state.emitido) throw new Rejection('nao_encontrado', `toll pass ${valePedagioId} not found`);
    try {
      const impedimento = impedimentoCancelamento(state, ctx.now);
      if (impedimento) throw impedimento;
      await this.deps.provedor.cancelar({ vale_pedagio_id: valePedagioId, numero: state.emitido.numero });
      await execute(
        this.deps,
        stream,
        valePedagioDecider,
        { type: 'Cancelar', company_id: ctx.companyId, vale_pedagio_id: valePedagioId },
        ctx,
      );
    } catch (err) {
      if (err instanceof Rejection && err.code === 'vale_pedagio_ja_cancelado') await this.estornar(ctx, valePedagioId, 'cancelamento');
      throw err;
    }
    await this.estornar(ctx, valePedagioId, 'cancelamento');
  }

  /** The supplier's report of a passage (sandbox: simulated on request). */
  async registrarPassagem(ctx: ContextoEmpresa, valePedagioId: string, pracaCodigo?: string): Promise<void> {
    const stream = valePedagioStream(ctx.companyId, valePedagioId);
    const state = await load(this.deps.store, stream, valePedagioDecider);
    const command = {
      type: 'RegistrarPassagem' as const,
      company_id: ctx.companyId,
      vale_pedagio_id: valePedagioId,
      praca_codigo: pracaCodigo,
    };
    // The toll pass's own refusals (404, 422) come before the supplier is asked; nothing left to pass asks nothing.
    const previstos = valePedagioDecider.decide(command, state, { now: ctx.now });
    const passagem = previstos[0];
    if (!passagem || passagem.type !== 'vale_pedagio.passagem_registrada' || !state.emitido) return;
    await this.deps.provedor.simularPassagem({
      vale_pedagio_id: valePedagioId,
      numero: state.emitido.numero,
      praca_codigo: passagem.data.praca_codigo,
    });
    await execute(this.deps, stream, valePedagioDecider, { ...command, praca_codigo: passagem.data.praca_codigo }, ctx);
  }

  /** A deposit: confirmed by the bank integration (sandbox: simulated), then credited; idempotent by `referencia`. */
  async creditar(ctx: ContextoEmpresa, deposito: { referencia: string; valor_centavos: number }): Promise<CreditoRegistrado> {
    await this.deps.depositos.confirmar({ company_id: ctx.companyId, ...deposito });
    const r = await execute(
      this.deps,
      contaOperacionalStream(ctx.companyId),
      contaOperacionalDecider,
      {
        type: 'Creditar',
        company_id: ctx.companyId,
        referencia: deposito.referencia,
        valor_centavos: deposito.valor_centavos,
        origem: this.deps.depositos.origem,
      },
      ctx,
    );
    const credito = r.state.creditos[deposito.referencia];
    if (!credito) throw new Error(`the ledger lacks the credit ${deposito.referencia}`);
    if (r.events.length === 0) await this.leituraAposRepeticao(ctx, contaOperacionalStream(ctx.companyId));
    // The answer is what the ledger recorded, in the read model's shape: it never waits for (or fails on) a projection.
    return {
      criado: r.events.length > 0,
      movimento: {
        sequencia: credito.sequencia,
        tipo: 'credito',
        valor_centavos: credito.valor_centavos,
        valor_pedagio_centavos: null,
        taxa_centavos: null,
        saldo_apos_centavos: credito.saldo_apos_centavos,
        referencia: deposito.referencia,
        origem_credito: credito.origem,
        vale_pedagio_id: null,
        motivo_estorno: null,
        registrado_em: new Date(credito.registrado_em),
      },
      saldo_centavos: r.state.saldo_centavos,
    };
  }

  /**
   * The company's own CT-e and MDF-e that the purchase's references name, by id or access key. A document made by this
   * company's previous request may not be in the read models yet: they are caught up with its writes first.
   */
  private async documentosReferidos(ctx: ContextoEmpresa, pedido: PedidoValePedagio): Promise<DocumentosReferidos> {
    if (pedido.cte === null && pedido.mdfe === null) return { cte: null, mdfe: null };
    await this.deps.readYourWrites?.waitFor(ctx.companyId);
    const { pool } = this.deps;
    const cte = pedido.cte === null ? null : await (UUID.test(pedido.cte) ? cteOf : cteByKey)(pool, ctx.companyId, pedido.cte);
    const mdfe = pedido.mdfe === null ? null : await (UUID.test(pedido.mdfe) ? mdfeOf : mdfeByKey)(pool, ctx.companyId, pedido.mdfe);
    return {
      cte: cte && { id: cte.cte_id, company_id: cte.company_id },
      mdfe: mdfe && { id: mdfe.mdfe_id, company_id: mdfe.company_id },
    };
  }

  /**
   * A repeated command appends nothing, but what it answers with may have been written an instant ago by a concurrent
   * request whose watermark is not recorded yet: record the stream's last position, so that the reads that follow
   * wait for it (read your writes).
   */
  private async leituraAposRepeticao(ctx: ContextoEmpresa, stream: string): Promise<void> {
    if (!this.deps.readYourWrites || ctx.requestId === null) return;
    const last = (await this.deps.store.readStream(stream)).at(-1);
    if (last) await recordRequestWrite(this.deps.readYourWrites, ctx, ctx.companyId, last.position);
  }

  private async estornar(ctx: ContextoEmpresa, valePedagioId: string, motivo: 'cancelamento' | 'compra_nao_concluida'): Promise<void> {
    await execute(
      this.deps,
      contaOperacionalStream(ctx.companyId),
      contaOperacionalDecider,
      {
        type: 'Estornar',
        company_id: ctx.companyId,
        vale_pedagio_id: valePedagioId,
        motivo,
      },
      ctx,
    );
  }
}
