import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InboxAssets } from './inbox-assets';
import { fromAcceptLanguage, pageLanguage } from './page-language';
import { appPage, signInPage } from './pages';

describe('the language of the server-rendered pages', () => {
  it('takes the best Accept-Language openq speaks, by quality then order', () => {
    expect(fromAcceptLanguage('pt-BR,pt;q=0.9,en;q=0.8')).toBe('pt-BR');
    expect(fromAcceptLanguage('pt-PT')).toBe('pt-BR');
    expect(fromAcceptLanguage('en-GB,en;q=0.9')).toBe('en');
    expect(fromAcceptLanguage('ru;q=1, en;q=0.3, pt;q=0.7')).toBe('pt-BR');
    expect(fromAcceptLanguage('de, fr;q=0.5')).toBeNull();
    expect(fromAcceptLanguage('pt;q=0, en')).toBe('en');
    expect(fromAcceptLanguage('*')).toBeNull();
    expect(fromAcceptLanguage(undefined)).toBeNull();
  });

  it('prefers the choice made in the inbox (openq_lang cookie), else English', () => {
    expect(pageLanguage({ cookie: 'openq_token=x; openq_lang=pt-BR', 'accept-language': 'en' })).toBe(
      'pt-BR',
    );
    expect(pageLanguage({ cookie: 'openq_lang=en', 'accept-language': 'pt-BR' })).toBe('en');
    expect(pageLanguage({ cookie: 'openq_lang=xx', 'accept-language': 'pt' })).toBe('pt-BR');
    expect(pageLanguage({ 'accept-language': 'ru' })).toBe('en');
    expect(pageLanguage({})).toBe('en');
  });

  // The pages only name the files: a stand-in of dist/inbox/ (no build needed for this spec).
  const dir = mkdtempSync(join(tmpdir(), 'openq-inbox-'));
  for (const name of ['app.js', 'embed.js', 'inbox.css', 'hands.css', 'favicon.svg'])
    writeFileSync(join(dir, name), `/* ${name} */`);
  const assets = new InboxAssets(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says the app shell and its boot line in that language, with <html lang>', () => {
    const pt = appPage(assets, { devLogin: false }, 'pt-BR').html;
    expect(pt).toContain('<html lang="pt-BR">');
    expect(pt).toContain('Carregando sua caixa de entrada…');
    expect(pt).toContain('A caixa de entrada precisa de JavaScript');
    const en = appPage(assets, { devLogin: false }, 'en').html;
    expect(en).toContain('<html lang="en">');
    expect(en).toContain('Loading your inbox…');
  });

  it('says the sign-in page in that language', () => {
    const pt = signInPage(assets, 'rejected', { devLogin: true }, 'pt-BR');
    expect(pt).toContain('<html lang="pt-BR">');
    expect(pt).toContain('Entrar no openq');
    expect(pt).toContain('Seu login não vale mais');
    expect(pt).toContain('Entrar (desenvolvimento)');
    expect(pt).not.toMatch(/Sign in|You are not/);
    expect(signInPage(assets, 'missing', { devLogin: false }, 'en')).toContain('You are not signed in.');
  });
});
