// The official `@anthropic-ai/sdk` npm client against the real engine: messages.create streamed and
// not, the messages.stream() helper, and countTokens; base URL http://127.0.0.1:PORT (CLIENTS.md).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';

import { CLAUDE_HANDLE, startStack } from './lib/harness.mjs';
import { assertAileHeaders, assertServedTrace } from './lib/expect.mjs';

const MODEL = 'claude/claude-sonnet-5';
const served = { model: MODEL, sharer: CLAUDE_HANDLE, client: 'anthropic-sdk' };
const messages = [{ role: 'user', content: 'say hi' }];

describe('@anthropic-ai/sdk through aile serve', () => {
  let stack;
  let client;

  before(async () => {
    stack = await startStack();
    client = new Anthropic({ apiKey: stack.key, baseURL: stack.baseUrl, maxRetries: 0, timeout: 20000 });
  });

  after(async () => {
    if (!stack) return;
    const exited = await stack.stop();
    assert.equal(exited['aile serve'].forced, undefined, `aile serve ignored SIGTERM:\n${stack.logs()}`);
  });

  test('messages.create, not streamed', async () => {
    const { data, response } = await client.messages
      .create({ model: MODEL, max_tokens: 64, messages })
      .withResponse();
    assert.equal(response.status, 200);
    assert.equal(data.type, 'message');
    assert.equal(data.role, 'assistant');
    assert.equal(data.content[0].type, 'text');
    assert.equal(data.content[0].text, 'Hello!');
    assert.equal(data.stop_reason, 'end_turn');
    assert.equal(data.usage.input_tokens, 12);
    assert.equal(data.usage.output_tokens, 5);
    const id = assertAileHeaders(response.headers, served);
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/messages', stream: false });
  });

  test('messages.create, streamed', async () => {
    const { data: stream, response } = await client.messages
      .create({ model: MODEL, max_tokens: 64, messages, stream: true })
      .withResponse();
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const id = assertAileHeaders(response.headers, served);
    let text = '';
    const types = [];
    let outputTokens = null;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      if (event.type === 'message_delta') outputTokens = event.usage.output_tokens;
    }
    assert.equal(text, 'Hello!');
    assert.equal(types[0], 'message_start');
    assert.equal(types.at(-1), 'message_stop');
    assert.equal(outputTokens, 5);
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/messages', stream: true });
  });

  test('messages.stream() helper', async () => {
    const { data: stream, response } = await client.messages
      .stream({ model: MODEL, max_tokens: 64, messages })
      .withResponse();
    assert.equal(response.status, 200);
    const id = assertAileHeaders(response.headers, served);
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    assert.equal(text, 'Hello!');
    assert.equal(final.content[0].text, 'Hello!');
    assert.equal(final.usage.input_tokens, 12);
    assert.equal(final.usage.output_tokens, 5);
    assert.equal(await stream.finalText(), 'Hello!');
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/messages', stream: true });
  });

  test('beta.messages.create, streamed (anthropic-beta header)', async () => {
    const { data: stream, response } = await client.beta.messages
      .create({ model: MODEL, max_tokens: 64, messages, stream: true, betas: ['context-management-2025-06-27'] })
      .withResponse();
    const id = assertAileHeaders(response.headers, served);
    let text = '';
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    assert.equal(text, 'Hello!');
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/messages', stream: true });
  });

  test('messages.create with authToken (Authorization: Bearer instead of x-api-key)', async () => {
    const bearer = new Anthropic({ apiKey: null, authToken: stack.key, baseURL: stack.baseUrl, maxRetries: 0, timeout: 20000 });
    const { data, response } = await bearer.messages.create({ model: MODEL, max_tokens: 64, messages }).withResponse();
    assert.equal(data.content[0].text, 'Hello!');
    const id = assertAileHeaders(response.headers, served);
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/messages', stream: false });
  });

  test('messages.countTokens', async () => {
    const { data, response } = await client.messages
      .countTokens({ model: MODEL, messages })
      .withResponse();
    assert.equal(response.status, 200);
    assert.equal(data.input_tokens, 42); // the fake upstream's canned count
    const id = assertAileHeaders(response.headers, served);
    const trace = await stack.waitForTrace(id);
    // Counting tokens is forwarded to the same provider, and is not billed.
    assertServedTrace(trace, {
      ...served, endpoint: '/v1/messages/count_tokens', stream: false, inputTokens: null, outputTokens: null,
    });
    assert.equal(trace.costUsd, 0, `count_tokens is not billed: ${JSON.stringify(trace)}`);
  });
});
