import { randomUUID } from 'node:crypto';
import {
  type DadosEventoMdfe,
  type FieldError,
  type MdfeDados,
  type MdfeInput,
  type TipoEventoMdfe,
  type VeiculoMdfe,
} from '@frete/contracts';
import {
  cpfsDosCondutores,
  gruposAnttDoMdfe,
  type CteDoMdfeComInicio,
  cteDoMdfe,
  exigirCondutorNovo,
  type MdfeCommand,
  mdfeDecider,
  mdfeStream,
  normalizePlaca,
  Rejection,
  rotaDoMdfe,
  veiculoDoMdfe,
} from '@frete/domain';
import { type ReadYourWrites } from '@frete/platform';
import { cteOf, mdfesAtivosDoCte, motoristaPorCpf, veiculoPorPlaca } from '@frete/projections';
import { load, type ContextoEmpresa } from '../commands/execute';
import { handles } from '../commands/handles';
import { type DocumentoHandlerDeps, pedidoDeEmissao } from '../emissao/handler';
import { MDFE_EMITIDO } from '../emissao/documentos/mdfe';
import { type EmissorMdfe, type ResultadoEventoMdfe } from './emissor';

export interface MdfeHandlerDeps extends DocumentoHandlerDeps {
  readYourWrites: ReadYourWrites;
  emissor: EmissorMdfe;
}

type Ctx = ContextoEmpresa;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The carrier's MDF-e: creation, issue and its polling, events. */
export const mdfeHandler = (deps: MdfeHandlerDeps) => {
  const run = handles(deps, mdfeDecider, (c: MdfeCommand) => mdfeStream('mdfe_id' in c ? c.mdfe_id : c.data.mdfe_id));
  const estado = (id: string) => load(deps.store, mdfeStream(id), mdfeDecider);
  const emissao = pedidoDeEmissao(deps, MDFE_EMITIDO, deps.emissor);
  /** The CT-e carried: own, authorized, and in no MDF-e still in force. */
  const ctesDoMdfe = async (companyId: string, ids: readonly string[]): Promise<CteDoMdfeComInicio[]> => {
    const ctes: CteDoMdfeComInicio[] = [];
    const bad: FieldError[] = [];
    for (const [i, id] of ids.entries()) {
      const row = UUID.test(id) ? await cteOf(deps.pool, companyId, id.toLowerCase()) : null;
      if (!row || row.situacao !== 'autorizado' || !row.cte || !row.chave) {
        bad.push({ field: `ctes.${i}`, message: row ? `the CT-e is ${row.situacao}, not authorized` : 'not an own CT-e' });
        continue;
      }
      const ativos = await mdfesAtivosDoCte(deps.pool, companyId, row.cte_id);
      if (ativos.length > 0) {
        throw new Rejection('regra_de_negocio', `CT-e ${row.chave} is already in MDF-e ${ativos[0]!.mdfe_id}, not closed nor cancelled`, {
          fields: [{ field: `ctes.${i}`, message: 'already in an MDF-e in force' }],
          mdfe_id: ativos[0]!.mdfe_id,
        });
      }
      ctes.push(cteDoMdfe(row.cte_id, row.chave, row.cte));
    }
    if (bad.length > 0)
      throw new Rejection(
        'cte_nao_autorizado',
        `only own authorized CT-e can be manifested: ${bad.map((b) => `${b.field} ${b.message}`).join('; ')}`,
        { fields: bad },
      );
    return ctes;
  };

  /** The registered traction vehicle and trailers, each complete for an MDF-e. */
  const veiculosDoMdfe = async (
    companyId: string,
    veiculo: MdfeInput['veiculo'],
  ): Promise<{ veiculo: VeiculoMdfe; reboques: VeiculoMdfe[] }> => {
    const tracao = await veiculoPorPlaca(deps.pool, companyId, normalizePlaca(veiculo.placa));
    if (!tracao)
      throw new Rejection('veiculo_nao_encontrado', `no registered vehicle with plate ${veiculo.placa}: POST /fiscal/veiculos first`, {
        fields: [{ field: 'veiculo.placa', message: 'not registered' }],
      });
    const doMdfe = veiculoDoMdfe(tracao, 'veiculo.placa', 'tracao');
    const reboques: VeiculoMdfe[] = [];
    for (const [i, placa] of (veiculo.reboques ?? []).entries()) {
      const r = await veiculoPorPlaca(deps.pool, companyId, normalizePlaca(placa));
      if (!r)
        throw new Rejection('veiculo_nao_encontrado', `no registered vehicle with plate ${placa}`, {
          fields: [{ field: `veiculo.reboques.${i}`, message: 'not registered' }],
        });
      reboques.push(veiculoDoMdfe(r, `veiculo.reboques.${i}`, 'reboque'));
    }
    return { veiculo: doMdfe, reboques };
  };

  /** The registered drivers, by CPF, with their registered names. */
  const condutoresDoMdfe = async (companyId: string, motoristas: MdfeInput['motoristas']): Promise<{ cpf: string; nome: string }[]> => {
    const condutores = [];
    for (const [i, cpf] of cpfsDosCondutores(motoristas).entries()) {
      const m = await motoristaPorCpf(deps.pool, companyId, cpf);
      if (!m)
        throw new Rejection('motorista_nao_encontrado', `no registered driver with CPF ${cpf}: POST /fiscal/motoristas first`, {
          fields: [{ field: `motoristas.${i}.cpf`, message: 'not registered' }],
        });
      condutores.push({ cpf: m.cpf, nome: m.nome });
    }
    return condutores;
  };

  return {
    /** A new MDF-e of own authorized CT-e, a registered vehicle and registered drivers (read models caught up); answers its id. */
    criar: async (ctx: Ctx, input: MdfeInput): Promise<string> => {
      await deps.readYourWrites.waitFor(ctx.companyId);
      const ctes = await ctesDoMdfe(ctx.companyId, input.ctes);
      const { veiculo, reboques } = await veiculosDoMdfe(ctx.companyId, input.veiculo);
      const motoristas = await condutoresDoMdfe(ctx.companyId, input.motoristas);
      const rota = rotaDoMdfe(input, ctes);
      const dados: MdfeDados = {
        ctes: rota.ctes,
        veiculo,
        reboques,
        motoristas,
        uf_inicio: rota.uf_inicio,
        uf_fim: rota.uf_fim,
        percurso: rota.percurso,
        carregamento: rota.carregamento,
        observacoes: input.observacoes ?? null,
        ...gruposAnttDoMdfe(input),
      };
      const mdfeId = randomUUID();
      await run(ctx, { type: 'CriarMdfe', mdfe_id: mdfeId, company_id: ctx.companyId, environment: deps.environment, dados });
      return mdfeId;
    },
    ...emissao,
    registrarEvento: async (ctx: Ctx, mdfeId: string, tipo: TipoEventoMdfe, dados: DadosEventoMdfe): Promise<ResultadoEventoMdfe> => {
      if (tipo === 'condutor' && dados.condutor) exigirCondutorNovo(await estado(mdfeId), dados.condutor.cpf);
      return deps.emissor.registrarEvento(ctx.companyId, mdfeId, tipo, dados, ctx.correlationId);
    },
  };
};
export type MdfeHandler = ReturnType<typeof mdfeHandler>;
