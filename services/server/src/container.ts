import 'reflect-metadata';
import { container, type DependencyContainer } from 'tsyringe';
import { type ApiDeps } from '@frete/api';
import { type Platform, ProcessadorLote, type Processor } from '@frete/platform';
import { emissionHandlers, emissionProcessor } from '@frete/emission-processor';
import { payoutHandlers, payoutProcessor, railInterno } from '@frete/payout-processor';

export const TOKENS = {
  Platform: Symbol('Platform'),
  ApiDeps: Symbol('ApiDeps'),
  Processors: Symbol('Processors'),
  Ready: Symbol('Ready'),
} as const;

/** The composition root: what each service needs, made from the one platform of this process. */
export function compose(platform: Platform, ready: () => boolean): DependencyContainer {
  const c = container.createChildContainer();
  c.register<Platform>(TOKENS.Platform, { useValue: platform });
  c.register<() => boolean>(TOKENS.Ready, { useValue: ready });
  c.register<ApiDeps>(TOKENS.ApiDeps, {
    useFactory: (r) => {
      const p = r.resolve<Platform>(TOKENS.Platform);
      return {
        config: p.config,
        pool: p.pool,
        store: p.store,
        readYourWrites: p.readYourWrites,
        authenticator: p.authenticator,
        tokens: p.tokens,
        certificates: p.certificates,
        documents: p.documents,
        emissorCte: p.emissorCte,
        emissorMdfe: p.emissorMdfe,
        eventosCte: p.eventosCte,
        ciot: p.ciot,
        valePedagio: p.valePedagio,
        contraCte: p.contraCte,
        schemas: p.schemas,
        regulador: p.regulador,
        diretorioPix: p.diretorioPix,
        clock: p.clock,
        ready: r.resolve<() => boolean>(TOKENS.Ready),
      };
    },
  });
  c.register<Processor[]>(TOKENS.Processors, {
    useFactory: (r) => {
      const p = r.resolve<Platform>(TOKENS.Platform);
      return [emissionProcessor(emissionHandlers(p.emissorCte, p.emissorMdfe, p.contraCte,
        new ProcessadorLote({ store: p.store, contraCte: p.contraCte, clock: p.clock, readYourWrites: p.readYourWrites }), p.ciot)), payoutProcessor(payoutHandlers({ store: p.store, readYourWrites: p.readYourWrites, clock: p.clock, rail: railInterno }))];
    },
  });
  return c;
}
