import { slackSignature, verifySlackSignature } from './slack-signature';

// Slack's own worked example (api.slack.com, "Verifying requests from Slack").
const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const BODY =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
const TS = 1531420618;
const SIGNATURE = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';

describe('Slack request signatures (v0)', () => {
  it("accepts Slack's worked example and makes the same signature", () => {
    expect(slackSignature(SECRET, TS, BODY)).toBe(SIGNATURE);
    expect(verifySlackSignature(SECRET, String(TS), SIGNATURE, Buffer.from(BODY), TS + 10)).toBe(true);
  });

  it('refuses another body, another secret, a malformed or missing header', () => {
    const ok = (secret: string, ts: string | undefined, sig: string | undefined, body = BODY) =>
      verifySlackSignature(secret, ts, sig, Buffer.from(body), TS);
    expect(ok(SECRET, String(TS), SIGNATURE, `${BODY}&x=1`)).toBe(false);
    expect(ok('another-secret', String(TS), SIGNATURE)).toBe(false);
    expect(ok(SECRET, String(TS), SIGNATURE.replace('v0=', 'v1='))).toBe(false);
    expect(ok(SECRET, String(TS), 'v0=abc')).toBe(false);
    expect(ok(SECRET, String(TS), undefined)).toBe(false);
    expect(ok(SECRET, undefined, SIGNATURE)).toBe(false);
    expect(ok(SECRET, 'yesterday', SIGNATURE)).toBe(false);
  });

  it('refuses a timestamp more than five minutes away, either way', () => {
    const at = (now: number) => verifySlackSignature(SECRET, String(TS), SIGNATURE, Buffer.from(BODY), now);
    expect(at(TS + 300)).toBe(true);
    expect(at(TS + 301)).toBe(false);
    expect(at(TS - 301)).toBe(false);
  });
});
