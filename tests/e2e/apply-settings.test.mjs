// "Apply for me" from the shell (docs/getting-started.md#apply-for-me): the real Codex CLI and Claude
// Code, configured only by `aile connect TOOL --apply` in a temporary home (no base URL or key in
// their environment), answer through the engine against the fake upstream; `--undo` then puts each
// file back byte for byte.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { ADMIN_TOKEN, CLAUDE_HANDLE, OPENAI_HANDLE, aileBinary, startStack } from './lib/harness.mjs';
import { claudeBinary, claudeDirs, runClaude } from './lib/claude-code.mjs';
import { codexBinary, runCodex } from './lib/codex.mjs';

// What a user already had: comments, another provider, settings Aile must not touch.
const USER_CODEX_TOML = `# my Codex settings
model = "o3"
check_for_update_on_startup = false
cli_auth_credentials_store = "file"

[model_providers.homelab]
name = "Home lab"
base_url = "http://localhost:11434/v1"   # not used here

[analytics]
enabled = false

[otel]
exporter = "none"
metrics_exporter = "none"

[features]
plugins = false
`;
const USER_CLAUDE_SETTINGS = '{\n  "includeCoAuthoredBy": false,\n  "env": { "MY_TEAM": "platform" }\n}\n';

/** `aile connect ARGS --url ENGINE` with the key in $AILE_KEY; HOME and CODEX_HOME as given. */
function aileConnect(stack, args, env) {
  const r = spawnSync(aileBinary(), ['connect', ...args, '--url', stack.baseUrl], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', AILE_ADMIN_TOKEN: ADMIN_TOKEN, AILE_KEY: stack.key, ...env },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('aile connect --apply configures the real CLIs', () => {
  let stack;
  const cleanup = [];

  before(async () => {
    for (const { bin, reason } of [claudeBinary(), codexBinary()]) if (!bin) throw new Error(reason);
    stack = await startStack();
  });

  after(async () => {
    for (const f of cleanup) f();
    if (stack) await stack.stop();
  });

  test('codex: apply, answer through Aile, undo to the same bytes', { timeout: 180000 }, async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'aile-e2e-apply-codex-'));
    cleanup.push(() => rmSync(home, { recursive: true, force: true }));
    const config = path.join(home, 'config.toml');
    writeFileSync(config, USER_CODEX_TOML);
    const env = { HOME: home, CODEX_HOME: home };

    const dry = aileConnect(stack, ['codex', '--apply', '--dry-run'], env);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^\+model_provider = "aile"$/m);
    assert.ok(!dry.stdout.includes(stack.key), 'the preview masks the key');
    assert.equal(readFileSync(config, 'utf8'), USER_CODEX_TOML, 'a dry run writes nothing');

    const applied = aileConnect(stack, ['codex', '--apply'], env);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /--undo restores it/);
    const written = readFileSync(config, 'utf8');
    assert.ok(written.startsWith('# my Codex settings\n'), written);
    assert.ok(written.includes('[model_providers.homelab]\nname = "Home lab"\nbase_url = "http://localhost:11434/v1"   # not used here\n'), written);
    assert.equal(readFileSync(`${config}.aile-backup`, 'utf8'), USER_CODEX_TOML);

    const seen = new Set((await stack.traces('?limit=1000')).map((t) => t.id));
    // No AILE_KEY, no base URL: only what --apply wrote.
    const { stdout, stderr, code } = await runCodex(stack, home, 'say hi', { env: { AILE_KEY: undefined } });
    const traces = (await stack.traces('?limit=1000')).filter((t) => !seen.has(t.id));
    const context = `config:\n${written}\nstdout: ${stdout}\nstderr: ${stderr}\ntraces: ${JSON.stringify(traces)}\nengine:\n${stack.logs()}`;
    assert.equal(code, 0, context);
    assert.match(stdout, /Hello!/, context);
    const turn = traces.find((t) => t.endpoint === '/v1/responses' && t.status === 200);
    assert.ok(turn, context);
    assert.equal(turn.sharer, OPENAI_HANDLE, context);   // the model aile connect chose: openai/gpt-5.2

    const again = aileConnect(stack, ['codex', '--apply'], env);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /already holds these settings/);

    const undone = aileConnect(stack, ['codex', '--undo'], env);
    assert.equal(undone.code, 0, undone.stderr);
    assert.equal(readFileSync(config, 'utf8'), USER_CODEX_TOML, 'undo restores the exact bytes');
    assert.ok(!existsSync(`${config}.aile-backup`) && !existsSync(`${config}.aile-applied`));
  });

  test('claude-code: apply, answer through Aile, undo', { timeout: 180000 }, async () => {
    const dirs = claudeDirs();
    cleanup.push(dirs.remove);
    const settings = path.join(dirs.home, '.claude', 'settings.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, USER_CLAUDE_SETTINGS);

    const applied = aileConnect(stack, ['claude-code', '--apply'], { HOME: dirs.home });
    assert.equal(applied.code, 0, applied.stderr);
    assert.ok(!applied.stdout.includes(stack.key), 'the printed diff masks the key');
    const written = JSON.parse(readFileSync(settings, 'utf8'));
    assert.equal(written.env.MY_TEAM, 'platform');
    assert.equal(written.includeCoAuthoredBy, false);
    assert.equal(written.env.ANTHROPIC_BASE_URL, stack.baseUrl);

    const seen = new Set((await stack.traces('?limit=1000')).map((t) => t.id));
    // Neither ANTHROPIC_BASE_URL nor ANTHROPIC_API_KEY in the environment: settings.json's env only.
    const { result, stderr, code } = await runClaude(stack, 'say hi', ['--model', 'claude-sonnet-5'], {
      dirs, env: { ANTHROPIC_BASE_URL: undefined, ANTHROPIC_API_KEY: undefined, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: undefined },
    });
    const traces = (await stack.traces('?limit=1000')).filter((t) => !seen.has(t.id));
    const context = `result: ${JSON.stringify(result)}\nstderr: ${stderr}\ntraces: ${JSON.stringify(traces)}\nengine:\n${stack.logs()}`;
    assert.equal(code, 0, context);
    assert.equal(result.result, 'Hello!', context);
    const turn = traces.find((t) => t.client === 'claude-code' && t.status === 200 && t.modelServed === 'claude/claude-sonnet-5');
    assert.ok(turn, context);
    assert.equal(turn.sharer, CLAUDE_HANDLE, context);

    const undone = aileConnect(stack, ['claude-code', '--undo'], { HOME: dirs.home });
    assert.equal(undone.code, 0, undone.stderr);
    assert.equal(readFileSync(settings, 'utf8'), USER_CLAUDE_SETTINGS, 'undo restores the exact bytes');
  });
});
