/**
 * The interceptors of one event: every live extension that intercepts it, in load order, each asked through its
 * connection with the interception deadline (a timeout, crash or stop allows). And the `before_agent_start`
 * results, kept per request until extensions are (re)loaded (zot: "stable across normal user messages").
 */
import { randomUUID } from 'node:crypto';
import { chainBeforeAgentStart, type BeforeAgentStart, type Interceptor } from './intercept';
import type { InterceptPayload } from './protocols/types';
import type { ExtensionSupervisor } from './extensions/supervisor';
import { RequestError } from './types';

/** The interception chain of `event` among `sups`. */
export function interceptorsOf(sups: readonly ExtensionSupervisor[], event: string, timeoutMs: number): Interceptor[] {
  return sups
    .filter((s) => s.live && s.intercepts.has(event))
    .map((s) => ({
      ext: s.name,
      diagnostic: (m: string) => s.diagnostic(m),
      ask: async (payload: InterceptPayload) => {
        const conn = s.conn;
        if (!conn) return undefined;
        try {
          return await conn.request({ kind: 'intercept', payload }, { timeoutMs, what: `extension ${s.name}: ${event} interception` });
        } catch (e) {
          if (e instanceof RequestError && e.kind === 'timeout') s.diagnostic(`${event} interception timed out: allowed`);
          return undefined; // timeout, crash or stop: allow
        }
      },
    }));
}

/** `before_agent_start` results by (session, provider, model, cwd, base prompt). */
export class SystemPrompts {
  private readonly results = new Map<string, Promise<string>>();

  /** The chain's result for this request: computed once, then reused until `clear()`. */
  get(e: Omit<BeforeAgentStart, 'agent_run_id'>, chain: () => Interceptor[]): Promise<string> {
    const key = JSON.stringify([e.session_id, e.provider, e.model, e.cwd, e.system_prompt]);
    let p = this.results.get(key);
    if (!p) this.results.set(key, (p = chainBeforeAgentStart(chain(), { ...e, agent_run_id: randomUUID() })));
    return p;
  }

  /** Extensions were (re)loaded: the next request asks again. */
  clear(): void {
    this.results.clear();
  }
}
