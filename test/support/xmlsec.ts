import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Independent checks of what the service produces, by other implementations than the ones it uses: `xmlsec1`
 * (Debian `xmlsec1`, libxmlsec1 with OpenSSL) verifies XML-DSig signatures, `xmllint` (Debian `libxml2-utils`,
 * the native libxml2) validates against XSD. Both are installed by `.ci/run`; on a machine without them the checks
 * are skipped, except when `REQUIRE_XML_TOOLS` is set (.ci/run sets it), where a missing tool fails the suite instead of hiding the check.
 */

const has = (tool: string): boolean => spawnSync(tool, ['--version'], { encoding: 'utf8' }).status === 0;

export const XMLSEC1 = has('xmlsec1');
export const XMLLINT = has('xmllint');

/** Throws in CI when a tool is missing; tells whether to run the check elsewhere. */
export function requireTool(present: boolean, tool: string, debianPackage: string): boolean {
  if (!present && process.env.REQUIRE_XML_TOOLS)
    throw new Error(`${tool} is required (REQUIRE_XML_TOOLS) (apt-get install -y ${debianPackage})`);
  return present;
}

export interface ToolResult {
  ok: boolean;
  output: string;
}

function withFiles<T>(files: Record<string, string>, run: (dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'frete-xml-'));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
    return run(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `xmlsec1 --verify --id-attr:Id <element> --trusted-pem <trusted> doc.xml`: the signature's reference is resolved
 * by the `Id` attribute of `element`, the key is the certificate in KeyInfo, which must chain to `trustedPem`.
 */
export function xmlsecVerify(xml: string, o: { element: string; trustedPem: string }): ToolResult {
  return withFiles({ 'doc.xml': xml, 'trusted.pem': o.trustedPem }, (dir) => {
    const r = spawnSync(
      'xmlsec1',
      ['--verify', '--id-attr:Id', o.element, '--trusted-pem', path.join(dir, 'trusted.pem'), path.join(dir, 'doc.xml')],
      {
        encoding: 'utf8',
      },
    );
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  });
}

/** `xmllint --noout --schema <schema> doc.xml` (the schema's includes are read beside it). */
export function xmllintValidate(xml: string, schemaPath: string): ToolResult {
  return withFiles({ 'doc.xml': xml }, (dir) => {
    const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', schemaPath, path.join(dir, 'doc.xml')], { encoding: 'utf8' });
    return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
  });
}

const SCHEMAS = path.join(__dirname, '..', '..', 'services', 'documents', 'schemas');

/**
 * What the issue asks of every emitted document, checked by tools other than the ones that made it: the official
 * schema by xmllint and the signature by xmlsec1 (trusting the test CA). Skipped, or failing under
 * REQUIRE_XML_TOOLS, when the tools are missing.
 */
export function expectIndependentlyValid(xml: string, o: { schema: string; element: string; trustedPem: string }): void {
  if (requireTool(XMLLINT, 'xmllint', 'libxml2-utils')) {
    expect(xmllintValidate(xml, path.join(SCHEMAS, o.schema))).toMatchObject({ ok: true });
  }
  if (requireTool(XMLSEC1, 'xmlsec1', 'xmlsec1')) {
    expect(xmlsecVerify(xml, { element: o.element, trustedPem: o.trustedPem })).toMatchObject({ ok: true });
  }
}

const EVENTOS = {
  cte: { dir: 'cte-4.00', proc: 'procEventoCTe_v4.00.xsd', versao: 'v4.00', ns: 'http://www.portalfiscal.inf.br/cte' },
  mdfe: { dir: 'mdfe-3.00', proc: 'procEventoMDFe_v3.00.xsd', versao: 'v3.00', ns: 'http://www.portalfiscal.inf.br/mdfe' },
} as const;

/**
 * A fiscal event's proc checked independently. The event schema leaves `detEvento`'s content open (xs:any, lax), so
 * the detail element (evCCeCTe, evEncMDFe...) is lifted out and validated against its own schema as a second
 * document, as the authority does.
 */
export function expectEventIndependentlyValid(proc: string, o: { family: keyof typeof EVENTOS; trustedPem: string }): void {
  const f = EVENTOS[o.family];
  expectIndependentlyValid(proc, { schema: `${f.dir}/${f.proc}`, element: 'infEvento', trustedPem: o.trustedPem });
  const det = /<detEvento[^>]*>\s*<(ev[A-Za-z]+)([^>]*)>([\s\S]*?)<\/\1>\s*<\/detEvento>/.exec(proc);
  expect(det).not.toBeNull();
  const [, name, attrs, body] = det!;
  const detalhe = `<${name} xmlns="${f.ns}"${attrs!.replace(/\s+xmlns="[^"]*"/, '')}>${body}</${name}>`;
  const schema = name === 'evIncDFeMDFe' ? 'evInclusaoDFeMDFe' : name;
  if (requireTool(XMLLINT, 'xmllint', 'libxml2-utils')) {
    expect(xmllintValidate(detalhe, path.join(SCHEMAS, f.dir, `${schema}_${f.versao}.xsd`))).toMatchObject({ ok: true });
  }
}
