#!/usr/bin/env python3
"""Timestamping / holding OpenAI-style SSE upstream for the Aile benchmark.

Routes (any method, HTTP/1.1 keep-alive, request bodies by Content-Length or chunked):
  /sse/...   a streamed chat completion: --events chunks spaced --min-ms..--max-ms apart, then a
             usage chunk and `data: [DONE]`.
  /hold/...  a stream that never ends on its own: one chunk about every --hold-interval seconds
             until the client goes away (metric 4: memory with many open streams).
  /abort/... a streamed chat completion cut at a random point (bench/soak.sh): after 0 to --events
             chunks, sometimes in the middle of one, the connection is reset or closed without the
             end of the chunked body.
  /open      {"open": N}: the streams this upstream is sending right now (bench/run.sh waits for 0
             between SSE runs, so that a proxy still draining the streams of its run, after its
             client has gone, does not load the machine during the next path's run).
  otherwise  a canned non-streamed chat completion (smoke checks, and the soak's real client).

Every content chunk carries its send time as `"content":"@<ns>"`, where <ns> is
time.monotonic_ns() (CLOCK_MONOTONIC on Linux) taken right before the bytes are handed to the
socket, so a client on the same machine can compute receive - send per event.

Prints `listening on 127.0.0.1:<port>` once bound (port 0 picks a free one).
"""
import argparse
import asyncio
import json
import random
import sys
import time

CANNED = json.dumps({
    "id": "chatcmpl-bench", "object": "chat.completion", "created": 1700000000, "model": "gpt-5.2",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello from the bench."},
                 "finish_reason": "stop"}],
    "usage": {"prompt_tokens": 8, "completion_tokens": 6, "total_tokens": 14},
}, separators=(",", ":")).encode()

CHUNK_HEAD = (b'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,'
              b'"model":"gpt-5.2","choices":[{"index":0,"delta":{"content":"@')
CHUNK_TAIL = b'"},"finish_reason":null}]}\n\n'
FINAL = (b'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,'
         b'"model":"gpt-5.2","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],'
         b'"usage":{"prompt_tokens":8,"completion_tokens":40,"total_tokens":48}}\n\n'
         b'data: [DONE]\n\n')
STREAM_HEAD = (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n")
FIRST = (b'data: {"id":"chatcmpl-bench","object":"chat.completion.chunk","created":1700000000,'
         b'"model":"gpt-5.2","choices":[{"index":0,"delta":{"role":"assistant","content":""},'
         b'"finish_reason":null}]}\n\n')


def chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


class Upstream(asyncio.Protocol):
    opts = None
    open_streams = 0  # over every connection: see /open

    def connection_made(self, transport):
        self.t = transport
        self.buf = bytearray()
        self.busy = False
        self.timer = None
        self.left = 0
        self.cut = False
        self.streaming = False

    def stream_begins(self):
        self.streaming = True
        Upstream.open_streams += 1

    def stream_ends(self):
        if self.streaming:
            self.streaming = False
            Upstream.open_streams -= 1

    def connection_lost(self, exc):
        self.stream_ends()
        if self.timer:
            self.timer.cancel()
            self.timer = None
        self.t = None

    def data_received(self, data):
        self.buf += data
        self.process()

    # -- request framing ------------------------------------------------------------------------
    def process(self):
        while not self.busy and self.t is not None:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                if len(self.buf) > 65536:
                    self.t.close()
                return
            head = bytes(self.buf[:end]).decode("latin-1")
            lines = head.split("\r\n")
            parts = lines[0].split(" ")
            if len(parts) < 2:
                self.t.close()
                return
            path = parts[1]
            length, chunked = 0, False
            for line in lines[1:]:
                name, _, value = line.partition(":")
                name = name.strip().lower()
                if name == "content-length":
                    length = int(value.strip())
                elif name == "transfer-encoding" and "chunked" in value.lower():
                    chunked = True
            pos = end + 4
            if chunked:
                body_end = self.chunked_end(pos)
                if body_end < 0:
                    return
                pos = body_end
            else:
                if len(self.buf) < pos + length:
                    return
                pos += length
            del self.buf[:pos]
            self.handle(path)

    def chunked_end(self, pos):
        while True:
            nl = self.buf.find(b"\r\n", pos)
            if nl < 0:
                return -1
            size = int(bytes(self.buf[pos:nl]).split(b";")[0].strip() or b"0", 16)
            pos = nl + 2
            if size == 0:
                # trailers until an empty line
                while True:
                    nl = self.buf.find(b"\r\n", pos)
                    if nl < 0:
                        return -1
                    if nl == pos:
                        return nl + 2
                    pos = nl + 2
            if len(self.buf) < pos + size + 2:
                return -1
            pos += size + 2

    # -- answers ----------------------------------------------------------------------------------
    def handle(self, path):
        if path.startswith("/sse/") or path.startswith("/abort/") or path.startswith("/hold/"):
            self.stream_begins()
        if path.startswith("/sse/"):
            self.busy = True
            self.left = self.opts.events
            self.t.write(STREAM_HEAD + chunk(FIRST))
            self.timer = asyncio.get_running_loop().call_later(self.gap(), self.tick)
        elif path.startswith("/abort/"):
            self.busy = True
            self.left = random.randint(0, self.opts.events)
            self.cut = True
            self.t.write(STREAM_HEAD + chunk(FIRST))
            self.timer = asyncio.get_running_loop().call_later(self.gap(), self.tick)
        elif path.startswith("/hold/"):
            self.busy = True
            self.left = -1
            self.t.write(STREAM_HEAD + chunk(FIRST))
            # spread the held streams' ticks over the interval
            delay = random.uniform(0, self.opts.hold_interval)
            self.timer = asyncio.get_running_loop().call_later(delay, self.tick)
        elif path == "/open":
            body = b'{"open":%d}' % Upstream.open_streams
            self.t.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        else:
            self.t.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s"
                         % (len(CANNED), CANNED))

    def gap(self):
        return random.uniform(self.opts.min_ms, self.opts.max_ms) / 1000.0

    def tick(self):
        self.timer = None
        if self.t is None:
            return
        if self.left == 0 and self.cut:
            # half an event, or none; then a reset (RST) or a plain close (FIN), at random
            if random.random() < 0.5:
                self.t.write(b"%x\r\n%s" % (len(FINAL), FINAL[: random.randint(1, len(FINAL) - 1)]))
            self.stream_ends()
            if random.random() < 0.5:
                self.t.abort()
            else:
                self.t.close()
            return
        if self.left == 0:
            self.t.write(chunk(FINAL) + b"0\r\n\r\n")
            self.stream_ends()
            self.busy = False
            self.process()
            return
        data = CHUNK_HEAD + str(time.monotonic_ns()).encode() + CHUNK_TAIL
        self.t.write(b"%x\r\n%s\r\n" % (len(data), data))
        loop = asyncio.get_running_loop()
        if self.left > 0:
            self.left -= 1
            self.timer = loop.call_later(self.gap(), self.tick)
        else:
            self.timer = loop.call_later(self.opts.hold_interval, self.tick)


async def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--events", type=int, default=40)
    ap.add_argument("--min-ms", type=float, default=5.0)
    ap.add_argument("--max-ms", type=float, default=10.0)
    ap.add_argument("--hold-interval", type=float, default=1.0)
    Upstream.opts = ap.parse_args()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(Upstream, "127.0.0.1", Upstream.opts.port, backlog=4096)
    port = server.sockets[0].getsockname()[1]
    print(f"listening on 127.0.0.1:{port}", flush=True)
    await server.serve_forever()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(0)
