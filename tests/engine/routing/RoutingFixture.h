#pragma once

#include "testsupport/FakeUpstream.h"
#include "health/HealthBook.h"
#include "store/Store.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtTest/QtTest>

namespace Aile::Test {

/// The real engine and a fake upstream on one ManualClock, for the routing and failover suites.
struct RoutingFixture
{
    ManualClock clock;
    std::unique_ptr<FakeUpstream> upstream;
    std::unique_ptr<TestEngine> engine;
    AsyncClient client;

    bool start(const QJsonArray &sharers, const QJsonObject &keyRouting = {}, const QJsonObject &settings = {})
    {
        upstream = std::make_unique<FakeUpstream>(&clock);
        if (!upstream->listen())
            return false;
        QJsonArray withBase;
        for (const QJsonValue &v : sharers) {
            QJsonObject o = v.toObject();
            if (!o.contains(QLatin1String("baseUrl")))
                o.insert(QStringLiteral("baseUrl"), upstream->baseUrl());
            withBase.append(o);
        }
        // Probes would add GET /v1/models calls to what the upstream receives: not in these tests.
        QJsonObject s = settings;
        if (!s.contains(QLatin1String("probeIntervalMs")))
            s.insert(QStringLiteral("probeIntervalMs"), 1e12);
        engine = std::make_unique<TestEngine>(configWith(withBase, keyRouting, s), &clock);
        return engine->start();
    }

    /// The handles the upstream was dialled with, in order.
    QStringList dialled() const
    {
        QStringList out;
        for (const ReceivedRequest &r : upstream->received())
            out << QString::fromLatin1(FakeUpstream::credentialOf(r));
        return out;
    }

    static QByteArray chatBody(const QString &model, bool stream = false, const QJsonObject &extra = {})
    {
        QJsonObject o{{QStringLiteral("model"), model},
                      {QStringLiteral("max_tokens"), 100},
                      {QStringLiteral("messages"),
                       QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), QStringLiteral("hi")}}}}};
        if (stream)
            o.insert(QStringLiteral("stream"), true);
        for (auto it = extra.begin(); it != extra.end(); ++it)
            o.insert(it.key(), it.value());
        return QJsonDocument(o).toJson(QJsonDocument::Compact);
    }

    QList<QPair<QByteArray, QByteArray>> auth(const QList<QPair<QByteArray, QByteArray>> &more = {}) const
    {
        QList<QPair<QByteArray, QByteArray>> h{{"authorization", QByteArray("Bearer ") + TestKey}};
        h += more;
        return h;
    }

    Reply post(const QString &path, const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers = {})
    {
        return AsyncClient::wait(client.post(engine->baseUrl() + path, body, auth(headers)));
    }

    /// A management API call with the admin token.
    Reply admin(const QString &method, const QString &path, const QJsonObject &body = {})
    {
        return send(method, engine->baseUrl() + path, body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(),
                    {{"authorization", QByteArray("Bearer ") + AdminToken}});
    }

    Reply chat(const QString &model, const QList<QPair<QByteArray, QByteArray>> &headers = {})
    {
        return post(QStringLiteral("/v1/chat/completions"), chatBody(model), headers);
    }

    QJsonObject lastTrace()
    {
        const Reply r = send(QStringLiteral("GET"), engine->baseUrl() + QStringLiteral("/keys/usage/requests?limit=1"), {},
                             {{"authorization", QByteArray("Bearer ") + AdminToken}});
        return r.json().value(QLatin1String("data")).toArray().first().toObject();
    }

    QJsonArray lastAttempts() { return lastTrace().value(QLatin1String("attemptRows")).toArray(); }

    double spentToday()
    {
        const QJsonObject t = lastTrace(); // waits for the writer
        Q_UNUSED(t);
        double total = 0;
        for (const Store::LedgerEntry &e : engine->context().store->ledger(Store::utcDay(clock.nowMs())))
            total += e.costUsd;
        return total;
    }
};

inline QString errorMessage(const Reply &r)
{
    return r.json().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
}

} // namespace Aile::Test
