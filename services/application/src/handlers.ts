import { type Pool } from 'pg';
import { type Environment } from '@frete/contracts';
import { type CertificateVault } from '@frete/platform';
import { type CommandDeps } from './commands/execute';
import { configuracaoHandler } from './configuracao/handler';
import { registroMotoristas, registroRegrasTributacao, registroVeiculos } from '@frete/domain';
import { registroHandler } from './cadastros/handler';
import { motoristaLinha, regraTributacaoLinha, veiculoLinha } from '@frete/projections';
import { autorizacaoHandler } from './autorizacao/handler';
import { leiturasAutorizacaoDoPool } from './autorizacao/leituras';
import { certificadoHandler } from './certificado/handler';
import { conviteHandler } from './convite/handler';
import { leiturasConviteDoPool } from './convite/leituras';
import { credentialHandler } from './credential/handler';
import { repasseHandler } from './repasse/handler';
import { leiturasRepasseDoPool } from './repasse/leituras';
import { ciotHandler } from './ciot/handler';
import { type ServicoCiot } from './ciot/servico';
import { type ServicoValePedagio } from './vale-pedagio/servico';
import { cteHandler, type CteHandlerDeps } from './cte/handler';
import { mdfeHandler } from './mdfe/handler';
import { type EmissorMdfe } from './mdfe/emissor';
import { type CaixaCteHandlerDeps, caixaCteHandler } from './caixa-cte/handler';
import { type ContraCteHandlerDeps, contraCteHandler } from './contra-cte/handler';
import { type LoteHandlerDeps, loteHandler } from './lote/handler';
import { type NfeHandlerDeps, nfeHandler } from './nfe/handler';
import { type ContingenciaHandlerDeps, contingenciaHandler } from './contingencia/handler';
import { distribuicaoHandler, type DistribuicaoHandlerDeps } from './distribuicao/handler';
import { type WebhookHandler } from './webhook/handler';
import { type UsuarioHandler } from './usuario/handler';

/**
 * Besides the log, handlers read the read models that name a write's target or party, seal files in the vault, and
 * drive the flows that call an outside party.
 */
export interface HandlerDeps extends Required<CommandDeps> {
  pool: Pool;
  certificates: CertificateVault;
  environment: Environment;
  servicoCiot: ServicoCiot;
  /** The toll pass and the operational account: the service drives the supplier and deposits, then appends. */
  servicoValePedagio: ServicoValePedagio;
}

/** What the handlers of issued documents drive besides the event store: the emitters and the event registration. */
export type EmissaoHandlerDeps = Pick<CteHandlerDeps, 'pool' | 'environment'> & {
  emissorCte: CteHandlerDeps['emissor'];
  eventosCte: CteHandlerDeps['eventos'];
  emissorMdfe: EmissorMdfe;
};

/**
 * One command handler per aggregate, as routes and processors call them. A route validates, calls one of these and
 * maps the answer; it never reaches the event store itself.
 */
export const createHandlers = (
  deps: HandlerDeps &
    EmissaoHandlerDeps &
    CaixaCteHandlerDeps &
    ContraCteHandlerDeps &
    LoteHandlerDeps &
    NfeHandlerDeps &
    ContingenciaHandlerDeps &
    Pick<DistribuicaoHandlerDeps, 'distribuicaoDisponivel'> & { webhook: WebhookHandler; usuario: UsuarioHandler },
) => ({
  configuracao: configuracaoHandler(deps),
  autorizacao: autorizacaoHandler({ ...deps, leituras: leiturasAutorizacaoDoPool(deps.pool) }),
  certificado: certificadoHandler(deps),
  convite: conviteHandler({ ...deps, leituras: leiturasConviteDoPool(deps.pool) }),
  // The company's API keys and OAuth clients (the panel's admin; the operator tool builds its own over the same store).
  credential: credentialHandler(deps),
  repasse: repasseHandler({ ...deps, leituras: leiturasRepasseDoPool(deps.pool) }),
  ciot: ciotHandler(deps),
  cte: cteHandler({ ...deps, emissor: deps.emissorCte, eventos: deps.eventosCte }),
  mdfe: mdfeHandler({ ...deps, emissor: deps.emissorMdfe }),
  caixaCte: caixaCteHandler(deps),
  contraCte: contraCteHandler(deps),
  lote: loteHandler(deps),
  nfe: nfeHandler(deps),
  // The company's consultation of the national distribution (the switch, a consultation now, the processor's outcomes).
  distribuicao: distribuicaoHandler(deps),
  // Toll pass and operational account (its ledger): one flow through the supplier and the deposits, then the decider.
  valePedagio: deps.servicoValePedagio,
  motorista: registroHandler(deps, registroMotoristas, motoristaLinha),
  veiculo: registroHandler(deps, registroVeiculos, veiculoLinha),
  regraTributacao: registroHandler(deps, registroRegrasTributacao, regraTributacaoLinha),
  // The operator's switch of a UF's CT-e to its contingency authorizer (the ops tool; no route).
  contingencia: contingenciaHandler(deps),
  // Integrators' webhook endpoints: the target is checked and the secret sealed around the decider.
  webhook: deps.webhook,
  // The panel's users: password hashes and TOTP secrets kept beside the decider, never in the log.
  usuario: deps.usuario,
});
export type Handlers = ReturnType<typeof createHandlers>;
