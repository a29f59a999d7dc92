import { SERVICE_PORTS } from '@openq/platform';
import { healthTarget } from './healthcheck';

describe('healthcheck target', () => {
  it('probes /readyz on the port of the service the container runs', () => {
    expect(healthTarget({ OPENQ_SERVICE: 'questions' }, [])).toEqual({
      port: SERVICE_PORTS.questions.port,
      path: '/readyz',
    });
    expect(healthTarget({ OPENQ_SERVICE: 'gates', GATES_HTTP_PORT: '9102' }, [])).toEqual({
      port: 9102,
      path: '/readyz',
    });
    expect(healthTarget({}, [])).toEqual({ port: 3000, path: '/readyz' });
    expect(healthTarget({ PORT: '8080' }, ['gateway', '--path', '/healthz'])).toEqual({
      port: 8080,
      path: '/healthz',
    });
  });

  it('refuses an unknown service or a bad port', () => {
    expect(healthTarget({ OPENQ_SERVICE: 'nope' }, [])).toMatch(/unknown service nope/);
    expect(healthTarget({ OPENQ_SERVICE: 'context', CONTEXT_HTTP_PORT: 'x' }, [])).toMatch(
      /CONTEXT_HTTP_PORT/,
    );
  });
});
