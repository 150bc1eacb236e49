// Assertions shared by the end-to-end tests.
import assert from 'node:assert/strict';

/** The proxy's own headers on a served answer (SPEC §3). Returns the request id. */
export function assertAileHeaders(headers, { model, sharer }) {
  const get = (name) => headers.get(name);
  const id = get('x-aile-request-id');
  assert.ok(id, 'x-aile-request-id is missing');
  assert.equal(get('x-aile-model'), model, 'x-aile-model');
  assert.equal(get('x-aile-sharer'), sharer, 'x-aile-sharer');
  assert.equal(get('x-aile-attempts'), '1', 'x-aile-attempts');
  assert.ok(get('x-aile-price'), 'x-aile-price is missing');
  return id;
}

/** A served request as GET /keys/usage/requests shows it. */
export function assertServedTrace(trace, { model, sharer, endpoint, stream, client, inputTokens = 12, outputTokens = 5 }) {
  const context = JSON.stringify(trace);
  assert.equal(trace.keyName, 'e2e', `trace keyName: ${context}`);
  if (client !== undefined) assert.equal(trace.client, client, `trace client: ${context}`);
  assert.equal(trace.status, 200, `trace status: ${context}`);
  assert.equal(trace.modelServed, model, `trace modelServed: ${context}`);
  assert.equal(trace.sharer, sharer, `trace sharer: ${context}`);
  if (endpoint !== undefined) assert.equal(trace.endpoint, endpoint, `trace endpoint: ${context}`);
  if (stream !== undefined) assert.equal(trace.stream, stream, `trace stream: ${context}`);
  if (inputTokens !== null) assert.equal(trace.inputTokens, inputTokens, `trace inputTokens: ${context}`);
  if (outputTokens !== null) assert.equal(trace.outputTokens, outputTokens, `trace outputTokens: ${context}`);
  assert.ok(Array.isArray(trace.attemptRows), `trace attemptRows: ${context}`);
  assert.equal(trace.attemptRows.length, 1, `one attempt row: ${context}`);
  const a = trace.attemptRows[0];
  assert.equal(a.sharer, sharer, `attempt sharer: ${context}`);
  assert.equal(a.status, 200, `attempt status: ${context}`);
  assert.equal(a.outcome, 'served', `attempt outcome: ${context}`);
}
