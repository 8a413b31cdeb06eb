import { type logCreator, logLevel } from 'kafkajs';
import { type Logger } from './logger';

/** kafkajs's own lines (rebalances, broker errors) written by the process's logger, as one JSON line each like the rest. */
export function kafkaLogCreator(logger: Logger): logCreator {
  const log = logger.child({ component: 'kafkajs' });
  return () =>
    ({ namespace, level, log: entry }) => {
      const { message, timestamp: _timestamp, logger: _logger, ...fields } = entry as typeof entry & { logger?: unknown };
      const method = level === logLevel.ERROR ? 'error' : level === logLevel.WARN ? 'warn' : level === logLevel.INFO ? 'info' : 'debug';
      log[method]({ namespace, ...fields }, message);
    };
}
