#include "ManagementApi.h"
#include "TraceActions.h"

#include "CatalogApi.h"
#include "DryRun.h"
#include "RouteReplay.h"
#include "RouteTemplate.h"
#include "UsageApi.h"
#include "ChartsApi.h"

#include "config/ConfigApply.h"
#include "config/ConfigValidation.h"
#include "config/EntryChecks.h"
#include "core/Clock.h"
#include "ManagementKeys.h"
#include "state/KeyBook.h"
#include "state/SharerBook.h"
#include "store/TraceSink.h"
#include "health/HealthBook.h"
#include "dispatch/Verifier.h"
#include "keys/KeyRouting.h"
#include "keys/Routes.h"
#include "routing/RequestPlanner.h"
#include "secrets/ReferencePolicy.h"
#include "secrets/SecretStore.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QPointer>
#include <QtCore/QUrlQuery>

namespace Aile::Api {

bool sameSecret(const QString &a, const QString &b)
{
    const QByteArray x = a.toUtf8(), y = b.toUtf8();
    if (x.size() != y.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < x.size(); ++i)
        diff |= static_cast<unsigned char>(x.at(i) ^ y.at(i));
    return diff == 0;
}

QJsonObject managementError(const QString &message)
{
    return QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), message}}}};
}

QString ManagementRequest::queryValue(const QString &name) const
{
    return QUrlQuery(QString::fromUtf8(query)).queryItemValue(name, QUrl::FullyDecoded);
}

bool ManagementRequest::hasQuery(const QString &name) const
{
    return QUrlQuery(QString::fromUtf8(query)).hasQueryItem(name);
}

QString credentialStoreOf(const QString &credentialRef)
{
    if (credentialRef == Catalog::Sharer::ClientLoginRef())
        return QStringLiteral("client");   // the requesting tool's own login: nothing stored
    const std::optional<Secrets::Reference> ref = Secrets::Reference::parse(credentialRef);
    if (!ref)
        return QStringLiteral("none");
    switch (ref->scheme) {
    case Secrets::Reference::Env: return QStringLiteral("env");
    case Secrets::Reference::File: return QStringLiteral("file");
    case Secrets::Reference::Keychain: break;
    }
    return QStringLiteral("keychain");
}

bool ManagementApi::handles(const QByteArray &path) const
{
    return path.startsWith("/keys/") || path == "/keys" || path == "/sharers" || path.startsWith("/sharers/") || path == "/v1/routing"
           || path.startsWith("/admin/") || CatalogApi::handles(path) || TraceActions::handles(path);
}

void ManagementApi::handle(const ManagementRequest &req, QObject *context, const ManagementReply &reply)
{
    const QList<QByteArray> parts = req.path.mid(1).split('/');
    if (req.path == "/v1/routing")
        return accountRouting(req, reply);
    if (req.path == "/keys/route-dry-run" && req.method == "POST")
        return dryRun({m_s.planner, m_s.keys, m_s.routing, m_s.settings, m_s.clock, m_s.spend}, req, reply);
    if (req.path == "/keys/route-replay" && req.method == "POST")
        return routeReplay({m_s.sharers, m_s.keys, m_s.settings, m_s.routing, m_s.clock}, m_s.store, m_s.traces, req, context, reply);
    if (req.path == "/keys/route-template" && req.method == "GET")
        return routeTemplate(m_s.keys, m_s.sharers, req, reply);
    if (CatalogApi::handles(req.path))
        return CatalogApi(m_s.sharers, *m_s.store, m_s.reloadState).handle(req, reply);
    if (TraceActions::handles(req.path))
        return TraceActions::handle({m_s.clock, m_s.sharers, m_s.store, m_s.traces, m_s.health, m_s.verifier}, req, context, reply);
    if (req.path == "/keys/usage/requests" && req.method == "GET")
        return listTraces(req, context, reply);
    if (req.path == "/keys/usage/spend" && req.method == "GET")
        return usageSpend(m_s.clock, m_s.keys, m_s.store, m_s.traces, req, context, reply);
    if (req.path == "/keys/usage/charts" && req.method == "GET")
        return usageCharts(m_s.clock, m_s.keys, m_s.store, m_s.traces, req, context, reply);
    if (req.path == "/sharers" && req.method == "GET")
        return listSharers(req, reply);
    if (req.path == "/admin/config" && req.method == "GET")
        return reply(200, Config::exportConfig(m_s.sharers, m_s.keys, m_s.routing, m_s.settings, m_s.adminTokenRef));
    if (req.path == "/admin/config" && (req.method == "POST" || req.method == "PUT"))
        return importConfig(req, reply);
    if (ManagementKeys(m_s.keys, m_s.sharers, m_s.store, m_s.spend, m_s.clock).handle(req, reply))
        return;
    const QJsonObject body = QJsonDocument::fromJson(req.body).object();
    if (req.path == "/sharers" && req.method == "POST")
        return saveSharer({}, body, context, reply);
    if (parts.size() >= 2 && parts.at(0) == "sharers") {
        const QString handle = Catalog::normalizeHandle(QString::fromUtf8(parts.at(1)));
        const Catalog::Sharer *s = m_s.sharers.sharer(handle);
        if (!s)
            return reply(404, managementError(QStringLiteral("no sharer %1; GET /sharers lists them").arg(QString::fromUtf8(parts.at(1)))));
        if (parts.size() == 2 && req.method == "GET") {
            QJsonObject o = s->toJson();
            o.insert(QStringLiteral("credentialAvailable"), m_s.sharers.credentials.contains(handle));
            if (s->needsKey())
                o.insert(QStringLiteral("needsKey"), true);
            return reply(200, o);
        }
        if (parts.size() == 2 && req.method == "PUT")
            return saveSharer(handle, body, context, reply);
        if (parts.size() == 2 && req.method == "DELETE")
            return removeSharer(handle, reply);
        if (parts.size() == 3 && req.method == "POST" && parts.at(2) == "relink") {
            // A re-link is a new credential for the same account: it restores a dead key.
            if (m_s.health)
                m_s.health->restore(handle);
            QJsonObject edit = body;
            return saveSharer(handle, edit, context, reply);
        }
        if (parts.size() == 3 && req.method == "POST" && parts.at(2) == "clear-cooldown" && m_s.health) {
            const QString was = m_s.health->clearCooldown(handle);
            return reply(200, QJsonObject{{QStringLiteral("handle"), handle},
                                          {QStringLiteral("cleared"), !was.isEmpty()},
                                          {QStringLiteral("was"), was.isEmpty() ? QJsonValue() : QJsonValue(was)},
                                          {QStringLiteral("message"), was.isEmpty() ? QStringLiteral("%1 was not cooling down").arg(s->name)
                                                                                    : QStringLiteral("%1 is back in selection (it was cooling: %2)").arg(s->name, was)}});
        }
        if (parts.size() == 3 && req.method == "POST" && (parts.at(2) == "test" || parts.at(2) == "probe") && m_s.verifier) {
            QPointer<QObject> guard(context);
            auto done = [guard, reply](const QJsonObject &result) {
                if (guard)
                    reply(200, result);
            };
            if (parts.at(2) == "probe")
                return m_s.verifier->probe(handle, done);
            const QString model = body.value(QLatin1String("model")).toString();
            if (model.isEmpty())
                return reply(400, managementError(QStringLiteral("say which model to test: {\"model\": \"gpt-5.2\"}")));
            return m_s.verifier->testModel(handle, model, done);
        }
    }
    reply(404, managementError(QStringLiteral("no such management endpoint: %1 %2").arg(QString::fromLatin1(req.method), QString::fromLatin1(req.path))));
}

void ManagementApi::listTraces(const ManagementRequest &req, QObject *context, const ManagementReply &reply)
{
    Store::TraceQuery q;
    bool ok = false;
    const int limit = req.queryValue(QStringLiteral("limit")).toInt(&ok);
    q.limit = ok ? qBound(1, limit, 1000) : 100;
    q.offset = qMax(0, req.queryValue(QStringLiteral("offset")).toInt());
    q.sinceMs = req.queryValue(QStringLiteral("since")).toLongLong();
    q.keyId = req.queryValue(QStringLiteral("key"));
    q.model = req.queryValue(QStringLiteral("model"));
    q.sharer = req.queryValue(QStringLiteral("sharer"));
    q.status = req.queryValue(QStringLiteral("status")).toInt();
    q.text = req.queryValue(QStringLiteral("q"));
    // A request that just finished is in the answer: read once the writer has committed it.
    QPointer<QObject> guard(context);
    m_s.traces->whenWritten(context, [this, guard, q, reply] {
        if (!guard)
            return;
        QJsonArray data;
        for (const Store::TraceRecord &t : m_s.store->traces(q))
            data.append(t.toJson());
        reply(200, QJsonObject{{QStringLiteral("object"), QStringLiteral("list")},
                               {QStringLiteral("data"), data},
                               {QStringLiteral("total"), m_s.store->traceCount(q)}});
    });
}

void ManagementApi::listSharers(const ManagementRequest &req, const ManagementReply &reply)
{
    // The listing is the routing order: the same Router a request uses, with the same filters.
    QString model = req.queryValue(QStringLiteral("model"));
    QString provider = req.queryValue(QStringLiteral("provider"));
    const qsizetype slash = model.indexOf(QLatin1Char('/'));
    if (slash > 0 && m_s.sharers.catalog.provider(model.left(slash))) {
        provider = model.left(slash);
        model = model.mid(slash + 1);
    }
    Http::HttpHeaders headers;
    QJsonObject filters;
    for (const auto &[param, header] : {std::pair{"max-price", "x-aile-max-price"}, std::pair{"min-price", "x-aile-min-price"},
                                        std::pair{"verified", "x-aile-verified"}}) {
        const QString v = req.queryValue(QLatin1String(param));
        if (!v.isEmpty()) {
            headers.add(header, v.toUtf8());
            filters.insert(QLatin1String(param), v);
        }
    }
    if (!provider.isEmpty())
        filters.insert(QStringLiteral("provider"), provider);
    if (!model.isEmpty())
        filters.insert(QStringLiteral("model"), model);
    const QString sort = req.queryValue(QStringLiteral("sort"));

    QJsonArray rows;
    QString footer;
    // What the GUI shows beside each sharer: its quota windows and its published health.
    const qint64 now = m_s.clock.nowMs();
    auto addSignals = [&](QJsonObject &o, const QString &handle) {
        o.insert(QStringLiteral("quota"), m_s.quota.toJson(handle, now));
        if (m_s.health)
            o.insert(QStringLiteral("stats"), m_s.health->window().stats(handle, now).toJson());
    };
    if (model.isEmpty()) {
        for (const Catalog::Sharer &s : m_s.sharers.sharers) {
            if (!provider.isEmpty() && s.provider != provider)
                continue;
            QJsonObject o = s.toJson();
            o.remove(QStringLiteral("credential"));
            o.insert(QStringLiteral("available"), (m_s.sharers.credentials.contains(s.handle) || s.usesClientLogin()) && !s.blocked
                                                      && !(m_s.health && m_s.health->coolingUntil(s.handle, QString()) > 0));
            addSignals(o, s.handle);
            rows.append(o);
        }
        footer = QStringLiteral("no model given: sharers by handle. Name a model to see the order requests route in.");
    } else {
        if (provider.isEmpty())
            return reply(400, managementError(QStringLiteral("name the model as <provider>/<model>, or give provider=")));
        const Catalog::ProviderInfo *p = m_s.sharers.catalog.provider(provider);
        if (!p)
            return reply(400, managementError(QStringLiteral("unknown provider %1").arg(provider)));
        // The planner's first target for a one-line request naming the model: the request order by construction.
        const Wire::Endpoint endpoint = p->speaks(QStringLiteral("chat")) ? Wire::Endpoint::ChatCompletions
                                        : p->speaks(QStringLiteral("messages")) ? Wire::Endpoint::Messages
                                                                                : Wire::Endpoint::Responses;
        const QJsonObject body = Routing::RequestPlanner::oneLinePrompt(provider + QLatin1Char('/') + model);
        Routing::RequestPlan planned = m_s.planner.plan(
            {Routing::PlanAsk::Purpose::Listing, endpoint, &body, QJsonDocument(body).toJson(QJsonDocument::Compact), &headers, nullptr});
        const Routing::Plan &plan = planned.plan;
        if (!plan.ok() && plan.targets.isEmpty())
            return reply(plan.status, managementError(plan.message));
        int rank = 0;
        for (const Routing::Target &t : plan.targets.mid(0, 1)) {
            for (const Routing::Candidate &c : t.candidates) {
                QJsonObject o{{QStringLiteral("rank"), ++rank},
                              {QStringLiteral("handle"), c.handle},
                              {QStringLiteral("name"), c.name},
                              {QStringLiteral("provider"), c.provider},
                              {QStringLiteral("model"), c.upstreamModel},
                              {QStringLiteral("available"), true},
                              {QStringLiteral("tested"), c.tested},
                              {QStringLiteral("deadKey"), c.deadKey},
                              {QStringLiteral("tiedWithPrevious"), c.tiedWithPrevious},
                              {QStringLiteral("health"), c.health},
                              {QStringLiteral("priority"), c.priority},
                              {QStringLiteral("weight"), c.weight},
                              {QStringLiteral("degraded"), c.degraded},
                              {QStringLiteral("ttfbMs"), c.ttfbMs}};
                addSignals(o, c.handle);
                if (c.rates) {
                    o.insert(QStringLiteral("inputPrice"), c.rates->input);
                    o.insert(QStringLiteral("outputPrice"), c.rates->output);
                }
                if (c.quoteUsd)
                    o.insert(QStringLiteral("quoteUsd"), *c.quoteUsd);
                rows.append(o);
            }
            // Listings read the same gate: cooling, blocked or filtered sharers are shown as unavailable.
            for (const Routing::Refusal &r : t.refusals) {
                QJsonObject o{{QStringLiteral("handle"), r.handle},
                              {QStringLiteral("name"), r.name},
                              {QStringLiteral("provider"), t.provider},
                              {QStringLiteral("model"), t.model},
                              {QStringLiteral("available"), false},
                              {QStringLiteral("reason"), r.reason},
                              {QStringLiteral("skip"), r.code}};
                addSignals(o, r.handle);
                rows.append(o);
            }
        }
        footer = QStringLiteral("routing order: the top row is where the next request for %1/%2 goes%3")
                     .arg(provider, model, plan.sampled ? QStringLiteral(" (rows marked tied are drawn again for each request)") : QString());
    }
    // Where each row's credential lives (keychain, the opted-in file, the environment, none), so a
    // listing shows which secrets sit in the plain-text file.
    for (qsizetype i = 0; i < rows.size(); ++i) {
        QJsonObject o = rows.at(i).toObject();
        const Catalog::Sharer *s = m_s.sharers.sharer(o.value(QLatin1String("handle")).toString());
        o.insert(QStringLiteral("credentialStore"), credentialStoreOf(s ? s->credentialRef : QString()));
        if (s && s->needsKey())
            o.insert(QStringLiteral("needsKey"), true);
        rows.replace(i, o);
    }
    if (!sort.isEmpty()) {
        QList<QJsonObject> list;
        for (const QJsonValue &v : rows)
            list.append(v.toObject());
        const QString key = sort == QLatin1String("name") ? QStringLiteral("name")
                            : sort == QLatin1String("speed") ? QStringLiteral("ttfbMs")
                                                             : QStringLiteral("quoteUsd");
        std::stable_sort(list.begin(), list.end(), [&](const QJsonObject &a, const QJsonObject &b) {
            const QJsonValue x = a.value(key), y = b.value(key);
            if (x.isString())
                return x.toString() < y.toString();
            const double dx = x.isDouble() && x.toDouble() >= 0 ? x.toDouble() : 1e300;
            const double dy = y.isDouble() && y.toDouble() >= 0 ? y.toDouble() : 1e300;
            return dx < dy;
        });
        rows = QJsonArray();
        for (const QJsonObject &o : list)
            rows.append(o);
        footer = QStringLiteral("sorted by %1: a reading order, not the routing order").arg(sort);
    }
    reply(200, QJsonObject{{QStringLiteral("object"), QStringLiteral("list")},
                           {QStringLiteral("order"), sort.isEmpty() ? QStringLiteral("routing") : QStringLiteral("reading")},
                           {QStringLiteral("filters"), filters},
                           {QStringLiteral("data"), rows},
                           {QStringLiteral("footer"), footer}});
}

void ManagementApi::saveSharer(const QString &handle, const QJsonObject &body, QObject *context, const ManagementReply &reply)
{
    const Catalog::Sharer *stored = handle.isEmpty() ? nullptr : m_s.sharers.sharer(handle);
    QJsonObject merged = stored ? stored->toJson() : QJsonObject();
    for (auto it = body.begin(); it != body.end(); ++it)
        if (it.key() != QLatin1String("secret"))
            merged.insert(it.key(), it.value());
    // The configuration file's sharer check: unknown fields, wrong types and ranges refused alike.
    if (const Config::Problems problems = Config::sharerProblems(merged); !problems.isEmpty())
        return reply(400, managementError(problems.first().message));
    auto parsed = Catalog::Sharer::fromJson(merged, nullptr);
    if (!parsed)
        return reply(400, managementError(QStringLiteral("the sharer could not be read")));
    if (!m_s.sharers.catalog.provider(parsed->provider))
        return reply(400, managementError(QStringLiteral("unknown provider %1; add it under providers first").arg(parsed->provider)));
    if (handle.isEmpty() && m_s.sharers.sharer(parsed->handle))
        return reply(409, managementError(QStringLiteral("sharer %1 exists already; PUT /sharers/%1 edits it").arg(parsed->handle)));
    Catalog::Sharer sharer = *parsed;
    const QString secret = body.value(QLatin1String("secret")).toString();
    if (!secret.isEmpty()) {
        const bool toFile = body.value(QLatin1String("credential")).toString().startsWith(QLatin1String("file:"));
        sharer.credentialRef = (toFile ? QStringLiteral("file:") : QStringLiteral("keychain:")) + QStringLiteral("aile-sharer-") + sharer.handle;
    }
    // Checked before any secret is written: plain http:// to another machine keeps no credential,
    // and a reference named here may not be one of the engine's own or belong to another host.
    const QString url = m_s.sharers.baseUrlOf(sharer);
    if (const QString refusal = Catalog::plainHttpRefusal(sharer, url); !refusal.isEmpty())
        return reply(400, managementError(refusal));
    const bool namesNewReference = secret.isEmpty() && !sharer.credentialRef.isEmpty() && !sharer.usesClientLogin() && (!stored || stored->credentialRef != sharer.credentialRef);
    if (namesNewReference) {
        if (const QString refusal = Secrets::apiReferenceRefusal(sharer.credentialRef, sharer.handle, url, m_s.adminTokenRef, m_s.sharers.credentialHomes);
            !refusal.isEmpty())
            return reply(400, managementError(refusal));
    }
    QPointer<QObject> guard(context);
    auto commit = [this, guard, reply](const Catalog::Sharer &s, const QString &value, bool newCredential, bool wasRead = false) {
        // The store applies the credential binding (Catalog::bindCredential): moving a sharer
        // without a new credential leaves it needing its key again.
        Catalog::Sharer saved = s;
        if (m_s.store) {
            QString saveError;
            if (!m_s.store->saveSharer(s, &saveError, &saved, newCredential))
                return reply(400, managementError(saveError));
        } else {
            Catalog::bindCredential(saved, m_s.sharers.sharer(s.handle), newCredential);
        }
        if (Catalog::Sharer *existing = m_s.sharers.sharer(saved.handle))
            *existing = saved;
        else
            m_s.sharers.sharers.append(saved);
        if (!value.isEmpty() && !saved.needsKey()) {
            m_s.sharers.credentials.insert(saved.handle, value);
            m_s.sharers.credentialErrors.remove(saved.handle);
        } else if (wasRead) {
            m_s.sharers.credentials.remove(saved.handle);   // the old reference's secret is not this one's
        }
        m_s.sharers.noteCredentialBinding(saved, newCredential);
        auto answer = [this, reply, saved] {
            QJsonObject o = saved.toJson();
            o.insert(QStringLiteral("credentialAvailable"), m_s.sharers.credentials.contains(saved.handle));
            if (saved.needsKey())
                o.insert(QStringLiteral("needsKey"), true);
            reply(200, o);
        };
        // Back where its credential belongs after a move: its secret is read again.
        if (!wasRead && value.isEmpty() && !saved.credentialRef.isEmpty() && !saved.needsKey() && !saved.usesClientLogin() && !m_s.sharers.credentials.contains(saved.handle) && m_s.secrets) {
            m_s.secrets->read(saved.credentialRef, [this, guard, answer, handle = saved.handle](const QString &secret, const QString &readError) {
                if (!secret.isEmpty()) {
                    m_s.sharers.credentials.insert(handle, secret);
                    m_s.sharers.credentialErrors.remove(handle);
                } else {
                    m_s.sharers.credentialErrors.insert(handle, readError);
                }
                if (guard)
                    answer();
            });
            return;
        }
        answer();
    };
    if (!secret.isEmpty()) {
        // The secret goes to the keychain only; the store keeps the reference.
        if (!m_s.secrets)
            return reply(503, managementError(QStringLiteral("no secret store is available")));
        m_s.secrets->write(sharer.credentialRef, secret, [guard, reply, commit, sharer, secret](const QString &writeError) {
            if (!guard)
                return;
            if (!writeError.isEmpty())
                return reply(503, managementError(QStringLiteral("the credential was not stored: %1").arg(writeError)));
            commit(sharer, secret, true);
        });
        return;
    }
    if (namesNewReference) {
        m_s.secrets->read(sharer.credentialRef, [this, guard, reply, commit, sharer](const QString &value, const QString &readError) {
            if (!guard)
                return;
            if (value.isEmpty())
                m_s.sharers.credentialErrors.insert(sharer.handle, readError);
            commit(sharer, value, false, true);
        });
        return;
    }
    commit(sharer, QString(), false);
}

void ManagementApi::accountRouting(const ManagementRequest &req, const ManagementReply &reply)
{
    // The account's fallbacks: a default_model for requests that name none, and up to eight fallback_models
    // appended after the models a request names (the chain is cut to three).
    auto current = [this] {
        return QJsonObject{{QStringLiteral("default_model"), m_s.routing.value(QLatin1String("default_model")).isString()
                                                                  ? m_s.routing.value(QLatin1String("default_model"))
                                                                  : QJsonValue(QJsonValue::Null)},
                           {QStringLiteral("fallback_models"), m_s.routing.value(QLatin1String("fallback_models")).toArray()}};
    };
    if (req.method == "GET")
        return reply(200, current());
    if (req.method != "PUT")
        return reply(405, managementError(QStringLiteral("/v1/routing takes GET or PUT")));
    const QJsonDocument doc = QJsonDocument::fromJson(req.body);
    if (!doc.isObject())
        return reply(400, managementError(QStringLiteral("the body must be a JSON object such as {\"default_model\": \"openai/gpt-5.2\"}")));
    // The configuration file's "routing" check: the given fields replace the stored ones.
    const QJsonObject body = doc.object();
    if (const Config::Problems problems = Config::routingProblems(body); !problems.isEmpty())
        return reply(400, managementError(problems.first().message));
    QJsonObject merged = m_s.routing;
    for (auto it = body.begin(); it != body.end(); ++it)
        merged.insert(it.key(), it.value());
    m_s.store->saveSetting(QStringLiteral("routing"), merged);
    m_s.routing = merged;
    reply(200, current());
}

void ManagementApi::importConfig(const ManagementRequest &req, const ManagementReply &reply)
{
    // The configuration file's format (an export of another machine, say), checked as the file is
    // at start: whole, against the catalogue and sharers as they will be once imported, before
    // anything is written; then written in one transaction. Secrets are never in it: sharers name
    // their credential, keys without their plain text only update routing.
    Config::ConfigFile cfg = Config::ConfigFile::read(req.body);
    // Held to the API's rules for credentials (an import is an API call, not the user's own
    // file): a new reference may not be the engine's own or belong to another host, and a
    // credential never goes to a plain-http host that is not this machine.
    for (const Catalog::Sharer &s : cfg.sharers) {
        const Catalog::Sharer *stored = m_s.sharers.sharer(s.handle);
        QString url = s.baseUrl;
        if (url.isEmpty()) {
            const Catalog::ProviderInfo *p = m_s.sharers.catalog.provider(s.provider);
            for (const Catalog::ProviderInfo &own : cfg.providers)
                if (own.id == s.provider)
                    p = &own;
            if (p)
                url = p->baseUrl;
        }
        if (const QString plain = Catalog::plainHttpRefusal(s, url); !plain.isEmpty())
            return reply(400, managementError(QStringLiteral("%1; nothing was imported").arg(plain)));
        const bool newReference = !s.credentialRef.isEmpty() && !s.usesClientLogin() && (!stored || stored->credentialRef != s.credentialRef);
        if (const QString bad = newReference ? Secrets::apiReferenceRefusal(s.credentialRef, s.handle, url, m_s.adminTokenRef, m_s.sharers.credentialHomes)
                                             : QString();
            !bad.isEmpty())
            return reply(400, managementError(QStringLiteral("sharer %1: %2; nothing was imported").arg(s.handle, bad)));
    }
    QStringList notes;
    const Config::Problems problems
        = Config::validate(cfg, Config::Baseline{m_s.sharers.catalog, m_s.sharers.sharers, m_s.keys.keys}, Config::UnknownKey::Note, &notes);
    if (!problems.isEmpty()) {
        QJsonArray list;
        for (const Config::Problem &p : problems) {
            const Config::JsoncText::Position at = cfg.text->positionOf(p);
            list.append(QJsonObject{{QStringLiteral("message"), p.message},
                                    {QStringLiteral("pointer"), p.pointer},
                                    {QStringLiteral("line"), at.line},
                                    {QStringLiteral("column"), at.column}});
        }
        QJsonObject body = managementError(cfg.refusal(problems, {}, QStringLiteral("imported")));
        QJsonObject error = body.value(QLatin1String("error")).toObject();
        error.insert(QStringLiteral("problems"), list);
        body.insert(QStringLiteral("error"), error);
        return reply(400, body);
    }
    QString error;
    QString adminRef;
    if (!Config::applyToStore(cfg, *m_s.store, m_s.clock.nowMs(), &adminRef, &error))
        return reply(500, managementError(error));
    if (m_s.reloadState)
        m_s.reloadState();
    reply(200, QJsonObject{{QStringLiteral("imported"), true},
                           {QStringLiteral("sharers"), int(cfg.sharers.size())},
                           {QStringLiteral("keys"), int(cfg.keys.size() - notes.size())},
                           {QStringLiteral("notes"), QJsonArray::fromStringList(notes)}});
}

void ManagementApi::removeSharer(const QString &handle, const ManagementReply &reply)
{
    // A credential the app stored for this sharer goes with it; one the user named (env:, their own
    // keychain entry) is theirs and stays.
    const QString ref = m_s.sharers.sharer(handle)->credentialRef;
    if (m_s.secrets && (ref == QStringLiteral("keychain:aile-sharer-") + handle || ref == QStringLiteral("file:aile-sharer-") + handle))
        m_s.secrets->remove(ref, [](const auto &) {});
    m_s.sharers.sharers.removeIf([&](const Catalog::Sharer &s) { return s.handle == handle; });
    m_s.sharers.credentials.remove(handle);
    if (m_s.store)
        m_s.store->removeSharer(handle);
    reply(200, QJsonObject{{QStringLiteral("removed"), handle}});
}

} // namespace Aile::Api
