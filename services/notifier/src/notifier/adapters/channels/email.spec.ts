import { inspect } from 'node:util';
import { ConfigError } from '@openq/platform';
import { PermanentSendError, TransientSendError } from './channel';
import {
  classifySmtpError,
  describeSmtp,
  EmailSender,
  messageIdFor,
  redactSmtpUrl,
  renderEmail,
  smtpConfigFromEnv,
} from './email';
import { sampleNotification } from './templates/sample-notification';

describe('renderEmail', () => {
  it('says a parked gate waits, with the question, the suggestion, the asker, what it blocks and both buttons', () => {
    const mail = renderEmail(sampleNotification());
    expect(mail.subject).toBe('[openq] QA gate on T-101 is waiting for your decision');
    expect(mail.text).toContain('• Should refunds above R$ 500 need a second approval?');
    expect(mail.text).toContain('Asked by the QA agent');
    expect(mail.text).toContain('Suggestion: Yes: above R$ 500 a second approver from finance confirms.');
    expect(mail.text).toContain('Affects: rules RN-7; stories S-12; tasks T-101');
    expect(mail.text).toContain('Blocks: QA gate on T-101');
    expect(mail.text).toContain('Accept the suggestion: https://openq.example.com/l/accept/tok-123');
    expect(mail.text).toContain('Open in openq: https://openq.example.com/projects/acme/inbox#q-1');
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.html).toMatch(
      /<a href="https:\/\/openq\.example\.com\/l\/accept\/tok-123" style="[^"]+">Accept the suggestion<\/a>/,
    );
    expect(mail.html).toMatch(
      /<a href="https:\/\/openq\.example\.com\/projects\/acme\/inbox#q-1" style="[^"]+">Open in openq<\/a>/,
    );
    expect(mail.html).not.toMatch(/<style|class=/);
  });

  it('words each kind differently', () => {
    const subject = (overrides: Parameters<typeof sampleNotification>[0]) =>
      renderEmail(sampleNotification(overrides)).subject;
    expect(subject({ kind: 'question_declared', gate: undefined })).toBe(
      '[openq] Decision needed: Should refunds above R$ 500 need a second approval?',
    );
    expect(subject({ kind: 'question_answered', gate: undefined })).toBe(
      '[openq] Answered: Should refunds above R$ 500 need a second approval?',
    );
    expect(subject({ kind: 'gate_resumed', gate: { taskId: 'T-101', gate: 'qa', trigger: 'answer' } })).toBe(
      '[openq] QA gate on T-101 resumed with your decision',
    );
    expect(
      subject({ kind: 'gate_resumed', gate: { taskId: 'T-7', gate: 'secops', trigger: 'override' } }),
    ).toBe("[openq] SecOps gate on T-7 resumed by a maintainer's override");
    expect(subject({ kind: 'gate_resumed', gate: { taskId: 'T-7', gate: 'qa', trigger: 'withdrawn' } })).toBe(
      '[openq] QA gate on T-7 resumed: its questions were withdrawn',
    );
    const two = sampleNotification().questions.concat({
      ...sampleNotification().questions[0]!,
      questionId: 'q-2',
    });
    expect(subject({ kind: 'question_declared', questions: two })).toBe(
      '[openq] 2 questions need your decision',
    );
    const leads = (['question_declared', 'gate_parked', 'question_answered', 'gate_resumed'] as const).map(
      (kind) => renderEmail(sampleNotification({ kind })).text.split('\n')[2],
    );
    expect(new Set(leads).size).toBe(4);
  });

  it('escapes what people and agents wrote, in text and attributes', () => {
    const n = sampleNotification({
      questions: [
        {
          questionId: 'q-x',
          pergunta: 'Use <script>alert("x")</script> & co?',
          sugestao: '"quoted" <b>bold</b>',
          autor: 'po',
          afeta: { regras: [], historias: [], tarefas: [] },
        },
      ],
      blocks: ['analyst for <T-20>'],
      links: { open: 'https://openq.example.com/x?a=1&b="2"' },
    });
    const mail = renderEmail(n);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('Use &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co?');
    expect(mail.html).toContain('&quot;quoted&quot; &lt;b&gt;bold&lt;/b&gt;');
    expect(mail.html).toContain('analyst for &lt;T-20&gt;');
    expect(mail.html).toContain('href="https://openq.example.com/x?a=1&amp;b=&quot;2&quot;"');
    expect(mail.text).toContain('Use <script>alert("x")</script> & co?');
    expect(mail.html).toContain('Asked by the PO agent');
  });

  it('shows the accept button only with an accept link, and never a non-web link', () => {
    const without = renderEmail(sampleNotification({ links: { open: 'https://openq.example.com/i' } }));
    expect(without.html).not.toContain('Accept the suggestion');
    expect(without.text).not.toContain('Accept the suggestion');
    const hostile = renderEmail(
      sampleNotification({ links: { open: 'https://openq.example.com/i', accept: 'javascript:alert(1)' } }),
    );
    expect(hostile.html).not.toContain('javascript:');
    expect(hostile.text).not.toContain('javascript:');
  });

  it('says so when a question has no suggestion', () => {
    const q = { ...sampleNotification().questions[0]!, sugestao: null };
    const mail = renderEmail(sampleNotification({ questions: [q], links: { open: 'https://o.example/i' } }));
    expect(mail.text).toContain('No suggestion was given.');
    expect(mail.html).not.toContain('<blockquote');
  });
});

describe('smtpConfigFromEnv', () => {
  const noFile = () => {
    throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  };

  it('is off when neither a URL nor a host is set', () => {
    expect(smtpConfigFromEnv({})).toBeNull();
  });

  it('reads host, port, user and the password by reference from a file', () => {
    const config = smtpConfigFromEnv(
      {
        OPENQ_SMTP_HOST: 'mail.example.com',
        OPENQ_SMTP_PORT: '465',
        OPENQ_SMTP_USER: 'notify',
        OPENQ_SMTP_PASSWORD_FILE: '/run/secrets/smtp',
        OPENQ_SMTP_FROM: 'openq <notify@example.com>',
      },
      (path) => (path === '/run/secrets/smtp' ? 's3cr3t-pw\n' : noFile()),
    )!;
    expect(config).toMatchObject({ host: 'mail.example.com', port: 465, secure: true, user: 'notify' });
    expect(config.password).toBe('s3cr3t-pw');
    expect(config.timeoutMs).toBe(10000);
    expect(describeSmtp(config)).toBe(
      'smtps://notify@mail.example.com:465 (pooled ×3, password from OPENQ_SMTP_PASSWORD_FILE=/run/secrets/smtp)',
    );
    expect(JSON.stringify(config)).not.toContain('s3cr3t-pw');
    expect(inspect(config)).not.toContain('s3cr3t-pw');
  });

  it('takes a URL, with the password from the file winning over none in the URL', () => {
    const config = smtpConfigFromEnv(
      {
        OPENQ_SMTP_URL: 'smtp://notify@127.0.0.1:2525',
        OPENQ_SMTP_PASSWORD_FILE: '/s',
        OPENQ_SMTP_FROM: 'n@example.com',
      },
      () => 'pw',
    )!;
    expect(config).toMatchObject({ host: '127.0.0.1', port: 2525, secure: false, user: 'notify' });
    expect(config.password).toBe('pw');
  });

  it('never echoes a URL with credentials, nor the password, in errors, descriptions or the sender', () => {
    const env = {
      OPENQ_SMTP_URL: 'smtp://notify:hunter2@mail.example.com',
      OPENQ_SMTP_FROM: 'n@example.com',
    };
    const config = smtpConfigFromEnv(env)!;
    expect(config.password).toBe('hunter2');
    expect(describeSmtp(config)).not.toContain('hunter2');
    const sender = new EmailSender(config);
    try {
      expect(`${sender} ${JSON.stringify({ sender })} ${inspect(sender)}`).not.toContain('hunter2');
    } finally {
      sender.close();
    }
    const bad = () =>
      smtpConfigFromEnv({ OPENQ_SMTP_URL: 'smtp://u:hunter2@ host', OPENQ_SMTP_FROM: 'n@e.com' });
    expect(bad).toThrow(ConfigError);
    expect(bad).not.toThrow(/hunter2/);
    const notSmtp = () =>
      smtpConfigFromEnv({ OPENQ_SMTP_URL: 'http://u:hunter2@host', OPENQ_SMTP_FROM: 'n@e.com' });
    expect(notSmtp).toThrow(/OPENQ_SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL$/);
  });

  it('refuses bad settings with a line naming the variable', () => {
    expect(() => smtpConfigFromEnv({ OPENQ_SMTP_HOST: 'h' })).toThrow(/OPENQ_SMTP_FROM is required/);
    expect(() =>
      smtpConfigFromEnv({ OPENQ_SMTP_HOST: 'h', OPENQ_SMTP_URL: 'smtp://h', OPENQ_SMTP_FROM: 'n@e.com' }),
    ).toThrow(/not both/);
    expect(() =>
      smtpConfigFromEnv({ OPENQ_SMTP_HOST: 'h', OPENQ_SMTP_PORT: 'x', OPENQ_SMTP_FROM: 'n@e.com' }),
    ).toThrow(/OPENQ_SMTP_PORT must be a TCP port/);
    expect(() => smtpConfigFromEnv({ OPENQ_SMTP_HOST: 'h', OPENQ_SMTP_FROM: 'not an address' })).toThrow(
      /OPENQ_SMTP_FROM must be an address/,
    );
    expect(() =>
      smtpConfigFromEnv(
        {
          OPENQ_SMTP_HOST: 'h',
          OPENQ_SMTP_USER: 'u',
          OPENQ_SMTP_PASSWORD_FILE: '/nope',
          OPENQ_SMTP_FROM: 'n@e.com',
        },
        noFile,
      ),
    ).toThrow('Invalid configuration: OPENQ_SMTP_PASSWORD_FILE cannot be read (ENOENT: /nope)');
    expect(() =>
      smtpConfigFromEnv(
        { OPENQ_SMTP_HOST: 'h', OPENQ_SMTP_PASSWORD_FILE: '/s', OPENQ_SMTP_FROM: 'n@e.com' },
        () => 'p',
      ),
    ).toThrow(/needs a user/);
  });
});

describe('redactSmtpUrl', () => {
  it('hides the password and keeps the rest', () => {
    expect(redactSmtpUrl('smtps://notify:p%40ss@mail.example.com:465')).toBe(
      'smtps://notify:***@mail.example.com:465',
    );
    expect(redactSmtpUrl('smtp://mail.example.com:25')).toBe('smtp://mail.example.com:25');
    expect(redactSmtpUrl('connect to smtp://a:b@h and smtp://c:d@i')).toBe(
      'connect to smtp://a:***@h and smtp://c:***@i',
    );
  });
});

describe('messageIdFor', () => {
  it('is the same for the same delivery id and takes the sender domain', () => {
    expect(messageIdFor('d-1', 'openq <notify@example.com>')).toBe('<openq.d-1@example.com>');
    expect(messageIdFor('d-1', 'notify@example.com')).toBe('<openq.d-1@example.com>');
    const odd = messageIdFor('a b<c>@d', 'n@example.com');
    expect(odd).toMatch(/^<openq\.[0-9a-f]{32}@example\.com>$/);
    expect(messageIdFor('a b<c>@d', 'n@example.com')).toBe(odd);
  });
});

describe('classifySmtpError', () => {
  it.each([
    [
      { responseCode: 550, code: 'EENVELOPE', response: '550 5.1.1 no such user' },
      PermanentSendError,
      'smtp_recusou',
    ],
    [{ responseCode: 554, code: 'EMESSAGE', response: '554 spam' }, PermanentSendError, 'smtp_recusou'],
    [
      { responseCode: 451, code: 'EMESSAGE', response: '451 try later' },
      TransientSendError,
      'smtp_indisponivel',
    ],
    [{ responseCode: 421, code: 'EPROTOCOL' }, TransientSendError, 'smtp_indisponivel'],
    [
      { responseCode: 535, code: 'EAUTH', response: '535 bad login' },
      TransientSendError,
      'smtp_indisponivel',
    ],
    [{ code: 'ECONNECTION', message: 'connect ECONNREFUSED' }, TransientSendError, 'smtp_indisponivel'],
    [{ code: 'ETIMEDOUT', message: 'Greeting never received' }, TransientSendError, 'smtp_indisponivel'],
  ])('%j → %p', (error, kind, reason) => {
    const classified = classifySmtpError(
      Object.assign(new Error('message' in error ? error.message : 'x'), error),
    );
    expect(classified).toBeInstanceOf(kind);
    expect((classified as Error & { reason: string }).reason).toBe(reason);
  });
});
