import { type IncomingMessage } from 'node:http';

/** The largest request body a service takes (a real authority's limit is of this order); more is 413. */
export const LIMITE_CORPO = 2 * 1024 * 1024;
/**
 * How much of a refused body the server still reads and throws away before answering: closing a connection the
 * client is still writing to resets it, and a reset makes the client lose the answer (the 413 it should read).
 * Past this the connection is closed anyway.
 */
export const LIMITE_DESCARTE = 4 * LIMITE_CORPO;

export type Corpo = { tipo: 'lido'; bytes: Buffer } | { tipo: 'grande_demais'; descartado: boolean };

/**
 * Reads the body up to `limite` bytes. Past it the rest is read and discarded (up to `LIMITE_DESCARTE`), so that the
 * answer reaches the client; `descartado` false means the client went on past that too and must be cut off.
 */
export function lerCorpo(req: IncomingMessage, limite: number): Promise<Corpo> {
  return new Promise((resolve, reject) => {
    const declarado = Number(req.headers['content-length']);
    if (Number.isFinite(declarado) && declarado > LIMITE_DESCARTE) {
      resolve({ tipo: 'grande_demais', descartado: false });
      return;
    }
    const partes: Buffer[] = [];
    let total = 0;
    let grande = Number.isFinite(declarado) && declarado > limite;
    const parar = (corpo: Corpo) => {
      req.removeAllListeners('data');
      req.removeAllListeners('end');
      req.pause();
      resolve(corpo);
    };
    req.on('data', (parte: Buffer) => {
      total += parte.length;
      if (total > LIMITE_DESCARTE) return parar({ tipo: 'grande_demais', descartado: false });
      if (total > limite) grande = true;
      if (grande) partes.length = 0;
      else partes.push(parte);
    });
    req.on('end', () => resolve(grande ? { tipo: 'grande_demais', descartado: true } : { tipo: 'lido', bytes: Buffer.concat(partes) }));
    req.on('error', reject);
  });
}

/** Reads and throws away a body the server will not process (up to `LIMITE_DESCARTE`); false when it is longer. */
export async function descartarCorpo(req: IncomingMessage): Promise<boolean> {
  if (req.complete) return true;
  const corpo = await lerCorpo(req, 0);
  return corpo.tipo === 'lido' || corpo.descartado;
}
