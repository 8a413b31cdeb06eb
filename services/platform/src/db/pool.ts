import { Pool, types } from 'pg';
import { PreparedClient } from './prepared-client';

// numeric (positions are numeric(20)) and int8 come back as strings; callers convert with BigInt/Number.
types.setTypeParser(types.builtins.NUMERIC, (v) => v);

export function createPool(connectionString: string, max = 10): Pool {
  const pool = new Pool({ connectionString, max, application_name: 'frete-fiscal', Client: PreparedClient });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  // Nor may a checked-out one: node-postgres emits 'error' on it as well as failing its query, and the pool listens only
  // while the client is idle. The failing query tells its caller; the pool drops the broken client when it comes back.
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
