import crypto from 'node:crypto';
import fs from 'node:fs';
import { type Kafka } from 'kafkajs';
import { type RecordedEvent, START } from '@frete/contracts';
import {
  createKafka,
  EVENT_ID_HEADER,
  EVENT_TYPE_HEADER,
  encodeEvent,
  ensureTopic,
  KafkaRelay,
  type Platform,
  SubscriptionCheckpoints,
} from '@frete/platform';
import { executar, imprimirResultado, type Medicao, medir, REPETICOES, resumo } from './comum';
import { dadosDeEvento, plataformaDeBench } from './event-store';

/**
 * The product's Kafka relay (`KafkaRelay`: follows the event store from its checkpoint, one event per send, the
 * checkpoint after each acknowledgement) moving N events already in the store (embedded PostgreSQL, as `startPlatform`
 * builds it) to a fresh topic, against the anchor measured in the same run on the same broker: the same events read
 * from the same store 500 at a time and sent with kafkajs as one `producer.send` of 500 messages each (same producer
 * settings, key, value and headers). Prints events/s of both, this process's CPU ms per event, and the ratio; target
 * (issue 14): relay ≥ 20,000 events/s. Needs a broker: without KAFKA_BROKERS it says so in its JSON line and exits 0.
 * BENCH_EVENTOS sets N (default 20,000); `pnpm bench:relay`.
 */
const EVENTOS = Number(process.env.BENCH_EVENTOS ?? 20_000);
const LOTE = 500;
const CONCORRENCIA = 8;

/** The store filled as the handlers fill it: streams of a few appends of 1–3 events, 8 appends at a time. */
async function encher(platform: Platform): Promise<void> {
  let feitos = 0;
  let proximo = 0;
  await Promise.all(
    Array.from({ length: CONCORRENCIA }, async () => {
      while (feitos < EVENTOS) {
        const s = proximo++;
        let revisao: bigint | 'no_stream' = 'no_stream';
        for (let k = 0; k < 4 && feitos < EVENTOS; k++) {
          const n = Math.min(1 + ((s + k) % 3), EVENTOS - feitos);
          feitos += n;
          const events = Array.from({ length: n }, (_, j) => ({
            id: crypto.randomUUID(),
            type: 'bench.registrado',
            schemaVersion: 1,
            data: dadosDeEvento(k * 3 + j),
            metadata: { company_id: null, correlation_id: crypto.randomUUID(), causation_id: null, request_id: null, actor: 'system' },
          }));
          revisao = (await platform.store.append(`relay-${s}`, events, revisao)).nextRevision;
        }
      }
    }),
  );
}

/** The relay from START to the store's head, on a topic of its own: until its checkpoint is the head. */
async function medirRelay(platform: Platform, kafka: Kafka, topico: string, rodada: number): Promise<Medicao> {
  const head = await platform.store.headPosition();
  const checkpoints = new SubscriptionCheckpoints(platform.pool);
  const checkpointName = `relay:bench:${rodada}`;
  const relay = new KafkaRelay(platform.store, platform.pool, kafka, { topic: topico, checkpointName });
  const m = await medir(async () => {
    await relay.start();
    for (;;) {
      const p = await checkpoints.get(checkpointName);
      if (p.commit === head.commit && p.prepare === head.prepare) break;
      await new Promise((res) => setTimeout(res, 20));
    }
  });
  await relay.stop();
  return m;
}

/** The anchor: the same events, read 500 at a time, each page one kafkajs send. */
async function medirKafkajs(platform: Platform, kafka: Kafka, topico: string): Promise<Medicao & { eventos: number }> {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false });
  let eventos = 0;
  const m = await medir(async () => {
    await producer.connect();
    let from = START;
    for (;;) {
      const pagina: RecordedEvent[] = await platform.store.readAll(from, LOTE);
      if (pagina.length === 0) break;
      await producer.send({
        topic: topico,
        acks: -1,
        messages: pagina.map((e) => ({
          key: e.streamId,
          value: encodeEvent(e),
          headers: { [EVENT_TYPE_HEADER]: e.type, [EVENT_ID_HEADER]: e.id },
        })),
      });
      eventos += pagina.length;
      from = pagina[pagina.length - 1]!.position;
    }
  });
  await producer.disconnect();
  return { ...m, eventos };
}

async function main(): Promise<void> {
  const brokers = process.env.KAFKA_BROKERS?.trim();
  if (!brokers) {
    imprimirResultado('relay', { omitido: 'KAFKA_BROKERS not set' });
    return;
  }
  const { platform, dataDir } = await plataformaDeBench('relay');
  // Quiet: the relay's ensureTopic on the topic made beforehand has kafkajs log an error (it then goes on); failures still throw.
  const kafka = createKafka({ brokers, clientId: 'bench-relay', logLevel: 'nothing' });
  try {
    await encher(platform);
    const total = (await platform.store.readAll(START, EVENTOS + 1)).length;
    if (total !== EVENTOS) throw new Error(`the store holds ${total} events, expected ${EVENTOS}`);
    const base = `bench-relay-${process.pid}-${Date.now()}`;
    const rodadas: { relay: number; kafkajs: number; cpuRelay: number; cpuKafkajs: number }[] = [];
    // Warm-up round (not counted): connections, the JIT, the broker's first segments.
    for (let r = -1; r < REPETICOES; r++) {
      // Fresh topics, created before the clock starts, with the relay's partitions (6): each side writes into the same
      // shape of topic and neither pays for creating it.
      const topicoRelay = `${base}-relay-${r + 1}`;
      const topicoKafkajs = `${base}-kafkajs-${r + 1}`;
      await ensureTopic(kafka, topicoRelay);
      await ensureTopic(kafka, topicoKafkajs);
      const rm = await medirRelay(platform, kafka, topicoRelay, r + 1);
      const k = await medirKafkajs(platform, kafka, topicoKafkajs);
      if (k.eventos !== EVENTOS) throw new Error(`kafkajs sent ${k.eventos} events, expected ${EVENTOS}`);
      const x = {
        relay: EVENTOS / (rm.ms / 1000),
        kafkajs: EVENTOS / (k.ms / 1000),
        // This process's CPU per event (the relay's includes its checkpoint queries; PostgreSQL's and the broker's are not counted).
        cpuRelay: rm.cpuMs / EVENTOS,
        cpuKafkajs: k.cpuMs / EVENTOS,
      };
      process.stdout.write(
        `${r < 0 ? 'warm-up' : `round ${r + 1}`}: relay ${x.relay.toFixed(0)} events/s (${(rm.ms / 1000).toFixed(1)} s, ` +
          `${x.cpuRelay.toFixed(3)} CPU ms/event) · kafkajs batches of ${LOTE} ${x.kafkajs.toFixed(0)} events/s ` +
          `(${(k.ms / 1000).toFixed(1)} s, ${x.cpuKafkajs.toFixed(3)} CPU ms/event)\n`,
      );
      if (r >= 0) rodadas.push(x);
    }
    imprimirResultado('relay', {
      eventos: EVENTOS,
      rodadas: REPETICOES,
      relay_eventos_por_s: resumo(
        rodadas.map((x) => x.relay),
        0,
      ),
      kafkajs_lotes_de_500_eventos_por_s: resumo(
        rodadas.map((x) => x.kafkajs),
        0,
      ),
      cpu_ms_por_evento: { relay: resumo(rodadas.map((x) => x.cpuRelay)), kafkajs: resumo(rodadas.map((x) => x.cpuKafkajs)) },
      razao_relay_sobre_kafkajs: resumo(
        rodadas.map((x) => x.relay / x.kafkajs),
        3,
      ),
      alvo_relay_eventos_por_s: 20_000,
    });
  } finally {
    await platform.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

executar(main);
