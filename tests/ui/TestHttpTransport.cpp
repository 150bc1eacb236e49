// The GUI's client over HTTP (issue 23): the same ManagementClient calls, once through the
// embedded engine's in-process transport and once through HttpTransport against the same engine's
// management API, hand back the same statuses, typed values and messages; live traces arrive over
// GET /admin/traces/stream as they do in-process; the stream is bounded.
#include "api/TraceStream.h"
#include "common/HttpTransport.h"
#include "common/ManagementClient.h"
#include "host/EngineHost.h"
#include "store/Store.h"

#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpServer>
#include <QtTest/QtTest>

using namespace Aile;

namespace {

/// The embedded engine as the desktop runs it (its own thread, port 0), and the two ways in.
struct TwoWays
{
    QTemporaryDir dir;
    std::unique_ptr<EngineHost> host;
    std::unique_ptr<Ui::ManagementClient> inProcess;
    std::unique_ptr<Ui::ManagementClient> overHttp;
    Ui::HttpTransport *http = nullptr;
    QString baseUrl;

    bool start(const QJsonObject &config)
    {
        const QString path = dir.filePath(QStringLiteral("config.json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return false;
        f.write(QJsonDocument(config).toJson());
        f.close();
        EngineOptions options;
        options.dataDir = dir.filePath(QStringLiteral("data"));
        options.port = 0;
        options.configPath = path;
        options.drawSeed = 42;
        host = std::make_unique<EngineHost>(options);
        QSignalSpy started(host.get(), &EngineHost::started);
        host->start();
        if (!started.wait(10000))
            return false;
        baseUrl = QStringLiteral("http://127.0.0.1:%1").arg(started.first().at(1).value<quint16>());
        inProcess = std::make_unique<Ui::ManagementClient>(host.get());
        auto transport = std::make_unique<Ui::HttpTransport>(QUrl(baseUrl), QLatin1String(Test::AdminToken));
        http = transport.get();
        overHttp = std::make_unique<Ui::ManagementClient>(std::move(transport));
        return true;
    }

    ~TwoWays()
    {
        overHttp.reset();
        inProcess.reset();
        if (host) {
            QSignalSpy stopped(host.get(), &EngineHost::stopped);
            host->stop();
            stopped.wait(5000);
        }
    }
};

template <typename T> Ui::Reply<T> waitFor(std::function<void(Ui::ManagementClient::Handler<T>)> call)
{
    std::optional<Ui::Reply<T>> got;
    call([&](const Ui::Reply<T> &reply) { got = reply; });
    (void)QTest::qWaitFor([&] { return got.has_value(); }, 15000);
    return got.value_or(Ui::Reply<T>{-1, {}, QStringLiteral("no answer")});
}

QJsonArray traceJson(const QList<Store::TraceRecord> &traces)
{
    QJsonArray a;
    for (const Store::TraceRecord &t : traces)
        a.append(t.toJson());
    return a;
}

} // namespace

class TestHttpTransport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_upstream.listen());
        QVERIFY(m_engine.start(Test::basicConfig(m_upstream.baseUrl())));
        // One request, so the trace listing has a row to compare.
        const Test::Reply chat = Test::send(QStringLiteral("POST"), m_engine.baseUrl + QStringLiteral("/v1/chat/completions"),
                                            R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"hi"}]})",
                                            {{"authorization", QByteArray("Bearer ") + Test::TestKey}});
        QCOMPARE(chat.status, 200);
    }

    void theSameCallGivesTheSameAnswerThroughBothTransports_data()
    {
        QTest::addColumn<QString>("call");
        QTest::newRow("sharers for a model (routing order)") << "sharers-model";
        QTest::newRow("sharers by handle") << "sharers";
        QTest::newRow("keys") << "keys";
        QTest::newRow("one key") << "key";
        QTest::newRow("a key that does not exist: 404 and the engine's words") << "key-missing";
        QTest::newRow("dry run") << "dry-run";
        QTest::newRow("dry run of an unknown model: the refusal") << "dry-run-unknown";
        QTest::newRow("catalog") << "catalog";
        QTest::newRow("traces, newest first") << "traces";
        QTest::newRow("remove a sharer that does not exist") << "remove-missing";
        QTest::newRow("save a sharer with a bad body: 400") << "save-bad";
        QTest::newRow("the engine's status, with its pid") << "status";
        QTest::newRow("the charts' figures (GET /keys/usage/charts)") << "charts";
        QTest::newRow("the charts' figures over a window too long: 400") << "charts-bad";
    }

    void theSameCallGivesTheSameAnswerThroughBothTransports()
    {
        QFETCH(QString, call);
        QString keyId;
        if (call == QLatin1String("key") || call == QLatin1String("dry-run")) {
            const auto keys = waitFor<QList<Api::KeyInfo>>([&](auto done) { m_engine.inProcess->keys(this, done); });
            QVERIFY(!keys.value.isEmpty());
            keyId = keys.value.first().id;
        }
        if (call == QLatin1String("sharers-model") || call == QLatin1String("sharers")) {
            Ui::SharerQuery q;
            if (call == QLatin1String("sharers-model"))
                q.model = QStringLiteral("openai/gpt-5.2");
            compareBoth<Api::SharerListing>([&](Ui::ManagementClient &c, auto done) { c.sharers(q, this, done); });
        } else if (call == QLatin1String("keys")) {
            compareBoth<QList<Api::KeyInfo>>([&](Ui::ManagementClient &c, auto done) { c.keys(this, done); });
        } else if (call == QLatin1String("key") || call == QLatin1String("key-missing")) {
            const QString id = keyId.isEmpty() ? QStringLiteral("k_nobody") : keyId;
            compareBoth<Api::KeyInfo>([&](Ui::ManagementClient &c, auto done) { c.key(id, this, done); });
        } else if (call == QLatin1String("dry-run") || call == QLatin1String("dry-run-unknown")) {
            Api::DryRunAsk ask;
            ask.model = call == QLatin1String("dry-run") ? QStringLiteral("openai/gpt-5.2") : QStringLiteral("nowhere/no-model");
            ask.key = keyId;
            compareBoth<Api::DryRunPlan>([&](Ui::ManagementClient &c, auto done) { c.dryRun(ask, this, done); });
        } else if (call == QLatin1String("catalog")) {
            compareBoth<QJsonObject>([&](Ui::ManagementClient &c, auto done) { c.catalog(this, done); });
        } else if (call == QLatin1String("traces")) {
            Store::TraceQuery q;
            q.limit = 10;
            compareBoth<QList<Store::TraceRecord>>([&](Ui::ManagementClient &c, auto done) { c.traces(q, this, done); },
                                                   [](const auto &x, const auto &y) { return !x.isEmpty() && traceJson(x) == traceJson(y); });
        } else if (call == QLatin1String("remove-missing")) {
            compareBoth<QJsonObject>([&](Ui::ManagementClient &c, auto done) { c.removeSharer(QStringLiteral("L0000000000000zz9"), this, done); });
        } else if (call == QLatin1String("save-bad")) {
            compareBoth<QJsonObject>([&](Ui::ManagementClient &c, auto done) {
                c.saveSharer({}, QJsonObject{{QStringLiteral("provider"), 7}}, this, done);
            });
        } else if (call == QLatin1String("charts") || call == QLatin1String("charts-bad")) {
            // One "now" for both, so the two sums cover the same hour and days.
            Api::Charts::ChartAsk ask;
            ask.now = QDateTime::currentMSecsSinceEpoch() + 60'000;
            if (call == QLatin1String("charts-bad"))
                ask.minutes = 7 * 24 * 60;
            compareBoth<Api::Charts::ChartFigures>([&](Ui::ManagementClient &c, auto done) { c.charts(ask, this, done); },
                                                   [&](const auto &x, const auto &y) {
                                                       return x.toJson() == y.toJson()
                                                              && (call == QLatin1String("charts-bad")
                                                                  || (x.requests >= 1 && x.failures == 0 && x.firstToken.size() == 1));
                                                   });
        } else if (call == QLatin1String("status")) {
            // Who runs the engine: the same pid and program both ways, and the same lists.
            compareBoth<Api::EngineStatus>([&](Ui::ManagementClient &c, auto done) { c.status(this, done); },
                                           [](const auto &x, const auto &y) {
                                               return x.pid == QCoreApplication::applicationPid() && x.toJson() == y.toJson() && !x.sharers.isEmpty();
                                           });
        }
    }

    void aWrongTokenGetsTheEnginesRefusal()
    {
        Ui::ManagementClient client{std::make_unique<Ui::HttpTransport>(QUrl(m_engine.baseUrl), QStringLiteral("not-the-token"))};
        const auto reply = waitFor<QList<Api::KeyInfo>>([&](auto done) { client.keys(this, done); });
        QCOMPARE(reply.status, 401);
        QCOMPARE(reply.error, QStringLiteral("the management API needs the admin token as Authorization: Bearer <token>"));
        QVERIFY(reply.value.isEmpty());
    }

    void noEngineAnsweringIsStatusZeroNamingTheAddress()
    {
        // A port that was just free: nothing listens there.
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        const QString url = QStringLiteral("http://127.0.0.1:%1").arg(probe.serverPort());
        probe.close();
        Ui::ManagementClient client{std::make_unique<Ui::HttpTransport>(QUrl(url), QLatin1String(Test::AdminToken))};
        const auto reply = waitFor<QList<Api::KeyInfo>>([&](auto done) { client.keys(this, done); });
        QCOMPARE(reply.status, 0); // as the in-process transport without a running engine
        QVERIFY2(reply.error.startsWith(QStringLiteral("No Aile engine answered at ") + url), qPrintable(reply.error));
        QCOMPARE(client.pending(), 0);
    }

    void anAnswerWhoseContextIsGoneIsDropped()
    {
        bool called = false;
        {
            QObject context;
            m_engine.overHttp->keys(&context, [&](const Ui::Reply<QList<Api::KeyInfo>> &) { called = true; });
            QCOMPARE(m_engine.overHttp->pending(), 1);
        }
        QTRY_COMPARE(m_engine.overHttp->pending(), 0);
        QVERIFY(!called);
    }

    void liveTracesArriveOverHttpAsTheyDoInProcess()
    {
        QSignalSpy streaming(m_engine.http, &Ui::HttpTransport::streamingChanged);
        QSignalSpy local(m_engine.inProcess.get(), &Ui::ManagementClient::tracesRecorded);
        QSignalSpy remote(m_engine.overHttp.get(), &Ui::ManagementClient::tracesRecorded);
        m_engine.inProcess->watchTraces();
        m_engine.overHttp->watchTraces();
        QTRY_VERIFY_WITH_TIMEOUT(m_engine.http->streaming(), 10000);

        for (int i = 0; i < 3; ++i) {
            const Test::Reply chat = Test::send(QStringLiteral("POST"), m_engine.baseUrl + QStringLiteral("/v1/chat/completions"),
                                                R"({"model":"openai/gpt-5.2","messages":[{"role":"user","content":"live"}]})",
                                                {{"authorization", QByteArray("Bearer ") + Test::TestKey}});
            QCOMPARE(chat.status, 200);
        }
        const auto ids = [](const QSignalSpy &spy) {
            QStringList out;
            for (const QList<QVariant> &batch : spy)
                for (const Store::TraceRecord &t : batch.first().value<QList<Store::TraceRecord>>())
                    out.append(t.id);
            return out;
        };
        QTRY_COMPARE_WITH_TIMEOUT(ids(local).size(), 3, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(ids(remote), ids(local), 10000);
        // The whole record travels, not only its id: the same JSON on both sides.
        QList<Store::TraceRecord> a, b;
        for (const QList<QVariant> &batch : local)
            a += batch.first().value<QList<Store::TraceRecord>>();
        for (const QList<QVariant> &batch : remote)
            b += batch.first().value<QList<Store::TraceRecord>>();
        QCOMPARE(traceJson(b), traceJson(a));
    }

    void theStreamServesABoundedNumberOfSubscribers()
    {
        // The window's own stream is open (previous test); fill the rest, then one more is refused.
        // One network manager per stream: one alone opens at most six connections to a host.
        std::vector<std::unique_ptr<QNetworkAccessManager>> nams;
        QList<QNetworkReply *> open;
        QNetworkRequest r(QUrl(m_engine.baseUrl + QStringLiteral("/admin/traces/stream")));
        r.setRawHeader("authorization", QByteArray("Bearer ") + Test::AdminToken);
        r.setAttribute(QNetworkRequest::Http2AllowedAttribute, false);
        const auto openStream = [&] {
            nams.push_back(std::make_unique<QNetworkAccessManager>());
            QNetworkReply *reply = nams.back()->get(r);
            const bool answered = QTest::qWaitFor([reply] { return reply->bytesAvailable() > 0 || reply->isFinished(); }, 5000);
            return answered ? reply : nullptr;
        };
        for (int i = 1; i < Api::TraceStream::MaxSubscribers; ++i) {
            QNetworkReply *reply = openStream();
            QVERIFY(reply);
            QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200); // "event: ready" came
            QVERIFY(reply->header(QNetworkRequest::ContentTypeHeader).toString().startsWith(QLatin1String("text/event-stream")));
            open.append(reply);
        }
        const Test::Reply refused = Test::send(QStringLiteral("GET"), m_engine.baseUrl + QStringLiteral("/admin/traces/stream"), {},
                                               {{"authorization", QByteArray("Bearer ") + Test::AdminToken}});
        QCOMPARE(refused.status, 503);
        QCOMPARE(refused.header("retry-after"), QByteArray("30"));
        QVERIFY2(refused.json()
                     .value(QLatin1String("error"))
                     .toObject()
                     .value(QLatin1String("message"))
                     .toString()
                     .contains(QLatin1String("live trace streams are open already")),
                 refused.body.constData());
        // One closes: once the engine noticed, the next is served again.
        open.takeFirst()->abort();
        QNetworkReply *again = nullptr;
        for (int tries = 0; tries < 50 && !again; ++tries) {
            QNetworkReply *reply = openStream();
            if (reply && reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt() == 200)
                again = reply;
            else
                QTest::qWait(50);
        }
        QVERIFY(again);
        open.append(again);
        for (QNetworkReply *reply : open)
            reply->abort();

        // Without the token, the stream is closed like the rest of the management API; POST is refused.
        QCOMPARE(Test::send(QStringLiteral("GET"), m_engine.baseUrl + QStringLiteral("/admin/traces/stream")).status, 401);
        QCOMPARE(Test::send(QStringLiteral("POST"), m_engine.baseUrl + QStringLiteral("/admin/traces/stream"), "{}",
                            {{"authorization", QByteArray("Bearer ") + Test::AdminToken}})
                     .status,
                 405);
    }

    void aStreamEventCarriesTheBatchAsJson()
    {
        Store::TraceRecord t;
        t.id = QStringLiteral("t1");
        t.status = 200;
        const QByteArray event = Api::TraceStream::event({t});
        QVERIFY(event.startsWith("event: traces\ndata: ["));
        QVERIFY(event.endsWith("]\n\n"));
        QCOMPARE(event.count('\n'), 3); // one data line: a JSON document never spans lines here
    }

private:
    /// The same call through the in-process transport and over HTTP: the same status, message and value.
    template <typename T>
    void compareBoth(std::function<void(Ui::ManagementClient &, Ui::ManagementClient::Handler<T>)> ask,
                     std::function<bool(const T &, const T &)> same = std::equal_to<T>())
    {
        const Ui::Reply<T> a = waitFor<T>([&](auto done) { ask(*m_engine.inProcess, done); });
        const Ui::Reply<T> b = waitFor<T>([&](auto done) { ask(*m_engine.overHttp, done); });
        QVERIFY2(a.status > 0, qPrintable(a.error));
        QCOMPARE(b.status, a.status);
        QCOMPARE(b.error, a.error);
        QVERIFY(same(a.value, b.value));
    }

    Test::FakeUpstream m_upstream;
    TwoWays m_engine;
};

QTEST_MAIN(TestHttpTransport)
#include "TestHttpTransport.moc"
