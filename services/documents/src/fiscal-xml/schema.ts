import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { hostilityOf } from '@frete/domain';

/**
 * XSD validation of fiscal documents against the official schema packages, by libxml2 (the validator the
 * authorities' own examples use) compiled to WebAssembly (`libxml2-wasm`).
 *
 * libxml2-wasm is an ES module that loads its WebAssembly at import, which a CommonJS host reaches only through a
 * dynamic `import()` (unavailable inside jest's module sandbox). It therefore runs in one long-lived worker thread
 * per `FiscalSchemas`, which imports it once, compiles each schema the first time it is asked for and keeps it:
 * compiling the CT-e package takes a few hundred milliseconds, validating a document then takes milliseconds. The
 * worker also keeps the validation off the event loop. Schemas are read from `schemas/` at the package root
 * (beside `src` and `dist`); libxml2 reads their includes from memory, and nothing else: an instance document
 * cannot make it open a file.
 *
 * Where a layout leaves content open (`xs:any processContents="skip"`: `infModal` holds the modal's XML,
 * `detEvento` the event's), that content is validated in a second pass against the schema of the element found
 * there (e.g. `rodo` in `infModal` against `cteModalRodoviario_v4.00.xsd`). An element there with no schema in the
 * package is an error.
 */

export const FISCAL_SCHEMAS_DIR = path.join(__dirname, '..', '..', 'schemas');

const CTE_NS = 'http://www.portalfiscal.inf.br/cte';
const MDFE_NS = 'http://www.portalfiscal.inf.br/mdfe';

interface Family {
  folder: string;
  namespace: string;
  /** For each open-content host element: the schema of each element it may hold. */
  open: Record<string, Record<string, string>>;
}

const CTE_4_00: Family = {
  folder: 'cte-4.00',
  namespace: CTE_NS,
  open: {
    infModal: {
      rodo: 'cteModalRodoviario_v4.00.xsd',
      rodoOS: 'cteModalRodoviarioOS_v4.00.xsd',
      aereo: 'cteModalAereo_v4.00.xsd',
      aquav: 'cteModalAquaviario_v4.00.xsd',
      ferrov: 'cteModalFerroviario_v4.00.xsd',
      duto: 'cteModalDutoviario_v4.00.xsd',
      multimodal: 'cteMultiModal_v4.00.xsd',
    },
    detEvento: {
      evCancCTe: 'evCancCTe_v4.00.xsd',
      evCCeCTe: 'evCCeCTe_v4.00.xsd',
      evCECTe: 'evCECTe_v4.00.xsd',
      evCancCECTe: 'evCancCECTe_v4.00.xsd',
      evIECTe: 'evIECTe_v4.00.xsd',
      evCancIECTe: 'evCancIECTe_v4.00.xsd',
      evEPECCTe: 'evEPECCTe_v4.00.xsd',
      evGTV: 'evGTV_v4.00.xsd',
      evPrestDesacordo: 'evPrestDesacordo_v4.00.xsd',
      evCancPrestDesacordo: 'evCancPrestDesacordo_v4.00.xsd',
      evRegMultimodal: 'evRegMultimodal_v4.00.xsd',
      evVincPgto: 'evVincPgto_v4.00.xsd',
      evCancVincPgto: 'evCancVincPgto_v4.00.xsd',
    },
  },
};

const MDFE_3_00: Family = {
  folder: 'mdfe-3.00',
  namespace: MDFE_NS,
  open: {
    infModal: {
      rodo: 'mdfeModalRodoviario_v3.00.xsd',
      aereo: 'mdfeModalAereo_v3.00.xsd',
      aquav: 'mdfeModalAquaviario_v3.00.xsd',
      ferrov: 'mdfeModalFerroviario_v3.00.xsd',
    },
    detEvento: {
      evCancMDFe: 'evCancMDFe_v3.00.xsd',
      evEncMDFe: 'evEncMDFe_v3.00.xsd',
      evIncCondutorMDFe: 'evIncCondutorMDFe_v3.00.xsd',
      evIncDFeMDFe: 'evInclusaoDFeMDFe_v3.00.xsd',
      evPagtoOperMDFe: 'evPagtoOperMDFe_v3.00.xsd',
      evConfirmaServMDFe: 'evConfirmaServMDFe_v3.00.xsd',
      evAlteracaoPagtoServMDFe: 'evAlteracaoPagtoServMDFe_v3.00.xsd',
    },
  },
};

/**
 * The national distribution services (Ambiente Nacional): CT-e `CTeDistribuicaoDFe` layout 1.00 and NF-e
 * `NFeDistribuicaoDFe` layout 1.01, each in its model's namespace and its own folder (their `tiposDistDFe` differ).
 */
const DIST_DFE_CTE: Family = { folder: 'dist-dfe-cte', namespace: CTE_NS, open: {} };
const DIST_DFE_NFE: Family = { folder: 'dist-dfe-nfe', namespace: 'http://www.portalfiscal.inf.br/nfe', open: {} };

/**
 * The root schemas a document can be validated against, by their official file names: the documents and events,
 * and the web services' requests and answers (the local authority server checks the requests it gets, its tests
 * the answers it gives).
 */
const ROOTS = {
  'cte_v4.00.xsd': CTE_4_00,
  'procCTe_v4.00.xsd': CTE_4_00,
  'eventoCTe_v4.00.xsd': CTE_4_00,
  'procEventoCTe_v4.00.xsd': CTE_4_00,
  'consSitCTe_v4.00.xsd': CTE_4_00,
  'consStatServCTe_v4.00.xsd': CTE_4_00,
  'retCTe_v4.00.xsd': CTE_4_00,
  'retConsSitCTe_v4.00.xsd': CTE_4_00,
  'retConsStatServCTe_v4.00.xsd': CTE_4_00,
  'retEventoCTe_v4.00.xsd': CTE_4_00,
  'mdfe_v3.00.xsd': MDFE_3_00,
  'procMDFe_v3.00.xsd': MDFE_3_00,
  'enviMDFe_v3.00.xsd': MDFE_3_00,
  'eventoMDFe_v3.00.xsd': MDFE_3_00,
  'procEventoMDFe_v3.00.xsd': MDFE_3_00,
  'consSitMDFe_v3.00.xsd': MDFE_3_00,
  'consStatServMDFe_v3.00.xsd': MDFE_3_00,
  'consMDFeNaoEnc_v3.00.xsd': MDFE_3_00,
  'retMDFe_v3.00.xsd': MDFE_3_00,
  'retConsSitMDFe_v3.00.xsd': MDFE_3_00,
  'retConsStatServMDFe_v3.00.xsd': MDFE_3_00,
  'retEventoMDFe_v3.00.xsd': MDFE_3_00,
  'retConsMDFeNaoEnc_v3.00.xsd': MDFE_3_00,
  'distDFeInt_v1.00.xsd': DIST_DFE_CTE,
  'retDistDFeInt_v1.00.xsd': DIST_DFE_CTE,
  'distDFeInt_v1.01.xsd': DIST_DFE_NFE,
  'retDistDFeInt_v1.01.xsd': DIST_DFE_NFE,
} as const satisfies Record<string, Family>;

export type FiscalRootSchema = keyof typeof ROOTS;
export const FISCAL_ROOT_SCHEMAS = Object.keys(ROOTS) as FiscalRootSchema[];

export interface FiscalSchemaError {
  /** Line in the validated document; 0 when the error concerns the whole document. */
  line: number;
  message: string;
  /** Element path in the document, e.g. `/CTe/infCte/emit/CRT`, when libxml2 tells the node. */
  path?: string;
  /** The schema file that reported it (the root's, or the modal's or event's in the second pass). */
  schema: string;
}

export interface FiscalSchemaValidation {
  valid: boolean;
  errors: FiscalSchemaError[];
}

export interface FiscalSchemasOptions {
  /** Folder holding `cte-4.00/`, `mdfe-3.00/`; defaults to the package's `schemas/`. */
  schemasDir?: string;
  /** Longest a validation may take, the first one's schema compilation included; the worker is restarted after. */
  timeoutMs?: number;
  /** Errors reported per document at most. */
  maxErrors?: number;
}

export class FiscalSchemaTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FiscalSchemaTimeout';
  }
}

interface ValidateRequest {
  id: number;
  xml?: string;
  root: string;
  folder: string;
  namespace: string;
  open: Record<string, Record<string, string>>;
  maxErrors: number;
}

type WorkerReply = { id: number; ok: true; result: FiscalSchemaValidation } | { id: number; ok: false; error: string };

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');

let lib = null;
let loading = null;
const schemaDocs = [];
const validators = new Map();

async function load() {
  lib = await import(workerData.libxml2Url);
  const files = {};
  for (const folder of fs.readdirSync(workerData.dir)) {
    const dir = path.join(workerData.dir, folder);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const name of fs.readdirSync(dir)) {
      if (name.endsWith('.xsd')) files[path.join(dir, name)] = new Uint8Array(fs.readFileSync(path.join(dir, name)));
    }
  }
  workerData.files = files;
  // Includes and imports are resolved against the schema's own path and served from memory, and only they.
  lib.xmlRegisterInputProvider(new lib.XmlBufferInputProvider(files));
}

function validatorOf(file) {
  let v = validators.get(file);
  if (!v) {
    const bytes = workerData.files[file];
    if (!bytes) throw new Error('no schema file ' + file);
    const doc = lib.XmlDocument.fromBuffer(bytes, { url: file });
    schemaDocs.push(doc); // kept: the compiled schema may point into it
    v = lib.XsdValidator.fromDoc(doc);
    validators.set(file, v);
  }
  return v;
}

function pathOf(doc, xpath) {
  if (!xpath) return undefined;
  try {
    let node = doc.get(xpath);
    if (!node || !(node instanceof lib.XmlElement)) return undefined;
    const names = [];
    for (; node; node = node.parent) names.unshift(node.name);
    return '/' + names.join('/');
  } catch {
    return undefined;
  }
}

const NS = /\\{([^}]*)\\}/g;
function tidy(message, namespace) {
  return message
    .replace(NS, (_, ns) => (ns === namespace ? '' : ns === 'http://www.w3.org/2000/09/xmldsig#' ? 'ds:' : '{' + ns + '}'))
    .replace(/\\s+$/, '');
}

function validate(req) {
  const errors = [];
  const push = (details, schema, doc) => {
    for (const d of details || []) {
      if (d.level !== undefined && d.level < 2) continue;
      if (errors.length >= req.maxErrors) return;
      const e = { line: d.line || 0, message: tidy(d.message || 'invalid', req.namespace), schema };
      const p = doc ? pathOf(doc, d.xpath) : undefined;
      if (p) e.path = p;
      errors.push(e);
    }
  };
  let doc;
  try {
    doc = lib.XmlDocument.fromString(req.xml, { option: lib.ParseOption.XML_PARSE_NONET | lib.ParseOption.XML_PARSE_NO_XXE });
  } catch (err) {
    if (err instanceof lib.XmlParseError) {
      push(err.details, req.root, null);
      if (errors.length === 0) errors.push({ line: 0, message: String(err.message).trim(), schema: req.root });
      return { valid: false, errors };
    }
    throw err;
  }
  try {
    const check = (file, target) => {
      try {
        validatorOf(file).validate(target);
      } catch (err) {
        if (!(err instanceof lib.XmlValidateError)) throw err;
        const schema = path.basename(file);
        push(err.details, schema, doc);
        if (!err.details || err.details.length === 0) errors.push({ line: target.line || 0, message: String(err.message).trim(), schema });
      }
    };
    const dir = path.join(workerData.dir, req.folder);
    check(path.join(dir, req.root), doc);
    for (const [host, schemas] of Object.entries(req.open)) {
      const hosts = doc.find("//*[local-name()='" + host + "' and namespace-uri()='" + req.namespace + "']");
      for (const hostEl of hosts) {
        let child = hostEl.firstChild;
        while (child && !(child instanceof lib.XmlElement)) child = child.next;
        if (!child) continue; // the root schema requires the content: its error is already there
        const file = child.namespaceUri === req.namespace ? schemas[child.name] : undefined;
        if (!file) {
          if (errors.length < req.maxErrors) {
            const names = [];
            for (let n = child; n; n = n.parent) names.unshift(n.name);
            errors.push({
              line: child.line || 0,
              message: "Element '" + child.name + "' in '" + host + "' has no schema in the package; expected one of " + Object.keys(schemas).join(', '),
              path: '/' + names.join('/'),
              schema: req.root,
            });
          }
          continue;
        }
        check(path.join(dir, file), child);
      }
    }
  } finally {
    doc.dispose();
  }
  return { valid: errors.length === 0, errors };
}

parentPort.on('message', async (req) => {
  try {
    if (!lib) await (loading ??= load());
    if (req.xml === undefined) {
      validatorOf(path.join(workerData.dir, req.folder, req.root));
      for (const schemas of Object.values(req.open)) for (const f of new Set(Object.values(schemas))) validatorOf(path.join(workerData.dir, req.folder, f));
      parentPort.postMessage({ id: req.id, ok: true, result: { valid: true, errors: [] } });
      return;
    }
    parentPort.postMessage({ id: req.id, ok: true, result: validate(req) });
  } catch (err) {
    parentPort.postMessage({ id: req.id, ok: false, error: String((err && err.message) || err) });
  }
});
`;

let libxml2Url: string | null = null;
const libxml2Location = () => (libxml2Url ??= pathToFileURL(require.resolve('libxml2-wasm')).href);

interface Pending {
  resolve: (result: FiscalSchemaValidation) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class FiscalSchemas {
  private readonly dir: string;
  private readonly timeoutMs: number;
  private readonly maxErrors: number;
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(options: FiscalSchemasOptions = {}) {
    this.dir = options.schemasDir ?? FISCAL_SCHEMAS_DIR;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxErrors = options.maxErrors ?? 50;
  }

  /** Validates `xml` against `root` (and its open content against the modal's or event's schema). */
  async validate(xml: string, root: FiscalRootSchema): Promise<FiscalSchemaValidation> {
    const family = familyOf(root);
    const hostile = hostilityOf(xml);
    if (hostile) return { valid: false, errors: [{ line: 0, message: `refused before parsing: ${hostile}`, schema: root }] };
    return this.send({ xml, root, folder: family.folder, namespace: family.namespace, open: family.open, maxErrors: this.maxErrors });
  }

  /** Compiles the schemas of `roots` (with their modal and event schemas) now, so the first documents wait for nothing. */
  async preload(roots: readonly FiscalRootSchema[] = FISCAL_ROOT_SCHEMAS): Promise<void> {
    for (const root of roots) {
      const family = familyOf(root);
      await this.send({ root, folder: family.folder, namespace: family.namespace, open: family.open, maxErrors: this.maxErrors });
    }
  }

  /** Stops the worker; pending validations are rejected. A later `validate` starts a new one. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll(new Error('FiscalSchemas closed'));
    if (worker) await worker.terminate();
  }

  private send(request: Omit<ValidateRequest, 'id'>): Promise<FiscalSchemaValidation> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<FiscalSchemaValidation>((resolve, reject) => {
      const timer = setTimeout(() => {
        // The worker is busy with this document and the ones queued behind it: start over.
        const stuck = this.worker;
        this.worker = null;
        this.failAll(new FiscalSchemaTimeout(`schema validation took longer than ${this.timeoutMs} ms`));
        void stuck?.terminate();
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      worker.ref();
      worker.postMessage({ ...request, id });
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    if (!fs.existsSync(path.join(this.dir, CTE_4_00.folder))) throw new Error(`the fiscal schemas are not in ${this.dir}`);
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { libxml2Url: libxml2Location(), dir: this.dir },
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      clearTimeout(pending.timer);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) pending.resolve(reply.result);
      else pending.reject(new Error(`schema validation failed: ${reply.error}`));
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.failAll(error);
    };
    worker.on('error', (error) => gone(new Error(`the schema validator stopped: ${error.message}`)));
    worker.on('exit', (code) => gone(new Error(`the schema validator stopped (exit ${code})`)));
    this.worker = worker;
    return worker;
  }

  private failAll(error: Error): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(id);
      pending.reject(error);
    }
  }
}

function familyOf(root: FiscalRootSchema): Family {
  const family = (ROOTS as Record<string, Family>)[root];
  if (!family) throw new Error(`no fiscal root schema ${root}`);
  return family;
}
