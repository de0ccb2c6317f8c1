/** Where services write what an operator reads: pino's shape, so the studio passes its logger as it is. */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
