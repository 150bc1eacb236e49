// Subscription logins with the real CLIs (docs/subscriptions.md), offline against the fake upstream's
// subscription front doors: Claude Code with CLAUDE_CODE_OAUTH_TOKEN and the local key in
// ANTHROPIC_CUSTOM_HEADERS, and the Codex CLI with a test ChatGPT login in its auth.json
// (requires_openai_auth, the local key through env_http_headers). One turn is served by the
// subscription ("credential": "client"); its window is then spent (POST /__fake/exhaust) and the next
// turn is served by the API-key sharer, the traces saying why.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';

import { CLAUDE_HANDLE, startStack } from './lib/harness.mjs';
import { claudeBinary, runClaude } from './lib/claude-code.mjs';
import { codexBinary, codexHome, runCodex, testChatGptLogin } from './lib/codex.mjs';

const CLAUDE_SUB = 'L00000000000005b1';
const CODEX_SUB = 'L00000000000005c1';
const CODEX_KEY = 'L000000000000a9f1';
const OAUTH_TOKEN = 'sk-ant-oat01-e2e-test-login-0000';
const ACCOUNT = 'acct-e2e-7d21';
const CLAUDE_MODELS = ['claude-sonnet-5', 'claude-opus-4-8', 'claude-haiku-4-5-20251001'];

async function spend(stack, account) {
  const res = await fetch(`http://127.0.0.1:${stack.upstreamPort}/__fake/exhaust?account=${encodeURIComponent(account)}&seconds=3600`, { method: 'POST' });
  assert.equal(res.status, 200, await res.text());
}

async function newTraces(stack, seen) {
  return (await stack.traces('?limit=1000')).filter((t) => !seen.has(t.id));
}

function rowFor(trace, handle) {
  return (trace.attemptRows ?? []).find((r) => r.sharer === handle);
}

/** Every turn served by `served`; and why not by the subscription: its refusal or its skip. */
function assertMovedFor(turns, subscription, served, context) {
  for (const t of turns) assert.equal(t.sharer, served, `served by the API key\n${context}`);
  const why = turns.map((t) => rowFor(t, subscription)).filter(Boolean);
  assert.ok(why.length >= 1, context);
  for (const row of why) {
    assert.ok(row.skip === 'quota_exhausted' || /subscription window spent until/.test(row.reason), JSON.stringify(row));
  }
}

describe('subscription logins through aile serve', () => {
  let stack;

  before(async () => {
    for (const { bin, reason } of [claudeBinary(), codexBinary()]) if (!bin) throw new Error(reason);
    stack = await startStack({
      extraSharers: [
        // Above the API keys: the subscriptions serve while their windows last.
        { handle: CLAUDE_SUB, name: 'claude-max-login', provider: 'claude', kind: 'subscription', credential: 'client', priority: 10,
          models: CLAUDE_MODELS, tested: CLAUDE_MODELS },
        (base) => ({ handle: CODEX_SUB, name: 'chatgpt-login', provider: 'codex', kind: 'subscription', credential: 'client', priority: 10,
          baseUrl: `${base}/backend-api/codex`, models: ['gpt-5.5'], tested: ['gpt-5.5'] }),
        (base) => ({ handle: CODEX_KEY, name: 'openai-api-key', provider: 'codex', kind: 'api-key', credential: 'env:FAKE_UPSTREAM_KEY',
          baseUrl: `${base}/v1`, models: ['gpt-5.5'], tested: ['gpt-5.5'] }),
      ],
    });
  });

  after(async () => {
    if (stack) await stack.stop();
  });

  test('Claude Code on its own login, then on the API key once the window is spent', { timeout: 300000 }, async () => {
    const env = {
      ANTHROPIC_API_KEY: undefined,
      CLAUDE_CODE_OAUTH_TOKEN: OAUTH_TOKEN,
      ANTHROPIC_CUSTOM_HEADERS: `x-aile-key: ${stack.key}`,
    };
    const turn = async (label) => {
      const seen = new Set((await stack.traces('?limit=1000')).map((t) => t.id));
      const { result, stderr, code } = await runClaude(stack, 'say hi', ['--model', 'claude-sonnet-5'], { env });
      const traces = await newTraces(stack, seen);
      const context = `${label}\nresult: ${JSON.stringify(result)}\nstderr: ${stderr}\ntraces: ${JSON.stringify(traces)}\nengine:\n${stack.logs()}`;
      assert.equal(code, 0, context);
      assert.equal(result.is_error, false, context);
      assert.equal(result.result, 'Hello!', context);
      const turns = traces.filter((t) => t.client === 'claude-code' && t.modelServed === 'claude/claude-sonnet-5');
      assert.ok(turns.length >= 1, context);
      return { turns, context };
    };

    const first = await turn('first turn');
    for (const t of first.turns) assert.equal(t.sharer, CLAUDE_SUB, `served by the subscription login\n${first.context}`);

    await spend(stack, OAUTH_TOKEN);
    const second = await turn('second turn, window spent');
    // Why: the subscription's 429 named its spent window, or it was passed over until the reset.
    assertMovedFor(second.turns, CLAUDE_SUB, CLAUDE_HANDLE, second.context);
  });

  test('Codex on its ChatGPT login, then on the API key once the window is spent', { timeout: 300000 }, async () => {
    const login = testChatGptLogin(ACCOUNT);
    const home = codexHome(stack, login);
    try {
      const turn = async (label) => {
        const seen = new Set((await stack.traces('?limit=1000')).map((t) => t.id));
        const { stdout, stderr, code } = await runCodex(stack, home.home, 'say hi');
        const traces = await newTraces(stack, seen);
        const context = `${label}\nstdout: ${stdout}\nstderr: ${stderr}\ntraces: ${JSON.stringify(traces)}\nengine:\n${stack.logs()}`;
        assert.equal(code, 0, context);
        assert.match(stdout, /Hello!/, context);
        const turns = traces.filter((t) => t.endpoint === '/v1/responses' && t.status === 200);
        assert.ok(turns.length >= 1, context);
        return { turns, context };
      };
      const first = await turn('first turn');
      for (const t of first.turns) assert.equal(t.sharer, CODEX_SUB, `served by the ChatGPT login\n${first.context}`);

      await spend(stack, ACCOUNT);
      const second = await turn('second turn, window spent');
      assertMovedFor(second.turns, CODEX_SUB, CODEX_KEY, second.context);
    } finally {
      home.remove();
    }
  });
});
