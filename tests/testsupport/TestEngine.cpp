#include "TestEngine.h"

#include <QtCore/QEventLoop>
#include <QtCore/QFile>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTimer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QSignalSpy>

namespace Aile::Test {

TestEngine::TestEngine(const QJsonObject &config, Clock *clock, quint64 seed)
{
    const QString path = m_dir.filePath(QStringLiteral("config.json"));
    QFile f(path);
    if (f.open(QIODevice::WriteOnly))
        f.write(QJsonDocument(config).toJson());
    f.close();
    EngineOptions options;
    options.dataDir = m_dir.filePath(QStringLiteral("data"));
    options.port = 0;
    options.configPath = path;
    options.clock = clock;
    options.drawSeed = seed;
    m_options = options;
    m_engine = std::make_unique<Engine>(options);
}

TestEngine::~TestEngine() = default;

bool TestEngine::start()
{
    QSignalSpy started(m_engine.get(), &Engine::started);
    QSignalSpy failed(m_engine.get(), &Engine::startFailed);
    m_engine->start();
    for (int i = 0; i < 100 && started.isEmpty() && failed.isEmpty(); ++i)
        started.wait(50);
    if (!failed.isEmpty())
        m_error = failed.first().first().toString();
    return !started.isEmpty();
}

bool TestEngine::restart()
{
    m_engine.reset();
    m_engine = std::make_unique<Engine>(m_options);
    return start();
}

bool TestEngine::restartOnPort(quint16 port)
{
    m_options.port = port;
    return restart();
}

QString TestEngine::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(port());
}

QByteArray Reply::header(const QByteArray &name) const
{
    for (const auto &[n, v] : headers)
        if (n.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

QJsonObject Reply::json() const
{
    return QJsonDocument::fromJson(body).object();
}

Reply send(const QString &method, const QString &url, const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers, int timeoutMs)
{
    QNetworkAccessManager nam;
    QNetworkRequest request{QUrl(url)};
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    bool hasType = false;
    for (const auto &[n, v] : headers) {
        request.setRawHeader(n, v);
        hasType = hasType || n.compare("content-type", Qt::CaseInsensitive) == 0;
    }
    if (!body.isEmpty() && !hasType)
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = nam.sendCustomRequest(request, method.toLatin1(), body);
    Reply r = AsyncClient::wait(reply, timeoutMs);
    return r;
}

QByteArray rawExchange(quint16 port, const QByteArray &bytes, int timeoutMs)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    if (!socket.waitForConnected(timeoutMs))
        return {};
    socket.write(bytes);
    QByteArray out;
    QEventLoop loop;
    QObject::connect(&socket, &QTcpSocket::readyRead, &loop, [&] { out += socket.readAll(); });
    QObject::connect(&socket, &QTcpSocket::disconnected, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    out += socket.readAll();
    return out;
}

QJsonObject basicConfig(const QString &upstream)
{
    auto sharer = [&](const char *handle, const char *name, const char *provider, QJsonArray models) {
        return QJsonObject{{QStringLiteral("handle"), QLatin1String(handle)},
                           {QStringLiteral("name"), QLatin1String(name)},
                           {QStringLiteral("provider"), QLatin1String(provider)},
                           {QStringLiteral("baseUrl"), upstream},
                           {QStringLiteral("credential"), QStringLiteral("env:AILE_TEST_UPSTREAM_KEY")},
                           {QStringLiteral("models"), models},
                           {QStringLiteral("tested"), models}};
    };
    qputenv("AILE_TEST_UPSTREAM_KEY", "upstream-secret-value");
    return QJsonObject{{QStringLiteral("adminToken"), QLatin1String(AdminToken)},
                       {QStringLiteral("providers"),
                        QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("testai")},
                                               {QStringLiteral("wires"), QJsonArray{QStringLiteral("chat"), QStringLiteral("responses")}},
                                               {QStringLiteral("dataCollection"), QStringLiteral("deny")}}}},
                       {QStringLiteral("sharers"),
                        QJsonArray{sharer("L00000000000000a1", "openai-one", "openai", {QStringLiteral("gpt-5.2"), QStringLiteral("gpt-5.5")}),
                                   sharer("L00000000000000c1", "claude-one", "claude", {QStringLiteral("claude-sonnet-5")})}},
                       {QStringLiteral("keys"),
                        QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("test")}, {QStringLiteral("key"), QLatin1String(TestKey)}}}}};
}

} // namespace Aile::Test

namespace Aile::Test {

QNetworkReply *AsyncClient::post(const QString &url, const QByteArray &body, const QList<QPair<QByteArray, QByteArray>> &headers)
{
    QNetworkRequest request{QUrl(url)};
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    for (const auto &[n, v] : headers)
        request.setRawHeader(n, v);
    return m_nam.post(request, body);
}

Reply AsyncClient::wait(QNetworkReply *reply, int timeoutMs)
{
    if (!reply->isFinished()) {
        QEventLoop loop;
        QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        loop.exec();
    }
    Reply r;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.headers = reply->rawHeaderPairs();
    r.body = reply->readAll();
    r.error = reply->isFinished() ? reply->error() : QNetworkReply::TimeoutError;
    reply->abort();
    reply->deleteLater();
    return r;
}

QJsonObject sharer(const QString &handle, const QString &provider, const QString &baseUrl, const QStringList &models, const QJsonObject &extra)
{
    const QByteArray var = "AILE_T_" + handle.toUpper().toLatin1();
    qputenv(var.constData(), handle.toLatin1());
    QJsonObject o{{QStringLiteral("handle"), handle},
                  {QStringLiteral("name"), QString(QStringLiteral("sharer-") + handle.right(4))},
                  {QStringLiteral("provider"), provider},
                  {QStringLiteral("credential"), QString(QStringLiteral("env:") + QString::fromLatin1(var))},
                  {QStringLiteral("models"), QJsonArray::fromStringList(models)}};
    if (!baseUrl.isEmpty())
        o.insert(QStringLiteral("baseUrl"), baseUrl);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return o;
}

QJsonObject configWith(const QJsonArray &sharers, const QJsonObject &keyRouting, const QJsonObject &settings)
{
    QJsonObject key{{QStringLiteral("name"), QStringLiteral("test")}, {QStringLiteral("key"), QLatin1String(TestKey)}};
    if (!keyRouting.isEmpty())
        key.insert(QStringLiteral("routing"), keyRouting);
    QJsonObject cfg{
        {QStringLiteral("adminToken"), QLatin1String(AdminToken)}, {QStringLiteral("sharers"), sharers}, {QStringLiteral("keys"), QJsonArray{key}}};
    if (!settings.isEmpty())
        cfg.insert(QStringLiteral("settings"), settings);
    return cfg;
}

QString adminTokenFile()
{
    static QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("admin-token"));
    if (!QFile::exists(path)) {
        QFile f(path);
        if (f.open(QIODevice::WriteOnly))
            f.write(QByteArray(AdminToken) + '\n');
    }
    return path;
}

} // namespace Aile::Test
