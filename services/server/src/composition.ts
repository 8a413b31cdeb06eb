import 'reflect-metadata';
import { container, type DependencyContainer } from 'tsyringe';
import { type ApiDeps } from '@frete/api';
import { type Platform, type Processor, type Readiness } from '@frete/platform';
import { type Application } from '@frete/application';
import { SessoesConsole } from '@frete/console';
import { type RailDePagamento, railInterno } from '@frete/adapters';
import { emissionHandlers, emissionProcessor } from '@frete/emission-processor';
import { payoutHandlers, payoutProcessor } from '@frete/payout-processor';
import { webhooksProcessor } from '@frete/webhooks-processor';
import { distribuicaoProcessor } from '@frete/distribuicao-processor';

export const TOKENS = {
  Platform: Symbol('Platform'),
  Application: Symbol('Application'),
  ApiDeps: Symbol('ApiDeps'),
  Processors: Symbol('Processors'),
  Ready: Symbol('Ready'),
  Readiness: Symbol('Readiness'),
} as const;

/** The composition root: what each service needs, made from the one platform and application of this process. */
export function compose(
  platform: Platform,
  application: Application,
  ready: () => boolean,
  readiness: () => Promise<Readiness>,
  rail: RailDePagamento = railInterno,
): DependencyContainer {
  const c = container.createChildContainer();
  c.register<Platform>(TOKENS.Platform, { useValue: platform });
  c.register<Application>(TOKENS.Application, { useValue: application });
  c.register<() => boolean>(TOKENS.Ready, { useValue: ready });
  c.register<() => Promise<Readiness>>(TOKENS.Readiness, { useValue: readiness });
  c.register<ApiDeps>(TOKENS.ApiDeps, {
    useFactory: (r) => {
      const p = r.resolve<Platform>(TOKENS.Platform);
      const a = r.resolve<Application>(TOKENS.Application);
      return {
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
        sessoes: new SessoesConsole(p.pool, p.clock),
        metrics: p.metrics,
        ready: r.resolve<() => boolean>(TOKENS.Ready),
        readiness: r.resolve<() => Promise<Readiness>>(TOKENS.Readiness),
      };
    },
  });
  c.register<Processor[]>(TOKENS.Processors, {
    useFactory: (r) => {
      const p = r.resolve<Platform>(TOKENS.Platform);
      const a = r.resolve<Application>(TOKENS.Application);
      return [
        emissionProcessor(emissionHandlers(a.emissorCte, a.emissorMdfe, a.contraCte, a.lote, a.ciot)),
        payoutProcessor(
          payoutHandlers({
            store: p.store,
            readYourWrites: p.readYourWrites,
            clock: p.clock,
            rail,
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
      ];
    },
  });
  return c;
}
