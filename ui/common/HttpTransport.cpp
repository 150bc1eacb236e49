#include "HttpTransport.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QLoggingCategory>
#include <QtCore/QTimer>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>
#include <QtNetwork/QNetworkRequest>

Q_LOGGING_CATEGORY(lcHttpTransport, "aile.ui.transport")

namespace Aile::Ui {

namespace {

QByteArray errorBody(const QString &message)
{
    // The same shape as the engine's own errors, so ManagementClient shows it as the message.
    return QJsonDocument(QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), message}}}}).toJson(QJsonDocument::Compact);
}

} // namespace

HttpTransport::HttpTransport(const QUrl &baseUrl, const QString &adminToken, QObject *parent)
    : IManagementTransport(parent), m_base(baseUrl.adjusted(QUrl::StripTrailingSlash)), m_authorization("Bearer " + adminToken.toUtf8()),
      m_network(new QNetworkAccessManager(this)), m_retry(new QTimer(this))
{
    m_retry->setSingleShot(true);
    connect(m_retry, &QTimer::timeout, this, &HttpTransport::openStream);
}

HttpTransport::~HttpTransport()
{
    // Calls in flight are dropped, never answered from a half-destroyed transport.
    m_watching = false;
    for (QNetworkReply *reply : m_network->findChildren<QNetworkReply *>()) {
        reply->disconnect(this);
        reply->abort();
    }
}

QNetworkRequest HttpTransport::request(const QString &path) const
{
    // path is already percent-encoded by ManagementClient ("/sharers/a%2Fb?model=…").
    QNetworkRequest r(QUrl(m_base.toString(QUrl::FullyEncoded) + path));
    r.setRawHeader("authorization", m_authorization);
    r.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    r.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy); // the token goes nowhere else
    return r;
}

void HttpTransport::send(const QString &method, const QString &path, const QByteArray &body, QObject *context, Done done)
{
    QNetworkRequest r = request(path);
    if (!body.isEmpty())
        r.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    r.setTransferTimeout(CallTimeoutMs);
    QNetworkReply *reply = m_network->sendCustomRequest(r, method.toLatin1(), body);
    ++m_pending;
    connect(reply, &QNetworkReply::finished, this,
            [this, reply, guard = QPointer<QObject>(context), hasContext = context != nullptr, done = std::move(done)] {
                reply->deleteLater();
                --m_pending;
                if (hasContext && !guard)
                    return;
                const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
                if (status == 0)
                    return done(
                        0,
                        errorBody(tr("No Aile engine answered at %1: %2").arg(m_base.toDisplayString(QUrl::RemoveUserInfo), reply->errorString())));
                done(status, reply->readAll());
            });
}

void HttpTransport::watchTraces()
{
    if (m_watching)
        return;
    m_watching = true;
    openStream();
}

void HttpTransport::openStream()
{
    if (!m_watching || m_stream)
        return;
    QNetworkRequest r = request(QStringLiteral("/admin/traces/stream"));
    r.setRawHeader("accept", "text/event-stream");
    r.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    m_streamBuffer.clear();
    m_stream = m_network->get(r);
    connect(m_stream, &QNetworkReply::readyRead, this, &HttpTransport::readStream);
    connect(m_stream, &QNetworkReply::finished, this, &HttpTransport::handleStreamEnd);
}

void HttpTransport::readStream()
{
    if (!m_stream)
        return;
    if (m_stream->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() != 200)
        return; // an error answer: read whole in handleStreamEnd
    m_streamBuffer += m_stream->readAll();
    // Events end with a blank line; a partial one waits for its next bytes.
    for (qsizetype end; (end = m_streamBuffer.indexOf("\n\n")) >= 0;) {
        const QByteArray block = m_streamBuffer.left(end);
        m_streamBuffer.remove(0, end + 2);
        QByteArray event, data;
        for (const QByteArray &line : block.split('\n')) {
            if (line.startsWith("event:"))
                event = line.mid(6).trimmed();
            else if (line.startsWith("data:"))
                data += (data.isEmpty() ? QByteArray() : QByteArray("\n")) + line.mid(5).trimmed();
        }
        if (!event.isEmpty())
            handleEvent(event, data);
    }
    if (m_streamBuffer.size() > MaxEventBytes) {
        qCWarning(lcHttpTransport) << "live trace stream: an event past" << MaxEventBytes << "bytes; reopening it";
        m_stream->abort();
    }
}

void HttpTransport::handleEvent(const QByteArray &event, const QByteArray &data)
{
    if (event == "ready") {
        m_retryMs = FirstRetryMs;
        // Reopened after a cut: what finished in between came in no batch.
        if (m_everReady)
            Q_EMIT tracesMissed();
        m_everReady = true;
        setStreamReady(true);
    } else if (event == "traces") {
        QList<Store::TraceRecord> traces;
        for (const QJsonValue &v : QJsonDocument::fromJson(data).array())
            traces.append(Store::TraceRecord::fromJson(v.toObject()));
        if (!traces.isEmpty())
            Q_EMIT tracesRecorded(traces);
    } else if (event == "skipped") {
        Q_EMIT tracesMissed();
    }
}

void HttpTransport::handleStreamEnd()
{
    QNetworkReply *reply = m_stream;
    m_stream = nullptr;
    if (!reply)
        return;
    reply->deleteLater();
    setStreamReady(false);
    if (!m_watching)
        return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString why =
        status == 0
            ? reply->errorString()
            : QJsonDocument::fromJson(reply->readAll()).object().value(QLatin1String("error")).toObject().value(QLatin1String("message")).toString();
    qCInfo(lcHttpTransport).noquote() << "live trace stream from" << m_base.toDisplayString(QUrl::RemoveUserInfo) << "ended"
                                      << (why.isEmpty() ? QString() : QStringLiteral("(%1)").arg(why)) << "; again in" << m_retryMs << "ms";
    m_retry->start(m_retryMs);
    m_retryMs = qMin(m_retryMs * 2, MaxRetryMs);
}

void HttpTransport::setStreamReady(bool ready)
{
    if (ready == m_streamReady)
        return;
    m_streamReady = ready;
    Q_EMIT streamingChanged(ready);
}

} // namespace Aile::Ui
