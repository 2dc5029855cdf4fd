import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { openApiDocument } from '../../api/openapi/document.js';
import { ENDPOINTS } from '../../api/routes/index.js';
import { projectRoot } from '../../engine/paths.js';

/** One operation as the guide's table lists it: `operationId` | METHOD | `path` | audience. */
type Row = string;

const row = (operationId: string, method: string, path: string, audience: string): Row =>
  `| \`${operationId}\` | ${method.toUpperCase()} | \`${path}\` | ${audience} |`;

function documentRows(): Row[] {
  const paths = openApiDocument(ENDPOINTS).paths as Record<string, Record<string, { operationId: string; tags: string[] }>>;
  return Object.entries(paths).flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, operation]) => row(operation.operationId, method, template, operation.tags.join(', '))),
  );
}

/** The rows of the table under the clients guide's "## Operation list" heading. */
function guideRows(): Row[] {
  const guide = readFileSync(path.join(projectRoot, 'docs', 'clients.md'), 'utf8');
  const start = guide.indexOf('\n## Operation list\n');
  expect(start, 'docs/clients.md has a "## Operation list" section').to.be.greaterThan(-1);
  const rest = guide.slice(start + 1);
  const end = rest.search(/\n## /);
  const section = end === -1 ? rest : rest.slice(0, end);
  // One table, right under its header: a row outside it (or a stray line inside it) is a broken table.
  const table = section.slice(section.indexOf('| operationId |')).split('\n\n')[0]!.trimEnd().split('\n');
  expect(table.slice(0, 2)).to.deep.equal(['| operationId | method | path | audience |', '|---|---|---|---|']);
  expect(section.split('\n').filter((line) => line.startsWith('|')).length, 'every row is in the one table').to.equal(table.length);
  return table.slice(2);
}

describe("The clients guide's operation list (docs/clients.md)", () => {
  it('when compared with the OpenAPI document, then it lists every operation once, with its id, method, path and audience', () => {
    const expected = documentRows().sort();
    const listed = guideRows();
    expect(new Set(listed).size, 'no operation is listed twice').to.equal(listed.length);
    expect(
      [...listed].sort(),
      `the guide's table differs from /openapi.json; its rows should be:\n${documentRows().join('\n')}\n`,
    ).to.deep.equal(expected);
  });
});
