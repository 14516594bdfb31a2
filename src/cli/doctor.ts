/** `zut-host doctor`: what the host sees (text or --json); exit 1 when any extension is in error. */
import { buildDoctorReport, doctorHasErrors, doctorJson, doctorText } from '../host/disk/doctor';
import { EXIT, UsageError, withHost, write, type Parsed } from './common';

export async function doctor(p: Parsed): Promise<number> {
  if (p.positionals.length > 1) throw new UsageError(`doctor takes no arguments`);
  return withHost(p, async (host, load) => {
    const report = buildDoctorReport(host.extensions(), load.errors);
    await write(process.stdout, p.values.json ? doctorJson(report) : doctorText(report));
    return doctorHasErrors(report) ? EXIT.error : EXIT.ok;
  });
}
