// Smoke test of the real Claude Code CLI through the engine, offline: one `claude -p "say hi"
// --output-format json --model claude-sonnet-5` turn against the fake upstream. Claude Code sends the
// bare model name; the engine recognises the client by its headers and routes it to provider claude
// (SPEC §4). The model is named because the CLI's default changes between versions (2.1.332 sends
// claude-opus-5-5, not the claude-opus-4-8 CLIENTS.md saw).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { CLAUDE_HANDLE, startStack } from './lib/harness.mjs';
import { claudeBinary, runClaude } from './lib/claude-code.mjs';
import { assertServedTrace } from './lib/expect.mjs';

const { bin, reason } = claudeBinary();

describe('Claude Code CLI through aile serve', () => {
  let stack;

  before(async () => {
    if (!bin) throw new Error(reason);
    stack = await startStack();
  });

  after(async () => {
    if (stack) await stack.stop();
  });

  test('claude -p "say hi" --output-format json --model claude-sonnet-5', { timeout: 180000 }, async () => {
    const before = new Set((await stack.traces('?limit=1000')).map((t) => t.id));
    const { result, stderr, code } = await runClaude(stack, 'say hi', ['--model', 'claude-sonnet-5']);
    const context = `result: ${JSON.stringify(result)}\nstderr: ${stderr}\nengine:\n${stack.logs()}`;
    assert.equal(code, 0, `claude exited with ${code}\n${context}`);
    assert.equal(result.type, 'result', context);
    assert.equal(result.is_error, false, context);
    assert.equal(result.result, 'Hello!', context);
    assert.ok(result.session_id, `a session id\n${context}`);

    const traces = (await stack.traces('?limit=1000')).filter((t) => !before.has(t.id));
    const fromClaude = traces.filter((t) => t.client === 'claude-code');
    assert.ok(fromClaude.length >= 1, `the turn shows in GET /keys/usage/requests as claude-code: ${JSON.stringify(traces)}`);
    for (const t of fromClaude) assert.equal(t.status, 200, `every Claude Code request was served: ${JSON.stringify(t)}`);
    // The conversation turn itself: the bare model, routed to provider claude.
    const turn = fromClaude.find((t) => t.modelServed === 'claude/claude-sonnet-5');
    assert.ok(turn, `a request served as claude/claude-sonnet-5: ${JSON.stringify(fromClaude)}`);
    assert.equal(turn.modelAsked, 'claude-sonnet-5', JSON.stringify(turn));
    assertServedTrace(turn, {
      model: 'claude/claude-sonnet-5', sharer: CLAUDE_HANDLE, client: 'claude-code', endpoint: '/v1/messages', stream: true,
    });
  });
});
