/** Starts a real Manager over a temp `$ZUT_HOME` of fixture extensions, for the benchmarks. */
import type { HostUi } from '../src/host/hostUi';
import { NullHostUi } from '../src/host/hostUi';
import { Manager } from '../src/host/manager';
import type { LoadReport } from '../src/host/types';
import { makeZutHome, type FixtureSpec } from '../test/fixtures/bench/home';

export interface RunningHost {
  manager: Manager;
  report: LoadReport;
  /** Stops every child, disposes the Manager, removes the temp home. */
  close(): Promise<void>;
}

export async function startHost(specs: FixtureSpec[], ui: HostUi = new NullHostUi()): Promise<RunningHost> {
  const home = makeZutHome(specs);
  const manager = new Manager({ folders: [], zutHome: home.home, ui, hostVersion: 'bench', autoRestart: false });
  const report = await manager.start();
  if (report.errors.length > 0 || report.ready.length !== specs.length) {
    await manager.stop();
    home.dispose();
    throw new Error(`bench host did not start: ${JSON.stringify(report)}`);
  }
  return {
    manager,
    report,
    async close() {
      await manager.stop();
      manager.dispose();
      home.dispose();
    },
  };
}
