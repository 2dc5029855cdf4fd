import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../engine/paths.js';

/**
 * swagger-ui-dist and the Spectral CLI depend on @scarf/scarf, whose install script reports every
 * install to an analytics service unless the project opts out (package.json's scarfSettings).
 */
describe('installing the project', function () {
  this.timeout(30_000);

  it("when @scarf/scarf's install script runs as npm runs it, then it reports nothing", async () => {
    // The script's own switch sends its report to this local server instead of the outside service.
    const reports: string[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      reports.push(`${req.method} ${req.url}`);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        INIT_CWD: projectRoot,
        SCARF_LOCAL_PORT: String((server.address() as AddressInfo).port),
      };
      // Only package.json may opt out here, not the environment this test happens to run in.
      for (const name of ['SCARF_ANALYTICS', 'SCARF_NO_ANALYTICS', 'DO_NOT_TRACK']) delete env[name];
      await new Promise<void>((resolve, reject) =>
        execFile(process.execPath, ['report.js'], { cwd: path.join(projectRoot, 'node_modules', '@scarf', 'scarf'), env }, (error) =>
          error ? reject(error) : resolve(),
        ),
      );
      expect(reports).to.deep.equal([]);
      const manifest = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
      expect(manifest.scarfSettings, 'the opt-out scarf documents').to.deep.equal({ enabled: false });
    } finally {
      server.close();
    }
  });
});
