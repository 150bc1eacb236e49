// Session affinity with the real Claude Code CLI, offline: a conversation of three turns
// (`claude -p`, then `claude -p --resume <session_id>` twice) stays on one sharer while a second
// sharer of the same provider, model and price exists (SPEC §10, docs/affinity.md).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { CLAUDE_HANDLE, startStack } from './lib/harness.mjs';
import { claudeBinary, claudeDirs, runClaude } from './lib/claude-code.mjs';

const { bin, reason } = claudeBinary();
const SECOND_CLAUDE = 'L00000000000000c2';
const MODELS = ['claude-sonnet-5', 'claude-opus-4-8', 'claude-haiku-4-5-20251001'];

describe('Claude Code conversation through aile serve, two sharers at one price', () => {
  let stack;
  const dirs = claudeDirs();

  before(async () => {
    if (!bin) throw new Error(reason);
    stack = await startStack({
      extraSharers: [{ handle: SECOND_CLAUDE, name: 'fake-claude-2', provider: 'claude', models: MODELS, tested: MODELS }],
    });
  });

  after(async () => {
    if (stack) await stack.stop();
    dirs.remove();
  });

  test('three turns stay on one sharer, pinned', { timeout: 400000 }, async () => {
    const seen = new Set((await stack.traces('?limit=1000')).map((t) => t.id));
    const turnTraces = [];
    let sessionId = null;
    for (const [i, prompt] of ['say hi', 'say hi again', 'and once more'].entries()) {
      const extra = ['--model', 'claude-sonnet-5', ...(sessionId ? ['--resume', sessionId] : [])];
      const { result, stderr, code } = await runClaude(stack, prompt, extra, { dirs });
      const context = `turn ${i + 1}: result: ${JSON.stringify(result)}\nstderr: ${stderr}\nengine:\n${stack.logs()}`;
      assert.equal(code, 0, context);
      assert.equal(result.is_error, false, context);
      sessionId = result.session_id;
      assert.ok(sessionId, context);
      // This turn's conversation request(s): the claude-sonnet-5 ones Claude Code sent.
      const fresh = (await stack.traces('?limit=1000')).filter((t) => !seen.has(t.id));
      fresh.forEach((t) => seen.add(t.id));
      const turn = fresh.filter((t) => t.client === 'claude-code' && t.modelServed === 'claude/claude-sonnet-5');
      assert.ok(turn.length >= 1, `turn ${i + 1} reached the engine: ${JSON.stringify(fresh)}`);
      turnTraces.push(...turn.sort((a, b) => a.startedMs - b.startedMs));
    }
    const context = JSON.stringify(turnTraces.map((t) => ({ id: t.id, sharer: t.sharer, affinity: t.affinity, pin: t.pin })));
    for (const t of turnTraces) assert.equal(t.status, 200, context);
    const sharers = new Set(turnTraces.map((t) => t.sharer));
    assert.equal(sharers.size, 1, `every turn on one sharer: ${context}`);
    assert.ok([CLAUDE_HANDLE, SECOND_CLAUDE].includes(turnTraces[0].sharer), context);
    // The first request of the conversation is fresh; every later one was sent back to its account.
    assert.equal(turnTraces[0].affinity, 'fresh', context);
    for (const t of turnTraces.slice(1)) assert.equal(t.affinity, 'pinned', context);
    assert.equal(turnTraces.at(-1).pin.sharer, turnTraces[0].sharer, context);
  });
});
