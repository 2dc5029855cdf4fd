import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { DESKTOP, launchBrowser, screenshot } from '../helpers/browser.js';
import { api, testUrl } from '../helpers/context.js';
import { openPage, type Observed } from './support.js';

interface Operation {
  operationId: string;
  tags: string[];
  requestBody?: { content: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> };
}
interface Document {
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const operations = (doc: Document) => Object.values(doc.paths).flatMap((methods) => Object.values(methods));

/** The document's tags: its list when it has one, else every tag an operation names. */
function tagsOf(doc: Document): { name: string; description?: string }[] {
  if (doc.tags) return doc.tags;
  return [...new Set(operations(doc).flatMap((operation) => operation.tags))].map((name) => ({ name }));
}

/** What a reader sees of a Markdown description: the text of its links, no emphasis or code marks, spaces collapsed. */
const plainText = (markdown: string) =>
  markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/** An operation's block, found by the id Swagger UI shows on it. */
function operationBlock(page: Page, operationId: string) {
  return page.locator('.opblock', { has: page.locator('.opblock-summary-operation-id', { hasText: new RegExp(`^${operationId}$`) }) });
}

async function openReference(browser: Browser): Promise<Observed> {
  const observed = await openPage(browser, `${testUrl()}/docs`, DESKTOP);
  await observed.page.locator('.opblock-tag').first().waitFor();
  return observed;
}

describe('The API reference (/docs) in Chromium', function () {
  this.timeout(120_000);
  let browser: Browser;
  let doc: Document;

  before(async function () {
    this.timeout(15 * 60_000);
    browser = await launchBrowser();
    // Read as a browser reads it (the reference's own request is the same).
    doc = (await (await fetch(`${testUrl()}/openapi.json`)).json()) as Document;
  });

  after(async () => {
    await browser?.close();
  });

  it('when the page is fetched, then it is a shell with no inline script under a policy that allows this service only', async () => {
    const res = await api().get('/docs').expect(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    const policy = res.headers['content-security-policy']!;
    expect(policy).to.contain("default-src 'none'");
    expect(policy).to.contain("script-src 'self';");
    expect(policy).to.contain("style-src 'self';");
    expect(policy).to.contain("connect-src 'self';");
    const scripts = [...res.text.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts).to.have.length(2);
    for (const [, attributes, content] of scripts) {
      expect(attributes).to.match(/ src="\/docs\/assets\//);
      expect(content).to.equal('');
    }
  });

  it("when the page's files are fetched, then they come with their types and long caching; any other name is 404 not_found", async () => {
    const page = await api().get('/docs').expect(200);
    const files = [...page.text.matchAll(/(?:href|src)="(\/docs\/assets\/[^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(files.map((url) => url.replace(/\?.*/, ''))).to.have.members([
      '/docs/assets/favicon-32x32.png',
      '/docs/assets/swagger-ui.css',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/reference.js',
    ]);
    for (const url of files) {
      const file = await api().get(url).expect(200);
      expect(file.headers['content-type']).to.match(/^(text\/css|text\/javascript|image\/png)/);
      expect(file.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
      await api().get(url).set('If-None-Match', file.headers.etag!).expect(304);
    }
    for (const name of ['index.html', 'swagger-ui-bundle.js.map', '..%2Fpackage.json', '..%2F..%2F..%2Fpackage.json', '%2Fetc%2Fpasswd']) {
      const missing = await api().get(`/docs/assets/${name}`).expect(404);
      expect(missing.body.error.code, name).to.equal('not_found');
    }
  });

  it('when it opens, then every tag of the document is shown with its description, and nothing is refused or loaded from elsewhere', async () => {
    const { page, problems, requests, close } = await openReference(browser);
    const tags = tagsOf(doc);
    expect(tags.length).to.be.above(1);
    const shown = await page.locator('.opblock-tag').evaluateAll((headings) => headings.map((h) => h.getAttribute('data-tag')));
    expect(shown).to.have.members(tags.map((tag) => tag.name));
    for (const { name, description } of tags) {
      if (!description) continue;
      const heading = page.locator(`.opblock-tag[data-tag="${name}"]`);
      expect(plainText(await heading.innerText()), name).to.contain(plainText(description));
    }
    const blocks = await page.locator('.opblock').count();
    expect(blocks).to.equal(operations(doc).length);
    await screenshot(page, 'api-reference-1280x800');

    // The bundle, its stylesheet and icon, the starting script and the document: all from this service.
    expect(requests.some((url) => new URL(url).pathname === '/openapi.json')).to.equal(true);
    expect(requests.some((url) => new URL(url).pathname.startsWith('/docs/assets/swagger-ui-bundle.js'))).to.equal(true);
    expect(requests.filter((url) => new URL(url).origin !== new URL(testUrl()).origin)).to.deep.equal([]);
    // A console error would be a refused script, style or image (the policy's reports) or a broken page.
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when an operation with a request body is opened, then its example is shown as JSON', async () => {
    const { page, problems, close } = await openReference(browser);
    const block = operationBlock(page, 'reportScore');
    await block.locator('.opblock-summary-control').click();
    const example = block.locator('.opblock-section-request-body .highlight-code pre');
    await example.scrollIntoViewIfNeeded();
    const media = operations(doc).find((operation) => operation.operationId === 'reportScore')!.requestBody!.content['application/json']!;
    // The document's own example when it gives one, else the one Swagger UI builds from the schema's examples.
    const documented = media.example ?? Object.values(media.examples ?? {})[0]?.value ?? { score: 1 };
    expect(JSON.parse(await example.innerText())).to.deep.equal(documented);
    await screenshot(page, 'api-reference-example-1280x800');
    expect(problems).to.deep.equal([]);
    await close();
  });

  it('when "Try it out" runs GET /healthz, then the call reaches this service and its 200 answer is shown', async () => {
    const { page, problems, requests, close } = await openReference(browser);
    const block = operationBlock(page, 'getHealth');
    await block.locator('.opblock-summary-control').click();
    await block.getByRole('button', { name: 'Try it out' }).click();
    await block.getByRole('button', { name: 'Execute' }).click();
    const status = block.locator('.live-responses-table tr.response .response-col_status').first();
    await status.scrollIntoViewIfNeeded();
    expect((await status.innerText()).trim()).to.equal('200');
    expect(await block.locator('.request-url pre').innerText()).to.equal(`${testUrl()}/healthz`);
    const body = JSON.parse(await block.locator('.live-responses-table tr.response .response-col_description pre').first().innerText());
    expect(body).to.deep.equal((await api().get('/healthz').expect(200)).body);
    await screenshot(page, 'api-reference-try-it-1280x800');

    expect(requests).to.include(`${testUrl()}/healthz`);
    expect(requests.filter((url) => new URL(url).origin !== new URL(testUrl()).origin)).to.deep.equal([]);
    expect(problems).to.deep.equal([]);
    await close();
  });
});
