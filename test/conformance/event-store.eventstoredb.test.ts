import { EventStoreDbEventStore } from '@frete/platform';
import { eventStoreConformance } from './event-store.suite';

/**
 * EventStoreDB cannot run on the project's machines; this suite runs whenever EVENTSTORE_URL points at one
 * (e.g. `esdb://localhost:2113?tls=false`) and is reported as skipped otherwise.
 */
const url = process.env.EVENTSTORE_URL;
if (url) {
  eventStoreConformance('EventStoreDB', async () => {
    const store = EventStoreDbEventStore.connect(url);
    return { store, cleanup: () => store.close() };
  });
} else {
  describe('event store conformance: EventStoreDB', () => {
    it.skip('skipped: EVENTSTORE_URL is not set (EventStoreDB cannot run on this machine)', () => undefined);
  });
}
