import { type CanalRecebimento } from '@frete/contracts';

/** How a key first reached the inbox, as the read model shows it: by the national distribution, or sent (upload, hand-off). */
export type OrigemCaixa = 'distribuicao' | 'envio';

/** The receipt's channel says it: `distribuicao` came by itself, `api` and `repasse` were sent. */
export const origemDoCanal = (canal: CanalRecebimento): OrigemCaixa => (canal === 'distribuicao' ? 'distribuicao' : 'envio');
