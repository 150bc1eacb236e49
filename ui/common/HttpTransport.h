#pragma once

#include "ManagementTransport.h"

#include <QtCore/QPointer>
#include <QtCore/QUrl>

class QNetworkAccessManager;
class QNetworkRequest;
class QNetworkReply;
class QTimer;

namespace Aile::Ui {

/// An Aile engine's management API over HTTP (an `aile serve` of this user, or a team server):
/// every call carries the admin token as Authorization: Bearer and answers with the engine's own
/// status and body, exactly what the in-process transport hands back for the same call. When no
/// HTTP answer comes (refused, timed out, TLS), the status is 0, as for an engine that is not
/// running, with a message naming the address. Never blocks; the token is never logged.
///
/// watchTraces() holds GET /admin/traces/stream open and turns its events into tracesRecorded;
/// a cut stream is opened again after a pause that grows to MaxRetryMs, and tracesMissed says the
/// batches in between were not seen.
class HttpTransport : public IManagementTransport
{
    Q_OBJECT
public:
    static constexpr int CallTimeoutMs = 60'000; // a model test may take this long
    static constexpr int FirstRetryMs = 1'000;
    static constexpr int MaxRetryMs = 30'000;
    static constexpr qsizetype MaxEventBytes = 16 * 1024 * 1024; // one event past this: the stream is cut

    HttpTransport(const QUrl &baseUrl, const QString &adminToken, QObject *parent = nullptr);
    ~HttpTransport() override;

    void send(const QString &method, const QString &path, const QByteArray &body, QObject *context, Done done) override;
    int pending() const override { return m_pending; }
    void watchTraces() override;

    QUrl baseUrl() const { return m_base; }
    /// Whether the live stream is open and said it is ready.
    bool streaming() const { return m_streamReady; }

Q_SIGNALS:
    void streamingChanged(bool streaming);

private:
    QNetworkRequest request(const QString &path) const;
    void openStream();
    void readStream();
    void handleStreamEnd();
    void handleEvent(const QByteArray &event, const QByteArray &data);
    void setStreamReady(bool ready);

    QUrl m_base;
    QByteArray m_authorization;
    QNetworkAccessManager *m_network;
    QPointer<QNetworkReply> m_stream;
    QByteArray m_streamBuffer;
    QTimer *m_retry;
    int m_retryMs = FirstRetryMs;
    int m_pending = 0;
    bool m_watching = false;
    bool m_streamReady = false;
    bool m_everReady = false;
};

} // namespace Aile::Ui
