/**
 * The middle tier of tests (issue 31 point 4): handler, processor and workflow specifications that run in
 * `pnpm test:unit` on the in-memory event store, without PostgreSQL. See CONTRIBUTING.md, "Tests".
 */
export * from './historia';
export * from './handler';
export * from './processador';
export * from './fluxo';
