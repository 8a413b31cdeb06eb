import { type ApiResponse, request, type TestApp } from './app';

/** GETs as an audit credential of the company `cnpj` (an API key of scope auditoria, as the operator issues it). */
export async function auditorDe(app: TestApp, cnpj: string): Promise<(path: string) => Promise<ApiResponse>> {
  const chave = (await app.running.application.operator.createCredential({ company: cnpj, kind: 'api-key', scopes: ['auditoria'] })) as {
    api_key: string;
  };
  return (path) => request(`${app.url}${path}`, 'GET', undefined, { authorization: `Bearer ${chave.api_key}` });
}
