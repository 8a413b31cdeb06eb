import { type Projector } from './projector';
import { companyProjector } from './company/projector';
import { credentialProjector } from './credential/projector';
import { configuracaoProjector } from './configuracao/projector';
import { certificadoProjector } from './certificado/projector';
import { atividadeProjector } from './atividade/projector';

export * from './projector';
export * from './migrations';
export { companyProjector, credentialProjector, configuracaoProjector, certificadoProjector, atividadeProjector };

/** Every projector of the read models, applied together in one transaction per event. */
export const READ_MODEL_PROJECTORS: Projector[] = [
  companyProjector,
  credentialProjector,
  configuracaoProjector,
  certificadoProjector,
  atividadeProjector,
];
export * from './configuracao/queries';
export * from './certificado/queries';
export * from './atividade/queries';
export * from './company/queries';
