/**
 * Asking the companies: every eligible one at once, under one deadline for the whole call, each
 * answer timed for the metrics. A company that fails or misses the deadline is left out and
 * reported, never failing the calculation. Apart from service.ts because it is the one place
 * that deals with time, cancellation and remote failure; what is asked and what the answers
 * become are the service's and option-pricing.ts's.
 */
import type { RegisteredCompany } from '../../carriers/registry.js';
import type { CarrierQuote, QuoteRequest } from '../../carriers/types.js';
import { markDeadline } from '../../platform/remote-http.js';

/** How one company's answer to a quote went: answered, failed, or missed the deadline. */
export type CompanyQuoteOutcome = 'ok' | 'error' | 'timeout';

/** Told how long each company took to quote (metrics); keeps the calculator free of any metrics library. */
export interface CompanyQuoteObserver {
  companyQuoted(companyId: number, seconds: number, outcome: CompanyQuoteOutcome): void;
}

/** Every company asked at once; those failing or missing the deadline are left out, never failing the call. */
export async function quoteAll(
  entries: RegisteredCompany[],
  requestOf: (entry: RegisteredCompany) => QuoteRequest,
  timeoutMs: number,
  onFailed: ((companyId: number, reason: string) => void) | undefined,
  observer: CompanyQuoteObserver | null,
): Promise<Array<{ entry: RegisteredCompany; quotes: CarrierQuote[] }>> {
  const controller = new AbortController();
  // a company's "retry after" that would outlast this is not waited for (remote-call.ts)
  markDeadline(controller.signal, Date.now() + timeoutMs);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`no answer within ${timeoutMs} ms`));
      resolve('timeout');
    }, timeoutMs);
  });
  try {
    const answers = await Promise.all(
      entries.map(async (entry) => {
        const started = performance.now();
        const observed = (outcome: CompanyQuoteOutcome) =>
          observer?.companyQuoted(entry.company.id, (performance.now() - started) / 1000, outcome);
        try {
          const outcome = await Promise.race([entry.driver.quote(requestOf(entry), controller.signal), deadline]);
          if (outcome === 'timeout') {
            observed('timeout');
            onFailed?.(entry.company.id, `no answer within ${timeoutMs} ms`);
            return { entry, quotes: [] };
          }
          observed('ok');
          return { entry, quotes: outcome };
        } catch (error) {
          observed(controller.signal.aborted ? 'timeout' : 'error');
          onFailed?.(
            entry.company.id,
            controller.signal.aborted ? `no answer within ${timeoutMs} ms` : (error as Error).message,
          );
          return { entry, quotes: [] };
        }
      }),
    );
    return answers;
  } finally {
    clearTimeout(timer);
  }
}
