import { BLOQUEIOS_CONTRA_CTE, CODIGOS_LINHA_LOTE, type CteLido, ehCodigoLinhaLote, ErrorCodes } from '@frete/contracts';
import { documentoOpenApi } from '@frete/api';
import {
  planejarContraCte,
  readCte,
  Rejection,
  recusaDoBloqueio,
  chaveSubcontratadaDecider,
  type ChaveSubcontratadaState,
} from '@frete/domain';
import { buildCteXml } from '../support/cte-xml';
import { PEDIDO_CONTRA_CTE } from '../../domain/test/lote-planejado';

type Schema = { anyOf?: Schema[]; const?: string; enum?: string[]; properties?: Record<string, Schema>; $ref?: string };

/** The values a string schema admits, whether written as `enum` or as `anyOf` of constants. */
const valores = (s: Schema): string[] => s.enum ?? (s.anyOf ?? []).flatMap((x) => (x.const !== undefined ? [x.const] : valores(x)));

/**
 * Issue 28: a batch row ended with `validacao`, a code the OpenAPI document did not list. The row codes are one list
 * (`CODIGOS_LINHA_LOTE`): the report's schema is made of it and the code that fails a row is typed by it; this checks
 * the document against the list and the deciders' refusals against the document.
 */
describe('batch row codes: one list, in the OpenAPI document', () => {
  let codigosDoDocumento: string[];
  beforeAll(async () => {
    const doc = (await documentoOpenApi()) as { components: { schemas: Record<string, Schema> } };
    const linha = doc.components.schemas.LinhaLote!;
    codigosDoDocumento = valores(linha.properties!.error!.properties!.code!);
  });

  it("the report's row schema lists exactly the list, each an error code of the API (the single counter-CT-e answers them)", () => {
    expect([...codigosDoDocumento].sort()).toEqual([...CODIGOS_LINHA_LOTE].sort());
    for (const c of CODIGOS_LINHA_LOTE) expect(ErrorCodes).toHaveProperty(c);
    expect(codigosDoDocumento).not.toContain('validacao');
  });

  it("every refusal the plan and the key's decider can give a row is in the document", () => {
    const produzidos = new Set<string>();
    const contratante = '11222333000181';
    const sub = { cnpj: '45723174000110', uf: 'SP', environment: 'homologacao' as const };
    const pedido = PEDIDO_CONTRA_CTE;
    const regras = [{ uf_origem: 'SP', uf_destino: 'RJ', tp_serv: null, cfop: null }];
    const cte = (o: Partial<Parameters<typeof buildCteXml>[0]> = {}): CteLido =>
      readCte(buildCteXml({ emitenteCnpj: contratante, ...o }).xml);
    const campinas = { codigo_ibge: '3509502', municipio: 'Campinas', uf: 'SP' };
    for (const [original, p, r] of [
      [cte({ emitenteCnpj: sub.cnpj }), pedido, regras],
      [cte({ tpServ: 4 }), pedido, regras],
      [cte({ fim: { codigoIbge: '2408003', municipio: 'MOSSORO', uf: 'RJ' } }), pedido, regras],
      [cte(), { ...pedido, tipo_servico: 2 as const }, regras],
      [cte(), pedido, []],
      [cte(), { ...pedido, tipo_servico: 2 as const, origem: campinas, destino: campinas }, regras],
    ] as const) {
      const plano = planejarContraCte(original, sub, p, r);
      if (!plano.ok) produzidos.add(plano.code);
    }
    for (const b of BLOQUEIOS_CONTRA_CTE) produzidos.add(recusaDoBloqueio(b, '1'.repeat(44)).code);

    const reservar = (modo: '1a1' | 'pernas', cte_id: string, fim = 'B') =>
      ({ type: 'ReservarSubcontratacao', company_id: 'c', chave: 'k', modo, cte_id, inicio_ibge: 'A', fim_ibge: fim }) as const;
    const ativo = (modo: '1a1' | 'pernas', cte_id: string): ChaveSubcontratadaState => ({
      ativos: [{ cte_id, modo, inicio_ibge: 'A', fim_ibge: 'B' }],
      paga: false,
    });
    for (const [comando, estado] of [
      [reservar('1a1', 'y'), ativo('pernas', 'x')],
      [reservar('pernas', 'y', 'C'), ativo('1a1', 'x')],
      [reservar('pernas', 'y', 'C'), { ativos: [], paga: true } as ChaveSubcontratadaState],
    ] as const) {
      try {
        chaveSubcontratadaDecider.decide(comando, estado, { now: new Date() } as never);
      } catch (e) {
        if (!(e instanceof Rejection)) throw e;
        produzidos.add(e.code);
      }
    }
    expect(produzidos.size).toBeGreaterThanOrEqual(8);
    for (const code of produzidos) {
      expect(ehCodigoLinhaLote(code)).toBe(true);
      expect(codigosDoDocumento).toContain(code);
    }
  });
});
