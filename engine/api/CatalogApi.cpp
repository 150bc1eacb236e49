#include "CatalogApi.h"

#include "config/EntryChecks.h"
#include "state/SharerBook.h"
#include "store/Store.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QUrl>

namespace Aile::Api {
namespace {

/// A provider added by base URL: "compatible" picks the wire and the auth header of the API
/// family it copies; everything else may still be given as in the catalogue format.
QJsonObject providerFromShorthand(QJsonObject o, QString *error)
{
    const QString compatible = o.take(QLatin1String("compatible")).toString();
    if (compatible == QLatin1String("openai")) {
        if (!o.contains(QLatin1String("wires")))
            o.insert(QStringLiteral("wires"), QJsonArray{QStringLiteral("chat"), QStringLiteral("embeddings")});
        if (!o.contains(QLatin1String("auth")))
            o.insert(QStringLiteral("auth"), QStringLiteral("bearer"));
    } else if (compatible == QLatin1String("anthropic")) {
        if (!o.contains(QLatin1String("wires")))
            o.insert(QStringLiteral("wires"), QJsonArray{QStringLiteral("messages")});
        if (!o.contains(QLatin1String("auth")))
            o.insert(QStringLiteral("auth"), QStringLiteral("x-api-key"));
    } else if (!compatible.isEmpty()) {
        *error = QStringLiteral("\"compatible\" is \"openai\" or \"anthropic\" (the API the provider copies), not \"%1\"").arg(compatible);
        return {};
    }
    const QUrl url(o.value(QLatin1String("baseUrl")).toString());
    if (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) || url.host().isEmpty()) {
        *error = QStringLiteral("\"baseUrl\" must be an http:// or https:// address, e.g. \"http://127.0.0.1:8080\"");
        return {};
    }
    return o;
}

} // namespace

bool CatalogApi::handle(const ManagementRequest &req, QObject *, const ManagementReply &reply)
{
    if (!handles(req.path))
        return false;
    answer(req, reply);
    return true;
}

void CatalogApi::answer(const ManagementRequest &req, const ManagementReply &reply)
{
    // /catalog, /catalog/import, /catalog/providers/{id}, /catalog/models/{provider}/{id…}
    // (a namespaced model id such as "anthropic/claude-sonnet-5" keeps its slash).
    const QList<QByteArray> parts = req.path.mid(1).split('/');
    const QJsonObject body = QJsonDocument::fromJson(req.body).object();
    if (parts.size() == 1 && req.method == "GET")
        return list(req, reply);
    if (parts.size() == 2 && parts.at(1) == "import" && (req.method == "POST" || req.method == "PUT"))
        return import(req.body, reply);
    if (parts.size() == 3 && parts.at(1) == "providers") {
        const QString id = QString::fromUtf8(QByteArray::fromPercentEncoding(parts.at(2)));
        if (req.method == "PUT")
            return putProvider(id, body, reply);
        if (req.method == "DELETE")
            return removeProvider(id, reply);
    }
    if (parts.size() >= 4 && parts.at(1) == "models") {
        const QString provider = QString::fromUtf8(QByteArray::fromPercentEncoding(parts.at(2)));
        const QString id = QString::fromUtf8(QByteArray::fromPercentEncoding(QByteArrayList(parts.mid(3)).join('/')));
        if (req.method == "GET") {
            const Catalog::ModelInfo *m = m_book.catalog.model(provider, id);
            if (!m)
                return reply(404, managementError(QStringLiteral("no model %1/%2 in the catalogue; GET /catalog lists them").arg(provider, id)));
            return reply(200, m->toJson());
        }
        if (req.method == "PUT")
            return putModel(provider, id, body, reply);
        if (req.method == "DELETE")
            return resetModel(provider, id, reply);
    }
    reply(404, managementError(QStringLiteral("no such catalogue endpoint: %1 %2; see docs/management-api.md")
                                   .arg(QString::fromLatin1(req.method), QString::fromLatin1(req.path))));
}

void CatalogApi::list(const ManagementRequest &req, const ManagementReply &reply) const
{
    const QString only = req.queryValue(QStringLiteral("provider"));
    QJsonArray providers, models;
    for (const Catalog::ProviderInfo &p : m_book.catalog.providers())
        if (only.isEmpty() || p.id == only)
            providers.append(p.toJson());
    for (const Catalog::ModelInfo &m : m_book.catalog.models())
        if (only.isEmpty() || m.provider == only)
            models.append(m.toJson());
    reply(200, QJsonObject{{QStringLiteral("providers"), providers}, {QStringLiteral("models"), models}});
}

void CatalogApi::putModel(const QString &provider, const QString &id, const QJsonObject &body, const ManagementReply &reply)
{
    if (!m_book.catalog.provider(provider))
        return reply(404, managementError(QStringLiteral("no provider \"%1\"; add it first with PUT /catalog/providers/%1").arg(provider)));
    // The given fields replace the entry's; the rest stays as shipped (or as last overridden).
    const Catalog::ModelInfo *existing = m_book.catalog.model(provider, id);
    QJsonObject merged = existing ? existing->toJson() : QJsonObject{};
    for (auto it = body.begin(); it != body.end(); ++it)
        merged.insert(it.key(), it.value());
    merged.insert(QStringLiteral("provider"), provider);
    merged.insert(QStringLiteral("id"), existing ? existing->id : id);
    // The configuration file's model check: the same names, types and ranges.
    if (const Config::Problems problems = Config::modelProblems(merged); !problems.isEmpty())
        return reply(400, managementError(problems.first().message));
    QString error;
    auto model = Catalog::ModelInfo::fromJson(merged, &error);
    if (!model)
        return reply(400, managementError(error));
    model->overridden = true;
    if (!m_store.saveModelOverride(*model))
        return reply(500, managementError(QStringLiteral("the store refused the override; see the log")));
    reload();
    reply(200, m_book.catalog.model(provider, model->id)->toJson());
}

void CatalogApi::resetModel(const QString &provider, const QString &id, const ManagementReply &reply)
{
    const Catalog::ModelInfo *m = m_book.catalog.model(provider, id);
    if (!m || !m->overridden)
        return reply(404, managementError(
                              QStringLiteral("%1/%2 has no override to remove; GET /catalog shows which entries are overridden").arg(provider, id)));
    const QString canonical = m->id;
    m_store.removeModelOverride(provider, canonical);
    reload();
    const Catalog::ModelInfo *shipped = m_book.catalog.model(provider, canonical);
    reply(200, QJsonObject{{QStringLiteral("removed"), true},
                           {QStringLiteral("model"), shipped ? QJsonValue(shipped->toJson()) : QJsonValue(QJsonValue::Null)}});
}

void CatalogApi::putProvider(const QString &id, const QJsonObject &body, const ManagementReply &reply)
{
    QString error;
    QJsonObject o = providerFromShorthand(body, &error);
    if (!error.isEmpty())
        return reply(400, managementError(error));
    o.insert(QStringLiteral("id"), id);
    const Catalog::Catalog shipped = Catalog::Catalog::builtIn();
    o.insert(QStringLiteral("builtIn"), shipped.provider(id) != nullptr);
    if (const Config::Problems problems = Config::providerProblems(o); !problems.isEmpty())
        return reply(400, managementError(problems.first().message));
    auto provider = Catalog::ProviderInfo::fromJson(o, &error);
    if (!provider)
        return reply(400, managementError(error));
    if (!m_store.saveProvider(*provider))
        return reply(500, managementError(QStringLiteral("the store refused the provider; see the log")));
    reload();
    reply(200, m_book.catalog.provider(id)->toJson());
}

void CatalogApi::removeProvider(const QString &id, const ManagementReply &reply)
{
    const bool stored = [&] {
        for (const Catalog::ProviderInfo &p : m_store.customProviders())
            if (p.id == id)
                return true;
        return false;
    }();
    if (!stored)
        return reply(404, managementError(QStringLiteral("no provider \"%1\" of yours; the shipped ones cannot be removed").arg(id)));
    const bool shipped = Catalog::Catalog::builtIn().provider(id) != nullptr;
    if (!shipped)
        for (const Catalog::Sharer &s : m_book.sharers)
            if (s.provider == id)
                return reply(409,
                             managementError(QStringLiteral("sharer %1 (%2) uses provider \"%3\"; remove it or move it to another provider first")
                                                 .arg(s.handle, s.name, id)));
    m_store.removeProvider(id);
    reload();
    reply(200, QJsonObject{{QStringLiteral("removed"), true}, {QStringLiteral("restoredShipped"), shipped}});
}

void CatalogApi::import(const QByteArray &json, const ManagementReply &reply)
{
    // A whole table (the shipped format, or an export's "catalog" object): every entry becomes an
    // override. Checked in full before anything is stored.
    QString error;
    Catalog::Catalog table;
    if (!table.merge(json, &error, true))
        return reply(400, managementError(error));
    if (const Config::Problems problems = Config::catalogProblems(QJsonDocument::fromJson(json).object()); !problems.isEmpty())
        return reply(400, managementError(problems.first().message));
    for (const Catalog::ModelInfo &m : table.models())
        if (!m_book.catalog.provider(m.provider) && !table.provider(m.provider))
            return reply(
                400,
                managementError(
                    QStringLiteral("model %1/%2 names an unknown provider; add the provider to the file's \"providers\"").arg(m.provider, m.id)));
    for (const Catalog::ProviderInfo &p : table.providers())
        m_store.saveProvider(p);
    for (const Catalog::ModelInfo &m : table.models())
        m_store.saveModelOverride(m);
    reload();
    reply(200, QJsonObject{{QStringLiteral("imported"), true},
                           {QStringLiteral("providers"), int(table.providers().size())},
                           {QStringLiteral("models"), int(table.models().size())}});
}

void CatalogApi::reload()
{
    if (m_reloadState)
        m_reloadState();
}

} // namespace Aile::Api
