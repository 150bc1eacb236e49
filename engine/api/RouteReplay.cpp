#include "RouteReplay.h"

#include "replay/ReplayHistory.h"
#include "replay/Replayer.h"
#include "store/Store.h"
#include "store/TraceSink.h"

#include <QtCore/QFuture>
#include <QtCore/QJsonDocument>
#include <QtCore/QPointer>
#include <QtCore/QPromise>
#include <QtCore/QThreadPool>

#include <memory>

namespace Aile::Api {
namespace {

using Answer = std::pair<int, QJsonObject>;

// Reads the history through store and plans it: the part that may take seconds.
Answer replayOn(const Store::Store &store, Replay::Replayer replayer)
{
    bool truncated = false;
    const QList<Store::TraceRecord> history =
        Replay::loadHistory(store, replayer.keyId(), replayer.sinceMs(), Replay::MaxReplayedRequests, &truncated);
    Replay::ReplayReport report = replayer.run(history);
    report.truncated = truncated;
    return {200, report.toJson()};
}

std::optional<Replay::ReplayAsk> askFrom(const QByteArray &body, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &parseError);
    if (!doc.isObject()) {
        *error = QStringLiteral("send {\"key\": \"k_…\", \"days\": 7} and optionally \"routing\" (the key's routing settings as edited), "
                                "\"route\" (a route's name, or its body as edited) and \"scope\" (%1)")
                     .arg(body.isEmpty() ? QStringLiteral("the body is empty") : parseError.errorString());
        return std::nullopt;
    }
    const QJsonObject in = doc.object();
    Replay::ReplayAsk ask;
    ask.key = in.value(QLatin1String("key")).toString();
    const QJsonValue days = in.value(QLatin1String("days"));
    if (!days.isUndefined()) {
        if (!days.isDouble() || days.toDouble() != double(qint64(days.toDouble()))) {
            *error = QStringLiteral("\"days\" is a whole number of days from 1 to %1").arg(Replay::MaxReplayDays);
            return std::nullopt;
        }
        ask.days = int(qBound(qint64(-1), qint64(days.toDouble()), qint64(Replay::MaxReplayDays + 1)));
    }
    const QJsonValue routing = in.value(QLatin1String("routing"));
    if (!routing.isUndefined() && !routing.isNull()) {
        if (!routing.isObject()) {
            *error = QStringLiteral("\"routing\" is the key's routing settings as an object, as GET /keys/<id> shows them");
            return std::nullopt;
        }
        ask.routing = routing.toObject();
    }
    const QJsonValue route = in.value(QLatin1String("route"));
    if (route.isObject())
        ask.route = route.toObject();
    else if (route.isString())
        ask.routeName = route.toString();
    else if (!route.isUndefined() && !route.isNull()) {
        *error = QStringLiteral("\"route\" is a saved route's name, or a route's body such as {\"name\": \"fast\", \"targets\": [...]}");
        return std::nullopt;
    }
    ask.scope = in.value(QLatin1String("scope")).toString();
    return ask;
}

} // namespace

bool RouteReplayApi::handle(const ManagementRequest &req, QObject *context, const ManagementReply &reply)
{
    if (req.path != "/keys/route-replay" || req.method != "POST")
        return false;
    replay(req, context, reply);
    return true;
}

void RouteReplayApi::replay(const ManagementRequest &req, QObject *guard, const ManagementReply &reply) const
{
    const Replay::LiveState &live = m_live;
    Store::Store *store = m_store;
    Store::TraceSink *traces = m_traces;
    if (req.body.size() > RouteReplayMaxBody)
        return reply(413,
                     managementError(QStringLiteral("the replay takes at most 256 KiB of JSON: the key, the days, a routing object and one route")));
    QString error;
    const std::optional<Replay::ReplayAsk> ask = askFrom(req.body, &error);
    if (!ask)
        return reply(400, managementError(error));
    int status = 400;
    std::optional<Replay::Replayer> prepared = Replay::Replayer::prepare(live, *ask, &status, &error);
    if (!prepared)
        return reply(status, managementError(error));
    if (!store)
        return reply(503, managementError(QStringLiteral("the engine runs without a store: there is no recorded history to replay")));

    const QString path = store->path();
    auto start = [store, guard, reply, path, replayer = std::move(*prepared)]() mutable {
        if (path == QLatin1String(":memory:") || !guard) {
            // An in-memory store cannot be opened twice: replay on this thread.
            const Answer a = replayOn(*store, std::move(replayer));
            return reply(a.first, a.second);
        }
        auto promise = std::make_shared<QPromise<Answer>>();
        QFuture<Answer> future = promise->future();
        promise->start();
        future.then(guard, [reply](const Answer &a) { reply(a.first, a.second); });
        QThreadPool::globalInstance()->start([promise, path, replayer = std::move(replayer)]() mutable {
            Answer a;
            {
                Store::Store store(path, true);
                QString openError;
                if (store.open(&openError))
                    a = replayOn(store, std::move(replayer));
                else
                    a = {500, managementError(QStringLiteral("the recorded history could not be read: %1").arg(openError))};
            }
            promise->addResult(a);
            promise->finish();
        });
    };
    // Requests that just finished are in the history: read once the writer has committed them.
    if (traces && guard)
        traces->whenWritten(guard, std::move(start));
    else
        start();
}

} // namespace Aile::Api
