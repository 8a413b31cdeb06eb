import { type RecordedEvent } from '@frete/contracts';
import { EventDecodeError, decodeEvent, encodeEvent } from '@frete/platform';

// The wire format needs no broker: this file runs with or without Kafka.
describe('bus codec', () => {
  const event: RecordedEvent = {
    id: '0b7e2a4c-1f7d-4c1e-9a53-3f0a2b9e6d11',
    type: 'cte.emitted',
    schemaVersion: 2,
    data: { cents: 123456, nested: { list: [1, 'two', null, true] }, text: 'São Paulo — ação' },
    metadata: { company_id: 'c-1', correlation_id: 'corr-1', causation_id: null, request_id: null, actor: 'system' },
    streamId: 'cte-42',
    revision: 9007199254740993n, // beyond Number.MAX_SAFE_INTEGER
    position: { commit: 18446744073709551615n, prepare: 1234567890123456789n },
    recordedAt: new Date('2025-03-04T05:06:07.891Z'),
  };

  it('round-trips a recorded event exactly, bigints and Date included', () => {
    const decoded = decodeEvent(encodeEvent(event));
    expect(decoded).toEqual(event);
    expect(decoded.recordedAt).toBeInstanceOf(Date);
    expect(decoded.recordedAt.getTime()).toBe(event.recordedAt.getTime());
    expect(typeof decoded.revision).toBe('bigint');
    expect(decoded.position.commit).toBe(18446744073709551615n);
  });

  it('writes bigints as decimal strings', () => {
    const wire = JSON.parse(encodeEvent(event).toString('utf8'));
    expect(wire.revision).toBe('9007199254740993');
    expect(wire.position).toEqual({ commit: '18446744073709551615', prepare: '1234567890123456789' });
    expect(wire.recordedAt).toBe('2025-03-04T05:06:07.891Z');
  });

  it('refuses what is not an event', () => {
    expect(() => decodeEvent(Buffer.from('not json'))).toThrow(EventDecodeError);
    expect(() => decodeEvent('{"v":2}')).toThrow(EventDecodeError);
    const wire = JSON.parse(encodeEvent(event).toString('utf8'));
    expect(() => decodeEvent(JSON.stringify({ ...wire, revision: 12 }))).toThrow(/revision/);
    expect(() => decodeEvent(JSON.stringify({ ...wire, recordedAt: 'yesterday' }))).toThrow(/recordedAt/);
  });
});
