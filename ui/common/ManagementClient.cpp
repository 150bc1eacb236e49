#include "ManagementClient.h"

#include "InProcessTransport.h"

#include "store/Store.h"

#include <QtCore/QElapsedTimer>
#include <QtCore/QJsonArray>
#include <QtCore/QPointer>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtCore/QUrl>
#include <QtCore/QUrlQuery>

namespace Aile::Ui {

namespace {

QString segment(const QString &part)
{
    return QString::fromLatin1(QUrl::toPercentEncoding(part));
}

QJsonObject keyOf(const QJsonObject &body)
{
    return body.value(QLatin1String("key")).toObject();
}

} // namespace

QString SharerQuery::path() const
{
    QUrlQuery query;
    if (!model.isEmpty())
        query.addQueryItem(QStringLiteral("model"), model);
    if (!maxPrice.isEmpty())
        query.addQueryItem(QStringLiteral("max-price"), maxPrice);
    if (!minPrice.isEmpty())
        query.addQueryItem(QStringLiteral("min-price"), minPrice);
    if (!provider.isEmpty())
        query.addQueryItem(QStringLiteral("provider"), provider);
    if (verified)
        query.addQueryItem(QStringLiteral("verified"), QStringLiteral("1"));
    if (!sort.isEmpty())
        query.addQueryItem(QStringLiteral("sort"), sort);
    const QString q = query.toString(QUrl::FullyEncoded);
    return q.isEmpty() ? QStringLiteral("/sharers") : QStringLiteral("/sharers?") + q;
}

ManagementClient::ManagementClient(EngineHost *host, QObject *parent) : ManagementClient(std::make_unique<InProcessTransport>(host), parent) { }

ManagementClient::ManagementClient(std::unique_ptr<IManagementTransport> transport, QObject *parent) : QObject(parent)
{
    adopt(transport.release());
}

void ManagementClient::adopt(IManagementTransport *transport)
{
    m_transport = transport;
    m_transport->setParent(this);
    connect(m_transport, &IManagementTransport::tracesRecorded, this, &ManagementClient::tracesRecorded);
    connect(m_transport, &IManagementTransport::tracesMissed, this, &ManagementClient::tracesMissed);
    connect(m_transport, &IManagementTransport::statusChanged, this, &ManagementClient::statusChanged);
    if (m_watching)
        m_transport->watchTraces();
}

void ManagementClient::setTransport(std::unique_ptr<IManagementTransport> transport)
{
    // The old one's answers, stream and signals go with it.
    delete m_transport;
    adopt(transport.release());
    Q_EMIT transportChanged();
    requestStatus();
}

void ManagementClient::watchTraces()
{
    m_watching = true;
    m_transport->watchTraces();
}

void ManagementClient::status(QObject *context, Handler<Api::EngineStatus> done)
{
    request(QStringLiteral("GET"), QStringLiteral("/admin/status"), {}, context, std::move(done), &Api::EngineStatus::fromJson);
}

void ManagementClient::requestStatus()
{
    // Coalesced: a burst of changes asks once.
    if (m_statusQueued)
        return;
    m_statusQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_statusQueued = false;
        status(this, [this](const Reply<Api::EngineStatus> &reply) {
            if (reply.ok())
                Q_EMIT statusChanged(reply.value);
        });
    });
}

void ManagementClient::shutdown(QObject *context, Handler<QJsonObject> done)
{
    request(QStringLiteral("POST"), QStringLiteral("/admin/shutdown"), {}, context, std::move(done), [](const QJsonObject &o) { return o; });
}

int ManagementClient::pending() const
{
    return m_transport->pending();
}

void ManagementClient::send(const QString &method, const QString &path, const QJsonObject &body, QObject *context, Raw done)
{
    const QByteArray bytes = body.isEmpty() ? QByteArray() : QJsonDocument(body).toJson(QJsonDocument::Compact);
    // A change made through an engine that does not push its status: ask for it, as the
    // embedded engine would have sent it.
    const bool change = method != QLatin1String("GET") && !m_transport->pushesStatus() && path != QLatin1String("/admin/shutdown");
    QPointer<ManagementClient> self(this);
    m_transport->send(method, path, bytes, context, [self, change, done = std::move(done)](int status, const QByteArray &answer) {
        done(status, QJsonDocument::fromJson(answer));
        if (change && self && status >= 200 && status < 300)
            self->requestStatus();
    });
}

template <typename T, typename Read>
void ManagementClient::request(const QString &method, const QString &path, const QJsonObject &body, QObject *context, Handler<T> done, Read read)
{
    send(method, path, body, context, [done = std::move(done), read = std::move(read)](int status, const QJsonDocument &answer) {
        Reply<T> reply;
        reply.status = status;
        if (reply.ok())
            reply.value = read(answer.object());
        else
            reply.error = errorMessage(status, answer);
        done(reply);
    });
}

void ManagementClient::sharers(const SharerQuery &query, QObject *context, Handler<Api::SharerListing> done)
{
    request(QStringLiteral("GET"), query.path(), {}, context, std::move(done), &Api::SharerListing::fromJson);
}

void ManagementClient::saveSharer(const QString &handle, const QJsonObject &sharer, QObject *context, Handler<QJsonObject> done)
{
    const auto same = [](const QJsonObject &o) { return o; };
    if (handle.isEmpty())
        request(QStringLiteral("POST"), QStringLiteral("/sharers"), sharer, context, std::move(done), same);
    else
        request(QStringLiteral("PUT"), QStringLiteral("/sharers/") + segment(handle), sharer, context, std::move(done), same);
}

void ManagementClient::removeSharer(const QString &handle, QObject *context, Handler<QJsonObject> done)
{
    request(QStringLiteral("DELETE"), QStringLiteral("/sharers/") + segment(handle), {}, context, std::move(done),
            [](const QJsonObject &o) { return o; });
}

void ManagementClient::traceAction(const QString &traceId, const QString &action, const QString &sharer, const QString &model, QObject *context,
                                   Handler<QJsonObject> done)
{
    QJsonObject body{{QStringLiteral("action"), action}, {QStringLiteral("sharer"), sharer}};
    if (!model.isEmpty())
        body.insert(QStringLiteral("model"), model);
    request(QStringLiteral("POST"), QStringLiteral("/traces/") + segment(traceId) + QStringLiteral("/actions"), body, context, std::move(done),
            [](const QJsonObject &o) { return o; });
}

void ManagementClient::relinkSharer(const QString &handle, const QJsonObject &credential, QObject *context, Handler<QJsonObject> done)
{
    request(QStringLiteral("POST"), QStringLiteral("/sharers/%1/relink").arg(segment(handle)), credential, context, std::move(done),
            [](const QJsonObject &o) { return o; });
}

void ManagementClient::testSharer(const QString &handle, const QString &model, QObject *context, Handler<Api::SharerCheck> done)
{
    request(QStringLiteral("POST"), QStringLiteral("/sharers/%1/test").arg(segment(handle)), QJsonObject{{QStringLiteral("model"), model}}, context,
            std::move(done), &Api::SharerCheck::fromJson);
}

void ManagementClient::probeSharer(const QString &handle, QObject *context, Handler<Api::SharerCheck> done)
{
    request(QStringLiteral("POST"), QStringLiteral("/sharers/%1/probe").arg(segment(handle)), {}, context, std::move(done),
            &Api::SharerCheck::fromJson);
}

void ManagementClient::importConfig(const QJsonObject &document, QObject *context, Handler<QJsonObject> done)
{
    request(QStringLiteral("POST"), QStringLiteral("/admin/config"), document, context, std::move(done), [](const QJsonObject &o) { return o; });
}

void ManagementClient::catalog(QObject *context, Handler<QJsonObject> done)
{
    request(QStringLiteral("GET"), QStringLiteral("/catalog"), {}, context, std::move(done), [](const QJsonObject &o) { return o; });
}

void ManagementClient::keys(QObject *context, Handler<QList<Api::KeyInfo>> done)
{
    request(QStringLiteral("GET"), QStringLiteral("/keys"), {}, context, std::move(done), [](const QJsonObject &o) {
        QList<Api::KeyInfo> keys;
        for (const QJsonValue &v : o.value(QLatin1String("keys")).toArray())
            keys.append(Api::KeyInfo::fromJson(v.toObject()));
        return keys;
    });
}

void ManagementClient::key(const QString &id, QObject *context, Handler<Api::KeyInfo> done)
{
    request(QStringLiteral("GET"), QStringLiteral("/keys/") + segment(id), {}, context, std::move(done),
            [](const QJsonObject &o) { return Api::KeyInfo::fromJson(keyOf(o)); });
}

void ManagementClient::createKey(const QString &name, QObject *context, Handler<Api::CreatedKey> done)
{
    request(QStringLiteral("POST"), QStringLiteral("/keys"), QJsonObject{{QStringLiteral("name"), name}}, context, std::move(done),
            &Api::CreatedKey::fromJson);
}

void ManagementClient::updateKey(const QString &id, const QJsonObject &changes, QObject *context, Handler<Api::KeyInfo> done)
{
    request(QStringLiteral("PUT"), QStringLiteral("/keys/") + segment(id), changes, context, std::move(done),
            [](const QJsonObject &o) { return Api::KeyInfo::fromJson(keyOf(o)); });
}

void ManagementClient::saveRoutes(const QString &id, const QList<Api::RouteValue> &routes, QObject *context, Handler<Api::KeyInfo> done)
{
    QJsonArray array;
    for (const Api::RouteValue &r : routes)
        array.append(r.toJson());
    updateKey(id, QJsonObject{{QStringLiteral("routes"), array}}, context, std::move(done));
}

void ManagementClient::revokeKey(const QString &id, QObject *context, Handler<QJsonObject> done)
{
    request(QStringLiteral("DELETE"), QStringLiteral("/keys/") + segment(id), {}, context, std::move(done), [](const QJsonObject &o) { return o; });
}

void ManagementClient::dryRun(const Api::DryRunAsk &ask, QObject *context, Handler<Api::DryRunPlan> done)
{
    request(QStringLiteral("POST"), QStringLiteral("/keys/route-dry-run"), ask.toJson(), context, std::move(done), &Api::DryRunPlan::fromJson);
}

void ManagementClient::routeReplay(const QJsonObject &ask, QObject *context, Handler<Api::ReplayResult> done)
{
    request(QStringLiteral("POST"), QStringLiteral("/keys/route-replay"), ask, context, std::move(done), &Api::ReplayResult::fromJson);
}

void ManagementClient::charts(const Api::Charts::ChartAsk &ask, QObject *context, Handler<Api::Charts::ChartFigures> done)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("minutes"), QString::number(ask.minutes));
    q.addQueryItem(QStringLiteral("days"), QString::number(ask.days));
    if (ask.now > 0)
        q.addQueryItem(QStringLiteral("now"), QString::number(ask.now));
    request(QStringLiteral("GET"), QStringLiteral("/keys/usage/charts?") + q.toString(QUrl::FullyEncoded), {}, context, std::move(done),
            &Api::Charts::ChartFigures::fromJson);
}

void ManagementClient::routeTemplate(const QString &model, const QString &keyId, QObject *context, Handler<QJsonObject> done)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("model"), model);
    if (!keyId.isEmpty())
        query.addQueryItem(QStringLiteral("key"), keyId);
    request(QStringLiteral("GET"), QStringLiteral("/keys/route-template?") + query.toString(QUrl::FullyEncoded), {}, context, std::move(done),
            [](const QJsonObject &o) { return o; });
}

void ManagementClient::traces(const Store::TraceQuery &query, QObject *context, Handler<QList<Store::TraceRecord>> done)
{
    tracePage(query, context, [done = std::move(done)](const Reply<TracePage> &page) {
        done(Reply<QList<Store::TraceRecord>>{page.status, page.value.rows, page.error});
    });
}

void ManagementClient::tracePage(const Store::TraceQuery &query, QObject *context, Handler<TracePage> done)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("limit"), QString::number(query.limit));
    q.addQueryItem(QStringLiteral("offset"), QString::number(query.offset));
    if (query.sinceMs > 0)
        q.addQueryItem(QStringLiteral("since"), QString::number(query.sinceMs));
    for (const auto &[name, value] : {std::pair{"key", query.keyId}, {"model", query.model}, {"sharer", query.sharer}, {"q", query.text}})
        if (!value.isEmpty())
            q.addQueryItem(QLatin1String(name), value);
    if (query.status != 0)
        q.addQueryItem(QStringLiteral("status"), QString::number(query.status));
    request(QStringLiteral("GET"), QStringLiteral("/keys/usage/requests?") + q.toString(QUrl::FullyEncoded), {}, context, std::move(done),
            [](const QJsonObject &o) {
                TracePage page;
                for (const QJsonValue &v : o.value(QLatin1String("data")).toArray())
                    page.rows.append(Store::TraceRecord::fromJson(v.toObject()));
                page.total = o.value(QLatin1String("total")).toInt();
                return page;
            });
}

void ManagementClient::testTool(const QString &baseUrl, Clients::ClientSnippets::Wire wire, const QString &key, const QString &model,
                                QObject *context, std::function<void(const ToolTestResult &)> done, bool ownLogin)
{
    if (!m_network)
        m_network = new QNetworkAccessManager(this);
    const QJsonArray messages{
        QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), QStringLiteral("Reply with OK.")}}};
    QString path;
    QJsonObject body{{QStringLiteral("model"), model}};
    QNetworkRequest request;
    if (wire == Clients::ClientSnippets::Wire::Messages) {
        path = QStringLiteral("/v1/messages");
        body.insert(QStringLiteral("max_tokens"), 16);
        body.insert(QStringLiteral("messages"), messages);
        request.setRawHeader("x-api-key", key.toUtf8());
        request.setRawHeader("anthropic-version", "2023-06-01");
    } else if (wire == Clients::ClientSnippets::Wire::Responses) {
        path = QStringLiteral("/v1/responses");
        body.insert(QStringLiteral("input"), QStringLiteral("Reply with OK."));
        body.insert(QStringLiteral("max_output_tokens"), 16);
        request.setRawHeader("authorization", "Bearer " + key.toUtf8());
    } else {
        path = QStringLiteral("/v1/chat/completions");
        body.insert(QStringLiteral("max_tokens"), 16);
        body.insert(QStringLiteral("messages"), messages);
        request.setRawHeader("authorization", "Bearer " + key.toUtf8());
    }
    if (ownLogin) {
        // As the tool sends it: the key in x-aile-key. The dialog has no subscription login, so the
        // answer shows what serves the tool when its login is missing (its API-key fallback).
        request.setRawHeader("x-api-key", QByteArray());
        request.setRawHeader("authorization", QByteArray());
        request.setRawHeader("x-aile-key", key.toUtf8());
    }
    request.setUrl(QUrl(baseUrl + path));
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setTransferTimeout(60000);

    auto elapsed = std::make_shared<QElapsedTimer>();
    elapsed->start();
    QNetworkReply *reply = m_network->post(request, QJsonDocument(body).toJson(QJsonDocument::Compact));
    connect(reply, &QNetworkReply::finished, this,
            [reply, elapsed, guard = QPointer<QObject>(context), hasContext = context != nullptr, done = std::move(done)] {
                reply->deleteLater();
                if (hasContext && !guard)
                    return;
                ToolTestResult r;
                r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                r.elapsedMs = elapsed->elapsed();
                r.traceId = QString::fromUtf8(reply->rawHeader("x-aile-request-id"));
                r.sharer = QString::fromUtf8(reply->rawHeader("x-aile-sharer"));
                if (r.status == 0)
                    r.error = reply->errorString();
                else if (r.status >= 400)
                    r.error = QJsonDocument::fromJson(reply->readAll())
                                  .object()
                                  .value(QLatin1String("error"))
                                  .toObject()
                                  .value(QLatin1String("message"))
                                  .toString();
                done(r);
            });
}

QString ManagementClient::errorMessage(int status, const QJsonDocument &body)
{
    const QString message = body.object().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    if (!message.isEmpty())
        return message;
    if (status == 0)
        return tr("The proxy is not running.");
    return tr("The engine answered HTTP %1.").arg(status);
}

} // namespace Aile::Ui
