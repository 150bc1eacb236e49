// The main window against the real engine: it opens, shows the proxy's address and sharers, a
// request sent through the proxy appears in the traces table with its attempts, and closing the
// window stops the engine.
#include "host/EngineHost.h"
#include "dialogs/ConnectToolDialog.h"
#include "sharers/SharerOrderModel.h"
#include "common/ManagementClient.h"
#include "mainwindow/MainWindow.h"
#include "mainwindow/StatusBanner.h"
#include "mainwindow/TrayIcon.h"
#include "traces/TraceColumns.h"
#include "traces/TraceDetailPane.h"
#include "traces/TraceTableModel.h"
#include "traces/TracesView.h"
#include "testsupport/FakeUpstream.h"
#include "testsupport/TestEngine.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTableWidget>

using namespace Aile;
using namespace Aile::Test;

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<FakeUpstream> m_upstream;
    std::unique_ptr<EngineHost> m_host;
    std::unique_ptr<Ui::MainWindow> m_window;

    QTableView *tracesTable() const { return m_window->findChild<QTableView *>(QStringLiteral("tracesTable")); }

    Reply chat(const QString &model)
    {
        const QJsonObject body{{QStringLiteral("model"), model},
                               {QStringLiteral("max_tokens"), 50},
                               {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                   {QStringLiteral("content"), QStringLiteral("hi")}}}}};
        return send(QStringLiteral("POST"), m_window->baseUrl() + QStringLiteral("/v1/chat/completions"), QJsonDocument(body).toJson(),
                    {{"authorization", QByteArray("Bearer ") + TestKey}});
    }

    QString cell(int row, int column) const
    {
        QAbstractItemModel *model = tracesTable()->model();
        return model->data(model->index(row, column)).toString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        // Formatted numbers are compared as an English reader sees them, whatever the host's locale.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        QVERIFY(m_dir.isValid());
        m_upstream = std::make_unique<FakeUpstream>();
        QVERIFY(m_upstream->listen());
        const QString configPath = m_dir.filePath(QStringLiteral("config.json"));
        QFile config(configPath);
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write(QJsonDocument(basicConfig(m_upstream->baseUrl())).toJson());
        config.close();

        EngineOptions options;
        options.dataDir = m_dir.filePath(QStringLiteral("data"));
        options.port = 0;
        options.configPath = configPath;
        m_host = std::make_unique<EngineHost>(options);
        Ui::MainWindow::Options windowOptions;
        windowOptions.dataDir = options.dataDir;
        windowOptions.configPath = configPath;
        windowOptions.settingsPath = m_dir.filePath(QStringLiteral("settings.ini"));
        windowOptions.showTrayIcon = false;
        m_window = std::make_unique<Ui::MainWindow>(m_host.get(), windowOptions);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
        m_host->start();
    }

    void cleanupTestCase()
    {
        m_window.reset();
        m_host.reset();
        m_upstream.reset();
    }

    void showsTheProxyAddress()
    {
        QTRY_COMPARE(m_window->banner()->state(), Ui::ProxyState::Listening);
        auto *status = m_window->findChild<QLabel *>(QStringLiteral("proxyStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().contains(QLatin1String("127.0.0.1:")), qPrintable(status->text()));
        QVERIFY(m_window->baseUrl().startsWith(QLatin1String("http://127.0.0.1:")));
        QVERIFY(m_window->trayIcon()->toolTipText().contains(m_window->banner()->address()));
    }

    void showsTheSharers()
    {
        auto *table = m_window->findChild<QTableView *>(QStringLiteral("sharersTable"));
        QVERIFY(table);
        QTRY_COMPARE(table->model()->rowCount(), 2);
        QStringList names;
        for (int row = 0; row < 2; ++row)
            names << table->model()->index(row, Ui::SharerOrderModel::Name).data().toString();
        names.sort();
        QCOMPARE(names, (QStringList{QStringLiteral("claude-one"), QStringLiteral("openai-one")}));
    }

    void aRequestThroughTheEngineAppearsInTheTracesTable()
    {
        QTRY_VERIFY(m_window->storeReader()); // the window reads the store, off the GUI thread
        QVERIFY(tracesTable());
        QCOMPARE(tracesTable()->model()->rowCount(), 0);

        const Reply r = chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(r.status, 200);
        const QString traceId = QString::fromUtf8(r.header("x-aile-request-id"));

        QTRY_COMPARE(tracesTable()->model()->rowCount(), 1);
        QCOMPARE(tracesTable()->model()->index(0, 0).data(Ui::TraceTableModel::TraceIdRole).toString(), traceId);
        QCOMPARE(cell(0, Ui::TraceColumns::ModelAsked), QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(cell(0, Ui::TraceColumns::Status), QStringLiteral("200"));
        QCOMPARE(cell(0, Ui::TraceColumns::Key), QStringLiteral("test"));
        QCOMPARE(cell(0, Ui::TraceColumns::Sharer), QStringLiteral("openai-one"));
        QCOMPARE(cell(0, Ui::TraceColumns::Attempts), QStringLiteral("1"));
    }

    void aFailedRequestAppearsWithItsStatus()
    {
        m_upstream->enqueue(FakeUpstream::error(400, QStringLiteral("bad request from upstream")));
        const Reply r = chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(r.status, 400);
        QTRY_COMPARE(tracesTable()->model()->rowCount(), 2);
        QCOMPARE(cell(0, Ui::TraceColumns::Status), QStringLiteral("400"));
        QVERIFY(tracesTable()->model()->index(0, 0).data(Ui::TraceTableModel::FailedRole).toBool());
    }

    void clickingARowShowsItsAttempts()
    {
        m_window->tabs()->setCurrentWidget(m_window->tracesView());
        QTableView *table = tracesTable();
        const int servedRow = 1; // newest first: the 400 is on top
        const QRect rect = table->visualRect(table->model()->index(servedRow, Ui::TraceColumns::ModelAsked));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, rect.center());
        QCOMPARE(table->currentIndex().row(), servedRow);
        auto *attempts = m_window->findChild<QTableWidget *>(QStringLiteral("attemptsTable"));
        QVERIFY(attempts);
        QTRY_COMPARE(attempts->rowCount(), 1);
        QCOMPARE(attempts->item(0, Ui::TraceDetailPane::Sharer)->text(), QStringLiteral("openai-one"));
        QCOMPARE(attempts->item(0, Ui::TraceDetailPane::Status)->text(), QStringLiteral("200"));
        QCOMPARE(attempts->item(0, Ui::TraceDetailPane::Outcome)->text(), QStringLiteral("served"));
        auto *summary = m_window->findChild<QLabel *>(QStringLiteral("traceSummary"));
        QVERIFY(summary->text().contains(QLatin1String("openai/gpt-5.2")));
    }

    void theSearchFieldFiltersLiveAndStoredRows()
    {
        auto *search = m_window->findChild<QLineEdit *>(QStringLiteral("filterText"));
        QVERIFY(search);
        search->setText(QStringLiteral("claude"));
        QTRY_COMPARE(tracesTable()->model()->rowCount(), 0);
        // A live row that matches shows up under the filter.
        const QJsonObject body{{QStringLiteral("model"), QStringLiteral("claude/claude-sonnet-5")},
                               {QStringLiteral("max_tokens"), 50},
                               {QStringLiteral("messages"), QJsonArray{QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                                                                   {QStringLiteral("content"), QStringLiteral("hi")}}}}};
        const Reply r = send(QStringLiteral("POST"), m_window->baseUrl() + QStringLiteral("/v1/messages"), QJsonDocument(body).toJson(),
                             {{"x-api-key", TestKey}, {"anthropic-version", "2023-06-01"}});
        QCOMPARE(r.status, 200);
        QTRY_COMPARE(tracesTable()->model()->rowCount(), 1);
        QCOMPARE(cell(0, Ui::TraceColumns::ModelAsked), QStringLiteral("claude/claude-sonnet-5"));
        search->clear();
        QTRY_COMPARE(tracesTable()->model()->rowCount(), 3);
    }

    void aMinimisedWindowTakesItsLiveRowsWhenRestored()
    {
        // Minimised, nobody sees the table: a batch is kept aside and the table does not change;
        // restored, the rows are there at once.
        const int before = tracesTable()->model()->rowCount();
        m_window->showMinimized();
        QVERIFY(m_window->tracesView()->model()->isLiveDeferred());
        QSignalSpy batches(m_window->managementClient(), &Ui::ManagementClient::tracesRecorded);
        const Reply r = chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(r.status, 200);
        const QString traceId = QString::fromUtf8(r.header("x-aile-request-id"));
        QTRY_VERIFY(!batches.isEmpty()); // the window has taken the batch
        QCOMPARE(tracesTable()->model()->rowCount(), before);
        m_window->showNormal();
        QVERIFY(!m_window->tracesView()->model()->isLiveDeferred());
        QCOMPARE(tracesTable()->model()->rowCount(), before + 1);
        QCOMPARE(tracesTable()->model()->index(0, 0).data(Ui::TraceTableModel::TraceIdRole).toString(), traceId);
        QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    }

    void todaysSpendShowsInTheBannerAndTheTray()
    {
        // The served requests were billed at list price; the window reads the ledger itself.
        QTRY_VERIFY(m_window->spentToday() > 0);
        auto *spent = m_window->findChild<QLabel *>(QStringLiteral("spentToday"));
        QVERIFY2(spent->text().startsWith(QLatin1String("Today: $0.0")), qPrintable(spent->text()));
        QVERIFY(m_window->trayIcon()->toolTipText().contains(QLatin1String("Spent today: $0.0")));
    }

    void connectAToolTestsTheConnectionAndShowsItsTrace()
    {
        QTest::keyClick(m_window.get(), Qt::Key_K, Qt::ControlModifier);
        Ui::ConnectToolDialog *dialog = m_window->connectToolDialog();
        QTRY_VERIFY(dialog->isVisible());
        // The configuration file provisions the test key in plain text: it is offered at once.
        QCOMPARE(dialog->key(), QLatin1String(TestKey));
        QVERIFY(dialog->blockText(0).contains(m_window->baseUrl()));
        dialog->selectTool(Ui::ClientSnippets::Tool::OpenAiSdk);
        dialog->findChild<QComboBox *>(QStringLiteral("modelChoice"))->setEditText(QStringLiteral("openai/gpt-5.2"));
        QSignalSpy finished(dialog, &Ui::ConnectToolDialog::testFinished);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("testConnection")), Qt::LeftButton);
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toInt(), 200);
        const QString traceId = finished.first().at(1).toString();

        m_window->tabs()->setCurrentIndex(0);
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("showTrace")), Qt::LeftButton);
        QCOMPARE(m_window->tabs()->currentWidget(), m_window->tracesView());
        QTRY_COMPARE(tracesTable()->currentIndex().data(Ui::TraceTableModel::TraceIdRole).toString(), traceId);
        dialog->hide();
    }

    void closingTheWindowStopsTheEngine()
    {
        QSignalSpy stopped(m_host.get(), &EngineHost::stopped);
        QSignalSpy quit(m_window.get(), &Ui::MainWindow::quitRequested);
        QVERIFY(m_window->close());
        QVERIFY(!m_window->isVisible());
        QCOMPARE(quit.count(), 1);
        QTRY_COMPARE(stopped.count(), 1);
        QTRY_VERIFY(!m_host->isRunning());
        // Nothing listens any more.
        const Reply r = chat(QStringLiteral("openai/gpt-5.2"));
        QCOMPARE(r.status, 0);
        // The layout was saved on the way out.
        QSettings settings(m_dir.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
        QVERIFY(!settings.value(QStringLiteral("window/geometry")).toByteArray().isEmpty());
    }
};

QTEST_MAIN(TestMainWindow)
#include "TestMainWindow.moc"
