import { type Position } from '@frete/contracts';
import { type ReadYourWrites } from '@frete/platform';

/**
 * Records the company's watermark for a write made on behalf of an API request (`requestId`): its caller's next reads
 * wait until the read models show it. A processor's writes are not recorded: no caller is owed them, and a read
 * that waited for them would wait for a target that keeps moving while a batch runs; they show as the read models
 * get there.
 */
export async function recordRequestWrite(
  readYourWrites: ReadYourWrites | undefined,
  ctx: { requestId: string | null },
  companyId: string,
  position: Position,
): Promise<void> {
  if (readYourWrites && ctx.requestId !== null) await readYourWrites.recordWrite(companyId, position);
}
