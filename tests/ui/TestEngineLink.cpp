// Which engine the window drives (issue 23): a window started while an Aile engine of this user
// holds its address attaches to it over HTTP (that engine's sharers, its requests live in the
// Traces page, its history paged through the API), Take over stops it and starts the embedded
// engine on the port, a port held by something else is named with "Use another port", and
// File ▸ Connect to a team server… drives a second engine on another port until Disconnect.
#include "charts/ChartsView.h"
#include "common/ManagementClient.h"
#include "core/AdminToken.h"
#include "host/EngineHost.h"
#include "mainwindow/EngineLink.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/StatusBanner.h"
#include "mainwindow/TeamServerDialog.h"
#include "sharers/SharerOrderModel.h"
#include "sharers/SharersView.h"
#include "traces/TraceTableModel.h"
#include "traces/TracesView.h"

#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QLineSeries>
#include <QtCharts/QStackedBarSeries>
#include <QtCore/QJsonArray>
#include <QtCore/QProcess>
#include <QtCore/QTemporaryDir>
#include <QtNetwork/QTcpServer>
#include <QtNetwork/QTcpSocket>
#include <QtTest/QtTest>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTabWidget>

using namespace Aile;

namespace {

/// The desktop window as main() builds it, on a data folder of its own, with its embedded engine
/// set to listen on port (not started: the window's EngineLink decides).
struct Desktop
{
    QTemporaryDir dir;
    std::unique_ptr<EngineHost> host;
    std::unique_ptr<Ui::MainWindow> window;

    void open(quint16 port, const QJsonObject &config = {})
    {
        EngineOptions options;
        options.dataDir = dir.filePath(QStringLiteral("data"));
        options.port = port;
        if (!config.isEmpty()) {
            options.configPath = dir.filePath(QStringLiteral("config.json"));
            QFile f(options.configPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(config).toJson());
        }
        QDir().mkpath(options.dataDir);
        host = std::make_unique<EngineHost>(options);
        Ui::MainWindow::Options w;
        w.dataDir = options.dataDir;
        w.settingsPath = dir.filePath(QStringLiteral("settings.ini"));
        w.showTrayIcon = false;
        window = std::make_unique<Ui::MainWindow>(host.get(), w);
        window->show();
        window->engineLink()->setLocal(QHostAddress::LocalHost, port, options.dataDir);
    }
    /// The data folder's admin token, as aile serve leaves it for the user's own programs.
    void holdToken(const QString &token)
    {
        QString error;
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("data"))));
        QVERIFY2(AdminToken::writeFile(AdminToken::filePath(dir.filePath(QStringLiteral("data"))), token, &error), qPrintable(error));
    }
    ~Desktop()
    {
        window.reset();
        host.reset();
    }
    QStringList sharerNames() const
    {
        QStringList names;
        const Ui::SharerOrderModel *m = window->sharersView()->model();
        for (int r = 0; r < m->rowCount(); ++r)
            names << m->index(r, Ui::SharerOrderModel::Name).data().toString();
        names.sort();
        return names;
    }
    QStringList traceIds() const
    {
        QStringList ids;
        const Ui::TraceTableModel *m = window->tracesView()->model();
        for (int r = 0; r < m->rowCount(); ++r)
            ids << m->trace(r).id;
        return ids;
    }
};

/// The real `aile serve` from the build on a free port, as the systemd unit runs it (its own
/// process: a second engine in the test's process would share its keychain client with the window's).
struct Serve
{
    QTemporaryDir dir;
    QProcess process;
    quint16 port = 0;

    bool start(const QJsonObject &config)
    {
        QFile f(dir.filePath(QStringLiteral("config.json")));
        if (!f.open(QIODevice::WriteOnly))
            return false;
        f.write(QJsonDocument(config).toJson());
        f.close();
        QTcpServer probe;
        probe.listen(QHostAddress::LocalHost);
        port = probe.serverPort();
        probe.close();
        process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        process.start(QStringLiteral(AILE_BIN),
                      {QStringLiteral("serve"), QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("data")), QStringLiteral("--config"),
                       f.fileName(), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:%1").arg(port)});
        return QTest::qWaitFor([this] { return Test::send(QStringLiteral("GET"), baseUrl() + QStringLiteral("/health"), {}, {}, 500).status == 200; },
                               10000);
    }
    QString baseUrl() const { return QStringLiteral("http://127.0.0.1:%1").arg(port); }
    ~Serve()
    {
        if (process.state() != QProcess::NotRunning) {
            process.terminate();
            process.waitForFinished(5000);
        }
    }
};

QString chat(const QString &baseUrl, const QString &content)
{
    const Test::Reply reply = Test::send(
        QStringLiteral("POST"), baseUrl + QStringLiteral("/v1/chat/completions"),
        QJsonDocument(QJsonObject{{QStringLiteral("model"), QStringLiteral("openai/gpt-5.2")},
                                  {QStringLiteral("messages"),
                                   QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), content}}}}})
            .toJson(),
        {{"authorization", QByteArray("Bearer ") + Test::TestKey}});
    return reply.status == 200 ? QString::fromUtf8(reply.header("x-aile-request-id")) : QString();
}

/// The sum of a line series' values (a chart's requests or failures over the hour).
double lineSum(QChart *chart, const QString &name)
{
    double sum = 0;
    for (QAbstractSeries *s : chart->series())
        if (auto *line = qobject_cast<QLineSeries *>(s); line && line->name() == name)
            for (const QPointF &p : line->points())
                sum += p.y();
    return sum;
}

/// One bar set of a spend chart (one value per day, oldest first), by its label.
QList<double> barValues(QChart *chart, const QString &label)
{
    QList<double> values;
    for (QAbstractSeries *s : chart->series())
        if (auto *bars = qobject_cast<QStackedBarSeries *>(s))
            for (QBarSet *set : bars->barSets())
                if (set->label() == label)
                    for (int i = 0; i < set->count(); ++i)
                        values.append(set->at(i));
    return values;
}

QString bannerText(const Desktop &d)
{
    return d.window->banner()->stateText();
}

} // namespace

class TestEngineLink : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // The team-server dialog keeps its token in the keychain: never this machine's real one.
        if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) // where none is set, make sure none is found
            qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/aile-engine-link-test");
        QVERIFY(m_upstream.listen());
    }

    void aWindowAttachesToTheEngineOfThisUserHoldingItsAddress()
    {
        // The systemd unit's aile serve, already on the address.
        Serve service;
        QVERIFY(service.start(Test::basicConfig(m_upstream.baseUrl())));
        const QString before = chat(service.baseUrl(), QStringLiteral("before the window"));
        QVERIFY(!before.isEmpty());

        Desktop d;
        d.holdToken(QLatin1String(Test::AdminToken));
        d.open(service.port);
        d.window->engineLink()->start();

        QTRY_COMPARE_WITH_TIMEOUT(d.window->engineLink()->kind(), Ui::EngineLink::Kind::Service, 5000);
        const QString pid = QString::number(service.process.processId());
        QTRY_COMPARE_WITH_TIMEOUT(bannerText(d), QStringLiteral("Attached to aile serve (pid %1) on 127.0.0.1:%2").arg(pid).arg(service.port), 5000);
        QVERIFY(d.window->windowTitle().contains(pid));
        QVERIFY(!d.host->isRunning()); // no second engine fighting for the port
        auto *takeOver = d.window->banner()->findChild<QPushButton *>(QStringLiteral("takeOverButton"));
        QVERIFY(takeOver && takeOver->isVisible());

        // That engine's sharers, and its history through its API (no store file of its own here).
        QTRY_COMPARE_WITH_TIMEOUT(d.sharerNames(), QStringList({QStringLiteral("claude-one"), QStringLiteral("openai-one")}), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(d.traceIds().contains(before), 5000);
        QVERIFY(d.window->storeReader() == nullptr);
        // A request made through it arrives live.
        const QString live = chat(service.baseUrl(), QStringLiteral("while the window watches"));
        QTRY_VERIFY_WITH_TIMEOUT(d.traceIds().contains(live), 5000);
        QCOMPARE(d.traceIds().first(), live);
    }

    void theChartsOfAnAttachedWindowAreTheServedEnginesFigures()
    {
        // aile serve with recorded traffic; the window has no store of its own to read.
        Serve service;
        QVERIFY(service.start(Test::basicConfig(m_upstream.baseUrl())));
        for (int i = 0; i < 3; ++i)
            QVERIFY(!chat(service.baseUrl(), QStringLiteral("recorded %1").arg(i)).isEmpty());
        // What the engine's history says: the requests' cost and first-token times.
        const Test::Reply history = Test::send(QStringLiteral("GET"), service.baseUrl() + QStringLiteral("/keys/usage/requests?limit=10"), {},
                                               {{"authorization", QByteArray("Bearer ") + Test::AdminToken}});
        QCOMPARE(history.status, 200);
        double cost = 0;
        for (const QJsonValue &v : history.json().value(QLatin1String("data")).toArray())
            cost += v.toObject().value(QLatin1String("costUsd")).toDouble();
        QVERIFY(cost > 0);

        Desktop d;
        d.holdToken(QLatin1String(Test::AdminToken));
        d.open(service.port);
        d.window->engineLink()->start();
        QTRY_COMPARE_WITH_TIMEOUT(d.window->engineLink()->kind(), Ui::EngineLink::Kind::Service, 5000);
        QVERIFY(d.window->storeReader() == nullptr);

        Ui::ChartsView *charts = d.window->chartsView();
        QSignalSpy drawn(charts, &Ui::ChartsView::drawn);
        d.window->tabs()->setCurrentWidget(charts);
        charts->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(lineSum(charts->perMinuteChart(), QStringLiteral("Requests")) == 3, 10000);
        QCOMPARE(lineSum(charts->perMinuteChart(), QStringLiteral("Failures")), 0.0);
        QCOMPARE(charts->firstTokenChart()->series().size(), 1);
        auto *firstToken = qobject_cast<QLineSeries *>(charts->firstTokenChart()->series().first());
        QCOMPARE(firstToken->name(), QStringLiteral("openai-one"));
        QCOMPARE(firstToken->count(), 3);
        // Spend per day per key: the key's name, today (the last day) holds the three requests' cost.
        const QList<double> byKey = barValues(charts->spendByKeyChart(), QStringLiteral("test"));
        QCOMPARE(byKey.size(), int(Ui::ChartsView::SpendDays));
        QVERIFY2(qAbs(byKey.last() - cost) < 1e-9, qPrintable(QStringLiteral("%1 vs %2").arg(byKey.last()).arg(cost)));
        QCOMPARE(std::accumulate(byKey.cbegin(), byKey.cend() - 1, 0.0), 0.0);
        const QList<double> byRoute = barValues(charts->spendByRouteChart(), QStringLiteral("(no route)"));
        QCOMPARE(byRoute.size(), int(Ui::ChartsView::SpendDays));
        QVERIFY(qAbs(byRoute.last() - cost) < 1e-9);
        QVERIFY2(charts->summaryText().contains(QLatin1String("API keys cost")), qPrintable(charts->summaryText()));

        // A request made through aile serve redraws the charts with it.
        QVERIFY(!chat(service.baseUrl(), QStringLiteral("while the charts are open")).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(lineSum(charts->perMinuteChart(), QStringLiteral("Requests")) == 4, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(qobject_cast<QLineSeries *>(charts->firstTokenChart()->series().first())->count(), 4, 5000);
        QVERIFY(drawn.count() >= 2);
    }

    void takeOverStopsTheServiceAndStartsTheEmbeddedEngineOnItsPort()
    {
        Serve service;
        QVERIFY(service.start(Test::basicConfig(m_upstream.baseUrl())));
        Desktop d;
        d.holdToken(QLatin1String(Test::AdminToken));
        d.open(service.port, Test::configWith(QJsonArray{Test::sharer(QStringLiteral("L00000000000000e1"), QStringLiteral("openai"),
                                                                      m_upstream.baseUrl(), {QStringLiteral("gpt-5.2")},
                                                                      QJsonObject{{QStringLiteral("name"), QStringLiteral("mine")}})}));
        d.window->engineLink()->start();
        QTRY_COMPARE_WITH_TIMEOUT(d.window->engineLink()->kind(), Ui::EngineLink::Kind::Service, 5000);
        // The words, with the service's own pid.
        QTRY_COMPARE_WITH_TIMEOUT(
            bannerText(d), QStringLiteral("Attached to aile serve (pid %1) on 127.0.0.1:%2").arg(service.process.processId()).arg(service.port),
            5000);
        QCOMPARE(d.window->windowTitle(), QStringLiteral("Aile — aile serve (pid %1)").arg(service.process.processId()));
        QTRY_COMPARE_WITH_TIMEOUT(d.sharerNames(), QStringList({QStringLiteral("claude-one"), QStringLiteral("openai-one")}), 5000);
        const QString live = chat(service.baseUrl(), QStringLiteral("through aile serve"));
        QTRY_VERIFY_WITH_TIMEOUT(d.traceIds().contains(live), 5000);

        QSignalSpy started(d.host.get(), &EngineHost::started);
        auto *takeOver = d.window->banner()->findChild<QPushButton *>(QStringLiteral("takeOverButton"));
        QVERIFY(takeOver && takeOver->isVisible());
        QTest::mouseClick(takeOver, Qt::LeftButton);
        // POST /admin/shutdown: aile serve exits 0, and the embedded engine takes its port.
        QTRY_COMPARE_WITH_TIMEOUT(service.process.state(), QProcess::NotRunning, 10000);
        QCOMPARE(service.process.exitStatus(), QProcess::NormalExit);
        QCOMPARE(service.process.exitCode(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000); // it may have started while the line above waited
        QCOMPARE(started.first().at(1).value<quint16>(), service.port);
        QCOMPARE(d.window->engineLink()->kind(), Ui::EngineLink::Kind::Embedded);
        QTRY_COMPARE(bannerText(d), QStringLiteral("Proxy listening on 127.0.0.1:%1").arg(service.port));
        QVERIFY(!d.window->banner()->actionButton()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(d.sharerNames(), QStringList{QStringLiteral("mine")}, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!d.traceIds().contains(live), 5000); // the service's history left with it
        QCOMPARE(d.window->windowTitle(), QStringLiteral("Aile"));
    }

    void aPortHeldBySomethingElseIsNamedAndAnotherPortOffered()
    {
        // Not Aile: a web server that answers every request with its own 404.
        QTcpServer other;
        QVERIFY(other.listen(QHostAddress::LocalHost));
        connect(&other, &QTcpServer::newConnection, this, [&other] {
            QTcpSocket *s = other.nextPendingConnection();
            connect(s, &QTcpSocket::readyRead, s, [s] {
                s->readAll();
                s->write("HTTP/1.1 404 Not Found\r\nServer: nginx/1.22\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
                s->disconnectFromHost();
            });
        });

        Desktop d;
        d.open(other.serverPort());
        d.window->engineLink()->start();
        QTRY_VERIFY_WITH_TIMEOUT(!d.window->engineLink()->heldBy().isEmpty(), 5000);
        const QString text = bannerText(d);
        QVERIFY2(text.contains(QStringLiteral("127.0.0.1:%1 is held by a web server that is not Aile (nginx/1.22)").arg(other.serverPort())),
                 qPrintable(text));
        // This process holds it, and this user may see that.
        QVERIFY2(text.contains(QStringLiteral("(pid %1)").arg(QCoreApplication::applicationPid())), qPrintable(text));
        QVERIFY(!d.host->isRunning());

        auto *another = d.window->banner()->findChild<QPushButton *>(QStringLiteral("useAnotherPortButton"));
        QVERIFY(another && another->isVisible());
        QSignalSpy started(d.host.get(), &EngineHost::started);
        QTest::mouseClick(another, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000); // it may have started while the line above waited
        const quint16 port = started.first().at(1).value<quint16>();
        QVERIFY(port != 0 && port != other.serverPort());
        QTRY_COMPARE(bannerText(d), QStringLiteral("Proxy listening on 127.0.0.1:%1").arg(port));
    }

    void aTeamServerIsDrivenOverHttpUntilDisconnect()
    {
        Serve team;
        QVERIFY(team.start(Test::basicConfig(m_upstream.baseUrl())));
        const QString old = chat(team.baseUrl(), QStringLiteral("on the team server"));

        Desktop d;
        d.open(0, Test::configWith(
                      QJsonArray{Test::sharer(QStringLiteral("L00000000000000e1"), QStringLiteral("openai"), m_upstream.baseUrl(),
                                              {QStringLiteral("gpt-5.2")}, QJsonObject{{QStringLiteral("name"), QStringLiteral("mine")}})}));
        QSignalSpy started(d.host.get(), &EngineHost::started);
        d.window->engineLink()->start();
        QTRY_COMPARE_WITH_TIMEOUT(started.count(), 1, 10000); // it may have started while the line above waited
        QTRY_COMPARE_WITH_TIMEOUT(d.sharerNames(), QStringList{QStringLiteral("mine")}, 5000);

        // File ▸ Connect to a team server…: a plain http:// address elsewhere and a wrong token are refused.
        d.window->showTeamServerDialog();
        auto *dialog = d.window->findChild<Ui::TeamServerDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        QSignalSpy checked(dialog, &Ui::TeamServerDialog::checked);
        dialog->urlEdit()->setText(QStringLiteral("http://team.example.org"));
        dialog->tokenEdit()->setText(QStringLiteral("whatever"));
        dialog->tryConnect();
        QCOMPARE(checked.count(), 1);
        QVERIFY2(dialog->message().startsWith(QLatin1String("team.example.org is plain http://")), qPrintable(dialog->message()));
        dialog->urlEdit()->setText(team.baseUrl());
        dialog->tokenEdit()->setText(QStringLiteral("not-the-token"));
        dialog->tryConnect();
        QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 2, 5000);
        QVERIFY2(dialog->message().startsWith(QLatin1String("The server refused the token: the management API needs the admin token")),
                 qPrintable(dialog->message()));
        QCOMPARE(d.window->engineLink()->kind(), Ui::EngineLink::Kind::Embedded);

        dialog->tokenEdit()->setText(QLatin1String(Test::AdminToken));
        dialog->tryConnect();
        QTRY_COMPARE_WITH_TIMEOUT(d.window->engineLink()->kind(), Ui::EngineLink::Kind::TeamServer, 5000);
        QVERIFY(!dialog->isVisible());
        QCOMPARE(d.window->windowTitle(), QStringLiteral("Aile — team server %1").arg(team.baseUrl()));
        QCOMPARE(bannerText(d), QStringLiteral("Connected to the team server %1").arg(team.baseUrl()));
        // The team's sharers and traces, nothing of the local store.
        QTRY_COMPARE_WITH_TIMEOUT(d.sharerNames(), QStringList({QStringLiteral("claude-one"), QStringLiteral("openai-one")}), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(d.traceIds().contains(old), 5000);
        const QString live = chat(team.baseUrl(), QStringLiteral("watched from the app"));
        QTRY_VERIFY_WITH_TIMEOUT(d.traceIds().contains(live), 5000);
        QVERIFY(d.window->storeReader() == nullptr);
        // The token is not in the settings file.
        QFile settings(d.dir.filePath(QStringLiteral("settings.ini")));
        QVERIFY(settings.open(QIODevice::ReadOnly));
        QVERIFY(!settings.readAll().contains(Test::AdminToken));

        // Disconnect: back to the engine on this computer; the team's rows leave.
        auto *disconnect = d.window->banner()->findChild<QPushButton *>(QStringLiteral("disconnectButton"));
        QVERIFY(disconnect && disconnect->isVisible());
        QTest::mouseClick(disconnect, Qt::LeftButton);
        QCOMPARE(d.window->engineLink()->kind(), Ui::EngineLink::Kind::Embedded);
        QTRY_COMPARE_WITH_TIMEOUT(d.sharerNames(), QStringList{QStringLiteral("mine")}, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!d.traceIds().contains(old) && !d.traceIds().contains(live), 5000);
        QCOMPARE(d.window->windowTitle(), QStringLiteral("Aile"));
        QVERIFY(bannerText(d).startsWith(QLatin1String("Proxy listening on 127.0.0.1:")));
    }

private:
    Test::FakeUpstream m_upstream;
};

QTEST_MAIN(TestEngineLink)
#include "TestEngineLink.moc"
