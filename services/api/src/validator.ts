import { AjvCompiler } from '@fastify/ajv-compiler';

type BuildValidator = ReturnType<typeof AjvCompiler>;
type CompileRoute = ReturnType<BuildValidator>;
type RouteSchema = Parameters<CompileRoute>[0];
type Compiled = ReturnType<CompileRoute>;

/** What fastify reads of a validator besides calling it: Ajv's errors, and its root's environment. */
interface LazyValidator {
  (data: unknown, parent?: unknown): unknown;
  errors?: unknown;
  readonly schemaEnv?: unknown;
}

/**
 * Fastify's own validator compiler (`@fastify/ajv-compiler`, as fastify builds it, with the same Ajv options and shared
 * schemas), compiling a route part's schema the first time a request needs it instead of while the server starts.
 * Compiling every route's schemas at the start was about 0.9 s of CPU per API process (a fifth of a start), paid by
 * each deployment's start and by every test that starts one, for routes most processes never serve. A route part
 * compiles in milliseconds on its first request; `compileAll` compiles every one (a test proves they all compile).
 */
export class ValidationOnDemand {
  private readonly pending = new Set<() => unknown>();
  private readonly base = AjvCompiler();

  readonly buildValidator = (...args: Parameters<BuildValidator>): CompileRoute => {
    const compile = this.base(...args);
    return (route: RouteSchema) => this.lazy(() => compile(route));
  };

  private total = 0;

  /** Compiles what no request has compiled yet; how many route parts there are in all. */
  compileAll(): number {
    for (const compile of [...this.pending]) compile();
    return this.total;
  }

  private lazy(compile: () => Compiled): Compiled {
    let compiled: Compiled | null = null;
    const get = (): Compiled => {
      if (!compiled) {
        compiled = compile();
        this.pending.delete(get);
      }
      return compiled;
    };
    this.pending.add(get);
    this.total++;
    const validate: LazyValidator = function (this: unknown, data: unknown, parent?: unknown) {
      const fn = get() as unknown as LazyValidator;
      const result = parent === undefined ? fn.call(this, data) : fn.call(this, data, parent);
      validate.errors = fn.errors;
      return result;
    } as LazyValidator;
    // Fastify asks for `schemaEnv` before the call to pass the root's parent (so that Ajv may coerce the root itself).
    Object.defineProperty(validate, 'schemaEnv', { get: () => (get() as unknown as LazyValidator).schemaEnv });
    return validate as unknown as Compiled;
  }
}
