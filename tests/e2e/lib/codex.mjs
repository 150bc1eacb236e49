// Runs the real Codex CLI (`@openai/codex`, command `codex`) offline against the engine, signed in
// with a test ChatGPT login: a temporary CODEX_HOME holding auth.json (the login) and config.toml (a
// provider for Aile with requires_openai_auth, the local key in x-aile-key through env_http_headers).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { E2E_DIR } from './harness.mjs';

const TRIPLES = { 'linux-x64': 'x86_64-unknown-linux-musl', 'linux-arm64': 'aarch64-unknown-linux-musl' };

/** The native `codex` binary installed by npm, or null with the reason. */
export function codexBinary() {
  const platform = `${process.platform}-${process.arch}`;
  const triple = TRIPLES[platform];
  if (!existsSync(path.join(E2E_DIR, 'node_modules', '@openai', 'codex', 'package.json'))) {
    return { bin: null, reason: '@openai/codex is not installed: run `npm ci` in tests/e2e' };
  }
  const bin = triple && path.join(E2E_DIR, 'node_modules', '@openai', `codex-${platform}`, 'vendor', triple, 'bin', 'codex');
  if (bin && existsSync(bin)) return { bin, reason: null };
  return { bin: null, reason: `no native Codex binary for ${platform} in node_modules` };
}

function base64url(o) {
  return Buffer.from(JSON.stringify(o)).toString('base64url');
}

/** A ChatGPT login as `codex login` leaves it: JWTs carrying the account, a fresh last_refresh. */
export function testChatGptLogin(accountId) {
  const claims = {
    exp: Math.floor(Date.now() / 1000) + 3600 * 24,
    email: 'e2e@example.invalid',
    'https://api.openai.com/auth': { chatgpt_account_id: accountId, chatgpt_plan_type: 'pro', chatgpt_user_id: 'user-e2e' },
  };
  const jwt = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.c2ln`;
  return {
    accessToken: jwt,
    authJson: {
      OPENAI_API_KEY: null,
      tokens: { id_token: jwt, access_token: jwt, refresh_token: 'rt-e2e-test', account_id: accountId },
      last_refresh: new Date().toISOString(),
    },
  };
}

// What keeps the CLI offline and quiet, at the end of every config.toml written here; features:
// more lines of its [features] table.
const offline = (features = '') => `
[analytics]
enabled = false

[otel]
exporter = "none"
metrics_exporter = "none"

[features]
plugins = false
${features}`;

/** A CODEX_HOME signed in with the login, its provider pointed at Aile; remove() deletes it. */
export function codexHome(stack, login, { model = 'gpt-5.5' } = {}) {
  const home = mkdtempSync(path.join(tmpdir(), 'aile-e2e-codex-home-'));
  writeFileSync(path.join(home, 'auth.json'), JSON.stringify(login.authJson, null, 2));
  writeFileSync(path.join(home, 'config.toml'), `model = "${model}"
model_provider = "aile"
check_for_update_on_startup = false
cli_auth_credentials_store = "file"

[model_providers.aile]
name = "Aile"
base_url = "${stack.openaiBaseUrl}"
wire_api = "responses"
requires_openai_auth = true
env_http_headers = { "x-aile-key" = "AILE_KEY" }
${offline()}`);
  return { home, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/**
 * A CODEX_HOME whose provider is Aile with the local key as the API key ($AILE_KEY, CLIENTS.md),
 * no login; top: more top-level settings (approval_policy, …), features: more [features] lines.
 * remove() deletes it.
 */
export function codexKeyHome(stack, { model = 'gpt-5.5', top = '', features = '' } = {}) {
  const home = mkdtempSync(path.join(tmpdir(), 'aile-e2e-codex-home-'));
  writeFileSync(path.join(home, 'config.toml'), `model = "${model}"
model_provider = "aile"
check_for_update_on_startup = false
${top}
[model_providers.aile]
name = "Aile"
base_url = "${stack.openaiBaseUrl}"
env_key = "AILE_KEY"
wire_api = "responses"
${offline(features)}`);
  return { home, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** `codex exec --skip-git-repo-check PROMPT` in that CODEX_HOME. Resolves with stdout, stderr, code. */
export function runCodex(stack, home, prompt, { timeoutMs = 120000, env: envChanges = {} } = {}) {
  const { bin, reason } = codexBinary();
  if (!bin) throw new Error(reason);
  const work = mkdtempSync(path.join(tmpdir(), 'aile-e2e-codex-cwd-'));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: home,
    AILE_KEY: stack.key,
    TERM: 'dumb',
  };
  // envChanges: variables to add, or (value undefined) to leave out.
  for (const [name, value] of Object.entries(envChanges)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['exec', '--skip-git-repo-check', prompt], { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      rmSync(work, { recursive: true, force: true });
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      rmSync(work, { recursive: true, force: true });
      resolve({ stdout, stderr, code, signal });
    });
  });
}
