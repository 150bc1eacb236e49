// From a trace to a fix (docs/gui.md): in the Traces page, an attempt row offers the action its
// outcome suggests and runs it through the management API (recorded as a trace of client
// aile-action); a row refused by a key setting opens the key's Routing with that field
// highlighted; "Why this sharer?" says the decision in words. With AILE_TRACE_ACTIONS_SCREENSHOT
// set to a PNG path, the window is saved there (docs/screenshots/trace-actions.png).
#include "WindowUnderTest.h"

#include "keys/KeyRoutingDialog.h"
#include "mainwindow/MainWindow.h"
#include "testsupport/FakeUpstream.h"
#include "traces/AttemptActions.h"
#include "traces/TraceDetailPane.h"
#include "traces/TraceTableModel.h"
#include "traces/TracesView.h"

#include <QtTest/QtTest>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLabel>
#include <QtWidgets/QPushButton>
#include <QtWidgets/QTabWidget>
#include <QtWidgets/QTableWidget>

using namespace Aile;

namespace {
const QString A = QStringLiteral("L00000000000000a1"); // first tier: fails, then cools
const QString B = QStringLiteral("L00000000000000b1"); // serves
const QString C = QStringLiteral("L00000000000000c1"); // top tier, never tested: the key's verified-only removes it
const QString Model = QStringLiteral("gpt-5.2");
} // namespace

class TestTraceRowActions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void suggestions_data()
    {
        QTest::addColumn<QString>("skip");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("dispatched");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("lever");
        using K = Ui::AttemptAction::Kind;
        QTest::newRow("cooling") << "cooldown" << 0 << false << "cooling down (server error)" << int(K::ClearCooldown) << "";
        QTest::newRow("dead key") << "" << 401 << true << "invalid api key" << int(K::MarkFixed) << "";
        QTest::newRow("a failed model") << "" << 404 << true << "model not found" << int(K::Retest) << "";
        QTest::newRow("verified only") << "filter" << 0 << false << "has not passed a test of gpt-5.2 (this API key's verified-only)"
                                       << int(K::OpenRouting) << "verifiedOnly";
        QTest::newRow("a price ceiling") << "filter" << 0 << false << "priced above this API key's max price ($2/Mtok > $1/Mtok)"
                                         << int(K::OpenRouting) << "ceiling";
        QTest::newRow("the cost cap") << "cost_cap" << 0 << false << "quotes $0.01, above the cost cap $0.001 (this API key's max cost per request)"
                                      << int(K::OpenRouting) << "maxCost";
        QTest::newRow("a header's filter: routing, no field")
            << "filter" << 0 << false << "priced above x-aile-max-price" << int(K::OpenRouting) << "";
        QTest::newRow("capability: nothing to fix") << "capability" << 0 << false << "does not support tools" << int(K::None) << "";
    }

    void suggestions()
    {
        QFETCH(QString, skip);
        QFETCH(int, status);
        QFETCH(bool, dispatched);
        QFETCH(QString, reason);
        QFETCH(int, kind);
        QFETCH(QString, lever);
        Store::AttemptRecord a;
        a.sharer = A;
        a.skip = skip;
        a.status = status;
        a.dispatched = dispatched;
        a.reason = reason;
        a.outcome = dispatched ? QStringLiteral("failed_over") : QStringLiteral("refused");
        const Ui::AttemptAction action = Ui::AttemptActions::suggest(a);
        QCOMPARE(int(action.kind), kind);
        QCOMPARE(action.lever, lever);
    }

    void rowsActThroughTheApi()
    {
        Test::FakeUpstream upstream;
        QVERIFY(upstream.listen());
        const QStringList models{Model};
        QJsonObject a = Test::sharer(A, QStringLiteral("openai"), upstream.baseUrl(), models);
        a.insert(QStringLiteral("priority"), 10);
        a.insert(QStringLiteral("tested"), QJsonArray{Model});
        QJsonObject b = Test::sharer(B, QStringLiteral("openai"), upstream.baseUrl(), models);
        b.insert(QStringLiteral("tested"), QJsonArray{Model});
        QJsonObject c = Test::sharer(C, QStringLiteral("openai"), upstream.baseUrl(), models);
        c.insert(QStringLiteral("priority"), 20);
        c.insert(QStringLiteral("name"), QStringLiteral("untested-account"));
        Test::WindowUnderTest w;
        QVERIFY(w.start(Test::configWith(QJsonArray{a, b, c}, QJsonObject{{QStringLiteral("verifiedOnly"), true}},
                                         QJsonObject{{QStringLiteral("probeIntervalMs"), 1e12}})));

        upstream.enqueueFor(A.toLatin1(), Test::FakeUpstream::error(500, QStringLiteral("upstream broke")));
        QCOMPARE(w.chat(QLatin1String(Test::TestKey), QStringLiteral("openai/gpt-5.2")).status, 200);      // A fails, B serves
        const Test::Reply second = w.chat(QLatin1String(Test::TestKey), QStringLiteral("openai/gpt-5.2")); // A cools: passed over
        QCOMPARE(second.header("x-aile-sharer"), B.toLatin1());
        const QString traceId = QString::fromLatin1(second.header("x-aile-request-id"));

        auto *traces = w.window()->findChild<Ui::TracesView *>();
        QVERIFY(traces);
        w.window()->findChild<QTabWidget *>()->setCurrentWidget(traces);
        traces->revealTrace(traceId);
        Ui::TraceDetailPane *pane = traces->detailPane();
        QTRY_VERIFY(pane->attemptsTable()->rowCount() >= 2);
        // The rows: C removed by the key's verified-only, A passed over while cooling, B served.
        int rowC = -1, rowA = -1;
        for (int r = 0; r < pane->attemptsTable()->rowCount(); ++r) {
            const QString who = pane->attemptsTable()->item(r, Ui::TraceDetailPane::Sharer)->text();
            if (who == QLatin1String("untested-account"))
                rowC = r;
            else if (pane->attemptsTable()->item(r, Ui::TraceDetailPane::Reason)->text().startsWith(QLatin1String("cooling down")))
                rowA = r;
        }
        QVERIFY(rowC >= 0 && rowA >= 0);
        auto *clear = qobject_cast<QPushButton *>(pane->attemptsTable()->cellWidget(rowA, Ui::TraceDetailPane::Action));
        QVERIFY(clear);
        QCOMPARE(clear->text(), QStringLiteral("Clear cooldown"));

        // "Why this sharer?" in words.
        QTest::mouseClick(pane->findChild<QPushButton *>(QStringLiteral("whyThisSharer")), Qt::LeftButton);
        const QString why = pane->findChild<QLabel *>(QStringLiteral("whyText"))->text();
        QVERIFY2(why.contains(QLatin1String("served this request (openai/gpt-5.2)")), qPrintable(why));
        QVERIFY2(why.contains(QLatin1String("Removed before any dial: sharer-00a1 (cooling down (server error)); "
                                            "untested-account (has not passed a test of gpt-5.2")),
                 qPrintable(why));
        // What the plan knew of B, kept in its row: alone in its tier once A and C were out.
        QVERIFY2(why.contains(QLatin1String("It was in tier 0 and ranked 1 of 1 candidates, having passed a test of the model.")), qPrintable(why));
        QVERIFY2(why.contains(QLatin1String("no draw was needed")), qPrintable(why));

        if (const QByteArray shot = qgetenv("AILE_TRACE_ACTIONS_SCREENSHOT"); !shot.isEmpty()) {
            w.window()->resize(1280, 860);
            QVERIFY(w.window()->grab().save(QString::fromLocal8Bit(shot)));
        }

        QSignalSpy finished(pane, &Ui::TraceDetailPane::actionFinished);
        QTest::mouseClick(clear, Qt::LeftButton);
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(finished.first().at(1).toString()));
        QVERIFY(pane->actionResult().contains(QLatin1String("back in selection")));
        // The engine recorded the action as a trace of its own.
        QTRY_VERIFY(w.admin(QStringLiteral("GET"), QStringLiteral("/keys/usage/requests?limit=1"))
                        .json()
                        .value(QLatin1String("data"))
                        .toArray()
                        .first()
                        .toObject()
                        .value(QLatin1String("client"))
                        .toString()
                    == QLatin1String("aile-action"));

        // C's row opens the key's Routing with "verified" highlighted.
        Ui::KeyRoutingDialog *routing = pane->runAction(rowC);
        QVERIFY(routing);
        QTRY_COMPARE(routing->highlightedLever(), QStringLiteral("verifiedOnly"));
        routing->close();
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TestTraceRowActions t;
    return QTest::qExec(&t, argc, argv);
}

#include "TestTraceRowActions.moc"
