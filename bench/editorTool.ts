/**
 * Editor-tool call in `@zut`: what zut adds to a call of one of VS Code's own tools (issue 21) — the guarded path
 * (`tool_call` event, interception chain, `tool_result` event) and the mapping (`run_in_terminal` ↔ `bash`, the
 * rewrite check, the input rebuilt) — against calling the tool directly. A host-level row: VS Code's
 * `vscode.lm.invokeTool` needs a window, so the editor tool is a stand-in that costs what a tool in another process
 * costs, a round trip to a raw newline-JSON child (the same child on both sides). No confirmation on either side.
 * Called as @zut calls it: with the chat request's signal and the model's call id (a caller without them also pays
 * for a fresh AbortController and UUID per call, ~2 µs on Node 20).
 */
import { RawClient } from '../test/fixtures/bench/home';
import type { ToolResult } from '../src/host/types';
import { startHost } from './host';
import { pinToOneCpu } from './roundtrip';
import { ratios, summarize, threeWay, type BenchRow } from './stats';

const INPUT = { command: 'echo bench', explanation: 'bench', goal: 'bench', mode: 'sync', isBackground: false };

export async function benchEditorTool(quick: boolean): Promise<BenchRow> {
  const calls = quick ? 200 : 500;
  const unpin = pinToOneCpu();
  // One running extension that subscribes to nothing: the path does all its work, no guard adds its own time.
  const host = await startHost([{ kind: 'node', name: 'rt' }]);
  const raw = new RawClient({ kind: 'node', name: 'raw' });
  await raw.ready;
  try {
    const editorTool = async (input: unknown): Promise<ToolResult> => ({ ext: 'vscode', content: [{ type: 'text', text: await raw.call('echo_raw', input) }], isError: false });
    const session = { id: 'bench' };
    // What @zut's loop passes (chat/loop.ts runToolCall): the request's signal and the model's call id (no fresh
    // AbortController or UUID per call), the progress callbacks.
    const signal = new AbortController().signal;
    let n = 0;
    const options = () => ({ session, origin: 'chat' as const, signal, toolId: `call-${++n}`, onStart: () => {}, onProgress: (_text: string) => {} });
    const timed = async (call: () => Promise<unknown>) => {
      const lat: number[] = [];
      for (let i = 0; i < calls; i++) {
        const s = performance.now();
        await call();
        lat.push((performance.now() - s) * 1000);
      }
      return summarize(lat).median;
    };
    const ours = () => timed(() => host.manager.invokeTool('run_in_terminal', INPUT, Object.assign(options(), { foreign: { source: 'vscode' as const, run: editorTool } })));
    const direct = () => timed(() => editorTool(INPUT));
    // The guarded path alone (no mapping: the tool under its own name), to split what each part adds.
    const plain = () => timed(() => host.manager.invokeTool('run_in_terminal', INPUT, Object.assign(options(), { run: (a: unknown) => editorTool(a) })));
    const w = await threeWay(quick ? 3 : 15, 2, ours, direct, plain);
    const t = { a: w.a, b: w.b };
    const r = summarize(ratios(t.a, t.b));
    const med = (xs: number[]) => summarize(xs).median.toFixed(1);
    return {
      id: 'editor-tool',
      figure: 'Editor-tool call in @zut (guarded path + mapping) vs the tool called directly',
      ours: summarize(t.a),
      baseline: summarize(t.b),
      baselineName: 'the same stand-in tool, called directly',
      unit: 'µs (median call)',
      ratio: r,
      goal: '≤ 1.10×',
      pass: r.median <= 1.1,
      notes: [
        'host-level: the editor tool is a stand-in (a round trip to a raw child), VS Code is not involved; no guard subscribed',
        "called as @zut calls it (the request's signal, the model's call id); with no subscriber or interceptor the event is not built and the chain not awaited",
        `${calls} calls per trial; ${unpin ? 'pinned to CPU 0 (taskset)' : 'unpinned (no taskset)'}`,
        `median call: mapped ${med(w.a)} µs, guarded path without mapping ${med(w.c)} µs, direct ${med(w.b)} µs ` +
          '(a real vscode.lm.invokeTool crosses to the window and back: far slower than this stand-in, so the ratio there is smaller)',
      ],
    };
  } finally {
    unpin?.();
    await raw.close();
    await host.close();
  }
}
