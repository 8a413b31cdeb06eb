import { type Scope } from '@frete/contracts';
import { type ApiResponse, type TestApp, type TestCarrier } from './app';
import { makeA1 } from './certificates';
import { rascunhoEmitivel } from './rascunho';

export { rascunhoEmitivel } from './rascunho';

/** The emitter's address of `emissora`: its UF is the CT-e's (cUF, the authorizer, a contingency switch). */
export const ENDERECO_SP = {
  logradouro: 'AVENIDA PAULISTA',
  numero: '1000',
  bairro: 'BELA VISTA',
  municipio: 'São Paulo',
  uf: 'SP',
  cep: '01310100',
};
export const ENDERECO_RJ = {
  logradouro: 'AVENIDA RIO BRANCO',
  numero: '1',
  bairro: 'CENTRO',
  municipio: 'Rio de Janeiro',
  uf: 'RJ',
  cep: '20090003',
};

/** A carrier ready to issue: fiscal configuration (series 1, in São Paulo unless told), an A1 certificate, and the SP→RJ tax rule. */
export async function emissora(
  app: Pick<TestApp, 'carrier'>,
  name = 'EMISSORA TRANSPORTES LTDA',
  scopes: Scope[] = ['fiscal'],
  endereco: typeof ENDERECO_SP = ENDERECO_SP,
  fiscalProduction = false,
): Promise<TestCarrier> {
  const c = await app.carrier({ name, scopes, fiscalProduction });
  const conf = await c.call('PUT', '/v1/fiscal/configuracao', {
    inscricao_estadual: '110042490114',
    regime_tributario: 3,
    rntrc: '12345678',
    serie_cte: 1,
    endereco,
  });
  if (conf.status !== 200) throw new Error(`configuracao: ${conf.text}`);
  const a1 = makeA1({ cnpj: c.cnpj, razao: name, password: 'senha-a1', cnpjIn: 'otherName' });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(a1.pfx)], { type: 'application/x-pkcs12' }), 'empresa.pfx');
  form.append('cert_pass', 'senha-a1');
  const cert = await c.call('POST', '/v1/fiscal/certificado', form);
  if (cert.status !== 201) throw new Error(`certificado: ${cert.text}`);
  const regra = await c.call('POST', '/v1/fiscal/regras-tributacao', {
    uf_origem: 'SP',
    uf_destino: 'RJ',
    icms: { cst: '00', aliquota: 12 },
  });
  if (regra.status !== 201) throw new Error(`regra: ${regra.text}`);
  return c;
}

/** Polls `POST path` until `done` (by default a 200): the emission processor works in the background. */
export async function pollUntil(
  c: TestCarrier,
  path: string,
  done: (r: ApiResponse) => boolean = (r) => r.status === 200,
): Promise<ApiResponse> {
  for (let i = 0; i < 100; i++) {
    const r = await c.call('POST', path);
    if (done(r)) return r;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`${path} did not reach the expected state`);
}

/** A draft of `c` issued and authorized; returns its id and key. */
export async function cteAutorizado(c: TestCarrier, observacoes?: string): Promise<{ id: string; chave: string }> {
  const d = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel(observacoes));
  const id = d.body.data.id as string;
  await c.call('POST', `/v1/fiscal/cte/${id}/emissao`);
  const r = await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`);
  if (r.body.data.situacao !== 'autorizado') throw new Error(`CT-e ${id} is ${r.body.data.situacao}`);
  return { id, chave: r.body.data.access_key as string };
}

/**
 * A draft of `c` issued inside a caller's trace (the issue request carries `traceparent`) and authorized: its id and
 * the answer.
 */
export async function cteAutorizadoNoTrace(c: TestCarrier, traceparent: string): Promise<{ id: string; emissao: ApiResponse }> {
  const d = await c.call('POST', '/v1/fiscal/cte', rascunhoEmitivel());
  if (d.status !== 201) throw new Error(`rascunho: ${d.text}`);
  const id = d.body.data.id as string;
  const emissao = await c.call('POST', `/v1/fiscal/cte/${id}/emissao`, undefined, { traceparent });
  if (emissao.status !== 202) throw new Error(`emissao: ${emissao.text}`);
  const r = await pollUntil(c, `/v1/fiscal/cte/${id}/consulta`);
  if (r.body.data.situacao !== 'autorizado') throw new Error(`CT-e ${id} is ${r.body.data.situacao}`);
  return { id, emissao };
}
