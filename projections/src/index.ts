import { type Projector } from './projector';
import { companyProjector } from './company/projector';
import { credentialProjector } from './credential/projector';
import { configuracaoProjector } from './configuracao/projector';
import { certificadoProjector } from './certificado/projector';
import { nfeProjector } from './nfe/projector';
import { atividadeProjector } from './atividade/projector';
import { caixaCteProjector } from './caixa-cte/projector';
import { cteProjector } from './cte/projector';
import { operacaoProjector } from './operacao/projector';
import { autorizacaoProjector } from './autorizacao/projector';
import { veiculoProjector } from './veiculo/projector';
import { motoristaProjector } from './motorista/projector';
import { regraTributacaoProjector } from './regra-tributacao/projector';
import { mdfeProjector } from './mdfe/projector';
import { ciotProjector } from './ciot/projector';
import { repasseProjector } from './repasse/projector';
import { loteProjector } from './lote/projector';
import { contaOperacionalProjector } from './conta-operacional/projector';
import { valePedagioProjector } from './vale-pedagio/projector';
import { conviteProjector } from './cadastros/projector';
import { contingenciaProjector } from './contingencia/projector';
import { webhookProjector } from './webhook/projector';
import { usuarioProjector } from './usuario/projector';
import { distribuicaoProjector } from './distribuicao/projector';

export * from './projector';
export * from './catalogo/catalogo';
export * from './migrations';
export { companyProjector, credentialProjector, configuracaoProjector, certificadoProjector, atividadeProjector };

/** Every projector of the read models, applied together in one transaction per event. */
export const READ_MODEL_PROJECTORS: Projector[] = [
  companyProjector,
  credentialProjector,
  configuracaoProjector,
  certificadoProjector,
  nfeProjector,
  autorizacaoProjector,
  caixaCteProjector,
  cteProjector,
  operacaoProjector,
  atividadeProjector,
  regraTributacaoProjector,
  veiculoProjector,
  motoristaProjector,
  mdfeProjector,
  ciotProjector,
  repasseProjector,
  loteProjector,
  contaOperacionalProjector,
  valePedagioProjector,
  conviteProjector,
  contingenciaProjector,
  webhookProjector,
  usuarioProjector,
  distribuicaoProjector,
];
export { caixaCteProjector, cteProjector, operacaoProjector };
export * from './search';
export * from './caixa-cte/queries';
export * from './cte/queries';
export * from './configuracao/queries';
export * from './certificado/queries';
export * from './nfe/queries';
export { nfeProjector };
export * from './atividade/queries';
export * from './company/queries';
export * from './credential/queries';
export * from './autorizacao/queries';
export { autorizacaoProjector };
export * from './veiculo/queries';
export * from './motorista/queries';
export { veiculoProjector, motoristaProjector };
export * from './regra-tributacao/queries';
export { regraTributacaoProjector };
export * from './list-query';
export * from './mdfe/queries';
export { mdfeProjector };
export * from './ciot/queries';
export { ciotProjector };
export * from './repasse/queries';
export * from './repasse/lista';
export { repasseProjector };
export * from './lote/queries';
export * from './lote/progresso';
export * from './lote/relatorio';
export { loteProjector };
export * from './conta-operacional/queries';
export * from './vale-pedagio/queries';
export { contaOperacionalProjector, valePedagioProjector };
export * from './cadastros/queries';
export { conviteProjector };
export * from './contingencia/queries';
export { contingenciaProjector };
export * from './auditoria/queries';
export * from './list-cursor';
export * from './webhook/queries';
export { webhookProjector };
export * from './usuario/queries';
export { usuarioProjector };
export * from './distribuicao/queries';
export * from './distribuicao/agenda';
export { distribuicaoProjector };
