import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import { openRuntime } from '../runtime.js';
import { formatSummary, importSeedFile } from './import.js';
import { serve } from './serve.js';

const DEMO_SEED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../examples/demo-seed.json');
const DEMO_KEY = 'service_test_demoAmaMensahTest0001';

export function register(program: Command): void {
  program
    .command('demo')
    .description('import examples/demo-seed.json into the configured database and serve it')
    .action(async () => {
      const rt = await openRuntime({ longRunning: true });
      console.log(formatSummary(await importSeedFile(rt, DEMO_SEED)));
      const { url } = await serve(rt);
      console.log(
        [
          '',
          `partner-api demo is running at ${url}`,
          `demo key (Ama Mensah, SuperAgent, test mode): ${DEMO_KEY}`,
          'try:',
          `  curl -s -H 'X-API-KEY: ${DEMO_KEY}' ${url}/api/v1/profile`,
          `  curl -s -H 'X-API-KEY: ${DEMO_KEY}' ${url}/api/v1/data-packages?operatorId=op_mtn`,
          'more keys are in examples/demo-seed.json; OpenAPI at /openapi.json; Ctrl-C stops.',
          '',
        ].join('\n'),
      );
    });
}
