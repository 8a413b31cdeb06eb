import { type ApiDeps } from '@frete/api';
import { type Platform, type Processor, type Readiness } from '@frete/platform';
import { type Application } from '@frete/application';
import { type ConsoleDeps, SessoesConsole } from '@frete/console';
import { emissionHandlers, emissionProcessor } from '@frete/emission-processor';
import { payoutHandlers, payoutProcessor } from '@frete/payout-processor';
import { webhooksProcessor } from '@frete/webhooks-processor';
import { distribuicaoProcessor } from '@frete/distribuicao-processor';

/** What each service of this process is given. */
export interface Composition {
  api: ApiDeps;
  /** The company panel, served under /console by the API's HTTP server. */
  console: ConsoleDeps;
  /** Every processor; the configuration says which of them run here. */
  processors: Processor[];
}

/**
 * The composition root: what each service needs, made from the one platform and application of this process (whose
 * outside parties `adaptadoresDe` chose). Plain functions and objects: nothing here is looked up at run time.
 */
export function compose(
  platform: Platform,
  application: Application,
  ready: () => boolean,
  readiness: () => Promise<Readiness>,
): Composition {
  const p = platform;
  const a = application;
  return {
    api: {
      handlers: a.handlers,
      config: p.config,
      pool: p.readPool,
      readYourWrites: p.readYourWrites,
      authenticator: p.authenticator,
      tokens: p.tokens,
      documents: p.documents,
      idempotency: p.idempotency,
      emissorCte: a.emissorCte,
      statusAutoridade: a.statusAutoridade,
      ciot: a.ciot,
      schemas: a.schemas,
      regulador: a.regulador,
      diretorioPix: a.diretorioPix,
      auditoria: a.auditoria,
      clock: p.clock,
      metrics: p.metrics,
      ready,
      readiness,
    },
    console: {
      handlers: a.handlers,
      config: p.config,
      pool: p.readPool,
      readYourWrites: p.readYourWrites,
      documents: p.documents,
      // Sessions are written (opened, renewed, closed) on the primary, not the read pool.
      sessoes: new SessoesConsole(p.pool, p.clock),
      auditoria: a.auditoria,
      clock: p.clock,
    },
    processors: [
      emissionProcessor(emissionHandlers(a.emissorCte, a.emissorMdfe, a.contraCte, a.lote, a.ciot)),
      payoutProcessor(
        payoutHandlers({
          store: p.store,
          readYourWrites: p.readYourWrites,
          clock: p.clock,
          rail: a.rail,
          vinculoConhecido: (id) => a.emissorCte.vinculoConhecido(id),
        }),
      ),
      webhooksProcessor({
        pool: p.pool,
        entregas: a.webhooks.entregas,
        environment: p.config.environment,
        publicUrl: p.config.publicUrl,
        inscritos: p.readModelCache<string[]>({ aggregates: ['webhook'] }),
      }),
      distribuicaoProcessor(a.distribuicao.processador),
    ],
  };
}
