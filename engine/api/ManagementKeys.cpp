// The key management calls of the management API: list, create (the plain key shown once),
// read, edit the name and routing settings (validated, applied without a restart), revoke.
#include "ManagementKeys.h"

#include "config/EntryChecks.h"
#include "core/Clock.h"
#include "billing/SpendBook.h"
#include "state/KeyBook.h"
#include "state/SharerBook.h"
#include "keys/ApiKey.h"
#include "keys/KeyRouting.h"
#include "keys/Routes.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QUrl>

namespace Aile::Api {

namespace {

constexpr int MaxKeyName = 100;

} // namespace

QString ManagementKeys::checkName(const QJsonValue &value, const QString &selfId, int *status) const
{
    *status = 400;
    if (!value.isString() || value.toString().trimmed().isEmpty())
        return QStringLiteral("a key needs a \"name\": a non-empty string such as \"claude code\"");
    const QString name = value.toString().trimmed();
    if (name.size() > MaxKeyName)
        return QStringLiteral("the key name is %1 characters long; at most %2 are allowed").arg(name.size()).arg(MaxKeyName);
    for (const Keys::ApiKey &k : m_keys.keys) {
        if (k.name == name && k.id != selfId) {
            *status = 409;
            return QStringLiteral("a key named \"%1\" exists already (%2%3); choose another name")
                .arg(name, k.id, k.revoked ? QStringLiteral(", revoked") : QString());
        }
    }
    return {};
}

QJsonObject ManagementKeys::keyJson(const Keys::ApiKey &key) const
{
    // Never the secret, never its hash.
    const QString day = Store::utcDay(m_clock.nowMs());
    const double spent = m_spend.spent(day, key.id);
    // Today's spend per route and per target, in the routes' own order.
    QJsonArray routeSpend;
    for (const QJsonValue &v : key.routes) {
        const Keys::Route route = Keys::Route::from(v.toObject());
        QJsonArray targets;
        for (const Keys::RouteTarget &t : route.targets) {
            QJsonObject o{{QStringLiteral("model"), t.model},
                          {QStringLiteral("spentUsd"), m_spend.spent(day, key.id, route.name, t.calls())},
                          {QStringLiteral("budgetUsdPerDay"), t.budgetUsdPerDay ? QJsonValue(*t.budgetUsdPerDay) : QJsonValue(QJsonValue::Null)}};
            if (!t.sharer.isEmpty())
                o.insert(QStringLiteral("sharer"), t.sharer);
            targets.append(o);
        }
        routeSpend.append(QJsonObject{
            {QStringLiteral("name"), route.name},
            {QStringLiteral("spentUsd"), m_spend.spent(day, key.id, route.name)},
            {QStringLiteral("budgetUsdPerDay"), route.budgetUsdPerDay ? QJsonValue(*route.budgetUsdPerDay) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("targets"), targets}});
    }
    return QJsonObject{{QStringLiteral("id"), key.id},
                       {QStringLiteral("name"), key.name},
                       {QStringLiteral("prefix"), key.prefix},
                       {QStringLiteral("createdMs"), key.createdMs},
                       {QStringLiteral("revoked"), key.revoked},
                       {QStringLiteral("routing"), key.routing},
                       {QStringLiteral("routes"), key.routes},
                       {QStringLiteral("spentTodayUsd"), spent},
                       {QStringLiteral("listValueTodayUsd"), m_spend.listValue(day, key.id)}, // on plans, not spent
                       {QStringLiteral("routeSpend"), routeSpend}};
}

bool ManagementKeys::handle(const ManagementRequest &req, QObject *, const ManagementReply &reply)
{
    const QList<QByteArray> parts = req.path.mid(1).split('/');
    if (parts.value(0) != "keys" || parts.size() > 2)
        return false;
    QJsonObject body;
    if (req.method == "POST" || req.method == "PUT") {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(req.body, &error);
        if (!doc.isObject()) {
            reply(400, managementError(QStringLiteral("the body must be a JSON object such as {\"name\": \"claude code\"} (%1)")
                                           .arg(req.body.isEmpty() ? QStringLiteral("it is empty") : error.errorString())));
            return true;
        }
        body = doc.object();
        for (auto it = body.begin(); it != body.end(); ++it) {
            if (it.key() != QLatin1String("name") && it.key() != QLatin1String("routing") && it.key() != QLatin1String("routes")) {
                reply(
                    400,
                    managementError(
                        QStringLiteral("\"%1\" cannot be set here; a key takes \"name\", \"routing\" and \"routes\" (docs/keys.md)").arg(it.key())));
                return true;
            }
        }
        if (body.contains(QLatin1String("routing")) && !body.value(QLatin1String("routing")).isObject()) {
            reply(400, managementError(QStringLiteral("\"routing\" must be an object of key routing settings (docs/keys.md)")));
            return true;
        }
    }

    if (parts.size() == 1) {
        if (req.method == "GET") {
            QJsonArray keys;
            for (const Keys::ApiKey &k : m_keys.keys)
                keys.append(keyJson(k));
            reply(200, QJsonObject{{QStringLiteral("keys"), keys}});
            return true;
        }
        if (req.method != "POST")
            return false;
        int status = 400;
        const QString nameError = checkName(body.value(QLatin1String("name")), QString(), &status);
        if (!nameError.isEmpty()) {
            reply(status, managementError(nameError));
            return true;
        }
        QJsonObject routing;
        QJsonArray routes;
        QString routingError = Keys::validateRoutes(body.value(QLatin1String("routes")), &m_sharers.catalog, &m_sharers.sharers, &routes);
        if (routingError.isEmpty())
            routingError = Keys::validateRouting(body.value(QLatin1String("routing")).toObject(), routes, m_sharers.catalog, &routing);
        if (!routingError.isEmpty()) {
            reply(400,
                  managementError(Config::keyLabel(body.value(QLatin1String("name")).toString().trimmed()) + QStringLiteral(": ") + routingError));
            return true;
        }
        const QString plain = Keys::generateKey();
        Keys::ApiKey key = Keys::ApiKey::fromPlain(body.value(QLatin1String("name")).toString().trimmed(), plain, m_clock.nowMs());
        key.routing = routing;
        key.routes = routes;
        if (m_store && !m_store->saveKey(key)) {
            reply(500, managementError(QStringLiteral("the key could not be stored; see the engine log")));
            return true;
        }
        m_keys.keys.append(key);
        // The plain key is in this answer only; the store keeps its hash.
        reply(201, QJsonObject{{QStringLiteral("key"), keyJson(key)}, {QStringLiteral("plain"), plain}});
        return true;
    }

    const QString id = QUrl::fromPercentEncoding(parts.at(1));
    if (id == QLatin1String("usage") || id == QLatin1String("route-dry-run") || id == QLatin1String("route-replay")
        || id == QLatin1String("route-template"))
        return false;
    Keys::ApiKey *key = m_keys.key(id);
    if (!key) {
        reply(404, managementError(QStringLiteral("no key %1; GET /keys lists them").arg(id)));
        return true;
    }
    if (req.method == "GET") {
        reply(200, QJsonObject{{QStringLiteral("key"), keyJson(*key)}});
        return true;
    }
    if (req.method == "DELETE") {
        // Revoked, not forgotten: its traces and ledger keep their key, and the proxy answers 401.
        key->revoked = true;
        if (m_store)
            m_store->saveKey(*key);
        reply(200, QJsonObject{{QStringLiteral("key"), keyJson(*key)}});
        return true;
    }
    if (req.method != "PUT")
        return false;
    if (key->revoked) {
        reply(409, managementError(QStringLiteral("key %1 is revoked and cannot be edited; create a new key").arg(key->id)));
        return true;
    }
    Keys::ApiKey edited = *key;
    if (body.contains(QLatin1String("name"))) {
        int status = 400;
        const QString nameError = checkName(body.value(QLatin1String("name")), key->id, &status);
        if (!nameError.isEmpty()) {
            reply(status, managementError(nameError));
            return true;
        }
        edited.name = body.value(QLatin1String("name")).toString().trimmed();
    }
    if (body.contains(QLatin1String("routes"))) {
        // The whole list, replacing the key's; the lists and the routes are checked against each other.
        QJsonArray routes;
        const QString routesError = Keys::validateRoutes(body.value(QLatin1String("routes")), &m_sharers.catalog, &m_sharers.sharers, &routes);
        if (!routesError.isEmpty()) {
            reply(400, managementError(Config::keyLabel(key->name) + QStringLiteral(": ") + routesError));
            return true;
        }
        edited.routes = routes;
    }
    if (body.contains(QLatin1String("routing")) || body.contains(QLatin1String("routes"))) {
        QJsonObject routing;
        const QJsonObject asked = body.contains(QLatin1String("routing")) ? body.value(QLatin1String("routing")).toObject() : edited.routing;
        const QString routingError = Keys::validateRouting(asked, edited.routes, m_sharers.catalog, &routing);
        if (!routingError.isEmpty()) {
            // Named as the configuration file names it: the same message from both.
            reply(400, managementError(Config::keyLabel(key->name) + QStringLiteral(": ") + routingError));
            return true;
        }
        edited.routing = routing;
    }
    if (m_store && !m_store->saveKey(edited)) {
        reply(500, managementError(QStringLiteral("the key could not be stored; see the engine log")));
        return true;
    }
    *key = edited; // the next request reads it: no restart
    reply(200, QJsonObject{{QStringLiteral("key"), keyJson(*key)}});
    return true;
}

} // namespace Aile::Api
