// Translation between the chat wires with the real clients (docs/translation.md): named routes whose
// targets say "translate": true. Claude Code (Messages only) completes a tool-using turn on a route
// whose only target is an OpenAI-wire (chat) sharer; the Codex CLI (Responses only) does the same
// on a Messages-wire (Claude) sharer; the official SDKs stream a translated answer. The fake
// upstream answers the prompt "[fake-tool-call] read <path>" with a call of the client's own
// file-reading tool, then the tool's result with "The file says: <the SECRET word in it>"
// (tests/testsupport/FakeToolCalls.h). Each test checks what the fake received (GET /__fake/received)
// and what the client printed.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';

import { CLAUDE_HANDLE, OPENAI_HANDLE, startStack } from './lib/harness.mjs';
import { claudeBinary, claudeDirs, runClaude } from './lib/claude-code.mjs';
import { codexBinary, codexKeyHome, runCodex } from './lib/codex.mjs';

const SECRET = 'SECRET-7Q4ZX9';
const OVERLOADED_CLAUDE = 'L00000000000000f3';

describe('translation between the chat wires through aile serve', () => {
  let stack;

  before(async () => {
    stack = await startStack({
      extraSharers: [{ handle: OVERLOADED_CLAUDE, name: 'overloaded-claude', provider: 'claude', models: ['claude-sonnet-5-fail-529'] }],
      routes: [
        {
          name: 'claude-then-openai',
          targets: [{ model: 'claude/claude-sonnet-5-fail-529' }, { model: 'openai/gpt-5.2', translate: true }],
        },
        { name: 'claude-on-openai', targets: [{ model: 'openai/gpt-5.2', translate: true }] },
        // Codex picks its tools by the model's name: a gpt-5 name gets apply_patch as its freeform
        // (custom) tool, which the translation carries too (docs/translation.md).
        { name: 'gpt-5.5-on-claude', targets: [{ model: 'claude/claude-sonnet-5', translate: true }] },
      ],
    });
  });

  after(async () => {
    if (!stack) return;
    const exited = await stack.stop();
    assert.equal(exited['aile serve'].forced, undefined, `aile serve ignored SIGTERM:\n${stack.logs()}`);
  });

  /** What the fake upstream was sent since `since` requests (path and body). */
  async function received(since = 0) {
    const res = await fetch(`http://127.0.0.1:${stack.upstreamPort}/__fake/received`);
    assert.equal(res.status, 200);
    return (await res.json()).received.slice(since);
  }

  /** A temporary project holding notes.txt with the secret; remove() deletes it. */
  function project() {
    const dir = mkdtempSync(path.join(tmpdir(), 'aile-e2e-translate-'));
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, `${SECRET}\n`);
    return { dir, file, remove: () => rmSync(dir, { recursive: true, force: true }) };
  }

  test('Claude Code reads a file through a route whose only target is an OpenAI-wire sharer', { timeout: 240000 }, async () => {
    const { bin, reason } = claudeBinary();
    if (!bin) throw new Error(reason);
    const p = project();
    const dirs = claudeDirs();
    try {
      const since = (await received()).length;
      const { result, stderr, code } = await runClaude(stack, `[fake-tool-call] read ${p.file}`,
        ['--model', 'claude-on-openai', '--allowedTools', 'Read', '--add-dir', p.dir], { dirs, timeoutMs: 200000 });
      const sent = await received(since);
      const context = `result: ${JSON.stringify(result)}\nstderr: ${stderr}\nsent: ${JSON.stringify(sent.map((r) => r.path))}\nengine:\n${stack.logs().slice(-6000)}`;
      assert.equal(code, 0, context);
      assert.equal(result.is_error, false, context);
      assert.equal(result.result, `The file says: ${SECRET}`, context);

      // The upstream only ever got the chat wire, the tool call's result under the call's id.
      const turns = sent.filter((r) => JSON.stringify(r.body).includes('[fake-tool-call]') && Array.isArray(r.body.tools));
      assert.ok(turns.length >= 2, `the call and the result turn reached the fake: ${context}`);
      for (const r of turns) assert.equal(r.path, '/v1/chat/completions', context);
      assert.ok(turns[0].body.tools.some((t) => t.type === 'function' && t.function.name === 'Read'), context);
      const last = turns.at(-1).body.messages;
      const call = last.find((m) => m.role === 'assistant' && Array.isArray(m.tool_calls));
      const result_ = last.find((m) => m.role === 'tool');
      assert.ok(call && result_, `the history carries the call and its result: ${JSON.stringify(last).slice(0, 4000)}`);
      assert.equal(call.tool_calls[0].id, 'call_fake_read_1');
      assert.equal(result_.tool_call_id, 'call_fake_read_1');
      assert.match(JSON.stringify(result_.content), new RegExp(SECRET));

      const traces = (await stack.traces('?limit=50')).filter((t) => t.route === 'claude-on-openai');
      assert.ok(traces.length >= 2, context);
      for (const t of traces) {
        assert.equal(t.status, 200, JSON.stringify(t));
        assert.equal(t.modelServed, 'openai/gpt-5.2', JSON.stringify(t));
        assert.equal(t.sharer, OPENAI_HANDLE, JSON.stringify(t));
        assert.equal(t.attemptRows.at(-1).plan.translated, 'messages->chat', JSON.stringify(t));
      }
    } finally {
      dirs.remove();
      p.remove();
    }
  });

  test('Claude Code fails over from an overloaded Claude sharer (529) to a translated OpenAI-wire sharer', { timeout: 180000 }, async () => {
    const { bin, reason } = claudeBinary();
    if (!bin) throw new Error(reason);
    const since = (await received()).length;
    const { result, stderr, code } = await runClaude(stack, 'say hi', ['--model', 'claude-then-openai']);
    const sent = await received(since);
    const context = `result: ${JSON.stringify(result)}\nstderr: ${stderr}\nsent: ${JSON.stringify(sent.map((r) => r.path))}`;
    assert.equal(code, 0, context);
    assert.equal(result.is_error, false, context);
    assert.equal(result.result, 'Hello!', context);
    const turn = (await stack.traces('?limit=50')).find((t) => t.route === 'claude-then-openai' && t.attemptRows.some((a) => a.status === 529));
    assert.ok(turn, `a turn that met the 529: ${context}`);
    const dialled = turn.attemptRows.filter((a) => a.dispatched);
    assert.deepEqual(dialled.map((a) => [a.sharer, a.status, a.outcome]),
      [[OVERLOADED_CLAUDE, 529, 'failed_over'], [OPENAI_HANDLE, 200, 'served']], JSON.stringify(turn));
    assert.equal(dialled[1].plan.translated, 'messages->chat', JSON.stringify(turn));
    assert.equal(turn.modelServed, 'openai/gpt-5.2', JSON.stringify(turn));
    assert.ok(sent.some((r) => r.path === '/v1/messages' && r.body.model === 'claude-sonnet-5-fail-529'), context);
    assert.ok(sent.some((r) => r.path === '/v1/chat/completions' && r.body.model === 'gpt-5.2'), context);
  });

  test('Codex reads a file through a route whose only target is a Messages-wire sharer', { timeout: 240000 }, async () => {
    const { bin, reason } = codexBinary();
    if (!bin) throw new Error(reason);
    const p = project();
    // Codex's hosted web search and its namespaced sub-agent tools have no Messages equivalent (a
    // 400 naming the field, docs/translation.md): off here, as the doc tells a user to do.
    const codex = codexKeyHome(stack, {
      model: 'gpt-5.5-on-claude',
      top: 'approval_policy = "never"\nsandbox_mode = "danger-full-access"\nweb_search = "disabled"\n',
      // apply_patch as the freeform (custom) tool, as Codex offers it to its own models: translated too.
      features: 'multi_agent = false\n',
    });
    try {
      const since = (await received()).length;
      const { stdout, stderr, code } = await runCodex(stack, codex.home, `[fake-tool-call] read ${p.file}`, { timeoutMs: 200000 });
      const sent = await received(since);
      const context = `stdout: ${stdout}\nstderr: ${stderr.slice(-4000)}\nsent: ${JSON.stringify(sent.map((r) => r.path))}\nengine:\n${stack.logs().slice(-6000)}`;
      assert.equal(code, 0, context);
      assert.match(stdout, new RegExp(`The file says: ${SECRET}`), context);

      const turns = sent.filter((r) => JSON.stringify(r.body).includes('[fake-tool-call]'));
      assert.ok(turns.length >= 2, context);
      for (const r of turns) assert.equal(r.path, '/v1/messages', context);
      const patchTool = turns[0].body.tools.find((t) => t.name === 'apply_patch');
      assert.ok(patchTool, `apply_patch reached the Messages sharer: ${JSON.stringify(turns[0].body.tools.map((t) => t.name))}`);
      assert.equal(patchTool.input_schema.properties.input.type, 'string', JSON.stringify(patchTool));
      // Offered as Codex's custom (freeform) tool: the grammar travels in the parameter's description.
      assert.match(patchTool.input_schema.properties.input.description, /grammar/, JSON.stringify(patchTool));
      const last = turns.at(-1).body.messages;
      const use = last.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool_use');
      const res = last.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool_result');
      assert.ok(use && res, `the history carries the call and its result: ${JSON.stringify(last).slice(0, 4000)}`);
      assert.equal(use.id, 'toolu_fake_read_1');
      assert.equal(res.tool_use_id, 'toolu_fake_read_1');
      assert.match(JSON.stringify(res.content), new RegExp(SECRET));

      const traces = (await stack.traces('?limit=50')).filter((t) => t.route === 'gpt-5.5-on-claude');
      assert.ok(traces.length >= 2, context);
      for (const t of traces) {
        assert.equal(t.status, 200, JSON.stringify(t));
        assert.equal(t.modelServed, 'claude/claude-sonnet-5', JSON.stringify(t));
        assert.equal(t.sharer, CLAUDE_HANDLE, JSON.stringify(t));
        assert.equal(t.attemptRows.at(-1).plan.translated, 'responses->messages', JSON.stringify(t));
      }
    } finally {
      codex.remove();
      p.remove();
    }
  });

  test('the openai SDK streams a chat answer translated from a Claude sharer', async () => {
    const client = new OpenAI({ apiKey: stack.key, baseURL: stack.openaiBaseUrl, maxRetries: 0, timeout: 20000 });
    const since = (await received()).length;
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'gpt-5.5-on-claude', messages: [{ role: 'user', content: 'say hi' }], stream: true, stream_options: { include_usage: true } })
      .withResponse();
    assert.equal(response.headers.get('x-aile-translated'), 'chat->messages');
    let text = '';
    let usage = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    assert.equal(text, 'Hello!');
    assert.equal(usage.prompt_tokens, 12);
    assert.equal(usage.completion_tokens, 5);
    const sent = await received(since);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].path, '/v1/messages');
    assert.equal(sent[0].body.stream, true);
    assert.deepEqual(sent[0].body.messages, [{ role: 'user', content: [{ type: 'text', text: 'say hi' }] }]);
  });

  test('the anthropic SDK streams a Messages answer translated from an OpenAI-wire sharer', async () => {
    const client = new Anthropic({ apiKey: stack.key, baseURL: stack.baseUrl, maxRetries: 0, timeout: 20000 });
    const since = (await received()).length;
    const { data: stream, response } = await client.messages
      .create({ model: 'claude-on-openai', max_tokens: 64, messages: [{ role: 'user', content: 'say hi' }], stream: true })
      .withResponse();
    assert.equal(response.headers.get('x-aile-translated'), 'messages->chat');
    let text = '';
    const types = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    }
    assert.equal(text, 'Hello!');
    assert.equal(types[0], 'message_start');
    assert.equal(types.at(-1), 'message_stop');
    const sent = await received(since);
    assert.equal(sent.length, 1);
    assert.equal(sent[0].path, '/v1/chat/completions');
    assert.equal(sent[0].body.max_completion_tokens, 64);
    assert.equal(sent[0].body.stream, true);
  });
});
