import { type RecordedEvent } from '@frete/contracts';
import { type EventHandler, HandlerProcessor, type SelectiveHandler } from '@frete/platform';

const event = (type: string, data: Record<string, unknown>): RecordedEvent => ({
  id: 'e',
  type,
  schemaVersion: 1,
  data,
  metadata: { company_id: null, correlation_id: 'c', causation_id: null, request_id: null, actor: 'test' },
  streamId: 's',
  revision: 0n,
  position: { commit: 1n, prepare: 1n },
  recordedAt: new Date(0),
});

describe('HandlerProcessor', () => {
  it('handles its types; a selective handler says by the data which events it needs, a plain one needs them all', async () => {
    const seen: string[] = [];
    const processor = new HandlerProcessor(
      'p',
      new Map<string, EventHandler | SelectiveHandler>([
        ['a.feito', async (e: RecordedEvent) => void seen.push(`a:${String((e.data as { n: number }).n)}`)],
        [
          'b.feito',
          {
            needs: (e: RecordedEvent) => (e.data as { n: number }).n === 2,
            handle: async (e: RecordedEvent) => void seen.push(`b:${String((e.data as { n: number }).n)}`),
          },
        ],
      ]),
    );
    expect([processor.handles('a.feito'), processor.handles('b.feito'), processor.handles('c.feito')]).toEqual([true, true, false]);
    expect(processor.needs(event('a.feito', { n: 1 }))).toBe(true);
    expect(processor.needs(event('b.feito', { n: 1 }))).toBe(false);
    expect(processor.needs(event('b.feito', { n: 2 }))).toBe(true);
    await processor.handle(event('b.feito', { n: 2 }));
    await processor.handle(event('a.feito', { n: 1 }));
    expect(seen).toEqual(['b:2', 'a:1']);
  });

  it("keys an event by its handler's keyOf when it has one, by its stream otherwise", () => {
    const processor = new HandlerProcessor(
      'p',
      new Map<string, EventHandler | SelectiveHandler>([
        ['a.feito', async () => undefined],
        [
          'b.feito',
          { needs: () => true, handle: async () => undefined, keyOf: (e: RecordedEvent) => `linha-${String((e.data as { n: number }).n)}` },
        ],
      ]),
    );
    expect(processor.keyOf(event('a.feito', { n: 1 }))).toBe('s');
    expect(processor.keyOf(event('b.feito', { n: 7 }))).toBe('linha-7');
  });
});
