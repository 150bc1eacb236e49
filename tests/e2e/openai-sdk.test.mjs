// The official `openai` npm client against the real engine: chat.completions and responses,
// streamed and not, base URL http://127.0.0.1:PORT/v1 (CLIENTS.md).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';

import { OPENAI_HANDLE, startStack } from './lib/harness.mjs';
import { assertAileHeaders, assertServedTrace } from './lib/expect.mjs';

const MODEL = 'openai/gpt-5.2';
const served = { model: MODEL, sharer: OPENAI_HANDLE, client: 'openai-sdk' };

describe('openai SDK through aile serve', () => {
  let stack;
  let client;

  before(async () => {
    stack = await startStack();
    client = new OpenAI({ apiKey: stack.key, baseURL: stack.openaiBaseUrl, maxRetries: 0, timeout: 20000 });
  });

  after(async () => {
    if (!stack) return;
    const exited = await stack.stop();
    assert.equal(exited['aile serve'].forced, undefined, `aile serve ignored SIGTERM:\n${stack.logs()}`);
  });

  test('chat.completions.create, not streamed', async () => {
    const { data, response } = await client.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: 'say hi' }] })
      .withResponse();
    assert.equal(response.status, 200);
    assert.equal(data.object, 'chat.completion');
    assert.equal(data.choices[0].message.content, 'Hello!');
    assert.equal(data.choices[0].finish_reason, 'stop');
    assert.deepEqual(
      { prompt: data.usage.prompt_tokens, completion: data.usage.completion_tokens },
      { prompt: 12, completion: 5 },
    );
    const id = assertAileHeaders(response.headers, served);
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/chat/completions', stream: false });
  });

  test('chat.completions.create, streamed', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({ model: MODEL, messages: [{ role: 'user', content: 'say hi' }], stream: true })
      .withResponse();
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const id = assertAileHeaders(response.headers, served);
    let text = '';
    let chunks = 0;
    let finish = null;
    for await (const chunk of stream) {
      chunks += 1;
      assert.equal(chunk.object, 'chat.completion.chunk');
      const choice = chunk.choices[0];
      if (choice?.delta?.content) text += choice.delta.content;
      if (choice?.finish_reason) finish = choice.finish_reason;
    }
    assert.equal(text, 'Hello!');
    assert.equal(finish, 'stop');
    assert.ok(chunks >= 3, `expected several chunks, got ${chunks}`);
    // The client did not ask for usage: the engine asks the upstream for it and reads it.
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/chat/completions', stream: true });
  });

  test('chat.completions.create, streamed with stream_options.include_usage', async () => {
    const { data: stream, response } = await client.chat.completions
      .create({
        model: MODEL,
        messages: [{ role: 'user', content: 'say hi' }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    const id = assertAileHeaders(response.headers, served);
    let text = '';
    let usage = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, 'Hello!');
    assert.ok(usage, 'the usage chunk reached the client');
    assert.equal(usage.prompt_tokens, 12);
    assert.equal(usage.completion_tokens, 5);
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/chat/completions', stream: true });
  });

  test('responses.create, not streamed', async () => {
    const { data, response } = await client.responses
      .create({ model: MODEL, input: 'say hi' })
      .withResponse();
    assert.equal(response.status, 200);
    assert.equal(data.object, 'response');
    assert.equal(data.status, 'completed');
    assert.equal(data.output_text, 'Hello!');
    assert.equal(data.usage.input_tokens, 12);
    assert.equal(data.usage.output_tokens, 5);
    const id = assertAileHeaders(response.headers, served);
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/responses', stream: false });
  });

  test('responses.create, streamed', async () => {
    const { data: stream, response } = await client.responses
      .create({ model: MODEL, input: 'say hi', stream: true })
      .withResponse();
    assert.equal(response.status, 200);
    const id = assertAileHeaders(response.headers, served);
    let text = '';
    const types = [];
    let completed = null;
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.output_text.delta') text += event.delta;
      if (event.type === 'response.completed') completed = event.response;
    }
    assert.equal(text, 'Hello!');
    assert.equal(types[0], 'response.created');
    assert.equal(types.at(-1), 'response.completed');
    assert.ok(completed, 'response.completed arrived');
    assert.equal(completed.usage.input_tokens, 12);
    assert.equal(completed.usage.output_tokens, 5);
    assertServedTrace(await stack.waitForTrace(id), { ...served, endpoint: '/v1/responses', stream: true });
  });

  // The SDK's Responses accumulator needs the full event sequence the real API sends.
  test('responses.stream helper', async () => {
    const stream = client.responses.stream({ model: MODEL, input: 'say hi' });
    let text = '';
    stream.on('response.output_text.delta', (e) => {
      text += e.delta;
    });
    const final = await stream.finalResponse();
    assert.equal(text, 'Hello!');
    assert.equal(final.output_text, 'Hello!');
    assert.equal(final.usage.output_tokens, 5);
    const [latest] = await stack.traces('?limit=1');
    assertServedTrace(latest, { ...served, endpoint: '/v1/responses', stream: true });
  });

  test('models.list shows what the key may use', async () => {
    const ids = [];
    for await (const m of client.models.list()) ids.push(m.id);
    assert.ok(ids.includes(MODEL), `GET /v1/models lists ${MODEL}: ${ids.join(', ')}`);
    assert.ok(ids.includes('claude/claude-sonnet-5'), `GET /v1/models lists claude/claude-sonnet-5: ${ids.join(', ')}`);
  });
});
