// loadgen — a small closed-loop HTTP/1.1 load generator for the Aile benchmark.
//
// Why not wrk: wrk's percentiles are bucketed and it cannot read per-event timestamps out of an
// SSE body. This program keeps every sample (nanoseconds from CLOCK_MONOTONIC) and prints one JSON
// object on stdout.
//
// Modes
//   lat   C keep-alive connections, each sends a request as soon as the previous answer has been
//         read in full (closed loop). Latency = first byte written .. last byte read.
//   sse   C connections send streamed requests; every SSE line carrying "@<ns>" (the upstream's
//         CLOCK_MONOTONIC send time) yields receive_time - send_time.
//         With --rate R the loop is paced: each connection sends at most one request every
//         conns×threads/R seconds (R requests per second in all, when the proxy keeps up), on
//         slots of its own spread over that interval from the start; a late answer's connection
//         sends at once and then keeps its slots (missed ones are skipped, never made up in a
//         burst); without it the loop is closed (as fast as answers).
//   hold  open N streamed requests (at most --ramp not yet answered at a time), keep them open for
//         --hold seconds reading events, sample VmRSS/VmHWM/RssAnon of --pids, then close them all.
//
// Single-threaded epoll per --threads loop; no dependencies beyond libc/libstdc++.

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ResponseReader.h"

namespace {

using loadgen::ResponseParser;
using loadgen::SseScanner;

int64_t nowNs()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

struct Options {
    std::string mode;
    std::string host = "127.0.0.1";
    int port = 0;
    std::string path = "/v1/chat/completions";
    std::vector<std::string> headers;
    std::string body;
    int conns = 1;
    int threads = 1;
    double duration = 5;
    double warmup = 1;
    double hold = 10;
    int ramp = 100;
    double rampTimeout = 60;
    int sources = 1;  // connect from 127.0.0.1 … 127.0.0.N in turn (a proxy may cap one peer's connections)
    std::vector<int> pids;
    double rate = 0;  // lat/sse: requests per second in all; 0 = closed loop (no pacing)
    std::string dump; // write every sample (ns; sse: and the event's index in its stream), one a line
};

[[noreturn]] void die(const std::string &msg)
{
    std::fprintf(stderr, "loadgen: %s\n", msg.c_str());
    std::exit(2);
}


struct Conn {
    int fd = -1;
    bool connecting = false;
    bool writing = false;
    std::string out;
    size_t outOff = 0;
    int64_t tSend = 0;
    ResponseParser rp;
    SseScanner sse;
    bool established = false; // hold: 2xx head and first body bytes seen
    bool dead = false;
    int64_t events = 0;
    int32_t streamEvents = 0; // stamped events seen in the current response
    int64_t nextAt = 0;       // --rate: when this connection may send its next request
    bool waiting = false;     // --rate: answered, waiting for its next slot
};

struct Result {
    std::vector<int64_t> samples; // ns
    std::vector<int32_t> eventIndex; // sse: 0-based position of the sample's event in its stream
    int64_t completed = 0;        // responses/streams completed inside the window
    int64_t non2xx = 0;
    int64_t connErrors = 0;
    int64_t streams = 0;
    // hold
    int64_t opened = 0, established = 0, dropped = 0, holdEvents = 0;
    double rampSeconds = 0;
    std::string firstBadStatus;
};

class Loop {
public:
    Loop(const Options &o, int conns, Result &r) : m_o(o), m_conns(conns), m_r(r)
    {
        m_ep = epoll_create1(EPOLL_CLOEXEC);
        if (m_ep < 0)
            die("epoll_create1 failed");
        std::string req = "POST " + o.path + " HTTP/1.1\r\nHost: " + o.host + ":" + std::to_string(o.port) + "\r\n";
        for (const auto &h : o.headers)
            req += h + "\r\n";
        req += "Content-Length: " + std::to_string(o.body.size()) + "\r\n\r\n" + o.body;
        m_request = req;
        std::memset(&m_addr, 0, sizeof m_addr);
        m_addr.sin_family = AF_INET;
        m_addr.sin_port = htons(uint16_t(o.port));
        if (inet_pton(AF_INET, o.host.c_str(), &m_addr.sin_addr) != 1)
            die("bad --host (an IPv4 address is expected)");
    }
    ~Loop()
    {
        for (auto &c : m_pool)
            if (c->fd >= 0)
                close(c->fd);
        close(m_ep);
    }

    void runTimed()
    {
        const int64_t t0 = nowNs();
        m_warmEnd = t0 + int64_t(m_o.warmup * 1e9);
        m_end = m_warmEnd + int64_t(m_o.duration * 1e9);
        m_interval = m_o.rate > 0 ? int64_t(1e9 * double(m_conns) * double(m_o.threads) / m_o.rate) : 0;
        for (int i = 0; i < m_conns; ++i)
            openConn();
        // Paced: the connections start spread over one interval, not all at once.
        for (int i = 0; i < int(m_pool.size()); ++i)
            m_pool[size_t(i)]->nextAt = t0 + (m_interval * i) / std::max(1, m_conns);
        while (nowNs() < m_end) {
            poll(m_interval > 0 ? 1 : 10);
            if (m_interval > 0)
                startDue();
        }
    }

    void runHold()
    {
        const int64_t t0 = nowNs();
        m_warmEnd = t0;
        m_end = INT64_MAX;
        const int64_t rampDeadline = t0 + int64_t(m_o.rampTimeout * 1e9);
        while (nowNs() < rampDeadline) {
            int pending = 0;
            for (auto &c : m_pool)
                if (!c->dead && !c->established)
                    ++pending;
            while (pending < m_o.ramp && m_r.opened < m_conns) {
                openConn();
                ++m_r.opened;
                ++pending;
            }
            if (m_r.opened >= m_conns && pending == 0)
                break;
            poll(5);
        }
        m_r.rampSeconds = double(nowNs() - t0) / 1e9;
        for (auto &c : m_pool)
            if (c->established)
                ++m_r.established;
        for (auto &c : m_pool)
            c->events = 0;
        const int64_t holdEnd = nowNs() + int64_t(m_o.hold * 1e9);
        while (nowNs() < holdEnd)
            poll(50);
        for (auto &c : m_pool) {
            m_r.holdEvents += c->events;
            if (c->established && c->dead)
                ++m_r.dropped;
        }
    }

    void closeAll()
    {
        for (auto &c : m_pool)
            if (c->fd >= 0) {
                close(c->fd);
                c->fd = -1;
            }
    }

private:
    void openConn(Conn *reuse = nullptr)
    {
        Conn *c = reuse;
        if (!c) {
            m_pool.push_back(std::make_unique<Conn>());
            c = m_pool.back().get();
        }
        c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (c->fd < 0)
            die(std::string("socket: ") + std::strerror(errno));
        int one = 1;
        setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (m_o.sources > 1) {
            sockaddr_in src{};
            src.sin_family = AF_INET;
            src.sin_addr.s_addr = htonl(0x7F000001u + uint32_t(m_nextSource++ % m_o.sources));
            if (bind(c->fd, reinterpret_cast<sockaddr *>(&src), sizeof src) < 0)
                die(std::string("bind to a loopback source address: ") + std::strerror(errno));
        }
        c->dead = false;
        c->established = false;
        const int rc = connect(c->fd, reinterpret_cast<sockaddr *>(&m_addr), sizeof m_addr);
        epoll_event ev{};
        ev.data.ptr = c;
        if (rc < 0 && errno == EINPROGRESS) {
            c->connecting = true;
            ev.events = EPOLLOUT;
            epoll_ctl(m_ep, EPOLL_CTL_ADD, c->fd, &ev);
            return;
        }
        if (rc < 0) {
            ++m_r.connErrors;
            fail(c);
            return;
        }
        ev.events = EPOLLIN;
        epoll_ctl(m_ep, EPOLL_CTL_ADD, c->fd, &ev);
        startRequest(c);
    }

    // --rate: sends the requests whose slot has come.
    void startDue()
    {
        const int64_t t = nowNs();
        for (auto &c : m_pool)
            if (c->waiting && c->fd >= 0 && c->nextAt <= t) {
                c->waiting = false;
                startRequest(c.get());
            }
    }

    void startRequest(Conn *c)
    {
        if (m_interval > 0) {
            const int64_t t = nowNs();
            if (c->nextAt > t) {
                c->waiting = true;
                return;
            }
            // A late request goes now; the next one keeps this connection's own slots (its phase,
            // set at the start), skipping those missed. Moving every late connection's next slot
            // to "now" put them all in step after one stall of the proxy, and they sent in bursts
            // of --conns from then on (docs/performance.md, "Change 22 (spend)").
            int64_t next = c->nextAt + m_interval;
            if (next <= t)
                next += ((t - next) / m_interval + 1) * m_interval;
            c->nextAt = next;
        }
        c->rp.reset();
        c->sse.reset();
        c->streamEvents = 0;
        c->out = m_request;
        c->outOff = 0;
        c->tSend = nowNs();
        flush(c);
    }

    void flush(Conn *c)
    {
        while (c->outOff < c->out.size()) {
            const ssize_t n = send(c->fd, c->out.data() + c->outOff, c->out.size() - c->outOff, MSG_NOSIGNAL);
            if (n > 0) {
                c->outOff += size_t(n);
                continue;
            }
            if (n < 0 && errno == EAGAIN) {
                setWrite(c, true);
                return;
            }
            ++m_r.connErrors;
            fail(c);
            return;
        }
        setWrite(c, false);
    }

    void setWrite(Conn *c, bool on)
    {
        if (c->writing == on)
            return;
        c->writing = on;
        epoll_event ev{};
        ev.data.ptr = c;
        ev.events = EPOLLIN | (on ? uint32_t(EPOLLOUT) : 0u);
        epoll_ctl(m_ep, EPOLL_CTL_MOD, c->fd, &ev);
    }

    // A connection broke or ended: timed modes reconnect, hold mode counts it.
    void fail(Conn *c)
    {
        if (c->fd >= 0) {
            epoll_ctl(m_ep, EPOLL_CTL_DEL, c->fd, nullptr);
            close(c->fd);
            c->fd = -1;
        }
        c->dead = true;
        c->writing = false;
        c->connecting = false;
        if (m_o.mode != "hold" && nowNs() < m_end)
            openConn(c);
    }

    void poll(int timeoutMs)
    {
        epoll_event evs[256];
        const int n = epoll_wait(m_ep, evs, 256, timeoutMs);
        for (int i = 0; i < n; ++i) {
            Conn *c = static_cast<Conn *>(evs[i].data.ptr);
            if (c->fd < 0)
                continue;
            if (c->connecting) {
                int err = 0;
                socklen_t len = sizeof err;
                getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
                c->connecting = false;
                if (err != 0) {
                    ++m_r.connErrors;
                    fail(c);
                    continue;
                }
                c->writing = true; // registered with EPOLLOUT; setWrite(false) switches to EPOLLIN
                startRequest(c);
                continue;
            }
            if (evs[i].events & EPOLLOUT)
                flush(c);
            if (c->fd >= 0 && (evs[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
                readable(c);
        }
    }

    void readable(Conn *c)
    {
        char buf[65536];
        for (;;) {
            const ssize_t n = recv(c->fd, buf, sizeof buf, 0);
            if (n > 0) {
                const int64_t t = nowNs();
                if (!consume(c, buf, size_t(n), t))
                    return;
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EINTR))
                return;
            // EOF or error
            const int64_t t = nowNs();
            if (c->rp.finishOnEof()) {
                responseDone(c, t, true);
                return;
            }
            if (c->rp.state() != ResponseParser::Head || c->outOff > 0)
                ++m_r.connErrors;
            fail(c);
            return;
        }
    }

    // Returns false when the connection was closed or replaced.
    bool consume(Conn *c, const char *p, size_t n, int64_t t)
    {
        const bool streaming = m_o.mode != "lat";
        c->rp.feed(p, n, [&](const char *b, size_t len) {
            if (!streaming || c->rp.status() / 100 != 2)
                return;
            // hold: a stream counts as open once its 2xx head and first body bytes have arrived
            if (len > 0)
                c->established = true;
            c->sse.feed(b, len, [&](int64_t sent) {
                ++c->events;
                const int32_t index = c->streamEvents++;
                if (m_o.mode != "hold" && sent >= m_warmEnd && t <= m_end) {
                    m_r.samples.push_back(t - sent);
                    m_r.eventIndex.push_back(index);
                }
            });
        });
        if (c->rp.state() == ResponseParser::Error) {
            ++m_r.connErrors;
            fail(c);
            return false;
        }
        if (c->rp.state() == ResponseParser::Done) {
            responseDone(c, t, false);
            return false;
        }
        return true;
    }

    void responseDone(Conn *c, int64_t t, bool closed)
    {
        const int status = c->rp.status();
        const bool inWindow = c->tSend >= m_warmEnd && t <= m_end;
        if (status / 100 != 2) {
            ++m_r.non2xx;
            if (m_r.firstBadStatus.empty())
                m_r.firstBadStatus = std::to_string(status);
        } else if (inWindow) {
            ++m_r.completed;
            if (m_o.mode == "lat")
                m_r.samples.push_back(t - c->tSend);
        }
        if (m_o.mode == "hold") { // a held stream should never end
            fail(c);
            return;
        }
        if (closed || c->rp.connectionClose()) {
            fail(c);
            return;
        }
        if (t < m_end)
            startRequest(c);
    }

    const Options &m_o;
    int m_conns;
    int m_nextSource = 0;
    Result &m_r;
    int m_ep = -1;
    sockaddr_in m_addr{};
    std::string m_request;
    std::vector<std::unique_ptr<Conn>> m_pool;
    int64_t m_warmEnd = 0;
    int64_t m_end = 0;
    int64_t m_interval = 0; // --rate: ns between two requests of one connection; 0 = closed loop
};

double pct(const std::vector<int64_t> &sorted, double p)
{
    if (sorted.empty())
        return NAN;
    size_t rank = size_t(std::ceil(p / 100.0 * double(sorted.size())));
    if (rank == 0)
        rank = 1;
    return double(sorted[std::min(rank, sorted.size()) - 1]) / 1000.0;
}

std::string num(double v)
{
    if (std::isnan(v))
        return "null";
    char b[64];
    std::snprintf(b, sizeof b, "%.1f", v);
    return b;
}

std::string procStatus(int pid, const char *field)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/status");
    std::string line;
    const std::string key = std::string(field) + ":";
    while (std::getline(f, line))
        if (line.compare(0, key.size(), key) == 0) {
            std::istringstream in(line.substr(key.size()));
            long kb = 0;
            in >> kb;
            return std::to_string(kb);
        }
    return "null";
}

std::string jsonEscape(const std::string &s)
{
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\')
            o.push_back('\\');
        o.push_back(c);
    }
    return o;
}

void usage()
{
    std::fprintf(stderr,
                 "usage: loadgen MODE --port P [--host 127.0.0.1] [--path /v1/chat/completions]\n"
                 "         [--header 'K: V']... [--body JSON | --body-file F] [--conns N] [--threads T]\n"
                 "         [--duration S] [--warmup S] [--hold S] [--ramp N] [--ramp-timeout S] [--pids 1,2] [--sources N]\n"
                 "         [--dump FILE] [--rate R]\n"
                 "  MODE: lat | sse | hold\n");
    std::exit(2);
}

Options parse(int argc, char **argv)
{
    if (argc < 2)
        usage();
    Options o;
    o.mode = argv[1];
    if (o.mode != "lat" && o.mode != "sse" && o.mode != "hold")
        usage();
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc)
                die("missing value for " + a);
            return argv[++i];
        };
        if (a == "--host") o.host = next();
        else if (a == "--port") o.port = std::atoi(next().c_str());
        else if (a == "--path") o.path = next();
        else if (a == "--header") o.headers.push_back(next());
        else if (a == "--body") o.body = next();
        else if (a == "--body-file") {
            std::ifstream f(next());
            std::stringstream ss;
            ss << f.rdbuf();
            o.body = ss.str();
            while (!o.body.empty() && (o.body.back() == '\n' || o.body.back() == '\r'))
                o.body.pop_back();
        }
        else if (a == "--conns") o.conns = std::atoi(next().c_str());
        else if (a == "--threads") o.threads = std::atoi(next().c_str());
        else if (a == "--duration") o.duration = std::atof(next().c_str());
        else if (a == "--warmup") o.warmup = std::atof(next().c_str());
        else if (a == "--hold") o.hold = std::atof(next().c_str());
        else if (a == "--ramp") o.ramp = std::atoi(next().c_str());
        else if (a == "--sources") o.sources = std::max(1, std::atoi(next().c_str()));
        else if (a == "--ramp-timeout") o.rampTimeout = std::atof(next().c_str());
        else if (a == "--dump") o.dump = next();
        else if (a == "--rate") o.rate = std::atof(next().c_str());
        else if (a == "--pids") {
            std::stringstream ss(next());
            std::string tok;
            while (std::getline(ss, tok, ','))
                if (!tok.empty())
                    o.pids.push_back(std::atoi(tok.c_str()));
        }
        else usage();
    }
    if (o.port <= 0 || o.conns <= 0 || o.threads <= 0)
        usage();
    o.threads = std::min(o.threads, o.conns);
    if (o.mode == "hold")
        o.threads = 1;
    return o;
}

} // namespace

int main(int argc, char **argv)
{
    const Options o = parse(argc, argv);
    std::vector<Result> results(size_t(o.threads));

    if (o.mode == "hold") {
        Loop loop(o, o.conns, results[0]);
        loop.runHold();
        Result &r = results[0];
        // Sample memory while every stream is still open, then close them.
        std::string mem = "[";
        for (size_t i = 0; i < o.pids.size(); ++i) {
            const int pid = o.pids[i];
            mem += std::string(i ? "," : "") + "{\"pid\":" + std::to_string(pid) + ",\"vmhwm_kb\":" +
                   procStatus(pid, "VmHWM") + ",\"vmrss_kb\":" + procStatus(pid, "VmRSS") +
                   ",\"rssanon_kb\":" + procStatus(pid, "RssAnon") + "}";
        }
        mem += "]";
        loop.closeAll();
        std::printf("{\"mode\":\"hold\",\"target\":%d,\"opened\":%lld,\"established\":%lld,\"dropped\":%lld,"
                    "\"hold_events\":%lld,\"ramp_s\":%.2f,\"hold_s\":%.1f,\"conn_errors\":%lld,\"non2xx\":%lld,"
                    "\"first_bad_status\":\"%s\",\"memory\":%s}\n",
                    o.conns, (long long)r.opened, (long long)r.established, (long long)r.dropped,
                    (long long)r.holdEvents, r.rampSeconds, o.hold, (long long)r.connErrors, (long long)r.non2xx,
                    jsonEscape(r.firstBadStatus).c_str(), mem.c_str());
        return 0;
    }

    std::vector<std::thread> workers;
    for (int t = 0; t < o.threads; ++t) {
        const int conns = o.conns / o.threads + (t < o.conns % o.threads ? 1 : 0);
        workers.emplace_back([&o, &results, t, conns] {
            Loop loop(o, conns, results[size_t(t)]);
            loop.runTimed();
        });
    }
    for (auto &w : workers)
        w.join();

    Result all;
    for (auto &r : results) {
        all.samples.insert(all.samples.end(), r.samples.begin(), r.samples.end());
        all.eventIndex.insert(all.eventIndex.end(), r.eventIndex.begin(), r.eventIndex.end());
        all.completed += r.completed;
        all.non2xx += r.non2xx;
        all.connErrors += r.connErrors;
        if (all.firstBadStatus.empty())
            all.firstBadStatus = r.firstBadStatus;
    }
    if (!o.dump.empty()) {
        std::ofstream f(o.dump);
        for (size_t i = 0; i < all.samples.size(); ++i) {
            f << all.samples[i];
            if (i < all.eventIndex.size())
                f << ' ' << all.eventIndex[i];
            f << '\n';
        }
    }
    std::sort(all.samples.begin(), all.samples.end());
    double mean = NAN;
    if (!all.samples.empty()) {
        long double s = 0;
        for (auto v : all.samples)
            s += v;
        mean = double(s / all.samples.size()) / 1000.0;
    }
    const double rps = double(all.completed) / o.duration;
    std::printf("{\"mode\":\"%s\",\"conns\":%d,\"threads\":%d,\"duration_s\":%.1f,\"completed\":%lld,\"rps\":%.1f,"
                "\"samples\":%zu,\"p50_us\":%s,\"p90_us\":%s,\"p99_us\":%s,\"p999_us\":%s,\"mean_us\":%s,"
                "\"min_us\":%s,\"max_us\":%s,\"non2xx\":%lld,\"conn_errors\":%lld,\"first_bad_status\":\"%s\"}\n",
                o.mode.c_str(), o.conns, o.threads, o.duration, (long long)all.completed, rps, all.samples.size(),
                num(pct(all.samples, 50)).c_str(), num(pct(all.samples, 90)).c_str(),
                num(pct(all.samples, 99)).c_str(), num(pct(all.samples, 99.9)).c_str(), num(mean).c_str(),
                num(pct(all.samples, 0)).c_str(), num(pct(all.samples, 100)).c_str(), (long long)all.non2xx,
                (long long)all.connErrors, jsonEscape(all.firstBadStatus).c_str());
    return 0;
}
