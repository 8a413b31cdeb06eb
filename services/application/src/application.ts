import { DesacordoCte } from './caixa-cte/desacordo';
import { LeitorDeAuditoria, type Platform, verificarCadeia } from '@frete/platform';
import {
  type AutoridadeFiscal,
  AutoridadeFiscalMedida,
  type DistribuicaoDFe,
  type DiretorioPix,
  type RailDePagamento,
  type ReguladorTransporte,
} from '@frete/adapters';
import { FiscalSchemas } from '@frete/documents';
import { EmissorCte } from './cte/emissor';
import { EventosCte } from './cte/eventos';
import { EmissorMdfe } from './mdfe/emissor';
import { assinarMdfe } from './mdfe/preparar';
import { ServicoCiot } from './ciot/servico';
import { ServicoValePedagio } from './vale-pedagio/servico';
import { ServicoContraCte } from './contra-cte/servico';
import { ProcessadorLote } from './lote/processador';
import { Operator } from './operator/operator';
import { createHandlers, type Handlers } from './handlers';
import { type Adaptadores, adaptadoresDe } from './adaptadores';
import { credencialTlsDe } from './autoridade/credencial-tls';
import { tracedAutoridade } from './autoridade/traced-autoridade';
import { StatusDaAutoridade } from './autoridade/status';
import { Auditoria } from './auditoria/servico';
import { EntregasWebhook } from './webhook/entregas';
import { SegredosWebhook } from './webhook/segredos';
import { webhookHandler } from './webhook/handler';
import { DespachanteWebhooks } from './webhook/despachante';
import { usuarioHandler } from './usuario/handler';
import { recebedorDistribuicao } from './distribuicao/recebedor';
import { ProcessadorDistribuicao } from './distribuicao/processador';
import { AgendaDistribuicao } from './distribuicao/agenda';

/**
 * The use cases of this process over its platform, with the outside parties `adaptadoresDe` chooses (by the
 * deployment's environment and configuration) or the caller gives.
 */
export interface Application {
  /** One command handler per aggregate. */
  handlers: Handlers;
  /** The official XSDs, compiled once per process (one validation worker). */
  schemas: FiscalSchemas;
  autoridade: AutoridadeFiscal;
  /** The service status of a company's authorizers, cached (`GET /fiscal/status`). */
  statusAutoridade: StatusDaAutoridade;
  /** Issues CT-e through the authority (the emission processor and `consulta` use it). */
  emissorCte: EmissorCte;
  /** Issues MDF-e and registers their events through the authority. */
  emissorMdfe: EmissorMdfe;
  /** Fiscal events of own CT-e (cancellation, correction letter, delivery proof and its cancellation). */
  eventosCte: EventosCte;
  ciot: ServicoCiot;
  /** Toll pass (VPO) and operational account: supplier and deposits behind ports, the ledger in the event store. */
  valePedagio: ServicoValePedagio;
  /** Makes counter-CT-e (single and batch rows) from the contractor's CT-e in the inbox. */
  contraCte: ServicoContraCte;
  /** Walks a counter-CT-e batch's rows in blocks. */
  lote: ProcessadorLote;
  regulador: ReguladorTransporte;
  diretorioPix: DiretorioPix;
  /** The bank rail the payout processor settles through. */
  rail: RailDePagamento;
  /** Companies and credentials, for the operator tool. */
  operator: Operator;
  /** The auditors' read-only use cases: histories, the company's log, the chain's verification. */
  auditoria: Auditoria;
  /** Webhook deliveries: the store the webhooks processor records into, and the dispatcher that sends them. */
  webhooks: { entregas: EntregasWebhook; despachante(onError?: (err: unknown) => void): DespachanteWebhooks };
  /**
   * The national distribution (issue 30): the port (the simulated national environment in the sandbox, the Ambiente
   * Nacional with `sefaz`), the processor that runs each consultation, and the schedule that asks them.
   */
  distribuicao: {
    porta: DistribuicaoDFe;
    processador: ProcessadorDistribuicao;
    agenda(onError?: (err: unknown) => void): AgendaDistribuicao;
  };
  close(): Promise<void>;
}

/** `proprios`: the outside parties the caller brings its own of (a deployment's, a test's); the rest are chosen. */
export function createApplication(platform: Platform, proprios: Partial<Adaptadores> = {}): Application {
  const { config, pool, store, readYourWrites, certificates, documents, clock } = platform;
  const environment = config.environment;
  const schemas = new FiscalSchemas();
  const adaptadores = adaptadoresDe({ config, pool, clock, schemas, credencial: credencialTlsDe(platform) }, proprios);
  // Traced and measured whichever adapter it is (the `autoridade <operacao>` spans, the `frete_autoridade_*` metrics).
  const autoridade = tracedAutoridade(new AutoridadeFiscalMedida(adaptadores.autoridade, platform.metrics, config.autoridadeFiscal.tipo));
  const xmlDeps = { pool, environment, certificates, schemas, clock, random: Math.random };
  const contraCte = new ServicoContraCte({ store, pool, readYourWrites, environment, clock });
  const emissorCte = new EmissorCte({ store, pool, documents, autoridade, readYourWrites, clock, xml: xmlDeps });
  const emissorMdfe = new EmissorMdfe({
    store,
    pool,
    documents,
    autoridade,
    readYourWrites,
    clock,
    environment,
    xml: xmlDeps,
    assinarEvento: (companyId, xml) => assinarMdfe(xmlDeps)(companyId, xml, 'eventoMDFe/infEvento', 'eventoMDFe_v3.00.xsd'),
  });
  const eventosCte = new EventosCte({ store, pool, documents, autoridade, certificates, schemas, environment, readYourWrites, clock });
  const desacordoCte = new DesacordoCte({ store, pool, documents, autoridade, certificates, schemas, environment, readYourWrites, clock });
  const ciot = new ServicoCiot({ store, readYourWrites, clock, environment, provedor: adaptadores.ciot });
  const valePedagio = new ServicoValePedagio({
    store,
    pool,
    readYourWrites,
    provedor: adaptadores.valePedagio,
    depositos: adaptadores.depositos,
  });
  const entregasWebhook = new EntregasWebhook(pool);
  const segredosWebhook = new SegredosWebhook(pool, platform.cipher);
  const usuario = usuarioHandler({ store, readYourWrites, pool, cipher: platform.cipher, clock });
  const webhook = webhookHandler({
    store,
    readYourWrites,
    segredos: segredosWebhook,
    entregas: entregasWebhook,
    config: config.webhooks,
    environment,
    publicUrl: config.publicUrl,
  });
  const distribuicaoPorta = adaptadores.distribuicao;
  const handlers = createHandlers({
    webhook,
    usuario,
    store,
    readYourWrites,
    pool,
    certificates,
    documents,
    environment,
    servicoCiot: ciot,
    servicoValePedagio: valePedagio,
    contraCte,
    emissorCte,
    eventosCte,
    desacordoCte,
    emissorMdfe,
    clock,
    distribuicaoDisponivel: distribuicaoPorta.disponivel,
  });
  const processadorDistribuicao = new ProcessadorDistribuicao({
    handler: handlers.distribuicao,
    porta: distribuicaoPorta,
    // What arrives goes where an upload would: through the inbox's and the NF-e list's own handlers.
    recebedor: recebedorDistribuicao({ documents, handlers: { caixaCte: handlers.caixaCte, nfe: handlers.nfe }, clock }),
    environment,
    clock,
  });
  return {
    handlers,
    schemas,
    autoridade,
    statusAutoridade: new StatusDaAutoridade({ autoridade, pool, clock }),
    emissorCte,
    emissorMdfe,
    eventosCte,
    ciot,
    valePedagio,
    contraCte,
    lote: new ProcessadorLote({ store, contraCte, emissor: emissorCte, clock, readYourWrites }),
    regulador: adaptadores.regulador,
    diretorioPix: adaptadores.diretorioPix,
    rail: adaptadores.rail,
    operator: new Operator(store, pool, platform.projections, environment, clock),
    auditoria: new Auditoria(
      // By kind, not class: the recorded store may be wrapped (the measured and the traced stores).
      store.recorded.kind === 'postgres'
        ? {
            pool,
            readYourWrites,
            leitor: new LeitorDeAuditoria(pool),
            verificarCadeia: (companyId) => verificarCadeia(pool, { companyId }),
          }
        : { pool, readYourWrites, leitor: null, verificarCadeia: null },
    ),
    webhooks: {
      entregas: entregasWebhook,
      despachante: (onError) =>
        new DespachanteWebhooks({
          entregas: entregasWebhook,
          segredos: segredosWebhook,
          config: config.webhooks,
          clock,
          onError,
          desativar: (companyId, webhookId, motivo, causa) =>
            webhook.desativar(
              { companyId, correlationId: causa, causationId: null, requestId: null, actor: 'processor:webhooks', now: clock() },
              webhookId,
              motivo,
              causa,
            ),
        }),
    },
    distribuicao: {
      porta: distribuicaoPorta,
      processador: processadorDistribuicao,
      agenda: (onError) =>
        new AgendaDistribuicao({
          pool,
          handler: handlers.distribuicao,
          environment,
          clock,
          intervaloMs: config.distribuicao.intervaloMs,
          onError,
        }),
    },
    close: async () => {
      // The events of refused logins already answered, before the platform's pool closes.
      await usuario.registrosPendentes();
      await autoridade.close();
      await distribuicaoPorta.close();
      await schemas.close();
    },
  };
}
