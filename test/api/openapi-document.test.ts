import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import request from 'supertest';
import { projectRoot } from '../../engine/paths.js';
import { api, appWith } from '../helpers/context.js';

/**
 * The document a client generator or a viewer is fed: what it promises about itself, and the verdict
 * of two outside linters (Redocly CLI and Spectral, each with its standard rules and the committed
 * config beside the project: redocly.yaml, .spectral.yaml).
 */
const run = promisify(execFile);
const bin = (name: string) => path.join(projectRoot, 'node_modules', '.bin', name);

interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  security: Record<string, string[]>[];
  servers?: { url: string }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}
interface MediaType {
  schema: object;
  example?: unknown;
}
interface Document {
  info: { license?: { name: string }; contact?: { name: string } };
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, object> };
}

const operations = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([where, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ name: `${method} ${where}`, op })),
  );

let served: { doc: Document; file: string };

async function servedDocument() {
  if (served) return served;
  const res = await api().get('/openapi.json').expect(200);
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'openapi-')), 'openapi.json');
  writeFileSync(file, res.text);
  return (served = { doc: res.body as Document, file });
}

describe('the OpenAPI document', () => {
  it('when it is fetched, then it is a JSON object naming the service at BASE_URL, with a license and a contact', async () => {
    const res = await api().get('/openapi.json').expect(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    const { doc } = await servedDocument();
    expect(doc.servers).to.deep.equal([{ url: 'http://localhost:3999', description: 'BASE_URL' }]);
    expect(doc.info.license?.name).to.equal('MIT');
    expect(doc.info.contact?.name).to.be.a('string');
  });

  it('when the web page is served from another address (APP_URL), then its operations name that server and the API ones do not', async () => {
    const app = appWith({ APP_URL: 'https://play.example.org/lb' });
    const { body } = await request(app).get('/openapi.json').expect(200);
    const doc = body as Document;
    expect(doc.servers[0]!.url).to.equal('http://localhost:3999');
    const page = doc.paths['/leaderboards/{leaderboard_id}']!.get!;
    expect(page.servers).to.deep.equal([{ url: 'https://play.example.org/lb', description: 'APP_URL, where browsers load the web page' }]);
    expect(doc.paths['/api/v1/client/leaderboards/{leaderboard_id}/report_score']!.post!.servers).to.equal(undefined);
  });

  it('when a generator reads the operations, then each has a unique verb-noun operationId, one declared tag, a summary, a description and its security', async () => {
    const { doc } = await servedDocument();
    const declared = new Map(doc.tags.map((tag) => [tag.name, tag.description]));
    expect([...declared.keys()]).to.deep.equal(['Game client', 'Game server', 'Third party', 'Web page', 'Admin', 'Operations']);
    const ids = new Set<string>();
    for (const { name, op } of operations(doc)) {
      expect(op.operationId, name).to.match(
        /^(get|list|create|upsert|update|delete|revoke|rotate|report|reset|signUp|ban|unban|claim|enter|withdraw|test|redeliver|watch|approve|reject)[A-Z][A-Za-z]*$/,
      );
      expect(ids.has(op.operationId), `${name}: ${op.operationId} is used twice`).to.equal(false);
      ids.add(op.operationId);
      expect(op.tags, name).to.have.length(1);
      expect(declared.get(op.tags[0]!), `${name}: tag ${op.tags[0]}`).to.be.a('string').and.not.equal('');
      expect(op.summary, name).to.be.a('string').and.not.equal('');
      expect(op.description, name).to.be.a('string').and.not.equal('');
      expect(op.security, name).to.be.an('array');
    }
    // The public ones say so; the others name the headers they need.
    expect(doc.paths['/healthz']!.get!.security).to.deep.equal([]);
    expect(doc.paths['/api/v1/users/{player_id}/avatar.png']!.get!.security).to.deep.equal([]);
    expect(doc.paths['/api/v1/server/report_scores']!.post!.security).to.deep.equal([{ SecretKey: [] }]);
  });

  it('when a viewer shows the examples, then every request body and JSON success has one, complete and valid for its schema', async () => {
    const { doc } = await servedDocument();
    const ajv = new Ajv2020({ strict: false });
    (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const resolve = (schema: object) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"openapi#/components')) as object;
    let checked = 0;
    for (const { name, op } of operations(doc)) {
      const bodies = [
        ...Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => [`${name} request ${type}`, media] as const),
        ...Object.entries(op.responses)
          .filter(([status]) => status.startsWith('2'))
          .flatMap(([status, answer]) =>
            Object.entries(answer.content ?? {}).map(([type, media]) => [`${name} ${status} ${type}`, media] as const),
          ),
      ];
      for (const [where, media] of bodies) {
        if (media.schema && 'format' in media.schema && media.schema.format === 'binary') continue; // an image has no text example
        expect(media.example, `${where} has no example`).to.not.equal(undefined);
        const validate = ajv.compile(resolve(media.schema));
        expect(validate(media.example), `${where}: ${ajv.errorsText(validate.errors)}`).to.equal(true);
        checked += 1;
      }
    }
    expect(checked).to.be.greaterThan(30);
    const report = doc.paths['/api/v1/client/leaderboards/{leaderboard_id}/report_score']!.post!;
    expect(report.requestBody!.content['application/json']!.example).to.deep.equal({
      score: 1,
      metadata: { car: 'red', replay_id: 'r_8f2k' },
    });
    expect(report.responses['200']!.content!['application/json']!.example).to.include({ rank: 1, total: 240, improved: true });
  });

  it('when Redocly CLI lints it with its recommended rules, then it finds no error and no warning', async function () {
    this.timeout(60_000);
    const { file } = await servedDocument();
    const { stdout } = await run(bin('redocly'), ['lint', '--config', path.join(projectRoot, 'redocly.yaml'), '--format=json', file], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    }).catch((failed: { stdout: string }) => failed);
    const verdict = JSON.parse(stdout) as { totals: { errors: number; warnings: number } };
    expect(verdict.totals, stdout.slice(0, 3000)).to.include({ errors: 0, warnings: 0 });
  });

  it('when Spectral lints it with its standard OpenAPI rules, then it finds nothing at all', async function () {
    this.timeout(60_000);
    const { file } = await servedDocument();
    const output = `${file}.spectral.json`;
    await run(bin('spectral'), [
      'lint',
      '--ruleset',
      path.join(projectRoot, '.spectral.yaml'),
      '--format',
      'json',
      '--output',
      output,
      file,
    ]).catch((failed: Error) => failed);
    const findings = JSON.parse(readFileSync(output, 'utf8')) as { code: string; message: string; path: string[] }[];
    expect(findings.map((found) => `${found.code} at ${found.path.join('.')}: ${found.message}`)).to.deep.equal([]);
  });
});
