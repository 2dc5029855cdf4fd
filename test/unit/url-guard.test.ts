import type { LookupAddress } from 'node:dns';
import { expect } from 'chai';
import { addressAllowed, checkUrlSyntax, resolveUrl, UrlRefused, type UrlPolicy } from '../../engine/events/url-guard.js';

const STRICT: UrlPolicy = { allowHttp: false, allowPrivate: false };
const DEV: UrlPolicy = { allowHttp: true, allowPrivate: true };

/** The refusal reason checkUrlSyntax gives, or 'accepted'. */
function syntaxOutcome(url: string, policy: UrlPolicy = STRICT): string {
  try {
    checkUrlSyntax(url, policy);
    return 'accepted';
  } catch (error) {
    return error instanceof UrlRefused ? error.reason : 'not a UrlRefused';
  }
}

/** The refusal reason resolveUrl gives, or 'accepted'. */
async function resolveOutcome(url: string, lookup: () => Promise<LookupAddress[]>, policy: UrlPolicy = STRICT): Promise<string> {
  try {
    await resolveUrl(url, policy, lookup);
    return 'accepted';
  } catch (error) {
    return error instanceof UrlRefused ? error.reason : 'not a UrlRefused';
  }
}

/** A stand-in resolver answering every name with these addresses, so no test touches real DNS. */
function answers(...addresses: string[]): () => Promise<LookupAddress[]> {
  return async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

describe('unit: webhook URL guard', () => {
  it('when the scheme is not https, then the URL is refused as scheme_not_allowed', () => {
    expect(syntaxOutcome('ftp://example.com/hook')).to.equal('scheme_not_allowed');
    expect(syntaxOutcome('http://example.com/hook')).to.equal('scheme_not_allowed');
    expect(syntaxOutcome('javascript:alert(1)')).to.equal('scheme_not_allowed');
  });

  it('when http is allowed by the policy, then an http URL is accepted but ftp still is not', () => {
    const policy = { allowHttp: true, allowPrivate: false };
    expect(syntaxOutcome('http://example.com/hook', policy)).to.equal('accepted');
    expect(syntaxOutcome('ftp://example.com/hook', policy)).to.equal('scheme_not_allowed');
  });

  it('when the URL carries a user name or password, then it is refused as user_info_not_allowed', () => {
    expect(syntaxOutcome('https://user:pass@example.com/hook')).to.equal('user_info_not_allowed');
    expect(syntaxOutcome('https://user@example.com/hook')).to.equal('user_info_not_allowed');
  });

  it('when the text is not a URL or is over 2048 characters, then it is refused as invalid_url', () => {
    for (const text of ['', 'not a url', 'https://', 'https://exa mple.com/', '//example.com/hook']) {
      expect(syntaxOutcome(text), JSON.stringify(text)).to.equal('invalid_url');
    }
    const base = 'https://example.com/';
    expect(syntaxOutcome(base + 'a'.repeat(2048 - base.length))).to.equal('accepted');
    expect(syntaxOutcome(base + 'a'.repeat(2049 - base.length))).to.equal('invalid_url');
  });

  it('when the host is localhost or a name under .localhost, then it is refused without DNS', () => {
    for (const url of ['https://localhost/', 'https://LOCALHOST:8443/hook', 'https://localhost./', 'https://api.localhost/']) {
      expect(syntaxOutcome(url), url).to.equal('address_not_allowed');
    }
  });

  it('when the host is an IP literal of a loopback, private, link-local, metadata or other special address, then it is refused without DNS', () => {
    for (const host of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '0.1.2.3',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.0.192',
      '198.18.0.1',
      '240.0.0.1',
      '[::1]',
      '[::]',
      '[fe80::1]',
      '[fd00::1]',
      '[fd00:ec2::254]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::ffff:10.0.0.1]',
      '[64:ff9b::7f00:1]',
      '[::127.0.0.1]',
      '[ff02::1]',
    ]) {
      expect(syntaxOutcome(`https://${host}/hook`), host).to.equal('address_not_allowed');
    }
  });

  it('when the IP literal is written in a short or hex form, then it is judged as the address it means', () => {
    expect(syntaxOutcome('https://127.1/')).to.equal('address_not_allowed');
    expect(syntaxOutcome('https://0x7f000001/')).to.equal('address_not_allowed');
    expect(syntaxOutcome('https://2130706433/')).to.equal('address_not_allowed');
  });

  it('when the host is a public IP literal or a name, then the URL is accepted and returned parsed', () => {
    expect(syntaxOutcome('https://1.1.1.1/hook')).to.equal('accepted');
    expect(syntaxOutcome('https://[2606:4700:4700::1111]/hook')).to.equal('accepted');
    expect(syntaxOutcome('https://[::ffff:1.1.1.1]/hook')).to.equal('accepted');
    expect(syntaxOutcome('https://[64:ff9b::101:101]/hook')).to.equal('accepted');
    const url = checkUrlSyntax('https://example.com/hook?x=1', STRICT);
    expect(url.hostname).to.equal('example.com');
    expect(url.search).to.equal('?x=1');
  });

  it('when private addresses are allowed by the policy, then loopback and localhost are accepted', () => {
    expect(syntaxOutcome('https://127.0.0.1/hook', DEV)).to.equal('accepted');
    expect(syntaxOutcome('http://localhost:3000/hook', DEV)).to.equal('accepted');
    expect(addressAllowed('10.0.0.1', DEV)).to.equal(true);
  });

  it('when an address is checked on its own, then only public unicast passes and text that is not an address never does', () => {
    expect(addressAllowed('93.184.215.14', STRICT)).to.equal(true);
    expect(addressAllowed('2606:4700:4700::1111', STRICT)).to.equal(true);
    expect(addressAllowed('169.254.169.254', STRICT)).to.equal(false);
    expect(addressAllowed('fe80::1%eth0', STRICT)).to.equal(false);
    expect(addressAllowed('64:ff9b:1::a00:1', STRICT)).to.equal(false);
    expect(addressAllowed('2001:db8::1', STRICT)).to.equal(false);
    expect(addressAllowed('example.com', STRICT)).to.equal(false);
    expect(addressAllowed('example.com', DEV)).to.equal(false);
  });

  it('when a name resolves to a loopback address, then delivery is refused as address_not_allowed', async () => {
    expect(await resolveOutcome('https://hooks.example.com/', answers('127.0.0.1'))).to.equal('address_not_allowed');
    expect(await resolveOutcome('https://hooks.example.com/', answers('::ffff:127.0.0.1'))).to.equal('address_not_allowed');
  });

  it('when a name resolves to several addresses and one is private, then delivery is refused', async () => {
    expect(await resolveOutcome('https://hooks.example.com/', answers('93.184.215.14', '10.0.0.1'))).to.equal('address_not_allowed');
    expect(await resolveOutcome('https://hooks.example.com/', answers('10.0.0.1', '93.184.215.14'))).to.equal('address_not_allowed');
  });

  it('when a name resolves to public addresses, then the first one and its family come back to connect to', async () => {
    const seen: unknown[] = [];
    const lookup = async (hostname: string, options: unknown): Promise<LookupAddress[]> => {
      seen.push(hostname, options);
      return [
        { address: '2606:4700:4700::1111', family: 6 },
        { address: '1.1.1.1', family: 4 },
      ];
    };
    const resolved = await resolveUrl('https://hooks.example.com/hook?x=1', STRICT, lookup);
    expect(resolved.address).to.equal('2606:4700:4700::1111');
    expect(resolved.family).to.equal(6);
    expect(resolved.url.href).to.equal('https://hooks.example.com/hook?x=1');
    expect(seen).to.deep.equal(['hooks.example.com', { all: true, verbatim: true }]);
    const v4 = await resolveUrl('https://hooks.example.com/', STRICT, answers('93.184.215.14'));
    expect(v4).to.include({ address: '93.184.215.14', family: 4 });
  });

  it('when the host is an IP literal, then it is used as is, without brackets and without a lookup', async () => {
    const lookup = async (): Promise<LookupAddress[]> => {
      throw new Error('no lookup expected');
    };
    expect(await resolveUrl('https://[2606:4700:4700::1111]/', STRICT, lookup)).to.include({ address: '2606:4700:4700::1111', family: 6 });
    expect(await resolveUrl('https://1.1.1.1/', STRICT, lookup)).to.include({ address: '1.1.1.1', family: 4 });
    expect(await resolveUrl('https://127.0.0.1/', DEV, lookup)).to.include({ address: '127.0.0.1', family: 4 });
  });

  it('when the name does not resolve or resolves to nothing, then delivery is refused as dns_failed', async () => {
    const notFound = async (): Promise<LookupAddress[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.example'), { code: 'ENOTFOUND' });
    };
    expect(await resolveOutcome('https://nowhere.example/', notFound)).to.equal('dns_failed');
    expect(await resolveOutcome('https://nowhere.example/', answers())).to.equal('dns_failed');
  });

  it('when the URL fails the syntax checks, then resolveUrl refuses it before any lookup', async () => {
    const lookup = async (): Promise<LookupAddress[]> => {
      throw new Error('no lookup expected');
    };
    expect(await resolveOutcome('http://hooks.example.com/', lookup)).to.equal('scheme_not_allowed');
    expect(await resolveOutcome('https://localhost/', lookup)).to.equal('address_not_allowed');
  });
});
