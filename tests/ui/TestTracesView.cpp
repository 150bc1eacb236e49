// The Traces view on a store: filters narrow the table, the detail pane lists every attempt and
// refusal in order with a timeline, and the filtered rows export as JSON and CSV.
#include "api/values/JsonFields.h"
#include "ReadWait.h"
#include "store/Store.h"
#include "traces/AttemptTimeline.h"
#include "traces/TraceColumns.h"
#include "traces/TraceDetailPane.h"
#include "traces/TraceExport.h"
#include "traces/TraceFilterBar.h"
#include "traces/TraceTableModel.h"
#include "traces/TracesView.h"

#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QTemporaryDir>
#include <QtTest/QtTest>
#include <QtWidgets/QComboBox>
#include <QtWidgets/QLabel>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTableView>
#include <QtWidgets/QTableWidget>

using namespace Aile;

namespace {

constexpr qint64 Base = 1'780'000'000'000;

Store::AttemptRecord attempt(int seq, const QString &sharer, int status, const QString &outcome, const QString &reason, qint64 startedMs,
                             qint64 ttfbMs, qint64 durationMs, bool dispatched = true)
{
    Store::AttemptRecord a;
    a.seq = seq;
    a.sharer = QStringLiteral("L000000000000000") + QString::number(seq);
    a.sharerName = sharer;
    a.status = status;
    a.outcome = outcome;
    a.reason = reason;
    a.startedMs = startedMs;
    a.ttfbMs = ttfbMs;
    a.durationMs = durationMs;
    a.dispatched = dispatched;
    return a;
}

// A request that failed over twice: a 429, a sharer passed over while cooling, then served.
Store::TraceRecord failover()
{
    Store::TraceRecord t;
    t.id = QStringLiteral("req_failover");
    t.startedMs = Base + 5000;
    t.keyId = QStringLiteral("k_1");
    t.keyName = QStringLiteral("laptop");
    t.client = QStringLiteral("claude-code");
    t.endpoint = QStringLiteral("/v1/messages");
    t.modelAsked = QStringLiteral("claude-sonnet-5");
    t.modelServed = QStringLiteral("claude/claude-sonnet-5");
    t.sharer = QStringLiteral("L0000000000000003");
    t.sharerName = QStringLiteral("team, \"backup\""); // a name that needs quoting in CSV
    t.status = 200;
    t.attempts = 3;
    t.ttfbMs = 1400;
    t.durationMs = 3100;
    t.inputTokens = 1200;
    t.outputTokens = 300;
    t.costUsd = 0.0081;
    t.affinity = QStringLiteral("moved: failed"); // the conversation was on "work", which failed
    t.pin = QJsonObject{{QStringLiteral("sharer"), t.sharer},
                        {QStringLiteral("sharerName"), t.sharerName},
                        {QStringLiteral("by"), QJsonArray{QStringLiteral("tool call"), QStringLiteral("session")}},
                        {QStringLiteral("foundBy"), QStringLiteral("session")},
                        {QStringLiteral("untilMs"), t.startedMs + 300'000}};
    t.stream = true;
    t.attemptRows = {
        attempt(1, QStringLiteral("work"), 429, QStringLiteral("failed_over"), QStringLiteral("rate limited"), t.startedMs, 300, 320),
        attempt(2, QStringLiteral("home"), 0, QStringLiteral("refused"), QStringLiteral("cooling for 40 s"), t.startedMs + 330, -1, 0, false),
        attempt(3, t.sharerName, 200, QStringLiteral("served"), QString(), t.startedMs + 340, 1060, 2760)};
    return t;
}

Store::TraceRecord simple(const QString &id, qint64 startedMs, int status, const QString &model)
{
    Store::TraceRecord t;
    t.id = id;
    t.startedMs = startedMs;
    t.keyId = QStringLiteral("k_2");
    t.keyName = QStringLiteral("ci");
    t.modelAsked = model;
    t.modelServed = model;
    t.sharerName = QStringLiteral("work");
    t.status = status;
    t.attempts = 1;
    t.error = status >= 400 ? QStringLiteral("=HYPERLINK(\"x\") upstream said no") : QString();
    return t;
}

} // namespace

class TestTracesView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_path;
    std::unique_ptr<Store::StoreReader> m_reader;

private Q_SLOTS:
    void initTestCase()
    {
        // Formatted numbers are compared as an English reader sees them, whatever the host's locale.
        QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates));
        m_path = m_dir.filePath(QStringLiteral("aile.db"));
        Store::Store writer(m_path);
        QVERIFY(writer.open(nullptr));
        QVERIFY(writer.record({simple(QStringLiteral("req_a"), Base + 1000, 200, QStringLiteral("openai/gpt-5.2")),
                               simple(QStringLiteral("req_b"), Base + 2000, 503, QStringLiteral("openai/gpt-5.2")),
                               simple(QStringLiteral("req_c"), Base + 3000, 200, QStringLiteral("deepseek/deepseek-chat")), failover()},
                              {}));
        m_reader = Test::openedReader(m_path);
        QVERIFY(m_reader);
    }

    void filtersNarrowTheTable()
    {
        Ui::TracesView view;
        view.setReader(m_reader.get(), m_path);
        view.setKeys(Api::Json::listOf<Api::KeyInfo>(
            QJsonArray{QJsonObject{{QStringLiteral("id"), QStringLiteral("k_1")}, {QStringLiteral("name"), QStringLiteral("laptop")}},
                       QJsonObject{{QStringLiteral("id"), QStringLiteral("k_2")}, {QStringLiteral("name"), QStringLiteral("ci")}}}));
        QTRY_COMPARE(view.model()->rowCount(), 4);

        auto *status = view.findChild<QComboBox *>(QStringLiteral("filterStatus"));
        status->setCurrentIndex(status->findData(503));
        QTRY_COMPARE(view.model()->rowCount(), 1);
        QCOMPARE(view.model()->trace(0).id, QStringLiteral("req_b"));
        status->setCurrentIndex(0);

        auto *key = view.findChild<QComboBox *>(QStringLiteral("filterKey"));
        key->setCurrentIndex(key->findData(QStringLiteral("k_1")));
        QTRY_COMPARE(view.model()->rowCount(), 1);
        QCOMPARE(view.model()->trace(0).id, QStringLiteral("req_failover"));

        auto *clear = view.findChild<QPushButton *>(QStringLiteral("filterClear"));
        QTest::mouseClick(clear, Qt::LeftButton);
        QTRY_COMPARE(view.model()->rowCount(), 4);

        auto *model = view.findChild<QComboBox *>(QStringLiteral("filterModel"));
        model->setEditText(QStringLiteral("deepseek/deepseek-chat"));
        QTRY_COMPARE(view.model()->rowCount(), 1); // typing is debounced
        model->setEditText(QString());
        QTRY_COMPARE(view.model()->rowCount(), 4);

        auto *text = view.findChild<QLineEdit *>(QStringLiteral("filterText"));
        QTest::keyClicks(text, QStringLiteral("BACKUP")); // case-insensitive, as SQLite's LIKE
        QTRY_COMPARE(view.model()->rowCount(), 1);
        QCOMPARE(view.model()->trace(0).id, QStringLiteral("req_failover"));
    }

    void theDetailPaneListsAttemptsAndRefusalsInOrder()
    {
        Ui::TracesView view;
        view.setReader(m_reader.get(), m_path);
        view.resize(1000, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTRY_COMPARE(view.model()->rowCount(), 4);
        const int row = view.model()->rowOf(QStringLiteral("req_failover"));
        QCOMPARE(row, 0);
        QTableView *table = view.table();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(view.model()->index(row, 1)).center());

        QTableWidget *attempts = view.detailPane()->attemptsTable();
        QTRY_COMPARE(attempts->rowCount(), 3);
        const QStringList outcomes{attempts->item(0, Ui::TraceDetailPane::Outcome)->text(), attempts->item(1, Ui::TraceDetailPane::Outcome)->text(),
                                   attempts->item(2, Ui::TraceDetailPane::Outcome)->text()};
        QCOMPARE(outcomes, (QStringList{QStringLiteral("failed over"), QStringLiteral("refused"), QStringLiteral("served")}));
        QCOMPARE(attempts->item(0, Ui::TraceDetailPane::Status)->text(), QStringLiteral("429"));
        QCOMPARE(attempts->item(1, Ui::TraceDetailPane::Status)->text(), QStringLiteral("not dialled"));
        QCOMPARE(attempts->item(1, Ui::TraceDetailPane::Reason)->text(), QStringLiteral("cooling for 40 s"));
        QCOMPARE(attempts->item(2, Ui::TraceDetailPane::FirstByte)->text(), QStringLiteral("1.06 s"));
        QCOMPARE(attempts->item(2, Ui::TraceDetailPane::Duration)->text(), QStringLiteral("2.76 s"));
        // The session-affinity verdict and the conversation's pin after the request.
        auto *summary = view.findChild<QLabel *>(QStringLiteral("traceSummary"));
        QVERIFY(summary);
        QVERIFY2(summary->text().contains(QLatin1String("affinity moved: failed")), qPrintable(summary->text()));
        QVERIFY2(summary->text().contains(QLatin1String("Conversation pinned to team, \"backup\" by its tool call, the session")),
                 qPrintable(summary->text()));
        QVERIFY(summary->text().contains(QLatin1String("found by the session")));

        auto *timeline = view.findChild<Ui::AttemptTimeline *>(QStringLiteral("attemptTimeline"));
        QVERIFY(timeline);
        const QString described = timeline->accessibleDescription();
        QVERIFY2(described.indexOf(QLatin1String("#1 work")) < described.indexOf(QLatin1String("#2 home")), qPrintable(described));
        QVERIFY(described.indexOf(QLatin1String("#2 home")) < described.indexOf(QLatin1String("#3 team")));
        QVERIFY(described.contains(QLatin1String("refused")));
        QTRY_VERIFY(timeline->height() >= timeline->sizeHint().height()); // three lanes fit

        // The keyboard moves through the rows and the pane follows.
        table->setFocus();
        QTest::keyClick(table, Qt::Key_Down);
        QCOMPARE(table->currentIndex().row(), 1);
        QTRY_COMPARE(attempts->rowCount(), 0); // req_c was stored without attempt rows
    }

    void exportsTheFilteredRowsAsJson()
    {
        Ui::TraceFilter filter;
        filter.keyId = QStringLiteral("ci");
        const QString file = m_dir.filePath(QStringLiteral("ci.json"));
        QString error;
        QCOMPARE(Ui::TraceExport::fromStore(m_path, filter, Ui::ExportFormat::Json, file, &error), 3);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonParseError parse;
        const QJsonArray rows = QJsonDocument::fromJson(f.readAll(), &parse).array();
        QCOMPARE(parse.error, QJsonParseError::NoError);
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows.at(0).toObject().value(QLatin1String("id")).toString(), QStringLiteral("req_c"));

        const QString all = m_dir.filePath(QStringLiteral("all.json"));
        QCOMPARE(Ui::TraceExport::fromStore(m_path, {}, Ui::ExportFormat::Json, all, &error), 4);
        QFile g(all);
        QVERIFY(g.open(QIODevice::ReadOnly));
        const QJsonObject first = QJsonDocument::fromJson(g.readAll()).array().at(0).toObject();
        QCOMPARE(first.value(QLatin1String("attemptRows")).toArray().size(), 3); // JSON keeps the attempts
    }

    void exportsCsvThatSpreadsheetsReadSafely()
    {
        const QString file = m_dir.filePath(QStringLiteral("all.csv"));
        QString error;
        QCOMPARE(Ui::TraceExport::fromStore(m_path, {}, Ui::ExportFormat::Csv, file, &error), 4);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().split('\n');
        QCOMPARE(lines.size(), 6); // header, four rows, the empty rest after the last newline
        QVERIFY(lines.at(0).startsWith("time,key,tool,model_asked,model_served,route,sharer,status,"));
        QVERIFY(lines.at(1).contains(",\"team, \"\"backup\"\"\","));
        QVERIFY(lines.at(1).contains("2026-05-28T"));
        // An error text that starts like a formula is defused.
        QVERIFY2(lines.at(3).contains("\"'=HYPERLINK(\"\"x\"\") upstream said no\""), lines.at(3).constData());
        QCOMPARE(Ui::TraceExport::formatForPath(QStringLiteral("a.CSV")), Ui::ExportFormat::Csv);
        QCOMPARE(Ui::TraceExport::formatForPath(QStringLiteral("a.json")), Ui::ExportFormat::Json);
    }

    void theViewExportsOffTheGuiThread()
    {
        Ui::TracesView view;
        view.setReader(m_reader.get(), m_path);
        auto *status = view.findChild<QComboBox *>(QStringLiteral("filterStatus"));
        status->setCurrentIndex(status->findData(200));
        QSignalSpy finished(&view, &Ui::TracesView::exportFinished);
        const QString file = m_dir.filePath(QStringLiteral("served.csv"));
        view.exportTo(file);
        QTRY_COMPARE(finished.count(), 1);
        QCOMPARE(finished.first().at(0).toInt(), 3);
        QVERIFY(finished.first().at(1).toString().isEmpty());
        QVERIFY(QFile::exists(file));
    }

    void aTraceAskedForWhileThePaceHoldsItIsSelectedWhenItIsMerged()
    {
        // A connection test's trace can come in a batch the pace holds (TraceTableModel): it is
        // selected when that batch is merged, not lost.
        Ui::TracesView view;
        qint64 now = 0;
        view.model()->setLiveClock([&now] { return now; });
        view.setReader(nullptr, {});
        view.addLive({simple(QStringLiteral("req_first"), Base + 1000, 200, QStringLiteral("openai/gpt-5.2"))});
        now += 100;
        view.addLive({simple(QStringLiteral("req_test"), Base + 2000, 200, QStringLiteral("openai/gpt-5.2"))});
        QCOMPARE(view.model()->rowOf(QStringLiteral("req_test")), -1); // held
        view.revealTrace(QStringLiteral("req_test"));
        QVERIFY(!view.table()->currentIndex().isValid());
        view.model()->mergeHeldLive();
        const int row = view.model()->rowOf(QStringLiteral("req_test"));
        QCOMPARE(row, 0);
        QCOMPARE(view.table()->currentIndex().row(), row);
        QCOMPARE(view.findChild<QLabel *>(QStringLiteral("tracesCount"))->text(), QStringLiteral("Traces: 2"));
    }

    void aFailedExportLeavesNoFile()
    {
        QString error;
        const QString file = m_dir.filePath(QStringLiteral("missing-dir/x.json"));
        QCOMPARE(Ui::TraceExport::fromRows({failover()}, Ui::ExportFormat::Json, file, &error), -1);
        QVERIFY(!error.isEmpty());
        QVERIFY(!QFile::exists(file));
    }
};

QTEST_MAIN(TestTracesView)
#include "TestTracesView.moc"
