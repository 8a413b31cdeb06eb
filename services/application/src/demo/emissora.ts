import { type Environment, type MotoristaInput, type RegraTributacaoInput, type VeiculoInput } from '@frete/contracts';
import {
  ativoPorChave,
  certificadoDecider,
  certificadoStream,
  configuracaoDecider,
  configuracaoStream,
  registroMotoristas,
  registroRegrasTributacao,
  registroVeiculos,
} from '@frete/domain';
import { type EventStore } from '@frete/platform';
import { load } from '../commands/execute';
import { type Handlers } from '../handlers';
import { contextoDoSistema, enviarCertificadoDeTeste } from '../certificado/teste';

/** The demo carrier's driver and vehicle: the README's first steps name them in a counter-CT-e batch. */
export const DEMO_MOTORISTA: MotoristaInput = {
  cpf: '52998224725',
  nome: 'JOAO MOTORISTA DEMONSTRACAO',
  // Three installments: the scan releases the first, the delivery and the accountability the others (ruling 21).
  repasse: {
    modo: 'automatico',
    parcelas: [
      { posicao: 1, percentual: 60, dias: 0 },
      { posicao: 2, percentual: 20, dias: 5 },
      { posicao: 3, percentual: 20, dias: 10 },
    ],
  },
};
export const DEMO_VEICULO: VeiculoInput = { placa: 'ABC1D23', uf: 'SP', tara_kg: 8000, capacidade_kg: 25000, tipo_rodado: '01' };

/** São Paulo to Rio de Janeiro, the route of the README's first CT-e (its counter-CT-e step adds the rule it needs). */
export const DEMO_REGRAS: RegraTributacaoInput[] = [{ uf_origem: 'SP', uf_destino: 'RJ', icms: { cst: '00', aliquota: 12 } }];

/**
 * Makes the sandbox's demo carrier ready to issue: what a client sends first (a test A1, the fiscal configuration,
 * tax rules, a driver and a vehicle) goes through the same handlers, each only while it is missing, judged on the
 * company's streams (the log, not a read model that may lag behind a restart): starting again adds nothing.
 */
export async function prepararEmissoraDemo(
  deps: { store: EventStore; handlers: Handlers; environment: Environment },
  empresa: { company_id: string; cnpj: string; razao_social: string },
): Promise<void> {
  const { store, handlers } = deps;
  const companyId = empresa.company_id;
  const ctx = () => contextoDoSistema(companyId, 'system:demo');

  if ((await load(store, certificadoStream(companyId), certificadoDecider)).blob_id === null) {
    await enviarCertificadoDeTeste({ certificado: handlers.certificado, environment: deps.environment }, ctx(), empresa);
  }
  const conf = await load(store, configuracaoStream(companyId), configuracaoDecider);
  if (conf.inscricao_estadual === null && conf.endereco === null && conf.serie_cte === null) {
    await handlers.configuracao.atualizar(ctx(), {
      inscricao_estadual: '110042490114',
      regime_tributario: 3,
      rntrc: '12345678',
      serie_cte: 1,
      serie_mdfe: 1,
      endereco: { logradouro: 'AVENIDA PAULISTA', numero: '1000', bairro: 'BELA VISTA', municipio: 'São Paulo', uf: 'SP', cep: '01310100' },
    });
  }
  const regras = await load(store, registroRegrasTributacao.stream(companyId), registroRegrasTributacao.decider);
  if (Object.keys(regras.ativos).length === 0) for (const regra of DEMO_REGRAS) await handlers.regraTributacao.cadastrar(ctx(), regra);
  const motoristas = await load(store, registroMotoristas.stream(companyId), registroMotoristas.decider);
  if (!ativoPorChave(motoristas, DEMO_MOTORISTA.cpf)) await handlers.motorista.cadastrar(ctx(), DEMO_MOTORISTA);
  const veiculos = await load(store, registroVeiculos.stream(companyId), registroVeiculos.decider);
  if (!ativoPorChave(veiculos, DEMO_VEICULO.placa)) await handlers.veiculo.cadastrar(ctx(), DEMO_VEICULO);
}
