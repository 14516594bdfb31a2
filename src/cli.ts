#!/usr/bin/env node
/** `zut-host`: the headless host CLI (doctor, command, tool). */
process.stdout.write('zut-host: not built yet\n');
process.exitCode = 2;
