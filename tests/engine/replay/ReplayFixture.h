#pragma once

// A recorded history for the replay suites (docs/replay.md): a deterministic stream of requests
// sent through the real engine against the fake upstream on a ManualClock, so the store holds
// what a user's proxy would hold after a few days.
#include "../routing/RoutingFixture.h"

#include <QtCore/QJsonArray>

namespace Aile::Test {

/// The replay suites' sharers: two on openai gpt-5.2 (A the cheaper), one on gpt-5.5.
namespace ReplaySharers {
inline const QString A = QStringLiteral("L00000000000000a1"); // openai gpt-5.2, cheapest
inline const QString C = QStringLiteral("L00000000000000c1"); // openai gpt-5.2, dearer
inline const QString B = QStringLiteral("L00000000000000b1"); // openai gpt-5.5
inline QJsonArray all()
{
    const auto percent = [](int p) { return QJsonObject{{QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}}}}; };
    return QJsonArray{sharer(A, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(50)),
                      sharer(C, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.2")}, percent(70)),
                      sharer(B, QStringLiteral("openai"), {}, {QStringLiteral("gpt-5.5")}, percent(60))};
}
} // namespace ReplaySharers

/// One request of the recorded stream: its prompt and answer sizes, and when it is sent.
struct RecordedAsk
{
    qint64 atOffsetMs = 0; // from the first request
    int inputTokens = 0;
    int outputTokens = 0;
    QString model;
    QString session; // x-session-id, or none
    int index = 0;   // its place in the stream (the upstream's scripts read it)
};

/// requests spread over days: sizes, models and sessions from a fixed generator.
inline QList<RecordedAsk> recordedStream(int days, int perDay, const QStringList &models)
{
    QList<RecordedAsk> out;
    quint32 x = 12345; // a fixed linear congruential sequence: the same stream on every run
    auto next = [&x](quint32 bound) {
        x = x * 1103515245u + 12345u;
        return (x >> 8) % bound;
    };
    const qint64 step = 24LL * 3600 * 1000 / perDay;
    for (int i = 0; i < days * perDay; ++i) {
        RecordedAsk a;
        a.atOffsetMs = qint64(i) * step + qint64(next(1000));
        a.inputTokens = 200 + int(next(20000));
        a.outputTokens = 20 + int(next(2000));
        a.model = models.at(int(next(quint32(models.size()))));
        if (next(3) == 0)
            a.session = QStringLiteral("conv-%1").arg(next(40));
        a.index = i;
        out << a;
    }
    return out;
}

/// Answers every chat request with the token counts its prompt names ("n:<in>:<out>:<index>"), so the
/// recorded usage is the stream's, whatever sharer serves it.
inline void answerWithNamedUsage(FakeUpstream &upstream, const std::function<std::optional<Script>(const ReceivedRequest &)> &before = {})
{
    upstream.setChooser([before](const ReceivedRequest &r) -> std::optional<Script> {
        if (before) {
            if (std::optional<Script> s = before(r))
                return s;
        }
        const QString content = r.json().value(QLatin1String("messages")).toArray().first().toObject().value(QLatin1String("content")).toString();
        const QStringList parts = content.split(QLatin1Char(':'));
        if (parts.size() < 3)
            return std::nullopt;
        return FakeUpstream::chatCompletion(QStringLiteral("ok"), parts.at(1).toInt(), parts.at(2).toInt(),
                                            r.json().value(QLatin1String("model")).toString());
    });
}

/// Sends the stream through the engine, moving the clock to each request's moment.
inline bool sendStream(RoutingFixture &f, const QList<RecordedAsk> &stream, qint64 startMs)
{
    for (const RecordedAsk &a : stream) {
        const qint64 at = startMs + a.atOffsetMs;
        if (at > f.clock.nowMs())
            f.clock.advance(at - f.clock.nowMs());
        QList<QPair<QByteArray, QByteArray>> headers;
        if (!a.session.isEmpty())
            headers.append({"x-session-id", a.session.toUtf8()});
        const QJsonObject extra{
            {QStringLiteral("messages"),
             QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                    {QStringLiteral("content"), QStringLiteral("n:%1:%2:%3").arg(a.inputTokens).arg(a.outputTokens).arg(a.index)}}}},
            {QStringLiteral("max_tokens"), 4000}};
        const Reply r = f.post(QStringLiteral("/v1/chat/completions"), RoutingFixture::chatBody(a.model, false, extra), headers);
        if (r.status == 0)
            return false;
    }
    f.lastTrace(); // the writer has it all
    return true;
}

} // namespace Aile::Test
