// The replay benchmark (docs/replay.md, bench/README.md "Replay"): 100,000 recorded requests of
// one key over seven days, written through the store's own writer with times from an injected
// clock, then POST /keys/route-replay on the real engine with an edited route, timed end to end
// (the store read on its own connection and the planner over every request). Prints one JSON line.
#include "testsupport/TestEngine.h"
#include "core/Clock.h"
#include "replay/ReplayHistory.h"
#include "replay/Replayer.h"
#include "host/EngineContext.h"
#include "store/Store.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTextStream>

#include <algorithm>
#include <ctime>

using namespace Aile;

namespace {

// The process's CPU time (every thread: the replay runs on a pool thread), so the figure holds
// on a loaded machine where wall times do not.
qint64 cpuMs()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return qint64(t.tv_sec) * 1000 + t.tv_nsec / 1000000;
}

QJsonObject route(const QString &name, const QStringList &models)
{
    QJsonArray targets;
    for (const QString &m : models)
        targets.append(QJsonObject{{QStringLiteral("model"), m}});
    return QJsonObject{{QStringLiteral("name"), name}, {QStringLiteral("targets"), targets}};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const int requests = argc > 1 ? QByteArray(argv[1]).toInt() : 100000;
    const int runs = argc > 2 ? QByteArray(argv[2]).toInt() : 3;
    constexpr qint64 DayMs = 24LL * 3600 * 1000;
    ManualClock clock;
    const QString up = QStringLiteral("http://127.0.0.1:9");   // never dialled: a replay sends nothing
    QJsonArray sharers;
    for (int i = 0; i < 6; ++i)
        sharers.append(Test::sharer(QStringLiteral("L00000000000000a%1").arg(i), QStringLiteral("openai"), up,
                                    {QStringLiteral("gpt-5.2"), QStringLiteral("gpt-5.5")},
                                    QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), 40 + 10 * i}}}}));
    QJsonObject config = Test::configWith(sharers, {}, QJsonObject{{QStringLiteral("probeIntervalMs"), 1e12}});
    Test::TestEngine engine(config, &clock);
    if (!engine.start())
        return 1;
    const Keys::ApiKey key = engine.context().keys.first();
    engine.context().keys.first().routes = QJsonArray{route(QStringLiteral("main"), {QStringLiteral("openai/gpt-5.2")})};

    // The history: written as the store writer writes it, in batches, seven days back from now.
    QElapsedTimer written;
    written.start();
    {
        Store::Store store(engine.context().store->path());
        QString error;
        if (!store.open(&error)) {
            QTextStream(stderr) << error << '\n';
            return 1;
        }
        // Seven whole UTC days, today included: what "days": 7 replays.
        const qint64 start = (clock.nowMs() / DayMs - 6) * DayMs + 1000;
        const qint64 step = (clock.nowMs() - start) / requests;
        QList<Store::TraceRecord> batch;
        quint32 x = 7;
        for (int i = 0; i < requests; ++i) {
            x = x * 1103515245u + 12345u;
            Store::TraceRecord t;
            t.id = QStringLiteral("bench-%1").arg(i);
            t.startedMs = start + qint64(i) * step;
            t.keyId = key.id;
            t.keyName = key.name;
            t.endpoint = QStringLiteral("/v1/chat/completions");
            t.modelAsked = QStringLiteral("main");
            t.route = QStringLiteral("main");
            t.modelServed = QStringLiteral("openai/gpt-5.2");
            t.sharer = QStringLiteral("L00000000000000a0");
            t.status = 200;
            t.attempts = 1;
            t.inputTokens = 100 + (x >> 8) % 20000;
            t.outputTokens = 10 + (x >> 4) % 2000;
            t.costUsd = 0.001;
            t.session = (x & 3) == 0 ? QStringLiteral("%1").arg(x, 16, 16, QLatin1Char('0')) : QStringLiteral("none");
            t.maxOutputTokens = 4096;
            Store::AttemptRecord a;
            a.seq = 1;
            a.sharer = t.sharer;
            a.outcome = (x % 97) == 0 ? QStringLiteral("failed_over") : QStringLiteral("served");
            a.status = (x % 97) == 0 ? 503 : 200;
            a.startedMs = t.startedMs;
            t.attemptRows << a;
            batch << t;
            if (batch.size() == 2000) {
                store.record(batch, {});
                batch.clear();
            }
        }
        store.record(batch, {});
    }
    const qint64 writeMs = written.elapsed();

    const QJsonObject ask{{QStringLiteral("key"), key.id},
                          {QStringLiteral("days"), 7},
                          {QStringLiteral("route"), route(QStringLiteral("main"), {QStringLiteral("openai/gpt-5.5"), QStringLiteral("openai/gpt-5.2")})}};
    QList<qint64> times;
    QList<qint64> cpuTimes;
    int replayed = 0;
    for (int r = 0; r < runs; ++r) {
        QElapsedTimer timer;
        timer.start();
        const qint64 cpuBefore = cpuMs();
        const Test::Reply reply = Test::send(QStringLiteral("POST"), engine.baseUrl() + QStringLiteral("/keys/route-replay"),
                                             QJsonDocument(ask).toJson(QJsonDocument::Compact),
                                             {{"authorization", QByteArray("Bearer ") + Test::AdminToken}}, 120000);
        times << timer.elapsed();
        cpuTimes << cpuMs() - cpuBefore;
        if (reply.status != 200) {
            QTextStream(stderr) << reply.status << ' ' << reply.body << '\n';
            return 1;
        }
        replayed = reply.json().value(QLatin1String("requests")).toObject().value(QLatin1String("replayed")).toInt();
    }
    std::sort(times.begin(), times.end());
    std::sort(cpuTimes.begin(), cpuTimes.end());
    // The two parts apart, on this thread: the read of the history, then the planner over it.
    Replay::ReplayAsk direct;
    direct.key = key.id;
    direct.route = ask.value(QLatin1String("route")).toObject();
    int status = 0;
    QString error;
    const EngineContext &ctx = engine.context();
    std::optional<Replay::Replayer> replayer = Replay::Replayer::prepare({ctx, ctx, ctx.settings, ctx.routing, *ctx.clock}, direct, &status, &error);
    QElapsedTimer phase;
    phase.start();
    const QList<Store::TraceRecord> history = Replay::loadHistory(*engine.context().store, key.id, replayer->sinceMs());
    const qint64 readMs = phase.restart();
    replayer->run(history);
    const qint64 planMs = phase.elapsed();
    QJsonArray all;
    for (qint64 t : times)
        all.append(t);
    QTextStream(stdout) << QJsonDocument(QJsonObject{{QStringLiteral("requests"), requests},
                                                      {QStringLiteral("replayed"), replayed},
                                                      {QStringLiteral("writeMs"), writeMs},
                                                      {QStringLiteral("readMs"), readMs},
                                                      {QStringLiteral("planMs"), planMs},
                                                      {QStringLiteral("replayMsMedian"), times.at(times.size() / 2)},
                                                      {QStringLiteral("replayMs"), all},
                                                      {QStringLiteral("replayCpuMsMedian"), cpuTimes.at(cpuTimes.size() / 2)}})
                               .toJson(QJsonDocument::Compact)
                        << '\n';
    return replayed == requests ? 0 : 1;
}
