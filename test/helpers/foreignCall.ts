/** One foreign call with a single view, read as the tests read it: the view's name and args, `back` of that view. */
import { foreignCall, type ForeignSource, type JsonObject } from '../../src/host/calls/foreignTools';

export function single(source: ForeignSource, name: string, input: unknown) {
  const c = foreignCall(source, name, input);
  if (c.views.length !== 1) throw new Error(`${source}/${name}: ${c.views.length} views`);
  const [v] = c.views;
  return { name: v.name, args: v.args, effect: v.effect, foreign: c.foreign, mapped: c.mapped, back: (m: unknown) => c.back([m as JsonObject]) };
}
