// A key's named routes through the official clients: the route's name is the model, the first
// target fails (the fake upstream's "-fail-500" model), the second serves, and the trace shows both.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';

import { CLAUDE_HANDLE, OPENAI_HANDLE, startStack } from './lib/harness.mjs';

const FAILING_OPENAI = 'L00000000000000f1';
const FAILING_CLAUDE = 'L00000000000000f2';

describe('named routes through aile serve', () => {
  let stack;

  before(async () => {
    stack = await startStack({
      extraSharers: [
        { handle: FAILING_OPENAI, name: 'failing-openai', provider: 'openai', models: ['gpt-5.2-fail-500'] },
        { handle: FAILING_CLAUDE, name: 'failing-claude', provider: 'claude', models: ['claude-sonnet-5-fail-500'] },
      ],
      routes: [
        { name: 'coding', targets: [{ model: 'openai/gpt-5.2-fail-500' }, { model: 'openai/gpt-5.2' }] },
        { name: 'claude-route', targets: [{ model: 'claude/claude-sonnet-5-fail-500' }, { model: 'claude/claude-sonnet-5' }] },
      ],
    });
  });

  after(async () => {
    if (!stack) return;
    const exited = await stack.stop();
    assert.equal(exited['aile serve'].forced, undefined, `aile serve ignored SIGTERM:\n${stack.logs()}`);
  });

  function assertFailedOverTrace(trace, { route, first, second, sharer }) {
    const context = JSON.stringify(trace);
    assert.equal(trace.status, 200, context);
    assert.equal(trace.route, route, context);
    assert.equal(trace.sharer, sharer, context);
    const dialled = trace.attemptRows.filter((a) => a.dispatched);
    assert.deepEqual(dialled.map((a) => a.target), [first, second], context);
    assert.deepEqual(dialled.map((a) => a.outcome), ['failed_over', 'served'], context);
  }

  test('the openai SDK sends the route name as the model, streamed and not', async () => {
    const client = new OpenAI({ apiKey: stack.key, baseURL: stack.openaiBaseUrl, maxRetries: 0, timeout: 20000 });
    const models = await client.models.list();
    assert.equal(models.data[0].id, 'coding');

    const { data, response } = await client.chat.completions
      .create({ model: 'coding', messages: [{ role: 'user', content: 'say hi' }] })
      .withResponse();
    assert.equal(response.status, 200);
    assert.equal(data.choices[0].message.content, 'Hello!');
    assert.equal(response.headers.get('x-aile-model'), 'openai/gpt-5.2');
    assert.equal(response.headers.get('x-aile-attempts'), '2');
    assertFailedOverTrace(await stack.waitForTrace(response.headers.get('x-aile-request-id')),
      { route: 'coding', first: 'openai/gpt-5.2-fail-500', second: 'openai/gpt-5.2', sharer: OPENAI_HANDLE });

    const { data: stream, response: streamed } = await client.chat.completions
      .create({ model: 'coding', messages: [{ role: 'user', content: 'say hi' }], stream: true })
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    assert.equal(text, 'Hello!');
    // The failing target's only sharer is cooling down now: the route passes it over without a dial.
    const trace = await stack.waitForTrace(streamed.headers.get('x-aile-request-id'));
    const context = JSON.stringify(trace);
    assert.equal(trace.route, 'coding', context);
    assert.equal(trace.sharer, OPENAI_HANDLE, context);
    assert.deepEqual(trace.attemptRows.filter((a) => a.dispatched).map((a) => a.target), ['openai/gpt-5.2'], context);
    assert.ok(trace.attemptRows.some((a) => !a.dispatched && a.target === 'openai/gpt-5.2-fail-500' && a.skip === 'cooldown'), context);
  });

  test('the anthropic SDK uses a route of claude targets', async () => {
    const client = new Anthropic({ apiKey: stack.key, baseURL: stack.baseUrl, maxRetries: 0, timeout: 20000 });
    const { data, response } = await client.messages
      .create({ model: 'claude-route', max_tokens: 64, messages: [{ role: 'user', content: 'say hi' }] })
      .withResponse();
    assert.equal(response.status, 200);
    assert.equal(data.content[0].text, 'Hello!');
    assertFailedOverTrace(await stack.waitForTrace(response.headers.get('x-aile-request-id')),
      { route: 'claude-route', first: 'claude/claude-sonnet-5-fail-500', second: 'claude/claude-sonnet-5', sharer: CLAUDE_HANDLE });
  });

  test('a route that does not exist is a clear error in the wire shape', async () => {
    const client = new OpenAI({ apiKey: stack.key, baseURL: stack.openaiBaseUrl, maxRetries: 0, timeout: 20000 });
    await assert.rejects(
      client.chat.completions.create({ model: 'codingg', messages: [{ role: 'user', content: 'hi' }] }),
      (err) => err.status === 400 && /names no provider/.test(err.message),
    );
  });
});
