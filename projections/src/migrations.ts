import path from 'node:path';

/** Read-model migrations (schema `rm`); their bookkeeping table lives in `rm` too, so dropping it resets all. */
export const readModelMigrations = {
  dir: path.join(__dirname, '..', 'migrations'),
  table: 'pgmigrations_rm',
  schema: 'rm',
};
