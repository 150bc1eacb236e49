#include "ConfigApi.h"

#include "config/ConfigApply.h"
#include "config/ConfigValidation.h"
#include "config/EntryChecks.h"
#include "core/Clock.h"
#include "secrets/ReferencePolicy.h"
#include "state/KeyBook.h"
#include "state/SharerBook.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>

namespace Aile::Api {

bool ConfigApi::handle(const ManagementRequest &req, QObject *, const ManagementReply &reply)
{
    if (req.path == "/v1/routing")
        accountRouting(req, reply);
    else if (req.path == "/admin/config" && req.method == "GET")
        reply(200, Config::exportConfig(m_sharers, m_keys, m_routing, m_settings, m_adminTokenRef));
    else if (req.path == "/admin/config" && (req.method == "POST" || req.method == "PUT"))
        importConfig(req, reply);
    else
        return false;
    return true;
}

void ConfigApi::accountRouting(const ManagementRequest &req, const ManagementReply &reply)
{
    // The account's fallbacks: a default_model for requests that name none, and up to eight fallback_models
    // appended after the models a request names (the chain is cut to three).
    auto current = [this] {
        return QJsonObject{{QStringLiteral("default_model"), m_routing.value(QLatin1String("default_model")).isString()
                                                                 ? m_routing.value(QLatin1String("default_model"))
                                                                 : QJsonValue(QJsonValue::Null)},
                           {QStringLiteral("fallback_models"), m_routing.value(QLatin1String("fallback_models")).toArray()}};
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
    QJsonObject merged = m_routing;
    for (auto it = body.begin(); it != body.end(); ++it)
        merged.insert(it.key(), it.value());
    m_store->saveSetting(QStringLiteral("routing"), merged);
    m_routing = merged;
    reply(200, current());
}

void ConfigApi::importConfig(const ManagementRequest &req, const ManagementReply &reply)
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
        const Catalog::Sharer *stored = m_sharers.sharer(s.handle);
        QString url = s.baseUrl;
        if (url.isEmpty()) {
            const Catalog::ProviderInfo *p = m_sharers.catalog.provider(s.provider);
            for (const Catalog::ProviderInfo &own : cfg.providers)
                if (own.id == s.provider)
                    p = &own;
            if (p)
                url = p->baseUrl;
        }
        if (const QString plain = Catalog::plainHttpRefusal(s, url); !plain.isEmpty())
            return reply(400, managementError(QStringLiteral("%1; nothing was imported").arg(plain)));
        const bool newReference = !s.credentialRef.isEmpty() && !s.usesClientLogin() && (!stored || stored->credentialRef != s.credentialRef);
        if (const QString bad =
                newReference ? Secrets::apiReferenceRefusal(s.credentialRef, s.handle, url, m_adminTokenRef, m_sharers.credentialHomes) : QString();
            !bad.isEmpty())
            return reply(400, managementError(QStringLiteral("sharer %1: %2; nothing was imported").arg(s.handle, bad)));
    }
    QStringList notes;
    const Config::Problems problems =
        Config::validate(cfg, Config::Baseline{m_sharers.catalog, m_sharers.sharers, m_keys.keys}, Config::UnknownKey::Note, &notes);
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
    if (!Config::applyToStore(cfg, *m_store, m_clock.nowMs(), &adminRef, &error))
        return reply(500, managementError(error));
    if (m_reloadState)
        m_reloadState();
    reply(200, QJsonObject{{QStringLiteral("imported"), true},
                           {QStringLiteral("sharers"), int(cfg.sharers.size())},
                           {QStringLiteral("keys"), int(cfg.keys.size() - notes.size())},
                           {QStringLiteral("notes"), QJsonArray::fromStringList(notes)}});
}

} // namespace Aile::Api
