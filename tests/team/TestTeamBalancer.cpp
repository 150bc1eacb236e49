// Team mode end to end (docs/team.md): two real `aile serve` processes on one real PostgreSQL
// behind a real HAProxy (Debian's haproxy, started with a generated configuration on free ports),
// against the fake upstream.
#include "keys/ApiKey.h"
#include "store/Store.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"
#include "testsupport/TestPostgres.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QProcess>
#include <QtCore/QSet>
#include <QtCore/QTimer>
#include <QtCore/QStandardPaths>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>

#include <csignal>

using namespace Aile;
using namespace Aile::Test;

namespace {

// The instances listen on two loopback addresses with the same port, so the balancer can send the
// one Host both accept (settings.allowedHosts "aile-team" means "aile-team:<their port>").
const QString AddressA = QStringLiteral("127.0.0.2"), AddressB = QStringLiteral("127.0.0.3");

quint16 freePort(const QStringList &addresses)
{
    for (int tries = 0; tries < 50; ++tries) {
        QTcpServer first;
        if (!first.listen(QHostAddress(addresses.first()), 0))
            return 0;
        const quint16 port = first.serverPort();
        bool all = true;
        for (const QString &a : addresses.mid(1)) {
            QTcpServer other;
            all = all && other.listen(QHostAddress(a), port);
        }
        if (all)
            return port;
    }
    return 0;
}

// One answer as a raw client saw it.
struct RawAnswer
{
    int status = 0;
    QByteArray head;
    QByteArray body;
    QByteArray header(const QByteArray &name) const
    {
        for (const QByteArray &line : head.split('\n'))
            if (line.toLower().startsWith(QByteArray(name + ':')))
                return line.mid(name.size() + 1).trimmed();
        return {};
    }
};

// Sends every request at once on its own connection (no client-side connection limit), then waits
// for every answer. HTTP/1.1 with Connection: close: an answer ends when its connection does.
QList<RawAnswer> burst(quint16 port, const QList<QByteArray> &requests, int timeoutMs = 60000)
{
    QList<QTcpSocket *> sockets;
    QList<QByteArray> received(requests.size());
    for (const QByteArray &r : requests) {
        auto *s = new QTcpSocket;
        s->connectToHost(QHostAddress::LocalHost, port);
        QObject::connect(s, &QTcpSocket::connected, s, [s, r] { s->write(r); });
        sockets << s;
    }
    for (int i = 0; i < sockets.size(); ++i)
        QObject::connect(sockets[i], &QTcpSocket::readyRead, sockets[i], [&received, i, s = sockets[i]] { received[i] += s->readAll(); });
    const bool closed = QTest::qWaitFor(
        [&] { return std::all_of(sockets.begin(), sockets.end(), [](QTcpSocket *s) { return s->state() == QAbstractSocket::UnconnectedState; }); },
        timeoutMs);
    if (!closed)
        qWarning("some answers did not end within %d ms", timeoutMs);
    QList<RawAnswer> out;
    for (int i = 0; i < sockets.size(); ++i) {
        received[i] += sockets[i]->readAll();
        RawAnswer a;
        const qsizetype end = received[i].indexOf("\r\n\r\n");
        a.head = received[i].left(end);
        a.body = end < 0 ? QByteArray() : received[i].mid(end + 4);
        a.status = a.head.mid(9, 3).toInt();
        out << a;
        delete sockets[i];
    }
    return out;
}

const char *FreeKey = "sk-aile-team-free-0123456789abcdef";

QByteArray chatRequest(const QByteArray &session = {}, const char *key = TestKey)
{
    const QByteArray body =
        QJsonDocument(QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                                  {QStringLiteral("max_tokens"), 1000},
                                  {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                      {QStringLiteral("content"), QStringLiteral("hi")}}}}})
            .toJson(QJsonDocument::Compact);
    QByteArray r = "POST /v1/chat/completions HTTP/1.1\r\nHost: team.example\r\nConnection: close\r\nContent-Type: application/json\r\n"
                   "Authorization: Bearer "
                   + QByteArray(key) + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\n";
    if (!session.isEmpty())
        r += "x-aile-session: " + session + "\r\n";
    return r + "\r\n" + body;
}

} // namespace

class TestTeamBalancer : public QObject
{
    Q_OBJECT

    struct Instance
    {
        std::unique_ptr<QProcess> process;
        QTemporaryDir dir;
        QString address;
    };

    QTemporaryDir m_dir;
    FakeUpstream m_upstream;
    QString m_store;
    QString m_config;
    quint16 m_instancePort = 0;
    quint16 m_balancerPort = 0;
    Instance m_a, m_b;
    QProcess m_haproxy;
    QString m_haproxyBin;

    bool startInstance(Instance &i)
    {
        i.process = std::make_unique<QProcess>();
        i.process->setProcessChannelMode(QProcess::SeparateChannels);
        i.process->start(QStringLiteral(AILE_BIN), {QStringLiteral("serve"), QStringLiteral("--data-dir"), i.dir.path(), QStringLiteral("--listen"),
                                                    QStringLiteral("%1:%2").arg(i.address).arg(m_instancePort), QStringLiteral("--store"), m_store,
                                                    QStringLiteral("--config"), m_config});
        if (!i.process->waitForStarted())
            return false;
        QByteArray out;
        return QTest::qWaitFor([&] { return (out += i.process->readAllStandardOutput()).contains("listening on "); }, 20000);
    }

    void stopInstance(Instance &i, int signal)
    {
        if (!i.process || i.process->state() == QProcess::NotRunning)
            return;
        ::kill(pid_t(i.process->processId()), signal);
        i.process->waitForFinished(10000);
    }

    // The ledger as PostgreSQL holds it now.
    QList<Store::LedgerEntry> ledger()
    {
        Store::Store store(m_store, true);
        if (!store.open(nullptr))
            return {};
        return store.ledger(Store::utcDay(QDateTime::currentMSecsSinceEpoch()));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_haproxyBin = QStandardPaths::findExecutable(QStringLiteral("haproxy"), {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")});
        if (m_haproxyBin.isEmpty())
            QSKIP("HAProxy is not installed (apt-get install haproxy)");
        if (!sharedPostgres().start())
            QSKIP(qPrintable(QStringLiteral("PostgreSQL cannot run here: ") + sharedPostgres().skipReason()));
        QVERIFY(m_upstream.listen());
        // Every answer takes 300 ms and costs what its quote said (1000 output tokens), so the
        // requests are in flight together and the ledger total can be held against the budget.
        m_upstream.setChooser([](const ReceivedRequest &) {
            Script s = FakeUpstream::chatCompletion(QStringLiteral("ok"), 12, 1000);
            s.headDelayMs = 300;
            return std::optional<Script>(s);
        });
        m_store = sharedPostgres().createDatabase(QStringLiteral("balancer"));
        m_instancePort = freePort({AddressA, AddressB});
        m_balancerPort = freePort({QStringLiteral("127.0.0.1")});
        QVERIFY(m_instancePort && m_balancerPort);

        QJsonObject config = basicConfig(m_upstream.baseUrl());
        QJsonObject key = config.value(QStringLiteral("keys")).toArray().first().toObject();
        key.insert(QStringLiteral("routing"), QJsonObject{{QStringLiteral("spendLimitUsdPerDay"), 0.7}});
        // The limited key, and one without a limit for the tests that are not about budgets.
        config.insert(QStringLiteral("keys"), QJsonArray{key, QJsonObject{{QStringLiteral("name"), QStringLiteral("free")},
                                                                          {QStringLiteral("key"), QLatin1String(FreeKey)}}});
        // A second account on the same model, for the conversation and the rate limit.
        QJsonArray sharers = config.value(QStringLiteral("sharers")).toArray();
        QJsonObject twin = sharers.first().toObject();
        twin.insert(QStringLiteral("handle"), QStringLiteral("L00000000000000a2"));
        twin.insert(QStringLiteral("name"), QStringLiteral("openai-two"));
        sharers.append(twin);
        config.insert(QStringLiteral("sharers"), sharers);
        config.insert(QStringLiteral("settings"), QJsonObject{{QStringLiteral("allowedHosts"), QJsonArray{QStringLiteral("aile-team")}}});
        QFile f(m_dir.filePath(QStringLiteral("team.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(config).toJson());
        f.close();
        m_config = f.fileName();

        m_a.address = AddressA;
        m_b.address = AddressB;
        QVERIFY(startInstance(m_a));
        QVERIFY(startInstance(m_b));

        const QString host = QStringLiteral("aile-team:%1").arg(m_instancePort);
        QFile cfg(m_dir.filePath(QStringLiteral("haproxy.cfg")));
        QVERIFY(cfg.open(QIODevice::WriteOnly));
        cfg.write(QStringLiteral("global\n    maxconn 2000\n"
                                 "defaults\n    mode http\n    timeout connect 2s\n    timeout client 60s\n    timeout server 60s\n"
                                 "    option redispatch\n    retries 2\n    retry-on conn-failure empty-response\n"
                                 "frontend aile\n    bind 127.0.0.1:%1\n    default_backend instances\n"
                                 "backend instances\n    balance roundrobin\n    http-request set-header Host %2\n"
                                 "    option httpchk\n    http-check send meth GET uri /health ver HTTP/1.1 hdr Host %2\n"
                                 "    http-check expect status 200\n"
                                 "    server a %3:%4 check inter 300ms fall 2 rise 1\n"
                                 "    server b %5:%4 check inter 300ms fall 2 rise 1\n")
                      .arg(m_balancerPort)
                      .arg(host, AddressA)
                      .arg(m_instancePort)
                      .arg(AddressB)
                      .toUtf8());
        cfg.close();
        m_haproxy.setProcessChannelMode(QProcess::MergedChannels);
        m_haproxy.start(m_haproxyBin, {QStringLiteral("-db"), QStringLiteral("-f"), cfg.fileName()});
        QVERIFY(m_haproxy.waitForStarted());
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         QTcpSocket s;
                         s.connectToHost(QHostAddress::LocalHost, m_balancerPort);
                         return s.waitForConnected(200);
                     },
                     10000),
                 m_haproxy.readAll().constData());
    }

    void cleanupTestCase()
    {
        m_haproxy.terminate();
        m_haproxy.waitForFinished(5000);
        stopInstance(m_a, SIGTERM);
        stopInstance(m_b, SIGTERM);
        sharedPostgres().stop();
    }

    void aConversationStaysOnOneAccountOverBothInstances()
    {
        // Round robin hands the turns to both instances in turn; the pins they share keep them on
        // the account the first turn was served by.
        QByteArray account;
        for (int turn = 0; turn < 6; ++turn) {
            const QList<RawAnswer> got = burst(m_balancerPort, {chatRequest("team-conversation-1", FreeKey)});
            QCOMPARE(got.first().status, 200);
            if (turn == 0)
                account = got.first().header("x-aile-sharer");
            QCOMPARE(got.first().header("x-aile-sharer"), account);
            QTest::qWait(200); // a member's next turn comes after the answer, never within a millisecond
        }
    }

    void twoHundredRequestsAgainstABudgetOfFifty()
    {
        // $0.70 a day; each request quotes (and costs) 1.4 cents: about 50 are served, whatever
        // instance takes them, and the ledger stays within the budget plus what was in flight.
        QList<QByteArray> requests;
        for (int i = 0; i < 200; ++i)
            requests << chatRequest();
        const QList<RawAnswer> got = burst(m_balancerPort, requests);
        int served = 0, refused = 0;
        for (const RawAnswer &a : got) {
            if (a.status == 200)
                ++served;
            else if (a.status == 403 && a.body.contains("budget_exceeded"))
                ++refused;
        }
        QCOMPARE(served + refused, 200);
        QVERIFY2(served >= 45 && served <= 52, qPrintable(QStringLiteral("%1 served").arg(served)));
        const QString limited = Keys::ApiKey::fromPlain(QStringLiteral("test"), QLatin1String(TestKey), 0).id;
        auto limitedRows = [&] {
            QList<Store::LedgerEntry> rows = ledger();
            rows.removeIf([&](const Store::LedgerEntry &e) { return e.keyId != limited; });
            return rows;
        };
        QTRY_COMPARE_WITH_TIMEOUT(int(limitedRows().size()), served, 5000);
        double total = 0;
        for (const Store::LedgerEntry &e : limitedRows())
            total += e.costUsd;
        const double quote = total / served;
        QVERIFY2(total <= 0.7 + 2 * quote + 1e-9, qPrintable(QStringLiteral("ledger total $%1").arg(total)));
    }

    void killingAnInstanceMidLoadLosesNoAnsweredRow()
    {
        // kill -9 one instance while 60 requests are in flight through the balancer.
        QList<QByteArray> requests;
        for (int i = 0; i < 60; ++i)
            requests << chatRequest({}, FreeKey);
        QTimer::singleShot(150, [this] { stopInstance(m_a, SIGKILL); });
        const QList<RawAnswer> got = burst(m_balancerPort, requests);
        QVERIFY(m_a.process->state() == QProcess::NotRunning);
        QStringList answered;
        for (const RawAnswer &a : got)
            if (a.status == 200)
                answered << QString::fromLatin1(a.header("x-aile-request-id"));
        QVERIFY2(answered.size() >= 30, qPrintable(QStringLiteral("%1 answered").arg(answered.size())));

        // New requests go to the other instance.
        QList<QByteArray> after;
        for (int i = 0; i < 10; ++i)
            after << chatRequest({}, FreeKey);
        for (const RawAnswer &a : burst(m_balancerPort, after))
            QCOMPARE(a.status, 200);

        // The killed instance's answered rows were in its ledger journal: once it is back (as
        // systemd's Restart=always brings it), every answered request has its row.
        QVERIFY(startInstance(m_a));
        auto allBooked = [&] {
            QSet<QString> booked;
            for (const Store::LedgerEntry &e : ledger())
                booked.insert(e.traceId);
            return std::all_of(answered.begin(), answered.end(), [&](const QString &id) { return booked.contains(id); });
        };
        QTRY_VERIFY_WITH_TIMEOUT(allBooked(), 10000);
    }
};

QTEST_GUILESS_MAIN(TestTeamBalancer)
#include "TestTeamBalancer.moc"
