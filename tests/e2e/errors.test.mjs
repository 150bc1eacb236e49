// Refusals as the official clients see them: the engine's errors are in each wire's own shape, so the
// SDKs raise their own typed errors (AuthenticationError for 401, BadRequestError for 400).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';

import { startStack } from './lib/harness.mjs';

const WRONG_KEY = 'sk-aile-not-a-key-0000000000000000';

describe('refusals through the official clients', () => {
  let stack;

  before(async () => {
    stack = await startStack();
  });

  after(async () => {
    if (stack) await stack.stop();
  });

  const openai = (apiKey = stack.key) => new OpenAI({ apiKey, baseURL: stack.openaiBaseUrl, maxRetries: 0, timeout: 20000 });
  const anthropic = (apiKey = stack.key) => new Anthropic({ apiKey, baseURL: stack.baseUrl, maxRetries: 0, timeout: 20000 });

  /** No trace of a served request was written for a refused one: the newest trace is not a 200 by it. */
  async function assertNothingServedSince(before) {
    const traces = await stack.traces('?limit=1000');
    const served = traces.filter((t) => !before.has(t.id) && t.status === 200);
    assert.deepEqual(served, [], 'a refused request served nothing');
  }

  async function traceIds() {
    return new Set((await stack.traces('?limit=1000')).map((t) => t.id));
  }

  test('openai: a wrong key is AuthenticationError (401) in the OpenAI error shape', async () => {
    const seen = await traceIds();
    for (const stream of [false, true]) {
      await assert.rejects(
        openai(WRONG_KEY).chat.completions.create({ model: 'openai/gpt-5.2', messages: [{ role: 'user', content: 'hi' }], stream }),
        (err) => {
          assert.ok(err instanceof OpenAI.AuthenticationError, `expected AuthenticationError, got ${err?.constructor?.name}: ${err}`);
          assert.equal(err.status, 401);
          assert.ok(err.error && typeof err.error.message === 'string' && err.error.message.length > 0,
            `an OpenAI-shaped error body: ${JSON.stringify(err.error)}`);
          return true;
        },
      );
    }
    await assertNothingServedSince(seen);
  });

  test('anthropic: a wrong key is AuthenticationError (401) in the Anthropic error shape', async () => {
    const seen = await traceIds();
    for (const stream of [false, true]) {
      await assert.rejects(
        anthropic(WRONG_KEY).messages.create({ model: 'claude/claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], stream }),
        (err) => {
          assert.ok(err instanceof Anthropic.AuthenticationError, `expected AuthenticationError, got ${err?.constructor?.name}: ${err}`);
          assert.equal(err.status, 401);
          assert.equal(err.error?.type, 'error', `an Anthropic-shaped error body: ${JSON.stringify(err.error)}`);
          assert.equal(err.error?.error?.type, 'authentication_error', `error type: ${JSON.stringify(err.error)}`);
          return true;
        },
      );
    }
    await assertNothingServedSince(seen);
  });

  test('openai: a model on an unknown provider is BadRequestError (400) pointing to GET /v1/models', async () => {
    await assert.rejects(
      openai().chat.completions.create({ model: 'nosuchprovider/gpt-5.2', messages: [{ role: 'user', content: 'hi' }] }),
      (err) => {
        assert.ok(err instanceof OpenAI.BadRequestError, `expected BadRequestError, got ${err?.constructor?.name}: ${err}`);
        assert.equal(err.status, 400);
        assert.match(err.error?.message ?? '', /nosuchprovider/);
        assert.match(err.error?.message ?? '', /\/v1\/models/);
        return true;
      },
    );
    await assert.rejects(
      openai().responses.create({ model: 'nosuchprovider/gpt-5.2', input: 'hi', stream: true }),
      (err) => err instanceof OpenAI.BadRequestError && err.status === 400,
    );
  });

  test('anthropic: a model on an unknown provider is BadRequestError (400) in the Anthropic error shape', async () => {
    await assert.rejects(
      anthropic().messages.create({ model: 'nosuchprovider/claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      (err) => {
        assert.ok(err instanceof Anthropic.BadRequestError, `expected BadRequestError, got ${err?.constructor?.name}: ${err}`);
        assert.equal(err.status, 400);
        assert.equal(err.error?.type, 'error', `an Anthropic-shaped error body: ${JSON.stringify(err.error)}`);
        assert.match(err.error?.error?.message ?? '', /nosuchprovider/);
        return true;
      },
    );
  });

  test('anthropic: a bare model from the SDK (not Claude Code) is BadRequestError (400)', async () => {
    await assert.rejects(
      anthropic().messages.create({ model: 'claude-sonnet-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] }),
      (err) => {
        assert.ok(err instanceof Anthropic.BadRequestError, `expected BadRequestError, got ${err?.constructor?.name}: ${err}`);
        assert.match(err.error?.error?.message ?? '', /claude\/claude-sonnet-5/);
        return true;
      },
    );
  });

  // Issue 2: "Each request is a trace row", also one that routing refuses before any dial.
  test('a request refused by routing still shows in GET /keys/usage/requests', async () => {
    const seen = await traceIds();
    const refusals = [
      { model: 'nosuchprovider/gpt-5.2', status: 400, error: OpenAI.BadRequestError },
      { model: 'openai/gpt-no-sharer', status: 503, error: OpenAI.InternalServerError },
    ];
    for (const r of refusals) {
      await assert.rejects(
        openai().chat.completions.create({ model: r.model, messages: [{ role: 'user', content: 'hi' }] }),
        (err) => err instanceof r.error && err.status === r.status,
      );
    }
    const fresh = (await stack.traces('?limit=1000')).filter((t) => !seen.has(t.id));
    for (const r of refusals) {
      const t = fresh.find((x) => x.modelAsked === r.model);
      assert.ok(t, `a trace for the refused ${r.model}: ${JSON.stringify(fresh)}`);
      assert.equal(t.status, r.status, JSON.stringify(t));
      assert.equal(t.keyName, 'e2e', JSON.stringify(t));
    }
  });
});
