import type { Page } from 'playwright-core';
import { englishLeft as englishLeftIn, waitFor } from '@openq/testing';
import { SmtpSink } from '@openq/testing/smtp-sink';
import { ENGLISH_ONLY } from '../../services/notifier/src/notifier/adapters/channels/templates/language-samples';
import { declare } from '../support/context-helpers';
import { useInboxStack } from '../support/inbox-harness';
import { englishLeft } from '../support/inbox-words';

/*
 * Issue #30 the inbox's language switch is the person's language for what openq sends them, in
 * real headless Chromium against the whole stack with the notifier and a real SMTP server: ana
 * switches the header to Português on the settings page → the page and its language section say
 * so, `GET /me/language` says pt-BR, and the next question's e-mail to her is in Portuguese (the
 * one before was in English). A maintainer sets the project's language from the settings page and
 * a person who chose none gets it; a developer sees that control disabled, and forced, the
 * server's 403 is said in words.
 */
let smtp: SmtpSink;
beforeAll(async () => {
  smtp = await SmtpSink.start();
});
afterAll(async () => {
  await smtp?.stop();
});
const harness = useInboxStack(() => ({
  services: ['questions', 'gates', 'context', 'notifier'],
  env: { ...smtp.env(), NOTIFIER_POLL_MS: '50', OPENQ_PUBLIC_URL: 'https://openq.example.com' },
}));

/** The person's e-mail channel on `project`, sent one by one. */
async function emailOn(user: string, project: string): Promise<string> {
  const address = `${user}@example.com`;
  const put = await harness.stack.http('PUT', `/projects/${project}/notification-channels`, {
    token: harness.stack.token(user, project, 'viewer'),
    body: { email: { address, mode: 'immediate' } },
  });
  expect(put.status).toBe(200);
  return address;
}

/** The e-mail whose subject ends with `pergunta`, once it came. */
function mailAbout(address: string, pergunta: string) {
  return waitFor(() => smtp.to(address).find((m) => (m.subject ?? '').endsWith(pergunta)), {
    what: `the e-mail to ${address} about “${pergunta}”`,
  });
}

/** The settings page, from the header's link (whatever the page's language). */
async function openSettings(page: Page): Promise<void> {
  await page.locator('#settings-link').click();
  await page.locator('#settings-title').waitFor();
  await page.locator('section.languages [data-testid="language-mine-state"]').waitFor();
}

const mineState = (page: Page) => page.getByTestId('language-mine-state').innerText();
const projectState = (page: Page) => page.getByTestId('language-project-state').innerText();

describe('the language of what openq sends, from the inbox', () => {
  it('the header’s switch sets the person’s language: her next e-mail is in Portuguese', async () => {
    const P = 'idioma-ana';
    const address = await emailOn('ana', P);
    // Before: English, said as openq's default.
    await declare(harness.stack, P, 'Archive or delete the old codes?', {}, 'Archive', {
      author: 'ana',
      autor: 'arquiteto',
    });
    const before = await mailAbout(address, 'Archive or delete the old codes?');
    expect(before.subject).toBe('[openq] Decision needed: Archive or delete the old codes?');

    const ana = await harness.person('ana', P, 'viewer');
    const page = ana.page;
    await openSettings(page);
    expect(await mineState(page)).toBe('Neither you nor this project chose one: openq’s default — English.');
    expect(await projectState(page)).toBe(
      `${P} has none: people who chose no language get openq’s default — English.`,
    );

    // The switch: the page in Portuguese at once, and her setting kept on the server.
    await page.getByLabel('Language', { exact: true }).selectOption('pt-BR');
    await page.getByRole('heading', { name: 'Idioma dos e-mails e do Slack' }).waitFor();
    await page
      .getByTestId('language-mine-state')
      .getByText('Sua escolha, em todos os projetos: Português (Brasil).')
      .waitFor();
    expect(await page.locator('#language-mine').inputValue()).toBe('pt-BR');
    expect(
      await harness.stack.http('GET', '/me/language', { token: harness.stack.token('ana', P, 'viewer') }),
    ).toMatchObject({ status: 200, body: { language: 'pt-BR' } });
    // Remembered by the page too; reloaded (the server's shell then speaks Portuguese as well), the
    // whole settings page has no English left — but ana's address, which is data.
    await page.reload();
    await page
      .getByTestId('language-mine-state')
      .getByText('Sua escolha, em todos os projetos: Português (Brasil).')
      .waitFor();
    expect((await englishLeft(page)).filter((w) => w !== 'example')).toEqual([]);
    await page.locator('#settings-language').scrollIntoViewIfNeeded();
    await ana.screenshot('settings-language-pt-BR', { fullPage: false });

    const pergunta = 'Arquivar ou apagar os códigos antigos?';
    await declare(harness.stack, P, pergunta, {}, 'Arquivar', { author: 'ana', autor: 'arquiteto' });
    const after = await mailAbout(address, pergunta);
    expect(after.subject).toBe(`[openq] Decisão necessária: ${pergunta}`);
    expect(String(after.html)).toContain('<html lang="pt-BR">');
    const mail = `${after.subject}\n${after.text ?? ''}\n${String(after.html ?? '')}`;
    expect(englishLeftIn(mail, ENGLISH_ONLY)).toEqual([]);

    // Set back to none from the settings form: the page stays in Portuguese, e-mails follow the project.
    await page.locator('#language-mine').selectOption('');
    await page.getByRole('button', { name: 'Salvar meu idioma' }).click();
    await page.getByTestId('language-mine-said').getByText('Seu idioma foi salvo.').waitFor();
    expect(await mineState(page)).toBe(
      'Nem você nem este projeto escolheram um: o padrão do openq — Inglês.',
    );
    expect(
      await harness.stack.http('GET', '/me/language', { token: harness.stack.token('ana', P, 'viewer') }),
    ).toMatchObject({ status: 200, body: { language: null } });
  });

  it('a maintainer sets the project’s language in settings; a person who chose none gets it', async () => {
    const P = 'idioma-projeto';
    const address = await emailOn('bia', P);
    const maria = await harness.person('maria', P, 'maintainer');
    const page = maria.page;
    await openSettings(page);
    expect(await page.locator('#language-project').isDisabled()).toBe(false);
    expect(await page.getByTestId('language-project-readonly').count()).toBe(0);
    await page.locator('#language-project').selectOption('pt-BR');
    await page.getByRole('button', { name: 'Save the project’s language' }).click();
    await page.getByTestId('language-project-said').getByText('Project language saved.').waitFor();
    expect(await projectState(page)).toBe(`People on ${P} who chose no language get: Portuguese (Brazil).`);
    // Maria chose none either: hers is now the project's, said as such.
    expect(await mineState(page)).toBe('You chose none, so the project’s: Portuguese (Brazil).');
    // The page itself stays in the browser's language: the project's is for what openq sends.
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    const bia = harness.stack.token('bia', P, 'viewer');
    expect(await harness.stack.http('GET', '/me/language', { token: bia })).toMatchObject({
      body: { language: null },
    });
    expect(await harness.stack.http('GET', `/projects/${P}/language`, { token: bia })).toMatchObject({
      status: 200,
      body: { language: 'pt-BR', effective: 'pt-BR' },
    });
    const pergunta = 'Mostrar os preços com imposto?';
    await declare(harness.stack, P, pergunta, {}, null, { author: 'bia', autor: 'po' });
    const mail = await mailAbout(address, pergunta);
    expect(mail.subject).toBe(`[openq] Decisão necessária: ${pergunta}`);
    expect(
      englishLeftIn(`${mail.subject}\n${mail.text ?? ''}\n${String(mail.html ?? '')}`, ENGLISH_ONLY),
    ).toEqual([]);
  });

  it('a developer reads the project’s language but cannot change it; forced, the 403 is said in words', async () => {
    const P = 'idioma-dev';
    const set = await harness.stack.http('PUT', `/projects/${P}/language`, {
      token: harness.stack.token('maria', P, 'maintainer'),
      body: { language: 'pt-BR' },
    });
    expect(set.status).toBe(200);
    const dev = await harness.person('davi', P, 'developer');
    const page = dev.page;
    await openSettings(page);
    expect(await projectState(page)).toBe(`People on ${P} who chose no language get: Portuguese (Brazil).`);
    expect(await mineState(page)).toBe('You chose none, so the project’s: Portuguese (Brazil).');
    const select = page.locator('#language-project');
    const save = page.getByRole('button', { name: 'Save the project’s language' });
    expect(await select.isDisabled()).toBe(true);
    expect(await save.isDisabled()).toBe(true);
    expect(await page.getByTestId('language-project-readonly').innerText()).toBe(
      'Only the project’s maintainers and owners change this.',
    );

    await page.locator('#settings-language').scrollIntoViewIfNeeded();
    await dev.screenshot('settings-language-developer', { fullPage: false });
    // Forced: the controls enabled by hand, the server refuses and the page says why.
    await page.evaluate(() => {
      document.getElementById('language-project')?.removeAttribute('disabled');
      document.querySelector('form.language-project button[type="submit"]')?.removeAttribute('disabled');
    });
    await select.selectOption('en');
    await save.click();
    const refused = page.getByTestId('language-project-error');
    await refused.waitFor();
    expect(await refused.innerText()).toBe('Your role on this project does not allow this.');
    expect(await refused.getAttribute('role')).toBe('alert');
    expect(
      await harness.stack.http('GET', `/projects/${P}/language`, {
        token: harness.stack.token('davi', P, 'developer'),
      }),
    ).toMatchObject({ body: { language: 'pt-BR' } });
    // The refused PUT's 403 is on purpose; nothing else may have gone wrong.
    expect(dev.problems).toEqual([expect.stringContaining('403 (Forbidden)')]);
    dev.problems.length = 0;
  });

  it('says under the switch when openq could not keep the choice; the page switches anyway', async () => {
    const P = 'idioma-rede';
    const rui = await harness.person('rui', P, 'viewer');
    const page = rui.page;
    await page.route('**/me/language', (route) => route.abort());
    await page.getByLabel('Language', { exact: true }).selectOption('pt-BR');
    const said = page.locator('.picker.language [role="alert"]');
    await said.waitFor();
    expect(await said.innerText()).toBe(
      'A página está no novo idioma, mas o openq não conseguiu guardá-lo para o que envia a você: Não foi possível falar com o openq — verifique sua conexão.',
    );
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-BR');
    expect(
      await harness.stack.http('GET', '/me/language', { token: harness.stack.token('rui', P, 'viewer') }),
    ).toMatchObject({ status: 200, body: { language: null } });
    await rui.screenshot('language-switch-not-kept', { fullPage: false });
    // The aborted PUT is on purpose; nothing else may have gone wrong.
    expect(rui.problems).toEqual([expect.stringContaining('net::ERR_FAILED')]);
    rui.problems.length = 0;
  });
});
