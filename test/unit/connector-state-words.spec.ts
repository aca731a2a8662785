// The words the side panel uses for a backend connector's state (extension/src/sidepanel/connectors.ts),
// from what the bridge reports: the retry countdown runs from when the panel got the list, and a
// backend that refused is told apart from one that is not there. And which addresses turn Add on.
import { expect } from 'chai';

import { backendUrlProblem, connectorState } from '../../extension/src/sidepanel/connectors';
import type { BackendConnectorInfo } from '../../schemas/generated/protocol';

const base: BackendConnectorInfo = {
  connector_id: 'c1',
  dialect: '001',
  url: 'ws://127.0.0.1:8080',
  client_name: 'seed001-connector ws://127.0.0.1:8080',
  session_id: 's1',
  backend: 'retrying',
  retry_in_ms: 4000,
  last_error: {
    error_code: 'BACKEND_UNREACHABLE',
    message: 'No backend answers at ws://127.0.0.1:8080 (connect ECONNREFUSED 127.0.0.1:8080).',
    component_origin: 'bridge',
    details: { url: 'ws://127.0.0.1:8080', reason: 'unreachable' },
  },
};

describe('side panel: a backend connector state in words', () => {
  it('connected and connecting', () => {
    expect(connectorState({ ...base, backend: 'connected', last_error: null, retry_in_ms: null }, 0, 0)).to.deep.equal({
      key: 'connected',
      text: 'Connected',
    });
    expect(connectorState({ ...base, backend: 'connecting', last_error: null }, 0, 0).text).to.equal('Connecting…');
  });

  it('not reachable, counting down from when the list arrived, then trying again', () => {
    expect(connectorState(base, 1000, 1000).text).to.equal('Not reachable (retrying in 4 s)');
    expect(connectorState(base, 3500, 1000).text).to.equal('Not reachable (retrying in 2 s)');
    expect(connectorState(base, 6000, 1000).text).to.equal('Not reachable (trying again now)');
  });

  it('refused, with the reason the bridge saw', () => {
    const refused = { ...base, last_error: { ...base.last_error!, details: { reason: 'refused', refusal: 'HTTP 403 Forbidden' } } };
    expect(connectorState(refused, 0, 0)).to.deep.equal({ key: 'refused', text: 'Refused: HTTP 403 Forbidden (retrying in 4 s)' });
  });

  it('Add takes ws:// and wss:// addresses only', () => {
    expect(backendUrlProblem('')).to.equal(null);
    expect(backendUrlProblem('ws://localhost:8080')).to.equal(null);
    expect(backendUrlProblem('wss://127.0.0.1:9000/agent')).to.equal(null);
    expect(backendUrlProblem('http://localhost:8080')).to.contain('ws://');
    expect(backendUrlProblem('localhost:8080')).to.be.a('string');
    expect(backendUrlProblem('ws//nope')).to.contain('ws://localhost:8080');
  });
});
