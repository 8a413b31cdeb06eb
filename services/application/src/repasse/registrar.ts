import { type EventData, type RecordedEvent } from '@frete/contracts';
import {
  grupoDoVinculo,
  motoristaAtivoPorCpf,
  motoristaDecider,
  type MotoristasState,
  motoristasStream,
  type RepasseCommand,
  regraDeRepasse,
  repasseDecider,
  repasseStream,
} from '@frete/domain';
import { derivedEventId } from '@frete/platform';
import { execute, load, loadCached } from '../commands/execute';
import { decisaoEmGrupo, EscritaAgrupada } from '../commands/escrita-agrupada';
import { type PayoutDeps, contextoDo } from './deps';
import { vinculoDoCte } from './contra-cte';

/** A registration to record in its driver's group, and the authorization that asked for it. */
interface Registro {
  command: Extract<RepasseCommand, { type: 'RegistrarDocumento' | 'RegistrarFalha' }>;
  event: RecordedEvent;
}

/**
 * Records registrations in their group's stream; those that arrive while one is being recorded go in one append (a
 * batch's rows of one driver are one group). Each event keeps the id and the metadata it would have had alone: its id
 * derives from the authorization that asked for it and its place among that authorization's events.
 */
const registrosAgrupados = (deps: PayoutDeps) =>
  new EscritaAgrupada<Registro>(async (stream, itens) => {
    const grupo = decisaoEmGrupo(repasseDecider);
    const origem = (i: number) => itens[grupo.item(i)]!.event;
    const primeiro = itens[0]!;
    await execute(
      deps,
      stream,
      grupo.decider,
      itens.map((r) => r.command),
      contextoDo(deps, primeiro.event, primeiro.command.dados.company_id),
      {
        eventId: (i, e) => derivedEventId(origem(i).id, `${e.type}:${grupo.indiceNoItem(i)}`),
        metadata: (i, _e, base) => ({ ...base, causation_id: origem(i).id, correlation_id: origem(i).metadata.correlation_id }),
        cache: deps.grupos,
      },
    );
  });

/**
 * `cte.autorizado` of a counter-CT-e: its payout enters the driver's group, with the rule of ruling 14 and the
 * driver's release mode frozen now. The driver is read from the registry's own stream, not from a read model, so a
 * driver registered just before the batch is never missed. A driver who left the registry makes the financial step
 * fail (`financeiro: failed` on the batch row); any other CT-e is not a payout's business.
 */
export const registrarDocumento = (deps: PayoutDeps) => {
  const registros = registrosAgrupados(deps);
  // A batch's authorizations arrive side by side: those that ask for one company's registry while it is being read
  // take that read (at most one round trip older than their own would be), not one each.
  const emLeitura = new Map<string, Promise<MotoristasState>>();
  const registroDe = (companyId: string): Promise<MotoristasState> => {
    const stream = motoristasStream(companyId);
    let lendo = emLeitura.get(stream);
    if (!lendo) {
      lendo = (
        deps.motoristas ? loadCached(deps.store, stream, motoristaDecider, deps.motoristas) : load(deps.store, stream, motoristaDecider)
      ).finally(() => emLeitura.delete(stream));
      emLeitura.set(stream, lendo);
    }
    return lendo;
  };
  return async (event: RecordedEvent): Promise<void> => {
    const d = event.data as EventData<'cte.autorizado'>;
    const vinculo = await vinculoDoCte(deps.store, d.cte_id, deps.vinculoConhecido);
    if (!vinculo) return;
    const registro = await registroDe(d.company_id);
    const motorista = motoristaAtivoPorCpf(registro, vinculo.motorista_cpf);
    const grupo = grupoDoVinculo(d.cte_id, vinculo);
    const base = {
      company_id: d.company_id,
      grupo,
      cte_id: d.cte_id,
      chave: d.chave,
      chave_original: vinculo.chave_original,
      documento_financeiro: vinculo.documento_financeiro,
      lote_id: vinculo.lote_id,
      posicao: vinculo.linha ?? 0,
      motorista_cpf: vinculo.motorista_cpf,
      valor_centavos: vinculo.valor_centavos,
    };
    const command: Registro['command'] = motorista
      ? {
          type: 'RegistrarDocumento',
          dados: { ...base, regra: regraDeRepasse(vinculo.parcelas, motorista.repasse.parcelas), modo: motorista.repasse.modo },
        }
      : {
          type: 'RegistrarFalha',
          dados: {
            ...base,
            code: 'motorista_nao_encontrado',
            message: `driver ${vinculo.motorista_cpf} is no longer in the company's registry`,
          },
        };
    await registros.escrever(repasseStream(d.company_id, grupo), { command, event });
  };
};
