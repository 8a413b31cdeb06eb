import { type CommandContext } from '../commands/execute';
import { StateCache } from '../commands/state-cache';
import { type EventStore, type ReadYourWrites } from '@frete/platform';
import { type MotoristasState, type RepasseState } from '@frete/domain';
import { type ContraCteVinculo, type RecordedEvent } from '@frete/contracts';
import { type RailDePagamento } from '@frete/adapters';

/** What the payout processor needs from the platform. */
export interface PayoutDeps {
  store: EventStore;
  /** The processor's writes move the company's watermark, so that a GET right after sees them. */
  readYourWrites?: ReadYourWrites;
  clock: () => Date;
  rail: RailDePagamento;
  /** The driver groups this processor folded: a batch's registrations read only what is new in the group's stream. */
  grupos?: StateCache<RepasseState>;
  /** The companies' driver registries this processor folded: each registration reads only what changed since. */
  motoristas?: StateCache<MotoristasState>;
  /** A counter-CT-e's link as the emission in this process last saw it: the payout need not read the CT-e again. */
  vinculoConhecido?: (cteId: string) => ContraCteVinculo | null | undefined;
}

export const gruposEmCache = () => new StateCache<RepasseState>();
export const motoristasEmCache = () => new StateCache<MotoristasState>();

/** The processor acts for the company of the event it handles; the cause is that event. */
export const contextoDo = (deps: PayoutDeps, event: RecordedEvent, companyId: string): CommandContext => ({
  companyId,
  correlationId: event.metadata.correlation_id,
  causationId: event.id,
  requestId: null,
  actor: 'processor:payout',
  now: deps.clock(),
});
