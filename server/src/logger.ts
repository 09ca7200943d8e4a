/**
 * The process's one logger (pino): services, jobs, the LoRaWAN side and the HTTP app (Fastify's
 * `loggerInstance`) all write through it, so every line has one format and one level.
 */
import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import type { Config } from './config.ts';

export type Logger = FastifyBaseLogger;

/**
 * JSON lines at LOG_LEVEL to `stream` (tests read them) or stdout; readable lines for a person
 * at a terminal outside production.
 */
export function createLogger(
  config: Pick<Config, 'logLevel' | 'env'>,
  stream?: { write(line: string): void },
): Logger {
  const options = {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers.cookie'],
  };
  if (stream) return pino(options, stream);
  if (process.stdout.isTTY && config.env !== 'production' && config.logLevel !== 'silent') {
    return pino({
      ...options,
      transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss' } },
    });
  }
  return pino(options);
}
