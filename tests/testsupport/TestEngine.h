#pragma once

#include "host/Engine.h"

#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QNetworkAccessManager>
#include <QtNetwork/QNetworkReply>

#include <memory>

namespace Aile::Test {

/// The real engine on port 0, in the test's thread, configured from a JSON object in the
/// configuration file's format, with an optional ManualClock and a seeded draw.
class TestEngine
{
public:
    explicit TestEngine(const QJsonObject &config, Clock *clock = nullptr, quint64 seed = 42);
    ~TestEngine();

    /// Starts and waits until it listens; false (and a QTest failure message) otherwise.
    bool start();
    /// Stops the engine and starts a new one on the same data directory and configuration.
    bool restart();
    /// The same, listening on the given port (a node coming back where its sharers dial it).
    bool restartOnPort(quint16 port);
    Engine &engine() { return *m_engine; }
    EngineContext &context() { return m_engine->context(); }
    quint16 port() const { return m_engine->port(); }
    QString baseUrl() const;
    QString dataDir() const { return m_dir.path(); }
    QString startError() const { return m_error; }

private:
    QTemporaryDir m_dir;
    EngineOptions m_options;
    std::unique_ptr<Engine> m_engine;
    QString m_error;
};

/// A finished HTTP exchange as a client saw it.
struct Reply
{
    int status = 0;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
    QNetworkReply::NetworkError error = QNetworkReply::NoError;
    QByteArray header(const QByteArray &name) const;
    QJsonObject json() const;
};

/// Sends one request with QNetworkAccessManager (an HTTP stack independent of the engine's) and
/// waits for the whole answer.
Reply send(const QString &method, const QString &url, const QByteArray &body = {}, const QList<QPair<QByteArray, QByteArray>> &headers = {},
           int timeoutMs = 10000);

/// Writes raw bytes to host:port and collects what comes back until the peer closes or
/// timeoutMs passes.
QByteArray rawExchange(quint16 port, const QByteArray &bytes, int timeoutMs = 5000);

/// Requests in flight with QNetworkAccessManager while the test drives the clock.
class AsyncClient
{
public:
    QNetworkReply *post(const QString &url, const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers);
    /// Waits (running the event loop) until the reply is finished, then reads it.
    static Reply wait(QNetworkReply *reply, int timeoutMs = 10000);

private:
    QNetworkAccessManager m_nam;
};

/// A sharer for routing tests: its credential is its own handle, so the fake upstream can tell
/// sharers apart (FakeUpstream::credentialOf) and script each one (enqueueFor).
QJsonObject sharer(const QString &handle, const QString &provider, const QString &baseUrl, const QStringList &models, const QJsonObject &extra = {});
/// A configuration with one key (TestKey), the admin token and the given sharers.
QJsonObject configWith(const QJsonArray &sharers, const QJsonObject &keyRouting = {}, const QJsonObject &settings = {});

/// The canonical test configuration: one key, sharers on the fake upstream for each wire.
QJsonObject basicConfig(const QString &upstreamBaseUrl);
inline const char *TestKey = "sk-aile-test-0123456789abcdef";
inline const char *AdminToken = "test-admin-token";
/// A file holding AdminToken, for the aile CLI's --admin-token-file (a token is never given on
/// the command line); made once per test process, removed at exit.
QString adminTokenFile();

} // namespace Aile::Test
