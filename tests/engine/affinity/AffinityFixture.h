#pragma once

// Helpers of the session-affinity suites: recorded conversations of the real clients (data/*.json:
// each turn's body as the client sent it and the answer the provider gave), played through the real
// engine and the fake upstream on a ManualClock.
#include "engine/routing/RoutingFixture.h"

#include "catalog/Sharer.h"
#include "host/EngineContext.h"
#include "routing/Affinity.h"

#include <QtCore/QFile>

namespace Aile::Test {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

/// One recorded conversation: the client's headers, each turn's body and the provider's answer.
struct Recorded
{
    QJsonObject raw;
    QString path;
    HeaderList headers;

    QJsonArray turns() const { return raw.value(QLatin1String("turns")).toArray(); }
    QJsonObject body(int turn) const { return turns().at(turn).toObject().value(QLatin1String("body")).toObject(); }
    QJsonValue answer(int turn) const { return turns().at(turn).toObject().value(QLatin1String("answer")); }

    static HeaderList headersOf(const QJsonObject &o)
    {
        HeaderList h;
        for (auto it = o.begin(); it != o.end(); ++it)
            h.append({it.key().toLatin1(), it.value().toString().toUtf8()});
        return h;
    }

    static Recorded load(const QString &file)
    {
        Recorded r;
        QFile f(QStringLiteral(AILE_TEST_SOURCE_DIR "/data/") + file);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("cannot read test data %s", qPrintable(file));
        r.raw = QJsonDocument::fromJson(f.readAll()).object();
        r.path = r.raw.value(QLatin1String("path")).toString();
        r.headers = headersOf(r.raw.value(QLatin1String("headers")).toObject());
        return r;
    }
};

inline QByteArray compact(const QJsonObject &o)
{
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

/// The fake upstream's answer for a recorded one: SSE events ({event, data} list), a JSON body,
/// or a chat stream of one text.
inline Script scriptFor(const QJsonValue &answer)
{
    if (answer.isString())
        return FakeUpstream::chatStream(QStringList{answer.toString()});
    Script s;
    if (answer.isObject()) {
        s.body = compact(answer.toObject());
        s.headers.add("content-type", "application/json");
        return s;
    }
    for (const QJsonValue &v : answer.toArray()) {
        const QJsonObject e = v.toObject();
        QByteArray bytes;
        if (e.contains(QLatin1String("event")))
            bytes += "event: " + e.value(QLatin1String("event")).toString().toUtf8() + "\n";
        bytes += "data: " + compact(e.value(QLatin1String("data")).toObject()) + "\n\n";
        s.events.append({bytes, 0});
    }
    s.headers.add("content-type", "text/event-stream");
    return s;
}

/// The affinity verdict and the sharer of a reply.
struct Turn
{
    Reply reply;
    QByteArray verdict() const { return reply.header("x-aile-session-affinity"); }
    QByteArray sharer() const { return reply.header("x-aile-sharer"); }
};

struct AffinityFixture : RoutingFixture
{
    /// Posts a body with a recorded conversation's path and headers (and the test key) without
    /// waiting for the answer: a turn that runs while the test moves the clock.
    QNetworkReply *postAsync(const Recorded &r, const QJsonObject &body)
    {
        HeaderList h = r.headers;
        h.prepend({"authorization", QByteArray("Bearer ") + TestKey});
        return client.post(engine->baseUrl() + r.path, compact(body), h);
    }

    /// Plays turn i of a recorded conversation: queues its answer, sends its body and headers.
    Turn play(const Recorded &r, int turn, const HeaderList &extra = {}, const HeaderList &without = {})
    {
        upstream->enqueue(scriptFor(r.answer(turn)));
        return send(r.path, r.body(turn), r.headers, extra, without);
    }

    Turn send(const QString &path, const QJsonObject &body, const HeaderList &headers, const HeaderList &extra = {}, const HeaderList &without = {})
    {
        HeaderList h;
        for (const auto &pair : headers) {
            bool drop = false;
            for (const auto &w : without)
                drop = drop || w.first == pair.first;
            if (!drop)
                h.append(pair);
        }
        h += extra;
        return Turn{post(path, compact(body), h)};
    }

    /// Sets a sharer's price to a percentage of the model's list, as if it had been edited.
    void setPercent(const QString &handle, double percent)
    {
        Catalog::Sharer *s = engine->context().sharer(handle);
        QVERIFY(s);
        s->price.mode = Catalog::PriceSheet::Mode::PercentOfList;
        s->price.percent = percent;
    }

    Routing::PinBook &pins() { return *engine->context().pins; }
};

inline QJsonObject percentPrice(int p, const QJsonObject &more = {})
{
    QJsonObject o = more;
    o.insert(QStringLiteral("price"), QJsonObject{{QStringLiteral("percentOfList"), p}});
    return o;
}

/// The other of two handles.
inline QByteArray otherOf(const QByteArray &handle, const QByteArray &a, const QByteArray &b)
{
    return handle == a ? b : a;
}

} // namespace Aile::Test
