import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

/**
 * Hands a handler's error to the JetStream transport as it was thrown. Nest's default RPC
 * filter would turn it into `{ status: 'error', message }`, hiding what the inbox needs to tell
 * a transient failure (a lost connection, the questions service away: retry) from poison
 * (dead-letter after a few attempts).
 */
@Catch()
export class RethrowErrorsFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
