// Runs the real Claude Code CLI (`@anthropic-ai/claude-code`, command `claude`) offline against the
// engine, as CLIENTS.md describes: a fresh HOME, the base URL and local key in the environment, and
// every variable that stops it from calling the vendor's own hosts.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { E2E_DIR } from './harness.mjs';

/** The native `claude` binary installed by npm, or null with the reason. */
export function claudeBinary() {
  const wrapper = path.join(E2E_DIR, 'node_modules', '@anthropic-ai', 'claude-code');
  if (!existsSync(path.join(wrapper, 'package.json'))) {
    return { bin: null, reason: '@anthropic-ai/claude-code is not installed: run `npm ci` in tests/e2e' };
  }
  // The package's postinstall copies the platform's native binary over bin/claude.exe; where install
  // scripts did not run, take it from the platform package directly.
  const platform = `${process.platform}-${process.arch}`;
  const native = path.join(E2E_DIR, 'node_modules', '@anthropic-ai', `claude-code-${platform}`, 'claude');
  const bin = path.join(wrapper, 'bin', 'claude.exe');
  if (existsSync(bin) && isNativeExecutable(bin)) return { bin, reason: null };
  if (existsSync(native)) return { bin: native, reason: null };
  return { bin: null, reason: `no native Claude Code binary for ${platform} in node_modules` };
}

function isNativeExecutable(file) {
  const head = readFileSync(file).subarray(0, 4);
  return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46])) || head.readUInt32LE(0) === 0xfeedfacf;
}

/** A HOME and working folder kept across runs (for --resume); remove() deletes both. */
export function claudeDirs() {
  const home = mkdtempSync(path.join(tmpdir(), 'aile-e2e-claude-home-'));
  const work = mkdtempSync(path.join(tmpdir(), 'aile-e2e-claude-cwd-'));
  return {
    home,
    work,
    remove: () => {
      rmSync(home, { recursive: true, force: true });
      rmSync(work, { recursive: true, force: true });
    },
  };
}

/**
 * `claude -p PROMPT --output-format json [...extra]` through the engine. Resolves with the parsed
 * JSON result, plus stdout and stderr. Only PATH comes from the caller's environment.
 */
export function runClaude(stack, prompt, extra = [], { timeoutMs = 120000, dirs = null, env: envChanges = {} } = {}) {
  const { bin, reason } = claudeBinary();
  if (!bin) throw new Error(reason);
  // A conversation continued with --resume needs the same HOME and working folder (claudeDirs()).
  const home = dirs?.home ?? mkdtempSync(path.join(tmpdir(), 'aile-e2e-claude-home-'));
  const work = dirs?.work ?? mkdtempSync(path.join(tmpdir(), 'aile-e2e-claude-cwd-'));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    TERM: 'dumb',
    ANTHROPIC_BASE_URL: stack.baseUrl,
    ANTHROPIC_API_KEY: stack.key,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: '1',
  };
  // envChanges: variables to add, or (value undefined) to leave out, e.g. a subscription login
  // instead of ANTHROPIC_API_KEY (docs/subscriptions.md).
  for (const [name, value] of Object.entries(envChanges)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return new Promise((resolve, reject) => {
    // stdin closed: `claude -p` otherwise waits for piped input.
    const child = spawn(bin, ['-p', prompt, '--output-format', 'json', ...extra], { env, cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (!dirs) {
        rmSync(home, { recursive: true, force: true });
        rmSync(work, { recursive: true, force: true });
      }
      let result = null;
      try {
        result = JSON.parse(stdout.trim().split('\n').filter(Boolean).at(-1) ?? '');
      } catch {
        // reported below
      }
      if (!result) {
        reject(new Error(`claude printed no JSON result (exit ${code}, signal ${signal})\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        return;
      }
      resolve({ result, stdout, stderr, code, signal });
    });
  });
}
