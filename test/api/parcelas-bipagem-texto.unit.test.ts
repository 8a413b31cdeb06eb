import { documentoOpenApi } from '@frete/api';

type Operacao = { operationId?: string; description?: string; responses: Record<string, { description?: string }> };

/**
 * Issue 28, point 7: the scan's own text said "422 `parcelas_nao_geradas` before the scan". The scan is what creates the
 * installments (spec section 3); only the acts after it (completion, accountability, release, payment) can come too early.
 */
describe('the driver-app acts in the OpenAPI document: what the scan does, and what comes before it', () => {
  let ops: Map<string, Operacao>;
  beforeAll(async () => {
    const doc = (await documentoOpenApi()) as { paths: Record<string, Record<string, Operacao>> };
    ops = new Map(
      Object.values(doc.paths)
        .flatMap((item) => Object.values(item))
        .map((o) => [o.operationId ?? '', o]),
    );
  });
  const texto = (id: string) => {
    const o = ops.get(id)!;
    return `${o.description} ${Object.values(o.responses)
      .map((r) => r.description ?? '')
      .join(' ')}`;
  };

  it('the scan creates the installments and never answers parcelas_nao_geradas', () => {
    expect(texto('informarBipagem')).not.toContain('parcelas_nao_geradas');
    expect(ops.get('informarBipagem')!.description).toMatch(/creates the installments/);
  });

  it('completion and accountability before the scan: 422 parcelas_nao_geradas', () => {
    for (const id of ['informarConclusao', 'informarPrestacaoContas']) {
      expect(ops.get(id)!.description).toContain('422 `parcelas_nao_geradas` when it comes before the scan');
      expect(ops.get(id)!.responses['422']!.description).toContain('parcelas_nao_geradas');
    }
  });
});
