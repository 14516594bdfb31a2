/**
 * A foreign (editor) tool call on the one guarded path: guards see it as zut's tool when the table maps it
 * (foreignTools.ts: `run_in_terminal` as `bash {command}`), with the real name in `editor_tool`; their
 * `modified_args` go back onto the original input, and one that cannot is refused in the guard's name (the call is
 * blocked). `@zut`'s editor tools and zot's `call_tool` of editor tools both call this. VS Code-free.
 */
import type { ToolResult } from '../types';
import { foreignCall, type ForeignSource, type JsonObject } from './foreignTools';
import type { InvokeResult, InvokeToolOptions } from './invoke';

/** Runs the foreign tool itself (VS Code: `vscode.lm.invokeTool`) with the input the guards left. */
export type ForeignRun = (input: JsonObject, signal: AbortSignal) => Promise<ToolResult>;

/** What this needs of the host: its guarded path. */
export interface GuardedPath {
  invokeTool(name: string, args: unknown, options: InvokeToolOptions): Promise<InvokeResult>;
}

/** Calls `source`'s tool `name` with `input` through `host`'s guarded path; `run` runs it once the guards allowed. */
export function invokeForeign(
  host: GuardedPath,
  source: ForeignSource,
  name: string,
  input: unknown,
  run: ForeignRun,
  options: Omit<InvokeToolOptions, 'run' | 'foreign'>,
): Promise<InvokeResult> {
  const call = foreignCall(source, name, input);
  // Object.assign, not `{ ...options, foreign, run }`: Node 20's V8 takes ~2 µs for a spread followed by more
  // properties, a fifth of a whole tool round trip (npm run bench -- --only editor-tool); Node 22+ does not.
  return host.invokeTool(call.name, call.args, Object.assign({}, options, {
    foreign: {
      tool: call.foreign,
      accept: (args: unknown) => {
        const back = call.back(args);
        return 'error' in back ? back.error : undefined;
      },
    },
    run: (args: unknown, signal: AbortSignal) => {
      const back = call.back(args);
      // `accept` already refused what cannot map; this only guards against a caller that skipped the chain.
      if ('error' in back) return Promise.resolve<ToolResult>({ ext: source, content: [{ type: 'text', text: `${name}: ${back.error}` }], isError: true });
      return run(back.input, signal);
    },
  }));
}
