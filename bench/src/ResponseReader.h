// loadgen's reading of answers: an incremental HTTP/1.1 response parser and the SSE timestamp
// scanner (bench/src/loadgen.cpp; header-only, so the benchmark still builds loadgen with one
// g++ command). No dependencies beyond libstdc++.
#pragma once

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace loadgen {

std::string lower(std::string s)
{
    for (auto &c : s)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Incremental HTTP/1.1 response parser: Content-Length, chunked, or read-until-close bodies.
class ResponseParser {
public:
    enum State { Head, BodyLength, ChunkSize, ChunkData, ChunkCrlf, Trailer, BodyEof, Done, Error };

    void reset()
    {
        m_state = Head;
        m_head.clear();
        m_line.clear();
        m_status = 0;
        m_remaining = 0;
        m_close = false;
    }
    State state() const { return m_state; }
    int status() const { return m_status; }
    bool connectionClose() const { return m_close; }
    bool headDone() const { return m_state != Head; }

    // Feeds bytes; body bytes go to onBody(const char*, size_t). Returns bytes consumed.
    template<class F>
    size_t feed(const char *p, size_t n, F &&onBody)
    {
        size_t i = 0;
        while (i < n && m_state != Done && m_state != Error) {
            switch (m_state) {
            case Head: {
                const size_t old = m_head.size();
                m_head.append(p + i, n - i);
                const size_t pos = m_head.find("\r\n\r\n", old >= 3 ? old - 3 : 0);
                if (pos == std::string::npos) {
                    if (m_head.size() > 65536)
                        m_state = Error;
                    i = n;
                    break;
                }
                i += pos + 4 - old;
                m_head.resize(pos + 4);
                parseHead();
                break;
            }
            case BodyLength: {
                const size_t take = size_t(std::min<int64_t>(m_remaining, int64_t(n - i)));
                onBody(p + i, take);
                i += take;
                m_remaining -= int64_t(take);
                if (m_remaining == 0)
                    m_state = Done;
                break;
            }
            case ChunkSize:
            case Trailer: {
                const char c = p[i++];
                if (c != '\n') {
                    if (m_line.size() > 4096) {
                        m_state = Error;
                        break;
                    }
                    m_line.push_back(c);
                    break;
                }
                if (!m_line.empty() && m_line.back() == '\r')
                    m_line.pop_back();
                if (m_state == Trailer) {
                    if (m_line.empty())
                        m_state = Done;
                    m_line.clear();
                    break;
                }
                char *end = nullptr;
                const long long size = std::strtoll(m_line.c_str(), &end, 16);
                if (end == m_line.c_str() || size < 0) {
                    m_state = Error;
                    break;
                }
                m_line.clear();
                if (size == 0) {
                    m_state = Trailer;
                } else {
                    m_remaining = size;
                    m_state = ChunkData;
                }
                break;
            }
            case ChunkData: {
                const size_t take = size_t(std::min<int64_t>(m_remaining, int64_t(n - i)));
                onBody(p + i, take);
                i += take;
                m_remaining -= int64_t(take);
                if (m_remaining == 0) {
                    m_state = ChunkCrlf;
                    m_remaining = 2;
                }
                break;
            }
            case ChunkCrlf:
                ++i;
                if (--m_remaining == 0)
                    m_state = ChunkSize;
                break;
            case BodyEof:
                onBody(p + i, n - i);
                i = n;
                break;
            default:
                i = n;
                break;
            }
        }
        return i;
    }

    // The peer closed: a read-until-close body ends here; anything else was cut short.
    bool finishOnEof()
    {
        if (m_state == BodyEof) {
            m_state = Done;
            return true;
        }
        return false;
    }

private:
    void parseHead()
    {
        std::istringstream in(m_head);
        std::string line;
        std::getline(in, line);
        if (line.size() < 12 || line.compare(0, 5, "HTTP/") != 0) {
            m_state = Error;
            return;
        }
        m_status = std::atoi(line.c_str() + 9);
        int64_t length = -1;
        bool chunked = false;
        while (std::getline(in, line)) {
            if (!line.empty() && line.back() == '\r')
                line.pop_back();
            const auto colon = line.find(':');
            if (colon == std::string::npos)
                continue;
            const std::string name = lower(line.substr(0, colon));
            std::string value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(" \t"));
            if (name == "content-length")
                length = std::atoll(value.c_str());
            else if (name == "transfer-encoding" && lower(value).find("chunked") != std::string::npos)
                chunked = true;
            else if (name == "connection" && lower(value).find("close") != std::string::npos)
                m_close = true;
        }
        if (line.size() && m_head.compare(0, 8, "HTTP/1.0") == 0)
            m_close = true;
        if (m_status == 204 || m_status == 304) {
            m_state = Done;
        } else if (chunked) {
            m_state = ChunkSize;
        } else if (length >= 0) {
            m_remaining = length;
            m_state = length == 0 ? Done : BodyLength;
        } else {
            m_state = BodyEof;
            m_close = true;
        }
    }

    State m_state = Head;
    std::string m_head;
    std::string m_line;
    int m_status = 0;
    int64_t m_remaining = 0;
    bool m_close = false;
};

// Splits an SSE body into lines and hands each "@<digits>" timestamp to onStamp.
class SseScanner {
public:
    void reset() { m_buf.clear(); }
    template<class F>
    void feed(const char *p, size_t n, F &&onStamp)
    {
        m_buf.append(p, n);
        size_t start = 0;
        for (;;) {
            const size_t nl = m_buf.find('\n', start);
            if (nl == std::string::npos)
                break;
            scanLine(start, nl, onStamp);
            start = nl + 1;
        }
        m_buf.erase(0, start);
    }

private:
    template<class F>
    void scanLine(size_t from, size_t to, F &&onStamp)
    {
        const size_t at = m_buf.find("\"@", from);
        if (at == std::string::npos || at >= to)
            return;
        int64_t v = 0;
        size_t k = at + 2;
        for (; k < to && m_buf[k] >= '0' && m_buf[k] <= '9'; ++k)
            v = v * 10 + (m_buf[k] - '0');
        if (k > at + 2)
            onStamp(v);
    }
    std::string m_buf;
};

} // namespace loadgen
