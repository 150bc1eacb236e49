#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/ (docs/hardening.md, "Fuzzing and sanitizers").

The seeds are the shapes the engine really reads: the recorded client conversations of
tests/engine/affinity/data (their bodies, headers and answers) and the stream shapes of the three
chat wires (Anthropic Messages, OpenAI Chat Completions and Responses) as the providers send them,
including usage-only chunks, pings, comments, CRLF line ends, error events and cut streams.
Run it from anywhere; it rewrites corpus/fuzz_sse_meter/ and corpus/fuzz_request_facts/.
"""
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
DATA = HERE.parent / "engine" / "affinity" / "data"
RECORDED = ["claude-code", "codex", "openai-sdk-tools", "anthropic-sdk-thinking", "openai-sdk-plain"]


def js(o):
    return json.dumps(o, separators=(",", ":"))


def sse(events, named=True, eol="\n"):
    out = ""
    for name, data in events:
        if name and named:
            out += "event: " + name + eol
        out += "data: " + (data if isinstance(data, str) else js(data)) + eol + eol
    return out


def chat_chunks(text, model="gpt-5.2", usage=True, tool_call=None):
    base = {"id": "chatcmpl-01", "object": "chat.completion.chunk", "created": 1800000000, "model": model}
    ev = [(None, dict(base, choices=[{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]))]
    for word in text.split(" "):
        ev.append((None, dict(base, choices=[{"index": 0, "delta": {"content": word + " "}, "finish_reason": None}])))
    if tool_call:
        ev.append((None, dict(base, choices=[{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "id": tool_call, "type": "function", "function": {"name": "get_weather", "arguments": ""}}]}}])))
        ev.append((None, dict(base, choices=[{"index": 0, "delta": {"tool_calls": [
            {"index": 0, "function": {"arguments": "{\"city\":\"Paris\"}"}}]}}])))
    ev.append((None, dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": "tool_calls" if tool_call else "stop"}])))
    if usage:
        ev.append((None, dict(base, choices=[], usage={"prompt_tokens": 60, "completion_tokens": 12, "total_tokens": 72,
                                                         "prompt_tokens_details": {"cached_tokens": 32}})))
    ev.append((None, "[DONE]"))
    return ev


def answer_as_stream(path, answer):
    """A recorded answer as the bytes an upstream sends: (mode letter, body)."""
    if isinstance(answer, list):
        letter = "m" if "messages" in path else "r"
        return letter, sse([(e["event"], e["data"]) for e in answer])
    if isinstance(answer, dict):
        letter = "M" if answer.get("type") == "message" else ("R" if answer.get("object") == "response" else "C")
        return letter, js(answer)
    return "c", sse(chat_chunks(answer), named=False)


def sse_seeds():
    seeds = {}
    for name in RECORDED:
        rec = json.loads((DATA / (name + ".json")).read_text())
        for i, turn in enumerate(rec["turns"]):
            letter, body = answer_as_stream(rec["path"], turn["answer"])
            seeds[f"recorded-{name}-{i + 1}"] = letter + chr(0x30 + 7 * i) + body
        if "subagent" in rec:
            letter, body = answer_as_stream(rec["path"], rec["subagent"]["answer"])
            seeds[f"recorded-{name}-subagent"] = letter + "\0" + body
    # Chat Completions: tool calls, usage-only chunk, OpenRouter comments, CRLF, an error in a 200,
    # a stream cut mid-event, a whole body.
    seeds["chat-stream-tools"] = "c\x11" + sse(chat_chunks("Let me check.", tool_call="call_8fKq2LmN7xWc4RtY9pZb3Vd"), named=False)
    seeds["chat-stream-comments-crlf"] = "c\x05" + ": OPENROUTER PROCESSING\r\n\r\n" + sse(chat_chunks("Hi there", usage=False), named=False, eol="\r\n")
    seeds["chat-stream-reasoning"] = "c\x21" + sse([(None, {"id": "c", "object": "chat.completion.chunk", "model": "deepseek-r2", "choices": [
        {"index": 0, "delta": {"reasoning_content": "think", "reasoning_details": [{"type": "reasoning.encrypted", "data": "enc0123456789"}]}}]}),
        (None, "[DONE]")], named=False)
    seeds["chat-stream-error"] = "c\x03" + sse(chat_chunks("Partial", usage=False)[:2] + [(None, {"error": {"message": "upstream overloaded", "type": "server_error", "code": 529}})], named=False)
    seeds["chat-stream-cut"] = "c\x09" + sse(chat_chunks("cut here soon", usage=False)[:3], named=False) + 'data: {"id":"chatcmpl-01","choi'
    seeds["chat-body-usage"] = "C\0" + js({"id": "chatcmpl-02", "object": "chat.completion", "model": "gpt-5.2", "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "Hello", "reasoning_encrypted_content": "gAAAAenc"}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10, "prompt_tokens_details": {"cached_tokens": 0}}})
    seeds["chat-body-usage-huge"] = "C\0" + '{"model":"gpt-5.2","choices":[],"usage":{"prompt_tokens":1e308,"completion_tokens":-5,"total_tokens":1e13}}'
    seeds["embeddings-body"] = "C\x40" + js({"object": "list", "data": [{"object": "embedding", "index": 0, "embedding": [0.1, -0.2]}],
                                             "model": "text-embedding-3-small", "usage": {"prompt_tokens": 5, "total_tokens": 5}})
    # Responses: text deltas, function call, failed and incomplete ends, a whole body.
    resp = {"id": "resp_9", "object": "response", "model": "gpt-5.5", "status": "in_progress", "output": []}
    seeds["responses-stream-function-call"] = "r\x13" + sse([
        ("response.created", {"type": "response.created", "response": resp}),
        ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call", "call_id": "call_Zq81kLmPp02", "name": "shell", "arguments": ""}}),
        ("response.function_call_arguments.delta", {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{\"cmd\":\"ls\"}"}),
        ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": {"type": "function_call", "call_id": "call_Zq81kLmPp02", "name": "shell", "arguments": "{\"cmd\":\"ls\"}"}}),
        ("response.completed", {"type": "response.completed", "response": dict(resp, status="completed", usage={"input_tokens": 300, "input_tokens_details": {"cached_tokens": 128}, "output_tokens": 20, "total_tokens": 320})}),
    ])
    seeds["responses-stream-failed"] = "r\x02" + sse([
        ("response.created", {"type": "response.created", "response": resp}),
        ("response.failed", {"type": "response.failed", "response": dict(resp, status="failed", error={"code": "server_error", "message": "failed"})}),
    ])
    seeds["responses-stream-error-event"] = "r\x07" + sse([("error", {"type": "error", "code": "rate_limit_exceeded", "message": "slow down"})])
    seeds["responses-body"] = "R\0" + js(dict(resp, status="completed", output=[
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAABenc"},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}],
        usage={"input_tokens": 10, "output_tokens": 2, "total_tokens": 12}))
    # Messages: ping, thinking with a signature delta, tool use, usage in message_delta, an error event.
    msg = {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-5", "content": [],
           "stop_reason": None, "usage": {"input_tokens": 25, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0, "output_tokens": 1}}
    seeds["messages-stream-thinking-tool"] = "m\x15" + sse([
        ("message_start", {"type": "message_start", "message": msg}),
        ("ping", {"type": "ping"}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Hmm."}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "EqQBCkYIBxgCKkBsig"}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("content_block_start", {"type": "content_block_start", "index": 1, "content_block": {"type": "tool_use", "id": "toolu_01A2b3C4d5E6f7G8h9", "name": "Bash", "input": {}}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"command\": \"ls\"}"}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 1}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 42}}),
        ("message_stop", {"type": "message_stop"}),
    ])
    seeds["messages-stream-overloaded"] = "m\x01" + sse([
        ("message_start", {"type": "message_start", "message": msg}),
        ("error", {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ], eol="\r\n")
    seeds["messages-stream-cut"] = "m\x0b" + sse([("message_start", {"type": "message_start", "message": msg})]) + "event: content_block_delta\r"
    seeds["messages-body"] = "M\0" + js(dict(msg, content=[{"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"},
                                                        {"type": "text", "text": "Done."}], stop_reason="end_turn",
                                          usage={"input_tokens": 100, "output_tokens": 5, "cache_read_input_tokens": 90, "cache_creation_input_tokens": 4}))
    # The meter's sieve beside the whole document (wire/JsonSieve.h): duplicated members, escapes,
    # numbers at the edges of what Qt reads, what only QJsonDocument reads, a count that is not one.
    seeds["sieve-duplicates-escapes"] = "C\0" + ('{"mod\\u0065l":"caf\\u00e9\\ud83d\\ude00","usage":{"prompt_tokens":5},"model":"x\\udc00",'
                                              '"usage":{"prompt_tokens":12.0,"prompt_tokens":7,"completion_tokens":1E3,"prompt_tokens_details":{"cached_tokens":"3"}}}')
    seeds["sieve-numbers"] = "R\0" + ('{"output":[{"type":"function_call","call_id":"c1"},[],7],"x":[4.9e-324,-0,18446744073709551615,1e-400],'
                                      '"usage":{"input_tokens":123456789012345678901234567890,"output_tokens":2}}')
    seeds["sieve-qt-only"] = "c\x0d" + sse([(None, '{"choices":[{"delta":{"content":"a\tb"}}],"model":"\\ud800"}'),
                                            (None, '{"type":"x","usage":{"prompt_tokens":1}}\u0000'), (None, "\ufeff{}")], named=False)
    # The meter's look at quiet events (wire/EventGlance.h): text deltas it passes over, beside near
    # misses it must read (an escaped name, a spaced or changed model, a finish reason, a member
    # named in the text), each after output has begun.
    delta = lambda content, extra="", model='"model":"gpt-5.2"': (
        '{"id":"c1",%s,"choices":[{"index":0,"delta":{"content":%s}%s}]}' % (model, content, extra))
    seeds["glance-near-misses"] = "c\x2b" + sse([
        (None, delta('""')), (None, delta('"Hi"')), (None, delta('"\\"usage\\": 1"')), (None, delta('"x"', ',"finish_reason":null')),
        (None, delta('"y"', model='"model": "gpt-5.2"')), (None, delta('"z"', model='"model":"gpt-5.2-mini"')),
        (None, delta('"w"', ',"\\u0075sage":{"prompt_tokens":3}')), (None, delta('"v"', ',"finish_reason":"stop"')),
        ("error", delta('"e"')), (None, "[DONE]")])
    # Found by fuzz_sse_meter: an escape JSON does not define spells a name for Qt's parser.
    seeds["glance-undefined-escape"] = "c>" + sse([
        (None, delta('""')), (None, '{"id":"c1","model":"gpt-5.2","choices":[{"index":0,"delta":{"\\content":"TTL "}}]}'),
        (None, delta('"x"')), (None, "[DONE]")])
    return seeds


def request(path, headers, body):
    head = path + "\n" + "".join(f"{k}: {v}\n" for k, v in headers.items()) + "\n"
    return head + (body if isinstance(body, str) else js(body))


def request_seeds():
    seeds = {}
    for name in RECORDED:
        rec = json.loads((DATA / (name + ".json")).read_text())
        for i, turn in enumerate(rec["turns"]):
            seeds[f"recorded-{name}-{i + 1}"] = request(rec["path"], rec["headers"], turn["body"])
        if "subagent" in rec:
            sub = rec["subagent"]
            seeds[f"recorded-{name}-subagent"] = request(rec["path"], dict(rec["headers"], **sub.get("headers", {})), sub["body"])
    chat = {"model": "openai/gpt-5.2", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 16}
    seeds["chat-models-chain"] = request("/v1/chat/completions", {"authorization": "Bearer sk-aile-x"},
                                         dict(chat, models=["claude/claude-sonnet-5", "openai/gpt-5.5"], stream=True,
                                              stream_options={"include_usage": True}))
    seeds["chat-tools-images-json"] = request("/v1/chat/completions", {"user-agent": "OpenAI/Python 2.1.0", "x-session-id": "s-42"}, {
        "model": "fast", "prompt_cache_key": "pk-1", "user": "u1", "max_completion_tokens": 64,
        "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": {}}},
        "tools": [{"type": "function", "function": {"name": "f", "parameters": {}}}], "reasoning_effort": "high",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "what is this"},
                                                  {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}]},
                     {"role": "assistant", "content": None, "tool_calls": [{"id": "call_0", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                     {"role": "tool", "tool_call_id": "call_0", "content": "42"}]})
    seeds["chat-model-not-string"] = request("/v1/chat/completions", {}, '{"model":["a"],"models":[1,""],"messages":"x"}')
    seeds["chat-model-control-chars"] = request("/v1/chat/completions", {"x-session-affinity": "a\tb"}, '{"model":"openai/gpt\\r\\nX-Evil: 1","messages":[]}')
    seeds["messages-opencode"] = request("/v1/messages", {"user-agent": "opencode/1.3.0", "x-opencode-session": "ses_abc", "anthropic-version": "2023-06-01"}, {
        "model": "claude/claude-sonnet-5", "max_tokens": 1024, "thinking": {"type": "enabled", "budget_tokens": 512},
        "metadata": {"user_id": "user_abc_account__session_7d1e"},
        "system": "be brief", "messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}]}]})
    seeds["count-tokens"] = request("/v1/messages/count_tokens", {}, {"model": "claude/claude-haiku-5", "messages": [{"role": "user", "content": "hi"}]})
    seeds["responses-previous-id"] = request("/v1/responses", {"session_id": "0199", "conversation_id": "c1"}, {
        "model": "gpt-5.5", "previous_response_id": "resp_01", "max_output_tokens": 100, "text": {"format": {"type": "json_object"}},
        "reasoning": {"effort": "low"}, "input": "next", "store": False})
    seeds["embeddings"] = request("/v1/embeddings", {}, {"model": "openai/text-embedding-3-small", "input": ["a", "b"]})
    seeds["deep-nesting"] = request("/v1/messages", {}, '{"model":"m","messages":' + "[" * 200 + "]" * 200 + "}")
    seeds["not-an-object"] = request("/v1/responses", {}, "[1,2,3]")
    seeds["numbers-out-of-range"] = request("/v1/chat/completions", {}, '{"model":"openai/gpt-5.2","max_tokens":1e300,'
                                            '"stream":1,"messages":[{"role":"user","content":"hi"}]}')
    seeds["max-completion-tokens-negative"] = request("/v1/chat/completions", {}, '{"model":"openai/gpt-5.2",'
                                                      '"max_completion_tokens":-1e19,"provider":{"sort":{"by":"price"}}}')
    return seeds


def write(target, seeds):
    folder = HERE / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    for name, text in seeds.items():
        (folder / name).write_bytes(text.encode("utf-8"))


if __name__ == "__main__":
    write("fuzz_sse_meter", sse_seeds())
    write("fuzz_request_facts", request_seeds())
